/*
 * libFuzzer harness: arbitrary bytes as a diff.  Parsed and validated
 * (with and without symlinks allowed, the first byte chooses), then every
 * reader of the parsed form runs: the paths, the git form, the interdiff
 * normalisation and the hunk filter of semantic patches.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "port/cocci.h"
#include "core/diff.h"
#include "mail/interdiff.h"
#include "core/strbuf.h"
#include "core/strvec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void readers(const char *text, const struct sk_diff *d)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *drops[] = { "mm/a.c:1", "/dev/null:2" };
	char **paths = NULL;
	size_t nr = 0, alloc = 0, i, j;

	sk_diff_paths(&paths, &nr, &alloc, d, SK_DIFF_PATHS_OLD);
	for (i = 0; i < nr; i++)
		if (!sk_diff_path_ok(paths[i], strlen(paths[i])))
			abort();	/* a path that passed must be safe */
	sk_strvec_free_array(paths, nr);
	for (i = 0; i < d->nr; i++)
		for (j = 0; j < d->files[i].nr_hunks; j++)
			if (d->files[i].hunks[j].end > strlen(text))
				abort();
	sk_diff_to_git(&sb, text, d);
	sk_strbuf_reset(&sb);
	sk_interdiff_normalise(&sb, text);
	sk_strbuf_reset(&sb);
	sk_cocci_drop_hunks(&sb, text, drops, 2);
	sk_strbuf_release(&sb);
	(void)sk_diff_find(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct sk_diff d;
	unsigned int flags = size && (data[0] & 1) ? SK_DIFF_ALLOW_SYMLINK : 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!sk_diff_parse(&d, text, size, "fuzz", 1, flags)) {
		readers(text, &d);
		sk_diff_release(&d);
	}
	free(text);
	return 0;
}

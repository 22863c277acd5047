/*
 * The MAINTAINERS parser and get_maintainer.pl's matching (mail/
 * maintainers).  Invariants: a file parses or is SK_EINVALID; every
 * section has a title; for any paths (the input's own F: values and a few
 * fixed ones) the recipients are non-empty strings, each once, and no
 * address is both To: and Cc:.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mail/maintainers.h"

static void check_unique(char **v, size_t nr, char **other, size_t nr_other)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		if (!v[i] || !*v[i])
			abort();
		for (j = i + 1; j < nr; j++)
			if (!strcmp(v[i], v[j]))
				abort();
		for (j = 0; j < nr_other; j++)
			if (!strcmp(v[i], other[j]))
				abort();
	}
}

static void recipients(const struct sk_maintainers *m)
{
	const char *paths[8] = { "mm/vmscan.c", "include/linux/mmzone.h",
				 "MAINTAINERS", "a/b/c/d.c" };
	size_t nr = 4, i, j;
	struct sk_recipients r;

	for (i = 0; i < m->nr && nr < 8; i++)
		for (j = 0; j < m->sections[i].nr && nr < 8; j++)
			if (m->sections[i].entries[j].tag == 'F')
				paths[nr++] = m->sections[i].entries[j].value;
	sk_maintainers_recipients(&r, m, paths, nr);
	check_unique(r.to, r.nr_to, r.cc, r.nr_cc);
	check_unique(r.cc, r.nr_cc, NULL, 0);
	sk_recipients_release(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sk_maintainers m = { 0 };
	char *text = malloc(size + 1);
	size_t i;
	int ret;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	ret = sk_maintainers_parse(&m, "fuzz", text);
	if (ret && ret != SK_EINVALID)
		abort();
	if (!ret) {
		for (i = 0; i < m.nr; i++)
			if (!m.sections[i].title)
				abort();
		recipients(&m);
	}
	sk_maintainers_release(&m);
	sk_error_clear();
	free(text);
	return 0;
}

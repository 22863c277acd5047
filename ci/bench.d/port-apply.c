/*
 * ci/bench.d/port-real's driver: a diff applied to a directory the way
 * `stablekit port`'s offset and fuzz stage applies it (lib/port/apply.c,
 * fuzz up to 3, placement proven), printing how each hunk was placed;
 * for a refused hunk whose definition the tree lacks, where its lines are
 * now, as the FAILED mail says (lib/port/preimage.h).  Exit 0 when every
 * hunk applied (files written), 1 when it refused (nothing written), 2 on
 * errors.
 */
#include "port/apply.h"
#include "port/preimage.h"
#include "core/diff.h"
#include "core/error.h"
#include "core/fsutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct sk_diff_hunk *hunk_of(const struct sk_diff *d,
					  const struct sk_hunk_report *h)
{
	size_t f;

	for (f = 0; f < d->nr; f++) {
		const char *p = d->files[f].new_path ? d->files[f].new_path :
			d->files[f].old_path;

		if (p && !strcmp(p, h->path) && h->nr >= 1 &&
		    (size_t)h->nr <= d->files[f].nr_hunks)
			return &d->files[f].hunks[h->nr - 1];
	}
	return NULL;
}

/*
 * The file under dir (below rel) that defines name, as the FAILED mail's
 * definition index finds one the hunk's file lacks; NULL when none.
 */
static char *defined_in(const char *dir, const char *rel, const char *name)
{
	char *full = *rel ? sk_path_join(dir, rel) : sk_xstrdup(dir), *found = NULL;
	DIR *d = opendir(full);
	struct dirent *e;

	while (d && !found && (e = readdir(d))) {
		char *sub = *rel ? sk_xstrfmt("%s/%s", rel, e->d_name) :
			sk_xstrdup(e->d_name);
		char *abs = sk_path_join(dir, sub);
		const char *dot = strrchr(e->d_name, '.');
		struct stat st;

		if (e->d_name[0] != '.' && !lstat(abs, &st)) {
			if (S_ISDIR(st.st_mode))
				found = defined_in(dir, sub, name);
			else if (S_ISREG(st.st_mode) && dot &&
				 (!strcmp(dot, ".c") || !strcmp(dot, ".h")) &&
				 sk_preimage_defines(dir, sub, name))
				found = sk_xstrdup(sub);
		}
		free(abs);
		free(sub);
	}
	if (d)
		closedir(d);
	free(full);
	return found;
}

/* " [gone: its lines are in f (path:line, m of n lines)]": a definition gone. */
static void gone(const char *dir, const struct sk_diff *d,
		 const struct sk_hunk_report *h)
{
	const struct sk_diff_hunk *dh = hunk_of(d, h);
	struct sk_preimage_place pl;

	char *elsewhere;

	if (h->applied || !dh || (!h->absent && (!h->changes ||
	    sk_preimage_defines(dir, h->path, h->changes))))
		return;
	elsewhere = h->changes ? defined_in(dir, "", h->changes) : NULL;
	if (elsewhere) {
		printf(" [moved: %s defines it]", elsewhere);
		free(elsewhere);
		return;
	}
	if (sk_preimage_find(&pl, dir, h->path, dh) > 0)
		printf(" [gone: its lines are in %s (%s:%ld, %zu of %zu lines)]",
		       pl.def ? pl.def : "-", pl.path, pl.line, pl.matched,
		       pl.distinctive);
	else
		printf(" [gone: its lines are not found]");
	sk_preimage_place_release(&pl);
}

int main(int argc, char **argv)
{
	struct sk_strbuf diff = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };
	struct sk_diff d;
	size_t i;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: port-apply <dir> <diff>\n");
		return 2;
	}
	if (sk_read_file(&diff, argv[2])) {
		fprintf(stderr, "port-apply: %s\n", sk_error_last());
		return 2;
	}
	if (sk_diff_parse(&d, diff.buf, diff.len, argv[2], 1, 0)) {
		fprintf(stderr, "port-apply: %s\n", sk_error_last());
		return 2;
	}
	ret = sk_apply_dir(&rep, argv[1], diff.buf, SK_APPLY_FUZZ | SK_APPLY_FUZZ3);
	for (i = 0; i < rep.nr; i++) {
		const struct sk_hunk_report *h = &rep.hunks[i];

		printf("%s hunk %d: %s%s%s%s", h->path, h->nr,
		       h->applied ? (h->placed ? h->placed : "applied") :
		       h->absent ? "refused: the file is absent" : "refused",
		       !h->applied && h->changes ? " (changes " : "",
		       !h->applied && h->changes ? h->changes : "",
		       !h->applied && h->changes ? ")" : "");
		gone(argv[1], &d, h);
		putchar('\n');
	}
	sk_diff_release(&d);
	if (ret && ret != SK_ECONFLICT)
		fprintf(stderr, "port-apply: %s\n", sk_error_last());
	sk_apply_report_release(&rep);
	sk_strbuf_release(&diff);
	return !ret ? 0 : ret == SK_ECONFLICT ? 1 : 2;
}

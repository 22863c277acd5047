/*
 * ci/bench.d/port-real's driver: a diff applied to a directory the way
 * `stablekit port`'s offset and fuzz stage applies it (lib/port/apply.c,
 * fuzz up to 3, placement proven), printing how each hunk was placed.
 * Exit 0 when every hunk applied (files written), 1 when it refused
 * (nothing written), 2 on errors.
 */
#include "port/apply.h"
#include "core/error.h"
#include "core/fsutil.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	struct sk_strbuf diff = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };
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
	ret = sk_apply_dir(&rep, argv[1], diff.buf, SK_APPLY_FUZZ | SK_APPLY_FUZZ3);
	for (i = 0; i < rep.nr; i++) {
		const struct sk_hunk_report *h = &rep.hunks[i];

		printf("%s hunk %d: %s%s%s%s\n", h->path, h->nr,
		       h->applied ? (h->placed ? h->placed : "applied") :
		       h->absent ? "refused: the file is absent" : "refused",
		       !h->applied && h->changes ? " (changes " : "",
		       !h->applied && h->changes ? h->changes : "",
		       !h->applied && h->changes ? ")" : "");
	}
	if (ret && ret != SK_ECONFLICT)
		fprintf(stderr, "port-apply: %s\n", sk_error_last());
	sk_apply_report_release(&rep);
	sk_strbuf_release(&diff);
	return !ret ? 0 : ret == SK_ECONFLICT ? 1 : 2;
}

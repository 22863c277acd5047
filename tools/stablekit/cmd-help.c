#include "builtin.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The manual pages are plain text kept in the repository, one per command,
 * read from the data directory (core/datadir.h) or $STABLEKIT_DOCDIR.
 */
int cmd_help(int argc, const char **argv, struct sk_context *ctx)
{
	struct sk_strbuf page = SK_STRBUF_INIT;
	const char *dir = getenv("STABLEKIT_DOCDIR");
	char *name, *path;
	int ret;

	(void)ctx;
	if (argc == 1) {
		sk_print_commands(stdout);
		return 0;
	}
	if (argc != 2 || strchr(argv[1], '/') || argv[1][0] == '.') {
		fprintf(stderr, "usage: stablekit help [<command>]\n");
		return SK_EXIT_USAGE;
	}
	name = sk_xstrfmt("Documentation/stablekit-%s.txt", argv[1]);
	path = dir && *dir ? sk_path_join(dir, name + 14) : sk_datadir_path(name);
	ret = sk_read_file(&page, path);
	if (ret == SK_ENOTFOUND) {
		/* not a command: a usage error, with the commands there are */
		fprintf(stderr, "error: no manual page for '%s' (%s)\n", argv[1], path);
		sk_print_commands(stderr);
	} else if (ret) {
		fprintf(stderr, "error: %s\n", sk_error_last());
	} else {
		fputs(page.buf, stdout);
	}
	free(name);
	free(path);
	sk_strbuf_release(&page);
	return ret == SK_ENOTFOUND ? SK_EXIT_USAGE : ret ? SK_EXIT_FAIL : 0;
}

#include "builtin.h"
#include "mail/series.h"
#include "project/branches.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/utf8.h"
#include "core/fsutil.h"
#include "core/progress.h"
#include "core/run.h"
#include "core/strbuf.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SK_VERSION "0.1"

enum command_flags {
	NEEDS_TOP = 1 << 0,	/* run inside a stablekit project */
};

struct command {
	const char *name;
	int (*fn)(int argc, const char **argv, struct sk_context *ctx);
	unsigned int flags;
	const char *summary;
};

static const struct command commands[] = {
	{ "pull", cmd_pull, NEEDS_TOP, "ingest a revision of a series (b4, mbox)" },
	{ "series", cmd_series, NEEDS_TOP, "list the series under series/ or show one" },
	{ "diff", cmd_diff, NEEDS_TOP, "per-patch interdiff of two revisions" },
	{ "maintainers", cmd_maintainers, NEEDS_TOP, "who owns a path, from MAINTAINERS" },
	{ "status", cmd_status, NEEDS_TOP, "where each patch stands on mainline and the stable branches" },
	{ "scan", cmd_scan, NEEDS_TOP, "what a stable branch is missing from mainline, commit by commit" },
	{ "workspace", cmd_workspace, NEEDS_TOP, "build the embedded 6.12.y kernel repository" },
	{ "port", cmd_port, NEEDS_TOP, "stable backports as quilt queues under stable/" },
	{ "build", cmd_build, NEEDS_TOP, "build each branch, unpatched and with its queue, per arch" },
	{ "test", cmd_test, NEEDS_TOP, "boot the kernel in QEMU and run kselftests" },
	{ "gate", cmd_gate, NEEDS_TOP, "queue, builds, boot, kselftests and benchmark of a branch" },
	{ "report", cmd_report, NEEDS_TOP, "per-branch reports: mail text, JSON and HTML" },
	{ "init", cmd_init, 0, "create a project: series/, stable/branches.conf, MAINTAINERS" },
	{ "help", cmd_help, 0, "show the manual page of a command" },
	{ NULL, NULL, 0, NULL }
};

void sk_print_commands(FILE *f)
{
	const struct command *c;

	fprintf(f, "usage: stablekit [-C <dir>] [--json] [-q | --quiet | --progress]\n"
		   "                 <command> [<args>]\n\n");
	fprintf(f, "commands:\n");
	for (c = commands; c->name; c++)
		fprintf(f, "   %-12s %s\n", c->name, c->summary);
	fprintf(f, "\nProgress of long work goes to stderr, one line per step with the\n"
		   "elapsed time, terminal or not; --quiet (or SK_PROGRESS=0) silences it.\n"
		   "Exit status, every command: 0 ok, 1 a check failed, 128 an error\n"
		   "(bad input, a tool or git failure), 129 usage (a bad option, value or\n"
		   "name), 128 + N stopped by signal N.\n"
		   "\n'stablekit help <command>' shows a command's manual page.\n");
}

int sk_require_branch(const char *top, const char *name)
{
	struct sk_branches b;
	char *path = sk_path_join(top, SK_BRANCHES_CONF);
	int ret = sk_branches_load(&b, path);

	free(path);
	if (ret)
		return sk_die_lib(ret);
	ret = sk_branches_require(&b, name);
	if (ret)
		fprintf(stderr, "error: %s\n", sk_error_last());
	sk_branches_release(&b);
	return ret ? SK_EXIT_USAGE : SK_EXIT_OK;
}

int sk_die_series(int code, const char *top, const char *name)
{
	char *slug = NULL;

	if (code != SK_ENOTFOUND)
		return sk_die_lib(code);
	/* the resolver's message: the name, and the series there are */
	code = sk_series_resolve(&slug, top, name);
	free(slug);
	if (!code)
		return sk_die_lib(SK_ENOTFOUND);
	fprintf(stderr, "error: %s\n", sk_error_last());
	return code == SK_ENOTFOUND ? SK_EXIT_USAGE : SK_EXIT_FAIL;
}

/* Optimal string alignment distance (Levenshtein with adjacent swaps). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, *d, r;

	if (la > 64 || lb > 64)
		return (size_t)-1;
	d = sk_xcalloc((la + 1) * (lb + 1), sizeof(*d));
#define D(x, y) d[(x) * (lb + 1) + (y)]
	for (i = 0; i <= la; i++)
		D(i, 0) = i;
	for (j = 0; j <= lb; j++)
		D(0, j) = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t c = D(i - 1, j - 1) + (a[i - 1] != b[j - 1]);

			if (D(i - 1, j) + 1 < c)
				c = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < c)
				c = D(i, j - 1) + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && D(i - 2, j - 2) + 1 < c)
				c = D(i - 2, j - 2) + 1;
			D(i, j) = c;
		}
	r = D(la, lb);
#undef D
	free(d);
	return r;
}

const char *sk_did_you_mean(const char *word, const char *const *choices)
{
	const char *best = NULL;
	size_t bestd = 3, d;

	for (; *choices; choices++) {
		d = edit_distance(word, *choices);
		if (d < bestd && d < strlen(*choices)) {
			best = *choices;
			bestd = d;
		}
	}
	return best;
}

int sk_series_arg(char **out, const struct sk_context *ctx, const char *name)
{
	int ret = sk_series_resolve(out, ctx->top, name);

	if (!ret)
		return 0;
	fprintf(stderr, "error: %s\n", sk_error_last());
	return ret == SK_ENOTFOUND ? SK_EXIT_USAGE : SK_EXIT_FAIL;
}

const char *sk_term(const char *s)
{
	static struct sk_strbuf ring[8];
	static unsigned int next;
	struct sk_strbuf *sb = &ring[next++ % 8];

	if (!sb->buf)
		sk_strbuf_init(sb);
	sk_strbuf_reset(sb);
	sk_utf8_add_printable(sb, s);
	return sb->buf;
}

int sk_die_lib(int code)
{
	fprintf(stderr, "error: %s\n", sk_error_last());
	return code == SK_ECONFLICT ? SK_EXIT_CHECK : SK_EXIT_FAIL;
}

/* The project is the nearest directory, from here up, that has series/. */
static char *find_top(void)
{
	char *cwd = getcwd(NULL, 0), *dir;

	if (!cwd)
		return NULL;
	dir = sk_xstrdup(cwd);
	for (;;) {
		char *probe = sk_path_join(dir, "series");
		int found = sk_is_dir(probe);
		char *slash;

		free(probe);
		if (found)
			break;
		slash = strrchr(dir, '/');
		if (!slash || slash == dir) {
			free(dir);
			dir = sk_xstrdup(cwd);
			break;
		}
		*slash = '\0';
	}
	free(cwd);
	return dir;
}

static const struct command *find_command(const char *name)
{
	const struct command *c;

	for (c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* git's run_builtin: a write error on stdout is a failure too. */
static int finish_stdout(int ret)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "error: write failure on standard output\n");
		return SK_EXIT_FAIL;
	}
	return ret;
}

int main(int argc, const char **argv)
{
	struct sk_context ctx = { 0 };
	const struct command *cmd;
	char *top = NULL;
	const char *env = getenv("SK_PROGRESS");
	int progress = !(env && !strcmp(env, "0")), ret;

	/*
	 * Before any thread: SIGINT, SIGTERM and SIGHUP stop the children's
	 * process groups, remove the temporary directories and exit 128 + N.
	 */
	if (sk_run_signals_init()) {
		fprintf(stderr, "fatal: %s\n", sk_error_last());
		return SK_EXIT_FAIL;
	}
	argv++;
	argc--;
	while (argc && argv[0][0] == '-') {
		if (!strcmp(argv[0], "-C") && argc > 1) {
			if (chdir(argv[1])) {
				fprintf(stderr, "fatal: cannot change to '%s'\n", argv[1]);
				return SK_EXIT_FAIL;
			}
			argv += 2;
			argc -= 2;
		} else if (!strcmp(argv[0], "--json")) {
			ctx.json = 1;
			argv++;
			argc--;
		} else if (!strcmp(argv[0], "-q") || !strcmp(argv[0], "--quiet")) {
			progress = 0;
			argv++;
			argc--;
		} else if (!strcmp(argv[0], "--progress")) {
			progress = 1;
			argv++;
			argc--;
		} else if (!strcmp(argv[0], "--version")) {
			printf("stablekit version %s (libgit2 %s)\n", SK_VERSION,
			       LIBGIT2_VERSION);
			return finish_stdout(0);
		} else if (!strcmp(argv[0], "--data-dir")) {
			/* where the shipped files are read from (core/datadir.h) */
			char *dir = sk_datadir();

			printf("%s\n", dir);
			free(dir);
			return finish_stdout(0);
		} else if (!strcmp(argv[0], "-h") || !strcmp(argv[0], "--help")) {
			sk_print_commands(stdout);
			return finish_stdout(0);
		} else {
			fprintf(stderr, "error: unknown option '%s'\n", argv[0]);
			sk_print_commands(stderr);
			return SK_EXIT_USAGE;
		}
	}
	if (!argc) {
		sk_print_commands(stderr);
		return SK_EXIT_USAGE;
	}
	cmd = find_command(argv[0]);
	if (!cmd) {
		const char *names[sizeof(commands) / sizeof(*commands) + 1];
		const char *guess;
		size_t n = 0;

		for (cmd = commands; cmd->name; cmd++)
			names[n++] = cmd->name;
		names[n] = NULL;
		guess = sk_did_you_mean(argv[0], names);
		fprintf(stderr, "error: '%s' is not a stablekit command%s%s%s\n",
			argv[0], guess ? "; did you mean '" : "",
			guess ? guess : "", guess ? "'?" : "");
		sk_print_commands(stderr);
		return SK_EXIT_USAGE;
	}
	sk_progress_setup(progress);
	ctx.progress = sk_progress_enabled();
	if (cmd->flags & NEEDS_TOP) {
		top = find_top();
		if (!top) {
			fprintf(stderr, "fatal: cannot find the current directory\n");
			return SK_EXIT_FAIL;
		}
		ctx.top = top;
	}
	git_libgit2_init();
	/*
	 * Objects are read as git reads them: not hashed again on every
	 * inflate (git checks them in fsck and index-pack, not in log or
	 * diff).  libgit2 has no getter for it, so a library function that
	 * turned it off and back on would turn it on for the caller too:
	 * it is set once, here.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	ret = cmd->fn(argc, argv, &ctx);
	git_libgit2_shutdown();
	free(top);
	return finish_stdout(ret);
}

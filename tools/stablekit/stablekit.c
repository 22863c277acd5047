#include "builtin.h"
#include "mail/series.h"
#include "project/branches.h"
#include "core/error.h"
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
	char **names = NULL;
	size_t nr = 0, i;

	if (code != SK_ENOTFOUND)
		return sk_die_lib(code);
	fprintf(stderr, "error: no series '%s' under series/ (", name);
	if (!sk_series_names(&names, &nr, top) && nr)
		for (i = 0; i < nr; i++)
			fprintf(stderr, "%s%s", i ? ", " : "there are: ", names[i]);
	else
		fprintf(stderr, "there is none; stablekit pull stores one");
	fprintf(stderr, ")\n");
	sk_series_names_free(names, nr);
	return SK_EXIT_USAGE;
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
		fprintf(stderr, "error: '%s' is not a stablekit command\n", argv[0]);
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
	ret = cmd->fn(argc, argv, &ctx);
	git_libgit2_shutdown();
	free(top);
	return finish_stdout(ret);
}

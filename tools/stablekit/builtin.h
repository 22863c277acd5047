#ifndef SK_BUILTIN_H
#define SK_BUILTIN_H

#include <stdio.h>

/*
 * One file per command (cmd-<name>.c): parse options, call the library,
 * print.  main() in stablekit.c sets up what each command's flags ask for.
 */
struct sk_context {
	const char *top;	/* the project: series/, stable/, semantic-patches/ */
	int json;		/* --json: machine output on stdout */
	int progress;		/* progress lines on stderr (lib/core/progress.h) */
};

/* Exit codes, as libgit2's CLI and git use them. */
enum sk_exit {
	SK_EXIT_OK = 0,
	SK_EXIT_CHECK = 1,	/* a check or gate ran and failed */
	SK_EXIT_FAIL = 128,	/* a git, sqlite, tool or OS failure, bad input */
	SK_EXIT_USAGE = 129,
};

/*
 * A --branch named on the command line must be in stable/branches.conf:
 * checked before any work, so that nothing is built or written for a typo.
 * SK_EXIT_OK, SK_EXIT_USAGE (unknown, naming those there are) or
 * SK_EXIT_FAIL (branches.conf unreadable); the error is printed.
 */
int sk_require_branch(const char *top, const char *name);

/* A build's progress line on stderr; data is the branch's name. */
void sk_build_progress(const char *arch, const char *variant, const char *what,
		       void *data);

/*
 * A failed sk_series_load of a name from the command line: an unknown
 * series is a usage error naming those there are; anything else as
 * sk_die_lib.  Prints the error.
 */
int sk_die_series(int code, const char *top, const char *name);
/*
 * A series name from the command line, resolved (sk_series_resolve: the
 * name, or the only series it is the start of) into *out.  SK_EXIT_OK,
 * else the error is printed and the exit code returned: SK_EXIT_USAGE
 * for an unknown or ambiguous name (listing the candidates), every
 * command alike.
 */
int sk_series_arg(char **out, const struct sk_context *ctx, const char *name);

/*
 * The choice a mistyped word means (at most two edits away, adjacent
 * swaps counting as one), or NULL; choices ends with NULL.
 */
const char *sk_did_you_mean(const char *word, const char *const *choices);

/* The usage line, the commands and the exit codes (for --help and help). */
void sk_print_commands(FILE *f);

int cmd_help(int argc, const char **argv, struct sk_context *ctx);
int cmd_init(int argc, const char **argv, struct sk_context *ctx);
int cmd_pull(int argc, const char **argv, struct sk_context *ctx);
int cmd_series(int argc, const char **argv, struct sk_context *ctx);
int cmd_diff(int argc, const char **argv, struct sk_context *ctx);
int cmd_maintainers(int argc, const char **argv, struct sk_context *ctx);
int cmd_port(int argc, const char **argv, struct sk_context *ctx);
int cmd_status(int argc, const char **argv, struct sk_context *ctx);
int cmd_scan(int argc, const char **argv, struct sk_context *ctx);
int cmd_workspace(int argc, const char **argv, struct sk_context *ctx);
int cmd_build(int argc, const char **argv, struct sk_context *ctx);
int cmd_test(int argc, const char **argv, struct sk_context *ctx);
int cmd_gate(int argc, const char **argv, struct sk_context *ctx);
int cmd_report(int argc, const char **argv, struct sk_context *ctx);
/* pull --update (cmd-pull-update.c): series names, the options pull took */
int cmd_pull_update(struct sk_context *ctx, const char **names, int nr,
		    int stray, int timeout, int deadline, int max_revisions,
		    int json);

/* Print "error: <last library error>" and map the code to an exit code. */
int sk_die_lib(int code);
/*
 * Text from outside (a guest console, a mail) as a terminal may show it:
 * sk_utf8_add_printable's escapes.  The result lives until the 8th call
 * after it.
 */
const char *sk_term(const char *s);

#endif

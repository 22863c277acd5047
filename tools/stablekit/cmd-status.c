#include "builtin.h"
#include "project/branches.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "track/index.h"
#include "core/options.h"
#include "mail/seriesjson.h"
#include "project/repo.h"
#include "track/session.h"
#include "port/port-stale.h"
#include "track/status.h"
#include "core/strbuf.h"
#include "core/utf8.h"
#include "track/track.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static const char usage[] =
	"stablekit status [--repo <path>] [--series <slug>] [--json] [--stats]\n"
	"   or: stablekit status --why <patch> <branch>";

static const char *const colours[] = {
	[SK_STATE_UNKNOWN] = "\033[35m",
	[SK_STATE_UPSTREAM] = "\033[32m",
	[SK_STATE_PENDING] = "\033[33m",
	[SK_STATE_PRESENT] = "\033[32m",
	[SK_STATE_QUEUED] = "\033[36m",
	[SK_STATE_NEEDED] = "\033[1;31m",
	[SK_STATE_NOT_AFFECTED] = "\033[2m",
	[SK_STATE_NOT_ELIGIBLE] = "\033[2m",
	[SK_STATE_SIMILAR] = "\033[33m",
	[SK_STATE_REVERTED_UPSTREAM] = "\033[35m",
	[SK_STATE_REVERTED_HERE] = "\033[35m",
	[SK_STATE_WAITS] = "\033[33m",
};

/*
 * The columns of the terminal stdout is, as git's term_columns: $COLUMNS,
 * else the terminal's size, else 80; 0 when stdout is no terminal (a
 * file or a pipe gets every subject whole).
 */
static size_t terminal_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;

	if (!isatty(1))
		return 0;
	if (env && atoi(env) > 0)
		return (size_t)atoi(env);
	if (!ioctl(1, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return 80;
}

/* Columns of UTF-8 text, one per character. */
static size_t text_columns(const char *s, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/*
 * The subject in room columns (0: no limit): whole when it fits, else cut
 * at the last word boundary that leaves room for the ellipsis (mid-word
 * only for a first word longer than half the room).
 */
static void print_subject(const char *s, size_t room)
{
	size_t len = strlen(s), cut = 0, i, cols = 0, space = 0;

	if (!room || text_columns(s, len) <= room) {
		printf("%s\n", s);
		return;
	}
	for (i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (cols + 1 >= room)	/* one column for the ellipsis */
				break;
			cols++;
		}
		if (s[i] == ' ')
			space = i;
		cut = i + 1;
	}
	cut = sk_utf8_cut(s, cut);
	if (space && text_columns(s, space) * 2 >= room)
		cut = space;
	while (cut && (s[cut - 1] == ' ' || s[cut - 1] == ','))
		cut--;
	printf("%.*s\xe2\x80\xa6\n", (int)cut, s);	/* U+2026 */
}

static char *patch_id(const struct sk_track_patch *tp)
{
	return sk_xstrfmt("%s:%d", tp->slug, tp->nr);
}

static void print_table(const struct sk_track *t, int colour)
{
	size_t *width = sk_xcalloc(t->nr_branches + 1, sizeof(*width));
	size_t i, j, used, room, term = terminal_width();

	width[0] = strlen("PATCH");
	for (i = 0; i < t->nr_patches; i++) {
		char *id = patch_id(&t->patches[i]);

		if (strlen(id) > width[0])
			width[0] = strlen(id);
		free(id);
	}
	/* as wide as the name and the widest state in the column */
	for (j = 0; j < t->nr_branches; j++) {
		width[j + 1] = strlen(t->branches[j].br->name);
		for (i = 0; i < t->nr_patches; i++) {
			const struct sk_track_cell *c = &t->patches[i].cells[j];
			size_t w = strlen(sk_state_name(c->state)) +
				   (c->nr_deps ? 2 : 0) + !!c->differs;

			if (width[j + 1] < w)
				width[j + 1] = w;
		}
	}
	used = width[0] + 2;
	for (j = 0; j < t->nr_branches; j++)
		used += 2 + width[j + 1];
	/* the subject takes what the terminal has left, 10 at least */
	room = !term ? 0 : term > used + 10 ? term - used : 10;
	printf("%-*s", (int)width[0], "PATCH");
	for (j = 0; j < t->nr_branches; j++)
		printf("  %-*s", (int)width[j + 1], t->branches[j].br->name);
	printf("  SUBJECT\n");
	for (i = 0; i < t->nr_patches; i++) {
		const struct sk_track_patch *tp = &t->patches[i];
		char *id = patch_id(tp);

		printf("%-*s", (int)width[0], id);
		for (j = 0; j < t->nr_branches; j++) {
			const struct sk_track_cell *c = &tp->cells[j];
			const char *name = sk_state_name(c->state);
			/* "*": queued, not the code that landed upstream */
			const char *mark = c->differs ? "*" : "";
			char *text = c->nr_deps ?
				sk_xstrfmt("%s+%zu%s", name, c->nr_deps, mark) :
				sk_xstrfmt("%s%s", name, mark);

			printf("  %s%-*s%s", colour ? colours[c->state] : "",
			       (int)width[j + 1], text, colour ? "\033[m" : "");
			free(text);
		}
		printf("  ");
		print_subject(tp->subject, room);
		free(id);
	}
	free(width);
}

/* Below the table, each branch that could not be tracked, and why. */
static void print_problems(const struct sk_track *t)
{
	size_t i, j;

	for (i = 0; i < t->nr_patches; i++)
		for (j = 0; j < t->nr_branches; j++)
			if (t->patches[i].cells[j].differs) {
				printf("*: queued, but not the code that "
				       "landed upstream (--why shows the "
				       "interdiff)\n");
				i = t->nr_patches;
				break;
			}

	for (i = 0; i < t->nr_branches; i++)
		if (t->branches[i].problem)
			printf("%s: unknown: %s\n", t->branches[i].br->name,
			       t->branches[i].problem);
}

/*
 * A branch whose ref its repository lacks fails the run (exit 1), after
 * the others were shown; not the branches the embedded workspace lacks.
 */
static int branches_ok(const struct sk_track *t)
{
	return sk_status_branch_missing(t) ? SK_EXIT_CHECK : SK_EXIT_OK;
}

static void print_stats(const struct sk_track *t, const char *index_path)
{
	size_t i;

	fprintf(stderr, "index: %.3fs, match: %.3fs, diffs: %lu (%s)\n",
		t->index_s, t->match_s, t->diffs, index_path);
	for (i = 0; i < t->nr_branches; i++)
		fprintf(stderr, "  %s: walked %lu, new %lu%s\n",
			t->branches[i].br->name,
			t->branches[i].stats.walked,
			t->branches[i].stats.parsed,
			t->branches[i].stats.rewalked ? ", rewalked" : "");
}

static int print_why(struct sk_track *t, const char *patch,
		     const char *branch, int json)
{
	struct sk_track_patch *tp;
	const struct sk_track_cell *c;
	size_t bi, i;
	int ret;

	ret = sk_track_find_patch(&tp, t, patch);
	if (!ret)
		ret = sk_track_find_branch(&bi, t, branch);
	if (ret) {
		fprintf(stderr, "error: %s\n", sk_error_last());
		return SK_EXIT_USAGE;
	}
	c = &tp->cells[bi];
	if (json) {
		json_t *o = sk_status_cell_json(tp, c);

		json_object_set_new(o, "patch", json_sprintf("%s:%d", tp->slug,
							     tp->nr));
		json_object_set_new(o, "branch", json_string(branch));
		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
		return SK_EXIT_OK;
	}
	printf("%s:%d \"%s\" on %s: %s\n", tp->slug, tp->nr, tp->subject,
	       branch, sk_state_name(c->state));
	for (i = 0; i < c->nr_evidence; i++)
		printf("  - %s\n", c->evidence[i]);
	for (i = 0; i < c->nr_deps; i++)
		printf("  needs %s:%d\n", tp->slug, c->deps[i]);
	return SK_EXIT_OK;
}

int cmd_status(int argc, const char **argv, struct sk_context *ctx)
{
	struct sk_session s;
	const char *repo_opt = NULL, *series = NULL;
	char *slug = NULL;
	int json = ctx->json, why = 0, stats = 0, no_colour = 0, ret;
	size_t i;
	struct sk_option opts[] = {
		SK_OPT_STRING_(0, "repo", &repo_opt, "path",
			       "the kernel repository (default: see below)"),
		SK_OPT_STRING_(0, "series", &series, "slug",
			       "only this series"),
		SK_OPT_BOOL_(0, "why", &why,
			     "print the evidence for <patch> <branch>"),
		SK_OPT_BOOL_(0, "json", &json, "machine-readable output"),
		SK_OPT_BOOL_(0, "stats", &stats,
			     "index and match timings on stderr"),
		SK_OPT_BOOL_(0, "no-color", &no_colour, "never colour"),
		SK_OPT_END_(),
	};

	argc = sk_parse_options(argc, argv, opts, usage);
	if (argc < 0)
		return argc == -2 ? SK_EXIT_OK : SK_EXIT_USAGE;
	if ((why && argc != 2) || (!why && argc)) {
		sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	if (series) {
		ret = sk_series_arg(&slug, ctx, series);
		if (ret)
			return ret;
	}
	ret = sk_session_open(&s, ctx->top, repo_opt, slug);
	free(slug);
	if (ret) {
		sk_session_close(&s);
		return sk_die_lib(ret);
	}
	for (i = 0; i < s.track->nr_warnings; i++)
		fprintf(stderr, "warning: %s\n", s.track->warnings[i]);
	if (stats)
		print_stats(s.track, s.index_path);
	if (why) {
		ret = print_why(s.track, argv[0], argv[1], json);
	} else if (json) {
		struct sk_status_results r;
		json_t *o;

		sk_status_results_from_track(&r, s.track, s.repo_path);
		sk_port_stale_find(&r.stale, ctx->top);
		o = sk_status_results_to_json(&r);
		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
		sk_status_results_release(&r);
		ret = branches_ok(s.track);
	} else {
		char *stale = sk_port_stale_text(ctx->top);

		print_table(s.track, !no_colour && isatty(1));
		print_problems(s.track);
		fputs(stale, stdout);
		free(stale);
		ret = branches_ok(s.track);
	}
	sk_session_close(&s);
	return ret;
}

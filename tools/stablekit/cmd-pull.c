#include "builtin.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "mail/lore.h"
#include "core/options.h"
#include "mail/pull.h"
#include "mail/seriesjson.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"stablekit pull [-m <mbox|maildir>] [--name <series>] [-P <sel>] [--timeout <s>] [-v] [<msgid>]\n"
	"   or: stablekit pull --round [-m <mbox|maildir>] [--timeout <s>] [--json] [-v] [<msgid>]\n"
	"   or: stablekit pull --update [--timeout <s>] [--deadline <s>] [--max-revisions <n>]\n"
	"                               [--json] [<series>...]";

static const char *outcome_name(enum sk_pull_outcome o)
{
	switch (o) {
	case SK_PULL_NEW_SERIES:
		return "new-series";
	case SK_PULL_NEW_REVISION:
		return "new-revision";
	case SK_PULL_UPDATED:
		return "updated";
	default:
		return "up-to-date";
	}
}

/* "v2", "RFC": what a revision number of the series stands for. */
static const char *label_of(const struct sk_series *s, int version)
{
	const struct sk_revision *r = s ? sk_series_revision(s, version) : NULL;

	return r && r->label ? r->label : "?";
}

static void print_text(const struct sk_pull_result *r)
{
	const struct sk_revision *rev = sk_series_revision(r->series, r->version);
	const struct sk_revision *latest = sk_series_latest(r->series);
	size_t i, fixlets = 0;

	for (i = 0; rev && i < rev->nr_patches; i++)
		fixlets += rev->patches[i].nr_fixlets;
	printf("%s: %s, %zu patch%s", r->series->slug, label_of(r->series, r->version),
	       rev ? rev->nr_patches : 0, rev && rev->nr_patches == 1 ? "" : "es");
	if (fixlets)
		printf(" + %zu fixlet%s", fixlets, fixlets == 1 ? "" : "s");
	switch (r->outcome) {
	case SK_PULL_NEW_SERIES:
		printf(" (new series)\n");
		break;
	case SK_PULL_UP_TO_DATE:
		printf(" (already up to date)\n");
		break;
	case SK_PULL_UPDATED:
		printf(" (updated in place)\n");
		break;
	default:
		if (r->older)
			printf(" (older revision, stored; latest stays %s)\n",
			       latest ? latest->label : "?");
		else if (r->previous)
			printf(" (new revision; previous %s)\n",
			       label_of(r->series, r->previous));
		else
			printf(" (new revision)\n");
	}
	for (i = 0; rev && i < rev->nr_patches; i++)
		for (size_t j = 0; j < rev->patches[i].nr_fixlets; j++)
			printf("  fixlet on %d: %s\n", rev->patches[i].nr,
			       rev->patches[i].fixlets[j].subject);
	if (r->previous && r->outcome != SK_PULL_UP_TO_DATE) {
		struct sk_strbuf sb = SK_STRBUF_INIT;

		printf("changes since %s:\n", label_of(r->series, r->previous));
		sk_rev_changes_describe(&sb, &r->changes);
		fputs(sb.buf, stdout);
		sk_strbuf_release(&sb);
	}
}

static json_t *result_json(const struct sk_pull_result *r)
{
	json_t *o = json_object();

	json_object_set_new(o, "series", json_string(r->series->slug));
	json_object_set_new(o, "version", json_integer(r->version));
	json_object_set_new(o, "label", json_string(label_of(r->series, r->version)));
	json_object_set_new(o, "latest", json_boolean(!r->older));
	json_object_set_new(o, "outcome", json_string(outcome_name(r->outcome)));
	json_object_set_new(o, "previous", r->previous ? json_integer(r->previous) : json_null());
	json_object_set_new(o, "changes", sk_seriesjson_changes(&r->changes));
	json_object_set_new(o, "warnings", sk_seriesjson_lines(r->warnings.buf));
	json_object_set_new(o, "notes", sk_seriesjson_lines(r->notes.buf));
	return o;
}

static void print_json(const struct sk_pull_result *r)
{
	json_t *o = result_json(r);

	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(o);
}

static void print_lines(FILE *f, const char *prefix, const char *text)
{
	const char *p = text;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		fprintf(f, "%s%.*s\n", prefix, len, p);
		p = nl ? nl + 1 : p + len;
	}
}

/*
 * --round: every stable mail of a review round (or AUTOSEL batch) pulled
 * as its own series, one after the other; one that fails is named and
 * the rest still pulled.  Exit 1 when any failed.
 */
static int pull_round(const struct sk_pull_opts *base, int json, int verbose)
{
	struct sk_pull_round round;
	struct sk_pull_opts po = *base;
	json_t *pulled = json_array(), *failed = json_array(), *o;
	size_t i;
	int ret = sk_pull_round(&round, base);

	if (ret) {
		json_decref(pulled);
		json_decref(failed);
		return sk_die_lib(ret);
	}
	po.input = round.input;
	for (i = 0; i < round.ids.nr; i++) {
		struct sk_pull_result res;
		const char *id = round.ids.items[i];

		po.msgid = id;
		ret = sk_pull(&res, &po);
		print_lines(stderr, "warning: ", res.warnings.buf);
		if (verbose)
			print_lines(stderr, "pull: ", res.notes.buf);
		if (ret) {
			fprintf(stderr, "error: <%s>: %s\n", id, sk_error_last());
			json_array_append_new(failed, json_pack("{s:s, s:s}",
					      "message_id", id, "error",
					      sk_error_last()));
			sk_error_clear();
		} else if (json) {
			o = result_json(&res);
			json_object_set_new(o, "message_id", json_string(id));
			json_array_append_new(pulled, o);
		} else {
			print_text(&res);
		}
		sk_pull_result_release(&res);
	}
	ret = json_array_size(failed) ? SK_EXIT_FAIL : 0;
	if (json) {
		o = json_pack("{s:I, s:O, s:O}", "mails", (json_int_t)round.ids.nr,
			      "pulled", pulled, "failed", failed);
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(o);
	} else {
		printf("round: %zu stable mail%s, %zu pulled, %zu failed\n",
		       round.ids.nr, round.ids.nr == 1 ? "" : "s",
		       round.ids.nr - json_array_size(failed),
		       json_array_size(failed));
	}
	json_decref(pulled);
	json_decref(failed);
	sk_pull_round_release(&round);
	return ret;
}

int cmd_pull(int argc, const char **argv, struct sk_context *ctx)
{
	const char *input = NULL, *name = NULL, *pick = NULL;
	char *lore = NULL;
	int timeout = 300, json = ctx->json, update = 0, verbose = 0, ret;
	int round = 0;
	int deadline = 0, max_revisions = 0;
	struct sk_option opts[] = {
		SK_OPT_STRING_('m', "use-local-mbox", &input, "mbox",
			       "read the thread from a local mbox or maildir (offline)"),
		SK_OPT_STRING_(0, "name", &name, "series", "store under this series name"),
		SK_OPT_STRING_('P', "pick", &pick, "sel",
			       "only these patches, as b4 -P: 2, 1-3,5, 4- or _ (the message-id's), a series of their own"),
		SK_OPT_RANGE_(0, "timeout", &timeout, "seconds", 1, SK_OPT_SECONDS_MAX,
			      "limit for b4 (default 300)"),
		SK_OPT_BOOL_(0, "json", &json, "machine-readable output"),
		SK_OPT_BOOL_('v', "verbose", &verbose,
			     "name the mails left out of the pull and the items kept"),
		SK_OPT_BOOL_(0, "round", &round,
			     "every stable mail of the thread (a -rc review round), each its own series"),
		SK_OPT_BOOL_(0, "update", &update,
			     "pull newer revisions, trailers and fixlets of the tracked series"),
		SK_OPT_RANGE_(0, "deadline", &deadline, "seconds", 1,
			      SK_OPT_SECONDS_MAX,
			      "--update: limit for the whole update (default 3600)"),
		SK_OPT_RANGE_(0, "max-revisions", &max_revisions, "n", 1, 1000,
			      "--update: newer revisions pulled per series at most (default 5)"),
		SK_OPT_END_(),
	};
	struct sk_pull_opts po = { 0 };
	struct sk_pull_result res;
	int nr = sk_parse_options(argc, argv, opts, usage);

	if (nr == -2)
		return 0;
	if (nr >= 0 && pick && (round || update)) {
		fprintf(stderr, "error: -P takes neither --round nor --update\n");
		return SK_EXIT_USAGE;
	}
	if (nr >= 0 && pick && sk_pull_pick_check(pick)) {
		fprintf(stderr, "error: %s\n", sk_error_last());
		return SK_EXIT_USAGE;
	}
	if (nr >= 0 && round && (update || name)) {
		fprintf(stderr, "error: --round takes neither --update nor --name (each mail names its series)\n");
		return SK_EXIT_USAGE;
	}
	if (nr >= 0 && update) {
		/* one writer of series/ at a time */
		ret = sk_project_lock(ctx->top);
		if (ret)
			return sk_die_lib(ret);
		return cmd_pull_update(ctx, argv, nr, input || name, timeout,
				       deadline ? deadline : 3600,
				       max_revisions ? max_revisions : 5, json);
	}
	if (nr >= 0 && (deadline || max_revisions)) {
		fprintf(stderr, "error: --deadline and --max-revisions go with --update\n");
		return SK_EXIT_USAGE;
	}
	if (nr < 0 || nr > 1 || (!input && !nr)) {
		if (nr >= 0)
			sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	ret = sk_project_lock(ctx->top);
	if (!ret)
		ret = sk_lore_url(&lore, ctx->top);
	if (ret)
		return sk_die_lib(ret);
	po.top = ctx->top;
	po.lore = lore;
	po.input = input;
	po.msgid = nr ? argv[0] : NULL;
	po.name = name;
	po.pick = pick;
	po.timeout_ms = (unsigned int)timeout * 1000u;
	if (round) {
		ret = pull_round(&po, json, verbose);
		free(lore);
		return ret;
	}
	ret = sk_pull(&res, &po);
	free(lore);
	print_lines(stderr, "warning: ", res.warnings.buf);
	if (verbose)
		print_lines(stderr, "pull: ", res.notes.buf);
	if (ret) {
		int code = sk_die_lib(ret);

		if (res.ambiguous) {
			print_lines(stderr, "  ", res.threads.buf);
			code = SK_EXIT_USAGE;
		}
		sk_pull_result_release(&res);
		return code;
	}
	if (json)
		print_json(&res);
	else
		print_text(&res);
	sk_pull_result_release(&res);
	return 0;
}

#include "builtin.h"
#include "core/error.h"
#include "core/options.h"
#include "track/scan.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"stablekit scan --branch <branch> [--since <rev>] [--mainline <ref>] "
	"[--repo <path>] [--verbose] [--json]";

static json_t *strings(char **v, size_t nr)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < nr; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *scan_json(const struct sk_scan *s)
{
	json_t *o = json_object(), *n = json_object(), *list = json_array();
	size_t i, j;

	json_object_set_new(o, "branch", json_string(s->branch));
	json_object_set_new(o, "mainline", json_string(s->mainline_ref));
	json_object_set_new(o, "mainline_tip", json_string(s->mainline_tip));
	json_object_set_new(o, "branch_tip", json_string(s->branch_tip));
	json_object_set_new(o, "since", json_string(s->since));
	json_object_set_new(o, "since_how", json_string(s->since_how));
	json_object_set_new(o, "walked", json_integer((json_int_t)s->walked));
	json_object_set_new(n, "candidates", json_integer((json_int_t)s->nr));
	json_object_set_new(n, "present", json_integer((json_int_t)s->nr_present));
	json_object_set_new(n, "new", json_integer((json_int_t)s->nr_new));
	json_object_set_new(n, "reverted", json_integer((json_int_t)s->nr_reverted));
	json_object_set_new(o, "numbers", n);
	for (i = 0; i < s->nr; i++) {
		const struct sk_scan_item *it = &s->items[i];
		json_t *c = json_object(), *fx = json_array(), *pr = json_array();

		json_object_set_new(c, "commit", json_string(it->commit));
		json_object_set_new(c, "subject", json_string(it->subject));
		json_object_set_new(c, "author", json_string(it->author));
		json_object_set_new(c, "state", json_string(sk_scan_state_name(it->state)));
		json_object_set_new(c, "present_as", *it->present_as ?
				    json_string(it->present_as) : json_null());
		json_object_set_new(c, "reverted_by", *it->reverted_by ?
				    json_string(it->reverted_by) : json_null());
		json_object_set_new(c, "why", strings(it->why, it->nr_why));
		json_object_set_new(c, "evidence", strings(it->evidence, it->nr_evidence));
		for (j = 0; j < it->nr_fixed_by; j++)
			json_array_append_new(fx, json_string(it->fixed_by[j]));
		json_object_set_new(c, "fixed_by", fx);
		for (j = 0; j < it->nr_prereqs; j++) {
			json_t *p = json_object();

			json_object_set_new(p, "commit", *it->prereqs[j].commit ?
					    json_string(it->prereqs[j].commit) :
					    json_null());
			json_object_set_new(p, "why", json_string(it->prereqs[j].why));
			json_array_append_new(pr, p);
		}
		json_object_set_new(c, "prerequisites", pr);
		json_array_append_new(list, c);
	}
	json_object_set_new(o, "commits", list);
	return o;
}

static void print_table(const struct sk_scan *s, int verbose)
{
	size_t i, j;

	printf("%s: mainline %s since %s (%.12s..%.12s, %lu commits)\n",
	       s->branch, s->mainline_ref, s->since_how, s->since,
	       s->mainline_tip, s->walked);
	if (s->nr)
		printf("%-12s  %-17s  %s\n", "COMMIT", "STATE", "SUBJECT");
	for (i = 0; i < s->nr; i++) {
		const struct sk_scan_item *it = &s->items[i];

		printf("%.12s  %-17s  %s\n", it->commit,
		       sk_scan_state_name(it->state), it->subject);
		if (*it->present_as)
			printf("              as %.12s%s%.12s\n", it->present_as,
			       *it->reverted_by ? ", reverted by " : "",
			       it->reverted_by);
		else if (*it->reverted_by)
			printf("              reverted by %.12s\n", it->reverted_by);
		for (j = 0; j < it->nr_fixed_by; j++)
			printf("              fixed later by %.12s\n", it->fixed_by[j]);
		for (j = 0; j < it->nr_prereqs; j++)
			if (*it->prereqs[j].commit)
				printf("              needs %.12s: %s\n",
				       it->prereqs[j].commit, it->prereqs[j].why);
			else
				printf("              needs: %s\n", it->prereqs[j].why);
		for (j = 0; verbose && j < it->nr_why; j++)
			printf("              why: %s\n", it->why[j]);
		for (j = 0; verbose && j < it->nr_evidence; j++)
			printf("              evidence: %s\n", it->evidence[j]);
	}
	printf("%zu candidates, %zu already present, %zu new, %zu reverted\n",
	       s->nr, s->nr_present, s->nr_new, s->nr_reverted);
}

int cmd_scan(int argc, const char **argv, struct sk_context *ctx)
{
	struct sk_scan_opts o = { 0 };
	struct sk_scan *s = NULL;
	int json = ctx->json, verbose = 0, ret;
	size_t i;
	struct sk_option opts[] = {
		SK_OPT_STRING_(0, "branch", &o.branch, "branch",
			       "the stable branch (stable/branches.conf)"),
		SK_OPT_STRING_(0, "since", &o.since, "rev",
			       "mainline commits after rev (default: the branch's base)"),
		SK_OPT_STRING_(0, "mainline", &o.mainline, "ref",
			       "mainline's ref (default: the branch of kind mainline)"),
		SK_OPT_STRING_(0, "repo", &o.repo, "path",
			       "the kernel repository"),
		SK_OPT_BOOL_('v', "verbose", &verbose,
			     "why each is a candidate, and the evidence"),
		SK_OPT_BOOL_(0, "json", &json, "machine-readable output"),
		SK_OPT_END_(),
	};

	argc = sk_parse_options(argc, argv, opts, usage);
	if (argc < 0)
		return argc == -2 ? SK_EXIT_OK : SK_EXIT_USAGE;
	if (argc || !o.branch) {
		sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	ret = sk_require_branch(ctx->top, o.branch);
	if (ret)
		return ret;
	o.top = ctx->top;
	ret = sk_scan_run(&s, &o);
	if (ret) {
		fprintf(stderr, "error: %s\n", sk_error_last());
		return ret == SK_ENOTFOUND ? SK_EXIT_USAGE : SK_EXIT_FAIL;
	}
	for (i = 0; i < s->nr_warnings; i++)
		fprintf(stderr, "warning: %s\n", s->warnings[i]);
	if (json) {
		json_t *j = scan_json(s);

		json_dumpf(j, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(j);
	} else {
		print_table(s, verbose);
	}
	sk_scan_free(s);
	return SK_EXIT_OK;
}

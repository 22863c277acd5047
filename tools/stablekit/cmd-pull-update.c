/* stablekit pull --update: what the list has that the series store lacks. */
#include "builtin.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/strvec.h"
#include "mail/interdiff.h"
#include "mail/lore.h"
#include "mail/pull-update.h"
#include "mail/seriesjson.h"
#include "port/port-stale.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct counts {
	size_t trailers, fixlets;
};

static void count_new(struct counts *c, const struct sk_rev_changes *ch)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < ch->nr; i++) {
		const struct sk_patch_change *pc = &ch->items[i];
		size_t before = pc->old ? pc->old->nr_fixlets : 0;
		size_t after = pc->new ? pc->new->nr_fixlets : 0;

		c->trailers += pc->nr_added;
		if (after > before)
			c->fixlets += after - before;
	}
}

/* "+3 -1": the lines an interdiff of one changed patch adds and removes. */
static char *interdiff_size(const struct sk_pull_result *r,
			    const struct sk_patch_change *pc)
{
	struct sk_strbuf a = SK_STRBUF_INIT, b = SK_STRBUF_INIT, d = SK_STRBUF_INIT;
	const struct sk_revision *old = sk_series_revision(r->before, r->previous);
	const struct sk_revision *new = sk_series_revision(r->series, r->version);
	size_t plus = 0, minus = 0;
	char *out = NULL;
	const char *p;

	if (old && new && !sk_series_patch_diff(&a, r->before, old, pc->old->nr) &&
	    !sk_series_patch_diff(&b, r->series, new, pc->new->nr) &&
	    !sk_interdiff_text(&d, a.buf, b.buf, "old", "new")) {
		for (p = d.buf; *p; p = strchr(p, '\n'), p = p ? p + 1 : "") {
			if (!strncmp(p, "+++ ", 4) || !strncmp(p, "--- ", 4))
				continue;
			plus += *p == '+';
			minus += *p == '-';
		}
		out = sk_xstrfmt("+%zu -%zu", plus, minus);
	}
	sk_error_clear();
	sk_strbuf_release(&a);
	sk_strbuf_release(&b);
	sk_strbuf_release(&d);
	return out;
}

/* A stored revision's label ("v3", "RFC"); "v<n>" for one not stored. */
static char *label_of(const struct sk_series *s, int version)
{
	const struct sk_revision *r = s ? sk_series_revision(s, version) : NULL;

	return r && r->label ? sk_xstrdup(r->label) : sk_xstrfmt("v%d", version);
}

/* A label as one shell word for the suggested command: "RFC v2" -> "rfc-v2". */
static char *label_word(const char *label)
{
	char *w = sk_xstrdup(label), *p;

	for (p = w; *p; p++)
		*p = *p == ' ' ? '-' : (char)tolower((unsigned char)*p);
	return w;
}

static void print_changes(const struct sk_pull_result *r)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;

	sk_rev_changes_describe(&sb, &r->changes);
	fputs(sb.buf, stdout);
	sk_strbuf_release(&sb);
	for (i = 0; i < r->changes.nr; i++) {
		const struct sk_patch_change *pc = &r->changes.items[i];
		char *size;

		if (!(pc->flags & SK_CHANGE_CODE) || !pc->old || !pc->new)
			continue;
		size = interdiff_size(r, pc);
		if (size) {
			char *a = label_of(r->series, r->previous);
			char *b = label_of(r->series, r->version);
			char *wa = label_word(a), *wb = label_word(b);

			printf("  interdiff %d: %s lines (stablekit diff %s %s %s)\n",
			       pc->new->nr, size, r->series->slug, wa, wb);
			free(wa);
			free(wb);
			free(a);
			free(b);
		}
		free(size);
	}
}

static void print_pull(const struct sk_update_series *us, const struct sk_update_pull *p)
{
	const struct sk_pull_result *r = &p->res;
	const struct sk_revision *rev;
	char *now, *prev;
	struct counts c;

	if (p->skipped) {
		printf("%s: skipped %s: %s\n", us->slug, p->message_id, p->error);
		return;
	}
	if (p->ret) {
		printf("%s: failed pulling %s: %s\n", us->slug, p->message_id, p->error);
		return;
	}
	rev = sk_series_revision(r->series, r->version);
	now = label_of(r->series, r->version);
	prev = label_of(r->series, r->previous);
	switch (r->outcome) {
	case SK_PULL_NEW_REVISION:
	case SK_PULL_NEW_SERIES:
		printf("%s: new revision %s on the list, pulled (%zu patch%s; previous %s)\n",
		       us->slug, now, rev ? rev->nr_patches : 0,
		       rev && rev->nr_patches == 1 ? "" : "es", prev);
		print_changes(r);
		break;
	case SK_PULL_UPDATED:
		count_new(&c, &r->changes);
		printf("%s: %s updated: %zu new trailer%s, %zu new fixlet%s\n",
		       us->slug, now, c.trailers, c.trailers == 1 ? "" : "s",
		       c.fixlets, c.fixlets == 1 ? "" : "s");
		print_changes(r);
		break;
	default:
		break;
	}
	free(now);
	free(prev);
}

static const char *status_of(const struct sk_update_series *us)
{
	const char *st = "up-to-date";
	size_t i;

	if (us->failed)
		return "failed";
	for (i = 0; i < us->nr_pulls; i++) {
		enum sk_pull_outcome o = us->pulls[i].res.outcome;

		if (us->pulls[i].ret)	/* skipped: nothing stored */
			continue;

		if (o == SK_PULL_NEW_REVISION || o == SK_PULL_NEW_SERIES)
			return "new-revision";
		if (o == SK_PULL_UPDATED)
			st = "updated";
	}
	return st;
}

static void print_text(const struct sk_update_result *res)
{
	size_t i, j;

	if (!res->nr)
		printf("no series under series/: nothing to follow\n");
	for (i = 0; i < res->nr; i++) {
		const struct sk_update_series *us = &res->items[i];

		if (!strcmp(status_of(us), "up-to-date")) {
			for (j = 0; j < us->nr_pulls; j++)
				if (us->pulls[j].skipped)
					print_pull(us, &us->pulls[j]);
			if (us->latest_label)
				printf("%s: up to date (%s)\n", us->slug,
				       us->latest_label);
			else
				printf("%s: up to date (v%d)\n", us->slug,
				       us->latest_after);
			continue;
		}
		for (j = 0; j < us->nr_pulls; j++)
			print_pull(us, &us->pulls[j]);
	}
}

static json_t *pull_json(const struct sk_update_pull *p)
{
	static const char *const outcomes[] = {
		[SK_PULL_NEW_SERIES] = "new-series",
		[SK_PULL_NEW_REVISION] = "new-revision",
		[SK_PULL_UPDATED] = "updated",
		[SK_PULL_UP_TO_DATE] = "up-to-date",
	};
	const struct sk_pull_result *r = &p->res;
	json_t *o = json_object();
	struct counts c;

	json_object_set_new(o, "message_id", json_string(p->message_id));
	if (p->skipped) {
		json_object_set_new(o, "outcome", json_string("skipped"));
		json_object_set_new(o, "reason", json_string(p->error));
		return o;
	}
	if (p->ret) {
		json_object_set_new(o, "outcome", json_string("failed"));
		json_object_set_new(o, "error", json_string(p->error));
		return o;
	}
	count_new(&c, &r->changes);
	json_object_set_new(o, "outcome", json_string(outcomes[r->outcome]));
	json_object_set_new(o, "version", json_integer(r->version));
	json_object_set_new(o, "previous", r->previous ? json_integer(r->previous) : json_null());
	json_object_set_new(o, "new_trailers", json_integer((json_int_t)c.trailers));
	json_object_set_new(o, "new_fixlets", json_integer((json_int_t)c.fixlets));
	json_object_set_new(o, "changes", sk_seriesjson_changes(&r->changes));
	json_object_set_new(o, "warnings", sk_seriesjson_lines(r->warnings.buf));
	return o;
}

/* The queues ported from an older revision of the series just followed. */
static void stale_of(struct sk_stale_list *out, const struct sk_stale_list *all,
		     const struct sk_update_result *res)
{
	size_t i, j;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < all->nr; i++)
		for (j = 0; j < res->nr; j++)
			if (!strcmp(all->items[i].slug, res->items[j].slug))
				*SK_ARRAY_PUSH(out->items, out->nr, out->alloc) = all->items[i];
}

static void print_stale(const struct sk_context *ctx,
			const struct sk_update_result *res, json_t *json)
{
	struct sk_stale_list all, mine;
	struct sk_strbuf sb = SK_STRBUF_INIT;

	sk_port_stale_find(&all, ctx->top);
	stale_of(&mine, &all, res);
	if (json) {
		json_object_set_new(json, "stale", sk_stale_json(&mine));
	} else {
		sk_stale_describe(&sb, &mine);
		fputs(sb.buf, stdout);
	}
	sk_strbuf_release(&sb);
	free(mine.items);
	sk_stale_release(&all);
}

static void print_json(const struct sk_context *ctx,
		       const struct sk_update_result *res, const char *lore)
{
	json_t *o = json_object(), *arr = json_array();
	size_t i, j;

	for (i = 0; i < res->nr; i++) {
		const struct sk_update_series *us = &res->items[i];
		json_t *s = json_object(), *pulls = json_array();

		json_object_set_new(s, "series", json_string(us->slug));
		json_object_set_new(s, "status", json_string(status_of(us)));
		json_object_set_new(s, "latest_before", json_integer(us->latest_before));
		json_object_set_new(s, "latest", json_integer(us->latest_after));
		if (us->latest_label)
			json_object_set_new(s, "latest_label",
					    json_string(us->latest_label));
		json_object_set_new(s, "found", json_integer((json_int_t)us->nr_found));
		for (j = 0; j < us->nr_pulls; j++)
			json_array_append_new(pulls, pull_json(&us->pulls[j]));
		json_object_set_new(s, "pulls", pulls);
		json_array_append_new(arr, s);
	}
	json_object_set_new(o, "lore", json_string(lore));
	json_object_set_new(o, "series", arr);
	print_stale(ctx, res, o);
	json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(o);
}

static void print_warnings(const struct sk_update_result *res)
{
	size_t i, j;

	for (i = 0; i < res->nr; i++) {
		const char *w = res->items[i].warnings.buf;

		while (*w) {
			const char *nl = strchrnul(w, '\n');

			fprintf(stderr, "warning: %s: %.*s\n",
				res->items[i].slug, (int)(nl - w), w);
			w = *nl ? nl + 1 : nl;
		}
	}
	for (i = 0; i < res->nr; i++)
		for (j = 0; j < res->items[i].nr_pulls; j++) {
			const struct sk_update_pull *p = &res->items[i].pulls[j];

			/* said when it was stored; nothing is stored now */
			if (!p->ret && p->res.outcome == SK_PULL_UP_TO_DATE)
				continue;
			for (const char *w = p->res.warnings.buf; w && *w;) {
				const char *nl = strchr(w, '\n');

				fprintf(stderr, "warning: %s: %.*s\n", res->items[i].slug,
					(int)(nl - w), w);
				w = nl + 1;
			}
			if (p->ret && !p->skipped)
				fprintf(stderr, "error: %s: %s\n", res->items[i].slug, p->error);
		}
}

int cmd_pull_update(struct sk_context *ctx, const char **names, int nr,
		    int stray, int timeout, int deadline, int max_revisions,
		    int json)
{
	struct sk_update_opts o = { 0 };
	struct sk_update_result res;
	char *lore = NULL, **slugs;
	int ret, i;

	if (stray || timeout <= 0) {
		fprintf(stderr, "error: pull --update takes %s\n", stray ?
			"series names, not -m or --name" : "a --timeout above 0");
		return SK_EXIT_USAGE;
	}
	/* names as every command takes them: the start of one will do */
	slugs = sk_xcalloc((size_t)nr + 1, sizeof(*slugs));
	for (i = 0, ret = 0; !ret && i < nr; i++)
		ret = sk_series_arg(&slugs[i], ctx, names[i]);
	if (!ret && (ret = sk_lore_url(&lore, ctx->top)))
		ret = sk_die_lib(ret);
	if (ret) {
		sk_strvec_free_array(slugs, (size_t)nr);
		return ret;
	}
	o.top = ctx->top;
	o.lore = lore;
	o.slugs = nr ? (const char *const *)slugs : NULL;
	o.nr_slugs = (size_t)nr;
	o.timeout_ms = (unsigned int)timeout * 1000u;
	o.deadline_ms = (unsigned int)deadline * 1000u;
	o.max_revisions = (size_t)max_revisions;
	ret = sk_pull_update(&res, &o);
	if (ret) {
		ret = sk_die_lib(ret);
		fprintf(stderr, "nothing was pulled; series/ is as it was\n");
		sk_strvec_free_array(slugs, (size_t)nr);
		free(lore);
		return ret;
	}
	print_warnings(&res);
	if (json) {
		print_json(ctx, &res, lore);
	} else {
		print_text(&res);
		print_stale(ctx, &res, NULL);
	}
	ret = res.failed ? SK_EXIT_FAIL : SK_EXIT_OK;
	sk_pull_update_result_release(&res);
	sk_strvec_free_array(slugs, (size_t)nr);
	free(lore);
	return ret;
}

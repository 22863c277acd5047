#include "builtin.h"
#include "error.h"
#include "interdiff.h"
#include "options.h"
#include "revcompare.h"
#include "series.h"
#include "seriesjson.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] = "stablekit diff <series> <vA> <vB> [--json]";

static int parse_version(int *out, const char *s)
{
	char *end;

	if (*s == 'v' || *s == 'V')
		s++;
	*out = (int)strtol(s, &end, 10);
	return *end || *out <= 0 ? -1 : 0;
}

/* The message part of a stored patch mail: after the headers, before "---". */
static void message_part(struct sk_strbuf *out, const char *mail)
{
	const char *start = strstr(mail, "\n\n"), *end;

	start = start ? start + 2 : mail;
	end = strstr(start, "\n---\n");
	sk_strbuf_add(out, start, end ? (size_t)(end - start + 1) : strlen(start));
}

struct texts {
	struct sk_strbuf diff, msg;
};

static int load_texts(struct texts *t, const struct sk_series *s,
		      const struct sk_revision *r, int nr)
{
	struct sk_strbuf raw = SK_STRBUF_INIT, mail = SK_STRBUF_INIT;
	int ret = sk_series_patch_diff(&raw, s, r, nr);

	if (!ret)
		ret = sk_series_patch_mail(&mail, s, r, nr);
	if (!ret) {
		sk_diff_normalise(&t->diff, raw.buf);
		message_part(&t->msg, mail.buf);
	}
	sk_strbuf_release(&raw);
	sk_strbuf_release(&mail);
	return ret;
}

static int interdiff_one(struct sk_strbuf *code, struct sk_strbuf *msg,
			 const struct sk_series *s, const struct sk_revision *a,
			 const struct sk_revision *b,
			 const struct sk_patch_change *c)
{
	struct texts ta = { SK_STRBUF_INIT, SK_STRBUF_INIT };
	struct texts tb = { SK_STRBUF_INIT, SK_STRBUF_INIT };
	char *la = sk_xstrfmt("v%d/%d", a->version, c->old->nr);
	char *lb = sk_xstrfmt("v%d/%d", b->version, c->new->nr);
	int ret = load_texts(&ta, s, a, c->old->nr);

	if (!ret)
		ret = load_texts(&tb, s, b, c->new->nr);
	if (!ret && (c->flags & SK_CHANGE_CODE))
		ret = sk_interdiff_text(code, ta.diff.buf, tb.diff.buf, la, lb);
	if (!ret && (c->flags & SK_CHANGE_MESSAGE))
		ret = sk_interdiff_text(msg, ta.msg.buf, tb.msg.buf, la, lb);
	sk_strbuf_release(&ta.diff);
	sk_strbuf_release(&ta.msg);
	sk_strbuf_release(&tb.diff);
	sk_strbuf_release(&tb.msg);
	free(la);
	free(lb);
	return ret;
}

static void print_change(const struct sk_patch_change *c, const char *code,
			 const char *msg)
{
	const struct sk_series_patch *p = c->new ? c->new : c->old;
	size_t i;

	if (c->flags & SK_CHANGE_ADDED)
		printf("+ %d: %s (added)\n", p->nr, p->subject);
	else if (c->flags & SK_CHANGE_DROPPED)
		printf("- %d: %s (dropped)\n", p->nr, p->subject);
	else if (!c->flags)
		printf("= %d: %s (unchanged)\n", p->nr, p->subject);
	else
		printf("! %d -> %d: %s\n", c->old->nr, c->new->nr, p->subject);
	for (i = 0; i < c->nr_added; i++)
		printf("    + %s\n", c->trailers_added[i]);
	for (i = 0; i < c->nr_removed; i++)
		printf("    - %s\n", c->trailers_removed[i]);
	if (*msg)
		printf("  message:\n%s", msg);
	if (*code)
		printf("  code:\n%s", code);
}

static int run_diff(const struct sk_series *s, const struct sk_revision *a,
		    const struct sk_revision *b, int json)
{
	struct sk_rev_changes changes;
	json_t *arr = NULL;
	size_t i;
	int ret = sk_revision_compare(&changes, a, b);

	if (json)
		arr = sk_json_changes(&changes);
	else
		printf("%s: v%d..v%d\n", s->slug, a->version, b->version);
	for (i = 0; !ret && i < changes.nr; i++) {
		struct sk_strbuf code = SK_STRBUF_INIT, msg = SK_STRBUF_INIT;
		const struct sk_patch_change *c = &changes.items[i];

		if (c->old && c->new)
			ret = interdiff_one(&code, &msg, s, a, b, c);
		if (!ret && json) {
			json_t *o = json_array_get(arr, i);

			json_object_set_new(o, "interdiff", json_string(code.buf));
			json_object_set_new(o, "message_diff", json_string(msg.buf));
		} else if (!ret) {
			print_change(c, code.buf, msg.buf);
		}
		sk_strbuf_release(&code);
		sk_strbuf_release(&msg);
	}
	if (!ret && json) {
		json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		putchar('\n');
	}
	json_decref(arr);
	sk_rev_changes_release(&changes);
	return ret;
}

int cmd_diff(int argc, const char **argv, struct sk_context *ctx)
{
	int json = ctx->json, va, vb, ret;
	struct sk_option opts[] = {
		SK_OPT_BOOL_(0, "json", &json, "machine-readable output"),
		SK_OPT_END_(),
	};
	const struct sk_revision *a, *b;
	struct sk_series *s;
	int nr = sk_parse_options(argc, argv, opts, usage);

	if (nr == -2)
		return 0;
	if (nr != 3 || parse_version(&va, argv[1]) || parse_version(&vb, argv[2])) {
		if (nr >= 0)
			sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	ret = sk_series_load(&s, ctx->top, argv[0]);
	if (ret)
		return sk_die_series(ret, ctx->top, argv[0]);
	a = sk_series_revision(s, va);
	b = sk_series_revision(s, vb);
	if (!a || !b) {
		size_t i;

		fprintf(stderr, "error: series '%s' has no revision v%d (it has",
			s->slug, !a ? va : vb);
		for (i = 0; i < s->nr_revs; i++)
			fprintf(stderr, "%s v%d", i ? "," : "", s->revs[i].version);
		fprintf(stderr, "%s)\n", s->nr_revs ? "" : " none");
		sk_series_free(s);
		return SK_EXIT_USAGE;
	}
	ret = run_diff(s, a, b, json);
	sk_series_free(s);
	return ret ? sk_die_lib(ret) : 0;
}

#include "builtin.h"
#include "core/error.h"
#include "mail/interdiff.h"
#include "core/options.h"
#include "mail/revcompare.h"
#include "mail/series.h"
#include "mail/seriesjson.h"

#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] = "stablekit diff <series> <revA> <revB> [--json]\n"
	"   a revision: its label (v2, RFC, \"RFC v2\", rfc-v2), or #<n>, the\n"
	"   number it is stored under (two revisions may share a label)";

/* "RFC v2", "rfc-v2", "rfcv2" alike; "2" is "v2". */
static char *revision_key(const char *s)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	if (*s >= '0' && *s <= '9')
		sk_strbuf_addch(&sb, 'v');
	for (; *s; s++)
		if (*s != ' ' && *s != '-' && *s != '_')
			sk_strbuf_addch(&sb, (char)tolower((unsigned char)*s));
	return sk_strbuf_detach(&sb);
}

static const char *revision_name(const struct sk_revision *r)
{
	return r->label ? r->label : "?";
}

static int label_is_shared(const struct sk_series *s, const struct sk_revision *r)
{
	size_t i;

	for (i = 0; i < s->nr_revs; i++)
		if (&s->revs[i] != r &&
		    !strcmp(revision_name(&s->revs[i]), revision_name(r)))
			return 1;
	return 0;
}

/* "v3", or "v3 #1002" when another revision has the same label. */
static void print_revision(FILE *f, const struct sk_series *s,
			   const struct sk_revision *r)
{
	fputs(revision_name(r), f);
	if (label_is_shared(s, r))
		fprintf(f, " #%d", r->version);
}

/*
 * "#1003": the number it is stored under; else by label ("3" is "v3"), or
 * a number no label has; a label two revisions share names neither
 * (*ambiguous set).
 */
static const struct sk_revision *find_revision(const struct sk_series *s,
					       const char *arg, int *ambiguous)
{
	char *want, *end;
	const struct sk_revision *found = NULL;
	size_t i, n = 0;
	long nr;

	if (*arg == '#') {
		nr = strtol(arg + 1, &end, 10);
		if (*end || nr <= 0 || nr > INT_MAX)
			return NULL;
		return sk_series_revision(s, (int)nr);
	}
	want = revision_key(arg);

	for (i = 0; i < s->nr_revs; i++) {
		char *have = revision_key(revision_name(&s->revs[i]));

		if (!strcmp(have, want) && !n++)
			found = &s->revs[i];
		free(have);
	}
	free(want);
	if (n > 1)
		*ambiguous = 1;
	if (n == 1)
		return found;
	if (n > 1)
		return NULL;
	nr = strtol(*arg == 'v' || *arg == 'V' ? arg + 1 : arg, &end, 10);
	if (*end || nr <= 0 || nr > INT_MAX)
		return NULL;
	return sk_series_revision(s, (int)nr);
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
		sk_interdiff_normalise(&t->diff, raw.buf);
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
	char *la = sk_xstrfmt("%s/%d", revision_name(a), c->old->nr);
	char *lb = sk_xstrfmt("%s/%d", revision_name(b), c->new->nr);
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
		arr = sk_seriesjson_changes(&changes);
	else
		printf("%s: %s..%s\n", s->slug, revision_name(a),
		       revision_name(b));
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
	int json = ctx->json, ret, ambiguous = 0;
	char *slug;
	struct sk_option opts[] = {
		SK_OPT_BOOL_(0, "json", &json, "machine-readable output"),
		SK_OPT_END_(),
	};
	const struct sk_revision *a, *b;
	struct sk_series *s;
	int nr = sk_parse_options(argc, argv, opts, usage);

	if (nr == -2)
		return 0;
	if (nr != 3) {
		if (nr >= 0)
			sk_usage(usage, opts);
		return SK_EXIT_USAGE;
	}
	ret = sk_series_arg(&slug, ctx, argv[0]);
	if (ret)
		return ret;
	ret = sk_series_load(&s, ctx->top, slug);
	if (ret)
		ret = sk_die_series(ret, ctx->top, slug);
	free(slug);
	if (ret)
		return ret;
	a = find_revision(s, argv[1], &ambiguous);
	b = a ? find_revision(s, argv[2], &ambiguous) : NULL;
	if (!a || !b) {
		size_t i;

		fprintf(stderr, "error: series '%s' has %s revision '%s' (it has",
			s->slug, ambiguous ? "more than one" : "no",
			!a ? argv[1] : argv[2]);
		for (i = 0; i < s->nr_revs; i++) {
			fputs(i ? ", " : " ", stderr);
			print_revision(stderr, s, &s->revs[i]);
		}
		fprintf(stderr, "%s)\n", s->nr_revs ? "" : " none");
		sk_series_free(s);
		return SK_EXIT_USAGE;
	}
	ret = run_diff(s, a, b, json);
	sk_series_free(s);
	return ret ? sk_die_lib(ret) : 0;
}

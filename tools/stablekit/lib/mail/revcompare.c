#include "mail/revcompare.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct sk_series_patch *match(const struct sk_revision *old,
					   const struct sk_series_patch *p,
					   const char *used)
{
	size_t i;

	for (i = 0; i < old->nr_patches; i++)
		if (!used[i] && old->patches[i].subject && p->subject &&
		    !strcasecmp(old->patches[i].subject, p->subject))
			return &old->patches[i];
	for (i = 0; i < old->nr_patches; i++)
		if (!used[i] && *p->patch_id &&
		    !strcmp(old->patches[i].patch_id, p->patch_id))
			return &old->patches[i];
	return NULL;
}

static int has_trailer(const struct sk_series_patch *p, const struct sk_trailer *t)
{
	size_t i;

	for (i = 0; i < p->nr_trailers; i++)
		if (!strcasecmp(p->trailers[i].key, t->key) &&
		    !strcmp(p->trailers[i].value, t->value))
			return 1;
	return 0;
}

/* b4's Link: to the patch's own message changes with every revision. */
static int self_link(const struct sk_series_patch *p, const struct sk_trailer *t)
{
	return !strcasecmp(t->key, "Link") && p->message_id && *p->message_id &&
	       strstr(t->value, p->message_id);
}

static void diff_trailers(struct sk_patch_change *c)
{
	size_t i;

	for (i = 0; i < c->new->nr_trailers; i++) {
		const struct sk_trailer *t = &c->new->trailers[i];

		if (has_trailer(c->old, t) || self_link(c->new, t))
			continue;
		c->trailers_added = sk_xrealloc(c->trailers_added,
						(c->nr_added + 1) * sizeof(char *));
		c->trailers_added[c->nr_added++] = sk_xstrfmt("%s: %s", t->key, t->value);
	}
	for (i = 0; i < c->old->nr_trailers; i++) {
		const struct sk_trailer *t = &c->old->trailers[i];

		if (has_trailer(c->new, t) || self_link(c->old, t))
			continue;
		c->trailers_removed = sk_xrealloc(c->trailers_removed,
						  (c->nr_removed + 1) * sizeof(char *));
		c->trailers_removed[c->nr_removed++] = sk_xstrfmt("%s: %s", t->key, t->value);
	}
	if (c->nr_added || c->nr_removed)
		c->flags |= SK_CHANGE_TRAILERS;
}

static int same_fixlets(const struct sk_series_patch *a,
			const struct sk_series_patch *b)
{
	size_t i;

	if (a->nr_fixlets != b->nr_fixlets)
		return 0;
	for (i = 0; i < a->nr_fixlets; i++)
		if (strcmp(a->fixlets[i].patch_id, b->fixlets[i].patch_id))
			return 0;
	return 1;
}

static size_t index_in(const struct sk_revision *r, const struct sk_series_patch *p)
{
	return (size_t)(p - r->patches);
}

int sk_revision_compare(struct sk_rev_changes *out,
			const struct sk_revision *old,
			const struct sk_revision *new)
{
	char *used = sk_xcalloc(old->nr_patches + 1, 1);
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < new->nr_patches; i++) {
		const struct sk_series_patch *p = &new->patches[i];
		const struct sk_series_patch *o = match(old, p, used);
		struct sk_patch_change *c = SK_ARRAY_PUSH(out->items, out->nr, out->alloc);

		memset(c, 0, sizeof(*c));
		c->new = p;
		c->old = o;
		if (!o) {
			c->flags = SK_CHANGE_ADDED;
			continue;
		}
		used[index_in(old, o)] = 1;
		if (o->nr != p->nr)
			c->flags |= SK_CHANGE_MOVED;
		if (strcmp(o->patch_id, p->patch_id))
			c->flags |= SK_CHANGE_CODE;
		if (strcmp(o->message_hash, p->message_hash))
			c->flags |= SK_CHANGE_MESSAGE;
		if (strcasecmp(o->subject ? o->subject : "", p->subject ? p->subject : ""))
			c->flags |= SK_CHANGE_SUBJECT;
		if (!same_fixlets(o, p))
			c->flags |= SK_CHANGE_FIXLETS;
		diff_trailers(c);
	}
	for (i = 0; i < old->nr_patches; i++) {
		struct sk_patch_change *c;

		if (used[i])
			continue;
		c = SK_ARRAY_PUSH(out->items, out->nr, out->alloc);
		memset(c, 0, sizeof(*c));
		c->flags = SK_CHANGE_DROPPED;
		c->old = &old->patches[i];
	}
	free(used);
	return 0;
}

void sk_rev_changes_release(struct sk_rev_changes *c)
{
	size_t i, j;

	for (i = 0; i < c->nr; i++) {
		for (j = 0; j < c->items[i].nr_added; j++)
			free(c->items[i].trailers_added[j]);
		for (j = 0; j < c->items[i].nr_removed; j++)
			free(c->items[i].trailers_removed[j]);
		free(c->items[i].trailers_added);
		free(c->items[i].trailers_removed);
	}
	free(c->items);
	memset(c, 0, sizeof(*c));
}

int sk_rev_changes_any(const struct sk_rev_changes *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (c->items[i].flags)
			return 1;
	return 0;
}

static void add_word(struct sk_strbuf *sb, int *first, const char *w)
{
	sk_strbuf_adds(sb, *first ? "" : ", ");
	sk_strbuf_adds(sb, w);
	*first = 0;
}

void sk_rev_changes_describe(struct sk_strbuf *out, const struct sk_rev_changes *c)
{
	size_t i, j;

	for (i = 0; i < c->nr; i++) {
		const struct sk_patch_change *pc = &c->items[i];
		const struct sk_series_patch *p = pc->new ? pc->new : pc->old;
		int first = 1;

		if (pc->flags & SK_CHANGE_DROPPED) {
			sk_strbuf_addf(out, "  dropped   %d: %s\n", p->nr, p->subject);
			continue;
		}
		if (pc->flags & SK_CHANGE_ADDED) {
			sk_strbuf_addf(out, "  added     %d: %s\n", p->nr, p->subject);
			continue;
		}
		if (pc->flags & SK_CHANGE_MOVED)
			sk_strbuf_addf(out, "  moved     %d -> %d: %s\n", pc->old->nr,
				       p->nr, p->subject);
		sk_strbuf_addf(out, "  %-9s %d: %s (", pc->flags & SK_CHANGE_CODE ?
			       "changed" : "same code", p->nr, p->subject);
		if (pc->flags & SK_CHANGE_CODE)
			add_word(out, &first, "code changed");
		if (pc->flags & SK_CHANGE_SUBJECT)
			add_word(out, &first, "subject changed");
		if (pc->flags & SK_CHANGE_MESSAGE)
			add_word(out, &first, "message changed");
		if (pc->flags & SK_CHANGE_TRAILERS)
			add_word(out, &first, "trailers changed");
		if (pc->flags & SK_CHANGE_FIXLETS)
			add_word(out, &first, "fixlets changed");
		if (first)
			add_word(out, &first, "unchanged");
		sk_strbuf_adds(out, ")\n");
		for (j = 0; j < pc->nr_added; j++)
			sk_strbuf_addf(out, "              + %s\n", pc->trailers_added[j]);
		for (j = 0; j < pc->nr_removed; j++)
			sk_strbuf_addf(out, "              - %s\n", pc->trailers_removed[j]);
	}
}

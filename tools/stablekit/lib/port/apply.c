#include "port/apply.h"
#include "core/diff.h"
#include "core/error.h"
#include "core/fsutil.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct lines {
	const char **v;
	size_t nr, alloc;
};

/* A hunk as the search sees it: its preimage and postimage lines. */
struct hunk {
	const struct sk_diff_hunk *h;
	struct lines pre, post;		/* context and -, context and + */
	unsigned char *is_context;	/* of each pre line */
	size_t lead, trail;		/* context lines before/after the change */
	int removes_first;		/* the first change is a '-' line */
};

static void lines_push(struct lines *l, const char *s)
{
	*SK_ARRAY_PUSH(l->v, l->nr, l->alloc) = s;
}

static void lines_free(struct lines *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Cut text into lines in place (it is the caller's copy). */
static void split_lines(struct lines *out, char *text)
{
	char *p = text;

	while (*p) {
		char *nl = strchr(p, '\n');

		lines_push(out, p);
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
}

static void make_hunk(struct hunk *out, const struct sk_diff_hunk *h)
{
	size_t i, context_run = 0;
	int seen_change = 0;

	memset(out, 0, sizeof(*out));
	out->h = h;
	out->is_context = sk_xcalloc(h->nr_lines + 1, 1);
	for (i = 0; i < h->nr_lines; i++) {
		const struct sk_diff_line *l = &h->lines[i];

		if (l->origin != '+') {
			out->is_context[out->pre.nr] = l->origin == ' ';
			lines_push(&out->pre, l->text);
		}
		if (l->origin != '-')
			lines_push(&out->post, l->text);
		if (l->origin == ' ') {
			context_run++;
			if (!seen_change)
				out->lead++;
		} else {
			if (!seen_change)
				out->removes_first = l->origin == '-';
			seen_change = 1;
			context_run = 0;
		}
	}
	out->trail = seen_change ? context_run : 0;
}

static void free_hunk(struct hunk *h)
{
	free(h->is_context);
	lines_free(&h->pre);
	lines_free(&h->post);
}

static int match_at(const struct lines *old, size_t pos, const struct hunk *h,
		    size_t skip_lead, size_t skip_trail)
{
	size_t n = h->pre.nr - skip_lead - skip_trail, i;

	if (pos + n > old->nr)
		return 0;
	for (i = 0; i < n; i++)
		if (strcmp(old->v[pos + i], h->pre.v[skip_lead + i]))
			return 0;
	return 1;
}

static int is_funcname_line(const char *s)
{
	return isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == '$';
}

/* A goto label in column 0 ("retry:", "out:"), which no definition is. */
static int is_label_line(const char *s)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	if (!n || isdigit((unsigned char)s[0]))
		return 0;
	while (s[n] == ' ' || s[n] == '\t')
		n++;
	if (s[n] != ':' || s[n + 1] == ':')
		return 0;
	for (n++; s[n] == ' ' || s[n] == '\t'; n++)
		;
	return !s[n] || !strncmp(s + n, "/*", 2) || !strncmp(s + n, "//", 2);
}

static int is_ident(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

size_t sk_apply_def_name(const char *line, const char **name)
{
	const char *p = line, *last = NULL, *stop = line + strcspn(line, "([={;");
	size_t last_len = 0;

	if (!isalpha((unsigned char)*line) && *line != '_')
		return 0;
	if (!strncmp(line, "extern ", 7) || !*stop)
		return 0;
	while (p < stop) {
		if (is_ident(*p) && (p == line || !is_ident(p[-1]))) {
			size_t n = 0;

			while (is_ident(p[n]))
				n++;
			last = p;
			last_len = n;
			p += n;
		} else {
			p++;
		}
	}
	if (!last || (*stop == '(' && strchr(line, ';')))
		return 0;
	*name = last;
	return last_len;
}

/*
 * The definition a line sits in, as C's column-0 kernel style shows it:
 * a definition starts at a column-0 identifier line (not a label) and
 * ends at a column-0 '}'.  len 0 is the top level.
 */
struct scope {
	const char *name;
	size_t len;
};

/* The last non-blank character of s, or 0. */
static int last_char(const char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return n ? s[n - 1] : 0;
}

static void scope_of_line(struct scope *sc, const char *line)
{
	sc->len = sk_apply_def_name(line, &sc->name);
	if (!sc->len) {
		/* a definition line no name is read from: compared whole */
		sc->name = line;
		sc->len = strlen(line);
		while (sc->len && isspace((unsigned char)line[sc->len - 1]))
			sc->len--;
	}
}

/*
 * Does the definition line at v[j] still enclose v[end - 1]?  No when the
 * line closes itself ("static inline void f(void) { }") or a ';' ends it
 * before any '{' (a prototype, EXPORT_SYMBOL(f);, DEFINE_MUTEX(m);).
 */
static int def_open(const char *const *v, size_t j, size_t end)
{
	const char *s = v[j];
	int open = 0, close = 0, c = last_char(s);

	for (; *s; s++) {
		open += *s == '{';
		close += *s == '}';
	}
	if (open)
		return open > close;
	if (c == ';' || c == ',')
		return c == ',' && j + 1 < end;
	for (j++; j < end; j++) {
		if (strchr(v[j], '{'))
			return 1;
		if (last_char(v[j]) == ';')
			return 0;
	}
	return 1;
}

/*
 * The scope of the position between v[i - 1] and v[i], read backwards
 * from i - 1 down to lo.  Returns 1 when the lines decide it, 0 when they
 * run out first (the scope starts before lo).
 */
static int scope_before(struct scope *sc, const char *const *v, size_t i, size_t lo)
{
	size_t j = i;

	sc->name = NULL;
	sc->len = 0;
	while (j-- > lo) {
		const char *s = v[j];

		if (s[0] == '}')
			return 1;
		if (!is_funcname_line(s) || is_label_line(s))
			continue;
		/* "static unsigned long", a return type on its own line */
		if (!sk_apply_def_name(s, &(const char *){ NULL }) && !strchr(s, '{'))
			continue;
		if (def_open(v, j, i))
			scope_of_line(sc, s);
		return 1;
	}
	return 0;
}

/* The last definition line before v[i] (what git's @@ line names), or NULL. */
static const char *last_def(const char *const *v, size_t i, int skip_labels)
{
	while (i-- > 0)
		if (is_funcname_line(v[i]) && !(skip_labels && is_label_line(v[i])))
			return v[i];
	return NULL;
}

static int same_scope(const struct scope *a, const struct scope *b)
{
	return a->len == b->len && (!a->len || !strncmp(a->name, b->name, a->len));
}

static int same_def(const char *a, const char *b)
{
	struct scope x, y;

	scope_of_line(&x, a);
	scope_of_line(&y, b);
	return same_scope(&x, &y);
}

/* Where in the hunk's preimage its first change is; changes the line at it? */
static size_t first_change(const struct hunk *h, int *removes)
{
	*removes = h->removes_first;
	return h->lead;
}

/*
 * What the upstream side says of the hunk's place: the scope of its first
 * change from the hunk's own lines when they show a boundary (known), else
 * only the definition git's @@ line names (the last one before the hunk;
 * the change may be in it or after it).
 */
struct where {
	int known;
	struct scope sc;
	const char *named;	/* the @@ text, when not known */
};

/* "static inline int f(void) { return 0; }", "EXPORT_SYMBOL(f);" */
static int closes_itself(const char *s)
{
	int open = 0, close = 0;
	const char *p;

	for (p = s; *p; p++) {
		open += *p == '{';
		close += *p == '}';
	}
	return open ? close >= open : last_char(s) == ';';
}

static void upstream_where(struct where *w, const struct hunk *h)
{
	int rm;
	size_t at = first_change(h, &rm);

	memset(w, 0, sizeof(*w));
	w->known = scope_before(&w->sc, h->pre.v, at + (rm ? 1 : 0), 0);
	if (w->known || !h->h->funcname)
		return;
	/*
	 * A definition the @@ line names that closes on its own line
	 * ("static inline bool f(void) { return 0; }"): git names the last
	 * definition line above the hunk, so the hunk is at the top level.
	 */
	if (is_funcname_line(h->h->funcname) && closes_itself(h->h->funcname)) {
		w->known = 1;
		return;
	}
	w->named = h->h->funcname;
}

/* Does the name a definition line defines exist anywhere in old? */
static int def_exists(const struct lines *old, const struct scope *sc)
{
	size_t i;

	for (i = 0; i < old->nr; i++) {
		struct scope o;

		if (!is_funcname_line(old->v[i]) || is_label_line(old->v[i]))
			continue;
		scope_of_line(&o, old->v[i]);
		if (same_scope(&o, sc))
			return 1;
	}
	return 0;
}

static int named_exists(const struct lines *old, const char *named)
{
	struct scope sc;

	if (!named)
		return 0;
	scope_of_line(&sc, named);
	return def_exists(old, &sc);
}

/*
 * Is the hunk, its preimage's first line at top, where upstream has it?
 * The changed lines must sit in the definition they sit in upstream (when
 * the hunk shows it), else below the definition the @@ line names.  Labels
 * in column 0 are skipped, as git's cpp funcname pattern (the kernel's
 * .gitattributes: diff=cpp) skips them, unless the @@ line names one.
 */
static int same_place(const struct lines *old, size_t top, const struct hunk *h,
		      const struct where *w)
{
	int rm;
	size_t at = top + first_change(h, &rm) + (rm ? 1 : 0);
	const char *d;

	if (at > old->nr)
		at = old->nr;
	if (w->known) {
		struct scope t;

		scope_before(&t, (const char *const *)old->v, at, 0);
		return same_scope(&t, &w->sc);
	}
	d = last_def((const char *const *)old->v, top, !w->named || !is_label_line(w->named));
	if (!w->named)
		return !d;
	return d && same_def(d, w->named);
}

/* Does the place upstream has exist in the file at all (or was it renamed)? */
static int place_exists(const struct lines *old, const struct where *w)
{
	if (w->known)
		return !w->sc.len || def_exists(old, &w->sc);
	return named_exists(old, w->named);
}

/* How many of the context lines fuzz dropped still match at c. */
static size_t dropped_matching(const struct lines *old, long c, const struct hunk *h,
			       size_t sl, size_t st)
{
	size_t n = 0, i, mid = h->pre.nr - sl - st;

	for (i = 0; i < sl; i++)
		if (c - (long)sl + (long)i >= 0 &&
		    !strcmp(old->v[c - (long)sl + (long)i], h->pre.v[i]))
			n++;
	for (i = 0; i < st; i++)
		if ((size_t)c + mid + i < old->nr &&
		    !strcmp(old->v[(size_t)c + mid + i], h->pre.v[sl + mid + i]))
			n++;
	return n;
}

/*
 * The nearest exact match at or after min, searching outward from want;
 * -1 when there is none.  A moved match must be where upstream has the
 * hunk when that place is in the file (it may have been renamed).
 */
static long find_exact(const struct lines *old, long want, size_t min,
		       const struct hunk *h, const struct where *w)
{
	long span = (long)old->nr + 1, d;
	int check = place_exists(old, w);

	for (d = 0; d <= span; d++) {
		long cand[2] = { want + d, want - d };
		int k;

		for (k = 0; k < (d ? 2 : 1); k++) {
			long c = cand[k];

			if (c < (long)min || c > (long)old->nr)
				continue;
			if (!match_at(old, (size_t)c, h, 0, 0))
				continue;
			if (check && c != want && !same_place(old, (size_t)c, h, w))
				continue;
			return c;
		}
	}
	return -1;
}

/*
 * A fuzzy match (sl and st context lines dropped): every place in the file
 * where the rest matches and the changed lines land where upstream has
 * them; the one whose dropped lines match best wins.  Two as good are a
 * refusal (*ambiguous), never a guess.
 */
static long find_fuzzy(const struct lines *old, size_t min, const struct hunk *h,
		       size_t sl, size_t st, const struct where *w,
		       int *ambiguous, size_t *score, size_t *nr_cand)
{
	long best = -1, c;
	size_t best_score = 0;
	int tie = 0;

	*nr_cand = 0;
	for (c = (long)min; c <= (long)old->nr; c++) {
		size_t top = (size_t)c >= sl ? (size_t)c - sl : 0, s;

		if (!match_at(old, (size_t)c, h, sl, st) || !same_place(old, top, h, w))
			continue;
		(*nr_cand)++;
		s = dropped_matching(old, c, h, sl, st);
		if (best < 0 || s > best_score) {
			best = c;
			best_score = s;
			tie = 0;
		} else if (s == best_score) {
			tie = 1;
		}
	}
	*ambiguous = tie;
	*score = best_score;
	return tie ? -1 : best;
}

static char *code_met(const struct lines *old, long want, size_t n)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	long i;

	if (want < 0)
		want = 0;
	for (i = want; i < (long)old->nr && i < want + (long)n; i++)
		sk_strbuf_addf(&sb, "%s\n", old->v[i]);
	return sk_strbuf_detach(&sb);
}

/* 0-based line where the hunk's preimage starts, by its header. */
static long header_start(const struct sk_diff_hunk *h)
{
	/* "@@ -5,0 +6 @@" (no context) inserts after line 5 */
	if (!h->old_count)
		return h->old_start;
	return h->old_start - 1;
}

static struct sk_hunk_report *report_hunk(struct sk_apply_report *rep,
					  const char *path, size_t i,
					  const struct hunk *h, long want)
{
	struct sk_hunk_report *r = SK_ARRAY_PUSH(rep->hunks, rep->nr, rep->alloc);

	memset(r, 0, sizeof(*r));
	r->path = sk_xstrdup(path);
	r->nr = (int)i + 1;
	r->want_line = want + 1;
	r->header_line = header_start(h->h) + 1;
	r->funcname = h->h->funcname ? sk_xstrdup(h->h->funcname) : NULL;
	return r;
}

/*
 * The definition whose own line the hunk's first change removes ("-int
 * f(int a," rewritten as "+int f(long a,"), or 0: the change is at the
 * top level before its body opens, but it is that definition's.
 */
static size_t changed_def_line(const char **name, const struct hunk *h)
{
	int rm;
	size_t at = first_change(h, &rm);
	const char *const *v = (const char *const *)h->pre.v;

	if (!rm || at >= h->pre.nr || !is_funcname_line(v[at]) ||
	    is_label_line(v[at]) || !def_open(v, at, h->pre.nr))
		return 0;
	return sk_apply_def_name(v[at], name);
}

/* The definition the hunk changes upstream, for the FAILED mail. */
static void changes_of(struct sk_hunk_report *r, const struct where *w,
		       const struct hunk *h)
{
	struct scope sc;

	if (w->known && w->sc.len) {
		r->changes = sk_xstrndup(w->sc.name, w->sc.len);
	} else if (w->known && (sc.len = changed_def_line(&sc.name, h))) {
		r->changes = sk_xstrndup(sc.name, sc.len);
	} else if (!w->known && w->named) {
		sc.len = sk_apply_def_name(w->named, &sc.name);
		if (sc.len)
			r->changes = sk_xstrndup(sc.name, sc.len);
	}
}

/* "in lru_gen_age_node()", "at the top level", for the placement note. */
static void describe_where(struct sk_strbuf *out, const struct where *w)
{
	if (w->known && w->sc.len)
		sk_strbuf_addf(out, "the changed lines in %.*s as upstream", (int)w->sc.len,
			       w->sc.name);
	else if (w->known)
		sk_strbuf_adds(out, "the changed lines outside any definition as upstream");
	else if (w->named)
		sk_strbuf_addf(out, "below the definition its @@ line names (%s)", w->named);
	else
		sk_strbuf_adds(out, "no definition above it, as upstream");
}

/* The scope the changed lines landed in, for the report. */
static void record_scope(struct sk_hunk_report *r, const struct lines *old,
			 const struct hunk *h, size_t top)
{
	struct scope sc;
	int rm;
	size_t at = top + first_change(h, &rm) + (rm ? 1 : 0);

	if (at > old->nr)
		at = old->nr;
	scope_before(&sc, (const char *const *)old->v, at, 0);
	r->scope = sc.len ? sk_xstrndup(sc.name, sc.len) : NULL;
}

/*
 * The one context line that differs at c, the rest of the preimage (every
 * line the hunk removes among it) matching line for line; -1 when none or
 * more differ.  The first and last lines of the hunk must match: they tie
 * it to the code around it.
 */
static long one_context_differs(const struct lines *old, size_t c,
				const struct hunk *h)
{
	size_t i;
	long differs = -1;

	if (c + h->pre.nr > old->nr || h->pre.nr < 3)
		return -1;
	for (i = 0; i < h->pre.nr; i++) {
		if (!strcmp(old->v[c + i], h->pre.v[i]))
			continue;
		if (differs >= 0 || !h->is_context[i] || !i || i + 1 == h->pre.nr)
			return -1;
		differs = (long)i;
	}
	return differs;
}

/*
 * A context line the tree words otherwise (a helper renamed in the line
 * next to the fix), the lines the hunk removes all there: the only place
 * in the file where that holds, and where upstream has the hunk.  The
 * tree's wording of that line is kept.
 */
static long place_context_differs(struct sk_hunk_report *r, const struct lines *old,
				  const struct hunk *h, size_t cursor,
				  const struct where *w, struct sk_strbuf *how)
{
	size_t matching = 0, i, nr = 0;
	long c, at = -1, line = -1, d;

	for (i = 0; i < h->pre.nr; i++)
		matching += h->is_context[i];
	/* enough context left to tie the hunk to its place */
	if (matching < 4)
		return -1;
	for (c = (long)cursor; c + (long)h->pre.nr <= (long)old->nr; c++) {
		d = one_context_differs(old, (size_t)c, h);
		if (d < 0 || !same_place(old, (size_t)c, h, w))
			continue;
		nr++;
		at = c;
		line = d;
	}
	if (nr > 1) {
		r->ambiguous = nr;
		return -1;
	}
	if (at < 0)
		return -1;
	r->fuzz = 1;
	sk_strbuf_addf(how, "context: line %ld of the hunk reads \"%s\" in the tree, "
		       "\"%s\" upstream (kept as the tree has it); every other line, "
		       "each it removes among them, as upstream; ", line + 1,
		       old->v[at + line], h->pre.v[line]);
	describe_where(how, w);
	sk_strbuf_adds(how, "; the only place that matches");
	return at;
}

/*
 * Fuzz f: up to f context lines dropped at each end, the fewest first
 * (the lines at one end may all differ while the other end holds: a
 * neighbouring definition renamed).  Something of the context must stay.
 */
static long place_fuzzy(struct sk_hunk_report *r, const struct lines *old,
			const struct hunk *h, size_t cursor, int f, const struct where *w,
			size_t *sl, size_t *st, struct sk_strbuf *how)
{
	size_t total, l, t;

	for (total = 1; total <= 2 * (size_t)f; total++) {
		for (l = 0; l <= total; l++) {
			size_t score, nr;
			int ambiguous;
			long at;

			t = total - l;
			if (l > h->lead || t > h->trail || (l > t ? l : t) != (size_t)f ||
			    l + t >= h->lead + h->trail)
				continue;
			at = find_fuzzy(old, cursor, h, l, t, w, &ambiguous, &score, &nr);
			if (ambiguous) {
				r->ambiguous = nr;
				return -1;
			}
			if (at < 0)
				continue;
			*sl = l;
			*st = t;
			r->fuzz = f;
			sk_strbuf_addf(how, "fuzz %d: %zu of the %zu outer context lines differ "
				       "(%zu dropped before, %zu after); ", f, l + t - score,
				       l + t, l, t);
			describe_where(how, w);
			if (nr > 1)
				sk_strbuf_addf(how, "; the best of %zu places that match", nr);
			else
				sk_strbuf_adds(how, "; the only place that matches");
			return at;
		}
	}
	return -1;
}

/*
 * Place one hunk: the line of its first matched preimage line, or -1.
 * Exact first (at its line, else the nearest where upstream has it), then
 * fuzz 1 to max_fuzz: context lines dropped at each end, accepted only
 * where the changed lines land in the definition they change upstream and
 * no other place matches as well.
 */
static long place(struct sk_hunk_report *r, const struct lines *old,
		  const struct hunk *h, long want, size_t cursor,
		  unsigned int flags, size_t *sl, size_t *st)
{
	struct sk_strbuf how = SK_STRBUF_INIT;
	struct where w;
	int f, max = (flags & SK_APPLY_FUZZ3) ? 3 : (flags & SK_APPLY_FUZZ) ? 1 : 0;
	long at;

	*sl = *st = 0;
	upstream_where(&w, h);
	changes_of(r, &w, h);
	at = find_exact(old, want, cursor, h, &w);
	if (at >= 0) {
		if (at != want) {
			sk_strbuf_addf(&how, "offset %+ld: the nearest exact match", at - want);
			if (place_exists(old, &w)) {
				sk_strbuf_adds(&how, ", ");
				describe_where(&how, &w);
			} else {
				sk_strbuf_adds(&how, " (the definition upstream changes is not in the file)");
			}
		} else {
			sk_strbuf_adds(&how, "clean: its context at the line its header gives");
		}
	}
	/*
	 * Fuzz drops the lines that tie a hunk to its neighbours: unless the
	 * hunk shows the definition it changes, the one its @@ line names
	 * must be in the file (else the code moved, and this is no place).
	 */
	if (!(w.known && w.sc.len) && h->h->funcname && !named_exists(old, h->h->funcname))
		max = 0;
	for (f = 1; at < 0 && !r->ambiguous && f <= max && (h->lead || h->trail); f++)
		at = place_fuzzy(r, old, h, cursor, f, &w, sl, st, &how);
	if (at < 0 && !r->ambiguous && max)
		at = place_context_differs(r, old, h, cursor, &w, &how);
	if (at < 0)
		r->met = code_met(old, want, h->pre.nr + 2);
	else
		record_scope(r, old, h, (size_t)at >= *sl ? (size_t)at - *sl : 0);
	r->placed = how.len ? sk_strbuf_detach(&how) : (sk_strbuf_release(&how), NULL);
	return at;
}

/*
 * The hunk's postimage at at (its preimage line sl there): the lines it
 * adds, and its context as the tree words it, fuzz's dropped lines left
 * out (the tree's own lines stand around it).
 */
static void emit_hunk(struct lines *out, const struct lines *old,
		      const struct hunk *h, size_t at, size_t sl, size_t st)
{
	size_t pi = 0, i;

	for (i = 0; i < h->h->nr_lines; i++) {
		const struct sk_diff_line *l = &h->h->lines[i];

		if (l->origin == '+') {
			lines_push(out, l->text);
			continue;
		}
		if (l->origin == ' ' && pi >= sl && pi < h->pre.nr - st)
			lines_push(out, old->v[at + pi - sl]);
		pi++;
	}
}

static int apply_lines(struct lines *out, struct sk_apply_report *rep,
		       const char *path, const struct lines *old,
		       const struct sk_diff_file *f, unsigned int flags)
{
	size_t cursor = 0, i;
	long bias = 0;
	int failed = 0;

	for (i = 0; i < f->nr_hunks; i++) {
		struct hunk h;
		struct sk_hunk_report *r;
		long want = header_start(&f->hunks[i]) + bias, at;
		size_t sl, st;

		make_hunk(&h, &f->hunks[i]);
		r = report_hunk(rep, path, i, &h, want);
		/* beyond the end: searched from the end, as git apply does */
		if (want < 0)
			want = 0;
		if (want > (long)old->nr)
			want = (long)old->nr;
		at = place(r, old, &h, want, cursor, flags, &sl, &st);
		if (at < 0) {
			failed = 1;
			free_hunk(&h);
			continue;
		}
		r->applied = 1;
		r->got_line = (at >= (long)sl ? at - (long)sl : 0) + 1;
		bias = r->got_line - 1 - header_start(h.h);
		for (; cursor < (size_t)at; cursor++)
			lines_push(out, old->v[cursor]);
		emit_hunk(out, old, &h, (size_t)at, sl, st);
		cursor = (size_t)at + h.pre.nr - sl - st;
		free_hunk(&h);
	}
	for (; cursor < old->nr; cursor++)
		lines_push(out, old->v[cursor]);
	return failed ? SK_ECONFLICT : 0;
}

static void join_lines(struct sk_strbuf *out, const struct lines *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		sk_strbuf_adds(out, l->v[i]);
		sk_strbuf_addch(out, '\n');
	}
}

static int apply_file(struct sk_strbuf *out, struct sk_apply_report *rep,
		      const char *path, const char *old_text,
		      const struct sk_diff_file *f, unsigned int flags)
{
	struct lines old = { 0 }, res = { 0 };
	char *copy = sk_xstrdup(old_text ? old_text : "");
	int ret;

	split_lines(&old, copy);
	ret = apply_lines(&res, rep, path, &old, f, flags);
	if (!ret)
		join_lines(out, &res);
	lines_free(&old);
	lines_free(&res);
	free(copy);
	return ret;
}

int sk_apply_text(struct sk_strbuf *out, struct sk_apply_report *rep,
		  const char *path, const char *old, const char *file_diff,
		  unsigned int flags)
{
	struct sk_diff d;
	int ret = sk_diff_parse(&d, file_diff, strlen(file_diff), "the diff", 1, 0);

	if (ret)
		return ret;
	if (d.nr != 1)
		ret = sk_error_set(SK_EINVALID, "expected a diff of one file, got %zu", d.nr);
	else if (d.files[0].flags & SK_DIFF_BINARY)
		ret = sk_error_set(SK_EINVALID, "binary patches are not supported");
	if (!ret)
		ret = apply_file(out, rep, path, old, &d.files[0], flags);
	sk_diff_release(&d);
	return ret;
}

struct pending {
	char *path;		/* to write, or NULL */
	char *remove;		/* to delete, or NULL */
	struct sk_strbuf text;
};

static int check_file(const char *dir, const struct sk_diff_file *f)
{
	const char *name = f->new_path ? f->new_path : f->old_path;
	int ret = 0;

	if (f->flags & SK_DIFF_BINARY)
		return sk_error_set(SK_EINVALID,
				    "'%s': binary patches are not supported", name);
	if (f->flags & SK_DIFF_SYMLINK)
		return sk_error_set(SK_EINVALID,
				    "'%s': symbolic links are not supported", name);
	if (f->old_path)
		ret = sk_diff_check_inside(dir, f->old_path);
	if (!ret && f->new_path)
		ret = sk_diff_check_inside(dir, f->new_path);
	return ret;
}

/* Every hunk of a file the target lacks fails, and says so. */
static void report_absent(struct sk_apply_report *rep, const char *path,
			  const struct sk_diff_file *f)
{
	size_t i;

	for (i = 0; i < f->nr_hunks; i++) {
		struct hunk h;
		struct sk_hunk_report *r;

		make_hunk(&h, &f->hunks[i]);
		r = report_hunk(rep, path, i, &h, header_start(&f->hunks[i]));
		r->absent = 1;
		{
			struct where w;

			upstream_where(&w, &h);
			changes_of(r, &w, &h);
		}
		free_hunk(&h);
	}
}

static int prepare(struct pending *pd, struct sk_apply_report *rep,
		   const char *dir, const struct sk_diff_file *f,
		   unsigned int flags)
{
	struct sk_strbuf old = SK_STRBUF_INIT;
	const char *src = f->flags & SK_DIFF_NEW ? NULL : f->old_path;
	int ret = check_file(dir, f);

	memset(pd, 0, sizeof(*pd));
	sk_strbuf_init(&pd->text);
	if (!ret && src) {
		char *full = sk_path_join(dir, src);

		ret = sk_read_file(&old, full);
		free(full);
		if (ret == SK_ENOTFOUND) {
			report_absent(rep, src, f);
			ret = sk_error_set(SK_ECONFLICT, "'%s' does not exist in the target", src);
		}
	}
	if (!ret)
		ret = apply_file(&pd->text, rep, f->new_path ? f->new_path : f->old_path,
				 old.buf, f, flags);
	if (!ret && !f->new_path) {
		pd->remove = sk_path_join(dir, f->old_path);
	} else if (!ret) {
		pd->path = sk_path_join(dir, f->new_path);
		if ((f->flags & SK_DIFF_RENAME) && strcmp(f->old_path, f->new_path))
			pd->remove = sk_path_join(dir, f->old_path);
	}
	sk_strbuf_release(&old);
	return ret;
}

static int commit_pending(const struct pending *pd)
{
	int ret = 0;

	if (pd->path) {
		char *slash = strrchr(pd->path, '/'), *parent;

		parent = slash ? sk_xstrndup(pd->path, (size_t)(slash - pd->path)) : NULL;
		if (parent)
			ret = sk_mkdir_p(parent, 0755);
		free(parent);
		if (!ret)
			ret = sk_write_file_atomic(pd->path, pd->text.buf, pd->text.len);
	}
	if (!ret && pd->remove && unlink(pd->remove))
		ret = sk_error_errno(pd->remove);
	return ret;
}

int sk_apply_diff(struct sk_apply_report *rep, const char *dir,
		  const struct sk_diff *d, unsigned int flags)
{
	struct pending *pd = sk_xcalloc(d->nr + 1, sizeof(*pd));
	size_t i;
	int ret = 0, failed = 0;

	for (i = 0; i < d->nr; i++) {
		int r = prepare(&pd[i], rep, dir, &d->files[i], flags);

		if (r == SK_ECONFLICT)
			failed = 1;
		else if (r) {
			ret = r;
			break;
		}
	}
	if (!ret && failed)
		ret = SK_ECONFLICT;
	for (i = 0; !ret && !(flags & SK_APPLY_CHECK) && i < d->nr; i++)
		ret = commit_pending(&pd[i]);
	for (i = 0; i < d->nr; i++) {
		free(pd[i].path);
		free(pd[i].remove);
		sk_strbuf_release(&pd[i].text);
	}
	free(pd);
	return ret;
}

int sk_apply_dir(struct sk_apply_report *rep, const char *dir,
		 const char *diff, unsigned int flags)
{
	struct sk_diff d;
	int ret = sk_diff_parse(&d, diff, strlen(diff), "the diff", 1, 0);

	if (ret)
		return ret;
	ret = sk_apply_diff(rep, dir, &d, flags);
	sk_diff_release(&d);
	return ret;
}

void sk_apply_report_release(struct sk_apply_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nr; i++) {
		free(rep->hunks[i].path);
		free(rep->hunks[i].funcname);
		free(rep->hunks[i].met);
		free(rep->hunks[i].placed);
		free(rep->hunks[i].scope);
		free(rep->hunks[i].changes);
	}
	free(rep->hunks);
	memset(rep, 0, sizeof(*rep));
}

long sk_apply_max_offset(const struct sk_apply_report *rep)
{
	long max = 0;
	size_t i;

	for (i = 0; i < rep->nr; i++) {
		long off = rep->hunks[i].applied ?
			   rep->hunks[i].got_line - rep->hunks[i].want_line : 0;

		if (labs(off) > labs(max))
			max = off;
	}
	return max;
}

int sk_apply_max_fuzz(const struct sk_apply_report *rep)
{
	int max = 0;
	size_t i;

	for (i = 0; i < rep->nr; i++)
		if (rep->hunks[i].fuzz > max)
			max = rep->hunks[i].fuzz;
	return max;
}

void sk_apply_describe(struct sk_strbuf *out, const struct sk_apply_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nr; i++) {
		const struct sk_hunk_report *h = &rep->hunks[i];
		long off = h->got_line - h->want_line;

		if (!h->applied || (!off && !h->fuzz))
			continue;
		if (out->len)
			sk_strbuf_adds(out, "; ");
		if (off)
			sk_strbuf_addf(out, "offset %+ld", off);
		if (h->fuzz)
			sk_strbuf_addf(out, "%sfuzz %d", off ? ", " : "", h->fuzz);
		sk_strbuf_addf(out, " in %s hunk %d", h->path, h->nr);
	}
}

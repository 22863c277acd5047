/*
 * The dependencies of Kconfig symbols, read from the tree's Kconfig files
 * line by line: entries (config, menuconfig), the blocks that add
 * conditions to the entries inside them (if, menu, choice), and the help
 * texts skipped by their indentation.  A "source" is not followed: every
 * Kconfig file is read anyway, and an "if" around a source in another file
 * is the one condition this misses (it shows as a symbol olddefconfig
 * leaves unset, which the compile check reports).
 */
#include "port/kconfig.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_DEPTH 32
/* Parentheses nested deeper than this require nothing (no tree has them). */
#define PAREN_DEPTH 16

struct entry {
	char *name;
	char **deps;
	size_t nr_deps;
};

struct sk_kconfig {
	struct entry *e;
	size_t nr, alloc;
	int sorted;
};

/* An "if", "menu" or "choice" and the symbols it requires. */
struct block {
	char **deps;
	size_t nr_deps;
};

struct parser {
	struct sk_kconfig *k;
	struct block blocks[BLOCK_DEPTH];
	size_t depth;		/* blocks open; more than BLOCK_DEPTH are counted only */
	long entry;		/* the entry "depends on" adds to, or -1 */
	struct block *attrs;	/* or the block (a menu's, a choice's) */
	int help;		/* inside a help text */
	int help_indent;	/* its indentation, -1 until its first line */
};

struct sk_kconfig *sk_kconfig_new(void)
{
	return sk_xcalloc(1, sizeof(struct sk_kconfig));
}

static void add_dep(char ***deps, size_t *nr, const char *sym, size_t n)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (strlen((*deps)[i]) == n && !strncmp((*deps)[i], sym, n))
			return;
	*deps = sk_xrealloc(*deps, (*nr + 1) * sizeof(char *));
	(*deps)[(*nr)++] = sk_xstrndup(sym, n);
}

static int is_symbol(const char *s, size_t n)
{
	size_t i;
	int upper = 0;

	for (i = 0; i < n; i++) {
		if (!isupper((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) &&
		    s[i] != '_')
			return 0;
		upper |= isupper((unsigned char)s[i]);
	}
	return n && upper;
}

static const char *skip_blank(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* One term of an "&&" chain: "A", "A=y", "A = m", "A!=n", "(A && B)". */
static void term(char ***deps, size_t *nr, const char *s, const char *end,
		 int nest)
{
	const char *name, *q;

	s = skip_blank(s, end);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	/* "(A && B)" whole: its chain is required as well */
	if (s < end && *s == '(' && end[-1] == ')') {
		const char *p;
		int depth = 0;

		if (nest >= PAREN_DEPTH)
			return;
		for (p = s; p < end - 1; p++) {
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
			if (!depth)
				return;	/* "(A) || (B)": two groups */
		}
		s++;
		end--;
		for (p = s, depth = 0; p < end; p++) {
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
			if (!depth && p + 1 < end && p[0] == '|' && p[1] == '|')
				return;
		}
		for (q = p = s, depth = 0; p <= end; p++) {
			if (p < end)
				depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
			if (p == end || (!depth && p + 1 < end && p[0] == '&' &&
					 p[1] == '&')) {
				term(deps, nr, q, p, nest + 1);
				q = p + 2;
				p++;
			}
		}
		return;
	}
	name = s;
	while (s < end && (isalnum((unsigned char)*s) || *s == '_'))
		s++;
	if (!is_symbol(name, (size_t)(s - name)))
		return;
	q = skip_blank(s, end);
	if (q == end) {
		add_dep(deps, nr, name, (size_t)(s - name));
		return;
	}
	if (*q == '=') {
		q = skip_blank(q + 1, end);
		if (end - q == 1 && (*q == 'y' || *q == 'm'))
			add_dep(deps, nr, name, (size_t)(s - name));
	} else if (end - q >= 2 && q[0] == '!' && q[1] == '=') {
		q = skip_blank(q + 2, end);
		if (end - q == 1 && *q == 'n')
			add_dep(deps, nr, name, (size_t)(s - name));
	}
}

/* The symbols an expression requires: its top-level "&&" chain. */
static void expression(char ***deps, size_t *nr, const char *s, const char *end)
{
	const char *p, *q = s;
	int depth = 0;

	/* "depends on A if B": only A */
	for (p = s; p + 3 < end; p++)
		if ((p[0] == ' ' || p[0] == '\t') && !strncmp(p + 1, "if", 2) &&
		    (p[3] == ' ' || p[3] == '\t')) {
			end = p;
			break;
		}
	for (p = s; p < end; p++)
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (!depth && p + 1 < end && p[0] == '|' && p[1] == '|')
			return;
	for (p = s, depth = 0; p <= end; p++) {
		if (p < end)
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (p == end || (!depth && p + 1 < end && p[0] == '&' && p[1] == '&')) {
			if (q < p && *skip_blank(q, p) != '!')
				term(deps, nr, q, p, 0);
			q = p + 2;
			p++;
		}
	}
}

static int keyword(const char *s, const char *end, const char *kw)
{
	size_t n = strlen(kw);

	return (size_t)(end - s) >= n && !strncmp(s, kw, n) &&
	       (s + n == end || s[n] == ' ' || s[n] == '\t');
}

static void open_block(struct parser *ps)
{
	if (ps->depth < BLOCK_DEPTH)
		memset(&ps->blocks[ps->depth], 0, sizeof(ps->blocks[0]));
	ps->depth++;
}

static void close_block(struct parser *ps)
{
	if (!ps->depth)
		return;
	ps->depth--;
	if (ps->depth < BLOCK_DEPTH)
		sk_strvec_free_array(ps->blocks[ps->depth].deps,
				     ps->blocks[ps->depth].nr_deps);
	ps->attrs = NULL;
}

static struct block *top_block(struct parser *ps)
{
	return ps->depth && ps->depth <= BLOCK_DEPTH ? &ps->blocks[ps->depth - 1] : NULL;
}

static void new_entry(struct parser *ps, const char *name, const char *end)
{
	struct sk_kconfig *k = ps->k;
	struct entry *e;
	const char *q = name;
	size_t i, j;

	while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
		q++;
	ps->entry = -1;
	if (q == name)
		return;
	e = SK_ARRAY_PUSH(k->e, k->nr, k->alloc);
	memset(e, 0, sizeof(*e));
	e->name = sk_xstrndup(name, (size_t)(q - name));
	for (i = 0; i < ps->depth && i < BLOCK_DEPTH; i++)
		for (j = 0; j < ps->blocks[i].nr_deps; j++)
			add_dep(&e->deps, &e->nr_deps, ps->blocks[i].deps[j],
				strlen(ps->blocks[i].deps[j]));
	ps->entry = (long)(k->nr - 1);
	k->sorted = 0;
}

static int indentation(const char *s, const char *end)
{
	int col = 0;

	for (; s < end && (*s == ' ' || *s == '\t'); s++)
		col = *s == '\t' ? (col / 8 + 1) * 8 : col + 1;
	return col;
}

/* A line of help text is taken whole: a backslash there continues nothing. */
static int help_text(struct parser *ps, const char *s, const char *end)
{
	if (!ps->help)
		return 0;
	if (skip_blank(s, end) == end)
		return 1;
	if (ps->help_indent < 0)
		ps->help_indent = indentation(s, end);
	if (indentation(s, end) >= ps->help_indent && ps->help_indent > 0)
		return 1;
	ps->help = 0;
	return 0;
}

static void line(struct parser *ps, const char *s, const char *end)
{
	const char *t = skip_blank(s, end), *hash;
	struct block *b;

	if (t == end)
		return;
	hash = memchr(t, '#', (size_t)(end - t));
	if (hash && !memchr(t, '"', (size_t)(hash - t)))
		end = hash;
	while (end > t && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	if (t == end)
		return;
	if (keyword(t, end, "config") || keyword(t, end, "menuconfig")) {
		t = skip_blank(t + (*t == 'c' ? 6 : 10), end);
		new_entry(ps, t, end);
		ps->attrs = NULL;
	} else if (keyword(t, end, "if")) {
		open_block(ps);
		b = top_block(ps);
		if (b)
			expression(&b->deps, &b->nr_deps, t + 2, end);
		ps->entry = -1;
		ps->attrs = NULL;
	} else if (keyword(t, end, "menu") || keyword(t, end, "choice")) {
		open_block(ps);
		ps->entry = -1;
		ps->attrs = top_block(ps);
	} else if (keyword(t, end, "endif") || keyword(t, end, "endmenu") ||
		   keyword(t, end, "endchoice")) {
		close_block(ps);
		ps->entry = -1;
	} else if (keyword(t, end, "source") || keyword(t, end, "rsource") ||
		   keyword(t, end, "osource") || keyword(t, end, "orsource") ||
		   keyword(t, end, "comment") || keyword(t, end, "mainmenu")) {
		ps->entry = -1;
		ps->attrs = NULL;
	} else if (keyword(t, end, "depends")) {
		t = skip_blank(t + 7, end);
		if (!keyword(t, end, "on"))
			return;
		t += 2;
		if (ps->entry >= 0) {
			struct entry *e = &ps->k->e[ps->entry];

			expression(&e->deps, &e->nr_deps, t, end);
		} else if (ps->attrs) {
			expression(&ps->attrs->deps, &ps->attrs->nr_deps, t, end);
		}
	} else if (keyword(t, end, "help") || keyword(t, end, "---help---")) {
		ps->help = 1;
		ps->help_indent = -1;
	}
}

void sk_kconfig_parse(struct sk_kconfig *k, const char *text, size_t len)
{
	struct parser ps = { .k = k, .entry = -1 };
	const char *s = text, *end = text + len;
	struct sk_strbuf joined = SK_STRBUF_INIT;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;

		if (!joined.len && help_text(&ps, s, e)) {
			/* nothing of it is an attribute */
		} else if (e > s && e[-1] == '\\') {
			/* "depends on A && \" continued on the next line */
			sk_strbuf_add(&joined, s, (size_t)(e - s - 1));
			sk_strbuf_addch(&joined, ' ');
		} else if (joined.len) {
			sk_strbuf_add(&joined, s, (size_t)(e - s));
			line(&ps, joined.buf, joined.buf + joined.len);
			sk_strbuf_reset(&joined);
		} else {
			line(&ps, s, e);
		}
		s = nl ? nl + 1 : end;
	}
	if (joined.len)
		line(&ps, joined.buf, joined.buf + joined.len);
	while (ps.depth)
		close_block(&ps);
	sk_strbuf_release(&joined);
}

static int wanted_dir(const char *path)
{
	if (!strncmp(path, "arch/", 5) && strcmp(path, "arch/") &&
	    strncmp(path, "arch/x86/", 9))
		return 0;
	return strcmp(path, "Documentation/") && strcmp(path, "tools/") &&
	       strcmp(path, "samples/");
}

struct load {
	git_repository *repo;
	struct sk_kconfig *k;
	int ret;
};

static int visit(const char *root, const git_tree_entry *te, void *data)
{
	struct load *l = data;
	const char *name = git_tree_entry_name(te);
	git_blob *blob = NULL;
	char *path;
	int skip;

	if (git_tree_entry_type(te) == GIT_OBJECT_TREE) {
		path = sk_xstrfmt("%s%s/", root, name);
		skip = !wanted_dir(path);
		free(path);
		return skip ? 1 : 0;
	}
	if (git_tree_entry_type(te) != GIT_OBJECT_BLOB || strncmp(name, "Kconfig", 7) ||
	    (name[7] && name[7] != '.'))
		return 0;
	if (git_blob_lookup(&blob, l->repo, git_tree_entry_id(te))) {
		l->ret = sk_error_git(SK_ERROR, name);
		return -1;
	}
	sk_kconfig_parse(l->k, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	return 0;
}

int sk_kconfig_load(struct sk_kconfig **out, git_repository *repo, const git_oid *tree_id)
{
	struct load l = { repo, sk_kconfig_new(), 0 };
	git_tree *tree = NULL;
	int ret;

	*out = NULL;
	if (git_tree_lookup(&tree, repo, tree_id)) {
		sk_kconfig_free(l.k);
		return sk_error_git(SK_ERROR, "the tree's Kconfig files");
	}
	ret = git_tree_walk(tree, GIT_TREEWALK_PRE, visit, &l);
	git_tree_free(tree);
	if (l.ret || ret < 0) {
		sk_kconfig_free(l.k);
		return l.ret ? l.ret : sk_error_git(SK_ERROR, "the tree's Kconfig files");
	}
	*out = l.k;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* Sorted by name, each symbol's definitions merged into one entry. */
static void sort_entries(struct sk_kconfig *k)
{
	size_t i, j, out = 0;

	if (k->sorted)
		return;
	k->sorted = 1;
	if (k->nr > 1)
		qsort(k->e, k->nr, sizeof(*k->e), by_name);
	for (i = 0; i < k->nr; i++) {
		if (out && !strcmp(k->e[out - 1].name, k->e[i].name)) {
			struct entry *keep = &k->e[out - 1];

			for (j = 0; j < k->e[i].nr_deps; j++)
				add_dep(&keep->deps, &keep->nr_deps, k->e[i].deps[j],
					strlen(k->e[i].deps[j]));
			free(k->e[i].name);
			sk_strvec_free_array(k->e[i].deps, k->e[i].nr_deps);
			continue;
		}
		k->e[out++] = k->e[i];
	}
	k->nr = out;
}

static struct entry *find(struct sk_kconfig *k, const char *sym)
{
	struct entry key = { (char *)sym, NULL, 0 };

	sort_entries(k);
	return k->nr ? bsearch(&key, k->e, k->nr, sizeof(*k->e), by_name) : NULL;
}

char *const *sk_kconfig_depends(struct sk_kconfig *k, const char *sym, size_t *nr)
{
	struct entry *e = find(k, sym);

	*nr = e ? e->nr_deps : 0;
	return e ? e->deps : NULL;
}

int sk_kconfig_defines(struct sk_kconfig *k, const char *sym)
{
	return find(k, sym) != NULL;
}

void sk_kconfig_free(struct sk_kconfig *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < k->nr; i++) {
		free(k->e[i].name);
		sk_strvec_free_array(k->e[i].deps, k->e[i].nr_deps);
	}
	free(k->e);
	free(k);
}

/*
 * What the compile check compiles: the objects that compile the lines the
 * queue changes, and the Kconfig symbols that guard them.  A .c file that
 * kbuild does not build on its own (kernel/sched/psi.c) is compiled
 * through the file that #includes it (build_utility.c); a header through
 * an object that includes it, preferring one that uses the names its hunks
 * change; each object's obj-$(CONFIG_...) line and the #ifdef CONFIG_...
 * blocks around the changed lines (and around the #include of a header)
 * say which symbols to enable, with what those depend on (kconfig.h).
 */
#include "port/port-internal.h"
#include "port/defs.h"
#include "port/kconfig.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strvec.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static int has_suffix(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

static void add_unique(char ***v, size_t *nr, const char *s)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = sk_xrealloc(*v, (*nr + 1) * sizeof(char *));
	(*v)[(*nr)++] = sk_xstrdup(s);
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? sk_xstrndup(path, (size_t)(slash - path) + 1) : sk_xstrdup("");
}

/* CONFIG_ symbols in s[0..n) not preceded by '!', into t. */
static void configs_in(struct sk_port_compile *t, const char *s, size_t n)
{
	const char *p = s, *end = s + n;

	while (p < end && (p = memmem(p, (size_t)(end - p), "CONFIG_", 7))) {
		const char *q = p + 7, *b = p;
		char *sym;

		while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
			q++;
		while (b > s && (b[-1] == '(' || b[-1] == ' ' || b[-1] == '$'))
			b--;
		if ((b == s || b[-1] != '!') && q > p + 7 && (p == s || !isalnum((unsigned char)p[-1]))) {
			sym = sk_xstrndup(p, (size_t)(q - p));
			add_unique(&t->configs, &t->nr_configs, sym);
			free(sym);
		}
		p = q;
	}
}

/*
 * The Makefile line of dir that builds base.o: "obj-$(CONFIG_PSI) +=
 * psi.o" gives CONFIG_PSI.  Returns 1 when the Makefile names it.
 */
static int makefile_config(struct port *p, struct sk_port_compile *t, const char *dir,
			   const char *obj)
{
	struct sk_strbuf mk = SK_STRBUF_INIT;
	char *path = sk_xstrfmt("%sMakefile", dir);
	const char *s, *line;
	size_t n = strlen(obj);
	int found = 0;

	if (sk_defs_read(&mk, p->repo, &p->tip_tree, path)) {
		sk_error_clear();
		goto out;
	}
	for (s = mk.buf; (s = strstr(s, obj)); s += n) {
		if ((s > mk.buf && !isspace((unsigned char)s[-1]) && s[-1] != '=') ||
		    (s[n] && !isspace((unsigned char)s[n]) && s[n] != '\\'))
			continue;
		/* the logical line: back over "\\\n" continuations */
		for (line = s; line > mk.buf; line--)
			if (line[-1] == '\n' && !(line - 1 > mk.buf && line[-2] == '\\'))
				break;
		configs_in(t, line, strcspn(line, "+:="));
		found = 1;
		break;
	}
out:
	free(path);
	sk_strbuf_release(&mk);
	return found;
}

/* CONFIG_ symbols of the #if blocks open at each of lines[] (1-based) of text. */
static void ifdef_configs(struct sk_port_compile *t, const char *text, const long *lines,
			  size_t nr_lines)
{
	char *stack[64];
	int neg[64];
	size_t depth = 0, k;
	long no = 1;
	const char *s = text;

	while (s && *s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		const char *d = s + strspn(s, " \t");

		for (k = 0; k < nr_lines; k++) {
			size_t i;

			if (lines[k] != no)
				continue;
			for (i = 0; i < depth && i < 64; i++)
				if (!neg[i])
					configs_in(t, stack[i], strlen(stack[i]));
		}
		if (*d == '#') {
			d++;
			d += strspn(d, " \t");
			if (has_prefix(d, "ifndef")) {
				if (depth < 64) {
					stack[depth] = sk_xstrndup(d, len - (size_t)(d - s));
					neg[depth] = 1;
				}
				depth++;
			} else if (has_prefix(d, "if")) {
				if (depth < 64) {
					stack[depth] = sk_xstrndup(d, len - (size_t)(d - s));
					neg[depth] = 0;
				}
				depth++;
			} else if ((has_prefix(d, "else") || has_prefix(d, "elif")) &&
				   depth && depth <= 64) {
				neg[depth - 1] = !neg[depth - 1] || has_prefix(d, "elif");
			} else if (has_prefix(d, "endif") && depth) {
				depth--;
				if (depth < 64)
					free(stack[depth]);
			}
		}
		no++;
		s = nl ? nl + 1 : NULL;
	}
	while (depth) {
		depth--;
		if (depth < 64)
			free(stack[depth]);
	}
}

/* Files of the diff texts with the new lines their hunks change. */
struct touched {
	char *path;
	long *lines;
	size_t nr_lines;
	struct sk_strbuf idents;	/* names on its changed lines */
};

static void idents_of(struct sk_strbuf *out, const char *s, size_t n)
{
	static const char *const common[] = {
		"static", "inline", "const", "unsigned", "long", "struct", "return",
		"void", "bool", "true", "false", "NULL", "else", "enum", "int",
		"char", "sizeof", "while", "break", NULL
	};
	const char *p = s, *end = s + n;

	while (p < end) {
		const char *q = p;
		size_t i;

		if (!(isalpha((unsigned char)*p) || *p == '_')) {
			p++;
			continue;
		}
		while (q < end && (isalnum((unsigned char)*q) || *q == '_'))
			q++;
		for (i = 0; common[i] && ((size_t)(q - p) != strlen(common[i]) ||
					  strncmp(p, common[i], (size_t)(q - p))); i++)
			;
		if (!common[i] && q - p >= 4)
			sk_strbuf_addf(out, "%.*s\n", (int)(q - p), p);
		p = q;
	}
}

static struct touched *touched_of(char **texts, size_t nr_texts, size_t *nr)
{
	struct touched *t = NULL;
	size_t i, alloc = 0;

	*nr = 0;
	for (i = 0; i < nr_texts; i++) {
		const char *s = texts[i];
		struct touched *cur = NULL;
		long line = 0;

		while (s && *s) {
			const char *nl = strchr(s, '\n');
			size_t len = nl ? (size_t)(nl - s) : strlen(s);

			if (has_prefix(s, "+++ b/")) {
				cur = SK_ARRAY_PUSH(t, *nr, alloc);
				memset(cur, 0, sizeof(*cur));
				cur->path = sk_xstrndup(s + 6, len - 6);
				sk_strbuf_init(&cur->idents);
			} else if (cur && has_prefix(s, "@@ ")) {
				const char *plus = strstr(s, " +");

				line = plus ? strtol(plus + 2, NULL, 10) : 0;
			} else if (cur && line && (*s == '+' || *s == '-' || *s == ' ')) {
				if (*s != ' ') {
					long at = *s == '+' ? line : line - 1 > 0 ? line - 1 : 1;

					cur->lines = sk_xrealloc(cur->lines,
						(cur->nr_lines + 1) * sizeof(long));
					cur->lines[cur->nr_lines++] = at;
					idents_of(&cur->idents, s + 1, len - 1);
				}
				if (*s != '-')
					line++;
			} else if (has_prefix(s, "diff --git ")) {
				cur = NULL;
			}
			s = nl ? nl + 1 : NULL;
		}
	}
	return t;
}

/* A file that includes what, in dir (the tree's), or NULL. */
struct includers {
	const char *needle;	/* '#include "psi.c"' or '<linux/memcontrol.h>' */
	const char *idents;
	const char *dir;	/* only files directly in it, or NULL */
	char *best;
	size_t best_score, seen;
};

static size_t score(const char *text, size_t len, const char *idents)
{
	const char *s = idents;
	size_t n = 1;

	while (s && *s) {
		const char *nl = strchr(s, '\n');
		size_t l = nl ? (size_t)(nl - s) : strlen(s);

		if (l && memmem(text, len, s, l))
			n++;
		s = nl ? nl + 1 : NULL;
	}
	return n;
}

static int includer_cb(const char *path, const char *text, size_t len, void *data)
{
	struct includers *c = data;
	const char *hit;
	size_t sc;

	if (!has_suffix(path, ".c"))
		return 0;
	if (c->dir && (!has_prefix(path, c->dir) || strchr(path + strlen(c->dir), '/')))
		return 0;
	hit = memmem(text, len, c->needle, strlen(c->needle));
	if (!hit)
		return 0;
	c->seen++;
	sc = score(text, len, c->idents);
	if (sc > c->best_score) {
		free(c->best);
		c->best = sk_xstrdup(path);
		c->best_score = sc;
	}
	/* enough candidates read: the whole tree would take a minute */
	return c->seen >= 40 ? 1 : 0;
}

static char *find_includer(struct port *p, const char *needle, const char *idents,
			   const char *dir, char **under, size_t nr_under)
{
	struct includers c = { needle, idents, dir, NULL, 0, 0 };
	int r = sk_defs_walk(p->repo, &p->tip_tree, under, nr_under, includer_cb, &c);

	if (r < 0)
		sk_error_clear();
	return c.best;
}

static void object_for(struct port *p, struct sk_port_compile *t, const char *src,
		       const char *why)
{
	char *obj = sk_xstrdup(src), *dir = dir_of(src);
	const char *base = strrchr(obj, '/') ? strrchr(obj, '/') + 1 : obj;

	obj[strlen(obj) - 1] = 'o';
	makefile_config(p, t, dir, base);
	add_unique(&t->objects, &t->nr_objects, obj);
	if (why) {
		sk_strbuf_addf(&t->why, "%s%s for %s", t->why.len ? "; " : "", obj, why);
	}
	free(obj);
	free(dir);
}

/* The #ifdef blocks of the includer around its #include of the file. */
static void include_site_configs(struct port *p, struct sk_port_compile *t,
				 const char *includer, const char *needle)
{
	struct sk_strbuf text = SK_STRBUF_INIT;
	const char *hit;

	if (sk_defs_read(&text, p->repo, &p->tip_tree, includer)) {
		sk_error_clear();
		return;
	}
	hit = strstr(text.buf, needle);
	if (hit) {
		long line = 1;
		const char *s;

		for (s = text.buf; s < hit; s++)
			line += *s == '\n';
		ifdef_configs(t, text.buf, &line, 1);
	}
	sk_strbuf_release(&text);
}

/*
 * A header outside include/ is included by a path relative to the
 * includer: "vaddr-kunit.h" from its own folder, "tests/vaddr-kunit.h"
 * from mm/damon/ (mm/damon/vaddr.c).  The nearest folder with an
 * includer wins; *needle becomes the #include that found it.
 */
static char *local_includer(struct port *p, const struct touched *f, char **needle)
{
	char *dir = dir_of(f->path), *inc = NULL;
	size_t len = strlen(dir);

	/* the top folder holds no .c that includes by a path */
	while (!inc && len) {
		char *d = sk_xstrndup(dir, len);

		free(*needle);
		*needle = sk_xstrfmt("\"%s\"", f->path + len);
		inc = find_includer(p, *needle, f->idents.buf, d, &d, 1);
		free(d);
		/* the folder above: back over "tests/" */
		for (len--; len && dir[len - 1] != '/'; len--)
			;
	}
	if (!inc) {
		/* the folders of the queue's .c files look for it by name */
		const char *base = strrchr(f->path, '/');

		free(*needle);
		*needle = sk_xstrfmt("\"%s\"", base ? base + 1 : f->path);
	}
	free(dir);
	return inc;
}

static void one_file(struct port *p, struct sk_port_compile *t, const struct touched *f,
		     char **dirs, size_t nr_dirs)
{
	static char *core[] = { "mm/", "kernel/", "fs/", "lib/", "block/", "init/",
				"ipc/", "security/", "net/core/", "arch/x86/" };
	char *dir = dir_of(f->path), *needle = NULL, *inc = NULL;
	const char *base = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
	struct sk_strbuf text = SK_STRBUF_INIT;
	size_t i;
	char *full = sk_path_join(p->sb.dir, f->path);

	if (sk_read_file(&text, full))
		sk_error_clear();
	free(full);
	if (text.len)
		ifdef_configs(t, text.buf, f->lines, f->nr_lines);
	if (has_suffix(f->path, ".c") || has_suffix(f->path, ".S")) {
		char *obj = sk_xstrdup(base);

		obj[strlen(obj) - 1] = 'o';
		if (has_prefix(f->path, "arch/") && !has_prefix(f->path, "arch/x86/")) {
			free(obj);
			goto out;
		}
		if (makefile_config(p, t, dir, obj) || has_suffix(f->path, ".S")) {
			object_for(p, t, f->path, NULL);
			free(obj);
			goto out;
		}
		free(obj);
		needle = sk_xstrfmt("include \"%s\"", base);
		inc = find_includer(p, needle, f->idents.buf, dir, &dir, 1);
		if (inc) {
			char *why = sk_xstrfmt("%s, which it #includes", f->path);

			object_for(p, t, inc, why);
			include_site_configs(p, t, inc, needle);
			free(why);
		} else {
			object_for(p, t, f->path, NULL);
		}
	} else if (has_suffix(f->path, ".h")) {
		char *why = sk_xstrfmt("%s", f->path);

		if (has_prefix(f->path, "include/"))
			needle = sk_xstrfmt("<%s>", f->path + 8);
		else if (has_prefix(f->path, "arch/x86/include/"))
			needle = sk_xstrfmt("<%s>", f->path + 17);
		else
			needle = sk_xstrfmt("\"%s\"", base);
		if (!has_prefix(f->path, "include/") && !has_prefix(f->path, "arch/x86/include/"))
			inc = local_includer(p, f, &needle);
		for (i = 0; !inc && i < nr_dirs; i++)
			inc = find_includer(p, needle, f->idents.buf, dirs[i], &dirs[i], 1);
		if (!inc)
			inc = find_includer(p, needle, f->idents.buf, NULL, core,
					    sizeof(core) / sizeof(*core));
		if (inc) {
			object_for(p, t, inc, why);
			include_site_configs(p, t, inc, needle);
		} else {
			sk_strbuf_addf(&t->why, "%sno object of the core includes %s", t->why.len ?
				       "; " : "", f->path);
		}
		free(why);
	}
out:
	free(needle);
	free(inc);
	free(dir);
	sk_strbuf_release(&text);
}

/*
 * The symbols the guards depend on, enabled with them: olddefconfig would
 * drop CONFIG_DAMON_VADDR_KUNIT_TEST without CONFIG_KUNIT, and the lines
 * under it would never be compiled.  Breadth first, so that what a
 * dependency needs follows it; GUARD_DEPS at most.
 */
#define GUARD_DEPS 32

static void guard_dependencies(struct port *p, struct sk_port_compile *t)
{
	struct sk_kconfig *k = NULL;
	size_t i, j, added = 0;

	if (!t->nr_configs)
		return;
	if (sk_kconfig_load(&k, p->repo, &p->tip_tree)) {
		sk_error_clear();
		return;
	}
	for (i = 0; i < t->nr_configs && added < GUARD_DEPS; i++) {
		size_t nr, before;
		char *const *deps = sk_kconfig_depends(k, t->configs[i] + 7, &nr);
		char *of = sk_xstrdup(t->configs[i]);

		for (j = 0; j < nr && added < GUARD_DEPS; j++) {
			char *sym = sk_xstrfmt("CONFIG_%s", deps[j]);

			before = t->nr_configs;
			add_unique(&t->configs, &t->nr_configs, sym);
			if (t->nr_configs > before) {
				sk_strbuf_addf(&t->why, "%s%s for %s", t->why.len ?
					       "; " : "", sym, of);
				added++;
			}
			free(sym);
		}
		free(of);
	}
	sk_kconfig_free(k);
}

void sk_port_compile_targets(struct sk_port_compile *t, struct port *p, char **texts,
			     size_t nr_texts)
{
	size_t nr, i;
	struct touched *f = touched_of(texts, nr_texts, &nr);
	char **dirs = NULL;
	size_t nr_dirs = 0;

	memset(t, 0, sizeof(*t));
	sk_strbuf_init(&t->why);
	for (i = 0; i < nr; i++)
		if (has_suffix(f[i].path, ".c")) {
			char *d = dir_of(f[i].path);

			add_unique(&dirs, &nr_dirs, d);
			free(d);
		}
	for (i = 0; i < nr; i++)
		one_file(p, t, &f[i], dirs, nr_dirs);
	guard_dependencies(p, t);
	for (i = 0; i < nr; i++) {
		free(f[i].path);
		free(f[i].lines);
		sk_strbuf_release(&f[i].idents);
	}
	free(f);
	sk_strvec_free_array(dirs, nr_dirs);
}

void sk_port_compile_release(struct sk_port_compile *t)
{
	sk_strvec_free_array(t->objects, t->nr_objects);
	sk_strvec_free_array(t->configs, t->nr_configs);
	sk_strbuf_release(&t->why);
	memset(t, 0, sizeof(*t));
}

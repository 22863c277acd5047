#include "project/branches.h"
#include "project/distcc.h"
#include "core/error.h"
#include "core/gitconfig.h"
#include "core/fsutil.h"
#include "core/arch.h"
#include "core/names.h"
#include "core/strbuf.h"
#include "core/utf8.h"

#include <ctype.h>
#include <git2.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {
	[SK_BRANCH_MAINLINE] = "mainline",
	[SK_BRANCH_STABLE] = "stable",
	[SK_BRANCH_DOWNSTREAM] = "downstream",
};

const char *sk_branch_kind_name(enum sk_branch_kind kind)
{
	return kind_names[kind];
}

int sk_branch_kind_parse(enum sk_branch_kind *out, const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(kind_names) / sizeof(*kind_names); i++)
		if (!strcmp(s, kind_names[i])) {
			*out = i;
			return 0;
		}
	return sk_error_set(SK_EINVALID, "unknown branch kind '%s'", s);
}

int sk_version_parse(int *major, int *minor, const char *str)
{
	const char *s;

	for (s = str; *s; s++) {
		char *end, *end2;
		long a, b;

		if (!isdigit((unsigned char)*s))
			continue;
		a = strtol(s, &end, 10);
		if (*end != '.' || !isdigit((unsigned char)end[1])) {
			s = end - 1;
			continue;
		}
		b = strtol(end + 1, &end2, 10);
		*major = (int)a;
		*minor = (int)b;
		return 0;
	}
	return sk_error_set(SK_EINVALID, "no version in '%s'", str);
}

int sk_version_cmp(int amaj, int amin, int bmaj, int bmin)
{
	if (amaj != bmaj)
		return amaj < bmaj ? -1 : 1;
	if (amin != bmin)
		return amin < bmin ? -1 : 1;
	return 0;
}

struct sk_branch *sk_branches_find(struct sk_branches *b, const char *name)
{
	size_t i;

	for (i = 0; i < b->nr; i++)
		if (!strcmp(b->items[i].name, name))
			return &b->items[i];
	return NULL;
}

int sk_branches_require(struct sk_branches *b, const char *name)
{
	struct sk_strbuf names = SK_STRBUF_INIT;
	size_t i;
	int ret;

	if (sk_branches_find(b, name))
		return 0;
	for (i = 0; i < b->nr; i++)
		sk_strbuf_addf(&names, "%s%s", i ? ", " : "", b->items[i].name);
	ret = sk_error_set(SK_ENOTFOUND, "unknown branch '%s' (%s has: %s)", name,
			   b->path ? b->path : SK_BRANCHES_CONF,
			   names.len ? names.buf : "none");
	sk_strbuf_release(&names);
	return ret;
}

int sk_branch_selects(const struct sk_branch *br, const char *slug)
{
	size_t i;

	for (i = 0; i < br->nr_selects; i++)
		if (!strcmp(br->selects[i], slug))
			return 1;
	return 0;
}

static void branch_release(struct sk_branch *br)
{
	size_t i;

	free(br->name);
	free(br->ref);
	free(br->base);
	for (i = 0; i < br->nr_arches; i++)
		free(br->arches[i]);
	for (i = 0; i < br->nr_selects; i++)
		free(br->selects[i]);
	free(br->arches);
	free(br->selects);
	free(br->repo);
}

void sk_branches_release(struct sk_branches *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->nr; i++)
		branch_release(&b->items[i]);
	free(b->items);
	free(b->repo);
	free(b->distcc_hosts);
	free(b->path);
	memset(b, 0, sizeof(*b));
}

/* ---- where each entry is: libgit2 does not keep line numbers ---- */

struct conf_line {
	char *name;		/* section[.subsection].key, as libgit2 names it */
	int line;
	int used;
};

struct conf_lines {
	struct conf_line *items;	/* keys */
	size_t nr, alloc;
	struct conf_line *sections;	/* headers: "branch.<name>" */
	size_t nr_sections, alloc_sections;
};

static void lower(char *s)
{
	for (; *s; s++)
		*s = tolower((unsigned char)*s);
}

/* "[section "sub"]" or "[section]" (also the old "[section.sub]"). */
static char *section_of(const char *p)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	const char *e = p + 1;
	char *name;

	while (*e && *e != ']' && *e != ' ' && *e != '\t' && *e != '"')
		e++;
	name = sk_xstrndup(p + 1, e - p - 1);
	lower(name);
	sk_strbuf_adds(&sb, name);
	free(name);
	while (*e == ' ' || *e == '\t')
		e++;
	if (*e == '"') {
		sk_strbuf_addch(&sb, '.');
		for (e++; *e && *e != '"'; e++) {
			if (*e == '\\' && e[1])
				e++;
			sk_strbuf_addch(&sb, *e);
		}
	}
	return sk_strbuf_detach(&sb);
}

static void scan_lines(struct conf_lines *cl, const char *text)
{
	const char *p = text;
	char *section = NULL;
	int line = 0;

	while (p && *p) {
		const char *eol = strchr(p, '\n'), *q = p, *e;

		line++;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '[') {
			struct conf_line *h;

			free(section);
			section = section_of(q);
			h = SK_ARRAY_PUSH(cl->sections, cl->nr_sections,
					  cl->alloc_sections);
			h->name = sk_xstrdup(section);
			h->line = line;
			h->used = 0;
		} else if (section && isalpha((unsigned char)*q)) {
			struct conf_line *c;
			char *key;

			for (e = q; isalnum((unsigned char)*e) || *e == '-'; e++)
				;
			key = sk_xstrndup(q, e - q);
			lower(key);
			c = SK_ARRAY_PUSH(cl->items, cl->nr, cl->alloc);
			c->name = sk_xstrfmt("%s.%s", section, key);
			c->line = line;
			c->used = 0;
			free(key);
		}
		p = eol ? eol + 1 : NULL;
	}
	free(section);
}

static void conf_lines_release(struct conf_lines *cl)
{
	size_t i;

	for (i = 0; i < cl->nr; i++)
		free(cl->items[i].name);
	for (i = 0; i < cl->nr_sections; i++)
		free(cl->sections[i].name);
	free(cl->items);
	free(cl->sections);
}

/* The line of the next unused entry with this name; 0 if none. */
static int take_line(struct conf_lines *cl, const char *name)
{
	size_t i;

	for (i = 0; i < cl->nr; i++)
		if (!cl->items[i].used && !strcmp(cl->items[i].name, name)) {
			cl->items[i].used = 1;
			return cl->items[i].line;
		}
	return 0;
}

static int section_line(struct conf_lines *cl, const char *section)
{
	size_t i;

	for (i = 0; i < cl->nr_sections; i++)
		if (!strcmp(cl->sections[i].name, section))
			return cl->sections[i].line;
	return 0;
}

/* "[branch "x"]" for "branch.x", "[stablekit]" for "stablekit". */
static char *section_text(const char *name)
{
	const char *dot = strchr(name, '.');

	if (!dot)
		return sk_xstrfmt("[%s]", name);
	return sk_xstrfmt("[%.*s \"%s\"]", (int)(dot - name), name, dot + 1);
}

/* Keys a section may give more than once: each line adds a value. */
static int multi_valued(const char *name)
{
	const char *key = strrchr(name, '.');

	key = key ? key + 1 : name;
	return !strcmp(key, "arch") || !strcmp(key, "select");
}

/*
 * libgit2 merges a section given twice and keeps the last value of a key
 * given twice: both are mistakes (a branch pasted twice, an edit that
 * left the old line), so both are errors naming the second line.
 */
static int conf_dups(const struct conf_lines *cl, const char *path)
{
	size_t i, j;
	char *t;
	int ret;

	for (i = 0; i < cl->nr_sections; i++)
		for (j = 0; j < i; j++) {
			if (strcmp(cl->sections[i].name, cl->sections[j].name))
				continue;
			t = section_text(cl->sections[i].name);
			ret = sk_error_set(SK_EINVALID, "%s:%d: section %s "
					   "again (it is at line %d): give "
					   "each section once", path,
					   cl->sections[i].line, t,
					   cl->sections[j].line);
			free(t);
			return ret;
		}
	for (i = 0; i < cl->nr; i++) {
		if (multi_valued(cl->items[i].name))
			continue;
		for (j = 0; j < i; j++)
			if (!strcmp(cl->items[i].name, cl->items[j].name))
				return sk_error_set(SK_EINVALID, "%s:%d: '%s' "
						    "is set again (it is set at "
						    "line %d): give it once",
						    path, cl->items[i].line,
						    strrchr(cl->items[i].name,
							    '.') + 1,
						    cl->items[j].line);
	}
	return 0;
}

/* ---- the branches ---- */

static struct sk_branch *branch_get(struct sk_branches *b, const char *name,
				    int line)
{
	struct sk_branch *br = sk_branches_find(b, name);

	if (br)
		return br;
	br = SK_ARRAY_PUSH(b->items, b->nr, b->alloc);
	memset(br, 0, sizeof(*br));
	br->name = sk_xstrdup(name);
	br->kind = SK_BRANCH_STABLE;
	br->line = line;
	return br;
}

static void push_str(char ***arr, size_t *nr, const char *v)
{
	*arr = sk_xrealloc(*arr, (*nr + 1) * sizeof(**arr));
	(*arr)[(*nr)++] = sk_xstrdup(v);
}

/* v is NULL for a key given without "=" (git-config's true). */
static int set_key(struct sk_branch *br, const char *key, const char *raw,
		   const char *where)
{
	const char *v = raw ? raw : "";

	if (!strcmp(key, "allow-pending"))
		v = raw;
	if (!strcmp(key, "ref")) {
		if (!*v)
			return sk_error_set(SK_EINVALID, "%s: branch '%s': "
					    "empty ref", where, br->name);
		free(br->ref);
		br->ref = sk_xstrdup(v);
	} else if (!strcmp(key, "base")) {
		free(br->base);
		br->base = *v ? sk_xstrdup(v) : NULL;
	} else if (!strcmp(key, "repo")) {
		if (!*v)
			return sk_error_set(SK_EINVALID, "%s: branch '%s': "
					    "empty repo", where, br->name);
		free(br->repo);
		br->repo = sk_xstrdup(v);
	} else if (!strcmp(key, "kind")) {
		if (sk_branch_kind_parse(&br->kind, v))
			return sk_error_prefix(SK_EINVALID, "%s: branch '%s'",
					       where, br->name);
	} else if (!strcmp(key, "version")) {
		if (sk_version_parse(&br->major, &br->minor, v))
			return sk_error_prefix(SK_EINVALID, "%s: branch '%s'",
					       where, br->name);
	} else if (!strcmp(key, "arch")) {
		if (!sk_arch_find(v))
			return sk_error_set(SK_EINVALID, "%s: branch '%s': "
					    "unknown arch '%s' (%s)", where,
					    br->name, v, sk_arch_list());
		push_str(&br->arches, &br->nr_arches, v);
	} else if (!strcmp(key, "select")) {
		push_str(&br->selects, &br->nr_selects, v);
	} else if (!strcmp(key, "allow-pending")) {
		/* git-config: a key without "=" is true */
		if (git_config_parse_bool(&br->allow_pending, v ? v : "true"))
			return sk_error_set(SK_EINVALID, "%s: branch '%s': "
					    "allow-pending = '%s' is not a "
					    "boolean (true or false)", where,
					    br->name, v);
	} else {
		return sk_error_set(SK_EINVALID, "%s: branch '%s': unknown key "
				    "'%s'", where, br->name, key);
	}
	return 0;
}

/* Every branch has its ref and base; the version from base or name. */
static int finish(struct sk_branches *b, const char *path)
{
	size_t i;

	for (i = 0; i < b->nr; i++) {
		struct sk_branch *br = &b->items[i];

		if (!br->ref)
			return sk_error_set(SK_EINVALID, "%s:%d: branch '%s' "
					    "has no ref (the branch or tag in "
					    "its repository)", path, br->line,
					    br->name);
		if (!br->base)
			return sk_error_set(SK_EINVALID, "%s:%d: branch '%s' "
					    "has no base (the release tag it "
					    "starts from)", path, br->line,
					    br->name);
		if (br->selects && br->kind != SK_BRANCH_DOWNSTREAM)
			return sk_error_set(SK_EINVALID,
					    "%s:%d: branch '%s': select is for "
					    "downstream branches", path,
					    br->line, br->name);
		if (br->allow_pending && br->kind != SK_BRANCH_STABLE)
			return sk_error_set(SK_EINVALID,
					    "%s:%d: branch '%s': allow-pending "
					    "is for stable branches (only they "
					    "take mainline first)", path,
					    br->line, br->name);
		if (br->major || br->kind == SK_BRANCH_MAINLINE)
			continue;
		if (sk_version_parse(&br->major, &br->minor, br->base) &&
		    sk_version_parse(&br->major, &br->minor, br->name))
			return sk_error_set(SK_EINVALID,
					    "%s:%d: branch '%s' has no version:"
					    " neither its base '%s' (a commit "
					    "or branch, not a release tag "
					    "vX.Y) nor its name says one; set "
					    "version = X.Y", path,
					    br->base_line ? br->base_line :
					    br->line, br->name, br->base);
	}
	sk_error_clear();
	return 0;
}

static int load_entry(struct sk_branches *out, struct conf_lines *cl,
		      const git_config_entry *e, const char *path)
{
	const char *name = e->name, *last = strrchr(name, '.');
	char *where = sk_xstrfmt("%s:%d", path, take_line(cl, name));
	int ret = 0;

	/* values name refs, paths, hosts and people: never a second line */
	if (e->value && e->value[sk_utf8_line_break(e->value,
						    strlen(e->value))]) {
		ret = sk_error_set(SK_EINVALID, "%s: a line break or control "
				   "character in the value of '%s' (a value "
				   "is one line: it goes into mail headers, "
				   "patches and reports)", where, name);
	} else if (!strcmp(name, "stablekit.repo")) {
		free(out->repo);
		out->repo = sk_xstrdup(e->value ? e->value : "");
	} else if (!strcmp(name, "stablekit.signoff") ||
		   !strcmp(name, "stablekit.lore")) {
		/* read by identity.c and lore.c, which check their values */
	} else if (!strcmp(name, "build.distcc-hosts")) {
		int slots;

		ret = sk_distcc_hosts_parse(e->value ? e->value : "", &slots);
		if (ret) {
			ret = sk_error_prefix(ret, "%s", where);
		} else {
			free(out->distcc_hosts);
			out->distcc_hosts = sk_xstrdup(e->value);
		}
	} else if (!strncmp(name, "branch.", 7) && last > name + 6) {
		char *bname = sk_xstrndup(name + 7, last - name - 7);
		char *section = sk_xstrfmt("branch.%s", bname);
		struct sk_branch *br;

		ret = sk_name_check("branch", bname);
		if (ret) {
			ret = sk_error_prefix(ret, "%s", where);
		} else {
			br = branch_get(out, bname, section_line(cl, section));
			if (!strcmp(last + 1, "base"))
				br->base_line = atoi(strrchr(where, ':') + 1);
			ret = set_key(br, last + 1, e->value, where);
		}
		free(section);
		free(bname);
	} else {
		ret = sk_error_set(SK_EINVALID, "%s: unknown key '%s' (sections"
				   " are [stablekit], [build] and [branch "
				   "\"<name>\"])",
				   where, name);
	}
	free(where);
	return ret;
}

int sk_branches_load(struct sk_branches *out, const char *path)
{
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	struct conf_lines cl = { 0 };
	struct sk_strbuf text = SK_STRBUF_INIT;
	int ret = 0, err;

	memset(out, 0, sizeof(*out));
	if (!sk_path_exists(path))
		return sk_error_set(SK_ENOTFOUND, "'%s' not found", path);
	out->path = sk_xstrdup(path);
	/* a FIFO here or included would hang libgit2 and us */
	ret = sk_gitconfig_check(path);
	if (ret)
		goto out;
	if (sk_read_file(&text, path) ||
	    git_config_new(&cfg) ||
	    git_config_add_file_ondisk(cfg, path, GIT_CONFIG_LEVEL_LOCAL, NULL,
				       0) ||
	    git_config_iterator_new(&it, cfg)) {
		ret = sk_error_git(SK_EINVALID, path);
		goto out;
	}
	scan_lines(&cl, text.buf);
	ret = conf_dups(&cl, path);
	if (ret)
		goto out;
	while (!(err = git_config_next(&e, it))) {
		ret = load_entry(out, &cl, e, path);
		if (ret)
			goto out;
	}
	if (err != GIT_ITEROVER) {
		ret = sk_error_git(SK_EINVALID, path);
		goto out;
	}
	ret = finish(out, path);
out:
	git_config_iterator_free(it);
	git_config_free(cfg);
	conf_lines_release(&cl);
	sk_strbuf_release(&text);
	if (ret)
		sk_branches_release(out);
	return ret;
}

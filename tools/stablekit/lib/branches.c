#include "branches.h"
#include "error.h"
#include "fsutil.h"
#include "strbuf.h"

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
	memset(b, 0, sizeof(*b));
}

static struct sk_branch *branch_get(struct sk_branches *b, const char *name)
{
	struct sk_branch *br = sk_branches_find(b, name);

	if (br)
		return br;
	br = SK_ARRAY_PUSH(b->items, b->nr, b->alloc);
	memset(br, 0, sizeof(*br));
	br->name = sk_xstrdup(name);
	br->kind = SK_BRANCH_STABLE;
	return br;
}

static void push_str(char ***arr, size_t *nr, const char *v)
{
	*arr = sk_xrealloc(*arr, (*nr + 1) * sizeof(**arr));
	(*arr)[(*nr)++] = sk_xstrdup(v);
}

static int set_key(struct sk_branch *br, const char *key, const char *v,
		   const char *path)
{
	if (!strcmp(key, "ref")) {
		free(br->ref);
		br->ref = sk_xstrdup(v);
	} else if (!strcmp(key, "base")) {
		free(br->base);
		br->base = *v ? sk_xstrdup(v) : NULL;
	} else if (!strcmp(key, "kind")) {
		if (sk_branch_kind_parse(&br->kind, v))
			return sk_error_prefix(SK_EINVALID, "%s: branch '%s'",
					       path, br->name);
	} else if (!strcmp(key, "version")) {
		if (sk_version_parse(&br->major, &br->minor, v))
			return sk_error_prefix(SK_EINVALID, "%s: branch '%s'",
					       path, br->name);
	} else if (!strcmp(key, "arch")) {
		push_str(&br->arches, &br->nr_arches, v);
	} else if (!strcmp(key, "select")) {
		push_str(&br->selects, &br->nr_selects, v);
	}
	return 0;
}

/* Fill what the file left out: ref = name, version from base or name. */
static int finish(struct sk_branches *b, const char *path)
{
	size_t i;

	for (i = 0; i < b->nr; i++) {
		struct sk_branch *br = &b->items[i];

		if (!br->ref)
			br->ref = sk_xstrdup(br->name);
		if (br->selects && br->kind != SK_BRANCH_DOWNSTREAM)
			return sk_error_set(SK_EINVALID,
					    "%s: branch '%s': select is for "
					    "downstream branches", path,
					    br->name);
		if (br->major || br->kind == SK_BRANCH_MAINLINE)
			continue;
		if ((!br->base ||
		     sk_version_parse(&br->major, &br->minor, br->base)) &&
		    sk_version_parse(&br->major, &br->minor, br->name))
			return sk_error_set(SK_EINVALID,
					    "%s: branch '%s' has no version "
					    "(set version = X.Y)", path,
					    br->name);
	}
	sk_error_clear();
	return 0;
}

int sk_branches_load(struct sk_branches *out, const char *path)
{
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int ret = 0, err;

	memset(out, 0, sizeof(*out));
	if (!sk_path_exists(path))
		return sk_error_set(SK_ENOTFOUND, "'%s' not found", path);
	if (git_config_new(&cfg) ||
	    git_config_add_file_ondisk(cfg, path, GIT_CONFIG_LEVEL_LOCAL, NULL,
				       0) ||
	    git_config_iterator_new(&it, cfg)) {
		ret = sk_error_git(SK_EINVALID, path);
		goto out;
	}
	while (!(err = git_config_next(&e, it))) {
		const char *name = e->name, *dot, *last;

		if (!strcmp(name, "stablekit.repo")) {
			free(out->repo);
			out->repo = sk_xstrdup(e->value ? e->value : "");
			continue;
		}
		if (strncmp(name, "branch.", 7))
			continue;
		last = strrchr(name, '.');
		dot = name + 6;
		if (last == dot)
			continue;
		{
			char *bname = sk_xstrndup(dot + 1, last - dot - 1);
			struct sk_branch *br = branch_get(out, bname);

			free(bname);
			ret = set_key(br, last + 1, e->value ? e->value : "",
				      path);
			if (ret)
				goto out;
		}
	}
	if (err != GIT_ITEROVER) {
		ret = sk_error_git(SK_EINVALID, path);
		goto out;
	}
	ret = finish(out, path);
out:
	git_config_iterator_free(it);
	git_config_free(cfg);
	if (ret)
		sk_branches_release(out);
	return ret;
}

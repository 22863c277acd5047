#include "project/trees.h"
#include "core/error.h"
#include "core/gitconfig.h"
#include "core/fsutil.h"
#include "core/sha256.h"
#include "core/strbuf.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *sk_trees_kind_name(enum sk_tree_kind kind)
{
	switch (kind) {
	case SK_TREE_INSTALLED:
		return "installed";
	case SK_TREE_DEB:
		return "deb";
	case SK_TREE_ORIG:
		return "orig";
	case SK_TREE_UNSET:
		break;
	}
	return "?";
}

static void pin_release(struct sk_tree_pin *p)
{
	free(p->version);
	free(p->branch);
	free(p->package);
	free(p->debversion);
	free(p->suite);
	free(p->file);
	free(p->sha256);
}

void sk_trees_release(struct sk_trees *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nr; i++)
		pin_release(&t->v[i]);
	free(t->v);
	free(t->path);
	free(t->uri);
	free(t->keyring);
	memset(t, 0, sizeof(*t));
}

const struct sk_tree_pin *sk_trees_find(const struct sk_trees *t,
					const char *name)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (!strcmp(t->v[i].version, name) ||
		    !strcmp(t->v[i].branch, name))
			return &t->v[i];
	return NULL;
}

static struct sk_tree_pin *pin_get(struct sk_trees *t, const char *version,
				   size_t len)
{
	struct sk_tree_pin *p;
	size_t i;

	for (i = 0; i < t->nr; i++)
		if (strlen(t->v[i].version) == len &&
		    !strncmp(t->v[i].version, version, len))
			return &t->v[i];
	t->v = sk_xrealloc(t->v, (t->nr + 1) * sizeof(*t->v));
	p = &t->v[t->nr++];
	memset(p, 0, sizeof(*p));
	p->kind = SK_TREE_UNSET;
	p->version = sk_xstrndup(version, len);
	return p;
}

static int set_kind(struct sk_tree_pin *p, const char *value)
{
	if (!strcmp(value, "installed"))
		p->kind = SK_TREE_INSTALLED;
	else if (!strcmp(value, "deb"))
		p->kind = SK_TREE_DEB;
	else if (!strcmp(value, "orig"))
		p->kind = SK_TREE_ORIG;
	else
		return -1;
	return 0;
}

static int set_size(struct sk_tree_pin *p, const char *value)
{
	char *end;

	p->size = strtoull(value, &end, 10);
	return *value && !*end && p->size ? 0 : -1;
}

static int tree_entry(struct sk_trees *t, const char *name,
		      const char *value)
{
	const char *sub = name + strlen("tree."), *key = strrchr(name, '.');
	struct sk_tree_pin *p;
	char **field = NULL;

	if (key <= sub)
		return sk_error_set(SK_EINVALID, "%s: '%s' is outside a "
				    "[tree \"<version>\"] section", t->path,
				    name);
	p = pin_get(t, sub, key - sub);
	key++;
	if (!strcmp(key, "kind")) {
		if (set_kind(p, value))
			return sk_error_set(SK_EINVALID, "%s: tree '%s': kind "
					    "'%s' is not installed, deb or "
					    "orig", t->path, p->version, value);
		return 0;
	}
	if (!strcmp(key, "size")) {
		if (set_size(p, value))
			return sk_error_set(SK_EINVALID, "%s: tree '%s': size "
					    "'%s' is not a number of bytes",
					    t->path, p->version, value);
		return 0;
	}
	if (!strcmp(key, "branch"))
		field = &p->branch;
	else if (!strcmp(key, "package"))
		field = &p->package;
	else if (!strcmp(key, "debversion"))
		field = &p->debversion;
	else if (!strcmp(key, "suite"))
		field = &p->suite;
	else if (!strcmp(key, "file"))
		field = &p->file;
	else if (!strcmp(key, "sha256"))
		field = &p->sha256;
	else
		return sk_error_set(SK_EINVALID, "%s: tree '%s': unknown key "
				    "'%s'", t->path, p->version, key);
	free(*field);
	*field = sk_xstrdup(value);
	return 0;
}

static int entry(struct sk_trees *t, const char *name, const char *value)
{
	if (!strcmp(name, "archive.uri")) {
		free(t->uri);
		t->uri = sk_xstrdup(value);
	} else if (!strcmp(name, "archive.keyring")) {
		free(t->keyring);
		t->keyring = sk_xstrdup(value);
	} else if (!strncmp(name, "tree.", 5)) {
		return tree_entry(t, name, value);
	} else {
		return sk_error_set(SK_EINVALID, "%s: unknown key '%s' "
				    "(sections are [archive] and [tree "
				    "\"<version>\"])", t->path, name);
	}
	return 0;
}

static int is_sha256(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++, n++)
		if (!strchr("0123456789abcdef", *s))
			return 0;
	return n == 64;
}

static int check_pin(const struct sk_trees *t, const struct sk_tree_pin *p)
{
	const char *missing = !p->branch ? "branch" :
			      p->kind == SK_TREE_UNSET ? "kind" :
			      !p->package ? "package" :
			      !p->debversion ? "debversion" :
			      !p->file ? "file" : !p->size ? "size" :
			      !p->sha256 ? "sha256" :
			      p->kind != SK_TREE_INSTALLED && !p->suite ?
			      "suite" : NULL;

	if (missing)
		return sk_error_set(SK_EINVALID, "%s: tree '%s' has no %s",
				    t->path, p->version, missing);
	if (!is_sha256(p->sha256))
		return sk_error_set(SK_EINVALID, "%s: tree '%s': sha256 is not "
				    "64 lowercase hex digits", t->path,
				    p->version);
	if (p->kind == SK_TREE_INSTALLED && p->file[0] != '/')
		return sk_error_set(SK_EINVALID, "%s: tree '%s': an installed "
				    "file is an absolute path", t->path,
				    p->version);
	if (p->kind != SK_TREE_INSTALLED && strchr(p->file, '/'))
		return sk_error_set(SK_EINVALID, "%s: tree '%s': a download "
				    "is a file name, not a path", t->path,
				    p->version);
	return 0;
}

static int finish(struct sk_trees *t)
{
	size_t i, j;
	int ret = 0;

	if (!t->nr)
		return sk_error_set(SK_EINVALID, "%s: no [tree] section",
				    t->path);
	for (i = 0; i < t->nr && !ret; i++) {
		ret = check_pin(t, &t->v[i]);
		for (j = 0; j < i && !ret; j++)
			if (!strcmp(t->v[i].branch, t->v[j].branch))
				ret = sk_error_set(SK_EINVALID, "%s: trees "
						   "'%s' and '%s' are both "
						   "branch '%s'", t->path,
						   t->v[j].version,
						   t->v[i].version,
						   t->v[i].branch);
	}
	if (!ret && (!t->uri || !t->keyring))
		for (i = 0; i < t->nr; i++)
			if (t->v[i].kind != SK_TREE_INSTALLED)
				return sk_error_set(SK_EINVALID, "%s: [archive]"
						    " needs uri and keyring",
						    t->path);
	return ret;
}

int sk_trees_load(struct sk_trees *out, const char *path)
{
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	int ret = 0, err;

	memset(out, 0, sizeof(*out));
	if (!sk_path_exists(path))
		return sk_error_set(SK_ENOTFOUND, "'%s' not found", path);
	out->path = sk_xstrdup(path);
	ret = sk_gitconfig_check(path);
	if (ret)
		goto out;
	if (git_config_new(&cfg) ||
	    git_config_add_file_ondisk(cfg, path, GIT_CONFIG_LEVEL_LOCAL, NULL,
				       0) ||
	    git_config_iterator_new(&it, cfg)) {
		ret = sk_error_git(SK_EINVALID, path);
		goto out;
	}
	while (!(err = git_config_next(&e, it))) {
		ret = entry(out, e->name, e->value ? e->value : "");
		if (ret)
			goto out;
	}
	if (err != GIT_ITEROVER) {
		ret = sk_error_git(SK_EINVALID, path);
		goto out;
	}
	ret = finish(out);
out:
	git_config_iterator_free(it);
	git_config_free(cfg);
	if (ret)
		sk_trees_release(out);
	return ret;
}

int sk_trees_verify_file(const struct sk_tree_pin *p, const char *path)
{
	char hex[SK_SHA256_HEX];
	struct stat st;
	int ret;

	if (stat(path, &st))
		return sk_error_set(SK_ENOTFOUND, "'%s' not found", path);
	if ((unsigned long long)st.st_size != p->size)
		return sk_error_set(SK_EINVALID, "'%s' is %llu bytes, the pin "
				    "of tree %s says %llu", path,
				    (unsigned long long)st.st_size,
				    p->version, p->size);
	ret = sk_sha256_file(hex, path);
	if (ret)
		return ret;
	if (strcmp(hex, p->sha256))
		return sk_error_set(SK_EINVALID, "'%s' has sha256 %s, the pin "
				    "of tree %s says %s", path, hex,
				    p->version, p->sha256);
	return 0;
}

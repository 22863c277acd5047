#include "project/repo.h"
#include "project/branches.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"
#include "project/workspace.h"

#include <stdlib.h>
#include <string.h>

int sk_repo_locate(char **out, const char **how,
		   const struct sk_repo_choice *c)
{
	const char *env = getenv("STABLEKIT_REPO");

	if (c->option) {
		*out = sk_xstrdup(c->option);
		*how = "--repo";
	} else if (c->config) {
		*out = c->config[0] == '/' || !c->top ? sk_xstrdup(c->config) :
			sk_path_join(c->top, c->config);
		*how = "config";
	} else if (env && *env) {
		*out = sk_xstrdup(env);
		*how = "STABLEKIT_REPO";
	} else {
		*out = sk_workspace_default_dir(c->top);
		*how = "workspace";
	}
	return 0;
}

int sk_repo_open(git_repository **out, const char *path)
{
	if (git_repository_open_ext(out, path, 0, NULL))
		return sk_error_git(SK_ENOTFOUND, path);
	return 0;
}

int sk_repo_resolve_commit(git_oid *out, git_repository *repo,
			   const char *spec)
{
	git_object *obj = NULL;
	char *peel = sk_xstrfmt("%s^{commit}", spec);
	int err = git_revparse_single(&obj, repo, peel);

	free(peel);
	if (err)
		return sk_error_set(err == GIT_ENOTFOUND || err == GIT_EAMBIGUOUS ?
				    SK_ENOTFOUND : SK_ERROR,
				    "'%s' not found in the repository", spec);
	git_oid_cpy(out, git_object_id(obj));
	git_object_free(obj);
	return 0;
}

int sk_repo_read_at(struct sk_strbuf *out, git_repository *repo,
		    const char *rev, const char *path)
{
	git_oid id;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int err = sk_repo_resolve_commit(&id, repo, rev);

	if (err)
		return err;
	if (git_commit_lookup(&commit, repo, &id) ||
	    git_commit_tree(&tree, commit)) {
		err = sk_error_git(SK_ERROR, rev);
		goto out;
	}
	if (git_tree_entry_bypath(&e, tree, path) ||
	    git_blob_lookup(&blob, repo, git_tree_entry_id(e))) {
		err = sk_error_set(SK_ENOTFOUND, "%s has no file '%s'", rev, path);
		git_error_clear();
		goto out;
	}
	sk_strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
out:
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	git_commit_free(commit);
	return err;
}

int sk_repo_open_branch(git_repository **out, char **path, const char *top,
			const char *repo_option, const struct sk_branches *b,
			const struct sk_branch *br)
{
	struct sk_repo_choice choice = { repo_option, b->repo, top };
	const char *how;

	if (br->repo)
		*path = br->repo[0] == '/' ? sk_xstrdup(br->repo) :
			sk_path_join(top, br->repo);
	else
		sk_repo_locate(path, &how, &choice);
	return sk_repo_open(out, *path);
}

char *sk_repo_index_path(git_repository *repo)
{
	return sk_path_join(git_repository_commondir(repo),
			    "stablekit-index.sqlite");
}

char *sk_config_strf(git_config *cfg, const char *fmt, const char *arg)
{
	char *key = sk_xstrfmt(fmt, arg), *v = NULL;
	git_buf buf = { 0 };

	if (!git_config_get_string_buf(&buf, cfg, key))
		v = sk_xstrdup(buf.ptr);
	git_buf_dispose(&buf);
	free(key);
	return v;
}

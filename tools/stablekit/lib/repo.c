#include "repo.h"
#include "error.h"
#include "fsutil.h"
#include "strbuf.h"
#include "workspace.h"

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

char *sk_repo_index_path(git_repository *repo)
{
	return sk_path_join(git_repository_commondir(repo),
			    "stablekit-index.sqlite");
}

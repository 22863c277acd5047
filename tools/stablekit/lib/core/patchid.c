#include "core/patchid.h"
#include "core/error.h"

int sk_patchid_diff(char out[41], git_diff *diff)
{
	git_oid oid;

	if (git_diff_patchid(&oid, diff, NULL))
		return sk_error_git(SK_ERROR, "patch-id");
	git_oid_tostr(out, 41, &oid);
	return 0;
}

int sk_patchid_buffer(char out[41], const char *diff, size_t len)
{
	git_diff *d = NULL;
	int ret;

	if (git_diff_from_buffer(&d, diff, len))
		return sk_error_git(SK_EINVALID, "cannot parse diff");
	ret = sk_patchid_diff(out, d);
	git_diff_free(d);
	return ret;
}

int sk_patchid_commit(char out[41], git_repository *repo, const git_commit *c)
{
	git_tree *tree = NULL, *ptree = NULL;
	git_commit *parent = NULL;
	git_diff *diff = NULL;
	int ret = SK_ERROR;

	if (git_commit_tree(&tree, c))
		goto git_fail;
	if (git_commit_parentcount(c) &&
	    (git_commit_parent(&parent, c, 0) ||
	     git_commit_tree(&ptree, parent)))
		goto git_fail;
	if (git_diff_tree_to_tree(&diff, repo, ptree, tree, NULL))
		goto git_fail;
	ret = sk_patchid_diff(out, diff);
	goto out;
git_fail:
	ret = sk_error_git(SK_ERROR, "patch-id of commit");
out:
	git_diff_free(diff);
	git_tree_free(ptree);
	git_tree_free(tree);
	git_commit_free(parent);
	return ret;
}

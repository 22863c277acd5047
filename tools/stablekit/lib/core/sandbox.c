#include "core/sandbox.h"
#include "core/diff.h"
#include "core/error.h"
#include "core/treediff.h"
#include "core/fsutil.h"

#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sk_sandbox_attach_mempack(git_repository *repo)
{
	git_odb_backend *mempack = NULL;
	git_odb *odb = NULL;
	int ret = 0;

	if (git_repository_odb(&odb, repo) || git_mempack_new(&mempack) ||
	    git_odb_add_backend(odb, mempack, 999))
		ret = sk_error_git(SK_ERROR, "in-memory object store");
	git_odb_free(odb);
	return ret;
}

int sk_sandbox_open(struct sk_sandbox *sb, git_repository *repo,
		    const git_oid *tree, const char *parent_dir)
{
	memset(sb, 0, sizeof(*sb));
	sb->repo = repo;
	git_oid_cpy(&sb->tree, tree);
	return sk_mkdtemp_in(&sb->dir, parent_dir, "sandbox");
}

void sk_sandbox_release(struct sk_sandbox *sb)
{
	size_t i;

	if (sb->dir)
		sk_rmrf(sb->dir);
	free(sb->dir);
	for (i = 0; i < sb->nr_files; i++)
		free(sb->files[i]);
	free(sb->files);
	memset(sb, 0, sizeof(*sb));
}

static int known(const struct sk_sandbox *sb, const char *path)
{
	size_t i;

	for (i = 0; i < sb->nr_files; i++)
		if (!strcmp(sb->files[i], path))
			return 1;
	return 0;
}

static void remember(struct sk_sandbox *sb, const char *path)
{
	if (!known(sb, path))
		*SK_ARRAY_PUSH(sb->files, sb->nr_files, sb->alloc_files) = sk_xstrdup(path);
}

int sk_tree_write_file(git_repository *repo, git_tree *tree, const char *dir,
		       const char *path)
{
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	char *full = sk_path_join(dir, path), *slash;
	int ret = 0;

	if (git_tree_entry_bypath(&e, tree, path)) {
		if (unlink(full) && sk_path_exists(full))
			ret = sk_error_errno(full);
		goto out;
	}
	if (git_tree_entry_type(e) != GIT_OBJECT_BLOB ||
	    git_blob_lookup(&blob, repo, git_tree_entry_id(e))) {
		ret = sk_error_set(SK_ERROR, "cannot write '%s' from the tree", path);
		goto out;
	}
	slash = strrchr(full, '/');
	*slash = '\0';
	ret = sk_mkdir_p(full, 0755);
	*slash = '/';
	if (!ret)
		ret = sk_write_file_atomic(full, git_blob_rawcontent(blob),
					   (size_t)git_blob_rawsize(blob));
	if (!ret && git_tree_entry_filemode(e) == GIT_FILEMODE_BLOB_EXECUTABLE &&
	    chmod(full, 0755))
		ret = sk_error_errno(full);
out:
	git_blob_free(blob);
	git_tree_entry_free(e);
	free(full);
	return ret;
}

static int with_tree(git_tree **out, struct sk_sandbox *sb, const git_oid *id)
{
	if (git_tree_lookup(out, sb->repo, id))
		return sk_error_git(SK_ERROR, "tree");
	return 0;
}

int sk_sandbox_checkout(struct sk_sandbox *sb, char *const *paths, size_t nr)
{
	git_tree *tree;
	size_t i;
	int ret = with_tree(&tree, sb, &sb->tree);

	for (i = 0; !ret && i < nr; i++) {
		if (known(sb, paths[i]))
			continue;
		ret = sk_tree_write_file(sb->repo, tree, sb->dir, paths[i]);
		if (!ret)
			remember(sb, paths[i]);
	}
	git_tree_free(tree);
	return ret;
}

int sk_sandbox_reset(struct sk_sandbox *sb, const git_oid *id)
{
	git_tree *tree;
	size_t i;
	int ret = with_tree(&tree, sb, id);

	for (i = 0; !ret && i < sb->nr_files; i++)
		ret = sk_tree_write_file(sb->repo, tree, sb->dir, sb->files[i]);
	if (!ret)
		git_oid_cpy(&sb->tree, id);
	git_tree_free(tree);
	return ret;
}

static int index_of_tree(git_index **out, struct sk_sandbox *sb, const git_oid *id)
{
	git_tree *tree;
	int ret = with_tree(&tree, sb, id);

	if (ret)
		return ret;
	if (git_index_new(out) || git_index_read_tree(*out, tree))
		ret = sk_error_git(SK_ERROR, "in-memory index");
	git_tree_free(tree);
	return ret;
}

static int stage_file(git_index *idx, struct sk_sandbox *sb, const char *path)
{
	struct sk_strbuf data = SK_STRBUF_INIT;
	const git_index_entry *old = git_index_get_bypath(idx, path, 0);
	char *full = sk_path_join(sb->dir, path);
	git_index_entry e;
	int ret = sk_read_file(&data, full);

	free(full);
	if (ret == SK_ENOTFOUND) {
		sk_strbuf_release(&data);
		if (old && git_index_remove(idx, path, 0))
			return sk_error_git(SK_ERROR, path);
		return 0;
	}
	memset(&e, 0, sizeof(e));
	e.path = path;
	e.mode = old ? old->mode : GIT_FILEMODE_BLOB;
	if (!ret && (git_blob_create_from_buffer(&e.id, sb->repo, data.buf, data.len) ||
		     git_index_add(idx, &e)))
		ret = sk_error_git(SK_ERROR, path);
	sk_strbuf_release(&data);
	return ret;
}

int sk_sandbox_snapshot(struct sk_sandbox *sb)
{
	git_index *idx = NULL;
	size_t i;
	int ret = index_of_tree(&idx, sb, &sb->tree);

	for (i = 0; !ret && i < sb->nr_files; i++)
		ret = stage_file(idx, sb, sb->files[i]);
	if (!ret && git_index_write_tree_to(&sb->tree, idx, sb->repo))
		ret = sk_error_git(SK_ERROR, "write tree");
	git_index_free(idx);
	return ret;
}

/* Bring the files on disk to the tree an index describes. */
static int take_index(struct sk_sandbox *sb, git_index *idx)
{
	git_oid tree;
	git_tree *a = NULL, *b = NULL;
	struct sk_tree_changes c = { 0 };
	size_t i;
	int ret;

	if (git_index_write_tree_to(&tree, idx, sb->repo))
		return sk_error_git(SK_ERROR, "write tree");
	if (with_tree(&a, sb, &sb->tree) || with_tree(&b, sb, &tree)) {
		ret = sk_error_git(SK_ERROR, "diff");
		goto out;
	}
	ret = sk_tree_changes(&c, sb->repo, a, b, 0);
	for (i = 0; !ret && i < c.nr; i++)
		remember(sb, c.items[i].path);
	if (!ret)
		ret = sk_sandbox_reset(sb, &tree);
out:
	sk_tree_changes_release(&c);
	git_tree_free(a);
	git_tree_free(b);
	return ret;
}

/* libgit2 reads git's diffs only: a quilt-style one gets git's headers. */
static int git_form(struct sk_strbuf *out, const char *text)
{
	struct sk_diff d;
	int ret = sk_diff_parse(&d, text, strlen(text), "the diff", 1, 0);

	if (ret)
		return ret;
	if (sk_diff_has_quilt(&d))
		sk_diff_to_git(out, text, &d);
	else
		sk_strbuf_adds(out, text);
	sk_diff_release(&d);
	return 0;
}

int sk_sandbox_apply_git(struct sk_sandbox *sb, const char *text)
{
	struct sk_strbuf git = SK_STRBUF_INIT;
	git_diff *diff = NULL;
	git_index *idx = NULL;
	git_tree *tree = NULL;
	int ret = git_form(&git, text);

	if (ret)
		return ret;
	if (git_diff_from_buffer(&diff, git.buf, git.len))
		ret = sk_error_git(SK_EINVALID, "diff");
	if (!ret)
		ret = with_tree(&tree, sb, &sb->tree);
	if (!ret && git_apply_to_tree(&idx, sb->repo, tree, diff, NULL))
		ret = sk_error_git(SK_ECONFLICT, "git apply");
	if (!ret)
		ret = take_index(sb, idx);
	git_index_free(idx);
	git_tree_free(tree);
	git_diff_free(diff);
	sk_strbuf_release(&git);
	return ret;
}

int sk_sandbox_cherrypick(struct sk_sandbox *sb, const git_oid *commit)
{
	git_commit *theirs = NULL, *ours = NULL;
	git_signature *sig = NULL;
	git_index *idx = NULL;
	git_tree *tree = NULL;
	git_oid ours_id;
	int ret = 0;

	if (git_commit_lookup(&theirs, sb->repo, commit) ||
	    with_tree(&tree, sb, &sb->tree) ||
	    git_signature_new(&sig, "stablekit", "stablekit@localhost", 0, 0) ||
	    git_commit_create(&ours_id, sb->repo, NULL, sig, sig, NULL, "sandbox",
			      tree, 0, NULL) ||
	    git_commit_lookup(&ours, sb->repo, &ours_id)) {
		ret = sk_error_git(SK_ERROR, "cherry-pick");
		goto out;
	}
	if (git_cherrypick_commit(&idx, sb->repo, theirs, ours, 0, NULL)) {
		ret = sk_error_git(SK_ECONFLICT, "cherry-pick");
		goto out;
	}
	if (git_index_has_conflicts(idx)) {
		ret = sk_error_set(SK_ECONFLICT, "three-way merge left conflicts");
		goto out;
	}
	ret = take_index(sb, idx);
out:
	git_index_free(idx);
	git_tree_free(tree);
	git_signature_free(sig);
	git_commit_free(theirs);
	git_commit_free(ours);
	return ret;
}

int sk_sandbox_diff(struct sk_strbuf *out, struct sk_sandbox *sb,
		    const git_oid *from, const git_oid *to)
{
	git_tree *a = NULL, *b = NULL;
	git_diff *diff = NULL;
	git_buf buf = { 0 };
	int ret = with_tree(&a, sb, from);

	if (!ret)
		ret = with_tree(&b, sb, to);
	if (!ret)
		ret = sk_tree_diff(&diff, sb->repo, a, b, NULL);
	if (!ret && git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH))
		ret = sk_error_git(SK_ERROR, "diff");
	if (!ret)
		sk_strbuf_add(out, buf.ptr, buf.size);
	git_buf_dispose(&buf);
	git_diff_free(diff);
	git_tree_free(a);
	git_tree_free(b);
	return ret;
}

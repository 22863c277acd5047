#include "project/workspace.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/run.h"
#include "core/strbuf.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

char *sk_workspace_default_dir(const char *top)
{
	const char *work = getenv("SK_WORK");

	if (work && *work)
		return sk_path_join(work, "linux");
	return sk_xstrfmt("%s/work/linux", top ? top : ".");
}

/* The value of "NAME = value" in a Makefile, or NULL. */
static char *make_var(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p = text;

	while (p && *p) {
		const char *eol = strchr(p, '\n');
		const char *q = p;

		if (!eol)
			eol = p + strlen(p);
		if (!strncmp(q, name, len)) {
			q += len;
			while (*q == ' ' || *q == '\t')
				q++;
			if (*q == '=') {
				const char *e = eol;

				q++;
				while (q < e && (*q == ' ' || *q == '\t'))
					q++;
				while (e > q && (e[-1] == ' ' || e[-1] == '\t' ||
						 e[-1] == '\r'))
					e--;
				return sk_xstrndup(q, e - q);
			}
		}
		p = *eol ? eol + 1 : NULL;
	}
	return NULL;
}

int sk_workspace_kernel_version(char **out, const char *text)
{
	char *v = make_var(text, "VERSION");
	char *pl = make_var(text, "PATCHLEVEL");
	char *sl = make_var(text, "SUBLEVEL");
	int ret = 0;

	if (!v || !pl || !*v || !*pl) {
		ret = sk_error_set(SK_EINVALID,
				   "no VERSION/PATCHLEVEL in the top Makefile");
		goto out;
	}
	*out = sl && *sl && strcmp(sl, "0") ?
		sk_xstrfmt("%s.%s.%s", v, pl, sl) : sk_xstrfmt("%s.%s", v, pl);
out:
	free(v);
	free(pl);
	free(sl);
	return ret;
}

void sk_workspace_info_release(struct sk_workspace_info *info)
{
	if (!info)
		return;
	free(info->dir);
	free(info->branch);
	free(info->tag);
	memset(info, 0, sizeof(*info));
}

/* The tag "v<version>" that points at the branch tip, or NULL. */
static char *find_tag(git_repository *repo, const git_oid *tip)
{
	git_strarray tags = { 0 };
	char *found = NULL;
	size_t i;

	if (git_tag_list_match(&tags, "v*", repo))
		return NULL;
	for (i = 0; i < tags.count && !found; i++) {
		char *spec = sk_xstrfmt("refs/tags/%s^{commit}", tags.strings[i]);
		git_object *obj = NULL;

		if (!git_revparse_single(&obj, repo, spec) &&
		    git_oid_equal(git_object_id(obj), tip))
			found = sk_xstrdup(tags.strings[i]);
		git_object_free(obj);
		free(spec);
	}
	git_strarray_dispose(&tags);
	return found;
}

int sk_workspace_verify(struct sk_workspace_info *out, const char *dir,
			const char *branch)
{
	git_repository *repo = NULL;
	git_reference *ref = NULL, *head = NULL;
	git_commit *tip = NULL;
	git_tree *tree = NULL;
	git_tree_entry *mf = NULL;
	char *refname = NULL;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!branch)
		branch = SK_WORKSPACE_BRANCH;
	if (git_repository_open_ext(&repo, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL))
		return sk_error_set(SK_ENOTFOUND, "'%s' is not a git repository",
				    dir);
	refname = sk_xstrfmt("refs/heads/%s", branch);
	if (git_reference_lookup(&ref, repo, refname)) {
		ret = sk_error_set(SK_EINVALID, "'%s' has no branch '%s'", dir,
				   branch);
		goto out;
	}
	if (git_repository_head(&head, repo) ||
	    strcmp(git_reference_name(head), refname)) {
		ret = sk_error_set(SK_EINVALID, "HEAD of '%s' is not '%s'", dir,
				   branch);
		goto out;
	}
	if (git_commit_lookup(&tip, repo, git_reference_target(ref)) ||
	    git_commit_tree(&tree, tip) ||
	    git_tree_entry_bypath(&mf, tree, "Makefile")) {
		ret = sk_error_git(SK_EINVALID, "workspace tip has no Makefile");
		goto out;
	}
	out->tag = find_tag(repo, git_commit_id(tip));
	if (!out->tag) {
		ret = sk_error_set(SK_EINVALID,
				   "no v* tag points at '%s' in '%s'", branch,
				   dir);
		goto out;
	}
	git_oid_tostr(out->commit, sizeof(out->commit), git_commit_id(tip));
	out->dir = sk_xstrdup(dir);
	out->branch = sk_xstrdup(branch);
out:
	if (ret)
		sk_workspace_info_release(out);
	git_tree_entry_free(mf);
	git_tree_free(tree);
	git_commit_free(tip);
	git_reference_free(head);
	git_reference_free(ref);
	git_repository_free(repo);
	free(refname);
	return ret;
}

struct add_progress {
	const struct sk_workspace_opts *opts;
	unsigned long done;
};

static int add_cb(const char *path, const char *spec, void *data)
{
	struct add_progress *p = data;

	(void)path;
	(void)spec;
	p->done++;
	if (p->opts->progress && !(p->done % 2000))
		p->opts->progress("index", p->done, 0, p->opts->progress_data);
	return 0;
}

static int extract(const char *tmp, const char *source)
{
	const char *argv[] = { "tar", "-xJf", source, "-C", tmp,
			       "--strip-components=1", "--no-same-owner", NULL };
	struct sk_run_opts ro = { 0 };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	int ret;

	ro.argv = argv;
	ro.timeout_ms = 15 * 60 * 1000;
	ro.flags = SK_RUN_CAPTURE_ERR;
	ret = sk_run(&res, &ro);
	if (!ret && res.exit_code) {
		sk_strbuf_rtrim(&res.err);
		ret = sk_error_set(SK_ETOOL, "tar -xJf '%s' failed (%d): %s",
				   source, res.exit_code, res.err.buf);
	}
	sk_run_result_release(&res);
	return ret;
}

/*
 * Debian's tarball ends its top-level .gitignore with a rule that ignores
 * every top-level entry but debian/.
 * libgit2 1.5 returns an ignored directory as one entry that add_all
 * cannot add, even with GIT_INDEX_ADD_FORCE: so the top-level .gitignore
 * is moved aside while the files are added, then added itself.
 */
static int add_everything(git_index *index, struct add_progress *ap)
{
	const char *wd = git_repository_workdir(git_index_owner(index));
	char *ign = sk_path_join(wd, ".gitignore");
	char *aside = sk_path_join(wd, ".git/stablekit-gitignore");
	int moved = sk_path_exists(ign), ret = 0;

	if (moved && rename(ign, aside)) {
		ret = sk_error_errno(ign);
		goto out;
	}
	if (git_index_add_all(index, NULL, GIT_INDEX_ADD_FORCE, add_cb, ap))
		ret = sk_error_git(SK_ERROR, "cannot add the kernel tree");
	if (moved && rename(aside, ign) && !ret)
		ret = sk_error_errno(ign);
	if (!ret && moved && git_index_add_bypath(index, ".gitignore"))
		ret = sk_error_git(SK_ERROR, "cannot add .gitignore");
out:
	free(ign);
	free(aside);
	return ret;
}

/* Commit everything under the work tree, .gitignore notwithstanding. */
static int commit_tree(struct sk_workspace_info *info, git_repository *repo,
		       const char *version, const char *source,
		       const struct sk_workspace_opts *opts)
{
	struct add_progress ap = { opts, 0 };
	git_index *index = NULL;
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_commit *commit = NULL;
	git_oid tree_id, commit_id, tag_id;
	struct sk_strbuf msg = SK_STRBUF_INIT;
	char *refname = sk_xstrfmt("refs/heads/%s", info->branch);
	double t0 = sk_now();
	int ret = 0;

	if (git_repository_index(&index, repo))
		goto git_fail;
	ret = add_everything(index, &ap);
	if (ret)
		goto out;
	if (git_index_write(index) ||
	    git_index_write_tree(&tree_id, index))
		goto git_fail;
	info->nr_files = git_index_entrycount(index);
	info->index_s = sk_now() - t0;
	t0 = sk_now();
	/* Fixed identity and date: the same tarball gives the same commit. */
	if (git_signature_new(&sig, "stablekit", "stablekit@localhost",
			      1700000000, 0) ||
	    git_tree_lookup(&tree, repo, &tree_id))
		goto git_fail;
	sk_strbuf_addf(&msg, "Linux %s\n\nImported from %s by stablekit "
		       "workspace init.\n", version, source);
	if (git_commit_create(&commit_id, repo, refname, sig, sig, NULL,
			      msg.buf, tree, 0, NULL) ||
	    git_repository_set_head(repo, refname) ||
	    git_commit_lookup(&commit, repo, &commit_id))
		goto git_fail;
	sk_strbuf_reset(&msg);
	sk_strbuf_addf(&msg, "Linux %s\n", version);
	if (git_tag_create(&tag_id, repo, info->tag, (git_object *)commit, sig,
			   msg.buf, 0))
		goto git_fail;
	git_oid_tostr(info->commit, sizeof(info->commit), &commit_id);
	info->commit_s = sk_now() - t0;
	goto out;
git_fail:
	ret = sk_error_git(SK_ERROR, "cannot commit the workspace");
out:
	sk_strbuf_release(&msg);
	git_commit_free(commit);
	git_tree_free(tree);
	git_signature_free(sig);
	git_index_free(index);
	free(refname);
	return ret;
}

static char *parent_dir(const char *dir)
{
	const char *slash = strrchr(dir, '/');

	if (!slash)
		return sk_xstrdup(".");
	if (slash == dir)
		return sk_xstrdup("/");
	return sk_xstrndup(dir, slash - dir);
}

int sk_workspace_init(struct sk_workspace_info *out, const char *dir,
		      const struct sk_workspace_opts *opts)
{
	static const struct sk_workspace_opts no_opts;
	struct sk_strbuf mf = SK_STRBUF_INIT;
	git_repository *repo = NULL;
	char *parent = NULL, *tmp = NULL, *version = NULL, *path = NULL;
	const char *source, *branch;
	double t0;
	int ret;

	if (!opts)
		opts = &no_opts;
	source = opts->source ? opts->source : SK_WORKSPACE_SOURCE;
	branch = opts->branch ? opts->branch : SK_WORKSPACE_BRANCH;
	if (sk_path_exists(dir)) {
		ret = sk_workspace_verify(out, dir, branch);
		if (ret == SK_ENOTFOUND)
			return sk_error_set(SK_EEXISTS,
					    "'%s' exists and is not a workspace",
					    dir);
		return ret;
	}
	memset(out, 0, sizeof(*out));
	if (!sk_path_exists(source))
		return sk_error_set(SK_ENOTFOUND,
				    "kernel source '%s' not found (make deps "
				    "installs linux-source-6.12)", source);
	parent = parent_dir(dir);
	ret = sk_mkdtemp_in(&tmp, parent, "workspace");
	if (ret)
		goto out;
	if (opts->progress)
		opts->progress("extract", 0, 0, opts->progress_data);
	t0 = sk_now();
	ret = extract(tmp, source);
	if (ret)
		goto out;
	out->extract_s = sk_now() - t0;
	path = sk_path_join(tmp, "Makefile");
	ret = sk_read_file(&mf, path);
	if (ret)
		goto out;
	ret = sk_workspace_kernel_version(&version, mf.buf);
	if (ret)
		goto out;
	out->branch = sk_xstrdup(branch);
	out->tag = sk_xstrfmt("v%s", version);
	if (git_repository_init(&repo, tmp, 0)) {
		ret = sk_error_git(SK_ERROR, "cannot create the repository");
		goto out;
	}
	if (opts->progress)
		opts->progress("index", 0, 0, opts->progress_data);
	ret = commit_tree(out, repo, version, source, opts);
	if (ret)
		goto out;
	git_repository_free(repo);
	repo = NULL;
	if (rename(tmp, dir)) {
		ret = sk_error_errno(dir);
		goto out;
	}
	free(tmp);
	tmp = NULL;
	out->dir = sk_xstrdup(dir);
	out->created = 1;
out:
	git_repository_free(repo);
	if (tmp)
		sk_rmrf(tmp);
	if (ret)
		sk_workspace_info_release(out);
	sk_strbuf_release(&mf);
	free(version);
	free(path);
	free(parent);
	free(tmp);
	return ret;
}

#include "build/build-branch.h"
#include "core/arch.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/results.h"
#include "core/strbuf.h"
#include "project/repo.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* kbuild resolves a relative O= from the source tree: make paths absolute. */
static char *absolute(const char *path)
{
	char *cwd, *abs;

	if (path[0] == '/')
		return sk_xstrdup(path);
	cwd = getcwd(NULL, 0);
	abs = cwd ? sk_path_join(cwd, path) : sk_xstrdup(path);
	free(cwd);
	return abs;
}

/* v moved from "from" to "to" when it is a path under from, else NULL. */
static json_t *moved_path(json_t *v, const char *from, const char *to)
{
	const char *s = json_string_value(v);
	size_t n = strlen(from);
	char *p;
	json_t *o;

	if (!s || strncmp(s, from, n) || (s[n] && s[n] != '/'))
		return NULL;
	p = sk_xstrfmt("%s%s", to, s + n);
	o = json_string(p);
	free(p);
	return o;
}

/* Paths under the staging directory, as they will be once it is in place. */
static void rebase_paths(json_t *o, const char *from, const char *to)
{
	const char *key;
	json_t *v, *m;
	size_t i;

	json_object_foreach(o, key, v) {
		if ((m = moved_path(v, from, to)))
			json_object_set_new(o, key, m);
		else
			rebase_paths(v, from, to);
	}
	json_array_foreach(o, i, v) {
		if ((m = moved_path(v, from, to)))
			json_array_set_new(o, i, m);
		else
			rebase_paths(v, from, to);
	}
}

static void rebase_file(const char *path, const char *from, const char *to)
{
	char *why = NULL;
	json_t *o;

	if (!sk_path_exists(path))
		return;
	o = sk_results_load(path, &why);
	if (o) {
		rebase_paths(o, from, to);
		sk_results_save(path, o);	/* the old paths still hold */
	}
	json_decref(o);
	free(why);
}

/* The staging directory, complete, replaces the results in one step. */
static int publish(const struct sk_build *job, const char *staging,
		   const char *results)
{
	size_t i;
	int ret;

	for (i = 0; i < job->nr_arches; i++) {
		const char *dirs[] = { job->arches[i].base.resdir,
				       job->arches[i].patched.resdir };
		size_t d;

		for (d = 0; d < 2; d++) {
			char *p = dirs[d] ? sk_path_join(dirs[d], "metadata.json") : NULL;

			if (p)
				rebase_file(p, staging, results);
			free(p);
		}
	}
	if (sk_is_dir(results)) {
		ret = sk_dir_swap(staging, results);
		if (!ret)
			ret = sk_rmrf(staging);	/* the last run's, now */
	} else {
		ret = rename(staging, results) < 0 ? sk_error_errno(results) : 0;
	}
	return ret;
}

/* Those asked for, else the branch's that the table knows, else the default. */
static char **pick_arches(size_t *nr, const struct sk_build_opts *b)
{
	const struct sk_branch *br = b->branch;
	char **arches = NULL;
	size_t alloc = 0, i;

	*nr = 0;
	if (b->nr_arches)
		for (i = 0; i < b->nr_arches; i++)
			*SK_ARRAY_PUSH(arches, *nr, alloc) = b->arches[i];
	else if (br->nr_arches)
		for (i = 0; i < br->nr_arches; i++) {
			if (sk_arch_find(br->arches[i]))
				*SK_ARRAY_PUSH(arches, *nr, alloc) = br->arches[i];
		}
	else
		for (i = 0; sk_arch_at(i); i++)
			if (sk_arch_at(i)->by_default)
				*SK_ARRAY_PUSH(arches, *nr, alloc) =
					(char *)sk_arch_at(i)->name;
	return arches;
}

static int save_and_publish(struct sk_build *job, struct sk_build_results *res,
			    const char *staging, const char *results)
{
	char *path = sk_path_join(staging, "build.json");
	int ret;

	sk_build_results_move(res, staging, results);
	/* the report says "not buildable" from this, never a pass */
	free(res->results);
	res->results = sk_xstrdup(results);
	ret = sk_build_results_write(path, res);
	free(path);
	if (!ret)
		ret = publish(job, staging, results);
	if (ret) {
		sk_error_prefix(ret, "results");
		sk_rmrf(staging);
	}
	return ret;
}

char *sk_build_branch_progress_line(const char *branch, const char *arch,
				    const char *variant, const char *what)
{
	if (!strcmp(arch, "*"))
		return sk_xstrfmt("build %s: %s", branch, what);
	return sk_xstrfmt("build %s: %-6s %-8s %s", branch, arch, variant, what);
}

static int copy_at(int dirfd, const char *name, const char *to)
{
	struct sk_strbuf text = SK_STRBUF_INIT;
	char buf[65536];
	ssize_t n;
	int fd, ret = 0;

	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return sk_error_errno(name);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sk_strbuf_add(&text, buf, (size_t)n);
	if (n < 0)
		ret = sk_error_errno(name);
	close(fd);
	if (!ret)
		ret = sk_write_file_atomic(to, text.buf, text.len);
	sk_strbuf_release(&text);
	return ret;
}

int sk_build_branch_snapshot(const char *queue, const char *dest)
{
	struct dirent *e;
	struct stat st;
	DIR *dir;
	int fd, ret;

	ret = sk_mkdir_p(dest, 0755);
	if (ret)
		return ret;
	fd = open(queue, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : sk_error_errno(queue);
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return sk_error_errno(queue);
	}
	while (!ret && (e = readdir(dir))) {
		char *to;

		if (e->d_name[0] == '.' ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		to = sk_path_join(dest, e->d_name);
		ret = copy_at(fd, e->d_name, to);
		free(to);
	}
	closedir(dir);
	return ret;
}

int sk_build_branch(struct sk_build *job, struct sk_build_results **out,
		    char **results_out, const struct sk_build_branch_opts *o)
{
	struct sk_build_opts b = o->build;
	const char *name = b.branch->name, *mode = sk_build_mode_name(b.mode);
	char *root = sk_work_dir(b.top);
	char *work, *results, *tmp, *parent, *staging = NULL;
	char *queue = NULL, *copy = NULL;
	char **arches;
	int ret;

	*out = NULL;
	*results_out = NULL;
	arches = pick_arches(&b.nr_arches, &o->build);
	b.arches = arches;
	tmp = o->work ? sk_path_join(o->work, name) :
	      sk_xstrfmt("%s/build/%s", root, name);
	work = absolute(tmp);
	free(tmp);
	tmp = o->results ? sk_xstrfmt("%s/%s/build/%s", o->results, name, mode) :
	      sk_xstrfmt("%s/results/%s/build/%s", root, name, mode);
	results = absolute(tmp);
	free(tmp);
	parent = sk_xstrndup(results, (size_t)(strrchr(results, '/') - results));
	ret = sk_mkdir_p(parent, 0755);
	if (!ret)
		ret = sk_mkdtemp_in(&staging, parent, mode);
	free(parent);
	if (ret) {
		memset(job, 0, sizeof(*job));
		goto out;
	}
	b.work = work;
	b.results = staging;
	memset(job, 0, sizeof(*job));
	if (!b.queue_dir) {
		queue = sk_xstrfmt("%s/stable/%s", b.top, name);
		copy = sk_path_join(staging, "queue");
		ret = sk_build_branch_snapshot(queue, copy);
		b.queue_copy = copy;
	}
	if (!ret)
		ret = sk_build_run(job, &b);
	if (ret) {
		sk_rmrf(staging);
		goto out;
	}
	*out = sk_xcalloc(1, sizeof(**out));
	sk_build_summary(*out, job);
	ret = save_and_publish(job, *out, staging, results);
out:
	*results_out = results;
	free(queue);
	free(copy);
	free(staging);
	free(arches);
	free(work);
	free(root);
	return ret;
}

/*
 * The branch named name of <top>/stable/branches.conf (*b, caller
 * releases) and the repository it lives in, as `stablekit build` finds
 * it: [stablekit] repo, $STABLEKIT_REPO or the workspace.
 */
static int open_branch(git_repository **repo, const struct sk_branch **br,
		       struct sk_branches *b, const char *top,
		       const char *name)
{
	struct sk_repo_choice choice = { 0 };
	char *conf = sk_path_join(top, SK_BRANCHES_CONF), *path = NULL;
	const char *how = NULL;
	int ret = sk_branches_load(b, conf);

	*repo = NULL;
	*br = NULL;
	if (ret)
		goto out;
	*br = sk_branches_find(b, name);
	if (!*br) {
		ret = sk_branches_require(b, name);
		goto out;
	}
	choice.config = b->repo;
	choice.top = top;
	sk_repo_locate(&path, &how, &choice);
	ret = sk_repo_open(repo, path);
	if (ret)
		ret = sk_error_set(SK_ENOTFOUND, "no kernel repository at '%s' "
				   "(from %s)", path, how);
out:
	free(path);
	free(conf);
	return ret;
}

int sk_build_branch_named(struct sk_build *job, struct sk_build_results **out,
			  char **results, const char *name,
			  const struct sk_build_branch_opts *o)
{
	struct sk_build_branch_opts bo = *o;
	struct sk_branches b = { 0 };
	git_repository *repo = NULL;
	int ret;

	memset(job, 0, sizeof(*job));
	*out = NULL;
	*results = NULL;
	ret = open_branch(&repo, &bo.build.branch, &b, o->build.top, name);
	if (!ret) {
		bo.build.repo = repo;
		bo.build.distcc_hosts = b.distcc_hosts;
		ret = sk_build_branch(job, out, results, &bo);
	}
	git_repository_free(repo);
	sk_branches_release(&b);
	return ret;
}

int sk_build_branch_tip(char out[41], const char *top, const char *name)
{
	struct sk_branches b = { 0 };
	const struct sk_branch *br;
	git_repository *repo = NULL;
	git_object *obj = NULL, *commit = NULL;
	int ret = open_branch(&repo, &br, &b, top, name);

	out[0] = '\0';
	if (ret)
		goto out;
	if (git_revparse_single(&obj, repo, br->ref) ||
	    git_object_peel(&commit, obj, GIT_OBJECT_COMMIT)) {
		ret = sk_error_set(SK_ENOTFOUND, "ref '%s' is not in the "
				   "repository", br->ref);
		goto out;
	}
	git_oid_tostr(out, 41, git_object_id(commit));
out:
	git_object_free(commit);
	git_object_free(obj);
	git_repository_free(repo);
	sk_branches_release(&b);
	return ret;
}

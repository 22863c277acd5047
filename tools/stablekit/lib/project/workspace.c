#include "project/workspace.h"
#include "project/aptfetch.h"
#include "project/trees.h"
#include "core/datadir.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/run.h"
#include "core/strbuf.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <time.h>

char *sk_workspace_default_dir(const char *top)
{
	const char *work = getenv("SK_WORK");

	if (work && *work)
		return sk_path_join(work, "linux");
	return sk_xstrfmt("%s/work/linux", top ? top : ".");
}

char *sk_workspace_pins(const char *top)
{
	return sk_datadir_find(top, "ci/trees.conf", NULL);
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
	size_t i;

	if (!info)
		return;
	for (i = 0; i < info->nr; i++) {
		free(info->trees[i].version);
		free(info->trees[i].branch);
		free(info->trees[i].tag);
		free(info->trees[i].source);
	}
	free(info->trees);
	free(info->dir);
	free(info->head);
	memset(info, 0, sizeof(*info));
}

/* The key a workspace carries in its config, so that init never adds
 * branches to a repository it did not make. */
#define MARKER "stablekit.workspace"

static void say(const struct sk_workspace_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct sk_workspace_opts *o, const char *fmt, ...)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	va_list ap;

	if (!o->progress)
		return;
	va_start(ap, fmt);
	sk_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	o->progress(sb.buf, o->progress_data);
	sk_strbuf_release(&sb);
}

/* The selected pins, in the pin file's order (the first is HEAD's). */
static int select_trees(const struct sk_tree_pin ***out, size_t *nr,
			const struct sk_trees *t, const char *const *sel)
{
	const struct sk_tree_pin **v = sk_xcalloc(t->nr, sizeof(*v));
	struct sk_strbuf all = SK_STRBUF_INIT;
	size_t i, j;

	*nr = 0;
	for (j = 0; sel && sel[j]; j++) {
		if (sk_trees_find(t, sel[j]))
			continue;
		for (i = 0; i < t->nr; i++)
			sk_strbuf_addf(&all, " %s", t->v[i].version);
		free(v);
		sk_error_set(SK_ENOTFOUND, "no tree '%s' in %s (it pins%s)",
			     sel[j], t->path, all.buf);
		sk_strbuf_release(&all);
		return SK_ENOTFOUND;
	}
	for (i = 0; i < t->nr; i++) {
		const struct sk_tree_pin *p = &t->v[i];
		int want = !sel;

		for (j = 0; sel && sel[j] && !want; j++)
			want = sk_trees_find(t, sel[j]) == p;
		if (want)
			v[(*nr)++] = p;
	}
	*out = v;
	return 0;
}

/* Is the pinned tree in repo?  1 yes (commit filled in), 0 no. */
static int tree_present(git_repository *repo, const struct sk_tree_pin *p,
			struct sk_workspace_tree *wt, const char *dir)
{
	git_reference *ref = NULL;
	git_object *tag = NULL;
	git_commit *tip = NULL;
	git_tree *tree = NULL;
	git_tree_entry *mf = NULL;
	char *refname = sk_xstrfmt("refs/heads/%s", p->branch);
	char *tagspec = sk_xstrfmt("refs/tags/%s^{commit}", wt->tag);
	int ret = 1;

	if (git_reference_lookup(&ref, repo, refname)) {
		git_error_clear();
		ret = 0;
		goto out;
	}
	if (git_revparse_single(&tag, repo, tagspec) ||
	    !git_oid_equal(git_object_id(tag), git_reference_target(ref))) {
		git_error_clear();
		ret = sk_error_set(SK_EINVALID, "branch '%s' of '%s' is not "
				   "tree %s (no tag %s at its tip): an older "
				   "pin?  remove '%s' and run workspace init "
				   "again", p->branch, dir, p->version,
				   wt->tag, dir);
		goto out;
	}
	if (git_commit_lookup(&tip, repo, git_reference_target(ref)) ||
	    git_commit_tree(&tree, tip) ||
	    git_tree_entry_bypath(&mf, tree, "Makefile")) {
		ret = sk_error_git(SK_EINVALID, "workspace tree has no Makefile");
		goto out;
	}
	git_oid_tostr(wt->commit, sizeof(wt->commit), git_commit_id(tip));
out:
	git_tree_entry_free(mf);
	git_tree_free(tree);
	git_commit_free(tip);
	git_object_free(tag);
	git_reference_free(ref);
	free(refname);
	free(tagspec);
	return ret;
}

/* argv run with a timeout; a non-zero exit is SK_ETOOL with stderr. */
static int run_tool(const char *const *argv, struct sk_strbuf *out,
		    unsigned int ms)
{
	struct sk_run_opts ro = { 0 };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	int ret;

	ro.argv = argv;
	ro.timeout_ms = ms;
	ro.flags = SK_RUN_CAPTURE_ERR | (out ? SK_RUN_CAPTURE_OUT : 0);
	ret = sk_run(&res, &ro);
	if (ret == SK_ETIMEOUT)
		ret = sk_error_set(SK_ETIMEOUT, "%s ran past %u s", argv[0],
				   ms / 1000);
	else if (!ret && res.exit_code) {
		sk_strbuf_rtrim(&res.err);
		ret = sk_error_set(SK_ETOOL, "%s %s failed (%d): %s", argv[0],
				   argv[1], res.exit_code, res.err.buf);
	}
	if (!ret && out)
		sk_strbuf_add(out, res.out.buf, res.out.len);
	sk_run_result_release(&res);
	return ret;
}

#define EXTRACT_MS (15 * 60 * 1000)

/* An installed tree: the pinned package version, then the pinned file. */
static int check_installed(const struct sk_tree_pin *p)
{
	const char *argv[] = { "dpkg-query", "-W", "-f=${Version}",
			       p->package, NULL };
	struct sk_strbuf v = SK_STRBUF_INIT;
	int ret = run_tool(argv, &v, 60 * 1000);

	if (ret) {
		ret = sk_error_prefix(SK_ENOTFOUND, "tree %s: %s is not "
				      "installed (make deps-test installs it)",
				      p->version, p->package);
		goto out;
	}
	if (strcmp(v.buf, p->debversion)) {
		ret = sk_error_set(SK_EINVALID, "tree %s: installed %s is %s, "
				   "the pin is %s", p->version, p->package,
				   v.len ? v.buf : "(none)", p->debversion);
		goto out;
	}
	ret = sk_trees_verify_file(p, p->file);
out:
	sk_strbuf_release(&v);
	return ret;
}

static int untar(const char *tarball, const char *dest)
{
	const char *argv[] = { "tar", "-xJf", tarball, "-C", dest,
			       "--strip-components=1", "--no-same-owner",
			       NULL };

	return run_tool(argv, NULL, EXTRACT_MS);
}

/* The tree of p into dest; scratch holds a .deb's contents meanwhile. */
static int extract(const struct sk_tree_pin *p, const char *source,
		   const char *dest, const char *scratch)
{
	const char *argv[] = { "dpkg-deb", "-x", source, scratch, NULL };
	char *inner = NULL, *deb = NULL;
	int ret;

	if (p->kind != SK_TREE_DEB)
		return untar(source, dest);
	deb = sk_path_join(scratch, "deb");
	argv[3] = deb;
	ret = sk_mkdir_p(deb, 0755);
	if (!ret)
		ret = run_tool(argv, NULL, EXTRACT_MS);
	if (ret)
		goto out;
	inner = sk_xstrfmt("%s/usr/src/%s.tar.xz", deb, p->package);
	if (!sk_path_exists(inner)) {
		ret = sk_error_set(SK_EINVALID, "tree %s: '%s' holds no "
				   "usr/src/%s.tar.xz", p->version, source,
				   p->package);
		goto out;
	}
	ret = untar(inner, dest);
out:
	if (deb)
		sk_rmrf(deb);
	free(inner);
	free(deb);
	return ret;
}

/* The extracted tree's Makefile must say the pinned version. */
static int check_version(const struct sk_tree_pin *p, const char *dir)
{
	struct sk_strbuf mf = SK_STRBUF_INIT;
	char *path = sk_path_join(dir, "Makefile"), *v = NULL;
	int ret = sk_read_file(&mf, path);

	if (!ret)
		ret = sk_workspace_kernel_version(&v, mf.buf);
	if (!ret && strcmp(v, p->version))
		ret = sk_error_set(SK_EINVALID, "tree %s: its Makefile says "
				   "%s", p->version, v);
	sk_strbuf_release(&mf);
	free(path);
	free(v);
	return ret;
}

/*
 * The git tree of a directory, every file whatever .gitignore says:
 * blobs straight from disk (no filters, none apply to a kernel tree),
 * so a blob the repository has already is stored once.
 */
static int write_dir(git_oid *out, git_repository *repo, const char *path,
		     unsigned long *nr, int *empty)
{
	git_treebuilder *tb = NULL;
	struct sk_strbuf sub = SK_STRBUF_INIT;
	struct dirent *de;
	DIR *d = opendir(path);
	int ret = 0;

	if (!d)
		return sk_error_errno(path);
	if (git_treebuilder_new(&tb, repo, NULL)) {
		ret = sk_error_git(SK_ERROR, path);
		goto out;
	}
	while ((errno = 0, de = readdir(d))) {
		struct stat st;
		git_oid id;
		git_filemode_t mode;
		int sub_empty = 0;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sk_strbuf_reset(&sub);
		sk_strbuf_addf(&sub, "%s/%s", path, de->d_name);
		if (lstat(sub.buf, &st)) {
			ret = sk_error_errno(sub.buf);
			goto out;
		}
		if (S_ISDIR(st.st_mode)) {
			ret = write_dir(&id, repo, sub.buf, nr, &sub_empty);
			if (ret)
				goto out;
			if (sub_empty)
				continue;
			mode = GIT_FILEMODE_TREE;
		} else if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t n = readlink(sub.buf, target, sizeof(target));

			if (n < 0 || (size_t)n == sizeof(target)) {
				ret = sk_error_errno(sub.buf);
				goto out;
			}
			if (git_blob_create_from_buffer(&id, repo, target, n))
				goto git_fail;
			mode = GIT_FILEMODE_LINK;
			++*nr;
		} else if (S_ISREG(st.st_mode)) {
			if (git_blob_create_from_disk(&id, repo, sub.buf))
				goto git_fail;
			mode = st.st_mode & S_IXUSR ?
			       GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
			++*nr;
		} else {
			continue;
		}
		if (git_treebuilder_insert(NULL, tb, de->d_name, &id, mode))
			goto git_fail;
	}
	if (errno) {
		ret = sk_error_errno(path);
		goto out;
	}
	/* git keeps no empty directory: no empty tree object either */
	*empty = !git_treebuilder_entrycount(tb);
	if (!*empty && git_treebuilder_write(out, tb))
		goto git_fail;
	goto out;
git_fail:
	ret = sk_error_git(SK_ERROR, sub.len ? sub.buf : path);
out:
	git_treebuilder_free(tb);
	closedir(d);
	sk_strbuf_release(&sub);
	return ret;
}

static int add_cb(const char *path, const char *spec, void *data)
{
	(void)path;
	(void)spec;
	++*(unsigned long *)data;
	return 0;
}

/*
 * Debian's tarball ends its top-level .gitignore with a rule that ignores
 * every top-level entry but debian/.
 * libgit2 1.5 returns an ignored directory as one entry that add_all
 * cannot add, even with GIT_INDEX_ADD_FORCE: so the top-level .gitignore
 * is moved aside while the files are added, then added itself.  (The
 * index is what keeps the work tree of HEAD's tree clean.)
 */
static int add_everything(git_index *index, unsigned long *nr)
{
	const char *wd = git_repository_workdir(git_index_owner(index));
	char *ign = sk_path_join(wd, ".gitignore");
	char *aside = sk_path_join(wd, ".git/stablekit-gitignore");
	int moved = sk_path_exists(ign), ret = 0;

	if (moved && rename(ign, aside)) {
		ret = sk_error_errno(ign);
		goto out;
	}
	if (git_index_add_all(index, NULL, GIT_INDEX_ADD_FORCE, add_cb, nr))
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

/* The work tree's files as a tree, through the index. */
static int index_tree(git_oid *out, git_repository *repo, unsigned long *nr)
{
	git_index *index = NULL;
	int ret = 0;

	if (git_repository_index(&index, repo))
		return sk_error_git(SK_ERROR, "cannot open the index");
	ret = add_everything(index, nr);
	if (!ret && (git_index_write(index) ||
		     git_index_write_tree(out, index)))
		ret = sk_error_git(SK_ERROR, "cannot write the index");
	*nr = git_index_entrycount(index);
	git_index_free(index);
	return ret;
}

/*
 * Commit tree_id for p, then its tag, then its branch: the branch is what
 * says the tree is there.  A fixed identity and date, and the file named
 * by name and sha256: the same pin gives the same commit everywhere.
 */
static int commit_pin(struct sk_workspace_tree *wt, git_repository *repo,
		      const git_oid *tree_id, const struct sk_tree_pin *p)
{
	git_signature *sig = NULL;
	git_tree *tree = NULL;
	git_commit *commit = NULL;
	git_reference *ref = NULL;
	git_oid commit_id, tag_id;
	struct sk_strbuf msg = SK_STRBUF_INIT;
	int ret = 0;

	if (git_signature_new(&sig, "stablekit", "stablekit@localhost",
			      1700000000, 0) ||
	    git_tree_lookup(&tree, repo, tree_id))
		goto git_fail;
	sk_strbuf_addf(&msg, "Linux %s\n\nImported from %s (%s %s %s, sha256 "
		       "%s) by stablekit workspace init.\n", p->version,
		       sk_path_basename(p->file), sk_trees_kind_name(p->kind),
		       p->package, p->debversion, p->sha256);
	if (git_commit_create(&commit_id, repo, NULL, sig, sig, NULL, msg.buf,
			      tree, 0, NULL) ||
	    git_commit_lookup(&commit, repo, &commit_id))
		goto git_fail;
	sk_strbuf_reset(&msg);
	sk_strbuf_addf(&msg, "Linux %s\n", p->version);
	if (git_tag_create(&tag_id, repo, wt->tag, (git_object *)commit, sig,
			   msg.buf, 1))
		goto git_fail;
	ret = git_branch_create(&ref, repo, p->branch, commit, 0);
	/* another init made the same commit meanwhile: the same tree */
	if (ret == GIT_EEXISTS && !git_branch_lookup(&ref, repo, p->branch,
						     GIT_BRANCH_LOCAL) &&
	    git_oid_equal(git_reference_target(ref), &commit_id))
		ret = 0;
	if (ret)
		goto git_fail;
	git_oid_tostr(wt->commit, sizeof(wt->commit), &commit_id);
	goto out;
git_fail:
	ret = sk_error_git(SK_ERROR, p->branch);
out:
	sk_strbuf_release(&msg);
	git_reference_free(ref);
	git_commit_free(commit);
	git_tree_free(tree);
	git_signature_free(sig);
	return ret;
}

struct init_ctx {
	const struct sk_workspace_opts *o;
	struct sk_workspace_info *info;
	const struct sk_tree_pin **pins;	/* parallel to info->trees */
	const char *parent;			/* scratch directories */
};

/* A tree that is not HEAD's: extracted apart, walked, removed. */
static int import_apart(struct init_ctx *c, git_repository *repo, size_t i)
{
	const struct sk_tree_pin *p = c->pins[i];
	struct sk_workspace_tree *wt = &c->info->trees[i];
	char *scratch = NULL, *src = NULL;
	git_oid tree_id;
	int empty = 0, ret;
	double t0 = sk_now();

	say(c->o, "extracting %s (%s)", p->version, sk_path_basename(wt->source));
	ret = sk_mkdtemp_in(&scratch, c->parent, "workspace-tree");
	if (ret)
		return ret;
	src = sk_path_join(scratch, "src");
	ret = sk_mkdir_p(src, 0755);
	if (!ret)
		ret = extract(p, wt->source, src, scratch);
	if (!ret)
		ret = check_version(p, src);
	if (ret)
		goto out;
	wt->extract_s = sk_now() - t0;
	say(c->o, "importing %s", p->version);
	t0 = sk_now();
	ret = write_dir(&tree_id, repo, src, &wt->nr_files, &empty);
	if (!ret)
		ret = commit_pin(wt, repo, &tree_id, p);
	wt->import_s = sk_now() - t0;
out:
	sk_rmrf(scratch);
	free(scratch);
	free(src);
	return ret;
}

/* A new repository in tmp, its work tree the first tree, HEAD its branch. */
static int import_head(struct init_ctx *c, git_repository **repo,
		       const char *tmp)
{
	const struct sk_tree_pin *p = c->pins[0];
	struct sk_workspace_tree *wt = &c->info->trees[0];
	git_config *cfg = NULL;
	char *refname = sk_xstrfmt("refs/heads/%s", p->branch);
	git_oid tree_id;
	double t0 = sk_now();
	int ret;

	say(c->o, "extracting %s (%s) as the work tree", p->version,
	    sk_path_basename(wt->source));
	ret = extract(p, wt->source, tmp, c->parent);
	if (!ret)
		ret = check_version(p, tmp);
	if (ret)
		goto out;
	wt->extract_s = sk_now() - t0;
	if (git_repository_init(repo, tmp, 0) ||
	    git_repository_config(&cfg, *repo) ||
	    git_config_set_bool(cfg, MARKER, 1) ||
	    git_config_set_int32(cfg, "gc.auto", 0)) {
		ret = sk_error_git(SK_ERROR, "cannot create the repository");
		goto out;
	}
	say(c->o, "importing %s", p->version);
	t0 = sk_now();
	ret = index_tree(&tree_id, *repo, &wt->nr_files);
	if (!ret)
		ret = commit_pin(wt, *repo, &tree_id, p);
	if (!ret && git_repository_set_head(*repo, refname))
		ret = sk_error_git(SK_ERROR, refname);
	wt->import_s = sk_now() - t0;
out:
	git_config_free(cfg);
	free(refname);
	return ret;
}

/* Every missing tree's file, fetched or found and verified. */
static int obtain(struct init_ctx *c, const struct sk_trees *t,
		  const char *cache)
{
	struct sk_aptfetch af;
	char *aptdir = sk_path_join(cache, "apt");
	char *dldir = sk_path_join(cache, "downloads");
	size_t i;
	int ret = 0;

	sk_aptfetch_init(&af, aptdir, t);
	for (i = 0; i < c->info->nr && !ret; i++) {
		const struct sk_tree_pin *p = c->pins[i];
		struct sk_workspace_tree *wt = &c->info->trees[i];
		double t0 = sk_now();

		if (wt->commit[0])
			continue;
		if (p->kind == SK_TREE_INSTALLED) {
			say(c->o, "checking %s (%s %s)", p->version,
			    p->package, p->debversion);
			ret = check_installed(p);
			wt->source = sk_xstrdup(p->file);
			wt->cached = 1;
		} else {
			say(c->o, "fetching %s (%s %s%s from %s)", p->version,
			    p->package, p->debversion,
			    p->kind == SK_TREE_ORIG ? " orig" : "", p->suite);
			ret = sk_aptfetch_get(&af, p, dldir, &wt->source,
					      &wt->cached);
			if (!ret && wt->cached)
				say(c->o, "%s: %s was there, verified",
				    p->version, p->file);
		}
		wt->fetch_s = sk_now() - t0;
	}
	sk_aptfetch_release(&af);
	free(aptdir);
	free(dldir);
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

/* An existing dir: a workspace, its trees' state in info. */
static int open_existing(git_repository **repo, struct init_ctx *c,
			 const char *dir)
{
	git_config *cfg = NULL;
	git_reference *head = NULL;
	int marked = 0, ret = 0;
	size_t i;

	if (git_repository_open_ext(repo, dir, GIT_REPOSITORY_OPEN_NO_SEARCH,
				    NULL)) {
		git_error_clear();
		return sk_error_set(SK_EEXISTS, "'%s' exists and is not a "
				    "workspace", dir);
	}
	if (git_repository_config_snapshot(&cfg, *repo) ||
	    git_config_get_bool(&marked, cfg, MARKER) || !marked) {
		git_error_clear();
		ret = sk_error_set(SK_EEXISTS, "'%s' exists and is not a "
				   "workspace (no %s in its config; one of an "
				   "older stablekit is removed by hand)", dir,
				   MARKER);
		goto out;
	}
	for (i = 0; i < c->info->nr && !ret; i++) {
		ret = tree_present(*repo, c->pins[i], &c->info->trees[i], dir);
		ret = ret > 0 ? 0 : ret;
	}
	if (!ret && !git_repository_head(&head, *repo))
		c->info->head = sk_xstrdup(git_reference_shorthand(head));
	git_error_clear();
out:
	git_reference_free(head);
	git_config_free(cfg);
	return ret;
}

static void info_trees(struct sk_workspace_info *info,
		       const struct sk_tree_pin **pins, size_t nr)
{
	size_t i;

	info->trees = sk_xcalloc(nr ? nr : 1, sizeof(*info->trees));
	info->nr = nr;
	for (i = 0; i < nr; i++) {
		info->trees[i].version = sk_xstrdup(pins[i]->version);
		info->trees[i].branch = sk_xstrdup(pins[i]->branch);
		info->trees[i].tag = sk_xstrfmt("v%s", pins[i]->version);
	}
}

static int import_missing(struct init_ctx *c, git_repository *repo,
			  size_t from)
{
	size_t i;
	int ret = 0;

	for (i = from; i < c->info->nr && !ret; i++) {
		struct sk_workspace_tree *wt = &c->info->trees[i];

		if (wt->commit[0])
			continue;
		ret = import_apart(c, repo, i);
		if (ret)
			break;
		wt->imported = 1;
		c->info->imported++;
		say(c->o, "%s = %s (%lu files, %.0f s)", wt->branch, wt->tag,
		    wt->nr_files, wt->extract_s + wt->import_s);
	}
	return ret;
}

int sk_workspace_init(struct sk_workspace_info *out, const char *dir,
		      const struct sk_workspace_opts *opts)
{
	static const struct sk_workspace_opts no_opts;
	struct sk_trees t = { 0 };
	struct init_ctx c = { 0 };
	git_repository *repo = NULL;
	char *parent = NULL, *tmp = NULL, *cache = NULL, *shipped = NULL;
	size_t nr = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	c.o = opts ? opts : &no_opts;
	c.info = out;
	shipped = c.o->pins ? NULL : sk_datadir_path("ci/trees.conf");
	ret = sk_trees_load(&t, c.o->pins ? c.o->pins : shipped);
	if (!ret)
		ret = select_trees(&c.pins, &nr, &t, c.o->select);
	if (ret)
		goto out;
	info_trees(out, c.pins, nr);
	parent = parent_dir(dir);
	c.parent = parent;
	cache = c.o->cache ? sk_xstrdup(c.o->cache) : sk_xstrdup(parent);
	if (sk_path_exists(dir)) {
		ret = open_existing(&repo, &c, dir);
		if (!ret)
			ret = obtain(&c, &t, cache);
		if (!ret)
			ret = import_missing(&c, repo, 0);
		goto done;
	}
	ret = obtain(&c, &t, cache);
	if (!ret)
		ret = sk_mkdir_p(parent, 0755);
	if (!ret)
		ret = sk_mkdtemp_in(&tmp, parent, "workspace");
	if (!ret)
		ret = import_head(&c, &repo, tmp);
	if (ret)
		goto out;
	out->trees[0].imported = 1;
	out->imported = 1;
	out->head = sk_xstrdup(out->trees[0].branch);
	say(c.o, "%s = %s (%lu files, %.0f s)", out->trees[0].branch,
	    out->trees[0].tag, out->trees[0].nr_files,
	    out->trees[0].extract_s + out->trees[0].import_s);
	ret = import_missing(&c, repo, 1);
	if (ret)
		goto out;
	git_repository_free(repo);
	repo = NULL;
	if (rename(tmp, dir)) {
		if (errno != EEXIST && errno != ENOTEMPTY) {
			ret = sk_error_errno(dir);
			goto out;
		}
		/* another init got there first: use (or complete) its one */
		sk_rmrf(tmp);
		sk_workspace_info_release(out);
		ret = sk_workspace_init(out, dir, opts);
		goto out;
	}
	free(tmp);
	tmp = NULL;
	out->created = 1;
done:
	if (!ret)
		out->dir = sk_xstrdup(dir);
out:
	git_repository_free(repo);
	if (tmp)
		sk_rmrf(tmp);
	if (ret)
		sk_workspace_info_release(out);
	sk_trees_release(&t);
	free(c.pins);
	free(parent);
	free(cache);
	free(tmp);
	free(shipped);
	return ret;
}

#include "track/track.h"
#include "track/track-lines.h"
#include "track/commitfacts.h"
#include "track/content.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/names.h"
#include "core/parallel.h"
#include "core/patchid.h"
#include "core/strvec.h"
#include "project/repo.h"
#include "mail/series.h"
#include "mail/trailers.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * The newest commits of the patch's author looked at for an equal
 * patch-id under another subject, or for a reshaped landing: those that
 * touch the patch's files (one tree diff each, cached in the index) are
 * compared.  A stable branch is searched further back than mainline.
 */
#define MAINLINE_AUTHOR_CAP 300
#define BRANCH_AUTHOR_CAP 2000
/*
 * A pick whose subject and author were both changed is found by its
 * patch-id among the commits of the branch that touch the same files
 * (their paths are cached in the index), on a branch of at most this
 * many commits past its base: a backport branch, not a stable series
 * of ten thousand, where reading every commit's paths would cost a cold
 * run seconds and a warm one the paths of all of them.
 */
#define BRANCH_SCAN_CAP 1000
/* A reshaped landing covers this much of the patch's changed lines (%). */
#define RESHAPED_COVER 75

static const char *const state_names[] = {
	[SK_STATE_UNKNOWN] = "unknown",
	[SK_STATE_UPSTREAM] = "upstream",
	[SK_STATE_PENDING] = "pending",
	[SK_STATE_PRESENT] = "present",
	[SK_STATE_QUEUED] = "queued",
	[SK_STATE_NEEDED] = "needed",
	[SK_STATE_NOT_AFFECTED] = "not affected",
	[SK_STATE_NOT_ELIGIBLE] = "not eligible",
	[SK_STATE_SIMILAR] = "similar",
	[SK_STATE_REVERTED_UPSTREAM] = "reverted upstream",
	[SK_STATE_REVERTED_HERE] = "reverted on this branch",
	[SK_STATE_WAITS] = "waits",
};

static const char *const proof_names[] = {
	[SK_PROOF_MSGID] = "explicit reference",
	[SK_PROOF_PATCHID] = "equal patch-id",
	[SK_PROOF_REAPPLIED] = "reverts the revert",
	[SK_PROOF_SERIES] = "reshaped landing (series Link:)",
	[SK_PROOF_HUNKS] = "reshaped landing (hunks covered)",
};

const char *sk_proof_name(enum sk_proof p)
{
	return proof_names[p];
}

int sk_track_upstream_proven(const struct sk_track_upstream *u)
{
	return u->proof <= SK_PROOF_HUNKS && !u->reverted_by[0];
}

const char *sk_state_name(enum sk_state s)
{
	return state_names[s];
}

/*
 * Stable takes mainline first: a patch a stable branch would need waits
 * until mainline has it (or a newer stable branch, which took it from
 * mainline), unless the branch allows pending patches.
 */
static enum sk_state mainline_first(const struct sk_track_facts *f,
				    enum sk_state st, struct sk_strbuf *why)
{
	char *needed;

	if (st != SK_STATE_NEEDED || f->kind != SK_BRANCH_STABLE ||
	    f->upstream)
		return st;
	if (f->allow_pending) {
		sk_strbuf_adds(why, "; not upstream yet, taken as the branch "
			       "sets allow-pending");
		return st;
	}
	needed = sk_strbuf_detach(why);
	sk_strbuf_addf(why, "not upstream yet (mainline-first): %s, and no "
		       "newer stable branch has it; needed once it is "
		       "upstream (%s)", f->mainline ?
		       "no mainline commit proves it" :
		       "no mainline branch is tracked to prove it", needed);
	free(needed);
	return SK_STATE_WAITS;
}

enum sk_state sk_track_decide(const struct sk_track_facts *f,
			      struct sk_strbuf *why)
{
	struct sk_strbuf dummy = SK_STRBUF_INIT;
	enum sk_state st;

	if (!why)
		why = &dummy;
	if (f->kind == SK_BRANCH_MAINLINE) {
		if (f->present) {
			st = SK_STATE_UPSTREAM;
		} else if (f->reverted_upstream) {
			st = SK_STATE_REVERTED_UPSTREAM;
			sk_strbuf_adds(why, "every commit that landed it was "
				       "reverted");
		} else if (f->similar) {
			st = SK_STATE_SIMILAR;
			sk_strbuf_adds(why, "a commit has its subject but not "
				       "its patch-id, and no commit proves it");
		} else {
			st = SK_STATE_PENDING;
			sk_strbuf_adds(why, "no mainline commit proves it");
		}
	} else if (f->reverted_here && !f->present) {
		st = SK_STATE_REVERTED_HERE;
		sk_strbuf_adds(why, "it landed on this branch and was reverted");
	} else if (f->present && f->reverted_upstream) {
		st = SK_STATE_REVERTED_UPSTREAM;
		sk_strbuf_adds(why, "the branch has it, but it was reverted "
			       "upstream");
	} else if (f->present) {
		st = SK_STATE_PRESENT;
	} else if (f->queued) {
		st = SK_STATE_QUEUED;
	} else if (f->reverted_upstream) {
		st = SK_STATE_REVERTED_UPSTREAM;
		sk_strbuf_adds(why, "it was reverted upstream: not a stable "
			       "candidate");
	} else if (f->similar) {
		st = SK_STATE_SIMILAR;
		sk_strbuf_adds(why, "a commit of the branch has its subject but "
			       "not its patch-id");
	} else if (f->kind == SK_BRANCH_DOWNSTREAM && f->selected) {
		/* a downstream branch takes what we select, and stable fixes */
		st = SK_STATE_NEEDED;
		sk_strbuf_adds(why, "the series is selected for this downstream branch");
	} else if (f->cc_stable && f->cc_major &&
		   sk_version_cmp(f->major, f->minor, f->cc_major,
				  f->cc_minor) < 0) {
		st = SK_STATE_NOT_ELIGIBLE;
		sk_strbuf_addf(why, "Cc: stable # %d.%d.x excludes %d.%d",
			       f->cc_major, f->cc_minor, f->major, f->minor);
	} else if (f->has_fixes && f->fixes_in_branch) {
		st = SK_STATE_NEEDED;
		sk_strbuf_adds(why, f->fixes_by_code ?
			       "the code it fixes is in the branch (its "
			       "pre-image applies)" :
			       "its Fixes: target is in the branch");
	} else if (f->has_fixes) {
		st = SK_STATE_NOT_AFFECTED;
		sk_strbuf_adds(why, f->fixes_by_code ?
			       "the code it fixes is not in the branch (its "
			       "pre-image does not apply)" : f->fixes_resolved ?
			       "its Fixes: target is not in the branch" :
			       "its Fixes: target is not in the repository");
	} else if (f->cc_stable) {
		st = SK_STATE_NEEDED;
		sk_strbuf_adds(why, "Cc: stable");
		if (f->cc_major)
			sk_strbuf_addf(why, " # %d.%d.x admits %d.%d",
				       f->cc_major, f->cc_minor, f->major,
				       f->minor);
	} else {
		st = SK_STATE_NOT_ELIGIBLE;
		sk_strbuf_adds(why, f->kind == SK_BRANCH_DOWNSTREAM ?
			       "no Fixes:, no Cc: stable, and the series is not selected for this downstream branch" :
			       "no Fixes: and no Cc: stable");
	}
	st = mainline_first(f, st, why);
	sk_strbuf_release(&dummy);
	return st;
}

void sk_track_queue_name(struct sk_strbuf *out, const char *subject)
{
	const char *s = subject;
	int dash = 0;

	sk_strbuf_reset(out);
	for (; *s && out->len < 52; s++) {
		if (isalnum((unsigned char)*s) || *s == '_') {
			if (dash && out->len)
				sk_strbuf_addch(out, '-');
			dash = 0;
			sk_strbuf_addch(out, tolower((unsigned char)*s));
		} else {
			dash = 1;
		}
	}
}

/* ---- per-run working data ---- */

struct fix_target {
	char given[41];
	char *subject;		/* quoted, or NULL */
	char resolved[41];	/* empty if not found */
	char *how;
};

struct pinfo {
	const struct sk_series *s;
	const struct sk_revision *rev;
	const struct sk_series_patch *p;
	char *msgid;		/* without the angle brackets, or "" */
	struct sk_lines lines;	/* its changed lines, once read */
	int lines_read;
	/* the commits of subjects_range with its subject, once read */
	struct sk_index_list subjects;
	long long subjects_range;	/* 0: not read */
	struct sk_track_patch *tp;
	char *email;
	char *norm;
	struct fix_target *fixes;
	size_t nr_fixes;
	int cc_stable, cc_major, cc_minor;
	char **files;		/* of the patch and its fixlets */
	size_t nr_files;
};

struct run {
	const struct sk_track_opts *o;
	struct sk_track *t;
	struct sk_series **series;
	size_t nr_series;
	struct pinfo *pi;
	size_t nr_pi, alloc_pi;
	struct sk_track_branch *mainline;
	/* where the branch being looked at lives */
	git_repository *repo;
	struct sk_index *idx;
	struct where {
		git_repository *repo;
		struct sk_index *idx;
		char *path;		/* br->repo, resolved; NULL: o's */
	} *where;		/* one per branch */
	struct cached_lines {
		char oid[41];
		struct sk_lines l;
	} *lines;
	size_t nr_lines, alloc_lines;
	/* the reverts of merges of each range looked at, read once */
	struct merge_reverts {
		struct sk_index *idx;
		long long range;
		struct merge_revert {
			char revert[41], merge[41];
			char mainline[41], side[41];	/* its parents */
		} *items;
		size_t nr, alloc;
	} *mrs;
	size_t nr_mrs, alloc_mrs;
	/* each author's newest commits per range, read once */
	struct author_cache {
		struct sk_index *idx;
		long long range;
		size_t cap;
		char *email;		/* "": the range's newest commits */
		struct sk_index_list l;
		/* l's commits by the set of paths they touch, on demand */
		struct fileset_entry {
			uint64_t h;
			size_t i;
		} *fx;
		size_t nr_fx, alloc_fx;
		int fx_built;
		int fx_ready;		/* l's paths are in the index */
		unsigned int uses;
	} *authors;
	size_t nr_authors, alloc_authors;
	/* the paths of the commits looked at, read once */
	struct files_slot {
		char oid[41];
		char **files;
		size_t nr;
		int ok;
	} *files;
	size_t files_mask, nr_files_slots;
	/* the merge that find_revert's revert reverts, or "" */
	char via_merge[41];
	struct sk_strbuf sb;
	struct sk_content_cache *content;	/* trees without history */
};

static void cell_say(struct sk_track_cell *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void cell_say(struct sk_track_cell *c, const char *fmt, ...)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sk_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	*SK_ARRAY_PUSH(c->evidence, c->nr_evidence, c->alloc_evidence) =
		sk_strbuf_detach(&sb);
}

static void cell_commit(struct sk_track_cell *c, const char *oid)
{
	size_t i;

	for (i = 0; i < c->nr_commits; i++)
		if (!strcmp(c->commits[i], oid))
			return;
	*SK_ARRAY_PUSH(c->commits, c->nr_commits, c->alloc_commits) =
		sk_xstrdup(oid);
}

static char *norm_dup(struct run *r, const char *subject)
{
	sk_subject_norm(&r->sb, subject ? subject : "");
	return sk_xstrdup(r->sb.buf);
}

static void add_file(struct pinfo *pi, size_t *alloc, const char *f)
{
	size_t i;

	for (i = 0; i < pi->nr_files; i++)
		if (!strcmp(pi->files[i], f))
			return;
	*SK_ARRAY_PUSH(pi->files, pi->nr_files, *alloc) = sk_xstrdup(f);
}

/* ---- Fixes: resolution ---- */

/*
 * The commit a Fixes: id names and its subject.  The repository says
 * whether the id names one object, as git would; the subject of an
 * indexed commit comes from the index.  Reading each commit instead cost
 * a status of 1,000 patches a tenth of its time.
 */
static int fix_commit(struct run *r, const char *given, char resolved[41],
		      char **subject)
{
	struct sk_index_list l = { 0 };
	git_commit *c = NULL;
	git_odb *odb = NULL;
	git_oid prefix, oid;
	size_t len = strlen(given);
	int ret = -1;

	if (git_oid_fromstrn(&prefix, given, len) ||
	    git_repository_odb(&odb, r->repo) ||
	    git_odb_exists_prefix(&oid, odb, &prefix, len))
		goto out;
	git_oid_tostr(resolved, 41, &oid);
	if (!sk_index_by_prefix(&l, r->idx, 0, resolved) && l.nr == 1) {
		*subject = sk_xstrdup(l.items[0].subject ?
				      l.items[0].subject : "");
		ret = 0;
	} else if (!git_commit_lookup(&c, r->repo, &oid)) {
		*subject = sk_xstrdup(git_commit_summary(c));
		ret = 0;
	}
out:
	if (ret)
		resolved[0] = '\0';
	git_commit_free(c);
	git_odb_free(odb);
	sk_index_list_release(&l);
	return ret;
}

static void resolve_fix(struct run *r, struct fix_target *fx)
{
	struct sk_index_list hits = { 0 };
	char *qnorm = fx->subject ? norm_dup(r, fx->subject) : NULL;
	char *subj = NULL;
	size_t i;

	if (!fix_commit(r, fx->given, fx->resolved, &subj)) {
		char *cnorm = norm_dup(r, subj);

		if (qnorm && strcmp(qnorm, cnorm))
			fx->how = sk_xstrfmt("Fixes: %s resolves to %.12s "
					     "(\"%s\"), whose subject differs "
					     "from the quoted one", fx->given,
					     fx->resolved, subj);
		else
			fx->how = sk_xstrfmt("Fixes: %s resolves to %.12s "
					     "(\"%s\")", fx->given,
					     fx->resolved, subj);
		free(cnorm);
		goto out;
	}
	if (qnorm && !sk_index_by_subject(&hits, r->idx, 0, qnorm) &&
	    hits.nr) {
		size_t pick = 0;

		/* Prefer the mainline commit to a backport of it. */
		for (i = 0; r->mainline && i < hits.nr; i++)
			if (sk_index_in_range(r->idx, r->mainline->range,
					      hits.items[i].oid)) {
				pick = i;
				break;
			}
		snprintf(fx->resolved, sizeof(fx->resolved), "%s",
			 hits.items[pick].oid);
		fx->how = sk_xstrfmt("Fixes: %s is unknown to the repository; "
				     "resolved by its quoted subject to %.12s",
				     fx->given, fx->resolved);
		goto out;
	}
	fx->how = sk_xstrfmt("Fixes: %s is unknown to the repository and no "
			     "indexed commit has the subject \"%s\"", fx->given,
			     fx->subject ? fx->subject : "");
out:
	sk_index_list_release(&hits);
	free(subj);
	free(qnorm);
}

/* ---- loading the series ---- */

static void pinfo_init(struct run *r, const struct sk_series *s,
		       const struct sk_revision *rev,
		       const struct sk_series_patch *p)
{
	struct pinfo *pi = SK_ARRAY_PUSH(r->pi, r->nr_pi, r->alloc_pi);
	struct sk_track_patch *tp = SK_ARRAY_PUSH(r->t->patches,
						  r->t->nr_patches,
						  r->t->alloc_patches);
	size_t falloc = 0, i, j, alloc_fixes = 0;
	const char *v;

	memset(pi, 0, sizeof(*pi));
	memset(tp, 0, sizeof(*tp));
	tp->slug = sk_xstrdup(s->slug);
	tp->version = rev->version;
	tp->nr = p->nr;
	tp->subject = sk_xstrdup(p->subject ? p->subject : "");
	tp->author = sk_xstrdup(p->author ? p->author : "");
	tp->cells = sk_xcalloc(r->t->nr_branches ? r->t->nr_branches : 1,
			       sizeof(*tp->cells));
	pi->s = s;
	pi->rev = rev;
	pi->p = p;
	pi->msgid = sk_xstrdup(p->message_id ? p->message_id +
			       (p->message_id[0] == '<') : "");
	if (*pi->msgid && pi->msgid[strlen(pi->msgid) - 1] == '>')
		pi->msgid[strlen(pi->msgid) - 1] = '\0';
	pi->email = sk_author_email(tp->author);
	pi->norm = norm_dup(r, tp->subject);
	for (i = 0; i < p->nr_files; i++)
		add_file(pi, &falloc, p->files[i]);
	for (i = 0; i < p->nr_fixlets; i++)
		for (j = 0; j < p->fixlets[i].nr_files; j++)
			add_file(pi, &falloc, p->fixlets[i].files[j]);
	for (i = 0; (v = sk_series_patch_trailer(p, "fixes", i)); i++) {
		struct sk_fixes f;
		struct fix_target *fx;

		if (sk_fixes_parse(&f, v)) {
			/* A wrapped or cut subject: keep the sha. */
			size_t n = 0;

			memset(&f, 0, sizeof(f));
			while (n < 40 && isxdigit((unsigned char)v[n])) {
				f.sha[n] = tolower((unsigned char)v[n]);
				n++;
			}
			if (n < 8)
				continue;
		}
		fx = SK_ARRAY_PUSH(pi->fixes, pi->nr_fixes, alloc_fixes);
		memset(fx, 0, sizeof(*fx));
		memcpy(fx->given, f.sha, sizeof(fx->given));
		fx->subject = f.subject;
	}
	for (i = 0; (v = sk_series_patch_trailer(p, "cc", i)); i++) {
		struct sk_cc_stable cc;

		if (!sk_cc_is_stable(&cc, v))
			continue;
		if (!pi->cc_stable || (cc.min_major &&
		    sk_version_cmp(cc.min_major, cc.min_minor, pi->cc_major,
				   pi->cc_minor) < 0)) {
			pi->cc_major = cc.min_major;
			pi->cc_minor = cc.min_minor;
		}
		pi->cc_stable = 1;
		sk_cc_stable_release(&cc);
	}
	sk_error_clear();
}

static void pinfo_release(struct pinfo *pi)
{
	size_t i;

	free(pi->email);
	free(pi->norm);
	free(pi->msgid);
	sk_lines_release(&pi->lines);
	sk_index_list_release(&pi->subjects);
	for (i = 0; i < pi->nr_fixes; i++) {
		free(pi->fixes[i].subject);
		free(pi->fixes[i].how);
	}
	free(pi->fixes);
	for (i = 0; i < pi->nr_files; i++)
		free(pi->files[i]);
	free(pi->files);
}

static int load_series(struct run *r)
{
	char **names = NULL;
	size_t nr = 0, i, j, k;
	int ret;

	ret = sk_series_names(&names, &nr, r->o->top);
	if (ret)
		return ret;
	r->series = sk_xcalloc(nr ? nr : 1, sizeof(*r->series));
	for (i = 0; i < nr && !ret; i++) {
		if (r->o->only_series && strcmp(names[i], r->o->only_series))
			continue;
		ret = sk_series_load(&r->series[r->nr_series], r->o->top,
				     names[i]);
		if (!ret)
			r->nr_series++;
	}
	sk_series_names_free(names, nr);
	if (ret)
		return ret;
	for (i = 0; i < r->nr_series; i++) {
		const struct sk_revision *rev = sk_series_latest(r->series[i]);

		for (j = 0; rev && j < rev->nr_patches; j++)
			pinfo_init(r, r->series[i], rev, &rev->patches[j]);
	}
	/* Patch pointers into t->patches are stable only now. */
	for (k = 0; k < r->nr_pi; k++)
		r->pi[k].tp = &r->t->patches[k];
	if (r->o->only_series && !r->nr_series)
		return sk_error_set(SK_ENOTFOUND, "no series '%s'",
				    r->o->only_series);
	return 0;
}

/* ---- branches and the index ---- */

static void add_warning(struct sk_track *t, const char *w)
{
	if (w)
		*SK_ARRAY_PUSH(t->warnings, t->nr_warnings,
			       t->alloc_warnings) = sk_xstrdup(w);
}

/*
 * stable/<branch>/series: its entries, each checked as build and port
 * check them.  A line that fails is left out with a warning (status only
 * reads the queue; port and build refuse it), so nothing outside the
 * queue is ever read.
 */
static void read_queue(struct run *r, struct sk_track_branch *tb,
		       const char *path)
{
	struct sk_strbuf text = SK_STRBUF_INIT;
	unsigned long lineno = 1;
	size_t alloc = 0;
	const char *p;

	if (!sk_path_exists(path) || sk_read_file(&text, path)) {
		sk_error_clear();
		sk_strbuf_release(&text);
		return;
	}
	for (p = text.buf; *p; lineno++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *entry;

		if (sk_name_series_line(&entry, p, len, path, lineno)) {
			char *w = sk_xstrfmt("%s (line ignored)",
					     sk_error_last());

			add_warning(r->t, w);
			free(w);
			sk_error_clear();
		} else if (entry) {
			*SK_ARRAY_PUSH(tb->queue, tb->nr_queue, alloc) = entry;
		}
		p += len + (nl ? 1 : 0);
	}
	sk_strbuf_release(&text);
}

/* The repository of a branch with repo = (relative to the project). */
static int open_where(struct run *r, size_t bi)
{
	const struct sk_branch *br = r->t->branches[bi].br;
	struct where *w = &r->where[bi];
	char *path, *index_path;
	size_t i;
	int ret;

	w->repo = r->o->repo;
	w->idx = r->o->idx;
	if (!br->repo)
		return 0;
	path = br->repo[0] == '/' ? sk_xstrdup(br->repo) :
	       sk_path_join(r->o->top, br->repo);
	for (i = 0; i < bi; i++)
		if (r->where[i].path && !strcmp(r->where[i].path, path)) {
			w->repo = r->where[i].repo;
			w->idx = r->where[i].idx;
			free(path);
			return 0;
		}
	w->path = path;
	w->idx = NULL;
	if (sk_repo_open(&w->repo, path)) {
		w->repo = NULL;
		return sk_error_set(SK_EINVALID, "%s:%d: branch '%s': no "
				    "repository at '%s'",
				    r->o->branches->path, br->line, br->name,
				    br->repo);
	}
	index_path = sk_repo_index_path(w->repo);
	ret = sk_index_open(&w->idx, index_path);
	free(index_path);
	if (ret)
		w->idx = NULL;
	else
		add_warning(r->t, sk_index_warning(w->idx));
	return ret;
}

static void close_where(struct run *r)
{
	size_t i;

	for (i = 0; r->where && i < r->t->nr_branches; i++)
		if (r->where[i].path) {
			sk_index_close(r->where[i].idx);
			git_repository_free(r->where[i].repo);
			free(r->where[i].path);
		}
	free(r->where);
}

static void use_where(struct run *r, const struct sk_track_branch *tb)
{
	struct where *w = &r->where[tb - r->t->branches];

	r->repo = w->repo;
	r->idx = w->idx;
}

static int prepare_branches(struct run *r)
{
	struct sk_track *t = r->t;
	size_t i;
	struct timespec t0, t1;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	r->where = sk_xcalloc(t->nr_branches ? t->nr_branches : 1,
			      sizeof(*r->where));
	for (i = 0; i < t->nr_branches; i++) {
		struct sk_track_branch *tb = &t->branches[i];
		const struct sk_branch *br = tb->br;
		git_oid tip, base;
		char *qpath, *key;

		qpath = sk_xstrfmt("%s/stable/%s/series", r->o->top, br->name);
		read_queue(r, tb, qpath);
		free(qpath);
		ret = open_where(r, i);
		if (ret)
			return ret;
		use_where(r, tb);
		if (sk_repo_resolve_commit(&tip, r->repo, br->ref)) {
			tb->workspace_lacks = r->o->workspace && !br->repo;
			tb->problem = tb->workspace_lacks ?
				sk_xstrfmt("ref '%s' is not in the embedded "
					   "workspace (the Debian trees of "
					   "ci/trees.conf; pass --repo)",
					   br->ref) :
				sk_xstrfmt("ref '%s' is not in the "
					   "repository", br->ref);
			sk_error_clear();
			continue;
		}
		git_oid_tostr(tb->tip, sizeof(tb->tip), &tip);
		if (!sk_repo_resolve_commit(&base, r->repo, br->base))
			git_oid_tostr(tb->base, sizeof(tb->base), &base);
		else if (!r->o->workspace || br->repo)
			return sk_error_set(SK_EINVALID, "%s:%d: branch '%s': "
					    "base '%s' is not in the "
					    "repository", r->o->branches->path,
					    br->base_line, br->name, br->base);
		/* the workspace's branch is one commit: all of it, then */
		/*
		 * One range per name, ref and base: projects that share the
		 * repository with other bases do not walk each other's again.
		 */
		key = sk_xstrfmt("%s\t%s\t%s", br->name, br->ref, tb->base);
		ret = sk_index_update_range(&tb->range, &tb->stats, r->idx,
					    r->repo, key, &tip,
					    tb->base[0] ? &base : NULL);
		free(key);
		if (ret == SK_EINVALID && tb->base[0])
			return sk_error_set(SK_EINVALID, "%s:%d: branch '%s': "
					    "base '%s' is not an ancestor of "
					    "ref '%s'", r->o->branches->path,
					    br->base_line, br->name, br->base,
					    br->ref);
		if (ret)
			return sk_error_prefix(ret, "branch '%s'", br->name);
		if (br->kind == SK_BRANCH_MAINLINE && !r->mainline)
			r->mainline = tb;
	}
	sk_error_clear();
	for (i = 0; i < t->nr_branches; i++) {
		ret = sk_index_finish(r->where[i].idx);
		if (ret)
			return ret;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	t->index_s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	return 0;
}

/* ---- what commits say: patch-ids, changed lines, reverts ---- */

/* Does commit oid carry the patch-id of the patch or one of its fixlets? */
static const char *same_patchid(struct run *r, struct pinfo *pi,
				const char *oid)
{
	char id[41];
	size_t i;

	if (sk_index_patchid(id, r->idx, r->repo, oid))
		return NULL;
	if (pi->p->patch_id[0] && !strcmp(id, pi->p->patch_id))
		return "the patch-id of the patch";
	for (i = 0; i < pi->p->nr_fixlets; i++)
		if (pi->p->fixlets[i].patch_id[0] &&
		    !strcmp(id, pi->p->fixlets[i].patch_id))
			return "the patch-id of its fixlet";
	return NULL;
}

static int same_files(char **a, size_t na, char **b, size_t nb)
{
	size_t i, j;

	if (!na)
		return 0;
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb && strcmp(a[i], b[j]); j++)
			;
		if (j == nb)
			return 0;
	}
	for (j = 0; j < nb; j++) {
		for (i = 0; i < na && strcmp(a[i], b[j]); i++)
			;
		if (i == na)
			return 0;
	}
	return 1;
}

static size_t file_overlap(struct pinfo *pi, char **files, size_t nr)
{
	size_t i, j, n = 0;

	for (i = 0; i < nr; i++)
		for (j = 0; j < pi->nr_files; j++)
			if (!strcmp(files[i], pi->files[j])) {
				n++;
				break;
			}
	return n;
}

/* A commit id's first hex digits: where it goes in a table. */
static size_t oid_slot(const char *oid)
{
	size_t h = 0;
	int i;

	for (i = 0; i < 8 && isxdigit((unsigned char)oid[i]); i++)
		h = h * 16 + (isdigit((unsigned char)oid[i]) ? oid[i] - '0' :
			      (tolower((unsigned char)oid[i]) - 'a' + 10));
	return h;
}

/*
 * The paths a commit touches (cached in the index), read once per run:
 * the patches of one author look at the same commits.  NULL when they
 * cannot be read.
 */
static const struct files_slot *commit_files(struct run *r, const char *oid)
{
	struct files_slot *f;
	size_t i, h = oid_slot(oid);

	if (2 * (r->nr_files_slots + 1) > r->files_mask + 1) {
		struct files_slot *old = r->files;
		size_t old_size = r->files ? r->files_mask + 1 : 0;

		r->files_mask = old_size ? 2 * old_size - 1 : 1023;
		r->files = sk_xcalloc(r->files_mask + 1, sizeof(*r->files));
		for (i = 0; i < old_size; i++) {
			size_t k;

			if (!old[i].oid[0])
				continue;
			k = oid_slot(old[i].oid);
			while (r->files[k & r->files_mask].oid[0])
				k++;
			r->files[k & r->files_mask] = old[i];
		}
		free(old);
	}
	for (;; h++) {
		f = &r->files[h & r->files_mask];
		if (!f->oid[0])
			break;
		if (!strcmp(f->oid, oid))
			return f->ok ? f : NULL;
	}
	snprintf(f->oid, sizeof(f->oid), "%s", oid);
	r->nr_files_slots++;
	f->ok = !sk_index_files(&f->files, &f->nr, r->idx, r->repo, oid);
	if (!f->ok)
		sk_error_clear();
	return f->ok ? f : NULL;
}

/*
 * An equal patch-id can only be had by a commit that touches the same
 * files as the patch (or one of its fixlets): the cheap test first.
 */
static const char *author_patchid(struct run *r, struct pinfo *pi,
				  const char *oid)
{
	const struct files_slot *f = commit_files(r, oid);
	size_t i;
	int maybe;

	if (!f)
		return NULL;
	maybe = same_files(f->files, f->nr, pi->p->files, pi->p->nr_files);
	for (i = 0; !maybe && i < pi->p->nr_fixlets; i++)
		maybe = same_files(f->files, f->nr, pi->p->fixlets[i].files,
				   pi->p->fixlets[i].nr_files);
	return maybe ? same_patchid(r, pi, oid) : NULL;
}

/* The changed lines of a commit, read once per run. */
static const struct sk_lines *commit_lines(struct run *r, const char *oid)
{
	struct cached_lines *c;
	size_t i;

	for (i = 0; i < r->nr_lines; i++)
		if (!strcmp(r->lines[i].oid, oid))
			return &r->lines[i].l;
	c = SK_ARRAY_PUSH(r->lines, r->nr_lines, r->alloc_lines);
	r->t->diffs++;
	snprintf(c->oid, sizeof(c->oid), "%s", oid);
	if (sk_lines_from_commit(&c->l, r->repo, oid))
		sk_error_clear();
	return &c->l;
}

/* The changed lines of the patch, from the stored mail. */
static const struct sk_lines *patch_lines(struct pinfo *pi)
{
	struct sk_strbuf diff = SK_STRBUF_INIT;

	if (!pi->lines_read) {
		pi->lines_read = 1;
		if (!sk_series_patch_diff(&diff, pi->s, pi->rev, pi->p->nr))
			sk_lines_from_patch(&pi->lines, diff.buf);
		sk_error_clear();
		sk_strbuf_release(&diff);
	}
	return &pi->lines;
}

/*
 * The merge a revert reverts, with its parents: the side is the one that
 * "reversing changes made to <parent>" does not name (git revert -m 1
 * names the first).  0 if the revert is not of a merge.
 */
static int read_merge_revert(struct merge_revert *out, git_repository *repo,
			     const char *revert)
{
	struct sk_commit_facts f;
	git_commit *c = NULL, *m = NULL;
	git_oid oid;
	const char *msg, *to;
	size_t i, n;
	int found = 0, side = 1;

	if (git_oid_fromstr(&oid, revert) || git_commit_lookup(&c, repo, &oid))
		return 0;
	msg = git_commit_message(c);
	sk_commit_facts_parse(&f, msg);
	for (i = 0; i < f.nr_uprefs && !found; i++) {
		n = strlen(f.uprefs[i].sha);
		if (f.uprefs[i].kind != SK_UPREF_REVERT ||
		    git_oid_fromstrn(&oid, f.uprefs[i].sha, n) ||
		    git_commit_lookup_prefix(&m, repo, &oid, n))
			continue;
		if (git_commit_parentcount(m) == 2) {
			to = strstr(msg, "changes made to ");
			git_oid_tostr(out->side, 41, git_commit_parent_id(m, 1));
			if (to && !strncasecmp(to + 16, out->side, 7))
				side = 0;
			git_oid_tostr(out->side, 41,
				      git_commit_parent_id(m, side));
			git_oid_tostr(out->mainline, 41,
				      git_commit_parent_id(m, !side));
			git_oid_tostr(out->merge, 41, git_commit_id(m));
			snprintf(out->revert, 41, "%s", revert);
			found = 1;
		}
		git_commit_free(m);
		m = NULL;
	}
	sk_commit_facts_release(&f);
	git_commit_free(c);
	sk_error_clear();
	return found;
}

/* The reverts of merges in range, read on first use. */
static struct merge_reverts *merge_reverts(struct run *r, long long range)
{
	struct sk_index_list l = { 0 };
	struct merge_reverts *mr;
	struct merge_revert one;
	size_t i;

	for (i = 0; i < r->nr_mrs; i++)
		if (r->mrs[i].idx == r->idx && r->mrs[i].range == range)
			return &r->mrs[i];
	mr = SK_ARRAY_PUSH(r->mrs, r->nr_mrs, r->alloc_mrs);
	memset(mr, 0, sizeof(*mr));
	mr->idx = r->idx;
	mr->range = range;
	if (sk_index_reverts(&l, r->idx, range))
		sk_error_clear();
	for (i = 0; i < l.nr; i++)
		if (read_merge_revert(&one, r->repo, l.items[i].oid))
			*SK_ARRAY_PUSH(mr->items, mr->nr, mr->alloc) = one;
	sk_index_list_release(&l);
	return mr;
}

/*
 * A revert of a merge reverts every commit the merge brought in: those
 * of its side that its mainline parent did not have.
 */
static int find_merge_revert(char out[41], struct run *r, long long range,
			     const char *oid, const char *after)
{
	struct merge_reverts *mr = merge_reverts(r, range);
	size_t i;

	for (i = 0; i < mr->nr; i++) {
		const struct merge_revert *m = &mr->items[i];

		if (after && sk_index_is_ancestor(r->idx, r->repo, after,
						  m->revert) != 1)
			continue;
		if (sk_index_is_ancestor(r->idx, r->repo, oid, m->side) != 1 ||
		    sk_index_is_ancestor(r->idx, r->repo, oid,
					 m->mainline) == 1)
			continue;
		memcpy(out, m->revert, 41);
		memcpy(r->via_merge, m->merge, 41);
		sk_error_clear();
		return 1;
	}
	sk_error_clear();
	return 0;
}

/* The key of a question about the patch's lines (and the series'). */
static long long lines_key(struct sk_strbuf *sb, const char *what,
			   const struct sk_lines *a, const struct sk_lines *b)
{
	size_t i;

	sk_strbuf_reset(sb);
	sk_strbuf_adds(sb, what);
	for (i = 0; i < a->nr; i++)
		sk_strbuf_addf(sb, "\n%s", a->items[i]);
	if (b) {
		sk_strbuf_adds(sb, "\n\001");
		for (i = 0; i < b->nr; i++)
			sk_strbuf_addf(sb, "\n%s", b->items[i]);
	}
	return sk_index_key(sb->buf);
}

/*
 * How the patch differs from a similar commit, kept in the index: a run
 * that has seen the pair reads no diff.
 */
static char *similar_difference(struct run *r, struct pinfo *pi,
				const char *oid)
{
	const struct sk_lines *pl = patch_lines(pi);
	long long key = lines_key(&r->sb, "difference", pl, NULL);
	struct sk_index_match m;
	char *d;

	if (sk_index_match_get(&m, r->idx, key, oid) == 1 && m.difference) {
		d = m.difference;
		m.difference = NULL;
		sk_index_match_release(&m);
		return d;
	}
	sk_index_match_release(&m);
	sk_lines_difference(&r->sb, pl, commit_lines(r, oid));
	m.difference = r->sb.buf;
	sk_index_match_set(r->idx, key, oid, &m);
	sk_error_clear();
	return sk_xstrdup(r->sb.buf);
}

/*
 * A candidate of a reshaped landing against the patch: how many of its
 * lines are the series' (common), how many it has (nr), and which lines
 * of the patch it has (cover: group of equal lines, copies).  Kept in
 * the index under key.
 */
static void reshaped_match(struct sk_index_match *m, struct run *r,
			   long long key, const struct sk_lines *pl,
			   const uint32_t *group, const struct sk_lines *series,
			   const char *oid)
{
	const struct sk_lines *cl;
	unsigned char *mark;
	size_t i, alloc = 0;

	if (sk_index_match_get(m, r->idx, key, oid) == 1)
		return;
	sk_index_match_release(m);
	sk_error_clear();
	cl = commit_lines(r, oid);
	m->common = sk_lines_common(cl, series);
	m->nr = cl->nr;
	mark = sk_xcalloc(pl->nr ? pl->nr : 1, 1);
	sk_lines_cover(pl, cl, mark, 1);
	for (i = 0; i < pl->nr; i++) {
		if (!mark[i])
			continue;
		if (m->nr_cover && m->cover[m->nr_cover - 2] == group[i]) {
			m->cover[m->nr_cover - 1]++;
			continue;
		}
		*SK_ARRAY_PUSH(m->cover, m->nr_cover, alloc) = group[i];
		*SK_ARRAY_PUSH(m->cover, m->nr_cover, alloc) = 1;
	}
	free(mark);
	if (sk_index_match_set(r->idx, key, oid, m))
		sk_error_clear();
}

/*
 * The patch's lines a candidate covers that are not covered yet (avail:
 * the uncovered copies of each group); with set, they are covered.
 */
static size_t reshaped_cover(const struct sk_index_match *m, uint32_t *avail,
			     size_t nr_groups, int set)
{
	size_t i, n = 0;

	for (i = 0; i + 1 < m->nr_cover; i += 2) {
		uint32_t g = m->cover[i], c = m->cover[i + 1];

		if (g >= nr_groups)
			continue;
		if (c > avail[g])
			c = avail[g];
		n += c;
		if (set)
			avail[g] -= c;
	}
	return n;
}

/*
 * The first commit of range that reverts oid ("This reverts commit
 * <oid>.", or the revert of a merge that brought oid in); with after,
 * only one that descends from after.  1 if found; r->via_merge names the
 * merge, or is empty.
 */
static int find_revert(char out[41], struct run *r, long long range,
		       const char *oid, const char *after)
{
	struct sk_index_list l = { 0 };
	size_t i;
	int found = 0;

	r->via_merge[0] = '\0';
	sk_index_by_upstream(&l, r->idx, range, oid);
	for (i = 0; i < l.nr && !found; i++) {
		if (l.items[i].kind != SK_UPREF_REVERT)
			continue;
		if (after && sk_index_is_ancestor(r->idx, r->repo, after,
						  l.items[i].oid) != 1)
			continue;
		memcpy(out, l.items[i].oid, 41);
		found = 1;
	}
	sk_index_list_release(&l);
	sk_error_clear();
	return found || find_merge_revert(out, r, range, oid, after);
}

/* The subject of a commit the index knows, or "". */
static char *commit_subject(struct run *r, const char *oid)
{
	struct sk_index_list l = { 0 };
	char *s;

	sk_index_by_prefix(&l, r->idx, 0, oid);
	s = sk_xstrdup(l.nr ? l.items[0].subject : "");
	sk_index_list_release(&l);
	return s;
}

/* ---- upstream mapping ---- */

static struct sk_track_upstream *add_upstream(struct pinfo *pi,
					      const char *oid,
					      const char *subject,
					      enum sk_proof proof,
					      const char *how)
{
	struct sk_track_patch *tp = pi->tp;
	struct sk_track_upstream *u;
	size_t i;

	for (i = 0; i < tp->nr_upstream; i++)
		if (!strcmp(tp->upstream[i].commit, oid))
			return NULL;
	u = SK_ARRAY_PUSH(tp->upstream, tp->nr_upstream, tp->alloc_upstream);
	memset(u, 0, sizeof(*u));
	snprintf(u->commit, sizeof(u->commit), "%s", oid);
	u->subject = sk_xstrdup(subject);
	u->how = sk_xstrdup(how);
	u->proof = proof;
	return u;
}

static int is_upstream(struct pinfo *pi, const char *oid)
{
	size_t i;

	for (i = 0; i < pi->tp->nr_upstream; i++)
		if (!strcmp(pi->tp->upstream[i].commit, oid))
			return 1;
	return 0;
}

static void add_similar(struct run *r, struct pinfo *pi,
			const struct sk_index_commit *c, long long range)
{
	struct sk_track_patch *tp = pi->tp;
	struct sk_track_similar *sm;
	size_t i;

	for (i = 0; i < tp->nr_similar; i++)
		if (!strcmp(tp->similar[i].commit, c->oid))
			return;
	sm = SK_ARRAY_PUSH(tp->similar, tp->nr_similar, tp->alloc_similar);
	memset(sm, 0, sizeof(*sm));
	memcpy(sm->commit, c->oid, sizeof(sm->commit));
	sm->subject = sk_xstrdup(c->subject);
	sm->difference = similar_difference(r, pi, c->oid);
	find_revert(sm->reverted_by, r, range, c->oid, NULL);
}

/*
 * The commits of range by the patch's author (email; "" for every
 * commit of the range), newest first, at most cap: where a reworded or
 * reshaped landing is looked for.  Read once per run: the patches of an
 * author share them.
 */
static struct author_cache *author_commits(struct run *r, const char *email,
					   long long range, size_t cap)
{
	struct author_cache *ac;
	size_t i;
	int ret;

	for (i = 0; i < r->nr_authors; i++) {
		ac = &r->authors[i];
		if (ac->idx == r->idx && ac->range == range &&
		    ac->cap == cap && !strcmp(ac->email, email))
			return ac;
	}
	ac = SK_ARRAY_PUSH(r->authors, r->nr_authors, r->alloc_authors);
	memset(ac, 0, sizeof(*ac));
	ac->idx = r->idx;
	ac->range = range;
	ac->cap = cap;
	ac->email = sk_xstrdup(email);
	ret = *email ? sk_index_by_email_recent(&ac->l, r->idx, range, email,
						cap) :
		       sk_index_range_commits(&ac->l, r->idx, range, cap);
	if (ret)
		sk_error_clear();
	return ac;
}

/* A set of paths, as one key: sorted, each once. */
static uint64_t fileset_hash(struct sk_strbuf *sb, char *const *files,
			     size_t nr)
{
	char **v = sk_xcalloc(nr ? nr : 1, sizeof(*v));
	size_t i;

	if (nr)
		memcpy(v, files, nr * sizeof(*v));
	qsort(v, nr, sizeof(*v), sk_str_cmp);
	sk_strbuf_reset(sb);
	for (i = 0; i < nr; i++)
		if (!i || strcmp(v[i], v[i - 1]))
			sk_strbuf_addf(sb, "%s\n", v[i]);
	free(v);
	return (uint64_t)sk_index_key(sb->buf);
}

static int fileset_cmp(const void *a, const void *b)
{
	const struct fileset_entry *x = a, *y = b;

	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static void fileset_build(struct run *r, struct author_cache *ac)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;

	ac->fx_built = 1;
	for (i = 0; i < ac->l.nr; i++) {
		const struct files_slot *f = commit_files(r, ac->l.items[i].oid);
		struct fileset_entry *e;

		if (!f || !f->nr)
			continue;
		e = SK_ARRAY_PUSH(ac->fx, ac->nr_fx, ac->alloc_fx);
		e->h = fileset_hash(&sb, f->files, f->nr);
		e->i = i;
	}
	sk_strbuf_release(&sb);
	if (ac->nr_fx > 1)
		qsort(ac->fx, ac->nr_fx, sizeof(*ac->fx), fileset_cmp);
}

static void fileset_find(size_t **out, size_t *nr, size_t *alloc,
			 const struct author_cache *ac, uint64_t h)
{
	size_t lo = 0, hi = ac->nr_fx;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ac->fx[mid].h < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < ac->nr_fx && ac->fx[lo].h == h; lo++)
		*SK_ARRAY_PUSH(*out, *nr, *alloc) = ac->fx[lo].i;
}

static int size_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * The commits of ac (their places in ac->l, newest first) that touch
 * the same paths as the patch or one of its fixlets: the only ones that
 * can have its patch-id.
 */
/*
 * A commit that does not change every path of the patch (or of a
 * fixlet) cannot have its patch-id: tree entries compared, no diff.
 */
static int touches_patch(struct run *r, struct pinfo *pi, const char *oid)
{
	size_t i;
	int yes = pi->p->nr_files &&
		  sk_index_touches_all(r->idx, r->repo, oid, pi->p->files,
				       pi->p->nr_files) > 0;

	for (i = 0; !yes && i < pi->p->nr_fixlets; i++)
		yes = pi->p->fixlets[i].nr_files &&
		      sk_index_touches_all(r->idx, r->repo, oid,
					   pi->p->fixlets[i].files,
					   pi->p->fixlets[i].nr_files) > 0;
	sk_error_clear();
	return yes;
}

/* Patches of one author past which its commits' paths are all read. */
#define FILESET_AFTER 4

static size_t same_paths(size_t **out, struct run *r, struct author_cache *ac,
			 struct pinfo *pi)
{
	size_t nr = 0, alloc = 0, i, j;

	*out = NULL;
	/*
	 * For a few patches, each commit's entries at the patch's paths
	 * (cheap); for many, or once prefetch_direct has read them, every
	 * commit's paths, looked up by set.
	 */
	if (!ac->fx_built && !ac->fx_ready && ac->uses++ < FILESET_AFTER) {
		for (i = 0; i < ac->l.nr; i++)
			if (touches_patch(r, pi, ac->l.items[i].oid))
				*SK_ARRAY_PUSH(*out, nr, alloc) = i;
		return nr;
	}
	if (!ac->fx_built)
		fileset_build(r, ac);
	if (pi->p->nr_files)
		fileset_find(out, &nr, &alloc, ac,
			     fileset_hash(&r->sb, pi->p->files,
					  pi->p->nr_files));
	for (i = 0; i < pi->p->nr_fixlets; i++)
		if (pi->p->fixlets[i].nr_files)
			fileset_find(out, &nr, &alloc, ac,
				     fileset_hash(&r->sb,
						  pi->p->fixlets[i].files,
						  pi->p->fixlets[i].nr_files));
	if (nr > 1)
		qsort(*out, nr, sizeof(**out), size_cmp);
	for (i = j = 0; i < nr; i++)
		if (!j || (*out)[j - 1] != (*out)[i])
			(*out)[j++] = (*out)[i];
	return j;
}

/*
 * Explicit reference (the upstream commit a stable mail names, the
 * patch's Message-Id in a Link:), then an equal
 * patch-id among the commits with its subject, then among its author's;
 * a commit with the subject and another patch-id is only similar.
 */
/*
 * The commits of range with the patch's subject or a fixlet's: where its
 * patch-id is looked for first.  Read once: prefetch_direct diffs them,
 * map_direct matches them.
 */
static const struct sk_index_list *subject_commits(struct run *r,
						   struct pinfo *pi,
						   long long range)
{
	size_t j;

	if (pi->subjects_range == range)
		return &pi->subjects;
	sk_index_list_release(&pi->subjects);
	pi->subjects_range = range;
	sk_index_by_subject(&pi->subjects, r->idx, range, pi->norm);
	for (j = 0; j < pi->p->nr_fixlets; j++) {
		char *n = norm_dup(r, pi->p->fixlets[j].subject);

		sk_index_by_subject(&pi->subjects, r->idx, range, n);
		free(n);
	}
	return &pi->subjects;
}

static void map_direct(struct run *r, struct pinfo *pi, long long range)
{
	const struct sk_index_list *sl;
	struct sk_index_list l = { 0 };
	const char *pid;
	size_t i, j;

	if (pi->p->upstream) {
		/* a stable mail names its upstream commit: one, or no proof */
		sk_index_by_prefix(&l, r->idx, range, pi->p->upstream);
		for (i = 0; l.nr == 1 && i < l.nr; i++) {
			sk_strbuf_reset(&r->sb);
			sk_strbuf_addf(&r->sb, "explicit reference: the stable "
				       "mail names upstream commit %s",
				       pi->p->upstream);
			add_upstream(pi, l.items[i].oid, l.items[i].subject,
				     SK_PROOF_MSGID, r->sb.buf);
		}
		sk_index_list_release(&l);
		sk_error_clear();
	}
	if (pi->msgid[0]) {
		sk_index_by_msgid(&l, r->idx, range, pi->msgid);
		for (i = 0; i < l.nr; i++) {
			sk_strbuf_reset(&r->sb);
			sk_strbuf_addf(&r->sb, "explicit reference: its "
				       "Link:/Message-Id: is the patch's <%s>",
				       pi->msgid);
			add_upstream(pi, l.items[i].oid, l.items[i].subject,
				     SK_PROOF_MSGID, r->sb.buf);
		}
		sk_index_list_release(&l);
	}
	sl = subject_commits(r, pi, range);
	for (i = 0; i < sl->nr; i++) {
		const struct sk_index_commit *c = &sl->items[i];

		if (is_upstream(pi, c->oid))
			continue;
		pid = same_patchid(r, pi, c->oid);
		if (!pid)
			continue;
		sk_strbuf_reset(&r->sb);
		sk_strbuf_addf(&r->sb, "equal patch-id: it has %s", pid);
		add_upstream(pi, c->oid, c->subject, SK_PROOF_PATCHID,
			     r->sb.buf);
	}
	if (!pi->tp->nr_upstream) {
		struct author_cache *ac = author_commits(r, pi->email, range,
							 MAINLINE_AUTHOR_CAP);
		const struct sk_index_list *a = &ac->l;
		size_t *cand, nr = same_paths(&cand, r, ac, pi);

		for (j = 0; j < nr && !pi->tp->nr_upstream; j++) {
			i = cand[j];
			if (!(pid = author_patchid(r, pi, a->items[i].oid)))
				continue;
			sk_strbuf_reset(&r->sb);
			sk_strbuf_addf(&r->sb, "equal patch-id: it has %s "
				       "(subject differs)", pid);
			add_upstream(pi, a->items[i].oid, a->items[i].subject,
				     SK_PROOF_PATCHID, r->sb.buf);
		}
		free(cand);
	}
	for (i = 0; i < sl->nr; i++)
		if (!is_upstream(pi, sl->items[i].oid))
			add_similar(r, pi, &sl->items[i], range);
}

static void push_candidate(struct sk_index_list *l, const char *oid,
			   const char *subject)
{
	struct sk_index_commit *c;
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->items[i].oid, oid))
			return;
	c = SK_ARRAY_PUSH(l->items, l->nr, l->alloc);
	memset(c, 0, sizeof(*c));
	snprintf(c->oid, sizeof(c->oid), "%s", oid);
	c->subject = sk_xstrdup(subject);
	c->email = sk_xstrdup("");
	c->kind = 0;
}

/*
 * A series that landed reshaped (squashed, split, edited): the commits by
 * its authors that touch the patch's files, or that carry the series'
 * Link: (its cover letter's Message-Id), where at least half of each
 * one's changed lines are the series', and together they cover
 * RESHAPED_COVER percent of the patch's changed lines (with the series'
 * Link:, any).  Nothing else attaches a commit to a patch.
 */
static void map_reshaped(struct run *r, size_t first, size_t end,
			 long long range)
{
	struct sk_lines series = { 0 };
	struct sk_index_list linked = { 0 };
	const struct sk_revision *rev = r->pi[first].rev;
	char *cover = rev->message_id ? sk_xstrdup(rev->message_id +
				(rev->message_id[0] == '<')) : NULL;
	size_t k, i;

	if (cover && *cover && cover[strlen(cover) - 1] == '>')
		cover[strlen(cover) - 1] = '\0';
	for (k = first; k < end; k++) {
		const struct sk_lines *pl = patch_lines(&r->pi[k]);

		for (i = 0; i < pl->nr; i++)
			*SK_ARRAY_PUSH(series.items, series.nr, series.alloc) =
				sk_xstrdup(pl->items[i]);
	}
	if (series.nr)
		qsort(series.items, series.nr, sizeof(*series.items),
		      sk_str_cmp);
	/* a cover letter that is patch 1's mail is no series evidence */
	if (cover && *cover && strcmp(cover, r->pi[first].msgid))
		sk_index_by_msgid(&linked, r->idx, range, cover);
	for (k = first; k < end; k++) {
		struct pinfo *pi = &r->pi[k];
		const struct sk_lines *pl = patch_lines(pi);
		struct sk_index_list cand = { 0 };
		const struct sk_index_list *a;
		struct sk_index_match *cm;
		uint32_t *group, *avail;
		size_t nr_groups = 0;
		char **chosen = NULL;
		size_t nr_chosen = 0, alloc_chosen = 0, covered = 0, own = 0,
		       theirs = 0;
		long long key;
		int via_link = 0;

		if (pi->tp->nr_upstream || !pl->nr)
			continue;
		for (i = 0; i < linked.nr; i++)
			push_candidate(&cand, linked.items[i].oid,
				       linked.items[i].subject);
		a = &author_commits(r, pi->email, range,
				    MAINLINE_AUTHOR_CAP)->l;
		for (i = 0; i < a->nr; i++) {
			const struct files_slot *f = commit_files(r,
							a->items[i].oid);

			if (f && file_overlap(pi, f->files, f->nr))
				push_candidate(&cand, a->items[i].oid,
					       a->items[i].subject);
		}
		/* equal lines of the patch are one group, counted */
		group = sk_xcalloc(pl->nr, sizeof(*group));
		avail = sk_xcalloc(pl->nr, sizeof(*avail));
		for (i = 0; i < pl->nr; i++) {
			if (i && strcmp(pl->items[i], pl->items[i - 1]))
				nr_groups++;
			group[i] = nr_groups;
			avail[nr_groups]++;
		}
		nr_groups++;
		key = lines_key(&r->sb, "reshaped", pl, &series);
		cm = sk_xcalloc(cand.nr ? cand.nr : 1, sizeof(*cm));
		for (i = 0; i < cand.nr; i++)
			reshaped_match(&cm[i], r, key, pl, group, &series,
				       cand.items[i].oid);
		for (;;) {
			size_t best = 0, best_n = 0;

			for (i = 0; i < cand.nr; i++) {
				size_t n;

				if (cand.items[i].kind || !cm[i].nr ||
				    2 * (size_t)cm[i].common < (size_t)cm[i].nr)
					continue;
				n = reshaped_cover(&cm[i], avail, nr_groups, 0);
				if (n > best_n) {
					best = i;
					best_n = n;
				}
			}
			if (!best_n)
				break;
			covered += reshaped_cover(&cm[best], avail, nr_groups,
						  1);
			own += cm[best].common;
			theirs += cm[best].nr;
			cand.items[best].kind = 1;
			*SK_ARRAY_PUSH(chosen, nr_chosen, alloc_chosen) =
				cand.items[best].oid;
			for (i = 0; i < linked.nr; i++)
				if (!strcmp(linked.items[i].oid,
					    cand.items[best].oid))
					via_link = 1;
		}
		for (i = 0; i < cand.nr; i++)
			sk_index_match_release(&cm[i]);
		free(cm);
		free(group);
		free(avail);
		if (nr_chosen && (via_link ||
		    100 * covered >= RESHAPED_COVER * pl->nr)) {
			sk_strbuf_reset(&r->sb);
			if (via_link)
				sk_strbuf_addf(&r->sb, "reshaped landing: the "
					       "series' Link: <%s>; ", cover);
			else
				sk_strbuf_adds(&r->sb, "reshaped landing: ");
			sk_strbuf_adds(&r->sb, "the hunks of the patch are "
				       "covered by");
			for (i = 0; i < nr_chosen; i++)
				sk_strbuf_addf(&r->sb, "%s%s", i ? ", " : " ",
					       chosen[i]);
			sk_strbuf_addf(&r->sb, " (%zu of its %zu changed lines;"
				       " %zu of those commits' %zu are the "
				       "series')", covered, pl->nr, own,
				       theirs);
			for (i = 0; i < cand.nr; i++)
				if (cand.items[i].kind)
					add_upstream(pi, cand.items[i].oid,
						     cand.items[i].subject,
						     via_link ? SK_PROOF_SERIES :
						     SK_PROOF_HUNKS, r->sb.buf);
		}
		free(chosen);
		sk_index_list_release(&cand);
	}
	sk_index_list_release(&linked);
	sk_lines_release(&series);
	free(cover);
}

/*
 * Upstream reverts: each upstream commit reverted in range gets its
 * revert; a revert of that revert lands the patch again.
 */
static void map_reverts(struct run *r, struct pinfo *pi, long long range)
{
	size_t i;

	for (i = 0; i < pi->tp->nr_upstream; i++) {
		char rv[41], again[41];
		struct sk_track_upstream *u = &pi->tp->upstream[i];

		if (!find_revert(rv, r, range, u->commit, NULL))
			continue;
		memcpy(u->reverted_by, rv, sizeof(rv));
		memcpy(u->reverted_merge, r->via_merge, sizeof(r->via_merge));
		if (find_revert(again, r, range, rv, NULL)) {
			char *subj = commit_subject(r, again);

			sk_strbuf_reset(&r->sb);
			sk_strbuf_addf(&r->sb, "landed again: it reverts %s, "
				       "the revert of %s", rv, u->commit);
			add_upstream(pi, again, subj, SK_PROOF_REAPPLIED,
				     r->sb.buf);
			free(subj);
		}
	}
}

/* A similar commit that a reshaped landing proved is upstream. */
static void drop_similar_upstream(struct pinfo *pi)
{
	struct sk_track_patch *tp = pi->tp;
	size_t i, n = 0;

	for (i = 0; i < tp->nr_similar; i++) {
		if (is_upstream(pi, tp->similar[i].commit)) {
			free(tp->similar[i].subject);
			free(tp->similar[i].difference);
			continue;
		}
		tp->similar[n++] = tp->similar[i];
	}
	tp->nr_similar = n;
}

/*
 * One diff per commit with a patch's subject whose patch-id the index
 * lacks, on the machine's cores: its patch-id (same_patchid) and, from
 * the same diff, its changed lines (add_similar).
 */
enum { NEED_PATCHID = 1, NEED_LINES = 2 };

struct subject_diffs {
	const char **oids;	/* sorted, each once */
	unsigned *need;
	char (*pid)[41];
	struct sk_lines *lines;
	size_t nr;
};

static int subject_diff_job(void *ctx, git_repository *repo, size_t i)
{
	struct subject_diffs *sd = ctx;
	git_commit *c = NULL;
	git_diff *diff = NULL;
	git_oid oid;

	/* a commit it cannot read is left for the lookups to report */
	if (git_oid_fromstr(&oid, sd->oids[i]) ||
	    git_commit_lookup(&c, repo, &oid) ||
	    sk_patchid_commit_diff(&diff, repo, c))
		goto out;
	if ((sd->need[i] & NEED_PATCHID) && sk_patchid_diff(sd->pid[i], diff))
		sd->pid[i][0] = '\0';
	/* a merge has no lines (sk_lines_from_commit) */
	if ((sd->need[i] & NEED_LINES) && git_commit_parentcount(c) < 2 &&
	    sk_lines_from_diff(&sd->lines[i], diff))
		sk_lines_release(&sd->lines[i]);
out:
	sk_error_clear();
	git_diff_free(diff);
	git_commit_free(c);
	return 0;
}

/* Does the index keep how commit oid differs from the patch? */
static int difference_kept(struct run *r, struct pinfo *pi, const char *oid)
{
	const struct sk_lines *pl = patch_lines(pi);
	long long key = lines_key(&r->sb, "difference", pl, NULL);
	struct sk_index_match m;
	int kept = sk_index_match_get(&m, r->idx, key, oid) == 1 &&
		   m.difference;

	sk_index_match_release(&m);
	sk_error_clear();
	return kept;
}

static size_t find_oid(const struct subject_diffs *sd, const char *oid)
{
	const char **x = bsearch(&oid, sd->oids, sd->nr, sizeof(*sd->oids),
				 sk_str_cmp);

	return x ? (size_t)(x - sd->oids) : sd->nr;
}

static void subject_diffs(struct run *r, long long range)
{
	struct subject_diffs sd = { 0 };
	size_t alloc = 0, i, j, k;

	for (k = 0; k < r->nr_pi; k++) {
		const struct sk_index_list *sl =
			subject_commits(r, &r->pi[k], range);

		for (i = 0; i < sl->nr; i++)
			*SK_ARRAY_PUSH(sd.oids, sd.nr, alloc) = sl->items[i].oid;
	}
	if (sd.nr > 1)
		qsort(sd.oids, sd.nr, sizeof(*sd.oids), sk_str_cmp);
	for (i = j = 0; i < sd.nr; i++)
		if (!j || strcmp(sd.oids[j - 1], sd.oids[i]))
			sd.oids[j++] = sd.oids[i];
	sd.nr = j;
	sd.need = sk_xcalloc(sd.nr + 1, sizeof(*sd.need));
	sd.pid = sk_xcalloc(sd.nr + 1, sizeof(*sd.pid));
	sd.lines = sk_xcalloc(sd.nr + 1, sizeof(*sd.lines));
	for (i = 0; i < sd.nr; i++)
		if (sk_index_lacks(r->idx, sd.oids[i], SK_INDEX_PATCHID))
			sd.need[i] |= NEED_PATCHID;
	/*
	 * Lines only from a diff made for the patch-id anyway: a commit
	 * whose difference is not kept because it is upstream (equal
	 * patch-id, Link:) must not be diffed on every run.
	 */
	for (k = 0; k < r->nr_pi; k++) {
		const struct sk_index_list *sl = &r->pi[k].subjects;

		for (i = 0; i < sl->nr; i++) {
			j = find_oid(&sd, sl->items[i].oid);
			if (sd.need[j] == NEED_PATCHID &&
			    !difference_kept(r, &r->pi[k], sd.oids[j]))
				sd.need[j] |= NEED_LINES;
		}
	}
	/* only what is missing is diffed: a warm run diffs nothing */
	for (i = j = 0; i < sd.nr; i++)
		if (sd.need[i]) {
			sd.oids[j] = sd.oids[i];
			sd.need[j++] = sd.need[i];
		}
	sd.nr = j;
	if ((sd.nr &&
	     sk_parallel_repo_for(r->repo, sd.nr, 0, subject_diff_job, &sd)) ||
	    sk_index_set_patchids(r->idx, sd.oids, (const char (*)[41])sd.pid,
				  sd.nr))
		sk_error_clear();	/* each lookup diffs what is missing */
	for (i = 0; i < sd.nr; i++) {
		struct cached_lines *c;

		if (!(sd.need[i] & NEED_LINES))
			continue;
		c = SK_ARRAY_PUSH(r->lines, r->nr_lines, r->alloc_lines);
		snprintf(c->oid, sizeof(c->oid), "%s", sd.oids[i]);
		c->l = sd.lines[i];
	}
	free(sd.oids);
	free(sd.need);
	free(sd.pid);
	free(sd.lines);
}

/*
 * The diffs map_direct asks for, computed first over the machine's
 * cores: those of the commits with a patch's subject (subject_diffs),
 * and the paths of the recent commits of each author with enough
 * patches that same_paths reads them all.
 */
static void prefetch_direct(struct run *r, long long range)
{
	struct sk_strvec files = { 0 };
	char **email = sk_xcalloc(r->nr_pi + 1, sizeof(*email));
	size_t k, j, end;

	subject_diffs(r, range);
	for (k = 0; k < r->nr_pi; k++)
		email[k] = r->pi[k].email;
	qsort(email, r->nr_pi, sizeof(*email), sk_str_cmp);
	for (k = 0; k < r->nr_pi; k = end) {
		struct author_cache *ac;

		for (end = k; end < r->nr_pi && !strcmp(email[end], email[k]);)
			end++;
		if (end - k <= FILESET_AFTER)
			continue;
		ac = author_commits(r, email[k], range, MAINLINE_AUTHOR_CAP);
		ac->fx_ready = 1;
		for (j = 0; j < ac->l.nr; j++)
			sk_strvec_push(&files, ac->l.items[j].oid);
	}
	free(email);
	if (sk_index_prefetch(r->idx, r->repo, files.items, files.nr,
			      SK_INDEX_FILES))
		sk_error_clear();	/* each lookup diffs what is missing */
	sk_strvec_clear(&files);
}

static void map_upstream(struct run *r)
{
	long long range;
	size_t k = 0;

	if (!r->mainline || r->mainline->problem)
		return;
	range = r->mainline->range;
	use_where(r, r->mainline);
	prefetch_direct(r, range);
	for (k = 0; k < r->nr_pi; k++)
		map_direct(r, &r->pi[k], range);
	for (k = 0; k < r->nr_pi;) {
		size_t end = k;

		while (end < r->nr_pi && r->pi[end].s == r->pi[k].s)
			end++;
		map_reshaped(r, k, end, range);
		k = end;
	}
	for (k = 0; k < r->nr_pi; k++) {
		map_reverts(r, &r->pi[k], range);
		drop_similar_upstream(&r->pi[k]);
	}
}

/* ---- per-branch checks ---- */

/* "(cherry picked from commit <sha>)" with the sha. */
static void upref_text(struct sk_strbuf *out, int kind, const char *oid)
{
	const char *t = sk_upref_kind_name(kind), *sha = strstr(t, "<sha>");

	sk_strbuf_add(out, t, sha - t);
	sk_strbuf_adds(out, oid);
	sk_strbuf_adds(out, sha + 5);
}

/* The first commit of range that carries oid's change by reference. */
static int find_backport(struct sk_index_commit *out, struct run *r,
			 long long range, const char *oid)
{
	struct sk_index_list l = { 0 };
	size_t i;
	int found = 0;

	sk_index_by_upstream(&l, r->idx, range, oid);
	for (i = 0; i < l.nr && !found; i++)
		if (SK_UPREF_IS_COPY(l.items[i].kind)) {
			memcpy(out->oid, l.items[i].oid, sizeof(out->oid));
			out->kind = l.items[i].kind;
			found = 1;
		}
	sk_index_list_release(&l);
	return found;
}

/* Is commit oid in branch tb: in its range, its base, or backported? */
static int contains(struct run *r, struct sk_track_branch *tb,
		    const char *oid, struct sk_track_cell *c, const char *what)
{
	struct sk_index_commit b;

	if (sk_index_in_range(r->idx, tb->range, oid)) {
		cell_say(c, "%s %.12s is in %s", what, oid, tb->br->name);
		return 1;
	}
	if (tb->base[0] &&
	    sk_index_is_ancestor(r->idx, r->repo, oid, tb->base) == 1) {
		cell_say(c, "%s %.12s is in the base %s", what, oid,
			 tb->br->base);
		return 1;
	}
	sk_error_clear();
	if (find_backport(&b, r, tb->range, oid)) {
		sk_strbuf_reset(&r->sb);
		upref_text(&r->sb, b.kind, oid);
		cell_say(c, "%s %.12s was backported as %.12s, which carries "
			 "\"%s\"", what, oid, b.oid, r->sb.buf);
		cell_commit(c, b.oid);
		return 1;
	}
	return 0;
}

/* A commit that brought the patch into a branch, and what undid it. */
struct landing {
	char oid[41];
	char *proof;
	char reverted_by[41];
	char reverted_merge[41];	/* the merge reverted_by reverts */
};

struct landings {
	struct landing *items;
	size_t nr, alloc;
};

static struct landing *add_landing(struct landings *ls, const char *oid,
				   char *proof)
{
	struct landing *l;
	size_t i;

	for (i = 0; i < ls->nr; i++)
		if (!strcmp(ls->items[i].oid, oid)) {
			free(proof);
			return NULL;
		}
	l = SK_ARRAY_PUSH(ls->items, ls->nr, ls->alloc);
	memset(l, 0, sizeof(*l));
	snprintf(l->oid, sizeof(l->oid), "%s", oid);
	l->proof = proof;
	return l;
}

/* Reverted in the branch: by a revert of it, or of the commit it copies. */
static void landing_reverts(struct run *r, struct sk_track_branch *tb,
			    struct landing *l, const char *upstream,
			    int in_base)
{
	char rv[41];

	if (in_base) {
		/* a revert in the base, or in the branch */
		struct sk_index_list rl = { 0 };
		size_t i;

		sk_index_by_upstream(&rl, r->idx, 0, l->oid);
		for (i = 0; i < rl.nr && !l->reverted_by[0]; i++)
			if (rl.items[i].kind == SK_UPREF_REVERT &&
			    (sk_index_in_range(r->idx, tb->range,
					       rl.items[i].oid) ||
			     sk_index_is_ancestor(r->idx, r->repo,
						  rl.items[i].oid,
						  tb->base) == 1))
				memcpy(l->reverted_by, rl.items[i].oid, 41);
		sk_index_list_release(&rl);
		sk_error_clear();
		return;
	}
	if (find_revert(rv, r, tb->range, l->oid, NULL) ||
	    (upstream && find_revert(rv, r, tb->range, upstream, l->oid))) {
		memcpy(l->reverted_by, rv, sizeof(rv));
		memcpy(l->reverted_merge, r->via_merge, sizeof(rv));
	}
}

/*
 * Equal patch-id decides, whatever the subject and the author say: the
 * commits of a branch of at most BRANCH_SCAN_CAP that touch the files of
 * the patch (or of a fixlet), and only them, are compared.
 */
static void scan_landings(struct landings *ls, struct run *r,
			  struct sk_track_branch *tb, struct pinfo *pi)
{
	struct author_cache *ac = author_commits(r, "", tb->range,
						 BRANCH_SCAN_CAP + 1);
	struct landing *x;
	const char *pid;
	size_t *cand, nr, j;

	if (ac->l.nr > BRANCH_SCAN_CAP)
		return;
	nr = same_paths(&cand, r, ac, pi);
	for (j = 0; j < nr; j++) {
		const struct sk_index_commit *c = &ac->l.items[cand[j]];

		if (!(pid = same_patchid(r, pi, c->oid)))
			continue;
		x = add_landing(ls, c->oid, sk_xstrfmt(
			"equal patch-id: %s has %s (subject \"%s\"; "
			"one of the commits that touch its files)", c->oid,
			pid, c->subject));
		if (x)
			landing_reverts(r, tb, x, NULL, 0);
	}
	free(cand);
}

/*
 * The landings of the patch on branch tb: its proven upstream commits in
 * the branch or its base, their backports by explicit reference, the
 * commits with its patch-id; each with the revert that undid it, and the
 * revert of that revert as a landing again.  Commits with its subject
 * and another patch-id are similar.
 */
static void branch_landings(struct landings *ls, struct run *r,
			    struct sk_track_branch *tb, struct pinfo *pi,
			    struct sk_index_list *similar)
{
	struct sk_track_patch *tp = pi->tp;
	struct sk_index_list l = { 0 };
	const struct sk_index_list *a;
	struct author_cache *ac;
	size_t *cand, nr_cand, k;
	struct landing *x;
	const char *pid;
	size_t i;

	for (i = 0; i < tp->nr_upstream; i++) {
		const char *up = tp->upstream[i].commit;

		if (sk_index_in_range(r->idx, tb->range, up)) {
			x = add_landing(ls, up, sk_xstrfmt("explicit reference:"
					" the upstream commit %s is in %s", up,
					tb->br->name));
			if (x)
				landing_reverts(r, tb, x, NULL, 0);
		} else if (tb->base[0] &&
			   sk_index_is_ancestor(r->idx, r->repo, up,
						tb->base) == 1) {
			x = add_landing(ls, up, sk_xstrfmt("explicit reference:"
					" the upstream commit %s is in the "
					"base %s", up, tb->br->base));
			if (x)
				landing_reverts(r, tb, x, NULL, 1);
		}
		sk_error_clear();
		sk_index_by_upstream(&l, r->idx, tb->range, up);
		while (l.nr) {
			struct sk_index_commit *c = &l.items[--l.nr];

			if (SK_UPREF_IS_COPY(c->kind)) {
				sk_strbuf_reset(&r->sb);
				upref_text(&r->sb, c->kind, up);
				x = add_landing(ls, c->oid, sk_xstrfmt(
					"explicit reference: %s carries \"%s\"",
					c->oid, r->sb.buf));
				if (x)
					landing_reverts(r, tb, x, up, 0);
			}
			free(c->subject);
			free(c->email);
		}
	}
	sk_index_by_subject(&l, r->idx, tb->range, pi->norm);
	for (i = 0; i < l.nr; i++) {
		if ((pid = same_patchid(r, pi, l.items[i].oid))) {
			x = add_landing(ls, l.items[i].oid, sk_xstrfmt(
				"equal patch-id: %s has %s", l.items[i].oid,
				pid));
			if (x)
				landing_reverts(r, tb, x, NULL, 0);
		} else {
			push_candidate(similar, l.items[i].oid,
				       l.items[i].subject);
		}
	}
	sk_index_list_release(&l);
	ac = author_commits(r, pi->email, tb->range, BRANCH_AUTHOR_CAP);
	a = &ac->l;
	nr_cand = same_paths(&cand, r, ac, pi);
	for (k = 0; k < nr_cand; k++) {
		size_t j;

		i = cand[k];
		for (j = 0; j < ls->nr && strcmp(ls->items[j].oid,
						 a->items[i].oid); j++)
			;
		if (j < ls->nr ||
		    !(pid = author_patchid(r, pi, a->items[i].oid)))
			continue;
		x = add_landing(ls, a->items[i].oid, sk_xstrfmt(
			"equal patch-id: %s has %s (subject \"%s\")",
			a->items[i].oid, pid, a->items[i].subject));
		if (x)
			landing_reverts(r, tb, x, NULL, 0);
	}
	free(cand);
	if (!ls->nr)
		scan_landings(ls, r, tb, pi);
	/* a revert of a revert lands it again */
	for (i = 0; i < ls->nr; i++) {
		char again[41];

		if (!ls->items[i].reverted_by[0] ||
		    !find_revert(again, r, tb->range,
				 ls->items[i].reverted_by, NULL))
			continue;
		x = add_landing(ls, again, sk_xstrfmt("explicit reference: "
				"%s reverts the revert %s", again,
				ls->items[i].reverted_by));
		if (x)
			landing_reverts(r, tb, x, NULL, 0);
	}
	sk_error_clear();
}

/*
 * 1 if the patch is in the branch (a landing not reverted), else 0; sets
 * *reverted when it landed and every landing was reverted, *similar when
 * a commit not reverted has its subject and not its patch-id.
 */
static int check_present(struct run *r, struct sk_track_branch *tb,
			 struct pinfo *pi, struct sk_track_cell *c,
			 int *reverted, int *similar)
{
	struct landings ls = { 0 };
	struct sk_index_list sim = { 0 };
	size_t i, live = 0;

	*reverted = *similar = 0;
	branch_landings(&ls, r, tb, pi, &sim);
	for (i = 0; i < ls.nr; i++)
		live += !ls.items[i].reverted_by[0];
	for (i = 0; i < ls.nr; i++) {
		struct landing *l = &ls.items[i];

		if (l->reverted_by[0])
			continue;
		if (live < ls.nr)
			cell_say(c, "landed again: %s (%s)", l->oid, l->proof);
		else
			cell_say(c, "%s", l->proof);
		cell_commit(c, l->oid);
	}
	for (i = 0; i < ls.nr; i++) {
		struct landing *l = &ls.items[i];
		char *subj;

		if (!l->reverted_by[0])
			continue;
		subj = commit_subject(r, l->reverted_by);
		if (l->reverted_merge[0])
			cell_say(c, "reverted: %s (\"%s\") reverts the merge "
				 "%s, which brought in %s, which had landed it "
				 "(%s)", l->reverted_by, subj,
				 l->reverted_merge, l->oid, l->proof);
		else
			cell_say(c, "reverted: %s (\"%s\") reverts %s, which "
				 "had landed it (%s)", l->reverted_by, subj,
				 l->oid, l->proof);
		free(subj);
	}
	if (!live) {
		for (i = 0; i < sim.nr; i++) {
			char rv[41], *diff;

			if (find_revert(rv, r, tb->range, sim.items[i].oid,
					NULL)) {
				cell_say(c, "similar, reverted: %s has the "
					 "subject but not the patch-id, and %s "
					 "reverts it", sim.items[i].oid, rv);
				continue;
			}
			diff = similar_difference(r, pi, sim.items[i].oid);
			cell_say(c, "similar: %s has the subject but not the "
				 "patch-id; difference: %s", sim.items[i].oid,
				 diff);
			free(diff);
			cell_commit(c, sim.items[i].oid);
			*similar = 1;
		}
	}
	*reverted = ls.nr && !live;
	for (i = 0; i < ls.nr; i++)
		free(ls.items[i].proof);
	free(ls.items);
	sk_index_list_release(&sim);
	return live > 0;
}

/* The queue entry that holds this patch, by name, subject or upstream id. */
static int check_queued(struct run *r, struct sk_track_branch *tb,
			struct pinfo *pi, struct sk_track_cell *c)
{
	struct sk_strbuf name = SK_STRBUF_INIT, text = SK_STRBUF_INIT;
	size_t qi;
	int found = 0;

	sk_track_queue_name(&name, pi->tp->subject);
	for (qi = 0; qi < tb->nr_queue && !found; qi++) {
		const char *entry = tb->queue[qi];
		char *path;

		if (!strncmp(entry, name.buf, name.len) &&
		    (!entry[name.len] || entry[name.len] == '.' ||
		     entry[name.len] == '-')) {
			cell_say(c, "stable/%s/series lists %s", tb->br->name,
				 entry);
			found = 1;
		}
		path = sk_xstrfmt("%s/stable/%s/%s", r->o->top, tb->br->name,
				  entry);
		sk_strbuf_reset(&text);
		if (!found && !sk_read_file(&text, path)) {
			struct sk_commit_facts f;
			const char *subj = strstr(text.buf, "\nSubject:");
			size_t i, j;

			if (!strncmp(text.buf, "Subject:", 8))
				subj = text.buf - 1;
			if (subj) {
				char *s = sk_xstrndup(subj + 9,
						      strcspn(subj + 9, "\n"));
				char *n = norm_dup(r, s);

				if (!strcmp(n, pi->norm)) {
					cell_say(c, "stable/%s/series lists %s "
						 "with the same subject",
						 tb->br->name, entry);
					found = 1;
				}
				free(n);
				free(s);
			}
			sk_commit_facts_parse(&f, text.buf);
			for (i = 0; i < f.nr_uprefs && !found; i++)
				for (j = 0; j < pi->tp->nr_upstream; j++)
					if (!strncmp(pi->tp->upstream[j].commit,
						     f.uprefs[i].sha,
						     strlen(f.uprefs[i].sha))) {
						cell_say(c, "stable/%s/series "
							 "lists %s, a backport "
							 "of %.12s",
							 tb->br->name, entry,
							 f.uprefs[i].sha);
						found = 1;
						break;
					}
			sk_commit_facts_release(&f);
		}
		free(path);
	}
	sk_strbuf_release(&name);
	sk_strbuf_release(&text);
	return found;
}

/* ---- the decision per patch and branch ---- */

static void cell_say_front(struct sk_track_cell *c, const char *text)
{
	SK_ARRAY_PUSH(c->evidence, c->nr_evidence, c->alloc_evidence);
	memmove(c->evidence + 1, c->evidence,
		(c->nr_evidence - 1) * sizeof(*c->evidence));
	c->evidence[0] = sk_xstrdup(text);
}

static void check_fixes(struct run *r, struct sk_track_branch *tb,
			struct pinfo *pi, struct sk_track_cell *c,
			struct sk_track_facts *f)
{
	size_t i;

	for (i = 0; i < pi->nr_fixes; i++) {
		struct fix_target *fx = &pi->fixes[i];

		f->has_fixes = 1;
		cell_say(c, "%s", fx->how);
		if (!fx->resolved[0])
			continue;
		f->fixes_resolved = 1;
		if (contains(r, tb, fx->resolved, c, "Fixes: target"))
			f->fixes_in_branch = 1;
		else
			cell_say(c, "Fixes: target %.12s is not in %s",
				 fx->resolved, tb->br->name);
	}
}

/* Landed upstream, and every landing reverted there. */
static int reverted_upstream(const struct sk_track_patch *tp)
{
	size_t i;

	for (i = 0; i < tp->nr_upstream; i++)
		if (!tp->upstream[i].reverted_by[0])
			return 0;
	return tp->nr_upstream > 0;
}

static void mainline_evidence(struct sk_track_cell *c,
			      const struct sk_track_patch *tp,
			      struct sk_track_facts *f)
{
	size_t i;

	for (i = 0; i < tp->nr_upstream; i++) {
		const struct sk_track_upstream *u = &tp->upstream[i];

		if (u->reverted_by[0])
			continue;
		f->present = 1;
		cell_say(c, "merged as %s (\"%s\"): %s", u->commit, u->subject,
			 u->how);
		cell_commit(c, u->commit);
	}
	for (i = 0; i < tp->nr_upstream; i++) {
		const struct sk_track_upstream *u = &tp->upstream[i];

		if (u->reverted_by[0] && u->reverted_merge[0])
			cell_say(c, "reverted: %s reverts the merge %s, which "
				 "brought in %s (\"%s\"), which had landed it "
				 "(%s)", u->reverted_by, u->reverted_merge,
				 u->commit, u->subject, u->how);
		else if (u->reverted_by[0])
			cell_say(c, "reverted: %s reverts %s (\"%s\"), which "
				 "had landed it (%s)", u->reverted_by,
				 u->commit, u->subject, u->how);
	}
	f->reverted_upstream = reverted_upstream(tp);
	for (i = 0; !f->present && i < tp->nr_similar; i++) {
		const struct sk_track_similar *sm = &tp->similar[i];

		if (sm->reverted_by[0]) {
			cell_say(c, "similar, reverted: %s has the subject but "
				 "not the patch-id, and %s reverts it",
				 sm->commit, sm->reverted_by);
			continue;
		}
		cell_say(c, "similar: %s has the subject but not the "
			 "patch-id; difference: %s", sm->commit,
			 sm->difference);
		cell_commit(c, sm->commit);
		f->similar = 1;
	}
}

/* ---- trees without history: the code is the evidence (content.h) ---- */

static void content_start(struct run *r)
{
	struct sk_content_branch *b = sk_xcalloc(r->t->nr_branches + 1,
						 sizeof(*b));
	size_t i;

	for (i = 0; i < r->t->nr_branches; i++) {
		const struct sk_track_branch *tb = &r->t->branches[i];

		b[i].br = tb->br;
		b[i].repo = tb->problem ? NULL : r->where[i].repo;
		b[i].tip = tb->tip;
		b[i].base = tb->base;
		b[i].queue = tb->queue;
		b[i].nr_queue = tb->nr_queue;
	}
	r->content = sk_content_cache_new(r->o->top, b, r->t->nr_branches);
	free(b);
}

static void content_take(struct sk_track_cell *c, struct sk_strvec *ev)
{
	size_t i;

	for (i = 0; i < ev->nr; i++)
		*SK_ARRAY_PUSH(c->evidence, c->nr_evidence,
			       c->alloc_evidence) = (char *)ev->items[i];
	sk_strvec_release(ev);
}

static int content_present(struct run *r, size_t bi, struct pinfo *pi,
			   struct sk_track_cell *c)
{
	struct sk_strvec ev = { 0 };
	int ret = sk_content_present(r->content, bi, pi->s, pi->rev,
				     pi->p->nr, &ev);

	content_take(c, &ev);
	return ret;
}

static void content_facts(struct run *r, size_t bi, struct pinfo *pi,
			  struct sk_track_cell *c, struct sk_track_facts *f)
{
	struct sk_content_facts cf = { 0 };

	cf.queued = f->queued;
	cf.has_fixes = f->has_fixes;
	cf.fixes_in_branch = f->fixes_in_branch;
	cf.fixes_resolved = f->fixes_resolved;
	sk_content_facts(r->content, bi, pi->s, pi->rev, pi->p->nr, &cf);
	f->fixes_in_branch = cf.fixes_in_branch;
	f->fixes_by_code = cf.fixes_by_code;
	c->differs = cf.differs;
	c->proxy = cf.proxy;
	content_take(c, &cf.evidence);
}

/* A live (not reverted) proven mainline commit carries the patch. */
static int upstream_live(const struct sk_track_patch *tp)
{
	size_t i;

	for (i = 0; i < tp->nr_upstream; i++)
		if (sk_track_upstream_proven(&tp->upstream[i]))
			return 1;
	return 0;
}

/*
 * The newest stable branch newer than bi whose history has the patch
 * (evaluated already: see eval_order): upstream by proxy, as stable
 * trees take only mainline commits.  NULL if none.
 */
static const char *newer_present(struct run *r, size_t bi,
				 const struct sk_track_patch *tp)
{
	const struct sk_branch *me = r->t->branches[bi].br, *best = NULL;
	size_t j;

	for (j = 0; j < r->t->nr_branches; j++) {
		const struct sk_branch *br = r->t->branches[j].br;

		if (j == bi || br->kind != SK_BRANCH_STABLE ||
		    r->t->branches[j].problem ||
		    tp->cells[j].state != SK_STATE_PRESENT ||
		    sk_version_cmp(br->major, br->minor, me->major,
				   me->minor) <= 0 ||
		    (best && sk_version_cmp(br->major, br->minor, best->major,
					    best->minor) < 0))
			continue;
		best = br;
	}
	if (best)
		cell_say(&tp->cells[bi], "upstream by proxy: %s, a newer "
			 "stable branch, has it; stable branches take only "
			 "mainline commits", best->name);
	return best ? best->name : NULL;
}

static void evaluate(struct run *r, size_t bi, struct pinfo *pi)
{
	struct sk_track_branch *tb = &r->t->branches[bi];
	const struct sk_branch *br = tb->br;
	struct sk_track_cell *c = &pi->tp->cells[bi];
	struct sk_track_facts f = { 0 };
	struct sk_strbuf why = SK_STRBUF_INIT;
	size_t i;

	if (tb->problem) {
		c->state = SK_STATE_UNKNOWN;
		cell_say(c, "%s", tb->problem);
		return;
	}
	use_where(r, tb);
	f.kind = br->kind;
	f.major = br->major;
	f.minor = br->minor;
	if (br->kind == SK_BRANCH_MAINLINE && tb == r->mainline) {
		struct sk_track_patch *tp = pi->tp;

		mainline_evidence(c, tp, &f);
	} else {
		int reverted, similar;

		f.present = check_present(r, tb, pi, c, &reverted, &similar);
		if (!f.present)
			f.present = content_present(r, bi, pi, c);
		f.reverted_here = reverted;
		f.similar = similar;
		f.reverted_upstream = reverted_upstream(pi->tp);
		for (i = 0; f.reverted_upstream && i < pi->tp->nr_upstream; i++)
			cell_say(c, "reverted: %s reverts %s upstream",
				 pi->tp->upstream[i].reverted_by,
				 pi->tp->upstream[i].commit);
		if (!f.present)
			f.queued = check_queued(r, tb, pi, c);
		if (!f.present && !f.queued) {
			f.selected = sk_branch_selects(br, pi->s->slug);
			f.cc_stable = pi->cc_stable;
			f.cc_major = pi->cc_major;
			f.cc_minor = pi->cc_minor;
			check_fixes(r, tb, pi, c, &f);
		}
		if (br->kind == SK_BRANCH_MAINLINE)
			f.kind = SK_BRANCH_STABLE;
		if (!f.present)
			content_facts(r, bi, pi, c, &f);
		if (!f.present && !c->proxy && !upstream_live(pi->tp))
			c->proxy = newer_present(r, bi, pi->tp);
		f.upstream = upstream_live(pi->tp) || c->proxy;
		f.mainline = r->mainline && !r->mainline->problem;
		f.allow_pending = br->allow_pending;
	}
	c->state = sk_track_decide(&f, &why);
	if (why.len)
		cell_say_front(c, why.buf);
	sk_strbuf_release(&why);
}

/*
 * The order branches are evaluated in: the others first, then the stable
 * branches newest first, so that a stable branch sees whether a newer
 * one has a patch (upstream by proxy, newer_present).
 */
static size_t *eval_order(const struct sk_track *t)
{
	size_t *order = sk_xcalloc(t->nr_branches + 1, sizeof(*order));
	size_t i, j, n = 0;

	for (i = 0; i < t->nr_branches; i++)
		if (t->branches[i].br->kind != SK_BRANCH_STABLE)
			order[n++] = i;
	for (i = 0; i < t->nr_branches; i++) {
		const struct sk_branch *br = t->branches[i].br;

		if (br->kind != SK_BRANCH_STABLE)
			continue;
		/* insertion: after every stable branch at least as new */
		for (j = n; j > 0; j--) {
			const struct sk_branch *o = t->branches[order[j - 1]].br;

			if (o->kind != SK_BRANCH_STABLE ||
			    sk_version_cmp(o->major, o->minor, br->major,
					   br->minor) >= 0)
				break;
			order[j] = order[j - 1];
		}
		order[j] = i;
		n++;
	}
	return order;
}

static void add_dep(struct sk_track_cell *c, int nr)
{
	size_t i;

	for (i = 0; i < c->nr_deps; i++)
		if (c->deps[i] == nr)
			return;
	*SK_ARRAY_PUSH(c->deps, c->nr_deps, c->alloc_deps) = nr;
}

/*
 * Mainline first for what a needed patch n needs: an earlier patch of its
 * series it needs (same files) that waits, or that would become its
 * Stable-dep-of and is not upstream, makes n wait too.  1 if so.
 */
static int dep_waits(struct run *r, size_t bi, size_t first, size_t n)
{
	struct sk_track_cell *cn = &r->pi[n].tp->cells[bi];
	size_t m;

	for (m = first; m < n; m++) {
		const struct sk_track_cell *cm = &r->pi[m].tp->cells[bi];
		int waits = cm->state == SK_STATE_WAITS ||
			((cm->state == SK_STATE_NOT_AFFECTED ||
			  cm->state == SK_STATE_NOT_ELIGIBLE) &&
			 !upstream_live(r->pi[m].tp) && !cm->proxy);

		if (!waits || !file_overlap(&r->pi[m], r->pi[n].files,
					    r->pi[n].nr_files))
			continue;
		sk_strbuf_reset(&r->sb);
		sk_strbuf_addf(&r->sb, "not upstream yet (mainline-first): it "
			       "needs %s:%d (\"%s\"), both touch the same "
			       "files, and that patch is not upstream yet",
			       r->pi[m].s->slug, r->pi[m].tp->nr,
			       r->pi[m].tp->subject);
		cn->state = SK_STATE_WAITS;
		cell_say_front(cn, r->sb.buf);
		return 1;
	}
	return 0;
}

/*
 * A needed patch needs the earlier patches of its series that touch the
 * same files and are not in the branch already: they become needed too,
 * as Stable-dep-of.
 */
static void dependencies(struct run *r, size_t bi, size_t first, size_t end)
{
	const struct sk_branch *br = r->t->branches[bi].br;
	size_t n, m;

	for (n = end; n-- > first;) {
		struct sk_track_cell *cn = &r->pi[n].tp->cells[bi];

		if (cn->state != SK_STATE_NEEDED)
			continue;
		if (br->kind == SK_BRANCH_STABLE && !br->allow_pending &&
		    dep_waits(r, bi, first, n))
			continue;
		for (m = first; m < n; m++) {
			struct sk_track_cell *cm = &r->pi[m].tp->cells[bi];

			/* only what is not there for a reason of its own */
			if ((cm->state != SK_STATE_NEEDED &&
			     cm->state != SK_STATE_NOT_AFFECTED &&
			     cm->state != SK_STATE_NOT_ELIGIBLE) ||
			    !file_overlap(&r->pi[m], r->pi[n].files,
					  r->pi[n].nr_files))
				continue;
			add_dep(cn, r->pi[m].tp->nr);
			sk_strbuf_reset(&r->sb);
			sk_strbuf_addf(&r->sb, "needs %s:%d (\"%s\"): both touch "
				       "the same files", r->pi[m].s->slug,
				       r->pi[m].tp->nr, r->pi[m].tp->subject);
			cell_say(cn, "%s", r->sb.buf);
			sk_strbuf_reset(&r->sb);
			sk_strbuf_addf(&r->sb, "Stable-dep-of: %s:%d (\"%s\")",
				       r->pi[n].s->slug, r->pi[n].tp->nr,
				       r->pi[n].tp->subject);
			if (cm->state != SK_STATE_NEEDED) {
				cm->state = SK_STATE_NEEDED;
				cell_say_front(cm, r->sb.buf);
			} else {
				cell_say(cm, "%s", r->sb.buf);
			}
		}
	}
}

int sk_track_run(struct sk_track **out, const struct sk_track_opts *o)
{
	struct run r = { 0 };
	struct sk_track *t = sk_xcalloc(1, sizeof(*t));
	struct timespec t0, t1;
	size_t i, k, n, *order = NULL;
	int ret;

	/*
	 * libgit2 keeps trees of 4 KiB at most in its object cache: every
	 * diff of a kernel commit read mm/, fs/, drivers/ again, inflating
	 * their delta chains.  Directories are what the matching diffs over
	 * and over.
	 */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE,
			 (size_t)1 << 20);
	r.o = o;
	r.t = t;
	r.repo = o->repo;
	r.idx = o->idx;
	add_warning(t, sk_index_warning(o->idx));
	sk_strbuf_init(&r.sb);
	t->nr_branches = o->branches->nr;
	t->branches = sk_xcalloc(t->nr_branches ? t->nr_branches : 1,
				 sizeof(*t->branches));
	for (i = 0; i < t->nr_branches; i++)
		t->branches[i].br = &o->branches->items[i];
	ret = prepare_branches(&r);
	if (ret)
		goto out;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = load_series(&r);
	if (ret)
		goto out;
	r.repo = o->repo;
	r.idx = o->idx;
	for (k = 0; k < r.nr_pi; k++)
		for (i = 0; i < r.pi[k].nr_fixes; i++)
			resolve_fix(&r, &r.pi[k].fixes[i]);
	map_upstream(&r);
	content_start(&r);
	order = eval_order(t);
	for (n = 0; n < t->nr_branches; n++) {
		i = order[n];
		for (k = 0; k < r.nr_pi; k++)
			evaluate(&r, i, &r.pi[k]);
		for (k = 0; k < r.nr_pi;) {
			size_t end = k;

			while (end < r.nr_pi && r.pi[end].s == r.pi[k].s)
				end++;
			if (!t->branches[i].problem &&
			    t->branches[i].br->kind != SK_BRANCH_MAINLINE)
				dependencies(&r, i, k, end);
			k = end;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	t->match_s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	t->diffs += sk_index_diffs(o->idx);
	for (i = 0; r.where && i < t->nr_branches; i++)
		if (r.where[i].path)
			t->diffs += sk_index_diffs(r.where[i].idx);
	sk_error_clear();
out:
	free(order);
	for (k = 0; k < r.nr_pi; k++)
		pinfo_release(&r.pi[k]);
	free(r.pi);
	for (i = 0; i < r.nr_series; i++)
		sk_series_free(r.series[i]);
	free(r.series);
	sk_content_cache_free(r.content);
	close_where(&r);
	for (i = 0; i < r.nr_lines; i++)
		sk_lines_release(&r.lines[i].l);
	free(r.lines);
	for (i = 0; i < r.nr_mrs; i++)
		free(r.mrs[i].items);
	free(r.mrs);
	for (i = 0; i < r.nr_authors; i++) {
		free(r.authors[i].email);
		free(r.authors[i].fx);
		sk_index_list_release(&r.authors[i].l);
	}
	free(r.authors);
	for (i = 0; r.files && i <= r.files_mask; i++)
		if (r.files[i].oid[0])
			sk_index_files_free(r.files[i].files, r.files[i].nr);
	free(r.files);
	sk_strbuf_release(&r.sb);
	if (ret) {
		sk_track_free(t);
		return ret;
	}
	*out = t;
	return 0;
}

static void cell_release(struct sk_track_cell *c)
{
	size_t i;

	for (i = 0; i < c->nr_evidence; i++)
		free(c->evidence[i]);
	for (i = 0; i < c->nr_commits; i++)
		free(c->commits[i]);
	free(c->evidence);
	free(c->commits);
	free(c->deps);
}

void sk_track_free(struct sk_track *t)
{
	size_t i, j;

	if (!t)
		return;
	for (i = 0; i < t->nr_patches; i++) {
		struct sk_track_patch *tp = &t->patches[i];

		for (j = 0; j < t->nr_branches; j++)
			cell_release(&tp->cells[j]);
		for (j = 0; j < tp->nr_upstream; j++) {
			free(tp->upstream[j].subject);
			free(tp->upstream[j].how);
		}
		free(tp->upstream);
		for (j = 0; j < tp->nr_similar; j++) {
			free(tp->similar[j].subject);
			free(tp->similar[j].difference);
		}
		free(tp->similar);
		free(tp->cells);
		free(tp->slug);
		free(tp->subject);
		free(tp->author);
	}
	for (i = 0; i < t->nr_branches; i++) {
		free(t->branches[i].problem);
		sk_strvec_free_array(t->branches[i].queue,
				     t->branches[i].nr_queue);
	}
	for (i = 0; i < t->nr_warnings; i++)
		free(t->warnings[i]);
	free(t->warnings);
	free(t->patches);
	free(t->branches);
	free(t);
}

int sk_track_find_patch(struct sk_track_patch **out, struct sk_track *t,
			const char *spec)
{
	const char *colon = strrchr(spec, ':');
	size_t i, found = 0;

	*out = NULL;
	if (colon && colon[1] && strspn(colon + 1, "0123456789") ==
	    strlen(colon + 1)) {
		int nr = atoi(colon + 1);
		size_t len = (size_t)(colon - spec);
		struct sk_track_patch *hit = NULL;
		struct sk_strbuf list = SK_STRBUF_INIT;

		for (i = 0; i < t->nr_patches; i++)
			if (t->patches[i].nr == nr &&
			    strlen(t->patches[i].slug) == len &&
			    !strncmp(t->patches[i].slug, spec, len)) {
				*out = &t->patches[i];
				return 0;
			}
		/* the start of a series name, as everywhere a slug is taken */
		for (i = 0; len && i < t->nr_patches; i++)
			if (t->patches[i].nr == nr &&
			    !strncmp(t->patches[i].slug, spec, len)) {
				sk_strbuf_addf(&list, "%s%s:%d", hit ? ", " : "",
					       t->patches[i].slug, nr);
				found++;
				hit = &t->patches[i];
			}
		if (found > 1) {
			int ret = sk_error_set(SK_EINVALID, "'%s' is the start "
					       "of %zu patches' names: %s; give "
					       "more of the name", spec, found,
					       list.buf);

			sk_strbuf_release(&list);
			return ret;
		}
		sk_strbuf_release(&list);
		if (hit) {
			*out = hit;
			return 0;
		}
	}
	for (i = 0; i < t->nr_patches; i++)
		if (!strcmp(t->patches[i].subject, spec)) {
			*out = &t->patches[i];
			found++;
		}
	if (found > 1)
		return sk_error_set(SK_EINVALID, "'%s' names %zu patches; use "
				    "<series>:<n>", spec, found);
	if (!found)
		return sk_error_set(SK_ENOTFOUND, "no patch '%s'", spec);
	return 0;
}

int sk_track_find_branch(size_t *out, const struct sk_track *t,
			 const char *name)
{
	size_t i;

	for (i = 0; i < t->nr_branches; i++)
		if (!strcmp(t->branches[i].br->name, name)) {
			*out = i;
			return 0;
		}
	return sk_error_set(SK_ENOTFOUND, "no branch '%s' in %s", name,
			    SK_BRANCHES_CONF);
}

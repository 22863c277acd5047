#include "track.h"
#include "commitfacts.h"
#include "error.h"
#include "fsutil.h"
#include "repo.h"
#include "series.h"
#include "trailers.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Commits of the same author this close to a series' landing count. */
#define LANDING_WINDOW 50
/* At most this many commits of one author get a patch-id computed... */
#define AUTHOR_PATCHID_CAP 50
/* ... and only those whose subject is at least this similar (percent). */
#define AUTHOR_SIMILARITY 40

static const char *const state_names[] = {
	[SK_STATE_UNKNOWN] = "unknown",
	[SK_STATE_UPSTREAM] = "upstream",
	[SK_STATE_PENDING] = "pending",
	[SK_STATE_PRESENT] = "present",
	[SK_STATE_QUEUED] = "queued",
	[SK_STATE_NEEDED] = "needed",
	[SK_STATE_NOT_AFFECTED] = "not affected",
	[SK_STATE_NOT_ELIGIBLE] = "not eligible",
};

const char *sk_state_name(enum sk_state s)
{
	return state_names[s];
}

enum sk_state sk_track_decide(const struct sk_track_facts *f,
			      struct sk_strbuf *why)
{
	struct sk_strbuf dummy = SK_STRBUF_INIT;
	enum sk_state st;

	if (!why)
		why = &dummy;
	if (f->kind == SK_BRANCH_MAINLINE) {
		st = f->present ? SK_STATE_UPSTREAM : SK_STATE_PENDING;
		if (!f->present)
			sk_strbuf_adds(why, "no mainline commit matches it");
	} else if (f->present) {
		st = SK_STATE_PRESENT;
	} else if (f->queued) {
		st = SK_STATE_QUEUED;
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
		sk_strbuf_adds(why, "its Fixes: target is in the branch");
	} else if (f->has_fixes) {
		st = SK_STATE_NOT_AFFECTED;
		sk_strbuf_adds(why, f->fixes_resolved ?
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
	const struct sk_series_patch *p;
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
	char **claimed;
	size_t nr_claimed, alloc_claimed;
	struct sk_strbuf sb;
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

static int is_claimed(struct run *r, const char *oid)
{
	size_t i;

	for (i = 0; i < r->nr_claimed; i++)
		if (!strcmp(r->claimed[i], oid))
			return 1;
	return 0;
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

static void resolve_fix(struct run *r, struct fix_target *fx)
{
	git_repository *repo = r->o->repo;
	struct sk_index_list hits = { 0 };
	git_object *obj = NULL;
	git_oid oid;
	size_t len = strlen(fx->given), i;
	char *qnorm = fx->subject ? norm_dup(r, fx->subject) : NULL;

	if (!git_oid_fromstrn(&oid, fx->given, len) &&
	    !git_object_lookup_prefix(&obj, repo, &oid, len,
				      GIT_OBJECT_COMMIT)) {
		const char *subj = git_commit_summary((git_commit *)obj);
		char *cnorm = norm_dup(r, subj);

		git_oid_tostr(fx->resolved, sizeof(fx->resolved),
			      git_object_id(obj));
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
	if (qnorm && !sk_index_by_subject(&hits, r->o->idx, 0, qnorm) &&
	    hits.nr) {
		size_t pick = 0;

		/* Prefer the mainline commit to a backport of it. */
		for (i = 0; r->mainline && i < hits.nr; i++)
			if (sk_index_in_range(r->o->idx, r->mainline->range,
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
	git_object_free(obj);
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
	pi->p = p;
	pi->email = sk_author_email(tp->author);
	pi->norm = norm_dup(r, tp->subject);
	for (i = 0; i < p->nr_files; i++)
		add_file(pi, &falloc, p->files[i]);
	for (i = 0; i < p->nr_fixlets; i++)
		for (j = 0; j < p->fixlets[i].nr_files; j++)
			add_file(pi, &falloc, p->fixlets[i].files[j]);
	for (i = 0; (v = sk_patch_trailer(p, "fixes", i)); i++) {
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
	for (i = 0; (v = sk_patch_trailer(p, "cc", i)); i++) {
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

static int prepare_branches(struct run *r)
{
	struct sk_track *t = r->t;
	size_t i;
	struct timespec t0, t1;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < t->nr_branches; i++) {
		struct sk_track_branch *tb = &t->branches[i];
		const struct sk_branch *br = tb->br;
		git_oid tip, base;
		int have_base = 0;
		char *qpath;

		sk_strbuf_init(&tb->queue);
		qpath = sk_xstrfmt("%s/stable/%s/series", r->o->top, br->name);
		if (sk_path_exists(qpath))
			sk_read_file(&tb->queue, qpath);
		free(qpath);
		if (sk_repo_resolve_commit(&tip, r->o->repo, br->ref)) {
			tb->problem = sk_xstrfmt("ref '%s' is not in the "
						 "repository", br->ref);
			continue;
		}
		git_oid_tostr(tb->tip, sizeof(tb->tip), &tip);
		if (br->base &&
		    !sk_repo_resolve_commit(&base, r->o->repo, br->base)) {
			have_base = 1;
			git_oid_tostr(tb->base, sizeof(tb->base), &base);
		}
		ret = sk_index_update_range(&tb->range, &tb->stats, r->o->idx,
					    r->o->repo, br->name, &tip,
					    have_base ? &base : NULL);
		if (ret)
			return sk_error_prefix(ret, "branch '%s'", br->name);
		if (br->kind == SK_BRANCH_MAINLINE && !r->mainline)
			r->mainline = tb;
	}
	sk_error_clear();
	ret = sk_index_finish(r->o->idx);
	if (ret)
		return ret;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	t->index_s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	return 0;
}

/* ---- upstream mapping ---- */

static void add_upstream(struct run *r, struct pinfo *pi,
			 const struct sk_index_commit *c, const char *how)
{
	struct sk_track_patch *tp = pi->tp;
	struct sk_track_upstream *u;
	size_t i;

	for (i = 0; i < tp->nr_upstream; i++)
		if (!strcmp(tp->upstream[i].commit, c->oid))
			return;
	u = SK_ARRAY_PUSH(tp->upstream, tp->nr_upstream, tp->alloc_upstream);
	memcpy(u->commit, c->oid, sizeof(u->commit));
	u->subject = sk_xstrdup(c->subject);
	u->how = sk_xstrdup(how);
	*SK_ARRAY_PUSH(r->claimed, r->nr_claimed, r->alloc_claimed) =
		sk_xstrdup(c->oid);
}

/* Does commit oid carry the patch-id of the patch or one of its fixlets? */
static const char *same_patchid(struct run *r, struct pinfo *pi,
				const char *oid)
{
	char id[41];
	size_t i;

	if (sk_index_patchid(id, r->o->idx, r->o->repo, oid))
		return NULL;
	if (pi->p->patch_id[0] && !strcmp(id, pi->p->patch_id))
		return "the same patch-id";
	for (i = 0; i < pi->p->nr_fixlets; i++)
		if (pi->p->fixlets[i].patch_id[0] &&
		    !strcmp(id, pi->p->fixlets[i].patch_id))
			return "the patch-id of its fixlet";
	return NULL;
}

static void map_direct(struct run *r, struct pinfo *pi, long long range)
{
	struct sk_index_list l = { 0 };
	const char *pid;
	size_t i, j, n;

	if (pi->p->message_id && *pi->p->message_id) {
		char *id = sk_xstrdup(pi->p->message_id +
				      (pi->p->message_id[0] == '<'));

		if (*id && id[strlen(id) - 1] == '>')
			id[strlen(id) - 1] = '\0';
		sk_index_by_msgid(&l, r->o->idx, range, id);
		for (i = 0; i < l.nr; i++) {
			sk_strbuf_reset(&r->sb);
			sk_strbuf_addf(&r->sb, "Link:/Message-Id: <%s>", id);
			add_upstream(r, pi, &l.items[i], r->sb.buf);
		}
		free(id);
		sk_index_list_release(&l);
	}
	sk_index_by_subject(&l, r->o->idx, range, pi->norm);
	for (j = 0; j < pi->p->nr_fixlets; j++) {
		char *n = norm_dup(r, pi->p->fixlets[j].subject);

		sk_index_by_subject(&l, r->o->idx, range, n);
		free(n);
	}
	for (i = 0; i < l.nr; i++) {
		struct sk_index_commit *c = &l.items[i];
		int author = !strcmp(c->email, pi->email);

		pid = same_patchid(r, pi, c->oid);
		sk_strbuf_reset(&r->sb);
		if (pid)
			sk_strbuf_addf(&r->sb, "%s and subject", pid);
		else if (author)
			sk_strbuf_adds(&r->sb, "the same subject and author "
				       "(patch-id differs)");
		else
			sk_strbuf_addf(&r->sb, "the same subject (author %s, "
				       "patch-id differs)", c->email);
		add_upstream(r, pi, c, r->sb.buf);
	}
	sk_index_list_release(&l);
	if (pi->tp->nr_upstream || !*pi->email)
		return;
	sk_index_by_email(&l, r->o->idx, range, pi->email);
	for (i = l.nr, n = 0; i-- > 0 && n < AUTHOR_PATCHID_CAP;) {
		if (sk_subject_similarity(pi->tp->subject, l.items[i].subject) <
		    AUTHOR_SIMILARITY)
			continue;
		n++;
		if ((pid = same_patchid(r, pi, l.items[i].oid))) {
			sk_strbuf_reset(&r->sb);
			sk_strbuf_addf(&r->sb, "%s (subject differs)", pid);
			add_upstream(r, pi, &l.items[i], r->sb.buf);
		}
	}
	sk_index_list_release(&l);
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

static int series_author(struct run *r, size_t first, size_t end,
			 const char *email)
{
	size_t k;

	for (k = first; k < end; k++)
		if (!strcmp(r->pi[k].email, email))
			return 1;
	return 0;
}

/*
 * A series that landed changed: commits of the same author close to the
 * ones already matched, claimed by no patch, go to the patch whose files
 * they touch most (ties: the more similar subject).
 */
static void map_landing(struct run *r, size_t first, size_t end)
{
	struct sk_index *idx = r->o->idx;
	long long range = r->mainline->range, lo = 0, hi = 0;
	struct sk_index_list l = { 0 };
	size_t i, k;
	int any = 0, ok;

	for (k = first; k < end; k++) {
		struct sk_track_patch *tp = r->pi[k].tp;

		for (i = 0; i < tp->nr_upstream; i++) {
			struct sk_index_list one = { 0 };

			sk_index_by_prefix(&one, idx, range,
					   tp->upstream[i].commit);
			if (one.nr) {
				long long p = one.items[0].pos;

				lo = !any || p < lo ? p : lo;
				hi = !any || p > hi ? p : hi;
				any = 1;
			}
			sk_index_list_release(&one);
		}
	}
	/* Matches far apart: the series did not land in one piece. */
	if (!any || hi - lo > 2 * LANDING_WINDOW)
		return;
	/*
	 * Candidates: commits by the series' authors between the matched ones,
	 * and the unbroken runs of such commits just before and after them
	 * (a series is applied in one piece).
	 */
	sk_index_window(&l, idx, range, NULL, lo - LANDING_WINDOW,
			hi + LANDING_WINDOW);
	for (i = 0; i < l.nr; i++)
		l.items[i].kind = series_author(r, first, end, l.items[i].email);
	for (i = l.nr, ok = 1; i-- > 0;)
		if (l.items[i].pos < lo) {
			ok = ok && l.items[i].kind;
			l.items[i].kind = ok;
		}
	for (i = 0, ok = 1; i < l.nr; i++)
		if (l.items[i].pos > hi) {
			ok = ok && l.items[i].kind;
			l.items[i].kind = ok;
		}
	for (i = 0; i < l.nr; i++) {
		if (!l.items[i].kind)
			continue;
		{
		struct sk_index_commit *c = &l.items[i];
		struct pinfo *best = NULL;
		size_t best_n = 0, nr = 0;
		int best_sim = 0;
		char **files = NULL;

		if (is_claimed(r, c->oid) ||
		    sk_index_files(&files, &nr, idx, r->o->repo, c->oid))
			continue;
		for (k = first; k < end; k++) {
			size_t n = file_overlap(&r->pi[k], files, nr);
			int sim = sk_subject_similarity(r->pi[k].tp->subject,
							c->subject);

			if (n > best_n || (n && n == best_n && sim > best_sim)) {
				best = &r->pi[k];
				best_n = n;
				best_sim = sim;
			}
		}
		sk_index_files_free(files, nr);
		if (!best)
			continue;
		sk_strbuf_reset(&r->sb);
		sk_strbuf_addf(&r->sb, "landed with the series: same author, "
			       "within the landing range, touches %zu of the "
			       "patch's files (subject similarity %d%%)",
			       best_n, best_sim);
		{
			char *how = sk_strbuf_detach(&r->sb);

			add_upstream(r, best, c, how);
			free(how);
		}
		}
	}
	sk_index_list_release(&l);
}

static void map_upstream(struct run *r)
{
	size_t k = 0;

	if (!r->mainline || r->mainline->problem)
		return;
	for (k = 0; k < r->nr_pi; k++)
		map_direct(r, &r->pi[k], r->mainline->range);
	for (k = 0; k < r->nr_pi;) {
		size_t end = k;

		while (end < r->nr_pi && r->pi[end].s == r->pi[k].s)
			end++;
		map_landing(r, k, end);
		k = end;
	}
}

/* ---- per-branch checks ---- */

/* Is commit oid in branch tb: in its range, its base, or backported? */
static int contains(struct run *r, struct sk_track_branch *tb,
		    const char *oid, struct sk_track_cell *c, const char *what)
{
	struct sk_index_list l = { 0 };
	int yes = 0;

	if (sk_index_in_range(r->o->idx, tb->range, oid)) {
		cell_say(c, "%s %.12s is in %s", what, oid, tb->br->name);
		yes = 1;
	} else if (tb->base[0] &&
		   sk_index_is_ancestor(r->o->idx, r->o->repo, oid,
					tb->base) == 1) {
		cell_say(c, "%s %.12s is in the base %s", what, oid,
			 tb->br->base);
		yes = 1;
	} else if (!sk_index_by_upstream(&l, r->o->idx, tb->range, oid) &&
		   l.nr) {
		cell_say(c, "%s %.12s was backported as %.12s, which carries "
			 "\"%s\"", what, oid, l.items[0].oid,
			 sk_upref_kind_name(l.items[0].kind));
		cell_commit(c, l.items[0].oid);
		yes = 1;
	}
	sk_index_list_release(&l);
	return yes;
}

static int check_present(struct run *r, struct sk_track_branch *tb,
			 struct pinfo *pi, struct sk_track_cell *c)
{
	struct sk_track_patch *tp = pi->tp;
	struct sk_index_list l = { 0 };
	size_t i, found = 0;
	const char *pid;
	int direct = 0;

	for (i = 0; i < tp->nr_upstream; i++) {
		struct sk_track_cell tmp = { 0 };

		if (contains(r, tb, tp->upstream[i].commit, &tmp, "upstream")) {
			size_t j;

			found++;
			for (j = 0; j < tmp.nr_evidence; j++)
				*SK_ARRAY_PUSH(c->evidence, c->nr_evidence,
					       c->alloc_evidence) =
					tmp.evidence[j];
			for (j = 0; j < tmp.nr_commits; j++)
				*SK_ARRAY_PUSH(c->commits, c->nr_commits,
					       c->alloc_commits) =
					tmp.commits[j];
			free(tmp.evidence);
			free(tmp.commits);
		}
	}
	if (tp->nr_upstream && found == tp->nr_upstream)
		return 1;
	if (found)
		cell_say(c, "only %zu of its %zu upstream commits are in %s",
			 found, tp->nr_upstream, tb->br->name);
	/* A copy without an upstream line: same patch-id, or same subject. */
	sk_index_by_subject(&l, r->o->idx, tb->range, pi->norm);
	for (i = 0; i < l.nr && !direct; i++) {
		pid = same_patchid(r, pi, l.items[i].oid);
		if (pid || !strcmp(l.items[i].email, pi->email)) {
			cell_say(c, "%.12s in %s has %s", l.items[i].oid,
				 tb->br->name, pid ? pid :
				 "the same subject and author");
			cell_commit(c, l.items[i].oid);
			direct = 1;
		}
	}
	sk_index_list_release(&l);
	if (!direct && *pi->email &&
	    !sk_index_by_email(&l, r->o->idx, tb->range, pi->email)) {
		size_t n = 0;

		for (i = l.nr; i-- > 0 && n < AUTHOR_PATCHID_CAP && !direct;) {
			if (sk_subject_similarity(pi->tp->subject,
						  l.items[i].subject) <
			    AUTHOR_SIMILARITY)
				continue;
			n++;
			if ((pid = same_patchid(r, pi, l.items[i].oid))) {
				cell_say(c, "%.12s in %s has %s",
					 l.items[i].oid, tb->br->name, pid);
				cell_commit(c, l.items[i].oid);
				direct = 1;
			}
		}
		sk_index_list_release(&l);
	}
	return direct;
}

/* The queue entry that holds this patch, by name, subject or upstream id. */
static int check_queued(struct run *r, struct sk_track_branch *tb,
			struct pinfo *pi, struct sk_track_cell *c)
{
	const char *p = tb->queue.buf;
	struct sk_strbuf name = SK_STRBUF_INIT, text = SK_STRBUF_INIT;
	int found = 0;

	sk_track_queue_name(&name, pi->tp->subject);
	while (p && *p && !found) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *entry = sk_xstrndup(p, len), *e = entry, *path;

		p = eol ? eol + 1 : NULL;
		while (*e == ' ' || *e == '\t')
			e++;
		sk_strbuf_reset(&r->sb);
		sk_strbuf_adds(&r->sb, e);
		sk_strbuf_rtrim(&r->sb);
		if (!r->sb.len || r->sb.buf[0] == '#') {
			free(entry);
			continue;
		}
		free(entry);
		entry = sk_strbuf_detach(&r->sb);
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
		free(entry);
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
	f.kind = br->kind;
	f.major = br->major;
	f.minor = br->minor;
	if (br->kind == SK_BRANCH_MAINLINE && tb == r->mainline) {
		struct sk_track_patch *tp = pi->tp;

		f.present = tp->nr_upstream > 0;
		for (i = 0; i < tp->nr_upstream; i++) {
			cell_say(c, "merged as %.12s (\"%s\"): %s",
				 tp->upstream[i].commit, tp->upstream[i].subject,
				 tp->upstream[i].how);
			cell_commit(c, tp->upstream[i].commit);
		}
	} else {
		f.present = check_present(r, tb, pi, c);
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
	}
	c->state = sk_track_decide(&f, &why);
	if (why.len)
		cell_say_front(c, why.buf);
	sk_strbuf_release(&why);
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
 * A needed patch needs the earlier patches of its series that touch the
 * same files and are not in the branch already: they become needed too,
 * as Stable-dep-of.
 */
static void dependencies(struct run *r, size_t bi, size_t first, size_t end)
{
	size_t n, m;

	for (n = end; n-- > first;) {
		struct sk_track_cell *cn = &r->pi[n].tp->cells[bi];

		if (cn->state != SK_STATE_NEEDED)
			continue;
		for (m = first; m < n; m++) {
			struct sk_track_cell *cm = &r->pi[m].tp->cells[bi];

			if (cm->state == SK_STATE_PRESENT ||
			    cm->state == SK_STATE_QUEUED ||
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
	size_t i, k;
	int ret;

	r.o = o;
	r.t = t;
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
	for (k = 0; k < r.nr_pi; k++)
		for (i = 0; i < r.pi[k].nr_fixes; i++)
			resolve_fix(&r, &r.pi[k].fixes[i]);
	map_upstream(&r);
	for (i = 0; i < t->nr_branches; i++) {
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
	sk_error_clear();
out:
	for (k = 0; k < r.nr_pi; k++)
		pinfo_release(&r.pi[k]);
	free(r.pi);
	for (i = 0; i < r.nr_series; i++)
		sk_series_free(r.series[i]);
	free(r.series);
	for (i = 0; i < r.nr_claimed; i++)
		free(r.claimed[i]);
	free(r.claimed);
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
		free(tp->cells);
		free(tp->slug);
		free(tp->subject);
		free(tp->author);
	}
	for (i = 0; i < t->nr_branches; i++) {
		free(t->branches[i].problem);
		sk_strbuf_release(&t->branches[i].queue);
	}
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

		for (i = 0; i < t->nr_patches; i++)
			if (t->patches[i].nr == nr &&
			    strlen(t->patches[i].slug) == (size_t)(colon - spec) &&
			    !strncmp(t->patches[i].slug, spec, colon - spec)) {
				*out = &t->patches[i];
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

#include "port/port-commits.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/patchid.h"
#include "core/strbuf.h"
#include "mail/mbox.h"
#include "mail/series.h"
#include "mail/trailers.h"
#include "project/repo.h"
#include "track/track.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct given {
	char hex[41];
	git_commit *c;
	const char *needed_by;
};

/* "Tue, 14 Nov 2023 22:13:20 +0100", as git format-patch dates a mail. */
static char *mail_date(const git_time *t)
{
	time_t tt = (time_t)t->time + (time_t)t->offset * 60;
	int off = t->offset < 0 ? -t->offset : t->offset;
	struct tm tm;
	char buf[64];

	if (!gmtime_r(&tt, &tm) ||
	    !strftime(buf, sizeof(buf), "%a, %d %b %Y %H:%M:%S", &tm))
		return sk_xstrdup("Thu, 1 Jan 1970 00:00:00 +0000");
	return sk_xstrfmt("%s %c%02d%02d", buf, t->offset < 0 ? '-' : '+',
			  off / 60, off % 60);
}

static void add_header(struct sk_mail *m, const char *name, const char *value)
{
	struct sk_header *h = SK_ARRAY_PUSH(m->headers, m->nr_headers,
					    m->alloc_headers);

	h->name = sk_xstrdup(name);
	h->value = sk_xstrdup(value);
}

static void mail_release(struct sk_mail *m)
{
	size_t i;

	for (i = 0; i < m->nr_headers; i++) {
		free(m->headers[i].name);
		free(m->headers[i].value);
	}
	free(m->headers);
	free(m->body);
}

static int files_cb(const git_diff_delta *d, float progress, void *payload)
{
	struct sk_series_patch *sp = payload;
	const char *paths[2] = { d->old_file.path, d->new_file.path };
	size_t i, j;

	(void)progress;
	for (i = 0; i < 2; i++) {
		if ((i == 0 && d->status == GIT_DELTA_ADDED) ||
		    (i == 1 && d->status == GIT_DELTA_DELETED))
			continue;
		for (j = 0; j < sp->nr_files; j++)
			if (!strcmp(sp->files[j], paths[i]))
				break;
		if (j < sp->nr_files)
			continue;
		sp->files = sk_xrealloc(sp->files,
					(sp->nr_files + 1) * sizeof(char *));
		sp->files[sp->nr_files++] = sk_xstrdup(paths[i]);
	}
	return 0;
}

/* Commit g as patch nr of total: into the mbox, and its series entry. */
static int as_patch(struct sk_strbuf *mbox, struct sk_series_patch *sp,
		    git_repository *repo, const struct given *g, int nr,
		    int total)
{
	const git_signature *a = git_commit_author(g->c);
	const char *summary = git_commit_summary(g->c);
	const char *body = git_commit_body(g->c);
	git_diff *diff = NULL;
	git_buf buf = { 0 };
	struct sk_mail m = { 0 };
	struct sk_strbuf text = SK_STRBUF_INIT;
	char *subject, *msgid;
	size_t alloc = 0;
	int ret;

	memset(sp, 0, sizeof(*sp));
	sp->nr = nr;
	sp->subject = sk_xstrdup(summary ? summary : "");
	sp->author = sk_xstrfmt("%s <%s>", a->name, a->email);
	sp->date = mail_date(&a->when);
	sp->message_id = sk_xstrfmt("upstream-%s@stablekit", g->hex);
	sp->upstream = sk_xstrdup(g->hex);
	sk_trailers_parse(&sp->trailers, &sp->nr_trailers, &alloc,
			  git_commit_message(g->c) ? git_commit_message(g->c) : "");
	ret = sk_patchid_commit_diff(&diff, repo, g->c);
	if (!ret && (git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH) ||
		     git_diff_foreach(diff, files_cb, NULL, NULL, NULL, sp)))
		ret = sk_error_git(SK_ERROR, g->hex);
	if (!ret)
		ret = sk_patchid_text(sp->patch_id, buf.ptr, buf.size);
	if (!ret && !buf.size)
		ret = sk_error_set(SK_EINVALID, "commit %s changes nothing",
				   g->hex);
	if (ret)
		goto out;
	subject = total > 1 ? sk_xstrfmt("[PATCH %d/%d] %s", nr, total,
					 sp->subject) :
			      sk_xstrfmt("[PATCH] %s", sp->subject);
	add_header(&m, "From", sp->author);
	add_header(&m, "Date", sp->date);
	add_header(&m, "Subject", subject);
	msgid = sk_xstrfmt("<%s>", sp->message_id);
	add_header(&m, "Message-Id", msgid);
	free(msgid);
	free(subject);
	if (body)
		sk_strbuf_adds(&text, body);
	sk_strbuf_rtrim(&text);
	sk_strbuf_adds(&text, "\n---\n");
	sk_strbuf_add(&text, buf.ptr, buf.size);
	m.body = sk_strbuf_detach(&text);
	sk_mbox_format_mail(mbox, &m);
out:
	mail_release(&m);
	git_buf_dispose(&buf);
	git_diff_free(diff);
	return ret;
}

/* Mainline order: an ancestor first, else the older commit first. */
static int before(git_repository *repo, const struct given *x,
		  const struct given *y)
{
	if (git_graph_descendant_of(repo, git_commit_id(y->c),
				    git_commit_id(x->c)) == 1)
		return 1;
	if (git_graph_descendant_of(repo, git_commit_id(x->c),
				    git_commit_id(y->c)) == 1)
		return 0;
	return git_commit_time(x->c) < git_commit_time(y->c);
}

static int resolve_all(struct given *g, const struct sk_port_commits_opts *o)
{
	size_t i, j;

	for (i = 0; i < o->nr; i++) {
		git_oid id;

		if (sk_repo_resolve_commit(&id, o->repo, o->commits[i]) ||
		    git_commit_lookup(&g[i].c, o->repo, &id))
			return sk_error_set(SK_ENOTFOUND, "'%s' is not a commit "
					    "of the repository", o->commits[i]);
		git_oid_tostr(g[i].hex, sizeof(g[i].hex), &id);
		g[i].needed_by = o->needed_by ? o->needed_by[i] : NULL;
		if (git_commit_parentcount(g[i].c) > 1)
			return sk_error_set(SK_EINVALID, "'%s' (%.12s) is a "
					    "merge: port its commits",
					    o->commits[i], g[i].hex);
		for (j = 0; j < i; j++)
			if (!strcmp(g[j].hex, g[i].hex))
				return sk_error_set(SK_EINVALID, "'%s' (%.12s) "
						    "is given twice",
						    o->commits[i], g[i].hex);
	}
	/* a prerequisite of a commit not given is asked for itself */
	for (i = 0; i < o->nr; i++) {
		for (j = 0; g[i].needed_by && j < o->nr; j++)
			if (!strcmp(g[j].hex, g[i].needed_by))
				break;
		if (j == o->nr)
			g[i].needed_by = NULL;
	}
	/* insertion sort: a handful of commits, a partial order */
	for (i = 1; i < o->nr; i++)
		for (j = i; j > 0 && before(o->repo, &g[j], &g[j - 1]); j--) {
			struct given t = g[j];

			g[j] = g[j - 1];
			g[j - 1] = t;
		}
	sk_error_clear();
	return 0;
}

static struct sk_track *one_branch_track(const struct sk_branch *br,
					 const char *tip,
					 const struct sk_series *s,
					 const struct given *g)
{
	struct sk_track *t = sk_xcalloc(1, sizeof(*t));
	const struct sk_revision *rev = &s->revs[0];
	size_t i;

	t->branches = sk_xcalloc(1, sizeof(*t->branches));
	t->nr_branches = 1;
	t->branches[0].br = br;
	memcpy(t->branches[0].tip, tip, 41);
	t->patches = sk_xcalloc(rev->nr_patches ? rev->nr_patches : 1,
				sizeof(*t->patches));
	t->nr_patches = t->alloc_patches = rev->nr_patches;
	for (i = 0; i < rev->nr_patches; i++) {
		const struct sk_series_patch *sp = &rev->patches[i];
		struct sk_track_patch *tp = &t->patches[i];
		struct sk_track_cell *c;
		struct sk_track_upstream *u;

		tp->slug = sk_xstrdup(s->slug);
		tp->version = rev->version;
		tp->nr = sp->nr;
		tp->subject = sk_xstrdup(sp->subject);
		tp->author = sk_xstrdup(sp->author);
		tp->cells = sk_xcalloc(1, sizeof(*tp->cells));
		c = &tp->cells[0];
		c->state = g[i].needed_by ? SK_STATE_NOT_ELIGIBLE :
			   SK_STATE_NEEDED;
		*SK_ARRAY_PUSH(c->evidence, c->nr_evidence, c->alloc_evidence) =
			g[i].needed_by ?
			sk_xstrfmt("upstream commit %s, a prerequisite of %s",
				   sp->upstream, g[i].needed_by) :
			sk_xstrfmt("upstream commit %s, asked for by sha",
				   sp->upstream);
		u = SK_ARRAY_PUSH(tp->upstream, tp->nr_upstream,
				  tp->alloc_upstream);
		memset(u, 0, sizeof(*u));
		memcpy(u->commit, sp->upstream, 41);
		u->subject = sk_xstrdup(sp->subject);
		u->how = sk_xstrdup("the commit itself");
		u->proof = SK_PROOF_PATCHID;
	}
	/* a prerequisite is a dependency of the commit that needs it */
	for (i = 0; i < rev->nr_patches; i++) {
		size_t j;

		for (j = 0; g[i].needed_by && j < rev->nr_patches; j++) {
			struct sk_track_cell *c = &t->patches[j].cells[0];

			if (strcmp(g[j].hex, g[i].needed_by))
				continue;
			*SK_ARRAY_PUSH(c->deps, c->nr_deps, c->alloc_deps) =
				rev->patches[i].nr;
		}
	}
	return t;
}

int sk_port_commits(struct sk_port_result *out,
		    const struct sk_port_commits_opts *o)
{
	const struct sk_branch *br;
	struct given *g = sk_xcalloc(o->nr ? o->nr : 1, sizeof(*g));
	struct sk_series *s = NULL;
	struct sk_revision *rev;
	struct sk_track *t = NULL;
	struct sk_port_opts po = { 0 };
	struct sk_strbuf mbox = SK_STRBUF_INIT;
	git_repository *brepo = NULL;
	char *tmp = NULL, *brepo_path = NULL, *path;
	char tip[41];
	git_oid tid;
	size_t i;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	br = sk_branches_find((struct sk_branches *)o->branches, o->branch);
	if (!br) {
		ret = sk_error_set(SK_ENOTFOUND, "no branch '%s' in %s",
				   o->branch, o->branches->path);
		goto out;
	}
	if (!o->nr) {
		ret = sk_error_set(SK_EINVALID, "no commit to port");
		goto out;
	}
	ret = resolve_all(g, o);
	if (!ret && br->repo)
		ret = sk_repo_open_branch(&brepo, &brepo_path, o->top, NULL,
					  o->branches, br);
	if (!ret && sk_repo_resolve_commit(&tid, brepo ? brepo : o->repo,
					   br->ref))
		ret = sk_error_set(SK_ENOTFOUND, "branch '%s': ref '%s' is not "
				   "in its repository", br->name, br->ref);
	if (ret)
		goto out;
	git_oid_tostr(tip, sizeof(tip), &tid);
	ret = sk_mkdtemp_in(&tmp, sk_tmp_dir(), "port-commits");
	if (ret)
		goto out;
	s = sk_xcalloc(1, sizeof(*s));
	s->slug = sk_xstrdup(SK_PORT_COMMITS_SLUG);
	s->dir = sk_xstrdup(tmp);
	s->subject = sk_xstrfmt("upstream commits for %s", br->name);
	s->author = sk_xstrdup("");
	s->kind = sk_xstrdup("series");
	s->revs = sk_xcalloc(1, sizeof(*s->revs));
	s->nr_revs = 1;
	rev = &s->revs[0];
	rev->version = 1;
	rev->posted = 1;
	rev->label = sk_xstrdup("v1");
	rev->mbox = sk_xstrdup("v1.mbx");
	rev->patches = sk_xcalloc(o->nr, sizeof(*rev->patches));
	for (i = 0; !ret && i < o->nr; i++) {
		ret = as_patch(&mbox, &rev->patches[i], o->repo, &g[i],
			       (int)i + 1, (int)o->nr);
		rev->nr_patches = i + 1;
	}
	if (ret)
		goto out;
	rev->message_id = sk_xstrdup(rev->patches[0].message_id);
	rev->date = sk_xstrdup(rev->patches[0].date);
	path = sk_path_join(tmp, rev->mbox);
	ret = sk_write_file_atomic(path, mbox.buf, mbox.len);
	free(path);
	if (ret)
		goto out;
	t = one_branch_track(br, tip, s, g);
	po.top = o->top;
	po.repo = o->repo;
	po.track = t;
	po.branch = 0;
	po.slug = SK_PORT_COMMITS_SLUG;
	po.signoff = o->signoff;
	po.bracket_style = o->bracket_style;
	po.timeout_ms = o->timeout_ms;
	po.keep = o->keep;
	po.series = s;
	ret = sk_port(out, &po);
out:
	for (i = 0; i < o->nr; i++)
		git_commit_free(g[i].c);
	free(g);
	sk_track_free(t);
	sk_series_free(s);
	sk_strbuf_release(&mbox);
	git_repository_free(brepo);
	free(brepo_path);
	if (tmp)
		sk_rmrf(tmp);
	free(tmp);
	return ret;
}

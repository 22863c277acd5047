#include "track/scan.h"
#include "core/error.h"
#include "core/parallel.h"
#include "core/fsutil.h"
#include "core/patchid.h"
#include "core/strbuf.h"
#include "core/treediff.h"
#include "mail/trailers.h"
#include "project/repo.h"
#include "track/commitfacts.h"
#include "track/index.h"
#include "track/track.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const state_names[] = {
	[SK_SCAN_NEW] = "new",
	[SK_SCAN_PRESENT] = "present",
	[SK_SCAN_REVERTED_UPSTREAM] = "reverted upstream",
	[SK_SCAN_REVERTED_HERE] = "reverted here",
};

const char *sk_scan_state_name(enum sk_scan_state s)
{
	return s < SK_SCAN_NR ? state_names[s] : "?";
}

/* ---- the pure parts ---- */

/* "3.3.x: a1f84a3: sched: Check for idle": the sha after the version. */
static void note_needs(struct sk_scan_msg *out, const char *note)
{
	const char *p = strchr(note, ':');
	size_t n = 0;

	if (!p)
		return;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	while (n < 41 && isxdigit((unsigned char)p[n]))
		n++;
	if (n >= 7 && n <= 40 && (!p[n] || p[n] == ':' || p[n] == ' ')) {
		char *d = *SK_ARRAY_PUSH(out->needs, out->nr_needs,
					 out->alloc_needs);
		size_t i;

		for (i = 0; i < n; i++)
			d[i] = tolower((unsigned char)p[i]);
		d[n] = '\0';
	}
}

int sk_scan_msg_parse(struct sk_scan_msg *out, const char *msg)
{
	const char *l = msg;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = sk_commit_facts_parse(&out->facts, msg);
	if (ret)
		return ret;
	while (l && *l) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		while (len && (*l == ' ' || *l == '\t')) {
			l++;
			len--;
		}
		if (len > 3 && !strncasecmp(l, "Cc:", 3)) {
			char *v = sk_xstrndup(l + 3, len - 3);
			struct sk_cc_stable cc;

			if (sk_cc_is_stable(&cc, v)) {
				/* the lowest bound of several: the widest */
				if (!out->cc_stable ||
				    (out->cc_major && (!cc.min_major ||
				     sk_version_cmp(cc.min_major, cc.min_minor,
						    out->cc_major,
						    out->cc_minor) < 0))) {
					out->cc_major = cc.min_major;
					out->cc_minor = cc.min_minor;
				}
				out->cc_stable = 1;
				if (cc.note)
					note_needs(out, cc.note);
				sk_cc_stable_release(&cc);
			}
			free(v);
		}
		l = nl ? nl + 1 : NULL;
	}
	return 0;
}

void sk_scan_msg_release(struct sk_scan_msg *m)
{
	sk_commit_facts_release(&m->facts);
	free(m->needs);
	memset(m, 0, sizeof(*m));
}

static int spans_meet(long a, long alen, long b, long blen)
{
	if (alen < 1)
		alen = 1;
	if (blen < 1)
		blen = 1;
	return a < b + blen && b < a + alen;
}

int sk_scan_lines_overlap(const struct sk_scan_file *later,
			  const struct sk_scan_file *earlier)
{
	size_t i, j;

	if (!later->old_path || !earlier->new_path ||
	    strcmp(later->old_path, earlier->new_path))
		return 0;
	for (i = 0; i < later->nr_hunks; i++)
		for (j = 0; j < earlier->nr_hunks; j++)
			if (spans_meet(later->hunks[i].old_start,
				       later->hunks[i].old_lines,
				       earlier->hunks[j].new_start,
				       earlier->hunks[j].new_lines))
				return 1;
	return 0;
}

/* ---- one scan ---- */

/* The raw commits the walk read are kept in blocks of this size. */
#define SEEN_BLOCK ((size_t)1 << 20)

/* A commit the walk read, kept for its message. */
struct seen {
	git_oid oid;
	size_t block, at, len;
};

/* A mainline commit since the base. */
struct mrec {
	git_oid id;
	char oid[41];
	char *subject;
	char *author;
	int merge;
	git_oid tree, parent;	/* its tree, its first parent */
	int root;		/* no parent */
	git_oid ptree;		/* the first parent's tree, when known */
	int ptree_known;
	struct sk_scan_msg msg;
	long reverted_by;	/* index of the live revert, -1 */
	long reverts;		/* index of the commit it reverts, -1 */
	long item;		/* index in s->items, -1 */
	size_t *fixed_by;	/* indexes of later commits that fix it */
	size_t nr_fixed_by, alloc_fixed_by;
	char patchid[41];
	int pid_done;
	struct sk_scan_file *files;	/* NEW items only, once read */
	size_t nr_files;
	int files_done;
};

struct pid_entry {
	char pid[41];
	char oid[41];
};

struct branch_revert {
	char revert[41];
	char target[41];
};

struct scanrun {
	const struct sk_scan_opts *o;
	struct sk_scan *s;
	struct sk_branches branches;
	const struct sk_branch *br;
	git_repository *repo;
	struct sk_index *idx;
	long long range;
	git_tree *branch_tree;
	git_tree *dir_tree;	/* the branch's directory branch_has read last */
	char *dir_path;
	int base_unverified;	/* the walk hides it: is it an ancestor? */
	int not_ancestor;	/* since is not an ancestor of the tip */
	struct seen *seen;	/* the commits the walk read */
	size_t nr_seen, alloc_seen;
	struct sk_strbuf *seen_text;	/* their raw objects, in blocks */
	size_t nr_text, alloc_text;
	struct mrec *m;
	size_t nr_m, alloc_m;
	size_t *by_oid;		/* indexes of m sorted by oid */
	struct pid_entry *pids;	/* the branch's patch-ids, sorted */
	size_t nr_pids, alloc_pids;
	int pids_done;
	struct branch_revert *brevs;
	size_t nr_brevs, alloc_brevs;
	struct sk_index_upref *ups;	/* the branch's references, by sha */
	size_t nr_ups;
	char up_len[GIT_OID_HEXSZ + 1];	/* the lengths they are written in */
	long long *naming;	/* the rows of its commits naming an upstream */
	size_t nr_naming;	/* (sorted, each once) */
	struct sk_strbuf sb;
};

static void say(char ***arr, size_t *nr, size_t *alloc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void say(char ***arr, size_t *nr, size_t *alloc, const char *fmt, ...)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sk_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	*SK_ARRAY_PUSH(*arr, *nr, *alloc) = sk_strbuf_detach(&sb);
}

static void add_prereq(struct sk_scan_item *it, const char *commit,
		       const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add_prereq(struct sk_scan_item *it, const char *commit,
		       const char *fmt, ...)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	struct sk_scan_prereq *p;
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	sk_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	for (i = 0; *commit && i < it->nr_prereqs; i++)
		if (!strcmp(it->prereqs[i].commit, commit)) {
			sk_strbuf_release(&sb);
			return;
		}
	p = SK_ARRAY_PUSH(it->prereqs, it->nr_prereqs, it->alloc_prereqs);
	snprintf(p->commit, sizeof(p->commit), "%s", commit);
	p->why = sk_strbuf_detach(&sb);
}

/* A commit's id and where it is in m: sorted as they are, no lookups. */
struct keyed {
	git_oid id;
	size_t i;
};

/* By id: the order of their hex digits too (find_mainline's). */
static int keyed_cmp(const void *a, const void *b)
{
	return git_oid_cmp(&((const struct keyed *)a)->id,
			   &((const struct keyed *)b)->id);
}

static void sort_by_oid(struct scanrun *r)
{
	struct keyed *k = sk_xcalloc(r->nr_m + 1, sizeof(*k));
	size_t i;

	for (i = 0; i < r->nr_m; i++) {
		git_oid_cpy(&k[i].id, &r->m[i].id);
		k[i].i = i;
	}
	if (r->nr_m > 1)
		qsort(k, r->nr_m, sizeof(*k), keyed_cmp);
	r->by_oid = sk_xcalloc(r->nr_m + 1, sizeof(size_t));
	for (i = 0; i < r->nr_m; i++)
		r->by_oid[i] = k[i].i;
	free(k);
}

/* The mainline commit whose id starts with hex (7 to 40 digits), or -1. */
static long find_mainline(struct scanrun *r, const char *hex)
{
	size_t len = strlen(hex), lo = 0, hi = r->nr_m;
	long hit = -1;

	if (len < 7 || len > 40)
		return -1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strncmp(r->m[r->by_oid[mid]].oid, hex, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->nr_m && !strncmp(r->m[r->by_oid[lo]].oid, hex, len)) {
		hit = (long)r->by_oid[lo];
		/* ambiguous within the range: not this way */
		if (lo + 1 < r->nr_m &&
		    !strncmp(r->m[r->by_oid[lo + 1]].oid, hex, len))
			hit = -1;
	}
	return hit;
}

/* Its message facts, subject, author and parents from its raw object. */
static int parse_mainline(struct mrec *mr, const char *data, size_t len)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	struct sk_commit_raw raw;
	const char *msg;
	char *text;
	int ret;

	if (sk_commit_raw_parse(&raw, data, len))
		return sk_error_set(SK_ERROR, "%s: not a well-formed commit",
				    mr->oid);
	text = sk_xstrndup(raw.message, raw.message_len);
	/* git_commit_message(): leading newlines dropped */
	for (msg = text; *msg == '\n'; msg++)
		;
	sk_commit_summary(&sb, msg);
	mr->subject = sk_strbuf_detach(&sb);
	mr->author = sk_xstrfmt("%.*s <%.*s>", (int)raw.name_len,
				raw.name ? raw.name : "", (int)raw.email_len,
				raw.email ? raw.email : "");
	mr->merge = raw.nr_parents > 1;
	mr->root = !raw.nr_parents;
	if (len < 5 + GIT_OID_HEXSZ || memcmp(data, "tree ", 5) ||
	    git_oid_fromstrn(&mr->tree, data + 5, GIT_OID_HEXSZ) ||
	    (raw.nr_parents &&
	     git_oid_fromstrn(&mr->parent, raw.parents, GIT_OID_HEXSZ))) {
		free(text);
		return sk_error_set(SK_ERROR, "%s: not a well-formed commit",
				    mr->oid);
	}
	ret = sk_scan_msg_parse(&mr->msg, msg);
	free(text);
	return ret;
}

/*
 * A mainline commit the walk did not show, read through repo (one
 * thread's own) as its raw object: a git_commit would parse (and the
 * repository cache) what the scan never reads.
 */
static int read_mainline(void *ctx, git_repository *repo, size_t i)
{
	struct mrec **todo = ctx;
	struct mrec *mr = todo[i];
	git_odb_object *obj = NULL;
	git_odb *odb = NULL;
	int ret;

	if (git_repository_odb(&odb, repo) || git_odb_read(&obj, odb, &mr->id))
		ret = sk_error_git(SK_ERROR, mr->oid);
	else if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT)
		ret = sk_error_set(SK_ERROR, "%s: not a well-formed commit",
				   mr->oid);
	else
		ret = parse_mainline(mr, git_odb_object_data(obj),
				     git_odb_object_size(obj));
	git_odb_object_free(obj);
	git_odb_free(odb);
	return ret;
}

/* A commit the walk reads, kept: its message is parsed from it later. */
static void keep_read(void *ctx, const git_oid *oid, const char *raw, size_t len)
{
	struct scanrun *r = ctx;
	struct sk_strbuf *b = r->nr_text ? &r->seen_text[r->nr_text - 1] : NULL;
	struct seen *sn;

	if (!b || b->len + len > SEEN_BLOCK) {
		b = SK_ARRAY_PUSH(r->seen_text, r->nr_text, r->alloc_text);
		sk_strbuf_init(b);
		sk_strbuf_grow(b, len > SEEN_BLOCK ? len : SEEN_BLOCK);
	}
	sn = SK_ARRAY_PUSH(r->seen, r->nr_seen, r->alloc_seen);
	git_oid_cpy(&sn->oid, oid);
	sn->block = r->nr_text - 1;
	sn->at = b->len;
	sn->len = len;
	sk_strbuf_add(b, raw, len);
}

/*
 * The commits seen, by id: an open-addressed table of indexes into seen
 * (plus one; 0 is empty), twice their number rounded up to a power of 2.
 */
static size_t *seen_table(const struct scanrun *r, size_t *mask)
{
	size_t size = 16, i, *t;

	while (size < 2 * r->nr_seen)
		size *= 2;
	t = sk_xcalloc(size, sizeof(*t));
	*mask = size - 1;
	for (i = 0; i < r->nr_seen; i++) {
		size_t h;

		memcpy(&h, r->seen[i].oid.id, sizeof(h));
		for (h &= *mask; t[h]; h = (h + 1) & *mask)
			;
		t[h] = i + 1;
	}
	return t;
}

static const struct seen *seen_find(const struct scanrun *r, const size_t *t,
				    size_t mask, const git_oid *oid)
{
	size_t h;

	memcpy(&h, oid->id, sizeof(h));
	for (h &= mask; t[h]; h = (h + 1) & mask)
		if (git_oid_equal(&r->seen[t[h] - 1].oid, oid))
			return &r->seen[t[h] - 1];
	return NULL;
}

static void seen_release(struct scanrun *r)
{
	size_t i;

	for (i = 0; i < r->nr_text; i++)
		sk_strbuf_release(&r->seen_text[i]);
	free(r->seen_text);
	free(r->seen);
	r->seen_text = NULL;
	r->seen = NULL;
	r->nr_text = r->alloc_text = r->nr_seen = r->alloc_seen = 0;
}

static void mrec_push(struct scanrun *r, const git_oid *id)
{
	struct mrec *mr = SK_ARRAY_PUSH(r->m, r->nr_m, r->alloc_m);

	memset(mr, 0, sizeof(*mr));
	git_oid_cpy(&mr->id, id);
	git_oid_tostr(mr->oid, sizeof(mr->oid), id);
	mr->reverted_by = mr->reverts = mr->item = -1;
}

/*
 * The range in mainline order from the index's walk, which reads each
 * commit once (libgit2's sorted walk reads and parses them, and the
 * messages would be read again).  Sets not_ancestor, and reads nothing
 * more, when since is not an ancestor of tip.
 */
static int order_from_index(struct scanrun *r, const git_oid *tip,
			    const git_oid *since)
{
	git_oid *order = NULL;
	size_t nr = 0, i;
	int ret = sk_index_walk_commits(&order, &nr, r->idx, r->repo, tip,
					since, keep_read, r);

	if (ret == SK_EINVALID) {
		sk_error_clear();
		r->not_ancestor = 1;
		return 0;
	}
	for (i = 0; !ret && i < nr; i++)
		mrec_push(r, &order[i]);
	free(order);
	return ret;
}

/* The same from libgit2's walk, when since is not an ancestor (--since). */
static int order_from_revwalk(struct scanrun *r, const git_oid *tip,
			      const git_oid *since)
{
	git_revwalk *w = NULL;
	git_oid id;
	int ret = 0, err;

	if (git_revwalk_new(&w, r->repo) ||
	    git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) ||
	    git_revwalk_push(w, tip) || git_revwalk_hide(w, since)) {
		ret = sk_error_git(SK_ERROR, "mainline walk");
		goto out;
	}
	while (!(err = git_revwalk_next(&id, w)))
		mrec_push(r, &id);
	if (err != GIT_ITEROVER)
		ret = sk_error_git(SK_ERROR, "mainline walk");
out:
	git_revwalk_free(w);
	return ret;
}

struct parse_job {
	struct scanrun *r;
	const struct seen **raw;	/* each mrec's, or NULL */
};

static int parse_one(void *ctx, size_t i)
{
	struct parse_job *j = ctx;
	const struct seen *sn = j->raw[i];

	if (!sn)
		return 0;
	return parse_mainline(&j->r->m[i], j->r->seen_text[sn->block].buf +
			      sn->at, sn->len);
}

/*
 * Each commit's message: parsed from what the walk read, over the cores;
 * the rest (all of them after libgit2's walk) read again, over the cores.
 */
static int read_messages(struct scanrun *r)
{
	struct parse_job j = { r, sk_xcalloc(r->nr_m + 1, sizeof(*j.raw)) };
	struct mrec **todo = NULL;
	size_t nr_todo = 0, alloc_todo = 0, i, mask;
	size_t *table = seen_table(r, &mask);
	int ret;

	for (i = 0; i < r->nr_m; i++) {
		j.raw[i] = seen_find(r, table, mask, &r->m[i].id);
		if (!j.raw[i])
			*SK_ARRAY_PUSH(todo, nr_todo, alloc_todo) = &r->m[i];
	}
	free(table);
	ret = sk_parallel_for(r->nr_m, 0, parse_one, &j);
	if (!ret)
		ret = sk_parallel_repo_for(r->repo, nr_todo, 0, read_mainline,
					   todo);
	free(j.raw);
	free(todo);
	return ret;
}

/*
 * The range in mainline order, then each commit's message.  A base that
 * is not an ancestor of the tip leaves the range empty, for the caller
 * to start from the merge-base instead.
 */
static int walk_mainline(struct scanrun *r, const git_oid *tip,
			 const git_oid *since)
{
	int ret;

	r->not_ancestor = 0;
	ret = order_from_index(r, tip, since);
	if (!ret && r->not_ancestor && !r->base_unverified)
		ret = order_from_revwalk(r, tip, since);
	if (!ret && !(r->not_ancestor && r->base_unverified))
		ret = read_messages(r);
	seen_release(r);
	r->s->walked = r->nr_m;
	if (!ret)
		sort_by_oid(r);
	return ret;
}

/* The mainline commit with this id, or -1. */
static long find_mainline_id(struct scanrun *r, const git_oid *id)
{
	size_t lo = 0, hi = r->nr_m;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = git_oid_cmp(&r->m[r->by_oid[mid]].id, id);

		if (!c)
			return (long)r->by_oid[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Reverts (a revert of a revert lands it again) and Fixes: within mainline. */
static void link_mainline(struct scanrun *r)
{
	size_t i, j;

	for (i = 0; i < r->nr_m; i++) {
		struct mrec *mr = &r->m[i];
		const struct sk_commit_facts *f = &mr->msg.facts;

		for (j = 0; j < f->nr_uprefs; j++) {
			long t;

			if (f->uprefs[j].kind != SK_UPREF_REVERT)
				continue;
			t = find_mainline(r, f->uprefs[j].sha);
			if (t < 0 || (size_t)t >= i)
				continue;
			mr->reverts = t;
			r->m[t].reverted_by = (long)i;
			/* reverting a revert: what it reverted is back */
			if (r->m[t].reverts >= 0 &&
			    r->m[r->m[t].reverts].reverted_by == t)
				r->m[r->m[t].reverts].reverted_by = -1;
			break;
		}
		for (j = 0; j < f->nr_fixes; j++) {
			long t = find_mainline(r, f->fixes[j].sha);
			struct mrec *tm;

			if (t < 0 || (size_t)t >= i)
				continue;
			tm = &r->m[t];
			*SK_ARRAY_PUSH(tm->fixed_by, tm->nr_fixed_by,
				       tm->alloc_fixed_by) = i;
		}
	}
}

static int commit_patchid(char out[41], struct scanrun *r, const char *hex)
{
	git_commit *c = NULL;
	git_oid id;
	int ret;

	if (git_oid_fromstr(&id, hex) || git_commit_lookup(&c, r->repo, &id))
		return sk_error_git(SK_ERROR, hex);
	ret = sk_patchid_commit(out, r->repo, c);
	git_commit_free(c);
	return ret;
}

static int read_diff(git_repository *repo, struct mrec *mr, int want_pid);

/* Its patch-id, from the diff that also gives its lines when not read yet. */
static const char *mainline_patchid(struct scanrun *r, struct mrec *mr)
{
	int ret;

	if (mr->pid_done)
		return mr->patchid;
	ret = mr->files_done ? commit_patchid(mr->patchid, r, mr->oid) :
	      read_diff(r->repo, mr, 1);
	mr->pid_done = 1;
	if (ret) {
		mr->patchid[0] = '\0';
		sk_error_clear();
	}
	return mr->patchid;
}

static int pid_cmp(const void *a, const void *b)
{
	const struct pid_entry *x = a, *y = b;
	int c = strcmp(x->pid, y->pid);

	return c ? c : 0;
}

/*
 * A backport that names its upstream commit ("commit X upstream.", -x) is
 * found by that reference: its patch-id, which costs a diff, is not needed.
 */
static int id_cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static int upref_cmp(const void *a, const void *b)
{
	const struct sk_index_upref *x = a, *y = b;
	int c = strcmp(x->upstream, y->upstream);

	return c ? c : x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * The branch's upstream references, read once and sorted by the sha they
 * name (a query per candidate costs more than the whole table), and the
 * commits that name an upstream commit (a copy, not a revert).
 */
static int branch_uprefs(struct scanrun *r)
{
	size_t i, alloc = 0;
	int ret = sk_index_range_uprefs(&r->ups, &r->nr_ups, r->idx, r->range);

	for (i = 0; !ret && i < r->nr_ups; i++) {
		size_t len = strlen(r->ups[i].upstream);

		if (len <= GIT_OID_HEXSZ)
			r->up_len[len] = 1;
		if (SK_UPREF_IS_COPY(r->ups[i].kind))
			*SK_ARRAY_PUSH(r->naming, r->nr_naming, alloc) =
				r->ups[i].id;
	}
	if (r->nr_ups > 1)
		qsort(r->ups, r->nr_ups, sizeof(*r->ups), upref_cmp);
	if (r->nr_naming > 1)
		qsort(r->naming, r->nr_naming, sizeof(*r->naming), id_cmp);
	/* each once */
	for (i = 0, alloc = 0; i < r->nr_naming; i++)
		if (!alloc || r->naming[alloc - 1] != r->naming[i])
			r->naming[alloc++] = r->naming[i];
	r->nr_naming = alloc;
	return ret;
}

static int pos_cmp(const void *a, const void *b)
{
	const struct sk_index_upref *x = *(const struct sk_index_upref *const *)a;
	const struct sk_index_upref *y = *(const struct sk_index_upref *const *)b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * The branch's references to oid (written whole or abbreviated to 12 or
 * more digits), oldest first, into *out (the caller frees it).
 */
static size_t refs_to(const struct sk_index_upref ***out, struct scanrun *r,
		      const char *oid)
{
	const struct sk_index_upref **v = NULL;
	size_t nr = 0, alloc = 0, len;

	for (len = 12; len <= GIT_OID_HEXSZ; len++) {
		size_t lo = 0, hi = r->nr_ups;

		if (!r->up_len[len])
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int c = strncmp(r->ups[mid].upstream, oid, len);

			if (c < 0 || (!c && r->ups[mid].upstream[len]))
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < r->nr_ups && strlen(r->ups[lo].upstream) == len &&
		     !strncmp(r->ups[lo].upstream, oid, len); lo++)
			*SK_ARRAY_PUSH(v, nr, alloc) = &r->ups[lo];
	}
	if (nr > 1)
		qsort(v, nr, sizeof(*v), pos_cmp);
	*out = v;
	return nr;
}

/*
 * The patch-ids of the branch's commits since its base: merges and the
 * backports that name their upstream commit left out.
 */
static int branch_patchids(struct scanrun *r)
{
	struct sk_index_list l = { 0 };
	size_t i;
	int ret;

	if (r->pids_done)
		return 0;
	r->pids_done = 1;
	/* the commits that name their upstream commit are not read at all */
	ret = sk_index_range_commits_but(&l, r->idx, r->range, r->naming,
					 r->nr_naming);
	for (i = 0; !ret && i < l.nr; i++) {
		git_commit *c = NULL;
		git_oid id;
		struct pid_entry *e;
		char pid[41];

		if (git_oid_fromstr(&id, l.items[i].oid) ||
		    git_commit_lookup(&c, r->repo, &id)) {
			ret = sk_error_git(SK_ERROR, l.items[i].oid);
			break;
		}
		if (git_commit_parentcount(c) > 1) {
			git_commit_free(c);
			continue;
		}
		git_commit_free(c);
		ret = sk_index_patchid(pid, r->idx, r->repo, l.items[i].oid);
		if (ret || !pid[0])
			continue;
		e = SK_ARRAY_PUSH(r->pids, r->nr_pids, r->alloc_pids);
		memcpy(e->pid, pid, sizeof(e->pid));
		memcpy(e->oid, l.items[i].oid, sizeof(e->oid));
	}
	sk_index_list_release(&l);
	if (!ret && r->nr_pids > 1)
		qsort(r->pids, r->nr_pids, sizeof(*r->pids), pid_cmp);
	return ret;
}

/* The branch's reverts, with what each reverts. */
static int branch_reverts(struct scanrun *r)
{
	struct sk_index_list l = { 0 };
	size_t i, j;
	int ret = sk_index_reverts(&l, r->idx, r->range);

	for (i = 0; !ret && i < l.nr; i++) {
		git_commit *c = NULL;
		git_oid id;
		struct sk_commit_facts f = { 0 };

		if (git_oid_fromstr(&id, l.items[i].oid) ||
		    git_commit_lookup(&c, r->repo, &id)) {
			ret = sk_error_git(SK_ERROR, l.items[i].oid);
			break;
		}
		ret = sk_commit_facts_parse(&f, git_commit_message(c) ?
					    git_commit_message(c) : "");
		for (j = 0; !ret && j < f.nr_uprefs; j++)
			if (f.uprefs[j].kind == SK_UPREF_REVERT) {
				struct branch_revert *b =
					SK_ARRAY_PUSH(r->brevs, r->nr_brevs,
						      r->alloc_brevs);

				memcpy(b->revert, l.items[i].oid,
				       sizeof(b->revert));
				memcpy(b->target, f.uprefs[j].sha,
				       sizeof(b->target));
				break;
			}
		sk_commit_facts_release(&f);
		git_commit_free(c);
	}
	sk_index_list_release(&l);
	return ret;
}

/* The branch's revert of its commit oid, or NULL. */
static const char *branch_reverted(struct scanrun *r, const char *oid)
{
	size_t i;

	for (i = 0; i < r->nr_brevs; i++)
		if (!strncmp(oid, r->brevs[i].target,
			     strlen(r->brevs[i].target)))
			return r->brevs[i].revert;
	return NULL;
}

static void upref_text(struct sk_strbuf *out, int kind, const char *oid)
{
	const char *t = sk_upref_kind_name(kind), *sha = strstr(t, "<sha>");

	sk_strbuf_reset(out);
	sk_strbuf_add(out, t, sha - t);
	sk_strbuf_adds(out, oid);
	sk_strbuf_adds(out, sha + 5);
}

/*
 * Does the branch carry mainline commit oid (pid: its patch-id, or NULL
 * to compute it)?  1: as *as, the evidence in *ev; the branch's revert of
 * it (all its copies reverted) in *reverted.  0: no.  Evidence order: a
 * reference, then an equal patch-id.
 */
struct presence {
	char as[41];
	char reverted[41];
	char *ev;
};

static int on_branch(struct presence *p, struct scanrun *r, const char *oid,
		     const char *pid, struct mrec *mr)
{
	const struct sk_index_upref **refs = NULL;
	size_t i, nr;
	int found = 0;

	memset(p, 0, sizeof(*p));
	/* merged into the branch itself (a downstream tree merging mainline) */
	if (sk_index_in_range(r->idx, r->range, oid) == 1) {
		memcpy(p->as, oid, sizeof(p->as));
		p->ev = sk_xstrfmt("%.12s itself is in the branch's history",
				   oid);
		return 1;
	}
	sk_error_clear();
	nr = refs_to(&refs, r, oid);
	for (i = 0; i < nr; i++) {
		const char *rev;

		if (!SK_UPREF_IS_COPY(refs[i]->kind))
			continue;
		rev = branch_reverted(r, refs[i]->oid);
		if (found == 1 && rev)
			continue;
		upref_text(&r->sb, refs[i]->kind, oid);
		free(p->ev);
		memcpy(p->as, refs[i]->oid, sizeof(p->as));
		snprintf(p->reverted, sizeof(p->reverted), "%s",
			 rev ? rev : "");
		p->ev = sk_xstrfmt("%.12s carries \"%s\"", p->as, r->sb.buf);
		found = rev ? 2 : 1;
	}
	free(refs);
	if (found == 1)
		return 1;
	/*
	 * A patch-id only when no reference proved it, and some commit of
	 * the branch names none: it costs a diff.
	 */
	if (!branch_patchids(r) && r->nr_pids && mr)
		pid = mainline_patchid(r, mr);
	if (pid && *pid && r->nr_pids) {
		struct pid_entry key, *e;

		memcpy(key.pid, pid, sizeof(key.pid));
		e = r->nr_pids ? bsearch(&key, r->pids, r->nr_pids,
					 sizeof(*r->pids), pid_cmp) : NULL;
		/* the first of a run of equal ids, then one not reverted */
		while (e && e > r->pids && !strcmp(e[-1].pid, pid))
			e--;
		for (; e && e < r->pids + r->nr_pids && !strcmp(e->pid, pid);
		     e++) {
			const char *rev = branch_reverted(r, e->oid);

			if (found == 2 && rev)
				continue;
			free(p->ev);
			memcpy(p->as, e->oid, sizeof(p->as));
			snprintf(p->reverted, sizeof(p->reverted), "%s",
				 rev ? rev : "");
			p->ev = sk_xstrfmt("%.12s has its patch-id %.12s", p->as,
					   pid);
			found = rev ? 2 : 1;
			if (!rev)
				break;
		}
	}
	sk_error_clear();
	if (found == 2)
		return 1;
	return found;
}

static void norm(struct sk_strbuf *out, const char *subject)
{
	sk_subject_norm(out, subject ? subject : "");
}

/* A commit of the branch with this subject (normalised), into as. */
static int branch_subject(char as[41], struct scanrun *r, const char *subject)
{
	struct sk_index_list l = { 0 };
	int found = 0;

	norm(&r->sb, subject);
	if (!sk_index_by_subject(&l, r->idx, r->range, r->sb.buf) && l.nr) {
		memcpy(as, l.items[0].oid, 41);
		found = 1;
	}
	sk_index_list_release(&l);
	sk_error_clear();
	return found;
}

/* Is the commit (outside the scanned range) in the branch's history? */
static int in_history(struct scanrun *r, const char *hex)
{
	git_oid a, d;
	int yes;

	if (!strcmp(hex, r->s->branch_tip))
		return 1;
	if (git_oid_fromstr(&a, hex) || git_oid_fromstr(&d, r->s->branch_tip))
		return 0;
	yes = git_graph_descendant_of(r->repo, &d, &a);
	sk_error_clear();
	return yes == 1;
}

/*
 * Is the target of one Fixes: in the branch?  1 yes, 0 no; *resolved
 * says whether the target was found at all; the reason goes to it->why;
 * a fix of a candidate the branch lacks gets it as a prerequisite.
 */
static int fix_in_branch(struct scanrun *r, size_t self,
			 const struct sk_commit_fix *fx, struct sk_scan_item *it,
			 int *resolved)
{
	long t = find_mainline(r, fx->sha);
	struct presence p;
	char as[41];
	git_object *obj = NULL;
	git_oid id;
	size_t len = strlen(fx->sha);
	char by_subject[128] = "Fixes: ";

	memset(&p, 0, sizeof(p));
	if (t < 0 && fx->subject) {
		size_t i;
		struct sk_strbuf want = SK_STRBUF_INIT;

		/* unknown sha: the quoted subject, in mainline or the branch */
		norm(&want, fx->subject);
		if (git_oid_fromstrn(&id, fx->sha, len) ||
		    git_object_lookup_prefix(&obj, r->repo, &id, len,
					     GIT_OBJECT_COMMIT)) {
			for (i = 0; i < self && t < 0; i++) {
				norm(&r->sb, r->m[i].subject);
				if (!strcmp(r->sb.buf, want.buf))
					t = (long)i;
			}
			if (t >= 0)
				snprintf(by_subject, sizeof(by_subject),
					 "Fixes: %.40s is unknown to the "
					 "repository; by its quoted subject it "
					 "is ",
					 fx->sha);
			if (t < 0 && branch_subject(as, r, fx->subject)) {
				*resolved = 1;
				say(&it->why, &it->nr_why, &it->alloc_why,
				    "Fixes: %s is unknown to the repository; "
				    "%.12s of the branch has its quoted subject",
				    fx->sha, as);
				sk_strbuf_release(&want);
				sk_error_clear();
				return 1;
			}
		}
		git_object_free(obj);
		obj = NULL;
		sk_strbuf_release(&want);
		sk_error_clear();
	}
	if (t >= 0) {
		struct mrec *tm = &r->m[t];

		*resolved = 1;
		if ((size_t)t >= self)
			return 0;
		if (tm->item >= 0 &&
		    r->s->items[tm->item].state != SK_SCAN_REVERTED_UPSTREAM) {
			const struct sk_scan_item *ti = &r->s->items[tm->item];

			if (ti->state == SK_SCAN_NEW)
				say(&it->why, &it->nr_why, &it->alloc_why,
				    "%s%.12s (\"%s\"), new in this scan: "
				    "it joins it", by_subject, tm->oid,
				    tm->subject);
			else
				say(&it->why, &it->nr_why, &it->alloc_why,
				    "%s%.12s (\"%s\"), which the branch "
				    "has (%s, as %.12s)", by_subject, tm->oid,
				    tm->subject, sk_scan_state_name(ti->state),
				    ti->present_as);
			if (ti->state == SK_SCAN_NEW)
				add_prereq(it, tm->oid, "it fixes %.12s "
					   "(\"%s\"), new too", tm->oid,
					   tm->subject);
			return 1;
		}
		if (tm->reverted_by < 0 &&
		    on_branch(&p, r, tm->oid, NULL, tm) &&
		    !p.reverted[0]) {
			say(&it->why, &it->nr_why, &it->alloc_why,
			    "%s%.12s (\"%s\"), which the branch has: %s",
			    by_subject, tm->oid, tm->subject, p.ev);
			free(p.ev);
			return 1;
		}
		free(p.ev);
		return 0;
	}
	/* outside the scanned range: before the base, or elsewhere */
	if (git_oid_fromstrn(&id, fx->sha, len) ||
	    git_object_lookup_prefix(&obj, r->repo, &id, len,
				     GIT_OBJECT_COMMIT)) {
		sk_error_clear();
		return 0;
	}
	*resolved = 1;
	{
		char hex[41];
		const char *subj = git_commit_summary((git_commit *)obj);
		int yes = 0;

		git_oid_tostr(hex, sizeof(hex), git_object_id(obj));
		if (in_history(r, hex)) {
			say(&it->why, &it->nr_why, &it->alloc_why,
			    "Fixes: %.12s (\"%s\") is in the branch's history",
			    hex, subj ? subj : "");
			yes = 1;
		} else {
			char pid[41] = "";

			if (commit_patchid(pid, r, hex))
				sk_error_clear();
			if (on_branch(&p, r, hex, pid, NULL) && !p.reverted[0]) {
				say(&it->why, &it->nr_why, &it->alloc_why,
				    "Fixes: %.12s (\"%s\"), which the branch "
				    "has: %s", hex, subj ? subj : "", p.ev);
				yes = 1;
			} else if (subj && branch_subject(as, r, subj)) {
				say(&it->why, &it->nr_why, &it->alloc_why,
				    "Fixes: %.12s (\"%s\"): %.12s of the branch "
				    "has its subject", hex, subj, as);
				yes = 1;
			}
			free(p.ev);
		}
		git_object_free(obj);
		return yes;
	}
}

static struct sk_scan_item *new_item(struct scanrun *r, size_t i)
{
	struct sk_scan_item *it = SK_ARRAY_PUSH(r->s->items, r->s->nr,
						r->s->alloc);

	memset(it, 0, sizeof(*it));
	memcpy(it->commit, r->m[i].oid, sizeof(it->commit));
	it->subject = sk_xstrdup(r->m[i].subject);
	it->author = sk_xstrdup(r->m[i].author);
	return it;
}

static void item_release(struct sk_scan_item *it)
{
	size_t i;

	free(it->subject);
	free(it->author);
	for (i = 0; i < it->nr_why; i++)
		free(it->why[i]);
	free(it->why);
	for (i = 0; i < it->nr_evidence; i++)
		free(it->evidence[i]);
	free(it->evidence);
	free(it->fixed_by);
	for (i = 0; i < it->nr_prereqs; i++)
		free(it->prereqs[i].why);
	free(it->prereqs);
}

/* Its state on the branch, with the evidence. */
static void place(struct scanrun *r, size_t i, struct sk_scan_item *it)
{
	struct mrec *mr = &r->m[i];
	struct presence p;
	int here = on_branch(&p, r, mr->oid, NULL, mr);

	if (here && !p.reverted[0]) {
		it->state = SK_SCAN_PRESENT;
		memcpy(it->present_as, p.as, sizeof(it->present_as));
		say(&it->evidence, &it->nr_evidence, &it->alloc_evidence,
		    "%s", p.ev);
		if (mr->reverted_by >= 0)
			say(&it->evidence, &it->nr_evidence,
			    &it->alloc_evidence, "reverted upstream by %.12s "
			    "(\"%s\"): the branch needs the revert too",
			    r->m[mr->reverted_by].oid,
			    r->m[mr->reverted_by].subject);
	} else if (here) {
		it->state = SK_SCAN_REVERTED_HERE;
		memcpy(it->present_as, p.as, sizeof(it->present_as));
		memcpy(it->reverted_by, p.reverted, sizeof(it->reverted_by));
		say(&it->evidence, &it->nr_evidence, &it->alloc_evidence,
		    "%s, reverted on the branch by %.12s", p.ev, p.reverted);
	} else if (mr->reverted_by >= 0) {
		it->state = SK_SCAN_REVERTED_UPSTREAM;
		memcpy(it->reverted_by, r->m[mr->reverted_by].oid,
		       sizeof(it->reverted_by));
		say(&it->evidence, &it->nr_evidence, &it->alloc_evidence,
		    "reverted upstream by %.12s (\"%s\"): not to be taken",
		    r->m[mr->reverted_by].oid, r->m[mr->reverted_by].subject);
	} else {
		it->state = SK_SCAN_NEW;
		if (mr->patchid[0])
			say(&it->evidence, &it->nr_evidence,
			    &it->alloc_evidence, "no commit of the branch "
			    "carries it (by reference or patch-id %.12s)",
			    mr->patchid);
		else
			say(&it->evidence, &it->nr_evidence,
			    &it->alloc_evidence, "no commit of the branch "
			    "carries it by reference, and every one of its "
			    "commits names its upstream commit (no patch-id "
			    "to compare)");
	}
	free(p.ev);
}

/* Is commit i a candidate for the branch?  Makes its item if so. */
static void consider(struct scanrun *r, size_t i)
{
	struct mrec *mr = &r->m[i];
	const struct sk_commit_facts *f = &mr->msg.facts;
	struct sk_track_facts tf = { 0 };
	struct sk_scan_item tmp = { 0 }, *it;
	struct sk_strbuf why = SK_STRBUF_INIT;
	enum sk_state st;
	size_t j;
	int resolved_any = 0, reverts_present = 0;

	if (mr->merge)
		return;
	if (mr->reverts >= 0 && r->m[mr->reverts].item >= 0 &&
	    r->s->items[r->m[mr->reverts].item].state == SK_SCAN_PRESENT)
		reverts_present = 1;
	if (!mr->msg.cc_stable && !f->nr_fixes && !reverts_present)
		return;
	memcpy(tmp.commit, mr->oid, sizeof(tmp.commit));
	tf.kind = r->br->kind;
	tf.major = r->br->major;
	tf.minor = r->br->minor;
	tf.cc_stable = mr->msg.cc_stable;
	tf.cc_major = mr->msg.cc_major;
	tf.cc_minor = mr->msg.cc_minor;
	/* a mainline commit: upstream by definition (the mainline-first rule) */
	tf.upstream = 1;
	tf.mainline = 1;
	for (j = 0; j < f->nr_fixes; j++) {
		int resolved = 0;

		if (fix_in_branch(r, i, &f->fixes[j], &tmp, &resolved))
			tf.fixes_in_branch = 1;
		resolved_any |= resolved;
	}
	/* a Fixes: nobody can find leaves the decision to Cc: stable */
	tf.has_fixes = f->nr_fixes && (resolved_any || !tf.cc_stable);
	tf.fixes_resolved = resolved_any;
	st = sk_track_decide(&tf, &why);
	if (reverts_present && st != SK_STATE_NEEDED) {
		const struct sk_scan_item *ti =
			&r->s->items[r->m[mr->reverts].item];

		st = SK_STATE_NEEDED;
		sk_strbuf_reset(&why);
		sk_strbuf_addf(&why, "it reverts %.12s, which the branch has "
			       "as %.12s", ti->commit, ti->present_as);
	}
	if (st != SK_STATE_NEEDED) {
		item_release(&tmp);
		sk_strbuf_release(&why);
		return;
	}
	it = new_item(r, i);
	mr->item = (long)(it - r->s->items);
	it->why = tmp.why;
	it->nr_why = tmp.nr_why;
	it->alloc_why = tmp.alloc_why;
	it->prereqs = tmp.prereqs;
	it->nr_prereqs = tmp.nr_prereqs;
	it->alloc_prereqs = tmp.alloc_prereqs;
	if (why.len) {
		/* the rule first, then what each Fixes: resolved to */
		*SK_ARRAY_PUSH(it->why, it->nr_why, it->alloc_why) = NULL;
		memmove(it->why + 1, it->why, (it->nr_why - 1) * sizeof(char *));
		it->why[0] = sk_strbuf_detach(&why);
	}
	sk_strbuf_release(&why);
	for (j = 0; j < mr->nr_fixed_by; j++)
		memcpy(*SK_ARRAY_PUSH(it->fixed_by, it->nr_fixed_by,
				      it->alloc_fixed_by),
		       r->m[mr->fixed_by[j]].oid, 41);
	place(r, i, it);
}

/* ---- prerequisites: lines and files ---- */

struct files_acc {
	struct sk_scan_file *files;
	size_t nr, alloc;
};

static int file_cb(const git_diff_delta *d, float progress, void *payload)
{
	struct files_acc *a = payload;
	struct sk_scan_file *f = SK_ARRAY_PUSH(a->files, a->nr, a->alloc);

	(void)progress;
	memset(f, 0, sizeof(*f));
	if (d->status != GIT_DELTA_ADDED)
		f->old_path = sk_xstrdup(d->old_file.path);
	if (d->status != GIT_DELTA_DELETED)
		f->new_path = sk_xstrdup(d->new_file.path);
	return 0;
}

static int hunk_cb(const git_diff_delta *d, const git_diff_hunk *h,
		   void *payload)
{
	struct files_acc *a = payload;
	struct sk_scan_file *f = &a->files[a->nr - 1];
	struct sk_scan_hunk *k = SK_ARRAY_PUSH(f->hunks, f->nr_hunks,
					       f->alloc_hunks);

	(void)d;
	k->old_start = h->old_start;
	k->old_lines = h->old_lines;
	/* the changed span, filled from the lines */
	k->new_start = 0;
	k->new_lines = 0;
	return 0;
}

static int line_cb(const git_diff_delta *d, const git_diff_hunk *h,
		   const git_diff_line *l, void *payload)
{
	struct files_acc *a = payload;
	struct sk_scan_file *f = &a->files[a->nr - 1];
	struct sk_scan_hunk *k;
	long at;

	(void)d;
	(void)h;
	if (!f->nr_hunks)
		return 0;
	k = &f->hunks[f->nr_hunks - 1];
	if (l->origin == GIT_DIFF_LINE_ADDITION)
		at = l->new_lineno;
	else if (l->origin == GIT_DIFF_LINE_DELETION)
		at = h->new_start + (l->old_lineno - h->old_start);
	else
		return 0;
	if (at < 1)
		at = 1;
	if (!k->new_lines) {
		k->new_start = at;
		k->new_lines = 1;
	} else if (at < k->new_start) {
		k->new_lines += k->new_start - at;
		k->new_start = at;
	} else if (at >= k->new_start + k->new_lines) {
		k->new_lines = at - k->new_start + 1;
	}
	return 0;
}

static void files_release(struct sk_scan_file *files, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(files[i].old_path);
		free(files[i].new_path);
		free(files[i].hunks);
	}
	free(files);
}

/*
 * Its files and the lines its hunks change, without a diff of its trees:
 * the files that differ (core/treediff.h), each pair of blobs diffed as
 * libgit2's diff of the trees would.  1 when a file was added and another
 * deleted: renames are for libgit2's diff to find.
 */
static int read_hunks(git_repository *repo, const struct mrec *mr,
		      struct files_acc *a)
{
	struct sk_tree_changes ch = { 0 };
	git_commit *parent = NULL;
	git_oid ptree;
	git_diff_options o;
	size_t i;
	int ret = 0, added = 0, deleted = 0;

	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_INDENT_HEURISTIC;
	/* the parent's tree from its message's read, or from the parent */
	if (mr->ptree_known)
		git_oid_cpy(&ptree, &mr->ptree);
	else if (!mr->root && git_commit_lookup(&parent, repo, &mr->parent))
		ret = sk_error_git(SK_ERROR, "the commit's parent");
	else if (parent)
		git_oid_cpy(&ptree, git_commit_tree_id(parent));
	git_commit_free(parent);
	if (!ret)
		ret = sk_tree_changes_by_id(&ch, repo, mr->root ? NULL : &ptree,
					    &mr->tree, 0);
	for (i = 0; !ret && i < ch.nr; i++) {
		added |= !ch.items[i].old_mode;
		deleted |= !ch.items[i].new_mode;
	}
	if (!ret && added && deleted)
		ret = 1;
	for (i = 0; !ret && i < ch.nr; i++) {
		const struct sk_tree_change *f = &ch.items[i];
		git_blob *ob = NULL, *nb = NULL;

		if (f->old_mode == GIT_FILEMODE_COMMIT ||
		    f->new_mode == GIT_FILEMODE_COMMIT ||
		    (f->old_mode && f->new_mode &&
		     git_oid_equal(&f->old_id, &f->new_id))) {
			/* a submodule, or a mode change: a file, no lines */
			git_diff_delta d = { 0 };

			d.status = !f->old_mode ? GIT_DELTA_ADDED :
				   !f->new_mode ? GIT_DELTA_DELETED :
				   GIT_DELTA_MODIFIED;
			d.old_file.path = d.new_file.path = f->path;
			file_cb(&d, 0, a);
			continue;
		}
		if ((f->old_mode && git_blob_lookup(&ob, repo, &f->old_id)) ||
		    (f->new_mode && git_blob_lookup(&nb, repo, &f->new_id)) ||
		    git_diff_blobs(ob, f->old_mode ? f->path : NULL, nb,
				   f->new_mode ? f->path : NULL, &o, file_cb,
				   NULL, hunk_cb, line_cb, a))
			ret = sk_error_git(SK_ERROR, f->path);
		git_blob_free(ob);
		git_blob_free(nb);
	}
	sk_tree_changes_release(&ch);
	return ret;
}

static int read_diff(git_repository *repo, struct mrec *mr, int want_pid)
{
	struct files_acc a = { 0 };
	git_commit *c = NULL;
	git_diff *diff = NULL;
	int ret = 0;

	if (mr->files_done)
		return 0;
	mr->files_done = 1;
	if (!want_pid) {
		ret = read_hunks(repo, mr, &a);
		if (ret <= 0) {
			mr->files = a.files;
			mr->nr_files = a.nr;
			return ret;
		}
		files_release(a.files, a.nr);
		memset(&a, 0, sizeof(a));
		ret = 0;
	}
	if (git_commit_lookup(&c, repo, &mr->id))
		return sk_error_git(SK_ERROR, mr->oid);
	/* git show's diff: its patch-id and its lines, from one diff */
	ret = sk_patchid_commit_diff(&diff, repo, c);
	if (!ret && git_diff_foreach(diff, file_cb, NULL, hunk_cb, line_cb, &a))
		ret = sk_error_git(SK_ERROR, mr->oid);
	if (!ret && want_pid) {
		ret = sk_patchid_diff(mr->patchid, diff);
		mr->pid_done = 1;
	}
	mr->files = a.files;
	mr->nr_files = a.nr;
	git_diff_free(diff);
	git_commit_free(c);
	return ret;
}

/* The files and lines of the i-th commit in ctx (struct mrec **). */
static int read_files(void *ctx, git_repository *repo, size_t i)
{
	struct mrec **todo = ctx;

	return read_diff(repo, todo[i], 0);
}

/*
 * Does the branch have path?  The files of one commit share directories:
 * the last directory is kept, not looked up (and inflated) again.
 */
static int branch_has(struct scanrun *r, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) : 0;
	git_tree_entry *e = NULL;
	int yes;

	if (!slash)
		return git_tree_entry_byname(r->branch_tree, path) != NULL;
	if (!r->dir_path || strlen(r->dir_path) != dlen ||
	    strncmp(r->dir_path, path, dlen)) {
		git_tree_free(r->dir_tree);
		free(r->dir_path);
		r->dir_tree = NULL;
		r->dir_path = sk_xstrndup(path, dlen);
		if (!git_tree_entry_bypath(&e, r->branch_tree, r->dir_path) &&
		    git_tree_entry_type(e) == GIT_OBJECT_TREE &&
		    git_tree_lookup(&r->dir_tree, r->repo, git_tree_entry_id(e)))
			r->dir_tree = NULL;
		git_tree_entry_free(e);
		git_error_clear();
	}
	yes = r->dir_tree && git_tree_entry_byname(r->dir_tree, slash + 1);
	return yes;
}

/* The first mainline commit before end whose tree has path, or NULL. */
static const char *adder_of(struct scanrun *r, const char *path, size_t end)
{
	size_t i;

	for (i = 0; i < end; i++) {
		git_commit *c = NULL;
		git_tree *t = NULL;
		git_tree_entry *e = NULL;
		git_oid id;
		int has = 0;

		if (!git_oid_fromstr(&id, r->m[i].oid) &&
		    !git_commit_lookup(&c, r->repo, &id) &&
		    !git_commit_tree(&t, c))
			has = !git_tree_entry_bypath(&e, t, path);
		git_tree_entry_free(e);
		git_tree_free(t);
		git_commit_free(c);
		if (has)
			return r->m[i].oid;
	}
	sk_error_clear();
	return NULL;
}

/*
 * A prerequisite named in a Cc: stable line: a commit of the scan (new:
 * needed; present: nothing), or one outside it that the branch's history
 * or a backport does not have.
 */
static void noted_need(struct scanrun *r, struct sk_scan_item *it,
		       const char *sha, size_t self)
{
	long t = find_mainline(r, sha);
	struct presence p;
	git_object *obj = NULL;
	git_oid id;
	char hex[41];
	size_t len = strlen(sha);

	if (t >= 0 && (size_t)t < self) {
		struct mrec *tm = &r->m[t];

		if (tm->item >= 0) {
			if (r->s->items[tm->item].state == SK_SCAN_NEW)
				add_prereq(it, tm->oid, "its Cc: stable line "
					   "names %.12s (\"%s\"), new too",
					   tm->oid, tm->subject);
			return;
		}
		if (on_branch(&p, r, tm->oid, NULL, tm) && !p.reverted[0]) {
			free(p.ev);
			return;
		}
		free(p.ev);
		add_prereq(it, tm->oid, "its Cc: stable line names %.12s "
			   "(\"%s\"), which the branch lacks", tm->oid,
			   tm->subject);
		return;
	}
	if (git_oid_fromstrn(&id, sha, len) ||
	    git_object_lookup_prefix(&obj, r->repo, &id, len,
				     GIT_OBJECT_COMMIT)) {
		sk_error_clear();
		add_prereq(it, "", "its Cc: stable line names %s, which is "
			   "not in the repository", sha);
		return;
	}
	git_oid_tostr(hex, sizeof(hex), git_object_id(obj));
	git_object_free(obj);
	if (in_history(r, hex))
		return;
	{
		char pid[41] = "";

		if (commit_patchid(pid, r, hex))
			sk_error_clear();
		if (on_branch(&p, r, hex, pid, NULL) && !p.reverted[0]) {
			free(p.ev);
			return;
		}
		free(p.ev);
	}
	add_prereq(it, hex, "its Cc: stable line names %.12s, which the "
		   "branch lacks", hex);
}

/* Where each new item's files are: by path, then by item. */
struct path_entry {
	const char *path;
	size_t item;		/* index in s->items */
	const struct sk_scan_file *file;
};

static int path_entry_cmp(const void *a, const void *b)
{
	const struct path_entry *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	return x->item < y->item ? -1 : x->item > y->item;
}

/*
 * Each new item's prerequisites: the earlier new items that wrote the
 * lines its hunks read (found through an index of the files they write,
 * not pair by pair), and the files it changes that the branch lacks.
 */
static int prerequisites(struct scanrun *r)
{
	size_t *item_m = sk_xcalloc(r->s->nr + 1, sizeof(size_t));
	struct path_entry *pe = NULL;
	struct mrec **todo = NULL;
	size_t nr_pe = 0, alloc_pe = 0, nr_todo = 0, alloc_todo = 0, a, i, k;
	int ret = 0;

	for (i = 0; i < r->nr_m; i++)
		if (r->m[i].item >= 0)
			item_m[r->m[i].item] = i;
	/* one diff per new item: each its own, so spread over the cores */
	for (a = 0; a < r->s->nr; a++)
		if (r->s->items[a].state == SK_SCAN_NEW) {
			struct mrec *mr = &r->m[item_m[a]];
			long p = mr->root ? -1 : find_mainline_id(r, &mr->parent);

			if (p >= 0) {
				git_oid_cpy(&mr->ptree, &r->m[p].tree);
				mr->ptree_known = 1;
			}
			*SK_ARRAY_PUSH(todo, nr_todo, alloc_todo) = mr;
		}
	ret = sk_parallel_repo_for(r->repo, nr_todo, 0, read_files, todo);
	free(todo);
	for (a = 0; !ret && a < r->s->nr; a++) {
		struct mrec *mr = &r->m[item_m[a]];

		if (r->s->items[a].state != SK_SCAN_NEW)
			continue;
		for (i = 0; i < mr->nr_files; i++) {
			struct path_entry *e;

			if (!mr->files[i].new_path)
				continue;
			e = SK_ARRAY_PUSH(pe, nr_pe, alloc_pe);
			e->path = mr->files[i].new_path;
			e->item = a;
			e->file = &mr->files[i];
		}
	}
	if (!ret && nr_pe > 1)
		qsort(pe, nr_pe, sizeof(*pe), path_entry_cmp);
	for (a = 0; !ret && a < r->s->nr; a++) {
		struct sk_scan_item *it = &r->s->items[a];
		struct mrec *later = &r->m[item_m[a]];

		if (it->state != SK_SCAN_NEW)
			continue;
		for (i = 0; i < later->nr_files; i++) {
			const char *path = later->files[i].old_path;
			struct path_entry key = { path, 0, NULL };
			size_t lo = 0, hi = nr_pe;

			if (!path)
				continue;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (path_entry_cmp(&pe[mid], &key) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			for (k = lo; k < nr_pe && pe[k].item < a &&
			     !strcmp(pe[k].path, path); k++) {
				const struct sk_scan_item *e =
					&r->s->items[pe[k].item];

				if (sk_scan_lines_overlap(&later->files[i],
							  pe[k].file))
					add_prereq(it, e->commit, "%.12s (\"%s\") "
						   "changed the lines of %s it "
						   "touches", e->commit,
						   e->subject, path);
			}
		}
		/* what its Cc: stable line names, when the branch lacks it */
		for (i = 0; i < later->msg.nr_needs; i++)
			noted_need(r, it, later->msg.needs[i], item_m[a]);
		/* a file it changes that the branch lacks */
		for (i = 0; i < later->nr_files; i++) {
			const char *path = later->files[i].old_path;
			const char *by;
			long mb;

			if (!path || branch_has(r, path))
				continue;
			by = adder_of(r, path, item_m[a]);
			mb = by ? find_mainline(r, by) : -1;
			if (mb >= 0 && r->m[mb].item >= 0)
				add_prereq(it, by, "the branch lacks %s, which "
					   "%.12s (\"%s\") adds", path, by,
					   r->m[mb].subject);
			else if (mb >= 0)
				add_prereq(it, by, "the branch lacks %s, which "
					   "%.12s (\"%s\", not a stable candidate) "
					   "adds", path, by, r->m[mb].subject);
			else
				add_prereq(it, "", "the branch lacks %s, and no "
					   "mainline commit since the base adds "
					   "it", path);
		}
	}
	free(pe);
	free(item_m);
	return ret;
}

/* ---- setting up ---- */

static int resolve(git_oid *out, struct scanrun *r, const char *spec,
		   const char *what)
{
	if (!sk_repo_resolve_commit(out, r->repo, spec))
		return 0;
	return sk_error_set(SK_ENOTFOUND, "%s '%s' is not a commit of the "
			    "repository", what, spec);
}

/* The mainline commits walked, dropped (the array itself kept). */
static void mrecs_release(struct scanrun *r)
{
	size_t i;

	for (i = 0; i < r->nr_m; i++) {
		free(r->m[i].subject);
		free(r->m[i].author);
		sk_scan_msg_release(&r->m[i].msg);
		free(r->m[i].fixed_by);
		files_release(r->m[i].files, r->m[i].nr_files);
	}
	r->nr_m = 0;
	free(r->by_oid);
	r->by_oid = NULL;
}

/* The base is not in mainline: since is where the branch left it. */
static int since_from_merge_base(struct scanrun *r, const git_oid *tip,
				 git_oid *since)
{
	git_oid btip;

	mrecs_release(r);
	r->base_unverified = 0;
	if (git_oid_fromstr(&btip, r->s->branch_tip) ||
	    git_merge_base(since, r->repo, tip, &btip))
		return sk_error_set(SK_EINVALID, "branch '%s' and mainline "
				    "'%s' share no history: pass --since",
				    r->br->name, r->s->mainline_ref);
	free(r->s->since_how);
	r->s->since_how = sk_xstrdup("merge-base");
	git_oid_tostr(r->s->since, 41, since);
	return 0;
}

static int setup(struct scanrun *r, git_oid *tip, git_oid *since)
{
	const struct sk_scan_opts *o = r->o;
	struct sk_repo_choice choice = { 0 };
	char *conf = sk_path_join(o->top, SK_BRANCHES_CONF), *path = NULL;
	const char *how = NULL, *mref = o->mainline;
	git_oid btip, base;
	git_commit *bc = NULL;
	char *key, *ipath, hex[41];
	struct sk_index_walk_stats st;
	size_t i;
	int ret = sk_branches_load(&r->branches, conf);

	free(conf);
	if (ret)
		return ret;
	ret = sk_branches_require(&r->branches, o->branch);
	if (ret)
		return ret;
	r->br = sk_branches_find(&r->branches, o->branch);
	if (r->br->kind == SK_BRANCH_MAINLINE)
		return sk_error_set(SK_EINVALID, "%s:%d: branch '%s' is the "
				    "mainline: scan a stable branch",
				    r->branches.path, r->br->line,
				    r->br->name);
	if (r->br->repo)
		return sk_error_set(SK_EINVALID, "%s:%d: branch '%s' lives in "
				    "a repository of its own (repo = %s): scan "
				    "needs it and mainline in one repository",
				    r->branches.path, r->br->line, r->br->name,
				    r->br->repo);
	for (i = 0; !mref && i < r->branches.nr; i++)
		if (r->branches.items[i].kind == SK_BRANCH_MAINLINE &&
		    !r->branches.items[i].repo)
			mref = r->branches.items[i].ref;
	if (!mref)
		return sk_error_set(SK_ENOTFOUND, "%s: no branch of kind "
				    "mainline: add one, or pass --mainline "
				    "<ref>", r->branches.path);
	r->s->branch = sk_xstrdup(r->br->name);
	r->s->mainline_ref = sk_xstrdup(mref);
	choice.option = o->repo;
	choice.config = r->branches.repo;
	choice.top = o->top;
	ret = sk_repo_locate(&path, &how, &choice);
	if (!ret && sk_repo_open(&r->repo, path))
		ret = sk_error_set(SK_ERROR, "no kernel repository at "
				   "'%s' (from %s)", path, how);
	free(path);
	if (ret)
		return ret;
	ret = resolve(tip, r, mref, "mainline ref");
	if (!ret)
		ret = resolve(&btip, r, r->br->ref, "the branch's ref");
	if (!ret)
		ret = resolve(&base, r, r->br->base, "the branch's base");
	if (ret)
		return ret;
	git_oid_tostr(r->s->mainline_tip, 41, tip);
	git_oid_tostr(r->s->branch_tip, 41, &btip);
	if (o->since) {
		ret = resolve(since, r, o->since, "--since");
		if (ret)
			return ret;
		r->s->since_how = sk_xstrfmt("--since %s", o->since);
	} else {
		/*
		 * The base, when it is in mainline: the walk that hides it
		 * tells (it checks that it reached it), not a walk of its
		 * own first (since_from_merge_base otherwise).
		 */
		git_oid_cpy(since, &base);
		r->base_unverified = !git_oid_equal(&base, tip);
		r->s->since_how = sk_xstrfmt("base %s", r->br->base);
	}
	sk_error_clear();
	git_oid_tostr(r->s->since, 41, since);
	if (git_commit_lookup(&bc, r->repo, &btip) ||
	    git_commit_tree(&r->branch_tree, bc)) {
		git_commit_free(bc);
		return sk_error_git(SK_ERROR, r->br->ref);
	}
	git_commit_free(bc);
	ipath = sk_repo_index_path(r->repo);
	ret = sk_index_open(&r->idx, ipath);
	free(ipath);
	if (ret)
		return ret;
	if (sk_index_warning(r->idx))
		say(&r->s->warnings, &r->s->nr_warnings, &r->s->alloc_warnings,
		    "%s", sk_index_warning(r->idx));
	/* the range status walks for this branch: shared, not walked twice */
	git_oid_tostr(hex, sizeof(hex), &base);
	key = sk_xstrfmt("%s\t%s\t%s", r->br->name, r->br->ref, hex);
	ret = sk_index_update_range(&r->range, &st, r->idx, r->repo, key,
				    &btip, &base);
	free(key);
	if (ret == SK_EINVALID)
		return sk_error_set(SK_EINVALID, "%s:%d: branch '%s': base '%s' "
				    "is not an ancestor of ref '%s'",
				    r->branches.path, r->br->base_line,
				    r->br->name, r->br->base, r->br->ref);
	if (!ret)
		ret = sk_index_finish(r->idx);
	return ret;
}

int sk_scan_run(struct sk_scan **out, const struct sk_scan_opts *o)
{
	struct scanrun r = { 0 };
	git_oid tip, since;
	size_t i;
	int ret;

	*out = NULL;
	r.o = o;
	r.s = sk_xcalloc(1, sizeof(*r.s));
	sk_strbuf_init(&r.sb);
	ret = setup(&r, &tip, &since);
	if (!ret)
		ret = walk_mainline(&r, &tip, &since);
	if (!ret && r.base_unverified && r.not_ancestor) {
		ret = since_from_merge_base(&r, &tip, &since);
		if (!ret)
			ret = walk_mainline(&r, &tip, &since);
	}
	if (!ret)
		ret = branch_reverts(&r);
	if (!ret)
		ret = branch_uprefs(&r);
	if (!ret) {
		link_mainline(&r);
		for (i = 0; i < r.nr_m; i++)
			consider(&r, i);
		ret = prerequisites(&r);
	}
	for (i = 0; !ret && i < r.s->nr; i++) {
		switch (r.s->items[i].state) {
		case SK_SCAN_PRESENT:
			r.s->nr_present++;
			break;
		case SK_SCAN_NEW:
			r.s->nr_new++;
			break;
		default:
			r.s->nr_reverted++;
		}
	}
	mrecs_release(&r);
	free(r.m);
	free(r.pids);
	free(r.brevs);
	free(r.ups);
	free(r.naming);
	sk_strbuf_release(&r.sb);
	git_tree_free(r.branch_tree);
	git_tree_free(r.dir_tree);
	free(r.dir_path);
	sk_index_close(r.idx);
	git_repository_free(r.repo);
	sk_branches_release(&r.branches);
	if (ret) {
		sk_scan_free(r.s);
		return ret;
	}
	*out = r.s;
	return 0;
}

void sk_scan_free(struct sk_scan *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++)
		item_release(&s->items[i]);
	free(s->items);
	for (i = 0; i < s->nr_warnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	free(s->branch);
	free(s->mainline_ref);
	free(s->since_how);
	free(s);
}

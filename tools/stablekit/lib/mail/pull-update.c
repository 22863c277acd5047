#include "mail/pull-update.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "mail/lore.h"
#include "mail/mbox.h"
#include "core/names.h"
#include "core/run.h"
#include "mail/patch.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define MAX_SUBJECT_TERMS 12

/* A revision head found on the list: a cover letter, else patch 1. */
struct candidate {
	char *message_id;
	int version;
};

/* What is left of the deadline, in ms (UINT_MAX: none), capped at limit. */
static unsigned int time_left(const struct sk_update_opts *o, double start,
			      unsigned int limit)
{
	double left;

	if (!o->deadline_ms)
		return limit;
	left = o->deadline_ms - (sk_now() - start) * 1000.0;
	if (left <= 0)
		return 0;
	return left < limit ? (unsigned int)left : limit;
}

struct plan {
	struct sk_series *s;
	struct candidate *cands;
	size_t nr_cands;
	struct sk_strbuf warnings;	/* hits left out, a line each */
};

/* Everything but the characters of a search term dropped. */
static void add_clean(struct sk_strbuf *sb, const char *s, const char *keep)
{
	for (; *s; s++)
		if (isalnum((unsigned char)*s) || strchr(keep, *s))
			sk_strbuf_addch(sb, *s);
}

/*
 * "Mon, 13 Jul 2026 09:34:31 -0700" -> "20260712": the day before, so that
 * no time zone hides a reroll sent the same day.
 */
static int search_day(char out[9], const char *date)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	char mon[4] = "";
	struct tm tm = { 0 };
	const char *p = date ? strchr(date, ',') : NULL;
	const char *m;
	time_t t;

	p = p ? p + 1 : date;
	if (!p || sscanf(p, "%d %3s %d", &tm.tm_mday, mon, &tm.tm_year) != 3 ||
	    strlen(mon) != 3 || !(m = strstr(months, mon)) || (m - months) % 3)
		return 0;
	tm.tm_mon = (int)(m - months) / 3;
	tm.tm_year -= 1900;
	tm.tm_hour = 12;
	t = timegm(&tm) - 24 * 3600;
	if (!gmtime_r(&t, &tm))
		return 0;
	return strftime(out, 9, "%Y%m%d", &tm) == 8;
}

#define MAX_IDENTITIES 8

/* The addresses a series is sent from, lowercased, unique, at most 8. */
struct identities {
	char *mail[MAX_IDENTITIES];
	size_t nr;
};

static void add_identity(struct identities *id, const char *from)
{
	char *mail;
	size_t i;

	if (!from || !*from || id->nr == MAX_IDENTITIES)
		return;
	mail = sk_mail_address(from);
	for (i = 0; i < id->nr; i++)
		if (!strcmp(id->mail[i], mail))
			break;
	if (i < id->nr || !*mail)
		free(mail);
	else
		id->mail[id->nr++] = mail;
}

/*
 * Who sends the series: its author, the address each revision was sent
 * from (an in-body From: hides it) and each patch's author, newest
 * revision first.
 */
static void identities_of(struct identities *id, const struct sk_series *s)
{
	size_t i, j;

	memset(id, 0, sizeof(*id));
	add_identity(id, s->author);
	for (i = s->nr_revs; i > 0; i--) {
		const struct sk_revision *r = &s->revs[i - 1];

		add_identity(id, r->sender);
		for (j = 0; j < r->nr_patches; j++)
			add_identity(id, r->patches[j].author);
	}
}

static void identities_release(struct identities *id)
{
	size_t i;

	for (i = 0; i < id->nr; i++)
		free(id->mail[i]);
	id->nr = 0;
}

/* f:"address" (or several, OR-ed), closing the subject's group */
static void add_from(struct sk_strbuf *q, const struct sk_series *s)
{
	struct identities id;
	size_t i;

	identities_of(&id, s);
	if (id.nr > 1)
		sk_strbuf_addch(q, '(');
	for (i = 0; i < id.nr; i++) {
		sk_strbuf_adds(q, i ? " OR f:\"" : "f:\"");
		add_clean(q, id.mail[i], "@.-_+");
		sk_strbuf_addch(q, '"');
	}
	if (!id.nr)
		sk_strbuf_adds(q, "f:\"\"");
	sk_strbuf_adds(q, id.nr > 1 ? "))" : ")");
	identities_release(&id);
}

#define MAX_LINKS 4

/*
 * OR a new revision's cover that links the stored ones (its subject may
 * have changed): the newest stored revisions' message-ids as phrases.
 */
static void add_links(struct sk_strbuf *q, const struct sk_series *s)
{
	size_t i, n = 0;

	for (i = s->nr_revs; i > 0 && n < MAX_LINKS; i--) {
		const char *id = s->revs[i - 1].message_id;

		if (!id || !*id)
			continue;
		sk_strbuf_adds(q, " OR nq:\"");
		add_clean(q, id, "@.-_+=");
		sk_strbuf_addch(q, '"');
		n++;
	}
}

char *sk_pull_update_query(const struct sk_series *s)
{
	struct sk_strbuf q = SK_STRBUF_INIT;
	const struct sk_revision *latest = sk_series_latest(s);
	const char *p;
	char day[9];
	int terms = 0;

	sk_strbuf_addch(&q, '(');
	if (s->change_id && *s->change_id) {
		sk_strbuf_adds(&q, "nq:\"change-id: ");
		add_clean(&q, s->change_id, "-_.");
		sk_strbuf_adds(&q, "\" OR ");
	}
	/* words, not a phrase: servers indexed without positions answer too */
	sk_strbuf_adds(&q, "(");
	for (p = s->subject ? s->subject : ""; *p && terms < MAX_SUBJECT_TERMS;) {
		size_t n = 0;

		while (*p && !isalnum((unsigned char)*p))
			p++;
		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
		if (n) {
			sk_strbuf_addf(&q, "s:%.*s AND ", (int)n, p);
			terms++;
		}
		p += n;
	}
	add_from(&q, s);
	add_links(&q, s);
	sk_strbuf_adds(&q, ")");
	if (latest && search_day(day, latest->date))
		sk_strbuf_addf(&q, " AND d:%s..", day);
	return sk_strbuf_detach(&q);
}

static int known_msgid(const struct sk_series *s, const char *id)
{
	size_t i, j;

	for (i = 0; i < s->nr_revs; i++) {
		const struct sk_revision *r = &s->revs[i];

		if (r->message_id && !strcmp(r->message_id, id))
			return 1;
		for (j = 0; j < r->nr_patches; j++)
			if (r->patches[j].message_id &&
			    !strcmp(r->patches[j].message_id, id))
				return 1;
	}
	return 0;
}

static int change_id_in(const char *body, const char *id)
{
	size_t n = strlen(id);

	for (const char *p = body; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		const char *v;

		if (strncasecmp(p, "change-id:", 10))
			continue;
		for (v = p + 10; *v == ' ' || *v == '\t'; v++)
			;
		if (!strncmp(v, id, n) && (!v[n] || isspace((unsigned char)v[n])))
			return 1;
	}
	return 0;
}

/* Does body link a stored revision (".../<message-id>/")? */
static int links_stored(const struct sk_series *s, const char *body)
{
	size_t i, n;

	for (i = 0; i < s->nr_revs; i++) {
		const char *id = s->revs[i].message_id, *p;

		n = id ? strlen(id) : 0;
		for (p = body; n && (p = strstr(p, id)); p += n)
			if (p > body && strchr("/<: \t\n", p[-1]) &&
			    (!p[n] || strchr("/>#?) \t\n", p[n])))
				return 1;
	}
	return 0;
}

/* Is this mail the head of a revision of s? */
static int same_series(const struct sk_series *s, const struct sk_mail *m,
		       const struct sk_subject *subj)
{
	struct identities id;
	char *a;
	size_t i;
	int same = 0;

	if (s->change_id && *s->change_id && change_id_in(m->body, s->change_id))
		return 1;
	if ((!s->subject || strcasecmp(s->subject, subj->title)) &&
	    !links_stored(s, m->body))
		return 0;
	a = sk_mail_address(m->from);
	identities_of(&id, s);
	for (i = 0; i < id.nr && !same; i++)
		same = !strcmp(a, id.mail[i]);
	identities_release(&id);
	free(a);
	return same;
}

/* A patch 1/N whose cover letter (of that version) is among the hits. */
static int has_cover(const struct sk_mbox *hits, const struct sk_mail *m,
		     int version)
{
	char *parent = sk_msgid_strip(m->in_reply_to);
	size_t i;
	int found = 0;

	for (i = 0; *parent && i < hits->nr && !found; i++) {
		char *id = sk_msgid_strip(hits->mails[i].message_id);
		struct sk_subject s;

		if (!strcmp(id, parent)) {
			sk_subject_parse(&s, hits->mails[i].subject);
			found = s.nr == 0 && s.version == version &&
				!(s.flags & SK_SUBJ_REPLY);
			sk_subject_release(&s);
		}
		free(id);
	}
	free(parent);
	return found;
}

static int cmp_cand(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	return x->version - y->version;
}

int sk_pull_update_is_revision(const struct sk_series *s, const struct sk_mbox *hits,
			  size_t i)
{
	const struct sk_revision *latest = sk_series_latest(s);
	const struct sk_mail *m = &hits->mails[i];
	char *id = sk_msgid_strip(m->message_id);
	struct sk_subject subj;
	int take;

	sk_subject_parse(&subj, m->subject);
	take = latest && (subj.flags & SK_SUBJ_PATCH) &&
	       !(subj.flags & (SK_SUBJ_REPLY | SK_SUBJ_FIXLET)) &&
	       subj.nr <= 1 &&
	       /* after an RFC any posting is newer; its number is no version */
	       (latest->rfc || subj.version >= sk_revision_posted(latest)) &&
	       *id && !known_msgid(s, id) && same_series(s, m, &subj) &&
	       !(subj.nr == 1 && has_cover(hits, m, subj.version));
	take = take ? subj.version : 0;
	sk_subject_release(&subj);
	free(id);
	return take;
}

static void find_candidates(struct plan *pl, const struct sk_mbox *hits,
			    size_t max)
{
	size_t i, j;

	for (i = 0; i < hits->nr; i++) {
		int v, dup = 0;
		char *id;

		/* one mail we cannot read is not the end of the update */
		if (hits->mails[i].error) {
			sk_strbuf_addf(&pl->warnings, "search hit left out: %s\n",
				       hits->mails[i].error);
			continue;
		}
		v = sk_pull_update_is_revision(pl->s, hits, i);
		if (!v)
			continue;
		id = sk_msgid_strip(hits->mails[i].message_id);
		/* anyone can post: an id b4 would misread is never passed */
		if (sk_msgid_check(id)) {
			sk_strbuf_addf(&pl->warnings, "search hit left out: %s\n",
				       sk_error_last());
			sk_error_clear();
			free(id);
			continue;
		}
		for (j = 0; j < pl->nr_cands; j++)
			dup |= !strcmp(pl->cands[j].message_id, id);
		if (dup) {
			free(id);
			continue;
		}
		pl->cands = sk_xrealloc(pl->cands, (pl->nr_cands + 1) * sizeof(*pl->cands));
		pl->cands[pl->nr_cands].message_id = id;
		pl->cands[pl->nr_cands++].version = v;
	}
	/* stable: rerolls of one version keep the order the list has them */
	for (i = 1; i < pl->nr_cands; i++)
		for (j = i; j > 0 && cmp_cand(&pl->cands[j - 1], &pl->cands[j]) > 0; j--) {
			struct candidate t = pl->cands[j];

			pl->cands[j] = pl->cands[j - 1];
			pl->cands[j - 1] = t;
		}
	/* at most max, the newest: the oldest are named and left out */
	if (max && pl->nr_cands > max) {
		size_t drop = pl->nr_cands - max;

		sk_strbuf_addf(&pl->warnings, "%zu older revision%s on the list "
			       "left out (at most %zu pulled per series, "
			       "--max-revisions):", drop, drop == 1 ? "" : "s",
			       max);
		for (i = 0; i < drop; i++) {
			sk_strbuf_addf(&pl->warnings, " <%s>",
				       pl->cands[i].message_id);
			free(pl->cands[i].message_id);
		}
		sk_strbuf_addch(&pl->warnings, '\n');
		memmove(pl->cands, pl->cands + drop, max * sizeof(*pl->cands));
		pl->nr_cands = max;
	}
}

static int search_one(struct plan *pl, const struct sk_update_opts *o,
		      const char *url, double start)
{
	struct sk_mbox hits = SK_MBOX_INIT;
	char *tmp = NULL, *q = sk_pull_update_query(pl->s);
	unsigned int left = time_left(o, start, o->timeout_ms);
	int ret = sk_mkdtemp_in(&tmp, "/tmp", "stablekit-search");

	if (!ret && !left)
		ret = sk_error_set(SK_ETIMEOUT, "the update's deadline of %u s "
				   "passed before this search (--deadline)",
				   o->deadline_ms / 1000);
	if (!ret)
		ret = sk_lore_search(&hits, url, q, tmp, left);
	if (ret)
		sk_error_prefix(ret, "%s", pl->s->slug);
	else
		find_candidates(pl, &hits, o->max_revisions);
	sk_mbox_release(&hits);
	if (tmp)
		sk_rmrf(tmp);
	free(tmp);
	free(q);
	return ret;
}

/* A posted (not RFC) revision of s of this version, stored, so complete. */
static const struct sk_revision *stored_version(const struct sk_series *s,
						int version)
{
	size_t i;

	for (i = 0; i < s->nr_revs; i++)
		if (!s->revs[i].rfc && sk_revision_posted(&s->revs[i]) == version)
			return &s->revs[i];
	return NULL;
}

static void do_pull(struct sk_update_series *us, const struct sk_update_opts *o,
		    const char *url, const char *msgid, const struct sk_series *s,
		    int version, const char *picked, double start)
{
	const struct sk_revision *have;
	struct sk_pull_opts po = { 0 };
	struct sk_update_pull *p;
	unsigned int left = time_left(o, start, o->timeout_ms);
	char *pick;

	us->pulls = sk_xrealloc(us->pulls, (us->nr_pulls + 1) * sizeof(*us->pulls));
	p = &us->pulls[us->nr_pulls++];
	memset(p, 0, sizeof(*p));
	p->message_id = sk_xstrdup(msgid);
	if (!left) {
		/* no time left: not run, and said */
		p->ret = SK_ETIMEOUT;
		p->error = sk_xstrfmt("not pulled: the update's deadline of "
				      "%u s passed (--deadline)",
				      o->deadline_ms / 1000);
		us->failed = 1;
		return;
	}
	po.top = o->top;
	po.msgid = msgid;
	po.name = us->slug;
	po.lore = url;
	po.timeout_ms = left;
	/* a pick ("2/3 of <id>") takes the same patches of what it finds */
	pick = picked ? sk_xstrndup(picked, strcspn(picked, "/")) : NULL;
	po.pick = pick;
	p->ret = sk_pull(&p->res, &po);
	free(pick);
	have = p->ret && p->res.missing && s ? stored_version(s, version) : NULL;
	if (have) {
		/* the list keeps the broken first try forever: say it, go on */
		p->skipped = 1;
		p->error = sk_xstrfmt("an incomplete posting of v%d (missing patch %s); v%d is stored complete from <%s>",
				      version, p->res.missing, version,
				      have->message_id ? have->message_id : "?");
		sk_error_clear();
	} else if (p->ret) {
		p->error = sk_xstrdup(sk_error_last());
		us->failed = 1;
	} else if (p->res.outcome == SK_PULL_NEW_REVISION && !p->res.older) {
		const struct sk_revision *r = sk_series_revision(p->res.series,
								 p->res.version);

		us->latest_after = p->res.version;	/* it is the latest now */
		if (r && r->label) {
			free(us->latest_label);
			us->latest_label = sk_xstrdup(r->label);
		}
	}
}

static void update_one(struct sk_update_series *us, const struct plan *pl,
		       const struct sk_update_opts *o, const char *url,
		       double start)
{
	const struct sk_revision *latest = sk_series_latest(pl->s);
	int new_rev = 0;
	size_t i;

	us->slug = sk_xstrdup(pl->s->slug);
	sk_strbuf_init(&us->warnings);
	sk_strbuf_add(&us->warnings, pl->warnings.buf, pl->warnings.len);
	us->latest_before = us->latest_after = latest ? latest->version : 0;
	us->latest_label = latest && latest->label ? sk_xstrdup(latest->label) :
			   NULL;
	us->nr_found = pl->nr_cands;
	/* one revision that fails (incomplete on the list) does not hide the next */
	for (i = 0; i < pl->nr_cands; i++) {
		do_pull(us, o, url, pl->cands[i].message_id, pl->s,
			pl->cands[i].version, pl->s->picked, start);
		new_rev |= !us->pulls[us->nr_pulls - 1].ret &&
			   us->pulls[us->nr_pulls - 1].res.outcome == SK_PULL_NEW_REVISION;
	}
	/* replies to the revision we have: trailers and fixlets since */
	if (!new_rev && latest && latest->message_id)
		do_pull(us, o, url, latest->message_id, NULL, 0,
			pl->s->picked, start);
}

static int load_plans(struct plan **out, size_t *nr, const struct sk_update_opts *o)
{
	char **names = NULL;
	size_t n = 0, i;
	int ret = 0;

	if (o->slugs) {
		names = sk_xcalloc(o->nr_slugs + 1, sizeof(*names));
		for (n = 0; n < o->nr_slugs; n++)
			names[n] = sk_xstrdup(o->slugs[n]);
	} else {
		ret = sk_series_names(&names, &n, o->top);
	}
	*out = sk_xcalloc(n + 1, sizeof(**out));
	*nr = 0;
	for (i = 0; i < n + 1; i++)
		sk_strbuf_init(&(*out)[i].warnings);
	for (i = 0; !ret && i < n; i++) {
		ret = sk_name_check("series", names[i]);
		if (!ret)
			ret = sk_series_load(&(*out)[i].s, o->top, names[i]);
		if (!ret)
			(*nr)++;
	}
	sk_series_names_free(names, n);
	return ret;
}

static void free_plans(struct plan *pl, size_t nr)
{
	size_t i, j;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < pl[i].nr_cands; j++)
			free(pl[i].cands[j].message_id);
		free(pl[i].cands);
		sk_strbuf_release(&pl[i].warnings);
		sk_series_free(pl[i].s);
	}
	free(pl);
}

int sk_pull_update(struct sk_update_result *out, const struct sk_update_opts *o)
{
	struct plan *plans = NULL;
	size_t nr = 0, i;
	double start = sk_now();
	int ret;

	memset(out, 0, sizeof(*out));
	ret = load_plans(&plans, &nr, o);
	/* every search first: offline, nothing is touched */
	for (i = 0; !ret && i < nr; i++)
		ret = search_one(&plans[i], o, o->lore ? o->lore : SK_LORE_DEFAULT,
				 start);
	if (!ret) {
		out->items = sk_xcalloc(nr + 1, sizeof(*out->items));
		for (i = 0; i < nr; i++) {
			update_one(&out->items[i], &plans[i], o,
				   o->lore ? o->lore : SK_LORE_DEFAULT, start);
			out->failed += out->items[i].failed;
		}
		out->nr = nr;
	}
	free_plans(plans, nr);
	return ret;
}

void sk_pull_update_result_release(struct sk_update_result *r)
{
	size_t i, j;

	for (i = 0; i < r->nr; i++) {
		struct sk_update_series *us = &r->items[i];

		for (j = 0; j < us->nr_pulls; j++) {
			free(us->pulls[j].message_id);
			free(us->pulls[j].error);
			sk_pull_result_release(&us->pulls[j].res);
		}
		free(us->pulls);
		sk_strbuf_release(&us->warnings);
		free(us->latest_label);
		free(us->slug);
	}
	free(r->items);
	memset(r, 0, sizeof(*r));
}

#include "mail/pull.h"
#include "mail/b4.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "mail/listmail.h"
#include "mail/mbox.h"
#include "core/names.h"
#include "mail/patch.h"
#include "mail/trailers.h"
#include "core/diff.h"
#include "core/strvec.h"

#include <ctype.h>
#include <errno.h>
#include <git2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define SLUG_MAX 52
/*
 * "[PATCH v6 7/6]": a patch the author added to a posted revision after
 * the fact.  Beyond a few such, the counter is junk, not an addition.
 */
#define SK_PULL_ADDITIONS 16

/* Everything one pull works on, released in one place. */
struct pull {
	const struct sk_pull_opts *o;
	struct sk_pull_result *res;
	char *input;			/* absolute */
	char *tmpdir;			/* b4's output */
	struct sk_mbox raw;		/* the mails as given */
	struct sk_threads threads;
	size_t thread;			/* the one pulled */
	char *want;			/* its message-id, bare */
	unsigned char *use;		/* per raw mail: in the thread, first copy */
	enum sk_mail_kind *kinds;	/* per raw mail */
	size_t validated;		/* patch mails of the thread that parsed */
	int single;			/* one stable mail pulled as its own series */
	struct sk_mbox am;		/* b4's am-ready mbox */
	struct sk_mbox cover;
	struct sk_patch *patches;
	size_t nr_patches;
	struct sk_patch *fixlets;
	int *fixlet_target;		/* patch number each fixlet amends */
	char **fixlet_irt;		/* the message it answers */
	size_t nr_fixlets;
	char **replaced;		/* fixlets a later version replaced */
	size_t nr_replaced, alloc_replaced;
	struct sk_revision rev;		/* the new revision, built here */
	char *subject, *author, *change_id;
	const char *kind;		/* sk_mail_kind_name of the thread */
	char *failed_on;		/* a FAILED mail's tree, "6.1-stable" */
	char *picked;			/* -P: "3/5 of <message-id>" */
};

char *sk_slugify(const char *title)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	const char *p;

	for (p = title; *p; p++) {
		int c = tolower((unsigned char)*p);

		if (isalnum(c) || c == '_')
			sk_strbuf_addch(&sb, c);
		else if (sb.len && sb.buf[sb.len - 1] != '-')
			sk_strbuf_addch(&sb, '-');
	}
	while (sb.len && sb.buf[sb.len - 1] == '-')
		sk_strbuf_setlen(&sb, sb.len - 1);
	if (sb.len > SLUG_MAX) {
		size_t cut = SLUG_MAX;

		while (cut > 0 && sb.buf[cut] != '-')
			cut--;
		sk_strbuf_setlen(&sb, cut ? cut : SLUG_MAX);
	}
	if (!sb.len)
		sk_strbuf_adds(&sb, "series");
	return sk_strbuf_detach(&sb);
}

/* One line of a warning or a note: what mails carry is shown, not obeyed. */
static void add_line(struct sk_strbuf *sb, const char *fmt, va_list ap)
{
	struct sk_strbuf line = SK_STRBUF_INIT;
	size_t i;

	sk_strbuf_vaddf(&line, fmt, ap);
	for (i = 0; i < line.len; i++) {
		unsigned char c = (unsigned char)line.buf[i];

		if (c == '\r')
			sk_strbuf_adds(sb, "\\r");
		else if ((c < ' ' && c != '\t') || c == 0x7f)
			sk_strbuf_addf(sb, "\\x%02x", c);
		else
			sk_strbuf_addch(sb, (char)c);
	}
	sk_strbuf_addch(sb, '\n');
	sk_strbuf_release(&line);
}

static void warn(struct pull *pl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct pull *pl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_line(&pl->res->warnings, fmt, ap);
	va_end(ap);
}

static void note(struct pull *pl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct pull *pl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_line(&pl->res->notes, fmt, ap);
	va_end(ap);
}

/* "<id>", "id" or a lore URL ".../id/" to the bare id. */
static char *wanted_id(const char *msgid)
{
	const char *start = msgid, *end = msgid + strlen(msgid);
	char *id, *bare;

	if (strncmp(msgid, "http://", 7) && strncmp(msgid, "https://", 8))
		return sk_msgid_strip(msgid);
	while (end > msgid && end[-1] == '/')
		end--;
	for (start = end; start > msgid && start[-1] != '/'; start--)
		;
	id = sk_xstrndup(start, (size_t)(end - start));
	bare = sk_msgid_strip(id);
	free(id);
	return bare;
}

static int read_raw(struct pull *pl)
{
	size_t i;
	int ret;

	/* an archive: a mail that cannot be read matters only in the thread */
	if (sk_is_dir(pl->input))
		ret = sk_mbox_read_maildir(&pl->raw, pl->input);
	else
		ret = sk_mbox_read_file(&pl->raw, pl->input);
	if (ret)
		return ret;
	pl->kinds = sk_xcalloc(pl->raw.nr + 1, sizeof(*pl->kinds));
	pl->use = sk_xcalloc(pl->raw.nr + 1, 1);
	for (i = 0; i < pl->raw.nr; i++)
		pl->kinds[i] = sk_mail_kind(&pl->raw.mails[i]);
	sk_threads_build(&pl->threads, &pl->raw);
	return 0;
}

static int is_cover(const struct sk_mail *m)
{
	struct sk_subject s;
	int cover;

	sk_subject_parse(&s, m->subject);
	cover = sk_subject_is_cover(&s);
	sk_subject_release(&s);
	return cover;
}

/* What the listing of an input's threads needs, per thread. */
struct thread_info {
	size_t mails;
	size_t patch;		/* its first patch mail, else raw.nr */
	size_t cover;		/* its cover letter, else raw.nr */
	int with_diff;		/* a patch mail of it has a diff */
};

static struct thread_info *thread_infos(const struct pull *pl)
{
	struct thread_info *ti = sk_xcalloc(pl->threads.nr + 1, sizeof(*ti));
	size_t i;

	for (i = 0; i < pl->threads.nr; i++)
		ti[i].patch = ti[i].cover = pl->raw.nr;
	for (i = 0; i < pl->raw.nr; i++) {
		struct thread_info *t = &ti[pl->threads.of[i]];

		t->mails++;
		if (pl->kinds[i] && t->patch == pl->raw.nr)
			t->patch = i;
		if (pl->kinds[i] && sk_mail_has_diff(&pl->raw.mails[i]))
			t->with_diff = 1;
		if (t->cover == pl->raw.nr && is_cover(&pl->raw.mails[i]))
			t->cover = i;
	}
	return ti;
}

/*
 * Without a message-id: the one thread that carries a series, a patch mail
 * with a diff (else, to name what is wrong, the one with a patch mail).
 */
static int only_thread(struct pull *pl)
{
	struct thread_info *ti = thread_infos(pl);
	size_t t, found = 0;
	int diff = 0;

	for (t = 0; t < pl->threads.nr; t++)
		diff |= ti[t].with_diff;
	for (t = 0; t < pl->threads.nr; t++) {
		size_t h = ti[t].cover < pl->raw.nr ? ti[t].cover : ti[t].patch;
		char *id;

		if (ti[t].patch == pl->raw.nr || (diff && !ti[t].with_diff))
			continue;
		id = sk_msgid_strip(pl->raw.mails[h].message_id);
		sk_strbuf_addf(&pl->res->threads, "<%s>  %s  (%zu mail%s)\n", id,
			       pl->raw.mails[h].subject, ti[t].mails,
			       ti[t].mails == 1 ? "" : "s");
		free(id);
		if (!found++)
			pl->thread = t;
	}
	free(ti);
	for (t = 0; !found && t < pl->raw.nr; t++)
		if (pl->raw.mails[t].error)	/* say why, not "no patch" */
			return sk_error_set(SK_EINVALID, "%s",
					    pl->raw.mails[t].error);
	if (!found)
		return sk_error_set(SK_EINVALID, "%s: no [PATCH] mail in %zu message(s)",
				    pl->input, pl->raw.nr);
	if (found > 1) {
		pl->res->ambiguous = 1;
		return sk_error_set(SK_EINVALID,
				    "%s: %zu threads carry patches; name the one to pull by a message-id of it",
				    pl->input, found);
	}
	return 0;
}

static int is_stable_kind(enum sk_mail_kind k)
{
	return k >= SK_MAIL_STABLE_REVIEW;
}

/* Does mail m answer the message id (In-Reply-To or References)? */
static int answers(const struct sk_mail *m, const char *id)
{
	char *irt = sk_msgid_strip(m->in_reply_to);
	int yes = !strcmp(irt, id);
	size_t i;

	free(irt);
	for (i = 0; !yes && i < m->nr_references; i++)
		yes = !strcmp(m->references[i], id);
	return yes;
}

/*
 * "[PATCH 6.6.y 1/2]" under a cover letter, without the "-stable review
 * patch." preamble of a review: an author's backport, a series like any
 * other, whichever of its mails is named.
 */
static int author_backport(const struct pull *pl, size_t i)
{
	const char *body = pl->raw.mails[i].body;

	return pl->kinds[i] == SK_MAIL_STABLE_REVIEW &&
	       sk_stable_review_body(body) == body;
}

/* Without a message-id, several stable mails: each is a series, listed. */
static int list_stable(struct pull *pl, size_t stable)
{
	size_t i;

	sk_strbuf_reset(&pl->res->threads);
	for (i = 0; i < pl->raw.nr; i++) {
		char *id;

		if (!pl->use[i] || !is_stable_kind(pl->kinds[i]))
			continue;
		id = sk_msgid_strip(pl->raw.mails[i].message_id);
		sk_strbuf_addf(&pl->res->threads, "<%s>  %s\n", id,
			       pl->raw.mails[i].subject);
		free(id);
	}
	pl->res->ambiguous = 1;
	return sk_error_set(SK_EINVALID,
			    "%s: %zu stable mails, each a series of its own; name the one to pull by its message-id",
			    pl->input, stable);
}

/*
 * A stable mail (review patch, AUTOSEL, FAILED) is a series of its own:
 * of its thread only it and the replies to it are pulled.  Taken when the
 * message-id names one, or when the thread holds a single one.
 */
static int stable_unit(struct pull *pl, long at)
{
	size_t i, stable = 0, other = 0;
	int cover = 0;
	char *id;

	for (i = 0; i < pl->raw.nr; i++)
		cover |= pl->use[i] && is_cover(&pl->raw.mails[i]);
	for (i = 0; i < pl->raw.nr; i++) {
		if (!pl->use[i] || !pl->kinds[i])
			continue;
		if (cover && author_backport(pl, i))
			other++;
		else if (is_stable_kind(pl->kinds[i]))
			stable++, at = at < 0 ? (long)i : at;
		else
			other++;
	}
	if (at < 0 || !is_stable_kind(pl->kinds[at]) || other)
		return 0;
	if (stable > 1 && !pl->want)
		return list_stable(pl, stable);
	pl->single = 1;
	id = sk_msgid_strip(pl->raw.mails[at].message_id);
	for (i = 0; i < pl->raw.nr; i++) {
		const struct sk_mail *m = &pl->raw.mails[i];

		if (!pl->use[i] || (long)i == at || answers(m, id))
			continue;
		pl->use[i] = 0;
		note(pl, "skipped %s:%zu '%s': not the stable patch pulled nor a reply to it",
		     m->source, m->line, m->subject);
	}
	free(id);
	return 0;
}

struct id_at {
	const char *id;
	size_t at;
};

/* By Message-Id, then by place in the input. */
static int cmp_id_at(const void *a, const void *b)
{
	const struct id_at *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* copy[i]: mail i of thread t repeats the Message-Id of an earlier one. */
static unsigned char *later_copies(const struct pull *pl, size_t t)
{
	unsigned char *copy = sk_xcalloc(pl->raw.nr + 1, 1);
	struct id_at *idx = sk_xcalloc(pl->raw.nr + 1, sizeof(*idx));
	size_t i, n = 0;

	for (i = 0; i < pl->raw.nr; i++)
		if (pl->threads.of[i] == t && *pl->raw.mails[i].message_id) {
			idx[n].id = pl->raw.mails[i].message_id;
			idx[n++].at = i;
		}
	qsort(idx, n, sizeof(*idx), cmp_id_at);
	for (i = 1; i < n; i++)
		copy[idx[i].at] = !strcmp(idx[i].id, idx[i - 1].id);
	free(idx);
	return copy;
}

/* The thread of the message-id, else the only one with patches. */
static int select_thread(struct pull *pl)
{
	unsigned char *copy;
	long at = -1;
	size_t i;
	int ret = 0;

	if (pl->o->msgid) {
		pl->want = wanted_id(pl->o->msgid);
		at = sk_listmail_find(&pl->raw, pl->want);
		if (at < 0)
			return sk_error_set(SK_EINVALID,
					    "%s: no mail with Message-Id <%s> in %zu message(s)",
					    pl->input, pl->want, pl->raw.nr);
		if (pl->raw.mails[at].error)
			return sk_error_set(SK_EINVALID, "%s",
					    pl->raw.mails[at].error);
		pl->thread = pl->threads.of[at];
	} else {
		ret = only_thread(pl);
	}
	if (ret)
		return ret;
	copy = later_copies(pl, pl->thread);
	for (i = 0; i < pl->raw.nr; i++) {
		const struct sk_mail *m = &pl->raw.mails[i];
		char *id = sk_msgid_strip(m->message_id);

		if (pl->threads.of[i] != pl->thread && m->error)
			note(pl, "skipped %s:%zu <%s> '%s': not in the thread pulled, "
			     "and unreadable: %s", m->source, m->line, id,
			     m->subject, m->error);
		else if (pl->threads.of[i] != pl->thread)
			note(pl, "skipped %s:%zu <%s> '%s': not in the thread pulled",
			     m->source, m->line, id, m->subject);
		else if (m->error && !ret)
			ret = sk_error_set(SK_EINVALID, "%s", m->error);
		else if (copy[i])
			note(pl, "skipped %s:%zu <%s>: a second copy of that message",
			     m->source, m->line, id);
		else
			pl->use[i] = 1;
		free(id);
	}
	free(copy);
	return ret ? ret : stable_unit(pl, at);
}

/* Parse one patch mail of the thread (a FAILED mail: the commit in it). */
static int parse_patch_mail(struct sk_patch *p, const struct pull *pl, size_t i)
{
	const struct sk_mail *m = &pl->raw.mails[i];
	int ret;

	if (pl->kinds[i] != SK_MAIL_FAILED)
		return sk_patch_parse(p, m);
	ret = sk_patch_parse_followup(p, m);
	if (ret == SK_ENOTFOUND)
		ret = sk_error_set(SK_EINVALID,
				   "%s:%zu: FAILED mail '%s' carries no original commit",
				   m->source, m->line, m->subject);
	if (!ret) {
		free(p->message_id);
		p->message_id = sk_msgid_strip(m->message_id);
	}
	return ret;
}

/* Validate every patch mail of the thread pulled before b4 sees it. */
static int check_raw(struct pull *pl)
{
	size_t i;
	int ret = read_raw(pl);

	if (!ret)
		ret = select_thread(pl);
	for (i = 0; !ret && i < pl->raw.nr; i++) {
		struct sk_patch p;

		if (!pl->use[i] || !pl->kinds[i])
			continue;
		ret = parse_patch_mail(&p, pl, i);
		sk_patch_release(&p);
		pl->validated++;
	}
	if (!ret && !pl->validated)
		ret = sk_error_set(SK_EINVALID, "%s: no [PATCH] mail in the thread of <%s> (%zu message(s))",
				   pl->input, pl->want ? pl->want : "", pl->raw.nr);
	return ret;
}

/*
 * b4 gets the thread as we read it: decoded to UTF-8, one plain entry per
 * mail.  b4 0.12 turns raw 8-bit headers into U+FFFD and dies on folded
 * encoded words; our parser does neither.
 */
static void format_thread_mail(struct sk_strbuf *sb, const struct pull *pl,
			       size_t i)
{
	const struct sk_mail *m = &pl->raw.mails[i];
	size_t at = sb->len;

	if (pl->kinds[i] == SK_MAIL_FAILED) {
		struct sk_patch p;

		/* the commit it carries, as a patch b4 takes; validated above */
		if (!parse_patch_mail(&p, pl, i))
			sk_patch_format(sb, &p, "[PATCH]");
		sk_patch_release(&p);
		return;
	}
	if (pl->kinds[i] == SK_MAIL_STABLE_REVIEW) {
		/* the real author's From: heads the body, for b4 */
		struct sk_mail trimmed = *m;

		trimmed.body = (char *)sk_stable_review_body(m->body);
		sk_mbox_format_mail(sb, &trimmed);
	} else {
		sk_mbox_format_mail(sb, m);
	}
	if (!*m->in_reply_to && m->nr_references) {
		/* b4 threads replies by In-Reply-To: the nearest reference */
		char *line = sk_xstrfmt("In-Reply-To: <%s>\n",
					m->references[m->nr_references - 1]);
		const char *nl = strchr(sb->buf + at, '\n');
		size_t pos = (size_t)(nl - sb->buf) + 1, n = strlen(line);

		sk_strbuf_grow(sb, n);
		memmove(sb->buf + pos + n, sb->buf + pos, sb->len - pos + 1);
		memcpy(sb->buf + pos, line, n);
		sk_strbuf_setlen(sb, sb->len + n);
		free(line);
	}
}

static int write_thread(struct pull *pl, char **out)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;
	int ret;

	for (i = 0; i < pl->raw.nr; i++)
		if (pl->use[i])
			format_thread_mail(&sb, pl, i);
	*out = sk_path_join(pl->tmpdir, "thread.mbx");
	ret = sk_write_file_atomic(*out, sb.buf, sb.len);
	sk_strbuf_release(&sb);
	return ret;
}

static int is_dup(const struct sk_patch *p, size_t upto, const struct sk_trailer *t)
{
	size_t i;

	for (i = 0; i < upto; i++)
		if (!strcasecmp(p->trailers[i].key, t->key) &&
		    !strcmp(p->trailers[i].value, t->value))
			return 1;
	return 0;
}

/*
 * b4 0.12 collects "Fixes:" lines that reviewers wrapped or wrote in prose
 * as trailers; keep only well-formed, unique ones, and say what was dropped.
 */
static void sanitize_trailers(struct pull *pl, struct sk_patch *p)
{
	size_t i, kept = 0;

	for (i = 0; i < p->nr_trailers; i++) {
		struct sk_trailer *t = &p->trailers[i];
		struct sk_fixes f;
		int bad = 0;

		if (!strcasecmp(t->key, "Fixes")) {
			bad = sk_fixes_parse(&f, t->value) != 0;
			sk_fixes_release(&f);
		}
		if (!sk_trailer_key_valid(t->key, strlen(t->key)))
			bad = 2;	/* series.conf could not store it */
		if (bad || is_dup(p, kept, t)) {
			warn(pl, "patch %d/%d: dropped %s trailer '%s: %s'",
			     p->subj.nr, p->subj.total,
			     bad == 2 ? "unstorable (key not a git-config name)" :
			     bad ? "malformed" : "duplicate", t->key, t->value);
			free(t->key);
			free(t->value);
			continue;
		}
		p->trailers[kept++] = *t;
	}
	p->nr_trailers = kept;
}

/*
 * b4 --add-link links each patch to the mail it came in: for a FAILED
 * mail that is the FAILED mail, not the patch.  The commit pasted in it
 * keeps its own Link: (to the patch); the one to the FAILED mail goes.
 */
static void drop_failed_links(const struct pull *pl, struct sk_patch *p)
{
	size_t i, k, kept;

	for (i = 0; i < pl->raw.nr; i++) {
		char *id;

		if (!pl->use[i] || pl->kinds[i] != SK_MAIL_FAILED)
			continue;
		id = sk_msgid_strip(pl->raw.mails[i].message_id);
		for (k = kept = 0; k < p->nr_trailers; k++) {
			struct sk_trailer *t = &p->trailers[k];

			if (*id && !strcasecmp(t->key, "Link") &&
			    strstr(t->value, id)) {
				free(t->key);
				free(t->value);
				continue;
			}
			p->trailers[kept++] = *t;
		}
		p->nr_trailers = kept;
		free(id);
	}
}

static void message_hash(char out[41], const char *msg)
{
	git_oid oid;

	git_odb_hash(&oid, msg, strlen(msg), GIT_OBJECT_BLOB);
	git_oid_tostr(out, 41, &oid);
}

static void footer_value(char **slot, const char *body, const char *key)
{
	size_t n = strlen(key);
	const char *p = body;

	while (p && *p) {
		if (!strncmp(p, key, n)) {
			const char *v = p + n, *nl = strchr(v, '\n');

			while (*v == ' ')
				v++;
			free(*slot);
			*slot = sk_xstrndup(v, nl ? (size_t)(nl - v) : strlen(v));
			return;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
}

/* A revision is stored whole or not at all. */
static int check_complete(struct pull *pl)
{
	struct sk_strbuf missing = SK_STRBUF_INIT;
	int total = pl->nr_patches ? pl->patches[0].subj.total : 0, n;
	size_t i;
	int ret = 0;

	for (n = 1; n <= total; n++) {
		for (i = 0; i < pl->nr_patches && pl->patches[i].subj.nr != n; i++)
			;
		if (i == pl->nr_patches)
			sk_strbuf_addf(&missing, " %d/%d", n, total);
	}
	if (missing.len) {
		pl->res->missing = sk_xstrdup(missing.buf + 1);
		ret = sk_error_set(SK_EINVALID,
				   "%s: incomplete series, missing patch%s", pl->input,
				   missing.buf);
	}
	for (i = 0; !ret && i < pl->nr_patches; i++)
		if (pl->patches[i].subj.nr > total)
			note(pl, "patch %d/%d '%s': added to the revision after it was posted",
			     pl->patches[i].subj.nr, total, pl->patches[i].subj.title);
	sk_strbuf_release(&missing);
	return ret;
}

/*
 * The patches we validated of the revision b4 chose (its version and RFC
 * mark): one per counter n/N, one for a mail without a counter.
 */
static size_t validated_of(const struct pull *pl, const struct sk_subject *want)
{
	unsigned char *seen = NULL;
	size_t i, n = 0, single = 0;
	int max = 0;

	for (i = 0; i < pl->raw.nr; i++) {
		struct sk_subject s;
		char *failed;

		if (!pl->use[i] || !pl->kinds[i])
			continue;
		failed = sk_failed_subject(pl->raw.mails[i].subject);
		sk_subject_parse(&s, failed ? failed : pl->raw.mails[i].subject);
		free(failed);
		if (s.version == want->version &&
		    !(s.flags & SK_SUBJ_RFC) == !(want->flags & SK_SUBJ_RFC)) {
			if (!s.total)
				single = 1;
			else if (s.nr > 0 && s.nr <= s.total + SK_PULL_ADDITIONS) {
				if (s.nr > max) {
					seen = sk_xrealloc(seen, (size_t)s.nr + 1);
					memset(seen + max + 1, 0, (size_t)(s.nr - max));
					max = s.nr;
				}
				n += !seen[s.nr];
				seen[s.nr] = 1;
			}
		}
		sk_subject_release(&s);
	}
	free(seen);
	return n ? n : single;
}

/* b4 returns every patch we validated, or the pull fails. */
static int check_count(const struct pull *pl)
{
	struct sk_subject s;
	size_t want;

	if (!pl->am.nr)
		return 0;
	sk_subject_parse(&s, pl->am.mails[0].subject);
	want = validated_of(pl, &s);
	sk_subject_release(&s);
	if (want == pl->am.nr)
		return 0;
	return sk_error_set(SK_EINVALID,
			    "%s: b4 returned %zu patch%s but the thread holds %zu valid patch mail%s of that revision; nothing stored",
			    pl->input, pl->am.nr, pl->am.nr == 1 ? "" : "es",
			    want, want == 1 ? "" : "s");
}

/*
 * The author of a patch mail as we read it (its in-body From:, else its
 * From:), not as b4 0.12 wrote it again: b4 drops the quotes and angle
 * brackets of a name with address syntax, leaving no address to tell.
 */
static void own_author(struct pull *pl, struct sk_patch *p)
{
	long at = sk_listmail_find(&pl->raw, p->message_id);
	struct sk_patch own;

	if (at < 0 || pl->kinds[at] != SK_MAIL_PATCH)
		return;
	if (!sk_patch_parse(&own, &pl->raw.mails[at]) && own.author &&
	    *own.author) {
		free(p->author);
		p->author = own.author;
		own.author = NULL;
	}
	sk_patch_release(&own);
	sk_error_clear();
}

static int read_b4_output(struct pull *pl, const struct sk_b4_am_result *b4)
{
	size_t i;
	int ret = sk_mbox_parse_file(&pl->am, b4->mbx);

	if (ret)
		return sk_error_prefix(ret, "reading b4's output");
	if (b4->cover && (ret = sk_mbox_parse_file(&pl->cover, b4->cover)))
		return sk_error_prefix(ret, "reading b4's cover letter");
	ret = check_count(pl);
	if (ret)
		return ret;
	pl->patches = sk_xcalloc(pl->am.nr, sizeof(*pl->patches));
	for (i = 0; i < pl->am.nr; i++) {
		struct sk_patch *p = &pl->patches[i];

		ret = sk_patch_parse(p, &pl->am.mails[i]);
		pl->nr_patches++;
		if (ret)
			return ret;
		if (!p->subj.nr)
			p->subj.nr = (int)i + 1;
		if (!p->subj.total)
			p->subj.total = (int)pl->am.nr;
		if (pl->single)
			p->subj.nr = p->subj.total = 1;
		own_author(pl, p);
		sanitize_trailers(pl, p);
		drop_failed_links(pl, p);
	}
	return check_complete(pl);
}

static int patch_by_msgid(const struct pull *pl, const char *id)
{
	size_t i;

	for (i = 0; i < pl->nr_patches; i++)
		if (!strcmp(pl->patches[i].message_id, id))
			return pl->patches[i].subj.nr;
	return 0;
}

/* The series patch a reply answers: its parent, else the nearest reference. */
static int reply_target(const struct pull *pl, const struct sk_mail *m)
{
	char *id = sk_msgid_strip(m->in_reply_to);
	int nr = *id ? patch_by_msgid(pl, id) : 0;
	size_t i;

	free(id);
	for (i = m->nr_references; !nr && i > 0; i--)
		nr = patch_by_msgid(pl, m->references[i - 1]);
	return nr;
}

static int have_fixlet(const struct pull *pl, const char *id)
{
	size_t i;

	for (i = 0; i < pl->nr_fixlets; i++)
		if (!strcmp(pl->fixlets[i].message_id, id))
			return 1;
	return 0;
}

static void add_fixlet(struct pull *pl, struct sk_patch *p, int target,
		       const char *irt)
{
	pl->fixlets = sk_xrealloc(pl->fixlets, (pl->nr_fixlets + 1) * sizeof(*pl->fixlets));
	pl->fixlet_target = sk_xrealloc(pl->fixlet_target,
					(pl->nr_fixlets + 1) * sizeof(int));
	pl->fixlet_irt = sk_xrealloc(pl->fixlet_irt, (pl->nr_fixlets + 1) *
				     sizeof(*pl->fixlet_irt));
	pl->fixlet_irt[pl->nr_fixlets] = sk_xstrdup(irt);
	pl->fixlets[pl->nr_fixlets] = *p;
	pl->fixlet_target[pl->nr_fixlets++] = target;
	memset(p, 0, sizeof(*p));
}

/* The message a reply answers: In-Reply-To, else its last reference. */
static char *parent_of(const struct sk_mail *m)
{
	if (*m->in_reply_to || !m->nr_references)
		return sk_msgid_strip(m->in_reply_to);
	return sk_xstrdup(m->references[m->nr_references - 1]);
}

/* Do the hunks of two diffs of a file change lines in common (old side)? */
static int hunks_overlap(const struct sk_diff_file *a, const struct sk_diff_file *b)
{
	size_t i, j;

	for (i = 0; i < a->nr_hunks; i++)
		for (j = 0; j < b->nr_hunks; j++) {
			const struct sk_diff_hunk *x = &a->hunks[i], *y = &b->hunks[j];
			long xe = x->old_start + (x->old_count ? x->old_count : 1);
			long ye = y->old_start + (y->old_count ? y->old_count : 1);

			if (x->old_start < ye && y->old_start < xe)
				return 1;
		}
	return 0;
}

/* Abbreviated blob ids of one object: the shorter a prefix of the longer. */
static int same_blob(const char *a, const char *b)
{
	size_t n = strlen(a) < strlen(b) ? strlen(a) : strlen(b);

	return n >= 7 && !strncasecmp(a, b, n);
}

/*
 * Is later a corrected version of earlier, to send in its place?  It is
 * when it is the same diff again (a resend), or when, for a file both
 * change, it starts from the same preimage (the "index" line: written on
 * the same tree, not on top of earlier) and changes the same lines.  A
 * fixlet written on top of the other, or on other lines, is one of its own.
 */
static int fixlet_replaces(const struct sk_patch *later,
			   const struct sk_patch *earlier)
{
	struct sk_diff a = { 0 }, b = { 0 };
	size_t i, j;
	int ret = 0;

	if (!strcmp(later->patch_id, earlier->patch_id))
		return 1;
	if (sk_diff_parse(&a, later->diff, strlen(later->diff), "fixlet",
			  later->diff_line, SK_DIFF_ALLOW_SYMLINK) ||
	    sk_diff_parse(&b, earlier->diff, strlen(earlier->diff), "fixlet",
			  earlier->diff_line, SK_DIFF_ALLOW_SYMLINK)) {
		sk_error_clear();
		goto out;
	}
	for (i = 0; !ret && i < a.nr; i++)
		for (j = 0; !ret && j < b.nr; j++) {
			const struct sk_diff_file *x = &a.files[i], *y = &b.files[j];

			ret = x->new_path && y->new_path &&
			      !strcmp(x->new_path, y->new_path) &&
			      same_blob(x->old_blob, y->old_blob) &&
			      hunks_overlap(x, y);
		}
out:
	sk_diff_release(&a);
	sk_diff_release(&b);
	return ret;
}

static int same_sender(const struct sk_patch *a, const struct sk_patch *b)
{
	char *x = sk_mail_address(a->author ? a->author : "");
	char *y = sk_mail_address(b->author ? b->author : "");
	int same = *x && !strcmp(x, y);

	free(x);
	free(y);
	return same;
}

/* Is fixlet j sent after fixlet i (by Date:, else in the thread's order)? */
static int sent_after(const struct pull *pl, size_t j, size_t i)
{
	long long tj = sk_mail_time(pl->fixlets[j].date);
	long long ti = sk_mail_time(pl->fixlets[i].date);

	if (tj >= 0 && ti >= 0 && tj != ti)
		return tj > ti;
	return j > i;
}

static int was_replaced(const struct pull *pl, const char *id)
{
	size_t i;

	for (i = 0; i < pl->nr_replaced; i++)
		if (!strcmp(pl->replaced[i], id))
			return 1;
	return 0;
}

/*
 * An author who sends a fixlet again, corrected, means the new one instead
 * of the old: applying both would apply the fix twice.  Keep the latest.
 */
static void drop_replaced_fixlets(struct pull *pl)
{
	unsigned char *gone = sk_xcalloc(pl->nr_fixlets + 1, 1);
	size_t i, j, k;

	for (i = 0; i < pl->nr_fixlets; i++)
		for (j = 0; j < pl->nr_fixlets && !gone[i]; j++) {
			if (j == i || gone[j] ||
			    pl->fixlet_target[j] != pl->fixlet_target[i] ||
			    !sent_after(pl, j, i) ||
			    !same_sender(&pl->fixlets[i], &pl->fixlets[j]) ||
			    !fixlet_replaces(&pl->fixlets[j], &pl->fixlets[i]))
				continue;
			gone[i] = 1;
			warn(pl, "patch %d: fixlet <%s> replaced by its later "
			     "version <%s> (the same lines of the same code)",
			     pl->fixlet_target[i], pl->fixlets[i].message_id,
			     pl->fixlets[j].message_id);
		}
	for (i = k = 0; i < pl->nr_fixlets; i++) {
		if (gone[i]) {
			*SK_ARRAY_PUSH(pl->replaced, pl->nr_replaced,
				       pl->alloc_replaced) =
				sk_xstrdup(pl->fixlets[i].message_id);
			sk_patch_release(&pl->fixlets[i]);
			free(pl->fixlet_irt[i]);
			continue;
		}
		pl->fixlets[k] = pl->fixlets[i];
		pl->fixlet_irt[k] = pl->fixlet_irt[i];
		pl->fixlet_target[k++] = pl->fixlet_target[i];
	}
	pl->nr_fixlets = k;
	free(gone);
}

static int find_fixlets(struct pull *pl)
{
	size_t i;

	for (i = 0; i < pl->raw.nr; i++) {
		const struct sk_mail *m = &pl->raw.mails[i];
		char *id = sk_msgid_strip(m->message_id), *irt;
		int known = patch_by_msgid(pl, id) || have_fixlet(pl, id), target;
		struct sk_patch p;
		int ret;

		free(id);
		if (!pl->use[i] || known || (!*m->in_reply_to && !m->nr_references))
			continue;
		target = reply_target(pl, m);
		if (!target)
			continue;
		ret = sk_patch_parse_followup(&p, m);
		if (ret)
			sk_patch_release(&p);
		if (ret == SK_ENOTFOUND)
			continue;
		if (ret) {
			/*
			 * A reviewer's sketch, wrapped by a mail client: b4
			 * takes the series without it, so do we.
			 */
			char *rid = sk_msgid_strip(m->message_id);

			warn(pl, "reply <%s> '%s' (%s:%zu): its diff does not parse, not taken as a fixlet: %s",
			     rid, m->subject, m->source, m->line, sk_error_last());
			free(rid);
			sk_error_clear();
			continue;
		}
		free(p.message_id);
		p.message_id = sk_msgid_strip(m->message_id);
		irt = parent_of(m);
		add_fixlet(pl, &p, target, irt);
		free(irt);
	}
	drop_replaced_fixlets(pl);
	return 0;
}

static char **copy_strs(char *const *a, size_t nr)
{
	char **out = sk_xcalloc(nr + 1, sizeof(*out));
	size_t i;

	for (i = 0; i < nr; i++)
		out[i] = sk_xstrdup(a[i]);
	return out;
}

static void fill_fixlet(struct sk_fixlet *f, const struct sk_patch *p,
			const char *irt, int nr)
{
	f->nr = nr;
	f->subject = sk_xstrdup(p->subj.title);
	f->author = sk_xstrdup(p->author);
	f->date = sk_xstrdup(p->date);
	f->message_id = sk_xstrdup(p->message_id);
	f->in_reply_to = sk_xstrdup(irt ? irt : "");
	memcpy(f->patch_id, p->patch_id, sizeof(f->patch_id));
	f->files = copy_strs(p->files, p->nr_files);
	f->nr_files = p->nr_files;
}

static void set_label(struct sk_revision *r, const struct sk_subject *s)
{
	char *label;

	if (!(s->flags & SK_SUBJ_RFC))
		label = sk_xstrfmt("v%d", s->version);
	else if (s->version > 1)
		label = sk_xstrfmt("RFC v%d", s->version);
	else
		label = sk_xstrdup("RFC");
	sk_revision_set_label(r, label);
	free(label);
}

/* The upstream commit a stable mail of the thread names, by message-id. */
static char *upstream_of(struct pull *pl, const char *msgid)
{
	size_t i;

	for (i = 0; i < pl->raw.nr; i++) {
		const struct sk_mail *m = &pl->raw.mails[i];
		char *id;
		int same;

		if (!pl->use[i] || pl->kinds[i] < SK_MAIL_STABLE_REVIEW)
			continue;
		id = sk_msgid_strip(m->message_id);
		same = !strcmp(id, msgid);
		free(id);
		if (!same)
			continue;
		if ((!pl->kind || !strcmp(pl->kind, "series")) &&
		    (pl->single || !author_backport(pl, i)))
			pl->kind = sk_mail_kind_name(pl->kinds[i]);
		if (pl->kinds[i] == SK_MAIL_FAILED && !pl->failed_on)
			pl->failed_on = sk_failed_tree(m->subject);
		return sk_mail_upstream(m->body);
	}
	return NULL;
}

/*
 * The From: the head mail was sent with, when it is not the author's (a
 * patch sent from another address, the author in an in-body From:):
 * pull --update searches the list by it.
 */
static char *sender_of(const struct pull *pl, const char *msgid,
		       const char *author)
{
	long at = sk_listmail_find(&pl->raw, msgid);
	char *a, *b;
	int same;

	if (at < 0 || !*pl->raw.mails[at].from)
		return NULL;
	a = sk_mail_address(pl->raw.mails[at].from);
	b = sk_mail_address(author ? author : "");
	same = !strcmp(a, b);
	free(a);
	free(b);
	return same ? NULL : sk_xstrdup(pl->raw.mails[at].from);
}

/*
 * -P "a", "a-b" or "a-" (to max), comma-separated: keep[n] for each n.
 * Without keep, the selection's syntax alone (max unknown yet).
 */
static int parse_pick(const char *sel, unsigned char *keep, int max)
{
	const char *p = sel;
	char *end;
	long a, b;

	while (*p) {
		if (!isdigit((unsigned char)*p))
			goto bad;
		a = b = strtol(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (!*p || *p == ',') {
				b = max;
				end = (char *)p;
			} else if (isdigit((unsigned char)*p)) {
				b = strtol(p, &end, 10);
			} else {
				goto bad;
			}
		}
		if (!keep && (a < 1 || b < a))
			goto bad;
		if (a < 1 || b < a || b > max)
			return sk_error_set(SK_EINVALID, "-P %s: the revision has "
					    "patches 1-%d", sel, max);
		while (keep && a <= b)
			keep[a++] = 1;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	return 0;
bad:
	return sk_error_set(SK_EINVALID, "-P %s: not a selection (\"2\", "
			    "\"1-3,5\", \"4-\" or \"_\", the patch of the "
			    "message-id)", sel);
}

int sk_pull_pick_check(const char *sel)
{
	return strcmp(sel, "_") ? parse_pick(sel, NULL, INT_MAX) : 0;
}

/* Keep the picked patches (and their fixlets), numbered 1..n. */
static void keep_picked(struct pull *pl, const unsigned char *keep, int max)
{
	int *renum = sk_xcalloc((size_t)max + 1, sizeof(*renum));
	struct sk_strbuf from = SK_STRBUF_INIT;
	size_t i, j;
	int n = 0, total = pl->patches[0].subj.total;
	char *head;

	for (i = j = 0; i < pl->nr_patches; i++) {
		struct sk_patch *p = &pl->patches[i];

		if (!keep[p->subj.nr]) {
			note(pl, "skipped patch %d/%d '%s': not picked (-P %s)",
			     p->subj.nr, total, p->subj.title, pl->o->pick);
			sk_patch_release(p);
			continue;
		}
		sk_strbuf_addf(&from, "%s%d", from.len ? "," : "", p->subj.nr);
		renum[p->subj.nr] = ++n;
		pl->patches[j++] = *p;
	}
	pl->nr_patches = j;
	for (i = 0; i < j; i++) {
		pl->patches[i].subj.nr = renum[pl->patches[i].subj.nr];
		pl->patches[i].subj.total = n;
	}
	for (i = j = 0; i < pl->nr_fixlets; i++) {
		int t = pl->fixlet_target[i];

		if (t < 1 || t > max || !renum[t]) {
			sk_patch_release(&pl->fixlets[i]);
			free(pl->fixlet_irt[i]);
			continue;
		}
		pl->fixlets[j] = pl->fixlets[i];
		pl->fixlet_irt[j] = pl->fixlet_irt[i];
		pl->fixlet_target[j++] = renum[t];
	}
	pl->nr_fixlets = j;
	/* of the message-id given, else of the revision's head as posted */
	head = pl->want ? sk_xstrdup(pl->want) :
	       sk_msgid_strip(pl->cover.nr ? pl->cover.mails[0].message_id :
			      pl->am.mails[0].message_id);
	pl->picked = sk_xstrfmt("%s/%d of <%s>", from.buf, total, head);
	free(head);
	sk_strbuf_release(&from);
	free(renum);
}

/*
 * -P: the revision was validated whole; keep the patches picked.  The
 * cover goes (it describes the whole); the series is named after the
 * first patch picked, like a patch sent alone.
 */
static int pick_patches(struct pull *pl)
{
	unsigned char *keep;
	int max = 0, nr;
	size_t i;
	int ret = 0;

	if (!pl->o->pick)
		return 0;
	for (i = 0; i < pl->nr_patches; i++)
		if (pl->patches[i].subj.nr > max)
			max = pl->patches[i].subj.nr;
	keep = sk_xcalloc((size_t)max + 1, 1);
	if (strcmp(pl->o->pick, "_"))
		ret = parse_pick(pl->o->pick, keep, max);
	else if (!pl->want)
		ret = sk_error_set(SK_EINVALID, "-P _: no message-id given is "
				   "not a patch of the revision");
	else if ((nr = patch_by_msgid(pl, pl->want)))
		keep[nr] = 1;
	else
		ret = sk_error_set(SK_EINVALID, "-P _: <%s> is not a patch of "
				   "the revision", pl->want);
	if (!ret) {
		keep_picked(pl, keep, max);
		sk_mbox_release(&pl->cover);
	}
	free(keep);
	return ret;
}

/* The mail that heads the revision: its cover, else its first patch. */
static const struct sk_mail *head_mail(const struct pull *pl)
{
	long at;

	if (pl->cover.nr)
		return &pl->cover.mails[0];
	at = pl->picked ? sk_listmail_find(&pl->am, pl->patches[0].message_id) : -1;
	return at >= 0 ? &pl->am.mails[at] : &pl->am.mails[0];
}

static void build_revision(struct pull *pl)
{
	struct sk_revision *r = &pl->rev;
	const struct sk_mail *head = head_mail(pl);
	struct sk_subject s, label;
	size_t i, j;

	sk_subject_parse(&s, head->subject);
	label = pl->patches[0].subj;
	/* "[PATCHSET v2]" over "[PATCH 1/2]": the cover names the version */
	if (pl->cover.nr && s.version > label.version)
		label.version = s.version;
	r->version = label.version;
	set_label(r, &label);
	r->message_id = sk_msgid_strip(head->message_id);
	r->date = sk_xstrdup(head->date);
	pl->subject = sk_xstrdup(s.title);
	pl->author = sk_xstrdup(head->from);
	if (pl->cover.nr) {
		/* the cover's From: as we read it: b4 rewrites odd names */
		long at = sk_listmail_find(&pl->raw, r->message_id);

		if (at >= 0 && *pl->raw.mails[at].from) {
			free(pl->author);
			pl->author = sk_xstrdup(pl->raw.mails[at].from);
		}
	}
	sk_subject_release(&s);
	r->sender = sender_of(pl, r->message_id, pl->author);
	footer_value(&pl->change_id, head->body, "change-id:");
	footer_value(&r->base_commit, head->body, "base-commit:");
	r->patches = sk_xcalloc(pl->nr_patches, sizeof(*r->patches));
	for (i = 0; i < pl->nr_patches; i++) {
		const struct sk_patch *p = &pl->patches[i];
		struct sk_series_patch *sp = &r->patches[r->nr_patches++];

		sp->nr = p->subj.nr;
		sp->subject = sk_xstrdup(p->subj.title);
		sp->author = sk_xstrdup(p->author);
		sp->date = sk_xstrdup(p->date);
		sp->message_id = sk_xstrdup(p->message_id);
		sp->upstream = upstream_of(pl, p->message_id);
		memcpy(sp->patch_id, p->patch_id, sizeof(sp->patch_id));
		message_hash(sp->message_hash, p->message);
		sp->files = copy_strs(p->files, p->nr_files);
		sp->nr_files = p->nr_files;
		sp->trailers = sk_xcalloc(p->nr_trailers + 1, sizeof(*sp->trailers));
		for (j = 0; j < p->nr_trailers; j++) {
			sp->trailers[j].key = sk_xstrdup(p->trailers[j].key);
			sp->trailers[j].value = sk_xstrdup(p->trailers[j].value);
		}
		sp->nr_trailers = p->nr_trailers;
		for (j = 0; j < pl->nr_fixlets; j++) {
			if (pl->fixlet_target[j] != sp->nr)
				continue;
			sp->fixlets = sk_xrealloc(sp->fixlets,
						  (sp->nr_fixlets + 1) * sizeof(*sp->fixlets));
			memset(&sp->fixlets[sp->nr_fixlets], 0, sizeof(*sp->fixlets));
			fill_fixlet(&sp->fixlets[sp->nr_fixlets], &pl->fixlets[j],
				    pl->fixlet_irt[j],
				    (int)sp->nr_fixlets + 1);
			sp->nr_fixlets++;
		}
	}
}

/* Does text name the message-id id as a link would: ".../id/", "<id>"? */
static int names_msgid(const char *text, const char *id)
{
	size_t n = strlen(id);
	const char *p;

	for (p = text; n && (p = strstr(p, id)); p += n) {
		char before = p > text ? p[-1] : ' ';
		char after = p[n];

		if (strchr("/<: \t\n", before) &&
		    (!after || strchr("/>#?) \t\n", after)))
			return 1;
	}
	return 0;
}

/*
 * A new revision whose subject changed still links the earlier ones
 * ("v7: https://lore.kernel.org/linux-mm/<cover>/"): in the cover, else
 * in patch 1's notes.
 */
static int links_revision(const struct pull *pl, const struct sk_series *s)
{
	const struct sk_mail *head = head_mail(pl);
	size_t i;

	for (i = 0; i < s->nr_revs; i++)
		if (s->revs[i].message_id && *s->revs[i].message_id &&
		    names_msgid(head->body, s->revs[i].message_id))
			return 1;
	return 0;
}

/*
 * The stored series this revision belongs to: change-id, else the author
 * and the subject or a link to a stored revision.
 */
static int find_series(struct sk_series **out, const struct pull *pl)
{
	char **names;
	size_t nr, i;
	char *mail = sk_mail_address(pl->author);
	int ret = sk_series_names(&names, &nr, pl->o->top);

	*out = NULL;
	for (i = 0; !ret && i < nr && !*out; i++) {
		struct sk_series *s;
		char *smail;
		int same;

		if (pl->o->name && strcmp(names[i], pl->o->name))
			continue;
		ret = sk_series_load(&s, pl->o->top, names[i]);
		if (ret)
			break;
		smail = sk_mail_address(s->author ? s->author : "");
		if (!s->picked != !pl->picked)
			same = 0;	/* a pick is never merged with a whole series */
		else if (pl->o->name)
			same = 1;
		else if (pl->change_id && s->change_id)
			same = !strcmp(pl->change_id, s->change_id);
		else
			same = !strcmp(smail, mail) &&
			       ((s->subject && !strcasecmp(s->subject, pl->subject)) ||
				links_revision(pl, s));
		free(smail);
		if (same)
			*out = s;
		else
			sk_series_free(s);
	}
	sk_series_names_free(names, nr);
	free(mail);
	return ret;
}

static int same_content(const struct sk_revision *a, const struct sk_revision *b)
{
	struct sk_rev_changes c;
	int same;

	sk_revision_compare(&c, a, b);
	same = !sk_rev_changes_any(&c);
	sk_rev_changes_release(&c);
	return same;
}

static int same_code(const struct sk_revision *a, const struct sk_revision *b)
{
	size_t i;

	if (a->nr_patches != b->nr_patches)
		return 0;
	for (i = 0; i < a->nr_patches; i++)
		if (strcmp(a->patches[i].patch_id, b->patches[i].patch_id))
			return 0;
	return 1;
}

/* "[PATCH v2", "[PATCH RFC", "[PATCH RFC v2": the label as b4 writes it. */
static char *subject_prefix(const struct sk_revision *r, int nr, size_t total)
{
	if (nr < 0)
		return sk_xstrfmt("[PATCH %s 0/%zu]", r->label, total);
	return sk_xstrfmt("[PATCH %s %d/%zu]", r->label, nr, total);
}

/* The N of "n/N" as posted: patches added later as N+1/N keep it. */
static size_t posted_total(const struct pull *pl)
{
	size_t total = pl->nr_patches ? (size_t)pl->patches[0].subj.total : 0;

	return total && total < pl->nr_patches ? total : pl->nr_patches;
}

static void format_mbox(struct sk_strbuf *out, const struct pull *pl,
			const struct sk_revision *r)
{
	size_t i;

	if (pl->cover.nr) {
		const struct sk_mail *c = &pl->cover.mails[0];
		struct sk_subject s;
		char *prefix = subject_prefix(r, -1, posted_total(pl));

		sk_subject_parse(&s, c->subject);
		sk_strbuf_adds(out, "From stablekit Mon Sep 17 00:00:00 2001\n");
		sk_strbuf_addf(out, "From: %s\nDate: %s\n", c->from, c->date);
		sk_strbuf_addf(out, "Subject: %s %s\n", prefix, s.title);
		sk_strbuf_addf(out, "Message-Id: %s\n", c->message_id);
		sk_strbuf_adds(out, "MIME-Version: 1.0\n"
			       "Content-Type: text/plain; charset=UTF-8\n"
			       "Content-Transfer-Encoding: 8bit\n\n");
		sk_mbox_add_body(out, c->body);
		sk_strbuf_addch(out, '\n');
		sk_subject_release(&s);
		free(prefix);
	}
	for (i = 0; i < pl->nr_patches; i++) {
		char *prefix = subject_prefix(r, pl->patches[i].subj.nr, posted_total(pl));

		sk_patch_format(out, &pl->patches[i], prefix);
		free(prefix);
	}
}

static void format_fixlets(struct sk_strbuf *out, const struct pull *pl)
{
	size_t i;

	for (i = 0; i < pl->nr_fixlets; i++)
		sk_patch_format(out, &pl->fixlets[i], "[PATCH] [fixlet]");
}

/* v2.mbx; an RFC or a second v2: its label and number, "rfc-v2.1001.mbx". */
static char *mbox_name(const struct sk_revision *r, int version)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	const char *c;

	if (!r->rfc && r->posted == version)
		return sk_xstrfmt("v%d.mbx", version);
	for (c = r->label; *c; c++)
		sk_strbuf_addch(&sb, *c == ' ' ? '-' : (char)tolower((unsigned char)*c));
	sk_strbuf_addf(&sb, ".%d.mbx", version);
	return sk_strbuf_detach(&sb);
}

/* The revision's mbox and its fixlets' (removed when it has none). */
static int write_files(const struct pull *pl, const char *dir,
		       const struct sk_revision *r)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *path = sk_path_join(dir, r->mbox), *name;
	int ret;

	format_mbox(&sb, pl, r);
	ret = sk_write_file_atomic(path, sb.buf, sb.len);
	free(path);
	name = sk_revision_fixlets_file(r);
	path = sk_path_join(dir, name);
	if (!ret && pl->nr_fixlets) {
		sk_strbuf_reset(&sb);
		format_fixlets(&sb, pl);
		ret = sk_write_file_atomic(path, sb.buf, sb.len);
	} else if (!ret && unlink(path) && errno != ENOENT) {
		ret = sk_error_errno(path);
	}
	free(path);
	free(name);
	sk_strbuf_release(&sb);
	return ret;
}

static void move_revision(struct sk_series *s, struct sk_revision *r, int version)
{
	s->revs = sk_xrealloc(s->revs, (s->nr_revs + 1) * sizeof(*s->revs));
	s->revs[s->nr_revs] = *r;
	s->revs[s->nr_revs].version = version;
	if (!s->revs[s->nr_revs].mbox)
		s->revs[s->nr_revs].mbox = mbox_name(r, version);
	s->nr_revs++;
	memset(r, 0, sizeof(*r));
	sk_series_sort(s);
}

static void drop_revision(struct sk_series *s, int version)
{
	size_t i;

	for (i = 0; i < s->nr_revs; i++) {
		if (s->revs[i].version != version)
			continue;
		sk_revision_release(&s->revs[i]);
		memmove(&s->revs[i], &s->revs[i + 1],
			(s->nr_revs - i - 1) * sizeof(*s->revs));
		s->nr_revs--;
		return;
	}
}

/* The stored revision with this label and this code, or NULL. */
static const struct sk_revision *same_revision(const struct sk_series *s,
					       const struct sk_revision *r)
{
	size_t i;

	for (i = 0; s && i < s->nr_revs; i++)
		if (!strcmp(s->revs[i].label, r->label) && same_code(&s->revs[i], r))
			return &s->revs[i];
	return NULL;
}

/* A posted vN is stored as N if free; anything else from SK_REVISION_EXTRA. */
static int free_number(const struct sk_series *s, const struct sk_revision *r)
{
	int v = r->rfc ? SK_REVISION_EXTRA : r->posted;

	while (s && sk_series_revision(s, v))
		v = v < SK_REVISION_EXTRA ? SK_REVISION_EXTRA : v + 1;
	return v;
}

static int choose_version(struct pull *pl, const struct sk_series *s)
{
	struct sk_pull_result *res = pl->res;
	const struct sk_revision *existing = same_revision(s, &pl->rev);
	size_t i;

	res->previous = 0;
	res->version = free_number(s, &pl->rev);
	if (!s) {
		res->outcome = SK_PULL_NEW_SERIES;
		return 0;
	}
	if (existing) {
		res->version = res->previous = existing->version;
		res->outcome = same_content(existing, &pl->rev) ?
			       SK_PULL_UP_TO_DATE : SK_PULL_UPDATED;
		return 0;
	}
	for (i = 0; i < s->nr_revs; i++)
		if (!strcmp(s->revs[i].label, pl->rev.label))
			warn(pl, "%s is already stored with different code (revision %d); storing this one as revision %d",
			     pl->rev.label, s->revs[i].version, res->version);
	res->outcome = SK_PULL_NEW_REVISION;
	pl->rev.version = res->version;
	for (i = 0; i < s->nr_revs; i++) {
		if (sk_revision_cmp(&s->revs[i], &pl->rev) < 0)
			res->previous = s->revs[i].version;
		else
			res->older = 1;
	}
	return 0;
}

static int store_new_series(struct pull *pl)
{
	struct sk_series *s = sk_xcalloc(1, sizeof(*s));
	char *root = sk_path_join(pl->o->top, "series");
	char *tmp = NULL, *final;
	int ret;

	s->slug = pl->o->name ? sk_xstrdup(pl->o->name) : sk_slugify(pl->subject);
	s->subject = sk_xstrdup(pl->subject);
	s->author = sk_xstrdup(pl->author);
	s->change_id = pl->change_id ? sk_xstrdup(pl->change_id) : NULL;
	s->kind = sk_xstrdup(pl->kind ? pl->kind : "series");
	if (pl->failed_on)
		s->failed_on = sk_xstrdup(pl->failed_on);
	if (pl->picked)
		s->picked = sk_xstrdup(pl->picked);
	final = sk_path_join(root, s->slug);
	pl->res->series = s;
	ret = sk_name_check("series", s->slug);
	if (ret)
		goto out;
	if (sk_path_exists(final)) {
		ret = sk_error_set(SK_EEXISTS,
				   "'%s' exists but holds another series; choose a name with --name",
				   final);
		goto out;
	}
	ret = sk_mkdtemp_in(&tmp, root, "pull");
	if (ret)
		goto out;
	s->dir = tmp;
	move_revision(s, &pl->rev, pl->res->version);
	ret = write_files(pl, tmp, &s->revs[0]);
	if (!ret)
		ret = sk_series_save(s);
	if (!ret && chmod(tmp, 0755))
		ret = sk_error_errno(tmp);
	if (!ret && rename(tmp, final))
		ret = sk_error_errno(final);
	if (ret)
		sk_rmrf(tmp);
	s->dir = final;
	final = NULL;
	free(tmp);
out:
	free(final);
	free(root);
	return ret;
}

static int store_revision(struct pull *pl, struct sk_series *s)
{
	int v = pl->res->version;
	const struct sk_revision *old = sk_series_revision(s, v);
	int ret;

	pl->res->series = s;
	if (pl->res->outcome == SK_PULL_UP_TO_DATE)
		return 0;
	if (pl->res->outcome == SK_PULL_UPDATED && old) {
		free(pl->rev.mbox);
		pl->rev.mbox = sk_xstrdup(old->mbox ? old->mbox : "");
		drop_revision(s, v);
	}
	if (!s->kind && pl->kind)
		s->kind = sk_xstrdup(pl->kind);
	if (!s->failed_on && pl->failed_on)
		s->failed_on = sk_xstrdup(pl->failed_on);
	move_revision(s, &pl->rev, v);
	ret = write_files(pl, s->dir, sk_series_revision(s, v));
	if (ret)
		return ret;
	return sk_series_save(s);
}

static int has_trailer(const struct sk_patch *p, const struct sk_trailer *t)
{
	return is_dup(p, p->nr_trailers, t);
}

/* Trailers of the stored patch this copy lacks are kept. */
static void merge_trailers(struct pull *pl, struct sk_patch *p,
			   const struct sk_series_patch *old)
{
	size_t i;

	for (i = 0; i < old->nr_trailers; i++) {
		struct sk_trailer *t;

		if (has_trailer(p, &old->trailers[i]))
			continue;
		t = SK_ARRAY_PUSH(p->trailers, p->nr_trailers, p->alloc_trailers);
		t->key = sk_xstrdup(old->trailers[i].key);
		t->value = sk_xstrdup(old->trailers[i].value);
		note(pl, "patch %d: kept '%s: %s' (not in this copy)", p->subj.nr,
		     t->key, t->value);
	}
}

/* A stored fixlet this copy lacks, read back from the fixlets mbox. */
static int keep_fixlet(struct pull *pl, const struct sk_mbox *mb,
		       const char *file, const struct sk_fixlet *f, int nr)
{
	long at = sk_listmail_find(mb, f->message_id);
	struct sk_patch p;
	int ret;

	if (at < 0) {
		warn(pl, "%s: no mail <%s>: fixlet %d on patch %d is lost",
		     file, f->message_id, f->nr, nr);
		return 0;
	}
	ret = sk_patch_parse(&p, &mb->mails[at]);
	if (ret) {
		sk_patch_release(&p);
		return ret;
	}
	note(pl, "patch %d: kept fixlet <%s> (not in this copy)", nr, f->message_id);
	add_fixlet(pl, &p, nr, f->in_reply_to);
	return 0;
}

static size_t fixlet_index(const struct pull *pl, const char *id)
{
	size_t i;

	for (i = 0; i < pl->nr_fixlets; i++)
		if (!strcmp(pl->fixlets[i].message_id, id))
			return i;
	return pl->nr_fixlets;
}

/* Stored fixlets first, in their stored order, so their numbers stay. */
static void order_fixlets(struct pull *pl, const struct sk_revision *old)
{
	size_t n = pl->nr_fixlets, k = 0, i, j;
	size_t *order;
	unsigned char *taken;
	struct sk_patch *fx;
	int *target;
	char **irt;

	if (!n)
		return;
	order = sk_xcalloc(n, sizeof(*order));
	taken = sk_xcalloc(n, 1);
	fx = sk_xcalloc(n, sizeof(*fx));
	target = sk_xcalloc(n, sizeof(*target));
	irt = sk_xcalloc(n, sizeof(*irt));

	for (i = 0; i < old->nr_patches; i++)
		for (j = 0; j < old->patches[i].nr_fixlets; j++) {
			size_t at = fixlet_index(pl, old->patches[i].fixlets[j].message_id);

			if (at < n && !taken[at])
				taken[at] = 1, order[k++] = at;
		}
	for (i = 0; i < n; i++)
		if (!taken[i])
			order[k++] = i;
	for (i = 0; i < n; i++) {
		fx[i] = pl->fixlets[order[i]];
		target[i] = pl->fixlet_target[order[i]];
		irt[i] = pl->fixlet_irt[order[i]];
	}
	memcpy(pl->fixlets, fx, n * sizeof(*fx));
	memcpy(pl->fixlet_target, target, n * sizeof(*target));
	memcpy(pl->fixlet_irt, irt, n * sizeof(*irt));
	free(order);
	free(taken);
	free(fx);
	free(target);
	free(irt);
}

/*
 * A copy of a stored revision (same label, same code): the union of what
 * both hold, trailers and fixlets keyed by message-id; nothing is dropped.
 */
static int merge_stored(struct pull *pl, const struct sk_series *s)
{
	const struct sk_revision *old = same_revision(s, &pl->rev);
	struct sk_mbox mb = SK_MBOX_INIT;
	char *file = NULL, *path = NULL;
	size_t i, j;
	int ret = 0, loaded = 0;

	if (!old)
		return 0;
	for (i = 0; i < pl->nr_patches; i++)
		for (j = 0; j < old->nr_patches; j++)
			if (old->patches[j].nr == pl->patches[i].subj.nr)
				merge_trailers(pl, &pl->patches[i], &old->patches[j]);
	file = sk_revision_fixlets_file(old);
	path = sk_path_join(s->dir, file);
	for (i = 0; !ret && i < old->nr_patches; i++) {
		const struct sk_series_patch *op = &old->patches[i];

		for (j = 0; !ret && j < op->nr_fixlets; j++) {
			if (have_fixlet(pl, op->fixlets[j].message_id) ||
			    was_replaced(pl, op->fixlets[j].message_id))
				continue;
			if (!loaded++ && sk_path_exists(path) &&
			    (ret = sk_mbox_parse_file(&mb, path)))
				break;
			ret = keep_fixlet(pl, &mb, path, &op->fixlets[j], op->nr);
		}
	}
	if (!ret) {
		/* a stored fixlet this copy brings a new version of */
		drop_replaced_fixlets(pl);
		order_fixlets(pl, old);
	}
	sk_mbox_release(&mb);
	free(path);
	free(file);
	if (!ret) {
		sk_revision_release(&pl->rev);
		free(pl->subject);
		free(pl->author);
		free(pl->change_id);
		pl->subject = pl->author = pl->change_id = NULL;
		build_revision(pl);
	}
	return ret;
}

static void compute_changes(struct pull *pl)
{
	struct sk_pull_result *res = pl->res;
	const struct sk_revision *old, *new;

	if (!res->previous || !res->before)
		return;
	old = sk_series_revision(res->before, res->previous);
	new = sk_series_revision(res->series, res->version);
	if (old && new)
		sk_revision_compare(&res->changes, old, new);
}

static int fetch_thread(struct pull *pl)
{
	char *id;
	int ret;

	if (pl->o->input) {
		char resolved[PATH_MAX];

		if (!realpath(pl->o->input, resolved))
			return sk_error_errno(pl->o->input);
		pl->input = sk_xstrdup(resolved);
		return 0;
	}
	if (!pl->o->msgid)
		return sk_error_set(SK_EINVALID, "give a message-id to fetch, or -m FILE");
	/* a lore URL is its id, fetched from the configured lore */
	id = wanted_id(pl->o->msgid);
	ret = sk_b4_mbox(&pl->input, pl->o->lore, id, pl->tmpdir,
			 pl->o->timeout_ms);
	free(id);
	return ret;
}

/*
 * The stable mails of the thread of o->msgid (else of the only thread
 * with patches), for sk_pull_round: every review patch, AUTOSEL or
 * FAILED mail, first copies only, in input order.
 */
static int round_mails(struct pull *pl, struct sk_pull_round *out)
{
	unsigned char *copy;
	char *id;
	size_t i;
	int cover = 0;

	copy = later_copies(pl, pl->thread);
	for (i = 0; i < pl->raw.nr; i++)
		cover |= pl->threads.of[i] == pl->thread &&
			 !pl->raw.mails[i].error && is_cover(&pl->raw.mails[i]);
	for (i = 0; i < pl->raw.nr; i++) {
		const struct sk_mail *m = &pl->raw.mails[i];

		if (pl->threads.of[i] != pl->thread || copy[i] || m->error ||
		    !is_stable_kind(pl->kinds[i]))
			continue;
		if (cover && author_backport(pl, i))
			continue;
		id = sk_msgid_strip(m->message_id);
		sk_strvec_push(&out->ids, id);
		free(id);
	}
	free(copy);
	if (!out->ids.nr)
		return sk_error_set(SK_EINVALID,
				    "%s: no stable review, AUTOSEL or FAILED mail in the thread of <%s>",
				    pl->input, pl->want ? pl->want : "");
	return 0;
}

int sk_pull_round(struct sk_pull_round *out, const struct sk_pull_opts *o)
{
	struct sk_pull_result res = { 0 };
	struct pull pl = { 0 };
	long at;
	int ret;

	memset(out, 0, sizeof(*out));
	pl.o = o;
	pl.res = &res;
	ret = sk_mkdtemp_in(&out->tmpdir, "/tmp", "stablekit-round");
	if (ret)
		return ret;
	pl.tmpdir = out->tmpdir;
	ret = fetch_thread(&pl);
	if (!ret)
		ret = read_raw(&pl);
	if (!ret && o->msgid) {
		pl.want = wanted_id(o->msgid);
		at = sk_listmail_find(&pl.raw, pl.want);
		if (at < 0)
			ret = sk_error_set(SK_EINVALID,
					   "%s: no mail with Message-Id <%s> in %zu message(s)",
					   pl.input, pl.want, pl.raw.nr);
		else
			pl.thread = pl.threads.of[at];
	} else if (!ret) {
		ret = only_thread(&pl);
	}
	if (!ret)
		ret = round_mails(&pl, out);
	if (!ret) {
		out->input = pl.input;
		pl.input = NULL;
	}
	free(pl.input);
	free(pl.want);
	free(pl.use);
	free(pl.kinds);
	sk_threads_release(&pl.threads);
	sk_mbox_release(&pl.raw);
	sk_pull_result_release(&res);
	if (ret)
		sk_pull_round_release(out);
	return ret;
}

void sk_pull_round_release(struct sk_pull_round *r)
{
	if (r->tmpdir)
		sk_rmrf(r->tmpdir);
	free(r->tmpdir);
	free(r->input);
	sk_strvec_clear(&r->ids);
	memset(r, 0, sizeof(*r));
}

int sk_pull(struct sk_pull_result *res, const struct sk_pull_opts *o)
{
	struct sk_b4_am_result b4 = { 0 };
	struct sk_b4_am_opts bo = { 0 };
	struct pull pl = { 0 };
	struct sk_series *s = NULL;
	char *amdir = NULL, *thread = NULL;
	size_t i;
	int ret;

	memset(res, 0, sizeof(*res));
	pl.o = o;
	pl.res = res;
	if (o->name && sk_name_check("series", o->name))
		return SK_EINVALID;
	ret = sk_mkdtemp_in(&pl.tmpdir, "/tmp", "stablekit-pull");
	if (ret)
		return ret;
	amdir = sk_path_join(pl.tmpdir, "am");
	ret = sk_mkdir_p(amdir, 0700);
	if (!ret)
		ret = fetch_thread(&pl);
	if (!ret)
		ret = check_raw(&pl);
	if (ret)
		goto out;
	ret = write_thread(&pl, &thread);
	if (ret)
		goto out;
	bo.mbox = thread;
	bo.msgid = pl.want;
	bo.outdir = amdir;
	bo.lore = o->lore;
	bo.timeout_ms = o->timeout_ms;
	ret = sk_b4_am(&b4, &bo);
	if (!ret)
		ret = read_b4_output(&pl, &b4);
	if (!ret)
		ret = find_fixlets(&pl);
	if (!ret)
		ret = pick_patches(&pl);
	if (ret)
		goto out;
	build_revision(&pl);
	ret = find_series(&s, &pl);
	if (ret)
		goto out;
	if (s)
		ret = sk_series_load_dir(&res->before, s->dir);
	if (!ret && s)
		ret = merge_stored(&pl, s);
	if (!ret)
		ret = choose_version(&pl, s);
	if (!ret)
		ret = s ? store_revision(&pl, s) : store_new_series(&pl);
	if (!ret)
		compute_changes(&pl);
	s = NULL;
out:
	sk_series_free(s);
	sk_b4_am_result_release(&b4);
	sk_rmrf(pl.tmpdir);
	free(pl.tmpdir);
	free(amdir);
	free(thread);
	free(pl.input);
	sk_mbox_release(&pl.raw);
	sk_mbox_release(&pl.am);
	sk_mbox_release(&pl.cover);
	for (i = 0; i < pl.nr_patches; i++)
		sk_patch_release(&pl.patches[i]);
	free(pl.patches);
	for (i = 0; i < pl.nr_fixlets; i++)
		sk_patch_release(&pl.fixlets[i]);
	free(pl.fixlets);
	free(pl.fixlet_target);
	sk_strvec_free_array(pl.replaced, pl.nr_replaced);
	for (i = 0; i < pl.nr_fixlets; i++)
		free(pl.fixlet_irt[i]);
	free(pl.fixlet_irt);
	sk_threads_release(&pl.threads);
	free(pl.use);
	free(pl.kinds);
	free(pl.failed_on);
	free(pl.picked);
	free(pl.want);
	sk_revision_release(&pl.rev);
	free(pl.subject);
	free(pl.author);
	free(pl.change_id);
	return ret;
}

void sk_pull_result_release(struct sk_pull_result *r)
{
	sk_series_free(r->series);
	sk_series_free(r->before);
	sk_rev_changes_release(&r->changes);
	sk_strbuf_release(&r->warnings);
	sk_strbuf_release(&r->notes);
	sk_strbuf_release(&r->threads);
	free(r->missing);
	memset(r, 0, sizeof(*r));
}

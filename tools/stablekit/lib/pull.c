#include "pull.h"
#include "b4.h"
#include "error.h"
#include "fsutil.h"
#include "mbox.h"
#include "names.h"
#include "patch.h"
#include "trailers.h"

#include <ctype.h>
#include <git2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define SLUG_MAX 52

/* Everything one pull works on, released in one place. */
struct pull {
	const struct sk_pull_opts *o;
	struct sk_pull_result *res;
	char *input;			/* absolute */
	char *tmpdir;			/* b4's output */
	struct sk_mbox raw;		/* the thread as given */
	struct sk_mbox am;		/* b4's am-ready mbox */
	struct sk_mbox cover;
	struct sk_patch *patches;
	size_t nr_patches;
	struct sk_patch *fixlets;
	int *fixlet_target;		/* patch number each fixlet amends */
	const struct sk_mail **fixlet_mail;	/* the reply it came in */
	size_t nr_fixlets;
	struct sk_revision rev;		/* the new revision, built here */
	char *subject, *author, *change_id;
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

static char *email_of(const char *from)
{
	const char *lt = strchr(from, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	char *e = lt && gt ? sk_xstrndup(lt + 1, (size_t)(gt - lt - 1)) : sk_xstrdup(from);

	for (char *c = e; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return e;
}

static void warn(struct pull *pl, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct pull *pl, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sk_strbuf_vaddf(&pl->res->warnings, fmt, ap);
	va_end(ap);
	sk_strbuf_addch(&pl->res->warnings, '\n');
}

/* Validate every patch in the thread before b4 sees it. */
static int check_raw(struct pull *pl)
{
	size_t i, patches = 0;
	int ret;

	if (sk_is_dir(pl->input))
		ret = sk_mbox_parse_maildir(&pl->raw, pl->input);
	else
		ret = sk_mbox_parse_file(&pl->raw, pl->input);
	if (ret)
		return ret;
	for (i = 0; i < pl->raw.nr; i++) {
		const struct sk_mail *m = &pl->raw.mails[i];
		struct sk_subject s;
		struct sk_patch p;

		sk_subject_parse(&s, m->subject);
		if ((s.flags & SK_SUBJ_PATCH) && !(s.flags & SK_SUBJ_REPLY) && s.nr != 0) {
			ret = sk_patch_parse(&p, m);
			sk_patch_release(&p);
			patches++;
		} else if ((s.flags & SK_SUBJ_PATCH) && !(s.flags & SK_SUBJ_REPLY) && !s.total) {
			ret = sk_patch_parse(&p, m);	/* a single patch */
			sk_patch_release(&p);
			patches++;
		}
		sk_subject_release(&s);
		if (ret)
			return ret;
	}
	if (!patches)
		return sk_error_set(SK_EINVALID, "%s: no [PATCH] mail in %zu message(s)",
				    pl->input, pl->raw.nr);
	return 0;
}

/*
 * b4 gets the thread as we read it: decoded to UTF-8, one plain entry per
 * mail.  b4 0.12 turns raw 8-bit headers into U+FFFD and dies on folded
 * encoded words; our parser does neither.
 */
static int write_thread(struct pull *pl, char **out)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;
	int ret;

	for (i = 0; i < pl->raw.nr; i++)
		sk_mbox_format_mail(&sb, &pl->raw.mails[i]);
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
static int check_complete(const struct pull *pl)
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
	if (missing.len)
		ret = sk_error_set(SK_EINVALID,
				   "%s: incomplete series, missing patch%s", pl->input,
				   missing.buf);
	sk_strbuf_release(&missing);
	return ret;
}

static int read_b4_output(struct pull *pl, const struct sk_b4_am_result *b4)
{
	size_t i;
	int ret = sk_mbox_parse_file(&pl->am, b4->mbx);

	if (ret)
		return sk_error_prefix(ret, "reading b4's output");
	if (b4->cover && (ret = sk_mbox_parse_file(&pl->cover, b4->cover)))
		return sk_error_prefix(ret, "reading b4's cover letter");
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
		sanitize_trailers(pl, p);
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

static int find_fixlets(struct pull *pl)
{
	size_t i;

	for (i = 0; i < pl->raw.nr; i++) {
		const struct sk_mail *m = &pl->raw.mails[i];
		char *id = sk_msgid_strip(m->message_id);
		int known = patch_by_msgid(pl, id), target;
		struct sk_patch p;
		int ret;

		free(id);
		if (known || !*m->in_reply_to)
			continue;
		target = reply_target(pl, m);
		if (!target)
			continue;
		ret = sk_patch_parse_followup(&p, m);
		if (ret)
			sk_patch_release(&p);
		if (ret == SK_ENOTFOUND)
			continue;
		if (ret)
			return ret;
		pl->fixlets = sk_xrealloc(pl->fixlets, (pl->nr_fixlets + 1) * sizeof(*pl->fixlets));
		pl->fixlet_target = sk_xrealloc(pl->fixlet_target,
						(pl->nr_fixlets + 1) * sizeof(int));
		pl->fixlet_mail = sk_xrealloc(pl->fixlet_mail, (pl->nr_fixlets + 1) *
					      sizeof(*pl->fixlet_mail));
		pl->fixlet_mail[pl->nr_fixlets] = m;
		free(p.message_id);
		p.message_id = sk_msgid_strip(m->message_id);
		pl->fixlets[pl->nr_fixlets] = p;
		pl->fixlet_target[pl->nr_fixlets++] = target;
	}
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
			const struct sk_mail *m, int nr)
{
	f->nr = nr;
	f->subject = sk_xstrdup(p->subj.title);
	f->author = sk_xstrdup(p->author);
	f->date = sk_xstrdup(p->date);
	f->message_id = sk_xstrdup(p->message_id);
	f->in_reply_to = sk_msgid_strip(m ? m->in_reply_to : "");
	memcpy(f->patch_id, p->patch_id, sizeof(f->patch_id));
	f->files = copy_strs(p->files, p->nr_files);
	f->nr_files = p->nr_files;
}

static void build_revision(struct pull *pl)
{
	struct sk_revision *r = &pl->rev;
	const struct sk_mail *head = pl->cover.nr ? &pl->cover.mails[0] : &pl->am.mails[0];
	struct sk_subject s;
	size_t i, j;

	sk_subject_parse(&s, head->subject);
	r->version = pl->patches[0].subj.version;
	r->message_id = sk_msgid_strip(head->message_id);
	r->date = sk_xstrdup(head->date);
	pl->subject = sk_xstrdup(s.title);
	pl->author = sk_xstrdup(head->from);
	sk_subject_release(&s);
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
				    pl->fixlet_mail[j],
				    (int)sp->nr_fixlets + 1);
			sp->nr_fixlets++;
		}
	}
}

/* The stored series this revision belongs to: change-id, else subject+author. */
static int find_series(struct sk_series **out, const struct pull *pl)
{
	char **names;
	size_t nr, i;
	char *mail = email_of(pl->author);
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
		smail = email_of(s->author ? s->author : "");
		if (pl->o->name)
			same = 1;
		else if (pl->change_id && s->change_id)
			same = !strcmp(pl->change_id, s->change_id);
		else
			same = s->subject && !strcasecmp(s->subject, pl->subject) &&
			       !strcmp(smail, mail);
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

static void format_mbox(struct sk_strbuf *out, const struct pull *pl, int version)
{
	size_t i;

	if (pl->cover.nr) {
		const struct sk_mail *c = &pl->cover.mails[0];
		struct sk_subject s;

		sk_subject_parse(&s, c->subject);
		sk_strbuf_adds(out, "From stablekit Mon Sep 17 00:00:00 2001\n");
		sk_strbuf_addf(out, "From: %s\nDate: %s\n", c->from, c->date);
		sk_strbuf_addf(out, "Subject: [PATCH v%d 0/%zu] %s\n", version,
			       pl->nr_patches, s.title);
		sk_strbuf_addf(out, "Message-Id: %s\n", c->message_id);
		sk_strbuf_adds(out, "MIME-Version: 1.0\n"
			       "Content-Type: text/plain; charset=UTF-8\n"
			       "Content-Transfer-Encoding: 8bit\n\n");
		sk_mbox_add_body(out, c->body);
		sk_strbuf_addch(out, '\n');
		sk_subject_release(&s);
	}
	for (i = 0; i < pl->nr_patches; i++) {
		char *prefix = sk_xstrfmt("[PATCH v%d %d/%zu]", version,
					  pl->patches[i].subj.nr, pl->nr_patches);

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

static int write_files(const struct pull *pl, const char *dir, int version)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *name = sk_xstrfmt("v%d.mbx", version);
	char *path = sk_path_join(dir, name);
	int ret;

	format_mbox(&sb, pl, version);
	ret = sk_write_file_atomic(path, sb.buf, sb.len);
	free(path);
	free(name);
	if (!ret && pl->nr_fixlets) {
		sk_strbuf_reset(&sb);
		format_fixlets(&sb, pl);
		name = sk_xstrfmt("v%d.fixlets.mbx", version);
		path = sk_path_join(dir, name);
		ret = sk_write_file_atomic(path, sb.buf, sb.len);
		free(path);
		free(name);
	}
	sk_strbuf_release(&sb);
	return ret;
}

static void move_revision(struct sk_series *s, struct sk_revision *r, int version)
{
	size_t i;

	for (i = 0; i < s->nr_revs && s->revs[i].version < version; i++)
		;
	s->revs = sk_xrealloc(s->revs, (s->nr_revs + 1) * sizeof(*s->revs));
	memmove(&s->revs[i + 1], &s->revs[i], (s->nr_revs - i) * sizeof(*s->revs));
	s->revs[i] = *r;
	s->revs[i].version = version;
	free(s->revs[i].mbox);
	s->revs[i].mbox = sk_xstrfmt("v%d.mbx", version);
	s->nr_revs++;
	memset(r, 0, sizeof(*r));
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

static int choose_version(struct pull *pl, const struct sk_series *s)
{
	struct sk_pull_result *res = pl->res;
	const struct sk_revision *existing;
	int v = pl->rev.version;
	size_t i;

	res->version = v;
	res->previous = 0;
	if (!s) {
		res->outcome = SK_PULL_NEW_SERIES;
		return 0;
	}
	existing = sk_series_revision(s, v);
	if (existing && same_content(existing, &pl->rev)) {
		res->outcome = SK_PULL_UP_TO_DATE;
		res->previous = v;
		return 0;
	}
	if (existing && same_code(existing, &pl->rev)) {
		res->outcome = SK_PULL_UPDATED;
		res->previous = v;
		return 0;
	}
	if (existing) {
		int max = s->revs[s->nr_revs - 1].version;

		warn(pl, "v%d is already stored with different code; storing this one as v%d",
		     v, max + 1);
		res->version = max + 1;
	}
	res->outcome = SK_PULL_NEW_REVISION;
	for (i = 0; i < s->nr_revs; i++)
		if (s->revs[i].version < res->version)
			res->previous = s->revs[i].version;
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
	ret = write_files(pl, tmp, pl->res->version);
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
	int ret;

	pl->res->series = s;
	if (pl->res->outcome == SK_PULL_UP_TO_DATE)
		return 0;
	ret = write_files(pl, s->dir, v);
	if (ret)
		return ret;
	if (pl->res->outcome == SK_PULL_UPDATED)
		drop_revision(s, v);
	move_revision(s, &pl->rev, v);
	return sk_series_save(s);
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
	ret = sk_b4_mbox(&pl->input, pl->o->lore, pl->o->msgid, pl->tmpdir,
			 pl->o->timeout_ms);
	return ret;
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
	bo.msgid = o->msgid;
	bo.outdir = amdir;
	bo.lore = o->lore;
	bo.timeout_ms = o->timeout_ms;
	ret = sk_b4_am(&b4, &bo);
	if (!ret)
		ret = read_b4_output(&pl, &b4);
	if (!ret)
		ret = find_fixlets(&pl);
	if (ret)
		goto out;
	build_revision(&pl);
	ret = find_series(&s, &pl);
	if (ret)
		goto out;
	if (s)
		ret = sk_series_load_dir(&res->before, s->dir);
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
	free(pl.fixlet_mail);
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
	memset(r, 0, sizeof(*r));
}

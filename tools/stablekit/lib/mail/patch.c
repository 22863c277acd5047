#include "mail/patch.h"
#include "core/diff.h"
#include "core/error.h"
#include "core/patchid.h"
#include "mail/trailers.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void subject_tags(struct sk_subject *s, const char *tags, size_t len)
{
	const char *p = tags, *end = tags + len;

	while (p < end) {
		size_t n;

		while (p < end && (*p == ' ' || *p == ','))
			p++;
		n = 0;
		while (p + n < end && p[n] != ' ' && p[n] != ',')
			n++;
		if (n >= 5 && !strncasecmp(p, "PATCH", 5)) {
			s->flags |= SK_SUBJ_PATCH;
			if (n == 8 && !strncasecmp(p + 5, "SET", 3))
				s->flags |= SK_SUBJ_PATCHSET;
			if (n > 6 && (p[5] == 'v' || p[5] == 'V'))
				s->version = atoi(p + 6);	/* [PATCHv3] */
		} else if (n == 3 && !strncasecmp(p, "RFC", 3)) {
			s->flags |= SK_SUBJ_RFC;
		} else if (n == 6 && !strncasecmp(p, "RESEND", 6)) {
			s->flags |= SK_SUBJ_RESEND;
		} else if ((n == 6 && !strncasecmp(p, "fixlet", 6)) ||
			   (n == 5 && !strncasecmp(p, "fixup", 5))) {
			s->flags |= SK_SUBJ_FIXLET;
		} else if (n > 1 && (p[0] == 'v' || p[0] == 'V') &&
			   isdigit((unsigned char)p[1])) {
			s->version = atoi(p + 1);
		} else if (n >= 3 && isdigit((unsigned char)p[0]) &&
			   memchr(p, '/', n)) {
			s->nr = atoi(p);
			s->total = atoi((const char *)memchr(p, '/', n) + 1);
		}
		p += n;
	}
}

int sk_subject_parse(struct sk_subject *out, const char *subject)
{
	const char *p = subject;

	memset(out, 0, sizeof(*out));
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncasecmp(p, "Re:", 3) || !strncasecmp(p, "Aw:", 3)) {
			out->flags |= SK_SUBJ_REPLY;
			p += 3;
			continue;
		}
		if (*p == '[') {
			const char *close = strchr(p, ']');

			if (!close)
				break;
			subject_tags(out, p + 1, (size_t)(close - p - 1));
			p = close + 1;
			continue;
		}
		break;
	}
	if (!out->version)
		out->version = 1;
	out->title = sk_xstrdup(p);
	return 0;
}

int sk_subject_is_cover(const struct sk_subject *s)
{
	if (s->flags & SK_SUBJ_REPLY)
		return 0;
	if (s->nr == 0 && s->total > 0)
		return 1;
	return (s->flags & SK_SUBJ_PATCHSET) && !s->total;
}

void sk_subject_release(struct sk_subject *s)
{
	free(s->title);
	s->title = NULL;
}

/* Line n of text (0-based count of LFs before p). */
static size_t line_of(const char *text, const char *p)
{
	size_t n = 0;

	for (; text < p; text++)
		n += *text == '\n';
	return n;
}

static const char *find_line(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, prefix, n))
			return p;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

int sk_mail_has_diff(const struct sk_mail *m)
{
	return sk_diff_find(m->body) != NULL;
}

int sk_patch_diff_check(const char *diff, const char *src, size_t first_line,
		  char ***files, size_t *nr)
{
	struct sk_diff d;
	size_t alloc = *nr;
	int ret = sk_diff_parse(&d, diff, strlen(diff), src, first_line, 0);

	if (ret)
		return ret;
	if (files)
		sk_diff_paths(files, nr, &alloc, &d, SK_DIFF_PATHS_OLD);
	sk_diff_release(&d);
	return 0;
}

/* In-body "From:", "Date:", "Subject:" lines at the top of the body. */
static const char *inbody_headers(struct sk_patch *out, const char *body,
				  char **subject)
{
	const char *p = body;
	int any = 0;

	for (;;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char **slot = NULL;
		size_t skip = 0;

		if (!strncmp(p, "From: ", 6))
			slot = &out->author, skip = 6;
		else if (!strncmp(p, "Date: ", 6))
			slot = &out->date, skip = 6;
		else if (!strncmp(p, "Subject: ", 9))
			slot = subject, skip = 9;
		if (!slot)
			break;
		free(*slot);
		*slot = sk_xstrndup(p + skip, len - skip);
		any = 1;
		p = nl ? nl + 1 : p + len;
	}
	if (any && *p == '\n')
		p++;
	return p;
}

static int split_body(struct sk_patch *out, const struct sk_mail *m,
		      const char *body, size_t body_line)
{
	const char *diff = sk_diff_find(body);
	const char *sep = find_line(body, "---\n");
	const char *sig, *msg_end;
	size_t cut;
	char *msg;

	if (!diff)
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: mail '%s' carries no diff (no 'diff --git' line, no '---'/'+++'/'@@' lines)",
				    m->source, m->line, m->subject);
	if (!sep || sep > diff)
		sep = diff;
	msg_end = sep;
	msg = sk_xstrndup(body, (size_t)(msg_end - body));
	cut = sk_trailers_parse(&out->trailers, &out->nr_trailers,
				&out->alloc_trailers, msg);
	msg[cut] = '\0';
	{
		size_t l = strlen(msg);

		while (l && msg[l - 1] == '\n')
			msg[--l] = '\0';
	}
	out->message = msg;
	if (sep != diff)
		out->notes = sk_xstrndup(sep + 4, (size_t)(diff - sep - 4));
	sig = find_line(diff, "-- \n");
	out->diff = sig ? sk_xstrndup(diff, (size_t)(sig - diff)) : sk_xstrdup(diff);
	if (sig && sig[4] && sig[4] != '\n')
		out->signature = sk_xstrndup(sig + 4, strcspn(sig + 4, "\n"));
	out->diff_line = body_line + line_of(body, diff);
	return 0;
}

static int finish_patch(struct sk_patch *out, const struct sk_mail *m)
{
	struct sk_strbuf git = SK_STRBUF_INIT;
	size_t alloc = 0;
	struct sk_diff d;
	int ret = sk_diff_parse(&d, out->diff, strlen(out->diff), m->source,
				out->diff_line, 0);

	if (ret)
		return ret;
	sk_diff_paths(&out->files, &out->nr_files, &alloc, &d, SK_DIFF_PATHS_OLD);
	if (!out->nr_files) {
		ret = sk_error_set(SK_EINVALID, "%s:%zu: diff touches no file",
				   m->source, out->diff_line);
		goto out;
	}
	/* libgit2 reads git's diffs only: a quilt-style one gets its headers */
	if (sk_diff_has_quilt(&d))
		sk_diff_to_git(&git, out->diff, &d);
	else
		sk_strbuf_adds(&git, out->diff);
	ret = sk_patchid_buffer(out->patch_id, git.buf, git.len);
	if (ret)
		sk_error_prefix(ret, "%s:%zu", m->source, out->diff_line);
out:
	sk_strbuf_release(&git);
	sk_diff_release(&d);
	return ret;
}

static int parse_from(struct sk_patch *out, const struct sk_mail *m,
		      const char *subject, const char *body, size_t body_line)
{
	char *inbody_subject = NULL;
	const char *rest;
	int ret;

	memset(out, 0, sizeof(*out));
	out->author = sk_xstrdup(m->from);
	out->date = sk_xstrdup(m->date);
	out->message_id = sk_msgid_strip(m->message_id);
	rest = inbody_headers(out, body, &inbody_subject);
	sk_subject_parse(&out->subj, inbody_subject ? inbody_subject : subject);
	free(inbody_subject);
	ret = split_body(out, m, rest, body_line + line_of(body, rest));
	if (!ret)
		ret = finish_patch(out, m);
	return ret;
}

int sk_patch_parse(struct sk_patch *out, const struct sk_mail *m)
{
	return parse_from(out, m, m->subject, m->body, m->body_line);
}

/*
 * "From <40 chars> Mon Sep 17 00:00:00 2001": the first line of a patch
 * pasted into a reply.  Only this line is looked at, so a long reply is
 * scanned once, not once per "From " line.
 */
static int is_format_patch_from(const char *p)
{
	static const char date[] = " Mon Sep 17 00:00:00 2001";
	const char *nl = strchr(p, '\n');
	size_t len = nl ? (size_t)(nl - p) : strlen(p);

	return len >= 45 + sizeof(date) - 1 && !strncmp(p, "From ", 5) &&
	       !memchr(p + 5, ' ', 40) && !memcmp(p + 45, date, sizeof(date) - 1);
}

int sk_patch_parse_followup(struct sk_patch *out, const struct sk_mail *m)
{
	const char *p = m->body, *start = NULL;
	struct sk_mbox inner = SK_MBOX_INIT;
	int ret;

	while (p && *p && !start) {
		if (is_format_patch_from(p))
			start = p;
		else if (!strncmp(p, "-- >8 --", 8) || !strncmp(p, "--8<--", 6))
			start = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	memset(out, 0, sizeof(*out));
	if (!start) {
		if (!sk_mail_has_diff(m))
			return sk_error_set(SK_ENOTFOUND, "no patch in reply");
		return parse_from(out, m, m->subject, m->body, m->body_line);
	}
	if (!strncmp(start, "From ", 5)) {
		ret = sk_mbox_parse_buf(&inner, m->source, start, strlen(start));
		if (!ret && inner.nr != 1)
			ret = sk_error_set(SK_EINVALID, "%s:%zu: reply carries %zu inline patches",
					   m->source, m->line, inner.nr);
		if (!ret) {
			struct sk_mail *im = &inner.mails[0];

			ret = parse_from(out, im, im->subject, im->body,
					 m->body_line + line_of(m->body, start) +
					 im->body_line - 1);
			if (!ret && !*out->message_id) {
				free(out->message_id);
				out->message_id = sk_msgid_strip(m->message_id);
			}
		}
		sk_mbox_release(&inner);
		return ret;
	}
	return parse_from(out, m, m->subject, start,
			  m->body_line + line_of(m->body, start));
}

void sk_patch_release(struct sk_patch *p)
{
	size_t i;

	sk_subject_release(&p->subj);
	free(p->author);
	free(p->date);
	free(p->message_id);
	free(p->message);
	sk_trailers_free(p->trailers, p->nr_trailers);
	free(p->notes);
	free(p->diff);
	free(p->signature);
	for (i = 0; i < p->nr_files; i++)
		free(p->files[i]);
	free(p->files);
	memset(p, 0, sizeof(*p));
}

void sk_patch_format(struct sk_strbuf *out, const struct sk_patch *p,
		     const char *prefix)
{
	size_t i;

	sk_strbuf_addf(out, "From %s Mon Sep 17 00:00:00 2001\n", p->patch_id);
	sk_strbuf_addf(out, "From: %s\n", p->author);
	sk_strbuf_addf(out, "Date: %s\n", p->date);
	sk_strbuf_addf(out, "Subject: %s%s%s\n", prefix ? prefix : "",
		       prefix ? " " : "", p->subj.title);
	if (p->message_id && *p->message_id)
		sk_strbuf_addf(out, "Message-Id: <%s>\n", p->message_id);
	sk_strbuf_adds(out, "MIME-Version: 1.0\n"
		       "Content-Type: text/plain; charset=UTF-8\n"
		       "Content-Transfer-Encoding: 8bit\n\n");
	sk_mbox_add_body(out, p->message);
	if (p->nr_trailers)
		sk_strbuf_adds(out, *p->message ? "\n\n" : "");
	else
		sk_strbuf_addch(out, '\n');
	for (i = 0; i < p->nr_trailers; i++)
		sk_strbuf_addf(out, "%s: %s\n", p->trailers[i].key,
			       p->trailers[i].value);
	sk_strbuf_adds(out, "---\n");
	if (p->notes)
		sk_mbox_add_body(out, p->notes);
	else
		sk_strbuf_addch(out, '\n');
	sk_strbuf_adds(out, p->diff);
	/* the sender's git, as b4 keeps it: no version of ours is invented */
	if (p->signature)
		sk_strbuf_addf(out, "-- \n%s\n\n", p->signature);
	else
		sk_strbuf_addch(out, '\n');
}

#ifndef SK_MBOX_H
#define SK_MBOX_H

#include <stddef.h>
#include "core/strbuf.h"

/*
 * Mail as lore and b4 hand it to us: an mbox (mboxrd escaping undone) or a
 * maildir.  Headers are unfolded and RFC 2047-decoded; bodies are decoded
 * from quoted-printable or base64 and converted to UTF-8.  Every mail knows
 * where it came from, so errors can name file and line.
 *
 * The header rule: a decoded header value holds no control character but
 * tab and no Unicode line break (NEL, LS, PS); each of their bytes becomes
 * a space (sk_utf8_one_line, core/utf8.h).  So an encoded word
 * ("=?utf-8?q?a=0AMessage-Id:_<x>?=") cannot forge a header in what we
 * write for b4 or store, and b4 (Python, which also breaks lines at VT,
 * FF, NEL...) reads every header as one line.
 *
 * The MIME walker is iterative and bounded: multipart nesting, parts per
 * mail and the size of one mail are limited below; beyond them the mail is
 * an error naming file:line.
 */
#define SK_MIME_MAX_DEPTH 16
#define SK_MIME_MAX_PARTS 1000
#define SK_MAIL_MAX_SIZE (64 << 20)

struct sk_header {
	char *name;
	char *value;
};

struct sk_mail {
	char *source;		/* file the mail came from */
	size_t line;		/* line of its first header */
	size_t body_line;	/* line where its body starts */
	struct sk_header *headers;
	size_t nr_headers, alloc_headers;
	char *body;		/* decoded, UTF-8, LF line ends */
	/* the usual headers, pointing into headers[] (or "") */
	const char *from, *subject, *date, *message_id, *in_reply_to;
	char **references;	/* message-ids without <> */
	size_t nr_references;
	/*
	 * Only from sk_mbox_read_*: why the mail could not be read
	 * ("file:line: ..."); the headers before the fault are there, the
	 * body is empty.
	 */
	char *error;
};

struct sk_mbox {
	struct sk_mail *mails;
	size_t nr, alloc;
};

#define SK_MBOX_INIT { NULL, 0, 0 }

int sk_mbox_parse_buf(struct sk_mbox *out, const char *name, const char *buf,
		      size_t len);
int sk_mbox_parse_file(struct sk_mbox *out, const char *path);
/* Every regular file of a maildir (cur/ and new/), in name order. */
int sk_mbox_parse_maildir(struct sk_mbox *out, const char *dir);
/*
 * The same, for an archive: a mail that cannot be read (a bad charset, a
 * msg-id with 8-bit bytes, MIME too deep, a NUL byte...) is kept with
 * m->error set and the rest is read on; what is wrong with the file itself
 * still fails.
 */
int sk_mbox_read_file(struct sk_mbox *out, const char *path);
int sk_mbox_read_maildir(struct sk_mbox *out, const char *dir);
void sk_mbox_release(struct sk_mbox *mbox);

const char *sk_mail_header(const struct sk_mail *m, const char *name);
/*
 * The address of a From: as the reader stores it, lower case, in a new
 * string: what is in its last "<...>" (a display name that looks like an
 * address is quoted before it), else the whole value.
 */
char *sk_mail_address(const char *from);
/*
 * Seconds since the epoch of a Date: ("Fri, 01 Mar 2024 14:37:22 -0500",
 * the day name, the seconds and the zone optional); -1 when it does not
 * read as one.
 */
long long sk_mail_time(const char *date);
/*
 * Is a bare id Message-Id shaped, so that it may be handed to b4 (after
 * "--")?  Refused, SK_EINVALID naming it: empty, starting with '-' (an
 * option), holding a '/' (a path, or a URL to another host than the
 * configured lore), a control character or a byte above 0x7e.
 */
int sk_msgid_check(const char *id);
/* "<id>" or "id" to a bare id in a new string. */
char *sk_msgid_strip(const char *s);

/*
 * A mail as a plain mboxrd entry: UTF-8 8bit body, non-ASCII header text as
 * RFC 2047 words.  What we hand to tools that choke on odd encodings.
 */
void sk_mbox_format_mail(struct sk_strbuf *out, const struct sk_mail *m);
/* A body with mboxrd escaping: ">From " for every line that needs it. */
void sk_mbox_add_body(struct sk_strbuf *out, const char *body);
void sk_encode_base64(struct sk_strbuf *out, const char *in, size_t len);

/* Decoders, exposed for the tests. */
int sk_decode_qp(struct sk_strbuf *out, const char *in, size_t len);
int sk_decode_base64(struct sk_strbuf *out, const char *in, size_t len);
int sk_decode_rfc2047(struct sk_strbuf *out, const char *in);
/* Convert to UTF-8 from charset; invalid input is an error. */
int sk_to_utf8(struct sk_strbuf *out, const char *in, size_t len,
	       const char *charset);
int sk_is_utf8(const char *s, size_t len);

#endif

#include "mail/mbox.h"
#include "core/strvec.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/utf8.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <strings.h>

struct cursor {
	const char *name;
	const char *p, *end;
	size_t line;
};

/* One line without its LF (and CR); returns 0 at the end of input. */
static int next_line(struct cursor *c, const char **s, size_t *len)
{
	const char *nl;

	if (c->p >= c->end)
		return 0;
	nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	*s = c->p;
	*len = nl ? (size_t)(nl - c->p) : (size_t)(c->end - c->p);
	c->p = nl ? nl + 1 : c->end;
	if (*len && (*s)[*len - 1] == '\r')
		(*len)--;
	c->line++;
	return 1;
}

static int peek_starts(const struct cursor *c, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(c->end - c->p) >= n && !memcmp(c->p, prefix, n);
}

int sk_is_utf8(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *e = p + len;

	while (p < e) {
		int n;

		if (*p < 0x80) {
			p++;
			continue;
		}
		if ((*p & 0xe0) == 0xc0 && *p >= 0xc2)
			n = 1;
		else if ((*p & 0xf0) == 0xe0)
			n = 2;
		else if ((*p & 0xf8) == 0xf0 && *p <= 0xf4)
			n = 3;
		else
			return 0;
		if (e - p <= n)
			return 0;
		for (int i = 1; i <= n; i++)
			if ((p[i] & 0xc0) != 0x80)
				return 0;
		p += n + 1;
	}
	return 1;
}

int sk_to_utf8(struct sk_strbuf *out, const char *in, size_t len,
	       const char *charset)
{
	char buf[4096];
	iconv_t cd;
	char *src = (char *)in;
	size_t left = len;

	if (!charset || !*charset || !strcasecmp(charset, "utf-8") ||
	    !strcasecmp(charset, "utf8") || !strcasecmp(charset, "us-ascii")) {
		if (!sk_is_utf8(in, len))
			charset = "ISO-8859-1";	/* raw 8-bit: the common case */
		else {
			sk_strbuf_add(out, in, len);
			return 0;
		}
	}
	cd = iconv_open("UTF-8", charset);
	if (cd == (iconv_t)-1)
		return sk_error_set(SK_EINVALID, "unknown charset '%s'", charset);
	while (left) {
		char *dst = buf;
		size_t room = sizeof(buf);
		size_t r = iconv(cd, &src, &left, &dst, &room);

		sk_strbuf_add(out, buf, (size_t)(dst - buf));
		if (r == (size_t)-1 && errno != E2BIG) {
			iconv_close(cd);
			return sk_error_set(SK_EINVALID,
					    "text is not valid %s", charset);
		}
	}
	iconv_close(cd);
	return 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int sk_decode_qp(struct sk_strbuf *out, const char *in, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (in[i] != '=') {	/* the run up to the next '=' as it is */
			const char *eq = memchr(in + i, '=', len - i);
			size_t n = eq ? (size_t)(eq - (in + i)) : len - i;

			sk_strbuf_add(out, in + i, n);
			i += n - 1;
			continue;
		}
		if (i + 1 < len && in[i + 1] == '\n') {		/* soft break */
			i++;
			continue;
		}
		if (i + 2 < len && in[i + 1] == '\r' && in[i + 2] == '\n') {
			i += 2;
			continue;
		}
		if (i + 2 < len && hexval(in[i + 1]) >= 0 && hexval(in[i + 2]) >= 0) {
			sk_strbuf_addch(out, hexval(in[i + 1]) * 16 + hexval(in[i + 2]));
			i += 2;
			continue;
		}
		sk_strbuf_addch(out, '=');	/* lenient, as mail readers are */
	}
	return 0;
}

int sk_decode_base64(struct sk_strbuf *out, const char *in, size_t len)
{
	static const char tbl[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned int acc = 0;
	int bits = 0;
	size_t i;

	sk_strbuf_grow(out, len / 4 * 3 + 3);
	for (i = 0; i < len; i++) {
		const char *pos;

		if (in[i] == '=')
			break;
		if (isspace((unsigned char)in[i]))
			continue;
		pos = strchr(tbl, in[i]);
		if (!pos || !in[i])
			return sk_error_set(SK_EINVALID,
					    "invalid base64 character '%c'", in[i]);
		acc = (acc << 6) | (unsigned int)(pos - tbl);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			sk_strbuf_addch(out, (acc >> bits) & 0xff);
		}
	}
	return 0;
}

/*
 * An encoded word at p: "=?charset?X?text?=" with no white space or '?' in
 * charset and text.  Sets the three '?' positions; 0 if p starts none.
 * Bounded by the next white space, so a header of many "=?" is linear.
 */
static int encoded_word_at(const char *p, const char **q1, const char **q2,
			   const char **q3)
{
	const char *s;

	if (p[0] != '=' || p[1] != '?')
		return 0;
	for (s = p + 2; *s && *s != '?' && !isspace((unsigned char)*s); s++)
		;
	if (*s != '?' || s == p + 2 || !s[1] || s[2] != '?')
		return 0;
	*q1 = s;
	*q2 = s + 2;
	for (s = s + 3; *s && *s != '?' && !isspace((unsigned char)*s); s++)
		;
	if (s[0] != '?' || s[1] != '=')
		return 0;
	*q3 = s;
	return 1;
}

static void decode_q(struct sk_strbuf *raw, const char *s, const char *end)
{
	for (; s < end; s++) {
		if (*s == '_')
			sk_strbuf_addch(raw, ' ');
		else if (*s == '=' && end - s > 2 && hexval(s[1]) >= 0 &&
			 hexval(s[2]) >= 0) {
			sk_strbuf_addch(raw, hexval(s[1]) * 16 + hexval(s[2]));
			s += 2;
		} else
			sk_strbuf_addch(raw, *s);
	}
}

/* =?charset?Q|B?text?= words; whitespace between two words is dropped. */
int sk_decode_rfc2047(struct sk_strbuf *out, const char *in)
{
	const char *p = in, *pending_ws = NULL;
	int last_was_word = 0;

	while (*p) {
		const char *q1, *q2, *q3;
		struct sk_strbuf raw = SK_STRBUF_INIT;
		char *charset;
		size_t n;
		int ret;

		if (!encoded_word_at(p, &q1, &q2, &q3)) {
			if (isspace((unsigned char)*p) && last_was_word) {
				if (!pending_ws)
					pending_ws = p;
				p++;
				continue;
			}
			if (pending_ws) {
				sk_strbuf_add(out, pending_ws, (size_t)(p - pending_ws));
				pending_ws = NULL;
			}
			/* no word starts before the next '=' */
			last_was_word = 0;
			n = 1 + strcspn(p + 1, "=");
			sk_strbuf_add(out, p, n);
			p += n;
			continue;
		}
		pending_ws = NULL;
		charset = sk_xstrndup(p + 2, (size_t)(q1 - p - 2));
		if (strchr(charset, '*'))	/* RFC 2231 language suffix */
			*strchr(charset, '*') = '\0';
		if (toupper((unsigned char)q1[1]) == 'B') {
			ret = sk_decode_base64(&raw, q2 + 1, (size_t)(q3 - q2 - 1));
		} else {
			decode_q(&raw, q2 + 1, q3);
			ret = 0;
		}
		if (!ret)
			ret = sk_to_utf8(out, raw.buf, raw.len, charset);
		free(charset);
		sk_strbuf_release(&raw);
		if (ret)
			return ret;
		last_was_word = 1;
		p = q3 + 2;
	}
	if (pending_ws)
		sk_strbuf_adds(out, pending_ws);
	return 0;
}

char *sk_mail_address(const char *from)
{
	const char *lt = strrchr(from, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	char *e = lt && gt ? sk_xstrndup(lt + 1, (size_t)(gt - lt - 1)) :
		  sk_xstrdup(from);

	for (char *c = e; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return e;
}

/* "+0100" or "-0530" in seconds east of UTC; a name ("GMT", "UT") is 0. */
static long zone_offset(const char *z)
{
	int sign = *z == '-' ? -1 : 1;

	if ((*z != '+' && *z != '-') || strspn(z + 1, "0123456789") != 4)
		return 0;
	return sign * (((z[1] - '0') * 10 + (z[2] - '0')) * 3600L +
		       ((z[3] - '0') * 10 + (z[4] - '0')) * 60L);
}

long long sk_mail_time(const char *date)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	struct tm tm = { 0 };
	char mon[4] = "", zone[8] = "";
	const char *p = date ? strchr(date, ',') : NULL, *m;
	int n;

	p = p ? p + 1 : date;
	if (!p)
		return -1;
	n = sscanf(p, "%d %3s %d %d:%d:%d %7s", &tm.tm_mday, mon, &tm.tm_year,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, zone);
	if (n < 6) {
		tm.tm_sec = 0;
		n = sscanf(p, "%d %3s %d %d:%d %7s", &tm.tm_mday, mon,
			   &tm.tm_year, &tm.tm_hour, &tm.tm_min, zone);
		if (n < 5)
			return -1;
	}
	mon[0] = (char)toupper((unsigned char)mon[0]);
	if (strlen(mon) != 3 || !(m = strstr(months, mon)) || (m - months) % 3 ||
	    tm.tm_year < 1970 || tm.tm_mday < 1 || tm.tm_mday > 31)
		return -1;
	tm.tm_mon = (int)(m - months) / 3;
	tm.tm_year -= 1900;
	return (long long)timegm(&tm) - zone_offset(zone);
}

int sk_msgid_check(const char *id)
{
	const unsigned char *p;
	const char *why = NULL;

	if (!id || !*id)
		return sk_error_set(SK_EINVALID, "an empty Message-Id");
	if (*id == '-')
		why = "starts with '-' (b4 would read an option)";
	else if (strchr(id, '/'))
		why = "holds a '/' (a path or a URL, not a Message-Id)";
	for (p = (const unsigned char *)id; !why && *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			why = "holds a control character or a byte above 0x7e";
	if (why)
		return sk_error_set(SK_EINVALID, "Message-Id '%.200s' is not "
				    "Message-Id shaped: it %s", id, why);
	return 0;
}

char *sk_msgid_strip(const char *s)
{
	const char *lt, *gt;

	while (isspace((unsigned char)*s))
		s++;
	lt = strchr(s, '<');
	gt = lt ? strchr(lt, '>') : NULL;
	if (lt && gt)
		return sk_xstrndup(lt + 1, (size_t)(gt - lt - 1));
	return sk_xstrndup(s, strcspn(s, " \t"));
}

const char *sk_mail_header(const struct sk_mail *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nr_headers; i++)
		if (!strcasecmp(m->headers[i].name, name))
			return m->headers[i].value;
	return NULL;
}

/* RFC 2047 section 5: no encoded word in a msg-id; those headers stay as written. */
static int is_msgid_header(const char *name, size_t nlen)
{
	static const char *const names[] = { "Message-Id", "In-Reply-To",
					     "References", NULL };
	const char *const *n;

	for (n = names; *n; n++)
		if (strlen(*n) == nlen && !strncasecmp(name, *n, nlen))
			return 1;
	return 0;
}

static int is_address_name(const char *name, size_t nlen)
{
	static const char *const names[] = { "From", "To", "Cc", "Reply-To",
					     "Sender", NULL };
	const char *const *n;

	for (n = names; *n; n++)
		if (strlen(*n) == nlen && !strncasecmp(name, *n, nlen))
			return 1;
	return 0;
}

/* After the quoted-string or comment that starts at p. */
static const char *skip_quoted(const char *p)
{
	char close = *p == '"' ? '"' : ')';
	int depth = 1;

	for (p++; *p && depth; p++) {
		if (*p == '\\' && p[1])
			p++;
		else if (*p == close)
			depth--;
		else if (close == ')' && *p == '(')
			depth++;
	}
	return p;
}

/* Does s[0..len) hold one of chars? */
static int strpbrk_n(const char *s, size_t len, const char *chars)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (strchr(chars, s[i]))
			return 1;
	return 0;
}

/* Is s one quoted-string, its inner quotes escaped? */
static int is_quoted_string(const char *s, size_t len)
{
	return len >= 2 && s[0] == '"' &&
	       (size_t)(skip_quoted(s) - s) == len && s[len - 1] == '"';
}

/*
 * One address of a list, [start, end) as sent: the display name decoded,
 * the addr-spec of the angle-addr as sent (RFC 2047 section 5: no encoded
 * word in an addr-spec).  A decoded name can hold address syntax ("Linus
 * Torvalds <torvalds@...>," in an encoded word before <attacker@evil>),
 * and git mailinfo (git am, b4) takes the first '@' of a From: line for
 * the address wherever it is (b4 drops a comment's parentheses).  So the
 * name loses its '<' and '>', its '@' becomes " at ", and a name with
 * other specials is quoted: no reader of what we write again takes the
 * name for the address.
 */
/* Text that is no address: '<' and '>' dropped, '@' as " at ". */
static void add_no_address(struct sk_strbuf *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '@')
			sk_strbuf_adds(out, " at ");
		else if (s[i] != '<' && s[i] != '>')
			sk_strbuf_addch(out, s[i]);
	}
}

/* [s, end) decoded; text that was not an encoded word kept or sanitised. */
static void decode_words(struct sk_strbuf *out, const char *s,
			 const char *end, int words_only)
{
	struct sk_strbuf dec = SK_STRBUF_INIT;
	char *text = sk_xstrndup(s, (size_t)(end - s));
	const char *p, *q1, *q2, *q3;

	if (!words_only) {
		/* a display name: all of it is no address */
		if (sk_decode_rfc2047(&dec, text)) {
			sk_strbuf_reset(&dec);
			sk_strbuf_adds(&dec, text);
		}
		add_no_address(out, dec.buf, dec.len);
	} else {
		/* a bare addr-spec: only what its encoded words say is sanitised */
		for (p = text; *p;) {
			if (encoded_word_at(p, &q1, &q2, &q3)) {
				char *w = sk_xstrndup(p, (size_t)(q3 + 2 - p));

				sk_strbuf_reset(&dec);
				if (sk_decode_rfc2047(&dec, w)) {
					sk_strbuf_reset(&dec);
					sk_strbuf_adds(&dec, w);
				}
				add_no_address(out, dec.buf, dec.len);
				free(w);
				p = q3 + 2;
			} else {
				sk_strbuf_addch(out, *p++);
			}
		}
	}
	sk_error_clear();
	sk_strbuf_release(&dec);
	free(text);
}

static void decode_address(struct sk_strbuf *out, const char *start,
			   const char *end, const char *lt, const char *gt)
{
	struct sk_strbuf name = SK_STRBUF_INIT;
	const char *ne = lt;
	size_t i;

	while (start < ne && isspace((unsigned char)*start))
		start++;
	while (ne > start && isspace((unsigned char)ne[-1]))
		ne--;
	if (!lt) {
		/* a bare addr-spec, a comment may follow */
		while (start < end && isspace((unsigned char)*start))
			start++;
		while (end > start && isspace((unsigned char)end[-1]))
			end--;
		decode_words(out, start, end, 1);
		return;
	}
	decode_words(&name, start, ne, 0);
	if (name.len && !is_quoted_string(name.buf, name.len) &&
	    strpbrk(name.buf, "<>,;:@\"()[]\\")) {
		sk_strbuf_addch(out, '"');
		for (i = 0; i < name.len; i++) {
			if (name.buf[i] == '"' || name.buf[i] == '\\')
				sk_strbuf_addch(out, '\\');
			sk_strbuf_addch(out, name.buf[i]);
		}
		sk_strbuf_addch(out, '"');
	} else {
		sk_strbuf_add(out, name.buf, name.len);
	}
	sk_strbuf_adds(out, name.len ? " <" : "<");
	sk_strbuf_add(out, lt + 1, (size_t)(gt - lt - 1));
	sk_strbuf_addch(out, '>');
	sk_strbuf_release(&name);
}

/*
 * An address header: the list split at its commas as sent (never inside
 * an encoded word, a quoted-string, a comment or an angle-addr), each
 * address decoded by decode_address.
 */
static void decode_addresses(struct sk_strbuf *out, const char *v)
{
	const char *p = v;

	while (*p) {
		const char *start = p, *lt = NULL, *gt = NULL, *q1, *q2, *q3;

		while (*p && *p != ',') {
			if (encoded_word_at(p, &q1, &q2, &q3)) {
				p = q3 + 2;
			} else if (*p == '"' || *p == '(') {
				p = skip_quoted(p);
			} else if (*p == '<' && strchr(p, '>')) {
				lt = p;
				gt = strchr(p, '>');
				p = gt + 1;
			} else {
				p++;
			}
		}
		decode_address(out, start, p, lt, gt);
		if (*p == ',') {
			sk_strbuf_adds(out, ", ");
			p++;
		}
	}
}

static void add_header(struct sk_mail *m, const char *name, size_t nlen,
		       const char *value)
{
	struct sk_header *h = SK_ARRAY_PUSH(m->headers, m->nr_headers,
					    m->alloc_headers);
	struct sk_strbuf dec = SK_STRBUF_INIT;
	const char *v = value;

	while (*v == ' ' || *v == '\t')
		v++;
	h->name = sk_xstrndup(name, nlen);
	if (is_address_name(name, nlen))
		decode_addresses(&dec, v);
	else if (is_msgid_header(name, nlen) || sk_decode_rfc2047(&dec, v)) {
		sk_strbuf_reset(&dec);
		sk_strbuf_adds(&dec, v);
	}
	if (!sk_is_utf8(dec.buf, dec.len)) {
		struct sk_strbuf conv = SK_STRBUF_INIT;

		sk_to_utf8(&conv, dec.buf, dec.len, "ISO-8859-1");
		sk_strbuf_release(&dec);
		dec = conv;
	}
	sk_utf8_one_line(dec.buf, dec.len);
	sk_strbuf_rtrim(&dec);
	h->value = sk_strbuf_detach(&dec);
}

/*
 * A msg-id header is printable ASCII (RFC 5322 section 3.6.4): its ids become
 * lore links, config values and arguments, and it is never charset-converted
 * or encoded, so it reads back as written.  Anything else is refused.
 */
static int check_msgid_header(const struct cursor *c, size_t line,
			      const char *name, size_t nlen, const char *value)
{
	const unsigned char *p;

	if (!is_msgid_header(name, nlen))
		return 0;
	for (p = (const unsigned char *)value; *p; p++)
		if ((*p < 0x20 && *p != '\t') || *p > 0x7e)
			return sk_error_set(SK_EINVALID,
					    "%s:%zu: byte 0x%02x in the %.*s header "
					    "(a msg-id is printable ASCII)",
					    c->name, line, *p, (int)nlen, name);
	return 0;
}

static int is_header_name(const char *s, size_t len, size_t *nlen)
{
	size_t i;

	for (i = 0; i < len && s[i] != ':'; i++)
		if (s[i] <= ' ' || s[i] > '~')
			return 0;
	if (i == 0 || i == len)
		return 0;
	*nlen = i;
	return 1;
}

static int parse_headers(struct sk_mail *m, struct cursor *c)
{
	struct sk_strbuf cur = SK_STRBUF_INIT;
	const char *s;
	size_t len, nlen = 0, name_len = 0, name_line = 0;
	char *name = NULL;
	int ret = 0;

	while (next_line(c, &s, &len)) {
		if (!len)
			break;
		if ((s[0] == ' ' || s[0] == '\t') && name) {
			sk_strbuf_addch(&cur, ' ');
			while (len && (*s == ' ' || *s == '\t'))
				s++, len--;
			sk_strbuf_add(&cur, s, len);
			continue;
		}
		if (!is_header_name(s, len, &nlen)) {
			ret = sk_error_set(SK_EINVALID,
					   "%s:%zu: malformed mail header line '%.*s'",
					   c->name, c->line, (int)(len > 60 ? 60 : len), s);
			goto out;
		}
		if (name && (ret = check_msgid_header(c, name_line, name,
						      name_len, cur.buf)))
			goto out;
		if (name)
			add_header(m, name, name_len, cur.buf);
		free(name);
		name = sk_xstrndup(s, nlen);
		name_len = nlen;
		name_line = c->line;
		sk_strbuf_reset(&cur);
		sk_strbuf_add(&cur, s + nlen + 1, len - nlen - 1);
	}
	if (name && !(ret = check_msgid_header(c, name_line, name, name_len,
						cur.buf)))
		add_header(m, name, name_len, cur.buf);
out:
	free(name);
	sk_strbuf_release(&cur);
	return ret;
}

/* "text/plain; charset="utf-8"" -> parameter value, allocated, or NULL. */
static char *ct_param(const char *ct, const char *param)
{
	size_t plen = strlen(param);
	const char *p = ct;

	while (ct && (p = strchr(p, ';'))) {
		p++;
		while (isspace((unsigned char)*p))
			p++;
		if (!strncasecmp(p, param, plen) && p[plen] == '=') {
			p += plen + 1;
			if (*p == '"') {
				const char *q = strchr(p + 1, '"');

				return q ? sk_xstrndup(p + 1, (size_t)(q - p - 1)) : NULL;
			}
			return sk_xstrndup(p, strcspn(p, "; \t"));
		}
	}
	return NULL;
}

/*
 * A base64 or quoted-printable body keeps the sender's CRLF line ends
 * inside the encoding (Outlook, Exchange): read them as LF, like the
 * mbox's own line ends.
 */
static void crlf_to_lf(struct sk_strbuf *sb)
{
	size_t i, j = 0;

	for (i = 0; i < sb->len; i++)
		if (sb->buf[i] != '\r' || i + 1 >= sb->len || sb->buf[i + 1] != '\n')
			sb->buf[j++] = sb->buf[i];
	sk_strbuf_setlen(sb, j);
}

static int decode_part(struct sk_strbuf *out, const char *cte, const char *ct,
		       const char *raw, size_t len)
{
	struct sk_strbuf bytes = SK_STRBUF_INIT;
	char *charset = ct_param(ct, "charset");
	int ret = 0;

	if (cte && !strcasecmp(cte, "quoted-printable"))
		ret = sk_decode_qp(&bytes, raw, len);
	else if (cte && !strcasecmp(cte, "base64"))
		ret = sk_decode_base64(&bytes, raw, len);
	else
		sk_strbuf_add(&bytes, raw, len);
	if (!ret)
		ret = sk_to_utf8(out, bytes.buf, bytes.len, charset);
	if (!ret)
		crlf_to_lf(out);
	free(charset);
	sk_strbuf_release(&bytes);
	return ret;
}

/*
 * The MIME walker is iterative: a stack of parts still to decode, children
 * pushed in reverse so that text comes out in mail order.  Nesting, the
 * number of parts and the size of a mail are limited (mbox.h), so a hostile
 * mail costs an error, never the process stack.
 */
struct mime_part {
	const char *raw;
	size_t len;
	size_t line;		/* of raw[0] in the file */
	int depth;		/* multipart levels above it */
	int has_headers;	/* a subpart: raw starts with its headers */
	char *ct, *cte;
};

struct mime_walk {
	const struct sk_mail *m;
	struct mime_part *stack;
	size_t nr, alloc;
	size_t nr_parts;
};

static void push_part(struct mime_walk *w, const char *raw, size_t len,
		      size_t line, int depth, int has_headers)
{
	struct mime_part *p = SK_ARRAY_PUSH(w->stack, w->nr, w->alloc);

	memset(p, 0, sizeof(*p));
	p->raw = raw;
	p->len = len;
	p->line = line;
	p->depth = depth;
	p->has_headers = has_headers;
}

static void free_part(struct mime_part *p)
{
	free(p->ct);
	free(p->cte);
}

static char *dup_or_null(const char *s)
{
	return s ? sk_xstrdup(s) : NULL;
}

/* A subpart's own headers: Content-Type and -Transfer-Encoding. */
static int part_headers(struct mime_part *p, const char *source)
{
	struct sk_mail sub = { 0 };
	struct cursor c = { source, p->raw, p->raw + p->len, p->line - 1 };
	size_t i;
	int ret;

	sub.source = (char *)source;
	ret = parse_headers(&sub, &c);
	if (!ret) {
		p->ct = dup_or_null(sk_mail_header(&sub, "Content-Type"));
		p->cte = dup_or_null(sk_mail_header(&sub, "Content-Transfer-Encoding"));
		p->line = c.line + 1;
		p->len -= (size_t)(c.p - p->raw);
		p->raw = c.p;
	}
	for (i = 0; i < sub.nr_headers; i++) {
		free(sub.headers[i].name);
		free(sub.headers[i].value);
	}
	free(sub.headers);
	return ret;
}

static size_t count_lines(const char *s, const char *end)
{
	size_t n = 0;

	while (s < end && (s = memchr(s, '\n', (size_t)(end - s)))) {
		n++;
		s++;
	}
	return n;
}

/*
 * The next delimiter line in [p, end): "--boundary" at the start of a line,
 * followed by "--", white space or the line end (RFC 2046 5.1.1), so that
 * boundary "b1" does not match "--b10".
 */
static const char *find_delim(const char *start, const char *p,
			      const char *end, const char *delim, size_t dl)
{
	while (p < end && (p = memmem(p, (size_t)(end - p), delim, dl))) {
		const char *after = p + dl;

		if ((p == start || p[-1] == '\n') &&
		    (after == end || (*after && strchr("-\r\n \t", *after))))
			return p;
		p++;
	}
	return NULL;
}

/* Push the parts between the boundaries of p, last first. */
static int split_multipart(struct mime_walk *w, const struct mime_part *mp)
{
	const char *source = w->m->source;
	const char *end = mp->raw + mp->len, *base = mp->raw, *p;
	char *boundary = ct_param(mp->ct, "boundary"), *delim;
	size_t dl, line = mp->line, first = w->nr;
	int ret = 0;

	if (!boundary)
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: multipart mail without a boundary",
				    source, mp->line);
	if (mp->depth >= SK_MIME_MAX_DEPTH) {
		free(boundary);
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: MIME parts nested deeper than %d levels",
				    source, mp->line, SK_MIME_MAX_DEPTH);
	}
	delim = sk_xstrfmt("--%s", boundary);
	dl = strlen(delim);
	p = find_delim(mp->raw, mp->raw, end, delim, dl);
	while (p) {
		const char *part = memchr(p, '\n', (size_t)(end - p)), *next;

		if (!part || ((size_t)(end - p) >= dl + 2 && !memcmp(p + dl, "--", 2)))
			break;
		part++;
		if (++w->nr_parts > SK_MIME_MAX_PARTS) {
			ret = sk_error_set(SK_EINVALID,
					   "%s:%zu: more than %d MIME parts in one mail",
					   source, w->m->line, SK_MIME_MAX_PARTS);
			break;
		}
		next = find_delim(mp->raw, part, end, delim, dl);
		line += count_lines(base, part);
		base = part;
		push_part(w, part, (size_t)((next ? next : end) - part), line,
			  mp->depth + 1, 1);
		p = next;
	}
	/* reverse what was pushed, so that the first part is on top */
	for (size_t i = first, j = w->nr; j > i + 1; i++, j--) {
		struct mime_part t = w->stack[i];

		w->stack[i] = w->stack[j - 1];
		w->stack[j - 1] = t;
	}
	free(delim);
	free(boundary);
	return ret;
}

/* One part off the stack: split a multipart, decode text, skip the rest. */
static int walk_part(struct sk_strbuf *out, struct mime_walk *w,
		     struct mime_part *p)
{
	int ret;

	if (p->has_headers && (ret = part_headers(p, w->m->source)))
		return ret;
	if (p->ct && !strncasecmp(p->ct, "multipart/", 10))
		return split_multipart(w, p);
	if (p->ct && strncasecmp(p->ct, "text/", 5))
		return 0;	/* binary attachments carry no patch text */
	ret = decode_part(out, p->cte, p->ct, p->raw, p->len);
	if (ret)
		ret = sk_error_prefix(ret, "%s:%zu", w->m->source, p->line);
	return ret;
}

static int decode_body(struct sk_strbuf *out, const struct sk_mail *m,
		       const char *raw, size_t len)
{
	struct mime_walk w = { m, NULL, 0, 0, 0 };
	int ret = 0;

	push_part(&w, raw, len, m->body_line, 0, 0);
	w.stack[0].ct = dup_or_null(sk_mail_header(m, "Content-Type"));
	w.stack[0].cte = dup_or_null(sk_mail_header(m, "Content-Transfer-Encoding"));
	while (w.nr) {
		struct mime_part p = w.stack[--w.nr];

		if (!ret)
			ret = walk_part(out, &w, &p);
		free_part(&p);
	}
	free(w.stack);
	return ret;
}

static void split_references(struct sk_mail *m, const char *refs)
{
	size_t alloc = 0;
	const char *p = refs;

	while (refs && (p = strchr(p, '<'))) {
		const char *gt = strchr(p, '>');

		if (!gt)
			break;
		*SK_ARRAY_PUSH(m->references, m->nr_references, alloc) =
			sk_xstrndup(p + 1, (size_t)(gt - p - 1));
		p = gt + 1;
	}
}

static void set_usual_headers(struct sk_mail *m)
{
	const char *v;

	m->from = (v = sk_mail_header(m, "From")) ? v : "";
	m->subject = (v = sk_mail_header(m, "Subject")) ? v : "";
	m->date = (v = sk_mail_header(m, "Date")) ? v : "";
	m->message_id = (v = sk_mail_header(m, "Message-Id")) ? v : "";
	m->in_reply_to = (v = sk_mail_header(m, "In-Reply-To")) ? v : "";
	split_references(m, sk_mail_header(m, "References"));
}

static int finish_mail(struct sk_mail *m, struct sk_strbuf *raw)
{
	struct sk_strbuf body = SK_STRBUF_INIT;
	int ret;

	if (raw->len > SK_MAIL_MAX_SIZE)
		return sk_error_set(SK_EINVALID,
				    "%s:%zu: mail larger than %d MiB",
				    m->source, m->line, SK_MAIL_MAX_SIZE >> 20);
	ret = decode_body(&body, m, raw->buf, raw->len);
	if (ret) {
		sk_strbuf_release(&body);
		return ret;
	}
	m->body = sk_strbuf_detach(&body);
	set_usual_headers(m);
	return 0;
}

/*
 * "From <addr> Mon Sep 17 00:00:00 2001": a separator even without the blank
 * line before it that mboxrd writers put there.
 */
static int looks_like_separator(const struct cursor *c)
{
	const char *p = c->p + 5, *end = c->end;
	int i;

	while (p < end && *p != ' ' && *p != '\n')
		p++;
	while (p < end && *p == ' ')
		p++;
	if (end - p < 8)
		return 0;
	for (i = 0; i < 3; i++)
		if (!isalpha((unsigned char)p[i]))
			return 0;
	return p[3] == ' ' && isupper((unsigned char)p[0]) &&
	       isalpha((unsigned char)p[4]);
}

/* Body lines up to the next "From " separator, mboxrd escaping undone. */
static void read_body(struct cursor *c, struct sk_strbuf *raw, int in_mbox)
{
	const char *s;
	size_t len;
	int prev_blank = 1;

	while (c->p < c->end) {
		if (in_mbox && peek_starts(c, "From ") &&
		    (prev_blank || looks_like_separator(c)))
			break;
		next_line(c, &s, &len);
		if (len > 5 && s[0] == '>') {
			size_t k = 0;

			while (k < len && s[k] == '>')
				k++;
			if (len - k >= 5 && !memcmp(s + k, "From ", 5))
				s++, len--;
		}
		sk_strbuf_add(raw, s, len);
		sk_strbuf_addch(raw, '\n');
		prev_blank = len == 0;
	}
}

/*
 * A mail that cannot be read is kept, with keep, as what was read of its
 * headers and its error; the reader goes on at the next separator.
 */
static void keep_unreadable(struct sk_mail *m, struct cursor *c, int in_mbox)
{
	struct sk_strbuf rest = SK_STRBUF_INIT;

	m->error = sk_xstrdup(sk_error_last());
	sk_error_clear();
	read_body(c, &rest, in_mbox);
	sk_strbuf_release(&rest);
	free(m->body);
	m->body = sk_xstrdup("");
	set_usual_headers(m);
}

static int parse_one(struct sk_mbox *out, struct cursor *c, int in_mbox,
		     int keep)
{
	struct sk_mail *m = SK_ARRAY_PUSH(out->mails, out->nr, out->alloc);
	struct sk_strbuf raw = SK_STRBUF_INIT;
	int ret;

	memset(m, 0, sizeof(*m));
	m->source = sk_xstrdup(c->name);
	m->line = c->line + 1;
	ret = parse_headers(m, c);
	if (ret)
		goto out;
	if (!m->nr_headers) {
		ret = sk_error_set(SK_EINVALID, "%s:%zu: mail without headers",
				   c->name, m->line);
		goto out;
	}
	m->body_line = c->line + 1;
	read_body(c, &raw, in_mbox);
	ret = finish_mail(m, &raw);
out:
	if (ret && keep) {
		keep_unreadable(m, c, in_mbox);
		ret = 0;
	}
	sk_strbuf_release(&raw);
	return ret;
}

static int parse_buf(struct sk_mbox *out, const char *name, const char *buf,
		     size_t len, int keep)
{
	struct cursor c = { name, buf, buf + len, 0 };
	const char *s, *orig = NULL;
	char *copy = NULL;
	size_t l, nlen, i;
	int in_mbox, ret = 0;

	if (!len)
		return sk_error_set(SK_EINVALID, "%s: empty file, no mail in it", name);
	if (memchr(buf, '\0', len)) {
		if (!keep)
			return sk_error_set(SK_EINVALID, "%s: binary data (NUL byte), not an mbox", name);
		/* an archive: the mail that holds it is unreadable, not the file */
		copy = sk_xmalloc(len + 1);
		memcpy(copy, buf, len);
		copy[len] = '\0';
		for (i = 0; i < len; i++)
			if (!copy[i])
				copy[i] = ' ';
		orig = buf;
		c.p = buf = copy;
		c.end = copy + len;
	}
	in_mbox = peek_starts(&c, "From ");
	{
		struct cursor probe = c;

		next_line(&probe, &s, &l);
		if (!in_mbox && !is_header_name(s, l, &nlen)) {
			free(copy);
			return sk_error_set(SK_EINVALID,
					    "%s:1: not an mbox: expected a 'From ' line or mail headers",
					    name);
		}
	}
	while (c.p < c.end) {
		const char *from = c.p;
		size_t before = out->nr;

		if (in_mbox) {
			next_line(&c, &s, &l);	/* the "From " separator */
			if (l == 0)
				continue;
		}
		ret = parse_one(out, &c, in_mbox, keep);
		if (ret)
			break;
		if (orig && out->nr > before &&
		    memchr(orig + (from - buf), '\0', (size_t)(c.p - from)) &&
		    !out->mails[out->nr - 1].error) {
			struct sk_mail *m = &out->mails[out->nr - 1];

			m->error = sk_xstrfmt("%s:%zu: binary data (NUL byte) "
					      "in the mail", name, m->line);
			free(m->body);
			m->body = sk_xstrdup("");
		}
		if (!in_mbox)
			break;
	}
	free(copy);
	return ret;
}

int sk_mbox_parse_buf(struct sk_mbox *out, const char *name, const char *buf,
		      size_t len)
{
	return parse_buf(out, name, buf, len, 0);
}

static int parse_file(struct sk_mbox *out, const char *path, int keep)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	int ret = sk_read_file(&sb, path);

	if (!ret)
		ret = parse_buf(out, path, sb.buf, sb.len, keep);
	sk_strbuf_release(&sb);
	return ret;
}

int sk_mbox_parse_file(struct sk_mbox *out, const char *path)
{
	return parse_file(out, path, 0);
}

int sk_mbox_read_file(struct sk_mbox *out, const char *path)
{
	return parse_file(out, path, 1);
}

static int collect_dir(char ***names, size_t *nr, size_t *alloc,
		       const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return errno == ENOENT ? 0 : sk_error_errno(dir);
	while ((e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		p = sk_path_join(dir, e->d_name);
		if (sk_is_dir(p)) {
			free(p);
			continue;
		}
		*SK_ARRAY_PUSH(*names, *nr, *alloc) = p;
	}
	closedir(d);
	return 0;
}

static int parse_maildir(struct sk_mbox *out, const char *dir, int keep)
{
	char **names = NULL, *sub;
	size_t nr = 0, alloc = 0, i;
	int ret = 0;

	sub = sk_path_join(dir, "cur");
	ret = collect_dir(&names, &nr, &alloc, sub);
	free(sub);
	sub = sk_path_join(dir, "new");
	if (!ret)
		ret = collect_dir(&names, &nr, &alloc, sub);
	free(sub);
	if (!ret && !nr)
		ret = sk_error_set(SK_EINVALID, "%s: maildir without mail (cur/, new/ empty)", dir);
	if (nr > 1)
		qsort(names, nr, sizeof(*names), sk_str_cmp);
	for (i = 0; !ret && i < nr; i++)
		ret = parse_file(out, names[i], keep);
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return ret;
}

int sk_mbox_parse_maildir(struct sk_mbox *out, const char *dir)
{
	return parse_maildir(out, dir, 0);
}

int sk_mbox_read_maildir(struct sk_mbox *out, const char *dir)
{
	return parse_maildir(out, dir, 1);
}

void sk_mbox_release(struct sk_mbox *mbox)
{
	size_t i, j;

	for (i = 0; i < mbox->nr; i++) {
		struct sk_mail *m = &mbox->mails[i];

		for (j = 0; j < m->nr_headers; j++) {
			free(m->headers[j].name);
			free(m->headers[j].value);
		}
		for (j = 0; j < m->nr_references; j++)
			free(m->references[j]);
		free(m->references);
		free(m->headers);
		free(m->body);
		free(m->source);
		free(m->error);
	}
	free(mbox->mails);
	mbox->mails = NULL;
	mbox->nr = mbox->alloc = 0;
}

void sk_encode_base64(struct sk_strbuf *out, const char *in, size_t len)
{
	static const char tbl[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)in;
	size_t i;

	for (i = 0; i + 2 < len; i += 3) {
		sk_strbuf_addch(out, tbl[p[i] >> 2]);
		sk_strbuf_addch(out, tbl[((p[i] & 3) << 4) | (p[i + 1] >> 4)]);
		sk_strbuf_addch(out, tbl[((p[i + 1] & 15) << 2) | (p[i + 2] >> 6)]);
		sk_strbuf_addch(out, tbl[p[i + 2] & 63]);
	}
	if (len - i == 1) {
		sk_strbuf_addch(out, tbl[p[i] >> 2]);
		sk_strbuf_addch(out, tbl[(p[i] & 3) << 4]);
		sk_strbuf_adds(out, "==");
	} else if (len - i == 2) {
		sk_strbuf_addch(out, tbl[p[i] >> 2]);
		sk_strbuf_addch(out, tbl[((p[i] & 3) << 4) | (p[i + 1] >> 4)]);
		sk_strbuf_addch(out, tbl[(p[i + 1] & 15) << 2]);
		sk_strbuf_addch(out, '=');
	}
}

static int is_ascii(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] >= 0x80)
			return 0;
	return 1;
}

static void encoded_word(struct sk_strbuf *out, const char *s, size_t len)
{
	if (is_ascii(s, len)) {
		sk_strbuf_add(out, s, len);
		return;
	}
	sk_strbuf_adds(out, "=?utf-8?b?");
	sk_encode_base64(out, s, len);
	sk_strbuf_adds(out, "?=");
}

/*
 * Address lists as the reader stores them (decode_addresses): split at the
 * commas outside quotes and angle-addrs; each display name encoded, the
 * "<address>" kept as it is.  A quoted name that holds address syntax
 * stays quoted, so that b4 reads it as a name, never as an address.
 */
static void encode_addresses(struct sk_strbuf *out, const char *v)
{
	while (*v) {
		const char *p = v, *lt = NULL, *end, *name, *name_end;

		while (*p && *p != ',') {
			if (*p == '"') {
				p = skip_quoted(p);
			} else if (*p == '<' && strchr(p, '>')) {
				lt = p;
				p = strchr(p, '>') + 1;
			} else {
				p++;
			}
		}
		end = p;
		if (!lt) {
			sk_strbuf_add(out, v, (size_t)(end - v));
		} else {
			name = v;
			name_end = lt;
			while (name < name_end && *name == ' ')
				name++;
			while (name_end > name && name_end[-1] == ' ')
				name_end--;
			if (is_quoted_string(name, (size_t)(name_end - name)) &&
			    memchr(name, '\\', (size_t)(name_end - name)) == NULL &&
			    !strpbrk_n(name + 1, (size_t)(name_end - name - 2),
				       "<>,;:@()[]")) {
				name++;
				name_end--;
			}
			if (name < name_end && *name == '"')
				sk_strbuf_add(out, name, (size_t)(name_end - name));
			else
				encoded_word(out, name, (size_t)(name_end - name));
			if (name < name_end)
				sk_strbuf_addch(out, ' ');
			sk_strbuf_add(out, lt, (size_t)(end - lt));
		}
		if (!*end)
			break;
		sk_strbuf_addch(out, ',');
		v = end + 1;
	}
}

static int is_address_header(const char *name)
{
	return !strcasecmp(name, "From") || !strcasecmp(name, "To") ||
	       !strcasecmp(name, "Cc") || !strcasecmp(name, "Reply-To");
}

void sk_mbox_format_mail(struct sk_strbuf *out, const struct sk_mail *m)
{
	size_t i;

	sk_strbuf_adds(out, "From mboxrd@z Thu Jan  1 00:00:00 1970\n");
	for (i = 0; i < m->nr_headers; i++) {
		const struct sk_header *h = &m->headers[i];

		if (!strncasecmp(h->name, "Content-", 8) ||
		    !strcasecmp(h->name, "MIME-Version"))
			continue;
		sk_strbuf_addf(out, "%s: ", h->name);
		if (is_address_header(h->name))
			encode_addresses(out, h->value);
		else
			encoded_word(out, h->value, strlen(h->value));
		sk_strbuf_addch(out, '\n');
	}
	sk_strbuf_adds(out, "MIME-Version: 1.0\n"
		       "Content-Type: text/plain; charset=utf-8\n"
		       "Content-Transfer-Encoding: 8bit\n\n");
	sk_mbox_add_body(out, m->body);
	if (out->len && out->buf[out->len - 1] != '\n')
		sk_strbuf_addch(out, '\n');
	sk_strbuf_addch(out, '\n');
}

void sk_mbox_add_body(struct sk_strbuf *out, const char *body)
{
	const char *p;

	for (p = body; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
		const char *q = p;

		while (*q == '>')
			q++;
		if (!strncmp(q, "From ", 5))
			sk_strbuf_addch(out, '>');
		sk_strbuf_add(out, p, len);
		p += len;
	}
}

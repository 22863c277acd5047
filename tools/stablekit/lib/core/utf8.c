#include "core/utf8.h"

#include <string.h>

/* The length of the well-formed sequence at s, or 0. */
static size_t sequence(const unsigned char *s, size_t len)
{
	unsigned int c, min;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		c = s[0] & 0x1f;
		min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		c = s[0] & 0x0f;
		min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	return n;
}

int sk_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	while (i < len) {
		n = sequence(p + i, len - i);
		if (!n)
			return 0;
		i += n;
	}
	return 1;
}

size_t sk_utf8_scrub(struct sk_strbuf *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n, replaced = 0;

	while (i < len) {
		n = sequence(p + i, len - i);
		if (n) {
			sk_strbuf_add(out, s + i, n);
			i += n;
		} else {
			sk_strbuf_adds(out, "\xef\xbf\xbd");
			replaced++;
			i++;
		}
	}
	return replaced;
}

size_t sk_utf8_cut(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	while (len && (p[len] & 0xc0) == 0x80)
		len--;
	return len;
}

/* NEL, LS or PS at p: its length, else 0. */
static size_t unicode_break(const unsigned char *p, size_t left)
{
	if (left >= 2 && p[0] == 0xc2 && p[1] == 0x85)
		return 2;
	if (left >= 3 && p[0] == 0xe2 && p[1] == 0x80 &&
	    (p[2] == 0xa8 || p[2] == 0xa9))
		return 3;
	return 0;
}

static int is_control(unsigned char c)
{
	return (c < 0x20 && c != '\t') || c == 0x7f;
}

size_t sk_utf8_line_break(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < len; i++)
		if (is_control(p[i]) || unicode_break(p + i, len - i))
			return i;
	return len;
}

void sk_utf8_one_line(char *s, size_t len)
{
	unsigned char *p = (unsigned char *)s;
	size_t i, n;

	for (i = 0; i < len; i++) {
		if (is_control(p[i]))
			p[i] = ' ';
		else if ((n = unicode_break(p + i, len - i))) {
			memset(p + i, ' ', n);
			i += n - 1;
		}
	}
}

void sk_utf8_add_one_line(struct sk_strbuf *out, const char *s)
{
	size_t at = out->len, len = s ? strlen(s) : 0;

	if (!len)
		return;
	sk_strbuf_add(out, s, len);
	sk_utf8_one_line(out->buf + at, len);
}

void sk_utf8_add_printable(struct sk_strbuf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	for (; *p; p++) {
		if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
			sk_strbuf_addf(out, "\\x%02x", *p);
		else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			sk_strbuf_addf(out, "\\u%04x", p[1]), p++;
		else
			sk_strbuf_addch(out, *p);
	}
}

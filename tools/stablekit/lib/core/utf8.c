#include "core/utf8.h"

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

#include "core/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char sk_strbuf_empty[1];

static void oom(size_t size)
{
	fprintf(stderr, "stablekit: out of memory allocating %zu bytes\n", size);
	abort();
}

void *sk_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *sk_xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *sk_xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

char *sk_xstrdup(const char *s)
{
	return sk_xstrndup(s, strlen(s));
}

char *sk_xstrndup(const char *s, size_t n)
{
	char *p = sk_xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *sk_xstrfmt(const char *fmt, ...)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sk_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return sk_strbuf_detach(&sb);
}

void sk_strbuf_init(struct sk_strbuf *sb)
{
	sb->buf = sk_strbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
}

void sk_strbuf_release(struct sk_strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sk_strbuf_init(sb);
}

void sk_strbuf_grow(struct sk_strbuf *sb, size_t extra)
{
	size_t want = sb->len + extra + 1;

	if (want <= sb->alloc)
		return;
	if (want < 2 * sb->alloc)
		want = 2 * sb->alloc;
	if (want < 64)
		want = 64;
	if (!sb->alloc) {
		sb->buf = sk_xmalloc(want);
		sb->buf[0] = '\0';
	} else {
		sb->buf = sk_xrealloc(sb->buf, want);
	}
	sb->alloc = want;
}

void sk_strbuf_add(struct sk_strbuf *sb, const void *data, size_t len)
{
	if (!len)
		return;
	sk_strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sk_strbuf_adds(struct sk_strbuf *sb, const char *s)
{
	sk_strbuf_add(sb, s, strlen(s));
}

void sk_strbuf_addch(struct sk_strbuf *sb, int c)
{
	char ch = (char)c;

	sk_strbuf_add(sb, &ch, 1);
}

void sk_strbuf_vaddf(struct sk_strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	sk_strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void sk_strbuf_addf(struct sk_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sk_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sk_strbuf_reset(struct sk_strbuf *sb)
{
	sk_strbuf_setlen(sb, 0);
}

void sk_strbuf_setlen(struct sk_strbuf *sb, size_t len)
{
	if (!sb->alloc)
		return;
	sb->len = len;
	sb->buf[len] = '\0';
}

void sk_strbuf_rtrim(struct sk_strbuf *sb)
{
	while (sb->len && (sb->buf[sb->len - 1] == ' ' ||
			   sb->buf[sb->len - 1] == '\t' ||
			   sb->buf[sb->len - 1] == '\n' ||
			   sb->buf[sb->len - 1] == '\r'))
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

char *sk_strbuf_detach(struct sk_strbuf *sb)
{
	char *p = sb->alloc ? sb->buf : sk_xstrdup("");

	sk_strbuf_init(sb);
	return p;
}

void sk_strbuf_swap(struct sk_strbuf *a, struct sk_strbuf *b)
{
	struct sk_strbuf t = *a;

	*a = *b;
	*b = t;
}

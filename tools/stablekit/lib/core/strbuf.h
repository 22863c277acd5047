#ifndef SK_STRBUF_H
#define SK_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable NUL-terminated byte buffer.  buf is never NULL, so a fresh
 * strbuf can be printed without checks (git's strbuf, trimmed down).
 */
struct sk_strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

extern char sk_strbuf_empty[];
#define SK_STRBUF_INIT { sk_strbuf_empty, 0, 0 }

void sk_strbuf_init(struct sk_strbuf *sb);
void sk_strbuf_release(struct sk_strbuf *sb);
void sk_strbuf_grow(struct sk_strbuf *sb, size_t extra);
void sk_strbuf_add(struct sk_strbuf *sb, const void *data, size_t len);
/* Exchange the contents of a and b. */
void sk_strbuf_swap(struct sk_strbuf *a, struct sk_strbuf *b);
void sk_strbuf_adds(struct sk_strbuf *sb, const char *s);
void sk_strbuf_addch(struct sk_strbuf *sb, int c);
void sk_strbuf_addf(struct sk_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sk_strbuf_vaddf(struct sk_strbuf *sb, const char *fmt, va_list ap);
void sk_strbuf_reset(struct sk_strbuf *sb);
void sk_strbuf_setlen(struct sk_strbuf *sb, size_t len);
void sk_strbuf_rtrim(struct sk_strbuf *sb);
char *sk_strbuf_detach(struct sk_strbuf *sb);

/* Allocation helpers: running out of memory is not a recoverable error. */
void *sk_xmalloc(size_t size);
void *sk_xcalloc(size_t nmemb, size_t size);
void *sk_xrealloc(void *ptr, size_t size);
char *sk_xstrdup(const char *s);
char *sk_xstrndup(const char *s, size_t n);
char *sk_xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));


/* Grow an array of *nr elements of *ptr to hold one more; returns the slot. */
#define SK_ARRAY_PUSH(ptr, nr, alloc) \
	(((nr) >= (alloc) ? \
	  ((alloc) = (alloc) ? 2 * (alloc) : 8, \
	   (ptr) = sk_xrealloc((ptr), (alloc) * sizeof(*(ptr)))) : (ptr)), \
	 &(ptr)[(nr)++])

#endif

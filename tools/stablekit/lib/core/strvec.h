#ifndef SK_STRVEC_H
#define SK_STRVEC_H

#include <stddef.h>
#include <jansson.h>

/*
 * The one string vector: a growable array of strings (SK_ARRAY_PUSH
 * grows it).  Whether it owns its strings is the user's: release frees
 * the array, clear the strings too.  Structs that keep a plain
 * "char **v; size_t nr" free it with sk_strvec_free_array.
 */
struct sk_strvec {
	const char **items;
	size_t nr, alloc;
};

/* Free the array, not the strings. */
void sk_strvec_release(struct sk_strvec *l);
/* Free the strings and the array. */
void sk_strvec_clear(struct sk_strvec *l);
/* Append a copy of s. */
void sk_strvec_push(struct sk_strvec *l, const char *s);
/* A JSON array of the strings. */
json_t *sk_strvec_json(const struct sk_strvec *l);

/* qsort and bsearch of an array of strings (char *), by strcmp. */
int sk_str_cmp(const void *a, const void *b);

/* Free nr strings of v and v itself; NULL is fine. */
void sk_strvec_free_array(char **v, size_t nr);
/* A JSON array of nr strings of v. */
json_t *sk_strvec_array_json(char *const *v, size_t nr);

#endif

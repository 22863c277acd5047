#include "core/strvec.h"
#include "core/json.h"
#include "core/strbuf.h"

#include <stdlib.h>
#include <string.h>

void sk_strvec_release(struct sk_strvec *l)
{
	free(l->items);
	l->items = NULL;
	l->nr = l->alloc = 0;
}

void sk_strvec_clear(struct sk_strvec *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free((char *)l->items[i]);
	sk_strvec_release(l);
}

void sk_strvec_push(struct sk_strvec *l, const char *s)
{
	*SK_ARRAY_PUSH(l->items, l->nr, l->alloc) = sk_xstrdup(s);
}

json_t *sk_strvec_json(const struct sk_strvec *l)
{
	return sk_strvec_array_json((char *const *)l->items, l->nr);
}

void sk_strvec_free_array(char **v, size_t nr)
{
	while (v && nr)
		free(v[--nr]);
	free(v);
}

json_t *sk_strvec_array_json(char *const *v, size_t nr)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < nr; i++)
		json_array_append_new(arr, sk_json_string(v[i]));
	return arr;
}

int sk_str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

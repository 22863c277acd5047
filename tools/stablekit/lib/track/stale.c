#include "track/stale.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/json.h"
#include "mail/series.h"
#include "core/shquote.h"

#include <stdlib.h>
#include <string.h>

int sk_stale_latest_revision(const char *top, const char *slug)
{
	struct sk_series *s = NULL;
	const struct sk_revision *r;
	int v = 0;

	if (!sk_series_load(&s, top, slug) && (r = sk_series_latest(s)))
		v = r->version;
	sk_error_clear();
	sk_series_free(s);
	return v;
}

void sk_stale_release(struct sk_stale_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->items[i].branch);
		free(l->items[i].slug);
		free(l->items[i].ported_label);
		free(l->items[i].latest_label);
	}
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void sk_stale_describe(struct sk_strbuf *out, const struct sk_stale_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		const struct sk_stale *st = &l->items[i];
		const char *argv[] = { "stablekit", "port", st->slug, "--branch", st->branch };

		sk_strbuf_addf(out, "%s: %s: stale (%s on the list, queue from %s): ",
			       st->branch, st->slug, st->latest_label,
			       st->ported_label);
		sk_shell_argv(out, argv, 5);
		sk_strbuf_addch(out, '\n');
	}
}

json_t *sk_stale_json(const struct sk_stale_list *l)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < l->nr; i++)
		json_array_append_new(arr, json_pack("{s:s?, s:s?, s:i, s:i, s:s?, s:s?}",
				      "branch", l->items[i].branch,
				      "series", l->items[i].slug,
				      "ported", l->items[i].ported,
				      "latest", l->items[i].latest,
				      "ported_label", l->items[i].ported_label,
				      "latest_label", l->items[i].latest_label));
	return arr;
}

static int read_one(struct sk_stale *st, json_t *o, const char *file,
		    const char *at)
{
	long long n = 0;

	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&st->branch, o, "branch", file, at));
	SK_JSON_READ(sk_json_read_string(&st->slug, o, "series", file, at));
	SK_JSON_READ(sk_json_read_int(&n, o, "ported", file, at));
	st->ported = (int)n;
	n = 0;
	SK_JSON_READ(sk_json_read_int(&n, o, "latest", file, at));
	st->latest = (int)n;
	SK_JSON_READ(sk_json_read_string(&st->ported_label, o, "ported_label",
					 file, at));
	SK_JSON_READ(sk_json_read_string(&st->latest_label, o, "latest_label",
					 file, at));
	return 0;
}

int sk_stale_from_json(struct sk_stale_list *out, json_t *arr,
		       const char *file, const char *at)
{
	json_t *v;
	size_t i;
	char *path;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!json_is_array(arr))
		return sk_json_type_error(file, at, "an array", arr);
	json_array_foreach(arr, i, v) {
		struct sk_stale *st = SK_ARRAY_PUSH(out->items, out->nr,
						    out->alloc);

		memset(st, 0, sizeof(*st));
		path = sk_json_path(at, NULL, i);
		ret = read_one(st, v, file, path);
		free(path);
		if (ret < 0)
			break;
	}
	return ret;
}

json_t *sk_stale_latest_json(const char *top, const char *slug)
{
	int v = slug ? sk_stale_latest_revision(top, slug) : 0;

	return v ? json_integer(v) : json_null();
}

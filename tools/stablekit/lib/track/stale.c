#include "track/stale.h"
#include "project/branches.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/json.h"
#include "core/results.h"
#include "mail/series.h"
#include "core/shquote.h"

#include <stdlib.h>
#include <string.h>

/* The revision a port result names; 0 when none (older results, no file). */
static int ported_revision(const char *results, const char *branch,
			   const char *slug)
{
	char *path = sk_xstrfmt("%s/%s/port/%s.json", results, branch, slug);
	char *why = NULL;
	json_t *o = sk_results_load(path, &why);
	json_t *rev = o ? json_object_get(o, "revision") : NULL;
	int v = json_is_integer(rev) ? (int)json_integer_value(rev) : 0;

	json_decref(o);
	free(why);
	free(path);
	return v;
}

/* A revision's label, "v<n>" for one the series no longer has. */
static char *label_of(const char *top, const char *slug, int version)
{
	struct sk_series *s = NULL;
	const struct sk_revision *r = NULL;
	char *label;

	if (!sk_series_load(&s, top, slug))
		r = sk_series_revision(s, version);
	sk_error_clear();
	label = r && r->label ? sk_xstrdup(r->label) :
		sk_xstrfmt("v%d", version);
	sk_series_free(s);
	return label;
}

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

int sk_stale_find(struct sk_stale_list *out, const char *top)
{
	struct sk_branches b = { 0 };
	char *conf = sk_path_join(top, SK_BRANCHES_CONF);
	char *results = sk_results_dir(top);
	char **names = NULL;
	int *latest = NULL;
	size_t nr = 0, i, j;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = sk_branches_load(&b, conf);
	if (ret == SK_ENOTFOUND) {
		sk_error_clear();
		ret = 0;
	}
	if (!ret)
		ret = sk_series_names(&names, &nr, top);
	if (!ret) {
		latest = sk_xcalloc(nr + 1, sizeof(*latest));
		for (j = 0; j < nr; j++)
			latest[j] = sk_stale_latest_revision(top, names[j]);
	}
	for (i = 0; !ret && i < b.nr; i++) {
		for (j = 0; j < nr; j++) {
			int v = ported_revision(results, b.items[i].name, names[j]);
			struct sk_stale *st;

			if (!v || !latest[j] || v == latest[j])
				continue;
			st = SK_ARRAY_PUSH(out->items, out->nr, out->alloc);
			st->branch = sk_xstrdup(b.items[i].name);
			st->slug = sk_xstrdup(names[j]);
			st->ported = v;
			st->latest = latest[j];
			st->ported_label = label_of(top, names[j], v);
			st->latest_label = label_of(top, names[j], latest[j]);
		}
	}
	free(latest);
	sk_series_names_free(names, nr);
	sk_branches_release(&b);
	free(results);
	free(conf);
	return ret;
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

char *sk_stale_status_text(const char *top)
{
	struct sk_stale_list l;
	struct sk_strbuf sb = SK_STRBUF_INIT;

	if (!sk_stale_find(&l, top))
		sk_stale_describe(&sb, &l);
	sk_error_clear();
	sk_stale_release(&l);
	return sk_strbuf_detach(&sb);
}

json_t *sk_stale_status_json(const char *top)
{
	struct sk_stale_list l;
	json_t *o;

	sk_stale_find(&l, top);
	sk_error_clear();
	o = sk_stale_json(&l);
	sk_stale_release(&l);
	return o;
}

json_t *sk_stale_latest_json(const char *top, const char *slug)
{
	int v = slug ? sk_stale_latest_revision(top, slug) : 0;

	return v ? json_integer(v) : json_null();
}

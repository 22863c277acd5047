#include "port/port-stale.h"
#include "port/port-results.h"
#include "project/branches.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/results.h"
#include "mail/series.h"

#include <stdlib.h>
#include <string.h>

/* The revision a port result names; 0 when none (older results, no file). */
static int ported_revision(const char *results, const char *branch,
			   const char *slug)
{
	char *path = sk_xstrfmt("%s/%s/port/%s.json", results, branch, slug);
	struct sk_port_results r = { 0 };
	int v = 0;

	if (sk_path_exists(path) && !sk_port_results_read(&r, path))
		v = r.revision > 0 && r.revision <= 1000000 ? (int)r.revision : 0;
	sk_error_clear();
	sk_port_results_release(&r);
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

void sk_port_stale_find(struct sk_stale_list *out, const char *top)
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
	if (ret) {
		sk_stale_release(out);
		sk_error_clear();
	}
}

char *sk_port_stale_text(const char *top)
{
	struct sk_stale_list l;
	struct sk_strbuf sb = SK_STRBUF_INIT;

	sk_port_stale_find(&l, top);
	sk_stale_describe(&sb, &l);
	sk_stale_release(&l);
	return sk_strbuf_detach(&sb);
}

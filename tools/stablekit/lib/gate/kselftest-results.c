#include "gate/kselftest-results.h"
#include "core/error.h"
#include "core/json.h"
#include "core/results.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#include <stdlib.h>
#include <string.h>

static json_t *str_or_null(const char *s)
{
	return s ? sk_json_string(s) : json_null();
}

void sk_kselftest_run_release(struct sk_kselftest_run *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_results; i++) {
		free(r->results[i].name);
		free(r->results[i].status);
		free(r->results[i].reason);
	}
	free(r->results);
	for (i = 0; i < r->nr_counts; i++)
		free(r->counts[i].status);
	free(r->counts);
	sk_strvec_free_array(r->not_built, r->nr_not_built);
	sk_strvec_free_array(r->first_parse_errors, r->nr_first_parse_errors);
	free(r->arch);
	free(r->kernel);
	free(r->status);
	free(r->reason);
	free(r->log);
	free(r->reused);
	free(r->boot_status);
	free(r->boot_reason);
	memset(r, 0, sizeof(*r));
}

static void release_changes(struct sk_kselftest_changes *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		free(c->v[i].name);
		free(c->v[i].baseline);
		free(c->v[i].patched);
		free(c->v[i].reason);
		free(c->v[i].confirm_baseline);
		free(c->v[i].confirm_patched);
	}
	free(c->v);
}

void sk_kselftest_compare_release(struct sk_kselftest_compare *c)
{
	if (!c)
		return;
	release_changes(&c->regressions);
	release_changes(&c->known_failures);
	release_changes(&c->fixed);
	release_changes(&c->flaky);
	sk_strvec_free_array(c->new_tests, c->nr_new_tests);
	sk_strvec_free_array(c->confirm_binaries, c->nr_confirm_binaries);
	free(c->confirm_baseline_status);
	free(c->confirm_baseline_reason);
	free(c->confirm_patched_status);
	free(c->confirm_patched_reason);
	memset(c, 0, sizeof(*c));
}

/* --- the report's forms --- */

json_t *sk_kselftest_counts_json(const struct sk_kselftest_run *r)
{
	json_t *o;
	size_t i;

	if (!r->has_counts)
		return NULL;
	o = json_object();
	for (i = 0; i < r->nr_counts; i++)
		json_object_set_new(o, r->counts[i].status,
				    json_integer(r->counts[i].n));
	return o;
}

json_t *sk_kselftest_entries_json(const struct sk_kselftest_run *r)
{
	json_t *a;
	size_t i;

	if (!r->has_results)
		return NULL;
	a = json_array();
	for (i = 0; i < r->nr_results; i++) {
		const struct sk_kselftest_entry *e = &r->results[i];
		json_t *o = json_pack("{s:o, s:o, s:o}", "name", str_or_null(e->name),
				      "status", str_or_null(e->status),
				      "reason", str_or_null(e->reason));

		if (e->has_retries)
			json_object_set_new(o, "retries", json_integer(e->retries));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *sk_kselftest_changes_json(const struct sk_kselftest_changes *c)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < c->nr; i++) {
		const struct sk_kselftest_change *ch = &c->v[i];
		json_t *o = json_pack("{s:o, s:o, s:o}", "name", str_or_null(ch->name),
				      "baseline", str_or_null(ch->baseline),
				      "patched", str_or_null(ch->patched));

		if (ch->reason)
			json_object_set_new(o, "reason", sk_json_string(ch->reason));
		if (ch->has_confirm)
			json_object_set_new(o, "confirm", json_pack("{s:o*, s:o*}",
				"baseline", ch->confirm_baseline ?
					sk_json_string(ch->confirm_baseline) : NULL,
				"patched", ch->confirm_patched ?
					sk_json_string(ch->confirm_patched) : NULL));
		json_array_append_new(a, o);
	}
	return a;
}

json_t *sk_kselftest_new_tests_json(const struct sk_kselftest_compare *c)
{
	return sk_strvec_array_json(c->new_tests, c->nr_new_tests);
}

/* --- reading --- */

static int read_entry(struct sk_kselftest_entry *e, json_t *o,
		      const char *file, const char *at)
{
	int ret;

	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&e->name, o, "name", file, at));
	SK_JSON_READ(sk_json_read_string(&e->status, o, "status", file, at));
	SK_JSON_READ(sk_json_read_string(&e->reason, o, "reason", file, at));
	SK_JSON_READ(ret = sk_json_read_int(&e->retries, o, "retries", file, at));
	e->has_retries = ret;
	return 0;
}

static int read_entries(struct sk_kselftest_run *r, json_t *ks, const char *file)
{
	json_t *arr = NULL, *v;
	size_t i;
	char *p;
	int ret;

	SK_JSON_READ(ret = sk_json_read_array(&arr, ks, "results", file,
					      "kselftest"));
	if (!ret)
		return 0;
	r->has_results = 1;
	r->results = sk_xcalloc(json_array_size(arr) + 1, sizeof(*r->results));
	json_array_foreach(arr, i, v) {
		r->nr_results++;
		p = sk_json_path("kselftest.results", NULL, i);
		ret = read_entry(&r->results[i], v, file, p);
		free(p);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_counts(struct sk_kselftest_run *r, json_t *ks, const char *file)
{
	json_t *counts = NULL, *v;
	const char *status;
	int ret;

	SK_JSON_READ(ret = sk_json_read_object(&counts, ks, "counts", file,
					       "kselftest"));
	if (!ret)
		return 0;
	r->has_counts = 1;
	r->counts = sk_xcalloc(json_object_size(counts) + 1, sizeof(*r->counts));
	json_object_foreach(counts, status, v) {
		struct sk_kselftest_count *c = &r->counts[r->nr_counts];

		SK_JSON_READ(sk_json_read_int(&c->n, counts, status, file,
					      "kselftest.counts"));
		c->status = sk_xstrdup(status);
		r->nr_counts++;
	}
	return 0;
}

static int read_parse_errors(struct sk_kselftest_run *r, json_t *ks,
			     const char *file)
{
	const char *at = "kselftest.parse_errors";
	json_t *pe = NULL;

	SK_JSON_READ(sk_json_read_object(&pe, ks, "parse_errors", file,
					 "kselftest"));
	if (!pe)
		return 0;
	SK_JSON_READ(sk_json_read_int(&r->parse_errors, pe, "count", file, at));
	SK_JSON_READ(sk_json_read_strings(&r->first_parse_errors,
					  &r->nr_first_parse_errors, pe,
					  "first", file, at));
	return 0;
}

static int read_kselftest(struct sk_kselftest_run *r, json_t *o, const char *file)
{
	json_t *ks = NULL;
	int ret;

	SK_JSON_READ(sk_json_read_object(&ks, o, "kselftest", file, ""));
	if (!ks)
		return 0;
	SK_JSON_READ(read_entries(r, ks, file));
	SK_JSON_READ(read_counts(r, ks, file));
	SK_JSON_READ(ret = sk_json_read_strings(&r->not_built, &r->nr_not_built,
						ks, "not_built", file,
						"kselftest"));
	r->has_not_built = ret;
	return read_parse_errors(r, ks, file);
}

static int read_run(struct sk_kselftest_run *r, json_t *o, const char *file)
{
	json_t *boot = NULL;

	if (!json_is_object(o))
		return sk_json_type_error(file, "", "an object", o);
	SK_JSON_READ(sk_json_read_string(&r->arch, o, "arch", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->kernel, o, "kernel", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->status, o, "status", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->reason, o, "reason", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->log, o, "log", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->reused, o, "reused", file, ""));
	SK_JSON_READ(r->has_boot = sk_json_read_object(&boot, o, "boot", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->boot_status, boot, "status", file,
					 "boot"));
	SK_JSON_READ(sk_json_read_string(&r->boot_reason, boot, "reason", file,
					 "boot"));
	return read_kselftest(r, o, file);
}

static int read_confirm_of(struct sk_kselftest_change *ch, json_t *o,
			   const char *file, const char *at)
{
	json_t *c = NULL;
	char *p;
	int ret;

	SK_JSON_READ(ret = sk_json_read_object(&c, o, "confirm", file, at));
	if (!ret)
		return 0;
	ch->has_confirm = 1;
	p = sk_json_path(at, "confirm", 0);
	ret = sk_json_read_string(&ch->confirm_baseline, c, "baseline", file, p);
	if (ret >= 0)
		ret = sk_json_read_string(&ch->confirm_patched, c, "patched",
					  file, p);
	free(p);
	return ret < 0 ? ret : 0;
}

static int read_change(struct sk_kselftest_change *ch, json_t *o,
		       const char *file, const char *at)
{
	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&ch->name, o, "name", file, at));
	SK_JSON_READ(sk_json_read_string(&ch->baseline, o, "baseline", file, at));
	SK_JSON_READ(sk_json_read_string(&ch->patched, o, "patched", file, at));
	SK_JSON_READ(sk_json_read_string(&ch->reason, o, "reason", file, at));
	return read_confirm_of(ch, o, file, at);
}

static int read_changes(struct sk_kselftest_changes *c, json_t *o,
			const char *key, const char *file)
{
	json_t *arr = NULL, *v;
	size_t i;
	char *p;
	int ret;

	SK_JSON_READ(ret = sk_json_read_array(&arr, o, key, file, ""));
	if (!ret)
		return 0;
	c->v = sk_xcalloc(json_array_size(arr) + 1, sizeof(*c->v));
	json_array_foreach(arr, i, v) {
		c->nr++;
		p = sk_json_path(key, NULL, i);
		ret = read_change(&c->v[i], v, file, p);
		free(p);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_boot_summary(char **status, char **reason, json_t *o,
			     const char *key, const char *file)
{
	json_t *s = NULL;
	char *p = sk_json_path("confirm", key, 0);
	int ret = sk_json_read_object(&s, o, key, file, "confirm");

	if (ret > 0)
		ret = sk_json_read_string(status, s, "status", file, p);
	if (ret >= 0)
		ret = sk_json_read_string(reason, s, "reason", file, p);
	free(p);
	return ret < 0 ? ret : 0;
}

static int read_compare(struct sk_kselftest_compare *c, json_t *o,
			const char *file)
{
	json_t *conf = NULL;

	if (!json_is_object(o))
		return sk_json_type_error(file, "", "an object", o);
	SK_JSON_READ(read_changes(&c->regressions, o, "regressions", file));
	SK_JSON_READ(read_changes(&c->known_failures, o, "known_failures", file));
	SK_JSON_READ(read_changes(&c->fixed, o, "fixed", file));
	SK_JSON_READ(read_changes(&c->flaky, o, "flaky", file));
	SK_JSON_READ(sk_json_read_strings(&c->new_tests, &c->nr_new_tests, o,
					  "new_tests", file, ""));
	SK_JSON_READ(c->has_confirm = sk_json_read_object(&conf, o, "confirm",
							  file, ""));
	if (!conf)
		return 0;
	SK_JSON_READ(sk_json_read_strings(&c->confirm_binaries,
					  &c->nr_confirm_binaries, conf,
					  "binaries", file, "confirm"));
	SK_JSON_READ(read_boot_summary(&c->confirm_baseline_status,
				       &c->confirm_baseline_reason, conf,
				       "baseline", file));
	return read_boot_summary(&c->confirm_patched_status,
				 &c->confirm_patched_reason, conf, "patched",
				 file);
}

int sk_kselftest_run_from_json(struct sk_kselftest_run *out, json_t *o,
			       const char *file)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = read_run(out, o, file);
	if (ret < 0)
		sk_kselftest_run_release(out);
	return ret;
}

int sk_kselftest_compare_from_json(struct sk_kselftest_compare *out, json_t *o,
				   const char *file)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = read_compare(out, o, file);
	if (ret < 0)
		sk_kselftest_compare_release(out);
	return ret;
}

/* --- files --- */

int sk_kselftest_run_write(const char *path, json_t *o)
{
	struct sk_kselftest_run r;
	int ret = sk_kselftest_run_from_json(&r, o, path);

	sk_kselftest_run_release(&r);
	return ret < 0 ? ret : sk_results_save(path, o);
}

int sk_kselftest_compare_write(const char *path, json_t *o)
{
	struct sk_kselftest_compare c;
	int ret = sk_kselftest_compare_from_json(&c, o, path);

	sk_kselftest_compare_release(&c);
	return ret < 0 ? ret : sk_results_save(path, o);
}

int sk_kselftest_run_read(struct sk_kselftest_run *out, const char *path)
{
	json_t *o;
	int ret = sk_results_read_json(&o, path);

	memset(out, 0, sizeof(*out));
	if (ret)
		return ret;
	ret = sk_kselftest_run_from_json(out, o, path);
	if (ret < 0)
		sk_error_prefix(ret, "unreadable");
	json_decref(o);
	return ret;
}

int sk_kselftest_compare_read(struct sk_kselftest_compare *out,
			      const char *path)
{
	json_t *o;
	int ret = sk_results_read_json(&o, path);

	memset(out, 0, sizeof(*out));
	if (ret)
		return ret;
	ret = sk_kselftest_compare_from_json(out, o, path);
	if (ret < 0)
		sk_error_prefix(ret, "unreadable");
	json_decref(o);
	return ret;
}

#include "build/build-results.h"
#include "core/error.h"
#include "core/json.h"
#include "core/results.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#include <stdlib.h>
#include <string.h>

/* --- release --- */

static void variant_release(struct sk_build_results_variant *v)
{
	free(v->status);
	free(v->note);
	free(v->results);
	free(v->image);
}

static void warning_release(struct sk_build_results_warning *w)
{
	free(w->text);
	free(w->diag.file);
	free(w->diag.function);
	free(w->diag.severity);
	free(w->diag.message);
}

static void arch_release(struct sk_build_results_arch *a)
{
	size_t i;

	free(a->arch);
	free(a->cc);
	free(a->toolchain);
	variant_release(&a->baseline);
	variant_release(&a->patched);
	for (i = 0; i < a->nr_new_warnings; i++)
		warning_release(&a->new_warnings[i]);
	free(a->new_warnings);
	free(a->gate_why);
}

void sk_build_results_release(struct sk_build_results *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_arches; i++)
		arch_release(&r->arches[i]);
	free(r->arches);
	free(r->branch);
	free(r->mode);
	free(r->why);
	free(r->not_run);
	free(r->tip);
	free(r->describe);
	free(r->worktree);
	sk_strvec_free_array(r->patches, r->nr_patches);
	sk_strvec_free_array(r->files, r->nr_files);
	free(r->queue_status);
	free(r->queue_log);
	free(r->kconfig);
	free(r->kconfig_from);
	sk_strvec_free_array(r->fragments, r->nr_fragments);
	free(r->distcc_hosts);
	free(r->gate);
	free(r->results);
	memset(r, 0, sizeof(*r));
}

void sk_build_results_free(struct sk_build_results *r)
{
	sk_build_results_release(r);
	free(r);
}

/* --- writing --- */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *variant_json(const struct sk_build_results_variant *v)
{
	return json_pack("{s:s, s:f, s:I, s:I, s:o, s:o, s:o}",
			 "status", v->status ? v->status : "skipped",
			 "duration", v->duration,
			 "warnings", (json_int_t)v->warnings,
			 "errors", (json_int_t)v->errors,
			 "note", str_or_null(v->note),
			 "results", str_or_null(v->results),
			 "image", str_or_null(v->image));
}

json_t *sk_build_results_warning_json(const struct sk_build_results_warning *w)
{
	json_t *o;

	if (w->text)
		return json_string(w->text);
	o = json_pack("{s:o, s:I, s:I, s:s, s:o}",
		      "file", sk_json_string(w->diag.file),
		      "line", (json_int_t)w->diag.line,
		      "column", (json_int_t)w->diag.column,
		      "severity", w->diag.severity ? w->diag.severity : "warning",
		      "message", sk_json_string(w->diag.message));
	json_object_set_new(o, "function", sk_json_string(w->diag.function));
	json_object_set_new(o, "allowed", json_boolean(w->allowed));
	return o;
}

static json_t *arch_json(const struct sk_build_results_arch *a)
{
	json_t *nw = json_array();
	size_t i;

	for (i = 0; i < a->nr_new_warnings; i++)
		json_array_append_new(nw, sk_build_results_warning_json(
				      &a->new_warnings[i]));
	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:b, s:o}",
			 "arch", a->arch ? a->arch : "",
			 "cc", a->cc ? a->cc : "",
			 "toolchain", str_or_null(a->toolchain),
			 "baseline", variant_json(&a->baseline),
			 "patched", variant_json(&a->patched),
			 "new_warnings", nw,
			 "gate_failed", a->gate_failed,
			 "gate_why", str_or_null(a->gate_why));
}

static json_t *built_json(const struct sk_build_results *r, json_t *o)
{
	json_t *arches = json_array();
	size_t i;

	for (i = 0; i < r->nr_arches; i++)
		json_array_append_new(arches, arch_json(&r->arches[i]));
	json_object_set_new(o, "tip", json_string(r->tip ? r->tip : ""));
	json_object_set_new(o, "describe", str_or_null(r->describe));
	json_object_set_new(o, "worktree", str_or_null(r->worktree));
	json_object_set_new(o, "worktree_reused", json_boolean(r->worktree_reused));
	json_object_set_new(o, "checkout_s", json_real(r->checkout_s));
	json_object_set_new(o, "queue", json_pack("{s:o, s:o, s:o, s:o}",
			    "patches", sk_strvec_array_json(r->patches, r->nr_patches),
			    "files", sk_strvec_array_json(r->files, r->nr_files),
			    "status", str_or_null(r->queue_status),
			    "log", str_or_null(r->queue_log)));
	if (r->kconfig)
		json_object_set_new(o, "kconfig", json_string(r->kconfig));
	json_object_set_new(o, "fragments",
			    sk_strvec_array_json(r->fragments, r->nr_fragments));
	if (r->kconfig_from)
		json_object_set_new(o, "kconfig_from", json_string(r->kconfig_from));
	json_object_set_new(o, "parallel", json_integer(r->parallel));
	json_object_set_new(o, "jobs_per_make", json_integer(r->jobs_per_make));
	json_object_set_new(o, "distcc_hosts", str_or_null(r->distcc_hosts));
	json_object_set_new(o, "duration", json_real(r->duration));
	json_object_set_new(o, "arches", arches);
	json_object_set_new(o, "gate", json_string(r->gate ? r->gate : "pass"));
	return o;
}

json_t *sk_build_results_to_json(const struct sk_build_results *r)
{
	json_t *o = json_pack("{s:s, s:s, s:b}", "branch", r->branch ? r->branch : "",
			      "mode", r->mode ? r->mode : "",
			      "buildable", r->buildable);

	if (r->not_run) {
		json_object_set_new(o, "why", json_string(r->not_run));
		json_object_set_new(o, "not_run", json_string(r->not_run));
		json_object_set_new(o, "gate", json_string("not run"));
	} else if (!r->buildable) {
		json_object_set_new(o, "why", str_or_null(r->why));
	} else {
		built_json(r, o);
	}
	if (r->results)
		json_object_set_new(o, "results", json_string(r->results));
	return o;
}

int sk_build_results_write(const char *path, const struct sk_build_results *r)
{
	json_t *o = sk_build_results_to_json(r);
	int ret = sk_results_save(path, o);

	json_decref(o);
	return ret;
}

/* --- reading --- */

static int read_variant(struct sk_build_results_variant *v, json_t *a,
			const char *key, const char *file, const char *at)
{
	char *here = sk_json_path(at, key, 0);
	json_t *o = NULL;
	int ret;

	ret = sk_json_read_object(&o, a, key, file, at);
	if (ret <= 0)
		goto out;
	if ((ret = sk_json_read_string(&v->status, o, "status", file, here)) < 0 ||
	    (ret = sk_json_read_real(&v->duration, o, "duration", file, here)) < 0)
		goto out;
	v->has_duration = ret;
	if ((ret = sk_json_read_int(&v->warnings, o, "warnings", file, here)) < 0)
		goto out;
	v->has_warnings = ret;
	if ((ret = sk_json_read_int(&v->errors, o, "errors", file, here)) < 0)
		goto out;
	v->has_errors = ret;
	if ((ret = sk_json_read_string(&v->note, o, "note", file, here)) < 0 ||
	    (ret = sk_json_read_string(&v->results, o, "results", file, here)) < 0 ||
	    (ret = sk_json_read_string(&v->image, o, "image", file, here)) < 0)
		goto out;
	ret = 0;
out:
	free(here);
	return ret;
}

static int read_warning(struct sk_build_results_warning *w, json_t *v,
			const char *file, const char *at)
{
	long long n = 0;

	if (json_is_string(v)) {
		w->text = sk_xstrdup(json_string_value(v));
		return 0;
	}
	if (!json_is_object(v))
		return sk_json_type_error(file, at, "an object or a string", v);
	SK_JSON_READ(sk_json_read_string(&w->diag.file, v, "file", file, at));
	SK_JSON_READ(sk_json_read_int(&n, v, "line", file, at));
	w->diag.line = (unsigned int)n;
	n = 0;
	SK_JSON_READ(sk_json_read_int(&n, v, "column", file, at));
	w->diag.column = (unsigned int)n;
	SK_JSON_READ(sk_json_read_string(&w->diag.function, v, "function", file, at));
	SK_JSON_READ(sk_json_read_string(&w->diag.severity, v, "severity", file, at));
	SK_JSON_READ(sk_json_read_string(&w->diag.message, v, "message", file, at));
	SK_JSON_READ(sk_json_read_bool(&w->allowed, v, "allowed", file, at));
	return 0;
}

static int read_warnings(struct sk_build_results_arch *a, json_t *o,
			 const char *file, const char *at)
{
	char *here = sk_json_path(at, "new_warnings", 0), *p;
	json_t *arr = NULL, *v;
	size_t i;
	int ret;

	ret = sk_json_read_array(&arr, o, "new_warnings", file, at);
	a->has_new_warnings = ret > 0;
	if (ret <= 0)
		goto out;
	a->new_warnings = sk_xcalloc(json_array_size(arr) + 1,
				     sizeof(*a->new_warnings));
	json_array_foreach(arr, i, v) {
		a->nr_new_warnings++;
		p = sk_json_path(here, NULL, i);
		ret = read_warning(&a->new_warnings[i], v, file, p);
		free(p);
		if (ret < 0)
			goto out;
	}
	ret = 0;
out:
	free(here);
	return ret;
}

static int read_arch(struct sk_build_results_arch *a, json_t *o,
		     const char *file, const char *at)
{
	if (!json_is_object(o))
		return sk_json_type_error(file, at, "an object", o);
	SK_JSON_READ(sk_json_read_string(&a->arch, o, "arch", file, at));
	SK_JSON_READ(sk_json_read_string(&a->cc, o, "cc", file, at));
	SK_JSON_READ(sk_json_read_string(&a->toolchain, o, "toolchain", file, at));
	SK_JSON_READ(read_variant(&a->baseline, o, "baseline", file, at));
	SK_JSON_READ(read_variant(&a->patched, o, "patched", file, at));
	SK_JSON_READ(read_warnings(a, o, file, at));
	SK_JSON_READ(sk_json_read_bool(&a->gate_failed, o, "gate_failed", file, at));
	SK_JSON_READ(sk_json_read_string(&a->gate_why, o, "gate_why", file, at));
	return 0;
}

static int read_arches(struct sk_build_results *r, json_t *o, const char *file)
{
	json_t *arr = NULL, *v;
	size_t i;
	char *p;
	int ret;

	SK_JSON_READ(sk_json_read_array(&arr, o, "arches", file, ""));
	if (!arr)
		return 0;
	r->arches = sk_xcalloc(json_array_size(arr) + 1, sizeof(*r->arches));
	json_array_foreach(arr, i, v) {
		r->nr_arches++;
		p = sk_json_path("arches", NULL, i);
		ret = read_arch(&r->arches[i], v, file, p);
		free(p);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int read_queue(struct sk_build_results *r, json_t *o, const char *file)
{
	json_t *q = NULL;

	SK_JSON_READ(sk_json_read_object(&q, o, "queue", file, ""));
	if (!q)
		return 0;
	SK_JSON_READ(sk_json_read_strings(&r->patches, &r->nr_patches, q, "patches",
				  file, "queue"));
	SK_JSON_READ(sk_json_read_strings(&r->files, &r->nr_files, q, "files", file,
				  "queue"));
	SK_JSON_READ(sk_json_read_string(&r->queue_status, q, "status", file, "queue"));
	SK_JSON_READ(sk_json_read_string(&r->queue_log, q, "log", file, "queue"));
	return 0;
}

static int read_top(struct sk_build_results *r, json_t *o, const char *file)
{
	if (!json_is_object(o))
		return sk_error_set(SK_EINVALID, "%s: expected an object, not %s",
				    file, json_is_array(o) ? "an array" :
				    "a scalar");
	SK_JSON_READ(sk_json_read_string(&r->branch, o, "branch", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->mode, o, "mode", file, ""));
	SK_JSON_READ(sk_json_read_bool(&r->buildable, o, "buildable", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->why, o, "why", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->not_run, o, "not_run", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->tip, o, "tip", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->describe, o, "describe", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->worktree, o, "worktree", file, ""));
	SK_JSON_READ(sk_json_read_bool(&r->worktree_reused, o, "worktree_reused", file, ""));
	SK_JSON_READ(sk_json_read_real(&r->checkout_s, o, "checkout_s", file, ""));
	SK_JSON_READ(read_queue(r, o, file));
	SK_JSON_READ(sk_json_read_string(&r->kconfig, o, "kconfig", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->kconfig_from, o, "kconfig_from", file, ""));
	SK_JSON_READ(sk_json_read_strings(&r->fragments, &r->nr_fragments, o,
				  "fragments", file, ""));
	SK_JSON_READ(sk_json_read_int(&r->parallel, o, "parallel", file, ""));
	SK_JSON_READ(sk_json_read_int(&r->jobs_per_make, o, "jobs_per_make", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->distcc_hosts, o, "distcc_hosts", file, ""));
	SK_JSON_READ(sk_json_read_real(&r->duration, o, "duration", file, ""));
	SK_JSON_READ(read_arches(r, o, file));
	SK_JSON_READ(sk_json_read_string(&r->gate, o, "gate", file, ""));
	SK_JSON_READ(sk_json_read_string(&r->results, o, "results", file, ""));
	return 0;
}

int sk_build_results_from_json(struct sk_build_results *out, json_t *o,
			       const char *file)
{
	int ret;

	memset(out, 0, sizeof(*out));
	ret = read_top(out, o, file);
	if (ret < 0)
		sk_build_results_release(out);
	return ret;
}

int sk_build_results_read(struct sk_build_results *out, const char *path)
{
	json_t *o;
	int ret = sk_results_read_json(&o, path);

	memset(out, 0, sizeof(*out));
	if (ret)
		return ret;
	ret = sk_build_results_from_json(out, o, path);
	if (ret < 0)
		sk_error_prefix(ret, "unreadable");
	json_decref(o);
	return ret;
}

struct sk_build_results_arch *sk_build_results_arch(
	const struct sk_build_results *r, const char *arch)
{
	size_t i;

	for (i = 0; i < r->nr_arches; i++)
		if (r->arches[i].arch && !strcmp(r->arches[i].arch, arch))
			return &r->arches[i];
	return NULL;
}

const char *sk_build_results_image(const struct sk_build_results *r,
				   const char *arch, const char *variant)
{
	const struct sk_build_results_arch *a = r ? sk_build_results_arch(r, arch) : NULL;

	if (!a)
		return NULL;
	if (!strcmp(variant, "baseline"))
		return a->baseline.image;
	if (!strcmp(variant, "patched"))
		return a->patched.image;
	return NULL;
}

/* --- moving the paths of a staging directory --- */

static void move(char **s, const char *from, const char *to)
{
	size_t n = strlen(from);
	char *p;

	if (!*s || strncmp(*s, from, n) || ((*s)[n] && (*s)[n] != '/'))
		return;
	p = sk_xstrfmt("%s%s", to, *s + n);
	free(*s);
	*s = p;
}

static void move_all(char **v, size_t nr, const char *from, const char *to)
{
	size_t i;

	for (i = 0; i < nr; i++)
		move(&v[i], from, to);
}

static void move_variant(struct sk_build_results_variant *v, const char *from,
			 const char *to)
{
	move(&v->status, from, to);
	move(&v->note, from, to);
	move(&v->results, from, to);
	move(&v->image, from, to);
}

static void move_arch(struct sk_build_results_arch *a, const char *from,
		      const char *to)
{
	size_t i;

	move(&a->arch, from, to);
	move(&a->cc, from, to);
	move(&a->toolchain, from, to);
	move_variant(&a->baseline, from, to);
	move_variant(&a->patched, from, to);
	for (i = 0; i < a->nr_new_warnings; i++) {
		struct sk_build_results_warning *w = &a->new_warnings[i];

		move(&w->text, from, to);
		move(&w->diag.file, from, to);
		move(&w->diag.function, from, to);
		move(&w->diag.severity, from, to);
		move(&w->diag.message, from, to);
	}
	move(&a->gate_why, from, to);
}

void sk_build_results_move(struct sk_build_results *r, const char *from,
			   const char *to)
{
	size_t i;

	move(&r->branch, from, to);
	move(&r->mode, from, to);
	move(&r->why, from, to);
	move(&r->not_run, from, to);
	move(&r->tip, from, to);
	move(&r->describe, from, to);
	move(&r->worktree, from, to);
	move_all(r->patches, r->nr_patches, from, to);
	move_all(r->files, r->nr_files, from, to);
	move(&r->queue_status, from, to);
	move(&r->queue_log, from, to);
	move(&r->kconfig, from, to);
	move_all(r->fragments, r->nr_fragments, from, to);
	move(&r->distcc_hosts, from, to);
	for (i = 0; i < r->nr_arches; i++)
		move_arch(&r->arches[i], from, to);
	move(&r->gate, from, to);
	move(&r->results, from, to);
}

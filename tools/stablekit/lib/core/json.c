#include "core/json.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/utf8.h"

#include <stdlib.h>
#include <string.h>

json_t *sk_json_string(const char *s)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	json_t *o;

	if (!s)
		return json_null();
	if (sk_utf8_valid(s, strlen(s)))
		return json_string(s);
	sk_utf8_scrub(&sb, s, strlen(s));
	o = json_string(sb.buf);
	sk_strbuf_release(&sb);
	return o;
}

static const char *type_name(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a real number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

char *sk_json_path(const char *at, const char *key, size_t index)
{
	if (!key)
		return sk_xstrfmt("%s[%zu]", at, index);
	return *at ? sk_xstrfmt("%s.%s", at, key) : sk_xstrdup(key);
}

int sk_json_type_error(const char *file, const char *at, const char *what,
		       json_t *v)
{
	return sk_error_set(SK_EINVALID, "%s: key '%s': expected %s, not %s",
			    file, at, what, type_name(v));
}

/* o[key]: 1 with *v when it is there and not null, 0 when it is not. */
static int get(json_t **v, json_t *o, const char *key)
{
	*v = json_object_get(o, key);
	return *v && !json_is_null(*v);
}

static int wrong(json_t *v, const char *key, const char *file,
		 const char *at, const char *what)
{
	char *path = sk_json_path(at, key, 0);
	int ret = sk_json_type_error(file, path, what, v);

	free(path);
	return ret;
}

int sk_json_read_string(char **out, json_t *o, const char *key,
			const char *file, const char *at)
{
	json_t *v;

	if (!get(&v, o, key))
		return 0;
	if (!json_is_string(v))
		return wrong(v, key, file, at, "a string");
	free(*out);
	*out = sk_xstrdup(json_string_value(v));
	return 1;
}

int sk_json_read_bool(int *out, json_t *o, const char *key,
		      const char *file, const char *at)
{
	json_t *v;

	if (!get(&v, o, key))
		return 0;
	if (!json_is_boolean(v))
		return wrong(v, key, file, at, "a boolean");
	*out = json_is_true(v);
	return 1;
}

int sk_json_read_int(long long *out, json_t *o, const char *key,
		     const char *file, const char *at)
{
	json_t *v;

	if (!get(&v, o, key))
		return 0;
	if (!json_is_integer(v))
		return wrong(v, key, file, at, "an integer");
	*out = json_integer_value(v);
	return 1;
}

int sk_json_read_real(double *out, json_t *o, const char *key,
		      const char *file, const char *at)
{
	json_t *v;

	if (!get(&v, o, key))
		return 0;
	if (!json_is_number(v))
		return wrong(v, key, file, at, "a number");
	*out = json_number_value(v);
	return 1;
}

int sk_json_read_strings(char ***out, size_t *nr, json_t *o, const char *key,
			 const char *file, const char *at)
{
	char *path;
	json_t *v, *s;
	size_t i, alloc = 0;
	int ret;

	if (!get(&v, o, key))
		return 0;
	if (!json_is_array(v))
		return wrong(v, key, file, at, "an array of strings");
	json_array_foreach(v, i, s)
		if (!json_is_string(s)) {
			char *p = sk_json_path(at, key, 0);

			path = sk_json_path(p, NULL, i);
			ret = sk_json_type_error(file, path, "a string", s);
			free(path);
			free(p);
			return ret;
		}
	for (i = 0; i < *nr; i++)
		free((*out)[i]);
	free(*out);
	*out = NULL;
	*nr = 0;
	json_array_foreach(v, i, s)
		*SK_ARRAY_PUSH(*out, *nr, alloc) = sk_xstrdup(json_string_value(s));
	return 1;
}

int sk_json_read_object(json_t **out, json_t *o, const char *key,
			const char *file, const char *at)
{
	json_t *v;

	if (!get(&v, o, key))
		return 0;
	if (!json_is_object(v))
		return wrong(v, key, file, at, "an object");
	*out = v;
	return 1;
}

int sk_json_read_array(json_t **out, json_t *o, const char *key,
		       const char *file, const char *at)
{
	json_t *v;

	if (!get(&v, o, key))
		return 0;
	if (!json_is_array(v))
		return wrong(v, key, file, at, "an array");
	*out = v;
	return 1;
}

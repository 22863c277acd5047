#ifndef SK_JSON_H
#define SK_JSON_H

#include <jansson.h>

/*
 * A JSON string of s that is never NULL: null for a NULL s, and s with
 * its invalid UTF-8 bytes replaced (core/utf8.h) where jansson would
 * refuse it.  Every writer of text that came from outside uses it.
 */
json_t *sk_json_string(const char *s);

/*
 * Typed reads of o[key] for the readers of results files, which keep
 * their schema in one place (build/build-results, gate/gate-results).
 * Each returns 1 when the key holds a value of the type, 0 when it is
 * absent or null (*out untouched), and SK_EINVALID when it holds another
 * type, with the message naming the file and the key as a path from the
 * top ("<file>: key 'arches[1].baseline.status': expected a string, not
 * an integer").  at is the path of o ("" at the top).
 */
int sk_json_read_string(char **out, json_t *o, const char *key,
			const char *file, const char *at);
int sk_json_read_bool(int *out, json_t *o, const char *key,
		      const char *file, const char *at);
int sk_json_read_int(long long *out, json_t *o, const char *key,
		     const char *file, const char *at);
int sk_json_read_real(double *out, json_t *o, const char *key,
		      const char *file, const char *at);	/* any number */
/* An array of strings, into a new vector (caller frees each and it). */
int sk_json_read_strings(char ***out, size_t *nr, json_t *o, const char *key,
			 const char *file, const char *at);
/* An object or an array, borrowed from o. */
int sk_json_read_object(json_t **out, json_t *o, const char *key,
			const char *file, const char *at);
int sk_json_read_array(json_t **out, json_t *o, const char *key,
		       const char *file, const char *at);
/*
 * Each read is 0 or 1 (there or not) unless negative: return the error
 * from the calling reader.
 */
#define SK_JSON_READ(call) \
	do { int r_ = (call); if (r_ < 0) return r_; } while (0)

/* The path of o[key] or of o[index] (key NULL) under at; caller frees. */
char *sk_json_path(const char *at, const char *key, size_t index);
/* SK_EINVALID: "<file>: key '<at>': expected <what>, not <v's type>". */
int sk_json_type_error(const char *file, const char *at, const char *what,
		       json_t *v);

#endif

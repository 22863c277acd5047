#ifndef SK_JSON_H
#define SK_JSON_H

#include <jansson.h>

/*
 * A JSON string of s that is never NULL: null for a NULL s, and s with
 * its invalid UTF-8 bytes replaced (core/utf8.h) where jansson would
 * refuse it.  Every writer of text that came from outside uses it.
 */
json_t *sk_json_string(const char *s);

#endif

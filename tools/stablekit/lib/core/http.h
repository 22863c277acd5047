#ifndef SK_HTTP_H
#define SK_HTTP_H

#include "core/strbuf.h"

/*
 * One HTTP request by libcurl, the body read into memory: enough for a
 * REST API (LAVA's).  Redirects are not followed and nothing but http and
 * https is spoken, so a URL from a config file cannot reach a file:// or
 * another scheme.
 */
struct sk_http_request {
	const char *method;		/* "GET" (default) or "POST" */
	const char *url;
	const char *const *headers;	/* "Name: value", NULL-terminated */
	const char *body;		/* POST: sent as is */
	const char *content_type;	/* of body; "application/json" */
	long timeout_s;			/* the whole request; 0: 60 */
	size_t max_bytes;		/* of the reply; 0: SK_HTTP_MAX_BYTES */
};

/* A reply larger than this is an error, not memory filled. */
#define SK_HTTP_MAX_BYTES ((size_t)64 << 20)

/*
 * 0 with *status the HTTP status and body the reply (any status);
 * SK_ETIMEOUT past the limit, SK_ERROR when no reply came or it was
 * larger than max_bytes (the message names the URL without its
 * credentials and says curl's reason).
 */
int sk_http(struct sk_strbuf *body, long *status,
	    const struct sk_http_request *req);

#endif

#include "core/http.h"
#include "core/error.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_result;

static void curl_init(void)
{
	curl_init_result = curl_global_init(CURL_GLOBAL_DEFAULT);
}

struct reply {
	struct sk_strbuf *body;
	size_t max;
	int too_big;
};

static size_t take_body(char *data, size_t size, size_t nmemb, void *arg)
{
	struct reply *r = arg;

	if (r->body->len + size * nmemb > r->max) {
		r->too_big = 1;
		return 0;	/* curl stops: CURLE_WRITE_ERROR */
	}
	sk_strbuf_add(r->body, data, size * nmemb);
	return size * nmemb;
}

/* The URL for messages: scheme://host/path, any user:password@ left out. */
static char *url_for_message(const char *url)
{
	const char *host = strstr(url, "://"), *at, *slash;

	if (!host)
		return sk_xstrdup(url);
	host += 3;
	slash = strchr(host, '/');
	at = strchr(host, '@');
	if (!at || (slash && at > slash))
		return sk_xstrdup(url);
	return sk_xstrfmt("%.*s%s", (int)(host - url), url, at + 1);
}

static struct curl_slist *make_headers(const struct sk_http_request *req)
{
	struct curl_slist *list = NULL, *next;
	const char *const *h;
	char *ct;

	for (h = req->headers; h && *h; h++) {
		next = curl_slist_append(list, *h);
		if (!next)
			goto fail;
		list = next;
	}
	if (req->body) {
		ct = sk_xstrfmt("Content-Type: %s", req->content_type ?
				req->content_type : "application/json");
		next = curl_slist_append(list, ct);
		free(ct);
		if (!next)
			goto fail;
		list = next;
	}
	return list;
fail:
	curl_slist_free_all(list);
	return NULL;
}

int sk_http(struct sk_strbuf *body, long *status,
	    const struct sk_http_request *req)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	struct curl_slist *headers = NULL;
	char *shown = url_for_message(req->url);
	struct reply reply = { body, req->max_bytes ? req->max_bytes :
			       SK_HTTP_MAX_BYTES, 0 };
	CURLcode rc;
	CURL *c = NULL;
	int err = 0;

	*status = 0;
	pthread_once(&curl_once, curl_init);
	if (curl_init_result != CURLE_OK) {
		err = sk_error_set(SK_ERROR, "%s: curl_global_init: %s", shown,
				   curl_easy_strerror(curl_init_result));
		goto out;
	}
	c = curl_easy_init();
	if (!c) {
		err = sk_error_set(SK_ERROR, "%s: curl_easy_init failed", shown);
		goto out;
	}
	headers = make_headers(req);
	curl_easy_setopt(c, CURLOPT_URL, req->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, req->timeout_s > 0 ?
			 req->timeout_s : 60L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 20L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "stablekit");
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, take_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &reply);
	if (headers)
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
	if (req->method && strcmp(req->method, "GET")) {
		if (!strcmp(req->method, "POST"))
			curl_easy_setopt(c, CURLOPT_POST, 1L);
		else
			curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, req->method);
	}
	if (req->body) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, req->body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
				 (curl_off_t)strlen(req->body));
	}
	rc = curl_easy_perform(c);
	if (rc == CURLE_OPERATION_TIMEDOUT) {
		err = sk_error_set(SK_ETIMEOUT, "%s: no reply within %ld s",
				   shown, req->timeout_s > 0 ? req->timeout_s : 60L);
	} else if (reply.too_big) {
		err = sk_error_set(SK_ERROR, "%s: the reply is larger than %zu "
				   "bytes", shown, reply.max);
	} else if (rc != CURLE_OK) {
		err = sk_error_set(SK_ERROR, "%s: %s", shown, *errbuf ? errbuf :
				   curl_easy_strerror(rc));
	} else {
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
	}
out:
	curl_slist_free_all(headers);
	curl_easy_cleanup(c);
	free(shown);
	return err;
}

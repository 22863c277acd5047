/*
 * The distcc host list of [build] distcc-hosts, checked before it reaches
 * distcc through the environment.
 */
#include "project/distcc.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* distcc's own defaults when a host has no /LIMIT. */
#define DISTCC_DEFAULT_LIMIT 4
#define DISTCC_LOCALHOST_LIMIT 2
#define DISTCC_MAX_LIMIT 1024

static int host_char(int c)
{
	return isalnum(c) || c == '.' || c == '-';
}

/* One "HOST[:PORT][/LIMIT][,lzo]"; its slots. */
static int host_parse(const char *h, size_t len, int *slots)
{
	const char *p = h, *end = h + len, *name = h;
	size_t name_len;
	long n;
	char *e;

	while (p < end && host_char((unsigned char)*p))
		p++;
	name_len = p - name;
	if (!name_len || *name == '-')
		goto bad;
	if (p < end && *p == ':') {
		n = strtol(p + 1, &e, 10);
		if (e == p + 1 || e > end || n < 1 || n > 65535)
			goto bad;
		p = e;
	}
	*slots = name_len == 9 && !strncmp(name, "localhost", 9) ?
		DISTCC_LOCALHOST_LIMIT : DISTCC_DEFAULT_LIMIT;
	if (p < end && *p == '/') {
		n = strtol(p + 1, &e, 10);
		if (e == p + 1 || e > end || n < 1 || n > DISTCC_MAX_LIMIT)
			goto bad;
		*slots = (int)n;
		p = e;
	}
	if (end - p == 4 && !strncmp(p, ",lzo", 4))
		p = end;
	if (p == end)
		return 0;
bad:
	return sk_error_set(SK_EINVALID, "distcc host '%.*s' is not HOST, "
			    "HOST:PORT or HOST/LIMIT (HOST of [A-Za-z0-9.-])",
			    len > 200 ? 200 : (int)len, h);
}

int sk_distcc_hosts_parse(const char *spec, int *slots)
{
	const char *p = spec;
	size_t hosts = 0, total = 0;
	int ret, n = 0;

	/* an environment variable, not a file: bounded before it is walked */
	if (strlen(spec) > SK_DISTCC_MAX_LEN)
		return sk_error_set(SK_EINVALID, "distcc-hosts is %zu bytes long"
				    ", more than %d", strlen(spec),
				    SK_DISTCC_MAX_LEN);
	while (*p) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, " \t");
		if (!len)
			break;
		if (++hosts > SK_DISTCC_MAX_HOSTS)
			return sk_error_set(SK_EINVALID, "distcc-hosts lists more "
					    "than %d hosts", SK_DISTCC_MAX_HOSTS);
		ret = host_parse(p, len, &n);
		if (ret)
			return ret;
		total += (size_t)n;	/* at most 1024 * 1024: an int */
		p += len;
	}
	if (!total)
		return sk_error_set(SK_EINVALID, "distcc-hosts lists no host");
	*slots = (int)total;
	return 0;
}

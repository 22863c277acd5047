#include "core/options.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sk_usage(const char *usage, const struct sk_option *o)
{
	fprintf(stderr, "usage: %s\n\n", usage);
	for (; o->type != SK_OPT_END; o++) {
		struct sk_strbuf sb = SK_STRBUF_INIT;

		if (o->short_name)
			sk_strbuf_addf(&sb, "-%c, ", o->short_name);
		sk_strbuf_addf(&sb, "--%s", o->long_name);
		if (o->argh)
			sk_strbuf_addf(&sb, " <%s>", o->argh);
		fprintf(stderr, "    %-26s %s\n", sb.buf, o->help);
		sk_strbuf_release(&sb);
	}
}

static const struct sk_option *find_long(const struct sk_option *o,
					 const char *name, size_t len)
{
	for (; o->type != SK_OPT_END; o++)
		if (strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			return o;
	return NULL;
}

static const struct sk_option *find_short(const struct sk_option *o, int c)
{
	for (; o->type != SK_OPT_END; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

static int set_value(const struct sk_option *o, const char *arg)
{
	char *end;
	long v;

	switch (o->type) {
	case SK_OPT_BOOL:
		*(int *)o->value = 1;
		return 0;
	case SK_OPT_STRING:
		*(const char **)o->value = arg;
		return 0;
	case SK_OPT_INT:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (errno == ERANGE || (!errno && !*end && end != arg &&
					(v < o->min || v > o->max))) {
			fprintf(stderr, "error: option '--%s' expects a whole number "
				"from %ld to %ld, not '%s'\n", o->long_name,
				o->min, o->max, arg);
			return -1;
		}
		if (errno || *end || end == arg || isspace((unsigned char)*arg)) {
			fprintf(stderr, "error: option '--%s' expects a number, not '%s'\n",
				o->long_name, arg);
			return -1;
		}
		*(int *)o->value = (int)v;
		return 0;
	case SK_OPT_LIST: {
		struct sk_strvec *l = o->value;

		*SK_ARRAY_PUSH(l->items, l->nr, l->alloc) = arg;
		return 0;
	}
	default:
		return -1;
	}
}

int sk_parse_options(int argc, const char **argv, const struct sk_option *opts,
		     const char *usage)
{
	int i, nr = 0, only_args = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		const struct sk_option *o;

		if (only_args || a[0] != '-' || !a[1]) {
			argv[nr++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_args = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			sk_usage(usage, opts);
			return -2;
		}
		if (a[1] == '-') {
			const char *eq = strchr(a + 2, '=');

			o = find_long(opts, a + 2, eq ? (size_t)(eq - a - 2) :
				      strlen(a + 2));
			val = eq ? eq + 1 : NULL;
		} else {
			o = find_short(opts, a[1]);
			val = a[2] ? a + 2 : NULL;
		}
		if (!o) {
			fprintf(stderr, "error: unknown option '%s'\n", a);
			sk_usage(usage, opts);
			return -1;
		}
		if (o->type != SK_OPT_BOOL && !val) {
			if (i + 1 >= argc) {
				fprintf(stderr, "error: option '%s' requires a value\n", a);
				return -1;
			}
			val = argv[++i];
		} else if (o->type == SK_OPT_BOOL && val) {
			fprintf(stderr, "error: option '%s' takes no value\n", a);
			return -1;
		}
		if (set_value(o, val))
			return -1;
	}
	return nr;
}


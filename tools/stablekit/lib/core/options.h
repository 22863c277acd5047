#ifndef SK_OPTIONS_H
#define SK_OPTIONS_H

#include "core/strvec.h"

#include <jansson.h>

#include <limits.h>
#include <stddef.h>

/* A small parse-options in git's manner: a table, then the arguments left. */
enum sk_option_type {
	SK_OPT_END = 0,
	SK_OPT_BOOL,		/* int *: set to 1 */
	SK_OPT_STRING,		/* const char **: the argument */
	SK_OPT_INT,		/* int *: a whole number in [min, max] */
	SK_OPT_LIST,		/* struct sk_strvec *: repeatable */
};


struct sk_option {
	enum sk_option_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* "FILE" in the usage text */
	const char *help;
	long min, max;		/* SK_OPT_INT: the values allowed */
};

/*
 * A value out of range (or past what an int holds) is a usage error, found
 * before the command does anything: never truncated, never wrapped.
 */
#define SK_OPT_BOOL_(s, l, v, h) { SK_OPT_BOOL, (s), (l), (v), NULL, (h), 0, 0 }
#define SK_OPT_STRING_(s, l, v, a, h) { SK_OPT_STRING, (s), (l), (v), (a), (h), 0, 0 }
#define SK_OPT_INT_(s, l, v, a, h) \
	{ SK_OPT_INT, (s), (l), (v), (a), (h), INT_MIN, INT_MAX }
#define SK_OPT_RANGE_(s, l, v, a, lo, hi, h) \
	{ SK_OPT_INT, (s), (l), (v), (a), (h), (lo), (hi) }
#define SK_OPT_LIST_(s, l, v, a, h) { SK_OPT_LIST, (s), (l), (v), (a), (h), 0, 0 }
#define SK_OPT_END_() { SK_OPT_END, 0, NULL, NULL, NULL, NULL, 0, 0 }

/* A limit in seconds that becomes milliseconds in an unsigned int. */
#define SK_OPT_SECONDS_MAX 4294967L

/*
 * Parse argv[1..] (argv[0] is the command name) against opts.  Non-option
 * arguments are moved to the front of argv; returns their count, or -1 after
 * printing the error and usage to stderr.  "-h"/"--help" print usage and
 * return -2.
 */
int sk_parse_options(int argc, const char **argv, const struct sk_option *opts,
		     const char *usage);
void sk_usage(const char *usage, const struct sk_option *opts);

#endif

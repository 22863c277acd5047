#ifndef SK_ERROR_H
#define SK_ERROR_H

/*
 * Library functions return 0 or a negative code and keep a message for the
 * caller (libgit2's git_error_set/git_error_last).  Only commands print.
 */
enum sk_error_code {
	SK_OK = 0,
	SK_ERROR = -1,		/* anything else */
	SK_ENOTFOUND = -3,	/* a named thing does not exist */
	SK_EINVALID = -4,	/* malformed input: the message names file:line */
	SK_ETIMEOUT = -5,	/* an external tool ran past its limit */
	SK_ETOOL = -6,		/* an external tool is missing or failed */
	SK_ECONFLICT = -13,	/* a patch does not apply */
	SK_EEXISTS = -14,	/* already there, nothing done */
};

int sk_error_set(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Wraps libgit2's last error: "what: libgit2 message". */
int sk_error_git(int code, const char *what);
/* Wraps errno: "what: strerror(errno)". */
int sk_error_errno(const char *what);
/* Prefix the current message with more context ("ctx: old message"). */
int sk_error_prefix(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *sk_error_last(void);
void sk_error_clear(void);

#endif

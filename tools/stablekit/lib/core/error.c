#include "core/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <git2.h>

/* Per thread, as libgit2 keeps its last error. */
static _Thread_local char last_error[4096];

/*
 * Messages name data from mails and diffs: a CR or an escape sequence in a
 * path must reach the terminal as text ("\r", "\x1b"), never raw.
 */
static void escape_controls(char *msg, size_t size)
{
	char tmp[sizeof(last_error)];
	size_t i, j = 0;

	for (i = 0; msg[i] && j + 5 < sizeof(tmp); i++) {
		unsigned char c = (unsigned char)msg[i];

		if (c == '\r')
			j += (size_t)snprintf(tmp + j, sizeof(tmp) - j, "\\r");
		else if ((c < ' ' && c != '\n' && c != '\t') || c == 0x7f)
			j += (size_t)snprintf(tmp + j, sizeof(tmp) - j, "\\x%02x", c);
		else
			tmp[j++] = (char)c;
	}
	tmp[j] = '\0';
	snprintf(msg, size, "%s", tmp);
}

int sk_error_set(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	escape_controls(last_error, sizeof(last_error));
	return code;
}

int sk_error_git(int code, const char *what)
{
	const git_error *e = git_error_last();

	return sk_error_set(code, "%s: %s", what,
			    e && e->message ? e->message : "libgit2 error");
}

int sk_error_errno(const char *what)
{
	return sk_error_set(SK_ERROR, "%s: %s", what, strerror(errno));
}

int sk_error_prefix(int code, const char *fmt, ...)
{
	char old[sizeof(last_error)];
	char ctx[1024];
	va_list ap;

	memcpy(old, last_error, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(ctx, sizeof(ctx), fmt, ap);
	va_end(ap);
	snprintf(last_error, sizeof(last_error), "%s: %s", ctx, old);
	return code;
}

const char *sk_error_last(void)
{
	return last_error[0] ? last_error : "unknown error";
}

void sk_error_clear(void)
{
	last_error[0] = '\0';
}

#include "core/shquote.h"

#include <string.h>

/* Characters no POSIX shell (nor bash's history expansion) treats specially. */
static int is_plain(const char *s)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789@%+=:,./_-";

	return *s && strspn(s, safe) == strlen(s);
}

/*
 * Single quotes keep everything literal except the single quote itself,
 * which is closed, escaped and reopened.  bash's history expansion does not
 * act inside single quotes, so '!' is safe there too.
 */
void sk_shell_quote(struct sk_strbuf *out, const char *arg)
{
	const char *s;

	if (is_plain(arg)) {
		sk_strbuf_adds(out, arg);
		return;
	}
	sk_strbuf_addch(out, '\'');
	for (s = arg; *s; s++) {
		if (*s == '\'')
			sk_strbuf_adds(out, "'\\''");
		else
			sk_strbuf_addch(out, *s);
	}
	sk_strbuf_addch(out, '\'');
}

void sk_shell_argv(struct sk_strbuf *out, const char *const *argv, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (i)
			sk_strbuf_addch(out, ' ');
		sk_shell_quote(out, argv[i]);
	}
}

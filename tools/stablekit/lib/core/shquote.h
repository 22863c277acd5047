#ifndef SK_SHQUOTE_H
#define SK_SHQUOTE_H

#include <stddef.h>
#include "core/strbuf.h"

/*
 * Every command line we suggest to a human (FAILED mails, build
 * reproducers) is built from argv here, so that pasting it runs exactly
 * that argv whatever the values hold (quotes, backticks, $, !, newlines).
 */
void sk_shell_quote(struct sk_strbuf *out, const char *arg);
/* Append argv[0..nr) quoted and separated by single spaces. */
void sk_shell_argv(struct sk_strbuf *out, const char *const *argv, size_t nr);

#endif

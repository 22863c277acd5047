#ifndef SK_UTF8_H
#define SK_UTF8_H

#include <stddef.h>
#include "core/strbuf.h"

/*
 * Text from a console, a compiler or a commit is bytes; JSON (jansson)
 * takes only valid UTF-8 and answers anything else with NULL, which a
 * writer that does not check turns into a silently missing result.  So
 * such text is made valid where it enters: each byte that does not start
 * a well-formed sequence (overlong forms, surrogates and code points past
 * U+10FFFF included, as jansson checks) becomes U+FFFD.
 */

/* Is s[0..len) valid UTF-8 by jansson's rules? */
int sk_utf8_valid(const char *s, size_t len);
/* Append s[0..len) to out, invalid bytes replaced; returns how many. */
size_t sk_utf8_scrub(struct sk_strbuf *out, const char *s, size_t len);
/* The longest n <= len at which s can be cut without splitting a sequence. */
size_t sk_utf8_cut(const char *s, size_t len);

/*
 * The one-line rule, for every value that becomes a mail header or a line
 * of a report: no control character but tab, no DEL and no Unicode line
 * break (NEL, LS, PS), since b4 and Python break lines at all of them.
 * sk_utf8_line_break: the offset of the first byte that breaks the rule
 * in s[0..len), or len.  sk_utf8_one_line: each such byte becomes a space,
 * in place.  sk_utf8_add_one_line: append s so made one line.
 */
size_t sk_utf8_line_break(const char *s, size_t len);
/*
 * Append s for a terminal: every control character (ESC of an escape
 * sequence included) but tab and newline, DEL and the C1 controls
 * U+0080..U+009F (CSI U+009B) written as a visible \xNN or \u00NN.
 * Text from a guest's console never drives the user's terminal.
 */
void sk_utf8_add_printable(struct sk_strbuf *out, const char *s);
void sk_utf8_one_line(char *s, size_t len);
void sk_utf8_add_one_line(struct sk_strbuf *out, const char *s);

#endif

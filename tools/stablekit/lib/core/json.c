#include "core/json.h"
#include "core/strbuf.h"
#include "core/utf8.h"

#include <string.h>

json_t *sk_json_string(const char *s)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	json_t *o;

	if (!s)
		return json_null();
	if (sk_utf8_valid(s, strlen(s)))
		return json_string(s);
	sk_utf8_scrub(&sb, s, strlen(s));
	o = json_string(sb.buf);
	sk_strbuf_release(&sb);
	return o;
}

#include "core/names.h"

#include <string.h>
#include "core/error.h"

#define SK_NAME_MAX 200

static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "0123456789._+-";

static int bad(const char *kind, const char *name, const char *why)
{
	return sk_error_set(SK_EINVALID, "%s name '%.*s' %s", kind,
			    SK_NAME_MAX, name, why);
}

int sk_name_check(const char *kind, const char *name)
{
	size_t len, ok;

	if (!name || !*name)
		return sk_error_set(SK_EINVALID, "%s name is empty", kind);
	len = strlen(name);
	if (len > SK_NAME_MAX)
		return bad(kind, name, "is longer than 200 characters");
	ok = strspn(name, name_chars);
	if (ok != len)
		return sk_error_set(SK_EINVALID,
				    "%s name '%.*s' has a character other than "
				    "letters, digits and ._+- at byte %zu",
				    kind, SK_NAME_MAX, name, ok + 1);
	if (name[0] == '.')
		return bad(kind, name, "starts with '.' (hidden, or a "
			   "relative path)");
	if (name[0] == '-')
		return bad(kind, name, "starts with '-' (read as an option)");
	if (len >= 5 && !strcmp(name + len - 5, ".lock"))
		return bad(kind, name, "ends with '.lock'");
	return 0;
}

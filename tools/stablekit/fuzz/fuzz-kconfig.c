/*
 * The Kconfig reader of the compile check (a tree's Kconfig files).
 * Invariants: every dependency it records is a symbol name (capitals,
 * digits, underscores, a capital among them), and a symbol it defines is
 * found again by name, unless its line may continue the one before
 * (a backslash there joins them, as in the kernel's own lexer).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "port/kconfig.h"

static void check_symbol(const char *s)
{
	int upper = 0;

	if (!*s)
		abort();
	for (; *s; s++) {
		if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    *s != '_')
			abort();
		upper |= isupper((unsigned char)*s);
	}
	if (!upper)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sk_kconfig *k = sk_kconfig_new();
	const char *p = (const char *)data, *end = p + size;
	int continued = 0;

	sk_kconfig_parse(k, p, size);
	/* every "config NAME" the input has, looked up */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		int ends_in_backslash = e > p && e[-1] == '\\';

		if (!continued && e - p > 7 && !memcmp(p, "config ", 7)) {
			char name[64];
			size_t n = 0, i, nr;
			char *const *d;

			for (p += 7; p < e && n < sizeof(name) - 1 &&
			     (isalnum((unsigned char)*p) || *p == '_'); p++)
				name[n++] = *p;
			name[n] = '\0';
			if (n && (p == e || !(isalnum((unsigned char)*p) || *p == '_')) &&
			    !sk_kconfig_defines(k, name))
				abort();
			d = sk_kconfig_depends(k, name, &nr);
			for (i = 0; i < nr; i++)
				check_symbol(d[i]);
		}
		continued = ends_in_backslash;
		p = nl ? nl + 1 : end;
	}
	sk_kconfig_free(k);
	return 0;
}

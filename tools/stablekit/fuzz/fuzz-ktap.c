/*
 * The KTAP/TAP reader over a guest's console.  Invariants: every test has
 * a name no longer than SK_KTAP_NAME_MAX, a depth within SK_KTAP_MAX_DEPTH
 * and a parent that comes after it; at most SK_KTAP_MAX_ERRORS messages.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gate/ktap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sk_ktap k;
	unsigned int counts[SK_KTAP_NR_STATUS];
	size_t i;

	sk_ktap_parse(&k, (const char *)data, size);
	for (i = 0; i < k.nr; i++) {
		const struct sk_ktap_test *t = &k.tests[i];

		if (strlen(t->name) > SK_KTAP_NAME_MAX ||
		    t->depth > SK_KTAP_MAX_DEPTH ||
		    (t->parent >= 0 && ((size_t)t->parent <= i ||
					     (size_t)t->parent >= k.nr)))
			abort();
	}
	if (k.nr && sk_ktap_find(&k, k.tests[0].name) != &k.tests[0])
		abort();
	sk_ktap_count(&k, counts);
	sk_ktap_release(&k);
	return 0;
}

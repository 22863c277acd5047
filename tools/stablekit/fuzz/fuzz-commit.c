/*
 * The commit message readers: trailers, Fixes:, Cc: stable, upstream
 * references ("commit X upstream.", "(cherry picked from commit X)"),
 * summary and subject normalisation, and raw commit objects (the index's
 * reader: a 20-digit date saturates).  Invariants: the
 * trailer block starts inside the message and every key is ASCII
 * letters, digits and '-'; upstream references are 12 to 40 lowercase hex
 * digits.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "track/commitfacts.h"
#include "mail/series.h"
#include "core/strbuf.h"
#include "mail/trailers.h"

static void trailers(const char *msg, size_t len)
{
	struct sk_trailer *t = NULL;
	size_t nr = 0, alloc = 0, i;
	size_t cut = sk_trailers_parse(&t, &nr, &alloc, msg);

	if (cut > len)
		abort();
	for (i = 0; i < nr; i++) {
		struct sk_fixes f;
		struct sk_cc_stable c;

		if (!*t[i].key || strspn(t[i].key, "abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") != strlen(t[i].key))
			abort();
		if (!sk_fixes_parse(&f, t[i].value) && strlen(f.sha) < 8)
			abort();
		sk_fixes_release(&f);
		sk_cc_is_stable(&c, t[i].value);
		sk_cc_stable_release(&c);
	}
	sk_trailers_free(t, nr);
}

static void facts(const char *msg)
{
	struct sk_commit_facts f;
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;
	char *mail;

	memset(&f, 0, sizeof(f));
	if (!sk_commit_facts_parse(&f, msg))
		for (i = 0; i < f.nr_uprefs; i++)
			if (strlen(f.uprefs[i].sha) < 12 ||
			    strspn(f.uprefs[i].sha, "0123456789abcdef") !=
			    strlen(f.uprefs[i].sha))
				abort();
	sk_commit_facts_release(&f);
	sk_commit_summary(&sb, msg);
	sk_strbuf_reset(&sb);
	sk_subject_norm(&sb, msg);
	sk_strbuf_release(&sb);
	mail = sk_author_email(msg);
	free(mail);
}

/* A raw commit object as the index walk reads it: time saturates, never wraps. */
static void raw(const char *data, size_t len)
{
	struct sk_commit_raw r;

	if (sk_commit_raw_parse(&r, data, len))
		return;
	if (r.message + r.message_len > data + len || r.nr_parents > len)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *msg = malloc(size + 1);

	memcpy(msg, data, size);
	msg[size] = '\0';
	trailers(msg, size);
	facts(msg);
	raw(msg, size);
	free(msg);
	return 0;
}

/*
 * The mbox/MIME reader and the patch mail parser, as pull uses them: every
 * mail of the thread is parsed as a patch or a reply's fixlet, and the
 * thread is written for b4 and read back.  Invariants: no header value
 * holds CR, LF or NUL (the header rule), and what we write for b4 reads
 * back as the same mails with the same Message-Ids.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>

#include "core/error.h"
#include "mail/mbox.h"
#include "mail/patch.h"
#include "core/strbuf.h"

static void check_headers(const struct sk_mbox *mb)
{
	size_t i, j;

	for (i = 0; i < mb->nr; i++)
		for (j = 0; j < mb->mails[i].nr_headers; j++)
			if (strpbrk(mb->mails[i].headers[j].value, "\r\n"))
				abort();
}

static void parse_as_pull(const struct sk_mail *m)
{
	struct sk_subject s;
	struct sk_patch p;

	sk_subject_parse(&s, m->subject);
	if ((s.flags & SK_SUBJ_PATCH) && !(s.flags & SK_SUBJ_REPLY))
		sk_patch_parse(&p, m);
	else
		sk_patch_parse_followup(&p, m);
	sk_patch_release(&p);
	sk_subject_release(&s);
}

/* The thread as pull writes it for b4 reads back mail for mail. */
static void check_round_trip(const struct sk_mbox *mb)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	struct sk_mbox back = SK_MBOX_INIT;
	size_t i;

	for (i = 0; i < mb->nr; i++)
		sk_mbox_format_mail(&sb, &mb->mails[i]);
	if (sk_mbox_parse_buf(&back, "thread.mbx", sb.buf, sb.len))
		goto out;
	check_headers(&back);
	if (back.nr != mb->nr)
		abort();
	for (i = 0; i < mb->nr; i++) {
		char *a = sk_msgid_strip(mb->mails[i].message_id);
		char *b = sk_msgid_strip(back.mails[i].message_id);

		if (strcmp(a, b))
			abort();
		free(a);
		free(b);
	}
out:
	sk_mbox_release(&back);
	sk_strbuf_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sk_mbox mb = SK_MBOX_INIT;
	char *buf = malloc(size ? size : 1);
	static int init;
	size_t i;

	if (!init++)
		git_libgit2_init();
	memcpy(buf, data, size);
	if (!sk_mbox_parse_buf(&mb, "fuzz.mbox", buf, size)) {
		check_headers(&mb);
		for (i = 0; i < mb.nr; i++)
			parse_as_pull(&mb.mails[i]);
		check_round_trip(&mb);
	}
	sk_mbox_release(&mb);
	free(buf);
	return 0;
}

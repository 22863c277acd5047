/*
 * pull --update's reading of search results: an mbox a public-inbox server
 * answered, every mail asked whether it is a new revision of a stored series
 * (lib/mail/pull-update.h), and the series' search built from the mail's fields.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "mail/mbox.h"
#include "mail/pull-update.h"
#include "mail/series.h"
#include "core/strbuf.h"

static struct sk_series *stored(void)
{
	struct sk_series *s = sk_xcalloc(1, sizeof(*s));

	s->slug = sk_xstrdup("vmstat");
	s->subject = sk_xstrdup("mm/vmscan: reduce lru_lock contention");
	s->author = sk_xstrdup("Usama Arif <usama.arif@linux.dev>");
	s->change_id = sk_xstrdup("20260701-vmstat-cost");
	s->nr_revs = 1;
	s->revs = sk_xcalloc(1, sizeof(*s->revs));
	s->revs[0].version = 2;
	s->revs[0].message_id = sk_xstrdup("v2-0@linux.dev");
	s->revs[0].date = sk_xstrdup("Mon, 13 Jul 2026 09:34:31 -0700");
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sk_mbox mb = SK_MBOX_INIT;
	struct sk_series *s = stored();
	size_t i;

	if (!sk_mbox_parse_buf(&mb, "fuzz", (const char *)data, size)) {
		for (i = 0; i < mb.nr; i++) {
			const struct sk_mail *m = &mb.mails[i];
			char *q;

			sk_pull_update_is_revision(s, &mb, i);
			/* the search of a series whose fields came off the list */
			free(s->subject);
			free(s->author);
			free(s->revs[0].date);
			s->subject = sk_xstrdup(m->subject);
			s->author = sk_xstrdup(m->from);
			s->revs[0].date = sk_xstrdup(m->date);
			q = sk_pull_update_query(s);
			free(q);
		}
	}
	sk_error_clear();
	sk_mbox_release(&mb);
	sk_series_free(s);
	return 0;
}

/*
 * The report writers (report/reporttext, report/reporthtml) over any JSON
 * as a branch report and as a summary.  Invariants: each gives a string;
 * the mail's header block is To:, Cc: and Subject: lines only, whatever
 * the values hold; the HTML has no <script of its own making, however
 * the fields are spelled.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "report/report.h"

static void check_headers(const char *text)
{
	const char *p = text;

	while (*p && *p != '\n') {
		const char *eol = strchr(p, '\n');

		if (strncmp(p, "To: ", 4) && strncmp(p, "Cc: ", 4) &&
		    strncmp(p, "Subject: ", 9))
			abort();
		if (!eol)
			break;
		p = eol + 1;
	}
}

static void check_html(const char *html)
{
	const char *p;

	for (p = strchr(html, '<'); p; p = strchr(p + 1, '<'))
		if (!strncasecmp(p + 1, "script", 6))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *o = json_loadb((const char *)data, size, 0, NULL);
	char *s;

	if (!o)
		return 0;
	if (!(s = sk_report_text(o)))
		abort();
	check_headers(s);
	free(s);
	if (!(s = sk_report_html(o)))
		abort();
	check_html(s);
	free(s);
	if (!(s = sk_report_summary_text(o)))
		abort();
	free(s);
	if (!(s = sk_report_summary_html(o)))
		abort();
	check_html(s);
	free(s);
	sk_error_clear();
	json_decref(o);
	return 0;
}

#include "mail/interdiff.h"
#include "core/diff.h"
#include "core/error.h"

#include <git2.h>
#include <string.h>

/* A file's header lines but its "index" line. */
static void add_header(struct sk_strbuf *out, const char *p, const char *end)
{
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);

		if (strncmp(p, "index ", 6))
			sk_strbuf_add(out, p, len);
		p += len;
	}
}

static void add_hunk(struct sk_strbuf *out, const struct sk_diff_hunk *h)
{
	size_t i;

	sk_strbuf_adds(out, "@@");
	if (h->funcname)
		sk_strbuf_addf(out, " %s", h->funcname);
	sk_strbuf_addch(out, '\n');
	for (i = 0; i < h->nr_lines; i++) {
		sk_strbuf_addch(out, h->lines[i].origin);
		sk_strbuf_add(out, h->lines[i].text, h->lines[i].len);
		sk_strbuf_addch(out, '\n');
		if (h->lines[i].no_newline)
			sk_strbuf_adds(out, "\\ No newline at end of file\n");
	}
}

void sk_interdiff_normalise(struct sk_strbuf *out, const char *diff)
{
	struct sk_diff d;
	size_t i, k;

	/* the diffs were checked when pulled; anything else is shown as is */
	if (sk_diff_parse(&d, diff, strlen(diff), "the diff", 1, 0)) {
		sk_strbuf_adds(out, diff);
		return;
	}
	for (i = 0; i < d.nr; i++) {
		const struct sk_diff_file *f = &d.files[i];
		size_t hdr_end = f->nr_hunks ? f->hunks[0].begin : f->end;

		add_header(out, diff + f->begin, diff + hdr_end);
		for (k = 0; k < f->nr_hunks; k++)
			add_hunk(out, &f->hunks[k]);
	}
	sk_diff_release(&d);
}

static int add_line(const git_diff_delta *d, const git_diff_hunk *h,
		    const git_diff_line *l, void *payload)
{
	struct sk_strbuf *out = payload;

	(void)d;
	(void)h;
	if (l->origin == GIT_DIFF_LINE_CONTEXT || l->origin == GIT_DIFF_LINE_ADDITION ||
	    l->origin == GIT_DIFF_LINE_DELETION)
		sk_strbuf_addch(out, l->origin);
	sk_strbuf_add(out, l->content, l->content_len);
	return 0;
}

int sk_interdiff_text(struct sk_strbuf *out, const char *old_text,
		      const char *new_text, const char *old_label,
		      const char *new_label)
{
	git_diff_options opts;
	git_patch *patch = NULL;
	int ret = 0;

	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.context_lines = 3;
	if (git_patch_from_buffers(&patch, old_text, strlen(old_text), old_label,
				   new_text, strlen(new_text), new_label, &opts))
		return sk_error_git(SK_ERROR, "interdiff");
	if (git_patch_num_hunks(patch) &&
	    git_patch_print(patch, add_line, out))
		ret = sk_error_git(SK_ERROR, "interdiff");
	git_patch_free(patch);
	return ret;
}

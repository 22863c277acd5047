#include "interdiff.h"
#include "error.h"

#include <git2.h>
#include <string.h>

void sk_diff_normalise(struct sk_strbuf *out, const char *diff)
{
	const char *p = diff;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);

		if (!strncmp(p, "index ", 6)) {
			;
		} else if (!strncmp(p, "@@ ", 3)) {
			const char *close = strstr(p + 3, "@@");

			if (close && (!nl || close < nl)) {
				sk_strbuf_adds(out, "@@");
				sk_strbuf_add(out, close + 2, (size_t)(p + len - close - 2));
			} else {
				sk_strbuf_add(out, p, len);
			}
		} else {
			sk_strbuf_add(out, p, len);
		}
		p += len;
	}
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

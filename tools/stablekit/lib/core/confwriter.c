#include "core/confwriter.h"
#include "core/fsutil.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void add_escaped(struct sk_strbuf *sb, const char *v, int in_subsection)
{
	size_t len = strlen(v);
	int quote = !in_subsection &&
		    (strpbrk(v, "#;\r\v\f") ||
		     (len && (isspace((unsigned char)v[0]) ||
			      isspace((unsigned char)v[len - 1]))));

	if (quote || in_subsection)
		sk_strbuf_addch(sb, '"');
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			sk_strbuf_addch(sb, '\\');
		if (*v == '\t' && !in_subsection) {
			sk_strbuf_adds(sb, "\\t");
			continue;
		}
		if (*v == '\n') {
			sk_strbuf_adds(sb, "\\n");
			continue;
		}
		sk_strbuf_addch(sb, *v);
	}
	if (quote || in_subsection)
		sk_strbuf_addch(sb, '"');
}

void sk_confwriter_add(struct sk_confwriter *w, const char *section,
		       const char *subsection, const char *key,
		       const char *value)
{
	struct sk_strbuf head = SK_STRBUF_INIT;

	if (!value)
		return;
	sk_strbuf_addf(&head, "[%s", section);
	if (subsection) {
		sk_strbuf_addch(&head, ' ');
		add_escaped(&head, subsection, 1);
	}
	sk_strbuf_addch(&head, ']');
	if (!w->section || strcmp(w->section, head.buf)) {
		sk_strbuf_addf(&w->text, "%s\n", head.buf);
		free(w->section);
		w->section = sk_strbuf_detach(&head);
	}
	sk_strbuf_release(&head);
	sk_strbuf_addf(&w->text, "\t%s = ", key);
	add_escaped(&w->text, value, 0);
	sk_strbuf_addch(&w->text, '\n');
}

int sk_confwriter_write(struct sk_confwriter *w, const char *path)
{
	return sk_write_file_atomic(path, w->text.buf, w->text.len);
}

void sk_confwriter_release(struct sk_confwriter *w)
{
	sk_strbuf_release(&w->text);
	free(w->section);
	w->section = NULL;
}

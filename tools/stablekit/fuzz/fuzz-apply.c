/*
 * libFuzzer harness: a fuzzed diff applied to a fixed small file through
 * the offset/fuzz layer (sk_apply_text, fuzz 1 allowed), the way port's
 * offset stage places hunks.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "port/apply.h"
#include "core/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char file[] =
	"#include <linux/mm.h>\n"
	"\n"
	"enum lru_list {\n"
	"\tLRU_INACTIVE_ANON,\n"
	"\tLRU_ACTIVE_ANON,\n"
	"};\n"
	"\n"
	"static int shrink(struct lruvec *lruvec)\n"
	"{\n"
	"\tint nr = 0;\n"
	"\n"
	"retry:\n"
	"\tnr++;\n"
	"\tif (nr < 3)\n"
	"\t\tgoto retry;\n"
	"\treturn nr;\n"
	"}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sk_strbuf out = SK_STRBUF_INIT;
	struct sk_apply_report rep = { 0 };
	char *diff = malloc(size + 1);
	unsigned int flags;

	if (!diff)
		return 0;
	memcpy(diff, data, size);
	diff[size] = '\0';
	flags = size && (data[size - 1] & 1) ? 0 : SK_APPLY_FUZZ;
	if (!sk_apply_text(&out, &rep, "mm/vmscan.c", file, diff, flags)) {
		struct sk_strbuf how = SK_STRBUF_INIT;

		sk_apply_describe(&how, &rep);
		(void)sk_apply_max_offset(&rep);
		(void)sk_apply_max_fuzz(&rep);
		sk_strbuf_release(&how);
	}
	sk_apply_report_release(&rep);
	sk_strbuf_release(&out);
	free(diff);
	return 0;
}

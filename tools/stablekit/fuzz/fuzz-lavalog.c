/*
 * The LAVA job log decoder (gate/lava: the serial console out of a job's
 * YAML log, PyYAML's double-quoted escapes undone).  Invariants: the log
 * is LAVA's or SK_EINVALID, nothing else; the console it gives is a
 * terminated string ("\0" escapes may put NULs inside: its length
 * counts), and decoding that again as a log holds to the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "gate/lava.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sk_strbuf out = SK_STRBUF_INIT, again = SK_STRBUF_INIT;
	int ret = sk_lava_log_console(&out, (const char *)data, size);

	if (ret && ret != SK_EINVALID)
		abort();
	if (!ret) {
		if (out.buf && out.buf[out.len])
			abort();
		ret = sk_lava_log_console(&again, out.buf ? out.buf : "", out.len);
		if (ret && ret != SK_EINVALID)
			abort();
	}
	sk_error_clear();
	sk_strbuf_release(&again);
	sk_strbuf_release(&out);
	return 0;
}

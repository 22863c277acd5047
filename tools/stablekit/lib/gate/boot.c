#include "gate/boot.h"
#include "core/error.h"
#include "core/json.h"
#include "core/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_names[] = {
	[SK_BOOT_OK] = "ok",
	[SK_BOOT_SPLAT] = "splat",
	[SK_BOOT_TIMEOUT] = "timeout",
	[SK_BOOT_NO_MARKER] = "no-marker",
	[SK_BOOT_ERROR] = "error",
	[SK_BOOT_GUEST_FAIL] = "guest-fail",
};

const char *sk_boot_status_name(enum sk_boot_status s)
{
	return (size_t)s < sizeof(status_names) / sizeof(status_names[0]) &&
	       status_names[s] ? status_names[s] : "?";
}

const char *sk_boot_accel_name(enum sk_boot_accel a)
{
	return a == SK_BOOT_KVM ? "kvm" : a == SK_BOOT_TCG ? "tcg" : "auto";
}

/* Patterns at the start of a kernel line, after the "[ time] " stamp. */
static const struct {
	const char *prefix, *kind;
} splats[] = {
	{ "WARNING: possible circular locking", "lockdep" },
	{ "WARNING: possible recursive locking", "lockdep" },
	{ "WARNING: inconsistent lock state", "lockdep" },
	{ "WARNING: bad unlock balance", "lockdep" },
	{ "WARNING: suspicious RCU usage", "lockdep" },
	{ "WARNING: lock held when returning", "lockdep" },
	{ "WARNING: held lock freed", "lockdep" },
	{ "WARNING: possible irq lock inversion", "lockdep" },
	{ "WARNING:", "WARNING" },
	{ "BUG:", "BUG" },
	{ "kernel BUG at", "BUG" },
	{ "watchdog: BUG:", "BUG" },
	{ "Oops:", "oops" },
	{ "Internal error: Oops", "oops" },
	{ "general protection fault", "oops" },
	{ "Unable to handle kernel", "oops" },
	{ "UBSAN:", "UBSAN" },
	{ "Kernel panic - not syncing", "panic" },
	{ "INFO: task ", "hung task" },
	{ "INFO: rcu_", "rcu stall" },
	{ "rcu: INFO: rcu_", "rcu stall" },
};

/* "[   12.345678] ": the printk time stamp; *after is past it. */
static int is_stamp(const char *p, const char **after)
{
	if (*p++ != '[')
		return 0;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	if (*p++ != ']')
		return 0;
	if (*p == ' ')
		p++;
	*after = p;
	return 1;
}

static const char *match_at(const char *msg, const char **kind)
{
	size_t i;

	if (msg[0] == '<' && msg[1] && msg[2] == '>')
		msg += 3;
	for (i = 0; i < sizeof(splats) / sizeof(splats[0]); i++) {
		if (!strncmp(msg, splats[i].prefix, strlen(splats[i].prefix))) {
			*kind = splats[i].kind;
			return msg;
		}
	}
	return NULL;
}

/*
 * Where the kernel message in a line starts, or NULL if none matches: at
 * the start of the line, or after a time stamp in the middle of someone
 * else's output.
 */
static const char *match_splat(const char *s, const char **kind)
{
	const char *after, *msg, *p;

	msg = match_at(is_stamp(s, &after) ? after : s, kind);
	if (msg || !*s)
		return msg;
	for (p = strchr(s + 1, '['); p; p = strchr(p + 1, '['))
		if (is_stamp(p, &after) && (msg = match_at(after, kind)))
			return msg;
	return NULL;
}

int sk_boot_scan_log(struct sk_boot_splat *out, const char *log, size_t len)
{
	struct sk_strbuf line = SK_STRBUF_INIT;
	unsigned int lineno = 0;
	size_t i = 0, j;
	int found = 0;

	memset(out, 0, sizeof(*out));
	while (i < len && !found) {
		const char *kind, *msg;
		size_t e = i;

		while (e < len && log[e] != '\n')
			e++;
		sk_strbuf_reset(&line);
		for (j = i; j < e; j++)
			if (log[j] != '\r' && log[j] != '\0')
				sk_strbuf_addch(&line, log[j]);
		sk_strbuf_rtrim(&line);
		lineno++;
		msg = match_splat(line.buf, &kind);
		if (msg) {
			out->kind = kind;
			out->line = sk_xstrdup(msg);
			out->lineno = lineno;
			found = 1;
		}
		i = e + 1;
	}
	sk_strbuf_release(&line);
	return found;
}

void sk_boot_splat_release(struct sk_boot_splat *s)
{
	if (!s)
		return;
	free(s->line);
	memset(s, 0, sizeof(*s));
}

void sk_boot_result_release(struct sk_boot_result *r)
{
	if (!r)
		return;
	sk_boot_splat_release(&r->splat);
	free(r->reason);
	r->reason = NULL;
	json_decref(r->lava);
	r->lava = NULL;
}

static int guest_rc(const char *log)
{
	const char *p = strstr(log, SK_BOOT_MARK_DONE " rc="), *next;
	char *end;
	long rc;

	if (!p)
		return -1;
	while ((next = strstr(p + 1, SK_BOOT_MARK_DONE " rc=")))
		p = next;
	p += strlen(SK_BOOT_MARK_DONE " rc=");
	/* a garbled number is no marker, never rc=0 */
	if (*p < '0' || *p > '9')
		return -1;
	rc = strtol(p, &end, 10);
	return rc > 255 || (*end && !isspace((unsigned char)*end)) ? -1 : (int)rc;
}

void sk_boot_verdict(struct sk_boot_result *out, const char *log, size_t len,
		     int timed_out, unsigned int timeout_s, int qemu_exit,
		     const char *qemu_err, int expect_rc)
{
	struct sk_strbuf text = SK_STRBUF_INIT;
	int splat;

	/* guest_rc's strstr wants a string; a console may hold NULs */
	sk_strbuf_add(&text, log, len);
	out->guest_rc = guest_rc(text.buf);
	sk_strbuf_release(&text);
	splat = sk_boot_scan_log(&out->splat, log, len);
	free(out->reason);
	if (timed_out) {
		out->status = SK_BOOT_TIMEOUT;
		out->reason = splat ?
			sk_xstrfmt("TIMEOUT: killed after %u s; %s at line %u: %s",
				   timeout_s, out->splat.kind, out->splat.lineno,
				   out->splat.line) :
			sk_xstrfmt("TIMEOUT: killed after %u s", timeout_s);
	} else if (splat) {
		out->status = SK_BOOT_SPLAT;
		out->reason = sk_xstrfmt("%s at line %u: %s", out->splat.kind,
					 out->splat.lineno, out->splat.line);
	} else if (out->guest_rc < 0) {
		out->status = SK_BOOT_NO_MARKER;
		out->reason = sk_xstrfmt("qemu exited with %d before '%s'%s%.200s",
					 qemu_exit, SK_BOOT_MARK_DONE,
					 qemu_err && *qemu_err ? ": " : "",
					 qemu_err ? qemu_err : "");
	} else if (out->guest_rc != expect_rc) {
		out->status = SK_BOOT_GUEST_FAIL;
		out->reason = sk_xstrfmt("the guest's job ended with rc=%d, not %d%s",
					 out->guest_rc, expect_rc,
					 out->guest_rc == 127 ? " (no /stablekit/job)" :
					 out->guest_rc == 126 ? " (/stablekit/job cannot run)" :
					 "");
	} else {
		out->status = SK_BOOT_OK;
		out->reason = sk_xstrfmt("booted, guest rc=%d", out->guest_rc);
	}
}

json_t *sk_boot_result_json(const struct sk_boot_result *r)
{
	json_t *o = json_pack("{s:s, s:s, s:o, s:f, s:i, s:i}",
			      "status", sk_boot_status_name(r->status),
			      "accel", sk_boot_accel_name(r->accel),
			      "reason", sk_json_string(r->reason),
			      "seconds", r->seconds,
			      "qemu_exit", r->exit_code,
			      "guest_rc", r->guest_rc);

	if (r->splat.line)
		json_object_set_new(o, "splat", json_pack("{s:s, s:o, s:i}",
				    "kind", r->splat.kind,
				    "line", sk_json_string(r->splat.line),
				    "lineno", (json_int_t)r->splat.lineno));
	if (r->lava) {
		json_object_set_new(o, "runner", json_string("lava"));
		json_object_set_new(o, "lava", json_incref(r->lava));
	}
	return o;
}

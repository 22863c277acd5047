#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gate/initramfs.h"
#include "gate/qemu.h"
#include "gate/boot.h"
#include "gate/gate-config.h"
#include "gate/guest.h"
#include "gate/test.h"

static int scan(struct sk_boot_splat *s, const char *log)
{
	return sk_boot_scan_log(s, log, strlen(log));
}

static void test_scan_kinds(void **state)
{
	static const struct {
		const char *log, *kind;
		unsigned int lineno;
	} cases[] = {
		{ "a\n[    4.1] BUG: kernel NULL pointer dereference\n", "BUG", 2 },
		{ "[ 1.0] Oops: general protection fault, probably\n", "oops", 1 },
		{ "x\ny\n[    2.5] WARNING: CPU: 1 PID: 80 at mm/vmscan.c:123 f+0x1\n",
		  "WARNING", 3 },
		{ "[    2.5] WARNING: possible circular locking dependency detected\n",
		  "lockdep", 1 },
		{ "Kernel panic - not syncing: Attempted to kill init!\n", "panic", 1 },
		{ "[   30.0] INFO: task test_memcontrol:80 blocked for more than 20 seconds.\n",
		  "hung task", 1 },
		{ "[    9.0] Internal error: Oops: 0000000096000005 [#1] SMP\n", "oops", 1 },
		{ "[   22.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s!\n", "BUG", 1 },
		{ "# ok 2 test_x[    5.0] kernel BUG at mm/swap.c:100!\n", "BUG", 1 },
		{ "\r\n[    4.1] BUG: KASAN: use-after-free\r\n", "BUG", 2 },
	};
	struct sk_boot_splat s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (scan(&s, cases[i].log) != 1)
			fail_msg("no splat in case %zu", i);
		assert_string_equal(s.kind, cases[i].kind);
		assert_int_equal(s.lineno, cases[i].lineno);
		sk_boot_splat_release(&s);
	}
	assert_int_equal(scan(&s, "[ 1.0] Oops: x\n"), 1);
	assert_string_equal(s.line, "Oops: x");
	sk_boot_splat_release(&s);
}

static void test_scan_clean(void **state)
{
	struct sk_boot_splat s;

	(void)state;
	assert_int_equal(scan(&s,
		"[    0.0] Linux version 6.12.117\n"
		"# WARNING: the test says so\n"
		"# # BUG: in a comment\n"
		"not ok 1 WARNING: as a description\n"
		"[    1.0] ACPI: BUG workaround note\n"
		"[ab] BUG: not a time stamp\n"
		"BUG: at the start, no stamp\n"), 1);
	assert_int_equal(s.lineno, 7);
	sk_boot_splat_release(&s);
	assert_int_equal(scan(&s, "stablekit-guest: done rc=0\n"), 0);
	assert_null(s.line);
	assert_int_equal(scan(&s, ""), 0);
	sk_boot_splat_release(NULL);
}

static void test_initramfs_bytes(void **state)
{
	struct sk_initramfs ir = SK_INITRAMFS_INIT;
	const char *d;

	(void)state;
	sk_initramfs_add_dir(&ir, "/bin", 0755);
	sk_initramfs_add_file(&ir, "/init", 0755, "#!/bin/sh\n", 10);
	d = ir.data.buf;
	assert_memory_equal(d, "070701", 6);
	/* ino 1, mode 040755, uid, gid, nlink 2, mtime, size 0 */
	assert_memory_equal(d + 6, "00000001000041ED000000000000000000000002"
			    "0000000000000000", 56);
	/* namesize "bin\0" = 4; header 110 + 4 = 114, padded to 116 */
	assert_memory_equal(d + 94, "00000004", 8);
	assert_string_equal(d + 110, "bin");
	assert_memory_equal(d + 116, "070701", 6);
	assert_memory_equal(d + 116 + 54, "0000000A", 8);	/* filesize */
	assert_string_equal(d + 116 + 110, "init");
	/* 116 + 110 + 5 = 231, padded to 232: the data */
	assert_memory_equal(d + 232, "#!/bin/sh\n", 10);
	assert_int_equal(ir.data.len, 244);
	assert_int_equal(sk_initramfs_add_host_file(&ir, "/x", 0644,
						    "/nonexistent/file"), -3);
	sk_initramfs_release(&ir);
}

static enum sk_boot_status verdict(struct sk_boot_result *r, const char *log,
				   int timed_out, int expect_rc)
{
	memset(r, 0, sizeof(*r));
	sk_boot_verdict(r, log, strlen(log), timed_out, 30, 0, "", expect_rc);
	return r->status;
}

/* A boot is ok only with the done marker and the rc expected. */
static void test_boot_verdict(void **state)
{
	static const char start[] = "stablekit-guest: start 6.12.60 cpus=2\n";
	struct sk_boot_result r;

	(void)state;
	assert_int_equal(verdict(&r, "stablekit-guest: start 6.12 cpus=2\n"
				 "stablekit-guest: done rc=0\n", 0, 0), SK_BOOT_OK);
	assert_int_equal(r.guest_rc, 0);
	assert_string_equal(r.reason, "booted, guest rc=0");
	sk_boot_result_release(&r);

	/* ci/guest/init without /stablekit/job */
	assert_int_equal(verdict(&r, "stablekit-guest: start 6.12 cpus=2\n"
				 "stablekit-guest: error: no /stablekit/job\n"
				 "stablekit-guest: done rc=127\r\n", 0, 0),
			 SK_BOOT_GUEST_FAIL);
	assert_int_equal(r.guest_rc, 127);
	assert_string_equal(sk_boot_status_name(r.status), "guest-fail");
	assert_string_equal(r.reason, "the guest's job ended with rc=127, not 0 "
			    "(no /stablekit/job)");
	sk_boot_result_release(&r);

	assert_int_equal(verdict(&r, "stablekit-guest: done rc=126\n", 0, 0),
			 SK_BOOT_GUEST_FAIL);
	assert_non_null(strstr(r.reason, "cannot run"));
	sk_boot_result_release(&r);
	assert_int_equal(verdict(&r, "stablekit-guest: done rc=1\n", 0, 0),
			 SK_BOOT_GUEST_FAIL);
	sk_boot_result_release(&r);
	/* the rc asked for */
	assert_int_equal(verdict(&r, "stablekit-guest: done rc=3\n", 0, 3),
			 SK_BOOT_OK);
	sk_boot_result_release(&r);
	/* the last marker counts, and a garbled one is none */
	assert_int_equal(verdict(&r, "# stablekit-guest: done rc=0\n"
				 "stablekit-guest: done rc=2\n", 0, 0),
			 SK_BOOT_GUEST_FAIL);
	sk_boot_result_release(&r);
	assert_int_equal(verdict(&r, "stablekit-guest: done rc=\n", 0, 0),
			 SK_BOOT_NO_MARKER);
	sk_boot_result_release(&r);
	assert_int_equal(verdict(&r, "stablekit-guest: done rc=0x\n", 0, 0),
			 SK_BOOT_NO_MARKER);
	sk_boot_result_release(&r);
	assert_int_equal(verdict(&r, start, 0, 0), SK_BOOT_NO_MARKER);
	assert_int_equal(r.guest_rc, -1);
	sk_boot_result_release(&r);
	assert_int_equal(verdict(&r, start, 1, 0), SK_BOOT_TIMEOUT);
	assert_string_equal(r.reason, "TIMEOUT: killed after 30 s");
	sk_boot_result_release(&r);
	/* a splat fails whatever the rc */
	assert_int_equal(verdict(&r, "[ 1.0] BUG: x\nstablekit-guest: done rc=0\n",
				 0, 0), SK_BOOT_SPLAT);
	sk_boot_result_release(&r);
	assert_string_equal(sk_boot_status_name((enum sk_boot_status)99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boot_verdict),
		cmocka_unit_test(test_scan_kinds),
		cmocka_unit_test(test_scan_clean),
		cmocka_unit_test(test_initramfs_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

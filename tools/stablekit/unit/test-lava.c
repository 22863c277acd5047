#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <git2.h>

#include "core/error.h"
#include "core/fsutil.h"
#include "gate/lava.h"
#include "core/strbuf.h"
#include "gate/boot.h"
#include "gate/gate-config.h"
#include "gate/guest.h"
#include "gate/test.h"

static char *write_config(const char *text)
{
	char path[] = "/tmp/sk-test-lava-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return sk_xstrdup(path);
}

static int load(struct sk_lava *l, const char *text)
{
	char *path = write_config(text);
	int err = sk_lava_config(l, path);

	unlink(path);
	free(path);
	return err;
}

static void test_config_ok(void **state)
{
	struct sk_lava l;

	(void)state;
	assert_int_equal(load(&l, "[lava]\n\turl = http://127.0.0.1:8000\n"
			      "\ttoken = abc\n\tartifacts-dir = /srv/a\n"
			      "\tartifacts-url = http://files.example/a/\n"), 0);
	assert_string_equal(l.url, "http://127.0.0.1:8000/");
	assert_string_equal(l.artifacts_url, "http://files.example/a");
	assert_string_equal(l.device_type, "qemu");
	assert_int_equal(l.queue_timeout_s, 3600);
	assert_int_equal(l.poll_ms, 1000);
	sk_lava_release(&l);
}

/* user:pass@ of lava.url is kept apart: never in a job page or a message */
static void test_config_credentials_apart(void **state)
{
	struct sk_lava l;

	(void)state;
	assert_int_equal(load(&l, "[lava]\n\turl = https://bob:s3cret@lava.example:8443/x\n"
			      "\ttoken = abc\n\tartifacts-dir = /srv/a\n"
			      "\tartifacts-url = http://files.example/a/\n"), 0);
	assert_string_equal(l.url, "https://lava.example:8443/x/");
	assert_string_equal(l.userinfo, "bob:s3cret");
	sk_lava_release(&l);
	assert_int_equal(load(&l, "[lava]\n\turl = http://h/a@b\n"
			      "\ttoken = abc\n\tartifacts-dir = /srv/a\n"
			      "\tartifacts-url = http://files.example/a/\n"), 0);
	assert_string_equal(l.url, "http://h/a@b/");
	assert_null(l.userinfo);
	sk_lava_release(&l);
}

static void test_config_errors(void **state)
{
	static const struct {
		const char *text, *says;
	} cases[] = {
		{ "[lava]\n\ttoken = a\n\tartifacts-dir = /a\n"
		  "\tartifacts-url = file:///a\n", "lava.url is not set" },
		{ "[lava]\n\turl = ftp://h/\n\ttoken = a\n\tartifacts-dir = /a\n"
		  "\tartifacts-url = file:///a\n", "lava.url: 'ftp://h/'" },
		{ "[lava]\n\turl = http://h/\n\tartifacts-dir = /a\n"
		  "\tartifacts-url = file:///a\n", "lava.token is not set" },
		{ "[lava]\n\turl = http://h/\n\ttoken = a\n\tartifacts-dir = a\n"
		  "\tartifacts-url = file:///a\n", "not an absolute path" },
		{ "[lava]\n\turl = http://h/\n\ttoken = a\n\tartifacts-dir = /a\n"
		  "\tartifacts-url = file://a\"b\n", "lava.artifacts-url" },
		{ "[lava]\n\turl = http://h/\n\ttoken = a\n\tartifacts-dir = /a\n"
		  "\tartifacts-url = file:///a\n\tqueue-timeout = 0\n",
		  "lava.queue-timeout" },
	};
	struct sk_lava l;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(load(&l, cases[i].text), SK_EINVALID);
		if (!strstr(sk_error_last(), cases[i].says))
			fail_msg("case %zu: '%s' lacks '%s'", i, sk_error_last(),
				 cases[i].says);
	}
	assert_int_equal(sk_lava_config(&l, "/nonexistent/lava.conf"),
			 SK_ENOTFOUND);
}

static void test_runner_choice(void **state)
{
	struct sk_lava l;
	int use = 1;

	(void)state;
	assert_int_equal(sk_lava_runner(&l, &use, NULL, NULL, "/w"), 0);
	assert_int_equal(use, 0);
	assert_int_equal(sk_lava_runner(&l, &use, "local", NULL, "/w"), 0);
	assert_int_equal(sk_lava_runner(&l, &use, "ssh", NULL, "/w"),
			 SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "unknown runner 'ssh'"));
	assert_int_equal(sk_lava_runner(&l, &use, "local", "/x", "/w"),
			 SK_EINVALID);
	unsetenv("SK_LAVA_CONFIG");
	assert_int_equal(sk_lava_runner(&l, &use, "lava", NULL,
					"/nonexistent-work"), SK_ENOTFOUND);
	assert_non_null(strstr(sk_error_last(),
			       "/nonexistent-work/lava/lava.conf"));
	assert_int_equal(use, 0);
}

static void test_job_definition(void **state)
{
	struct sk_qemu_opts o = { 0 };
	json_t *def, *boot, *test, *img;

	(void)state;
	o.arch = "arm64";
	o.append = "transparent_hugepage=never";
	o.timeout_s = 300;
	assert_int_equal(sk_lava_job_definition(&def, &o, "qemu",
			 "file:///a/k", "file:///a/i", "stablekit x"), 0);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		def, "context"), "arch")), "arm64");
	img = json_object_get(json_object_get(json_object_get(json_array_get(
		json_object_get(def, "actions"), 0), "deploy"), "images"),
		"kernel");
	assert_string_equal(json_string_value(json_object_get(img, "image_arg")),
			    "-kernel {kernel} -append \"console=ttyAMA0 panic=0 "
			    "printk.time=1 transparent_hugepage=never\"");
	boot = json_object_get(json_array_get(json_object_get(def, "actions"), 1),
			       "boot");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
		boot, "timeout"), "seconds")), 300);
	test = json_array_get(json_object_get(json_object_get(json_array_get(
		json_object_get(def, "actions"), 2), "test"), "monitors"), 0);
	assert_string_equal(json_string_value(json_object_get(test, "end")),
			    SK_BOOT_MARK_DONE " rc=[0-9]+\\s");
	json_decref(def);

	/* what the worker's shell would read is refused, not passed on */
	o.append = "x=\"$(reboot)\"";
	assert_int_equal(sk_lava_job_definition(&def, &o, "qemu", "file:///k",
						NULL, "n"), SK_EINVALID);
	assert_null(def);
	o.append = NULL;
	o.arch = "sparc";
	assert_int_equal(sk_lava_job_definition(&def, &o, "qemu", "file:///k",
						NULL, "n"), SK_EINVALID);
}

static int console(struct sk_strbuf *out, const char *log)
{
	sk_strbuf_reset(out);
	return sk_lava_log_console(out, log, strlen(log));
}

/*
 * A guest line that prints the done marker's text does not end the
 * console: the WARNING and the real rc after it are read, and LAVA's
 * console gives the verdict QEMU's gives.
 */
static void test_log_console_fake_marker(void **state)
{
	static const char text[] =
		"stablekit-guest: start\n"
		"# echo stablekit-guest: done rc=0\n"
		"stablekit-guest: done rc=0\n"
		"[   12.5] WARNING: CPU: 0 PID: 1 at mm/vmscan.c:42 shrink\n"
		"stablekit-guest: done rc=1\n";
	struct sk_strbuf out = SK_STRBUF_INIT, log = SK_STRBUF_INIT;
	struct sk_boot_result lava = { 0 }, qemu = { 0 };
	const char *p = text, *eol;

	(void)state;
	for (; (eol = strchr(p, '\n')); p = eol + 1)
		sk_strbuf_addf(&log, "- {\"dt\": \"x\", \"lvl\": \"target\", "
			       "\"msg\": \"%.*s\"}\n", (int)(eol - p), p);
	sk_strbuf_adds(&log, "- {\"dt\": \"x\", \"lvl\": \"target\", "
		       "\"msg\": \"[    0.000000] Linux version 7.2.13\"}\n");
	assert_int_equal(console(&out, log.buf), 0);
	assert_string_equal(out.buf, text);
	sk_boot_verdict(&lava, out.buf, out.len, 0, 600, 0, NULL, 0);
	sk_boot_verdict(&qemu, text, strlen(text), 0, 600, 0, NULL, 0);
	assert_int_equal(lava.status, SK_BOOT_SPLAT);
	assert_int_equal(lava.status, qemu.status);
	assert_int_equal(lava.guest_rc, 1);
	sk_boot_result_release(&lava);
	sk_boot_result_release(&qemu);
	sk_strbuf_release(&out);
	sk_strbuf_release(&log);
}

static void test_log_console(void **state)
{
	struct sk_strbuf out = SK_STRBUF_INIT;

	(void)state;
	assert_int_equal(console(&out,
		"- {\"dt\": \"2026-12-02T06:50:00.1\", \"lvl\": \"info\", \"msg\": \"start: 1 deploy\"}\n"
		"- {\"dt\": \"2026-12-02T06:50:01.1\", \"lvl\": \"target\", \"msg\": \"[    0.000000] Linux version 6.12.117\"}\n"
		"- {\"dt\": \"2026-12-02T06:50:01.2\", \"lvl\": \"results\", \"msg\": {\"case\": \"x\", \"result\": \"pass\"}}\n"
		/* two lines from a real LAVA 2023.01 log */
		"- {\"dt\": \"2026-12-02T06:51:55.555380\", \"lvl\": \"target\", \"msg\": \"ok 2 tab\\there ctrl\\x01x utf8 \\xE9\\u20AC del\\x7F\"}\n"
		"- {\"dt\": \"2026-12-02T06:51:55.531210\", \"lvl\": \"target\", \"msg\": \"ok 1 quote \\\\\\\"double\\\\\\\" and 'single' back\\\\slash\"}\n"
		"- {\"dt\": \"2026-12-02T06:50:03.1\", \"lvl\": \"target\", \"msg\": \"stablekit-guest: done\"}\n"
		"- {\"dt\": \"2026-12-02T06:50:03.2\", \"lvl\": \"input\", \"msg\": \"poweroff\\n\"}\n"
		"- {\"dt\": \"2026-12-02T06:50:03.3\", \"lvl\": \"feedback\", \"msg\": \"stablekit-guest: done rc=0\", \"ns\": \"common\"}\n"
		"- {\"dt\": \"2026-12-02T06:50:04.1\", \"lvl\": \"target\", \"msg\": \"[    0.000000] Linux version 6.12.117\"}\n"),
		0);
	assert_string_equal(out.buf, "[    0.000000] Linux version 6.12.117\n"
			    "ok 2 tab\there ctrl\001x utf8 \xc3\xa9\xe2\x82\xac del\177\n"
			    "ok 1 quote \"double\" and 'single' back\\slash\n"
			    "stablekit-guest: done\n"
			    "stablekit-guest: done rc=0\n");

	/* "lvl" inside a message is not the line's level */
	assert_int_equal(console(&out,
		"- {\"dt\": \"x\", \"lvl\": \"debug\", \"msg\": \"\\\"lvl\\\": \\\"target\\\"\"}\n"),
		0);
	assert_int_equal(out.len, 0);

	assert_int_equal(console(&out, "<html>502 Bad Gateway</html>\n"),
			 SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "line 1"));
	assert_int_equal(console(&out,
		"- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"cut\n"),
		SK_EINVALID);
	assert_int_equal(console(&out,
		"- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"\\q\"}\n"),
		SK_EINVALID);
	sk_strbuf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_ok),
		cmocka_unit_test(test_config_credentials_apart),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_runner_choice),
		cmocka_unit_test(test_job_definition),
		cmocka_unit_test(test_log_console),
		cmocka_unit_test(test_log_console_fake_marker),
	};

	int failed;

	git_libgit2_init();
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	git_libgit2_shutdown();
	return failed;
}

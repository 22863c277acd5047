#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/error.h"
#include "core/names.h"
#include "core/shquote.h"
#include "core/strbuf.h"
#include "core/strvec.h"

static void test_names_accepted(void **state)
{
	(void)state;
	assert_int_equal(sk_name_check("branch", "linux-6.12.y"), 0);
	assert_int_equal(sk_name_check("series", "vmstat-scan-balance-cost"), 0);
	assert_int_equal(sk_name_check("queue entry",
		"0001-mm-vmstat-add-pgrotate_anon+file.patch"), 0);
}

static void test_names_refused(void **state)
{
	static const char *const bad[] = {
		"", ".", "..", "../../x", "a/b", "/abs", ".hidden", "-rf",
		"x.lock", "with space", "tab\there", "new\nline", "back\\slash",
		"semi;colon", "quote'", "$(id)", "`id`",
	};
	char longname[202];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(sk_name_check("series", bad[i]), SK_EINVALID);
		assert_non_null(strstr(sk_error_last(), "series name"));
	}
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(sk_name_check("branch", longname), SK_EINVALID);
	assert_int_equal(sk_name_check("branch", NULL), SK_EINVALID);
}

static void test_series_lines(void **state)
{
	static const char *const refused[] = {
		"../../../outside/escape.patch\n", "a/b.patch\n",
		"/abs.patch\n", "  #indented-comment\n", "x.patch -p2\n",
		"x.patch -R\n", "x.patch -p1 --fuzz=3\n", ".hidden\n",
		"-R\n",
	};
	char **names = NULL;
	size_t nr = 0, i;

	(void)state;
	assert_int_equal(sk_name_series(&names, &nr,
		"# queue\n\na.patch\n  b.patch -p1\n#c.patch\n"
		"d.patch\t# comment\r\ne.patch", "q/series"), 0);
	assert_int_equal(nr, 4);
	assert_string_equal(names[0], "a.patch");
	assert_string_equal(names[1], "b.patch");
	assert_string_equal(names[2], "d.patch");
	assert_string_equal(names[3], "e.patch");
	sk_strvec_free_array(names, nr);

	assert_int_equal(sk_name_series(&names, &nr, "", "q/series"), 0);
	assert_int_equal(nr, 0);
	assert_null(names);

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char *text = sk_xstrfmt("ok.patch\n# c\n%s", refused[i]);

		assert_int_equal(sk_name_series(&names, &nr, text, "q/series"),
				 SK_EINVALID);
		assert_int_equal(nr, 0);
		assert_null(names);
		assert_non_null(strstr(sk_error_last(), "q/series:3: "));
		free(text);
	}
	assert_int_equal(sk_name_series(&names, &nr, "x.patch -R\n", "s"),
			 SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "s:1: quilt option '-R' for "
			       "'x.patch' is not supported"));
}

/* What sh makes of the quoted line: each argument printed on its own. */
static char *shell_round_trip(const char *const *argv, size_t nr)
{
	struct sk_strbuf line = SK_STRBUF_INIT, out = SK_STRBUF_INIT;
	char buf[512];
	int fd[2], status;
	ssize_t n;
	pid_t pid;

	sk_strbuf_adds(&line, "printf '[%s]' ");
	sk_shell_argv(&line, argv, nr);
	assert_int_equal(pipe(fd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execl("/bin/bash", "bash", "-c", line.buf, (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while ((n = read(fd[0], buf, sizeof(buf))) > 0)
		sk_strbuf_add(&out, buf, (size_t)n);
	close(fd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	sk_strbuf_release(&line);
	return sk_strbuf_detach(&out);
}

static void test_shell_quote_hostile(void **state)
{
	static const char *const argv[] = {
		"<x'`touch /tmp/sk-pwned`'@y>", "$(id)", "a b", "!!", "new\nline",
		"back\\slash", "\"dq\"", "", "plain-1.2@x", "*", "~root", "#c",
	};
	char *got;
	struct sk_strbuf want = SK_STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(argv) / sizeof(argv[0]); i++)
		sk_strbuf_addf(&want, "[%s]", argv[i]);
	got = shell_round_trip(argv, sizeof(argv) / sizeof(argv[0]));
	assert_string_equal(got, want.buf);
	free(got);
	sk_strbuf_release(&want);
}

static void test_shell_quote_plain_unchanged(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	(void)state;
	sk_shell_quote(&sb, "linux-6.12.y");
	assert_string_equal(sb.buf, "linux-6.12.y");
	sk_strbuf_reset(&sb);
	sk_shell_quote(&sb, "it's");
	assert_string_equal(sb.buf, "'it'\\''s'");
	sk_strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_accepted),
		cmocka_unit_test(test_names_refused),
		cmocka_unit_test(test_series_lines),
		cmocka_unit_test(test_shell_quote_hostile),
		cmocka_unit_test(test_shell_quote_plain_unchanged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

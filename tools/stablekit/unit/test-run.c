#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/error.h"
#include "core/fsutil.h"
#include "core/run.h"
#include "core/strbuf.h"

/*
 * Every close() of the library goes through here: a close of a descriptor
 * that is not open (EBADF) is the trace of a double close, which in a
 * program with threads closes another thread's file.
 */
static int bad_closes;

int close(int fd)
{
	long r = syscall(SYS_close, fd);

	if (r < 0 && errno == EBADF)
		bad_closes++;
	return (int)r;
}

static void test_timeout_closes_each_pipe_once(void **state)
{
	/* stdout reaches its end at once, the child runs on past the limit */
	const char *argv[] = { "sh", "-c", "exec >&- 2>&-; sleep 5", NULL };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };

	(void)state;
	ro.argv = argv;
	ro.timeout_ms = 300;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_CAPTURE_ERR;
	bad_closes = 0;
	assert_int_equal(sk_run(&res, &ro), SK_ETIMEOUT);
	assert_true(res.timed_out);
	assert_int_equal(res.exit_code, 128 + SIGKILL);
	assert_int_equal(bad_closes, 0);
	sk_run_result_release(&res);

	/* the same with stdout still open at the limit */
	argv[2] = "sleep 5";
	assert_int_equal(sk_run(&res, &ro), SK_ETIMEOUT);
	assert_int_equal(bad_closes, 0);
	sk_run_result_release(&res);

	/* and a child that finishes */
	argv[2] = "echo out; echo err >&2; exit 3";
	assert_int_equal(sk_run(&res, &ro), 0);
	assert_string_equal(res.out.buf, "out\n");
	assert_string_equal(res.err.buf, "err\n");
	assert_int_equal(res.exit_code, 3);
	assert_int_equal(bad_closes, 0);
	sk_run_result_release(&res);
}

/*
 * stderr to a file is there while the child runs (a log a user follows),
 * and stdout is still captured.
 */
static void test_stderr_to_a_file_as_it_comes(void **state)
{
	char dir[] = "/tmp/sk-run-XXXXXX", path[64], buf[64];
	const char *argv[] = { "sh", "-c", NULL, NULL };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	char *script;
	FILE *f;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/err.log", dir);
	/* the child copies its own log while running: only a live file has it */
	script = sk_xstrfmt("echo progress >&2; cat %s; echo out", path);
	argv[2] = script;
	ro.argv = argv;
	ro.timeout_ms = 10000;
	ro.flags = SK_RUN_CAPTURE_OUT;
	ro.stderr_path = path;
	assert_int_equal(sk_run(&res, &ro), 0);
	assert_string_equal(res.out.buf, "progress\nout\n");
	assert_int_equal(res.err.len, 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	assert_string_equal(buf, "progress\n");
	sk_run_result_release(&res);
	free(script);
	unlink(path);
	rmdir(dir);
}

/* No descriptor of sk_run is left open, timeout or not. */
static void test_no_descriptor_leaks(void **state)
{
	const char *argv[] = { "sh", "-c", "exec >&-; sleep 5", NULL };
	struct sk_run_opts ro = { 0 };
	int before, after, i;

	(void)state;
	ro.argv = argv;
	ro.timeout_ms = 100;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_CAPTURE_ERR;
	before = dup(0);
	close(before);
	for (i = 0; i < 3; i++) {
		struct sk_run_result res = SK_RUN_RESULT_INIT;

		sk_run(&res, &ro);
		sk_run_result_release(&res);
	}
	after = dup(0);
	close(after);
	assert_int_equal(before, after);
}

struct bg {
	struct sk_run_result res;
	int ret;
};

static void *run_sleep(void *arg)
{
	const char *argv[] = { "sleep", "0.5", NULL };
	struct bg *bg = arg;
	struct sk_run_opts ro = { 0 };

	ro.argv = argv;
	bg->ret = sk_run(&bg->res, &ro);
	return NULL;
}

/* A running child is registered while it runs, and only then. */
static void test_children_registry(void **state)
{
	struct bg bg = { SK_RUN_RESULT_INIT, -1 };
	pthread_t t;
	int pids[4], n = 0, tries;

	(void)state;
	assert_int_equal(sk_run_children(pids, 4), 0);
	assert_int_equal(pthread_create(&t, NULL, run_sleep, &bg), 0);
	for (tries = 0; tries < 200 && !n; tries++) {
		n = (int)sk_run_children(pids, 4);
		if (!n)
			usleep(1000);
	}
	assert_int_equal(n, 1);
	/* its own process group */
	assert_int_equal(getpgid(pids[0]), pids[0]);
	pthread_join(t, NULL);
	assert_int_equal(bg.ret, 0);
	assert_int_equal(sk_run_children(pids, 4), 0);
	sk_run_result_release(&bg.res);
}

/* More arguments than any fixed array held, all of them passed. */
static void test_argv_grows(void **state)
{
	struct sk_argv a = SK_ARGV_INIT;
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	int i;

	(void)state;
	sk_argv_pushv(&a, (const char *const[]){ "sh", "-c",
		      "echo $# ${1} ${1000}", "sh", NULL });
	for (i = 1; i <= 1000; i++)
		sk_argv_pushf(&a, "a%d", i);
	assert_int_equal(a.nr, 1004);
	assert_null(a.v[a.nr]);
	ro.argv = a.v;
	ro.flags = SK_RUN_CAPTURE_OUT;
	assert_int_equal(sk_run(&res, &ro), 0);
	assert_string_equal(res.out.buf, "1000 a1 a1000\n");
	sk_run_result_release(&res);
	sk_argv_release(&a);
	assert_null(a.v);
}

/*
 * A child learns how deep it runs (a stablekit there halves its grace, so
 * it stops its own children before its parent's SIGKILL), and the extra
 * environment replaces the inherited entries of the same name.
 */
static void test_child_depth(void **state)
{
	const char *argv[] = { "sh", "-c", "echo $SK_RUN_DEPTH $X", NULL };
	const char *env[] = { "X=y", NULL };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };

	(void)state;
	ro.argv = argv;
	ro.env = env;
	ro.flags = SK_RUN_CAPTURE_OUT;
	/* both set already: what sk_run sets wins, for a shell too */
	setenv("SK_RUN_DEPTH", "5", 1);
	setenv("X", "old", 1);
	assert_int_equal(sk_run(&res, &ro), 0);
	assert_string_equal(res.out.buf, "1 y\n");
	unsetenv("SK_RUN_DEPTH");
	unsetenv("X");
	sk_run_result_release(&res);
}

static char scratch[] = "/tmp/sk-test-run-XXXXXX";

/*
 * In a child process that set up the signal thread: a long tool running
 * in a worker thread and a temporary directory.  SIGTERM to the process
 * stops the tool's process group (its own child too), removes the
 * directory and exits 143.
 */
static void *run_long(void *arg)
{
	const char *argv[] = { "sh", "-c", "sleep 300 & echo $! >\"$0\"; wait",
			       arg, NULL };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };

	ro.argv = argv;
	sk_run(&res, &ro);
	/* never here: the signal thread exits the process */
	_exit(99);
	return NULL;
}

static void signalled_child(const char *pidfile)
{
	pthread_t t;
	char *tmp;

	if (sk_run_signals_init() || sk_mkdtemp_in(&tmp, scratch, "job"))
		_exit(98);
	pthread_create(&t, NULL, run_long, (void *)pidfile);
	for (;;)
		pause();
}

static pid_t read_pid(const char *path)
{
	FILE *f = fopen(path, "r");
	int pid = 0;

	if (f && fscanf(f, "%d", &pid) != 1)
		pid = 0;
	if (f)
		fclose(f);
	return pid;
}

static int gone(pid_t pid)
{
	char path[64], state = 0;
	FILE *f;

	/* a zombie waiting for init counts as gone */
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	if (fscanf(f, "%*d %*s %c", &state) != 1)
		state = 0;
	fclose(f);
	return state == 'Z';
}

static void test_sigterm_stops_children_and_removes_temporaries(void **state)
{
	char *pidfile;
	pid_t child, grandchild = 0;
	int status, tries;

	(void)state;
	assert_non_null(mkdtemp(scratch));
	pidfile = sk_path_join(scratch, "sleep.pid");
	child = fork();
	assert_true(child >= 0);
	if (!child)
		signalled_child(pidfile);
	for (tries = 0; tries < 500 && !grandchild; tries++) {
		grandchild = read_pid(pidfile);
		if (!grandchild)
			usleep(10000);
	}
	assert_true(grandchild > 0);
	assert_int_equal(unlink(pidfile), 0);
	kill(child, SIGTERM);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 143);
	for (tries = 0; tries < 100 && !gone(grandchild); tries++)
		usleep(10000);
	assert_true(gone(grandchild));
	/* the directory of sk_mkdtemp_in is gone: scratch is empty */
	assert_int_equal(rmdir(scratch), 0);
	free(pidfile);
}

/* SIGKILL leaves a directory; the next sk_mkdtemp_in there removes it. */
static void test_stale_tempdir_of_a_dead_process(void **state)
{
	char dir[] = "/tmp/sk-test-stale-XXXXXX";
	char *stale, *foreign, *alive, *file, *fresh = NULL;
	pid_t dead = fork();

	(void)state;
	assert_non_null(mkdtemp(dir));
	if (!dead)
		_exit(0);
	waitpid(dead, NULL, 0);
	stale = sk_xstrfmt("%s/.job-%d-abcdef", dir, (int)dead);
	alive = sk_xstrfmt("%s/.job-%d-abcdef", dir, (int)getppid());
	foreign = sk_xstrfmt("%s/.jobs-%d-abcdef", dir, (int)dead);
	assert_int_equal(sk_mkdir_p(stale, 0755), 0);
	file = sk_path_join(stale, "f");
	assert_int_equal(sk_write_file_atomic(file, "x", 1), 0);
	free(file);
	assert_int_equal(sk_mkdir_p(alive, 0755), 0);
	assert_int_equal(sk_mkdir_p(foreign, 0755), 0);
	assert_int_equal(sk_mkdtemp_in(&fresh, dir, "job"), 0);
	assert_false(sk_path_exists(stale));
	assert_true(sk_path_exists(alive));
	assert_true(sk_path_exists(foreign));
	assert_true(sk_is_dir(fresh));
	assert_int_equal(sk_tempdirs_remove(), 1);
	assert_false(sk_path_exists(fresh));
	assert_int_equal(sk_rmrf(dir), 0);
	free(stale);
	free(alive);
	free(foreign);
	free(fresh);
}

/*
 * A child that lives until *release is closed: it waits on a pipe.
 * Returns its pid; the caller closes *release, then reaps it.
 */
static pid_t waiting_child(int *release)
{
	int fds[2];
	char c;
	pid_t pid;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	if (!pid) {
		close(fds[1]);
		if (read(fds[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[0]);
	*release = fds[1];
	return pid;
}

/* A process's start time: its own before its child's, none once reaped. */
static void test_process_start(void **state)
{
	double me = sk_process_start((long)getpid()), child;
	int release;
	pid_t pid;

	(void)state;
	assert_true(me > 0 && me <= (double)time(NULL) + 1);
	pid = waiting_child(&release);
	child = sk_process_start((long)pid);
	assert_true(child >= me - 0.02);
	close(release);
	waitpid(pid, NULL, 0);
	assert_true(sk_process_start((long)pid) < 0);
}

/*
 * A directory named for a pid that a later process has taken (pids wrap)
 * is stale: the process that made it is gone.  Root makes the next pid
 * that pid (ns_last_pid), as a busy machine does by chance.
 */
static void test_stale_tempdir_of_a_reused_pid(void **state)
{
	char dir[] = "/tmp/sk-test-reuse-XXXXXX";
	char *stale, *fresh = NULL, buf[32];
	int release = -1, fd, tries;
	pid_t dead = fork(), again = 0;

	(void)state;
	if (!dead)
		_exit(0);
	waitpid(dead, NULL, 0);
	assert_non_null(mkdtemp(dir));
	stale = sk_xstrfmt("%s/.job-%d-abcdef", dir, (int)dead);
	assert_int_equal(sk_mkdir_p(stale, 0755), 0);
	sleep(2);	/* the reused pid's process starts clearly later */
	fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
	assert_true(fd >= 0);	/* root: CI and make check run as root */
	snprintf(buf, sizeof(buf), "%d", (int)dead - 1);
	/* another process may take the pid first: a few tries */
	for (tries = 0; tries < 20; tries++) {
		assert_true(pwrite(fd, buf, strlen(buf), 0) > 0);
		again = waiting_child(&release);
		if (again == dead)
			break;
		close(release);
		waitpid(again, NULL, 0);
	}
	close(fd);
	assert_int_equal(again, dead);
	assert_int_equal(sk_mkdtemp_in(&fresh, dir, "job"), 0);
	assert_false(sk_path_exists(stale));
	close(release);
	waitpid(again, NULL, 0);
	assert_int_equal(sk_tempdirs_remove(), 1);
	assert_int_equal(sk_rmrf(dir), 0);
	free(stale);
	free(fresh);
}

struct reader {
	const char *path;
	volatile int stop;
	long reads, missing;
};

static void *read_queue(void *arg)
{
	struct reader *r = arg;

	while (!r->stop) {
		r->reads++;
		if (access(r->path, F_OK))
			r->missing++;
	}
	return NULL;
}

/* The queue swap: a reader of the path never finds it missing. */
static void test_dir_swap(void **state)
{
	char dir[] = "/tmp/sk-test-swap-XXXXXX";
	char *a, *b, *fa, *fb, *series;
	struct reader r = { 0 };
	struct sk_strbuf text = SK_STRBUF_INIT;
	pthread_t t;
	int i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	a = sk_path_join(dir, "new");
	b = sk_path_join(dir, "queue");
	fa = sk_path_join(a, "series");
	fb = sk_path_join(b, "series");
	assert_int_equal(sk_mkdir_p(a, 0755), 0);
	assert_int_equal(sk_mkdir_p(b, 0755), 0);
	assert_int_equal(sk_write_file_atomic(fa, "new\n", 4), 0);
	assert_int_equal(sk_write_file_atomic(fb, "old\n", 4), 0);
	assert_int_equal(sk_dir_swap(a, b), 0);
	assert_int_equal(sk_read_file(&text, fb), 0);
	assert_string_equal(text.buf, "new\n");
	sk_strbuf_reset(&text);
	assert_int_equal(sk_read_file(&text, fa), 0);
	assert_string_equal(text.buf, "old\n");
	sk_strbuf_release(&text);

	series = fb;
	r.path = series;
	assert_int_equal(pthread_create(&t, NULL, read_queue, &r), 0);
	for (i = 0; i < 20000; i++)
		assert_int_equal(sk_dir_swap(a, b), 0);
	r.stop = 1;
	pthread_join(t, NULL);
	assert_true(r.reads > 0);
	assert_int_equal(r.missing, 0);

	/* nothing to swap with: an error naming the path, nothing moved */
	assert_int_equal(sk_rmrf(a), 0);
	assert_true(sk_dir_swap(a, b) < 0);
	assert_non_null(strstr(sk_error_last(), "queue"));
	assert_true(sk_path_exists(fb));
	assert_int_equal(sk_rmrf(dir), 0);
	free(a);
	free(b);
	free(fa);
	free(fb);
}

/* A tool that writes past max_file_bytes is stopped and says so. */
static void test_file_size_limit(void **state)
{
	char *dir = NULL, *out, *arg;
	const char *argv[] = { "dd", "if=/dev/zero", NULL, "bs=65536",
			       "count=64", NULL };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	struct stat st;

	(void)state;
	assert_int_equal(sk_mkdtemp_in(&dir, sk_tmp_dir(), "sk-run"), 0);
	out = sk_path_join(dir, "big");
	arg = sk_xstrfmt("of=%s", out);
	argv[2] = arg;
	ro.argv = argv;
	ro.flags = SK_RUN_CAPTURE_ERR;
	ro.max_file_bytes = 1 << 20;
	assert_int_equal(sk_run(&res, &ro), SK_ETOOL);
	assert_non_null(strstr(sk_error_last(), "past the limit of 1048576"));
	assert_int_equal(stat(out, &st), 0);
	assert_true(st.st_size <= 1 << 20);
	sk_run_result_release(&res);

	/* under the limit, nothing changes */
	ro.max_file_bytes = 8 << 20;
	assert_int_equal(sk_run(&res, &ro), 0);
	assert_int_equal(res.exit_code, 0);
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_size, 64 * 65536);
	sk_run_result_release(&res);

	/* a tool that is not there is named, as without a limit */
	argv[0] = "sk-no-such-tool";
	assert_int_equal(sk_run(&res, &ro), SK_ETOOL);
	assert_non_null(strstr(sk_error_last(),
			       "cannot run 'sk-no-such-tool'"));
	sk_run_result_release(&res);
	sk_rmrf(dir);
	free(arg);
	free(out);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeout_closes_each_pipe_once),
		cmocka_unit_test(test_stderr_to_a_file_as_it_comes),
		cmocka_unit_test(test_no_descriptor_leaks),
		cmocka_unit_test(test_file_size_limit),
		cmocka_unit_test(test_children_registry),
		cmocka_unit_test(test_argv_grows),
		cmocka_unit_test(test_child_depth),
		cmocka_unit_test(test_sigterm_stops_children_and_removes_temporaries),
		cmocka_unit_test(test_stale_tempdir_of_a_dead_process),
		cmocka_unit_test(test_process_start),
		cmocka_unit_test(test_stale_tempdir_of_a_reused_pid),
		cmocka_unit_test(test_dir_swap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

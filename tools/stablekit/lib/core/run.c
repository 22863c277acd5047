#include "core/run.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strvec.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/*
 * The running children, by pid (each leads its own process group), and
 * whether a signal stops the process: under one lock, which sk_run holds
 * from the spawn to the registration, so the signal thread sees every
 * child that exists.
 */
static pthread_mutex_t children_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t *children;
static size_t nr_children, alloc_children;
static int stopping;

static void forget_child(pid_t pid)
{
	size_t i;

	for (i = 0; i < nr_children; i++) {
		if (children[i] == pid) {
			children[i] = children[--nr_children];
			break;
		}
	}
}

size_t sk_run_children(int *pids, size_t max)
{
	size_t i, n;

	pthread_mutex_lock(&children_lock);
	n = nr_children;
	for (i = 0; i < n && i < max; i++)
		pids[i] = (int)children[i];
	pthread_mutex_unlock(&children_lock);
	return n;
}

/* The process is going down (see sk_run_signals_init): wait for it. */
static void park(void)
{
	for (;;)
		pause();
}

double sk_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* How deep in stablekits run by stablekits this one is (0: the top). */
static int depth, grace_ms = SK_RUN_GRACE_MS;
static char depth_var[32] = "SK_RUN_DEPTH=1";

/* Does "NAME=value" set the variable that entry sets? */
static int same_name(const char *entry, const char *var)
{
	size_t len = strcspn(var, "=");

	return !strncmp(entry, var, len) && entry[len] == '=';
}

static int overridden(const char *entry, const char *const *extra)
{
	if (same_name(entry, depth_var))
		return 1;
	while (extra && *extra)
		if (same_name(entry, *extra++))
			return 1;
	return 0;
}

/*
 * The child's environment: depth_var, extra, then ours without what those
 * set (a shell takes the last of two entries, getenv the first).
 */
static char **build_env(const char *const *extra)
{
	size_t n = 0, m = 0, i, k;
	char **env;

	while (environ[n])
		n++;
	while (extra && extra[m])
		m++;
	env = sk_xcalloc(n + m + 2, sizeof(*env));
	env[0] = depth_var;
	for (i = 0; i < m; i++)
		env[1 + i] = (char *)extra[i];
	for (i = 0, k = 1 + m; i < n; i++)
		if (!overridden(environ[i], extra))
			env[k++] = environ[i];
	return env;
}

static int drain(int fd, struct sk_strbuf *sb)
{
	char buf[65536];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n > 0 && sb)
		sk_strbuf_add(sb, buf, (size_t)n);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	return n > 0;
}

static int setup_actions(posix_spawn_file_actions_t *fa,
			 const struct sk_run_opts *o, int outp[2], int errp[2])
{
	int quiet = o->flags & SK_RUN_QUIET;

	posix_spawn_file_actions_init(fa);
	posix_spawn_file_actions_addopen(fa, 0, o->stdin_path ? o->stdin_path :
					 "/dev/null", O_RDONLY, 0);
	if (o->stdout_path)
		posix_spawn_file_actions_addopen(fa, 1, o->stdout_path,
						 O_WRONLY | O_CREAT | O_TRUNC,
						 0644);
	else if (outp[1] >= 0)
		posix_spawn_file_actions_adddup2(fa, outp[1], 1);
	else if (quiet)
		posix_spawn_file_actions_addopen(fa, 1, "/dev/null",
						 O_WRONLY, 0);
	if (o->flags & SK_RUN_MERGE_ERR)
		posix_spawn_file_actions_adddup2(fa, 1, 2);
	else if (o->stderr_path)
		posix_spawn_file_actions_addopen(fa, 2, o->stderr_path,
						 O_WRONLY | O_CREAT | O_TRUNC,
						 0644);
	else if (errp[1] >= 0)
		posix_spawn_file_actions_adddup2(fa, errp[1], 2);
	else if (quiet)
		posix_spawn_file_actions_addopen(fa, 2, "/dev/null",
						 O_WRONLY, 0);
	if (outp[0] >= 0)
		posix_spawn_file_actions_addclose(fa, outp[0]);
	if (errp[0] >= 0)
		posix_spawn_file_actions_addclose(fa, errp[0]);
	if (o->cwd)
		return posix_spawn_file_actions_addchdir_np(fa, o->cwd);
	return 0;
}

static void close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

/*
 * Read the child's pipes until both close or the deadline passes.  A pipe
 * closed here is set to -1 in *outfd / *errfd, so that nobody closes the
 * number again: in a program with threads it may by then be another
 * thread's descriptor.
 */
static int pump(struct sk_run_result *res, int *outfd, int *errfd,
		double deadline)
{
	struct pollfd pfd[2];
	int open_fds = (*outfd >= 0) + (*errfd >= 0);

	while (open_fds) {
		int n = 0, ms = -1, r, i;

		if (*outfd >= 0)
			pfd[n++] = (struct pollfd){ .fd = *outfd, .events = POLLIN };
		if (*errfd >= 0)
			pfd[n++] = (struct pollfd){ .fd = *errfd, .events = POLLIN };
		if (deadline > 0) {
			double left = deadline - sk_now();

			if (left <= 0)
				return -1;
			ms = (int)(left * 1000) + 1;
		}
		r = poll(pfd, (nfds_t)n, ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0)
			return -1;
		for (i = 0; i < n; i++) {
			int is_out = pfd[i].fd == *outfd;

			if (!pfd[i].revents)
				continue;
			if (!drain(pfd[i].fd, is_out ? &res->out : &res->err)) {
				close(pfd[i].fd);
				*(is_out ? outfd : errfd) = -1;
				open_fds--;
			}
		}
	}
	return 0;
}

static int wait_child(pid_t pid, double deadline, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, deadline > 0 ? WNOHANG : 0);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		if (deadline > 0 && sk_now() >= deadline)
			return 1;
		if (deadline > 0)
			usleep(10000);
	}
}

/* Spawn and register the child, or refuse when the process is stopping. */
static int spawn(pid_t *pid, const char *const *argv,
		 posix_spawn_file_actions_t *fa, char **env)
{
	posix_spawnattr_t attr;
	sigset_t none;
	int err;

	sigemptyset(&none);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP |
				 POSIX_SPAWN_SETSIGMASK);
	posix_spawnattr_setpgroup(&attr, 0);
	posix_spawnattr_setsigmask(&attr, &none);
	pthread_mutex_lock(&children_lock);
	if (stopping) {
		pthread_mutex_unlock(&children_lock);
		park();
	}
	err = posix_spawnp(pid, argv[0], fa, &attr, (char *const *)argv, env);
	if (!err)
		*SK_ARRAY_PUSH(children, nr_children, alloc_children) = *pid;
	pthread_mutex_unlock(&children_lock);
	posix_spawnattr_destroy(&attr);
	return err;
}

/* The child is reaped: forget it, and stop here when a signal came. */
static void reaped(pid_t pid)
{
	int stop;

	pthread_mutex_lock(&children_lock);
	forget_child(pid);
	stop = stopping;
	pthread_mutex_unlock(&children_lock);
	if (stop)
		park();
}

static int runnable(const char *file)
{
	struct stat st;

	return !stat(file, &st) && S_ISREG(st.st_mode) && !access(file, X_OK);
}

/* The file posix_spawnp would run for name, or NULL (errno set). */
static char *find_in_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *end;
	char *file;

	errno = ENOENT;
	if (strchr(name, '/'))
		return runnable(name) ? sk_xstrdup(name) : NULL;
	for (p = path ? path : "/usr/bin:/bin"; ; p = end + 1) {
		end = strchrnul(p, ':');
		file = end > p ? sk_xstrfmt("%.*s/%s", (int)(end - p), p, name)
			       : sk_xstrfmt("./%s", name);
		if (runnable(file))
			return file;
		free(file);
		if (!*end)
			break;
	}
	errno = ENOENT;
	return NULL;
}

/*
 * The command that runs the tool: itself, or, with a file size limit,
 * prlimit(1) (util-linux, essential on Debian), which sets the limit on
 * itself and then executes the tool: set after the spawn, the limit came
 * too late for a tool that wrote fast on a busy machine.
 */
static int command(struct sk_argv *cmd, const struct sk_run_opts *o)
{
	char *file;

	if (!o->max_file_bytes) {
		sk_argv_pushv(cmd, o->argv);
		return 0;
	}
	file = find_in_path(o->argv[0]);
	if (!file)
		return sk_error_set(SK_ETOOL, "cannot run '%s': %s",
				    o->argv[0], strerror(errno));
	sk_argv_push(cmd, "prlimit");
	sk_argv_pushf(cmd, "--fsize=%llu", o->max_file_bytes);
	sk_argv_push(cmd, "--");
	sk_argv_pushf(cmd, "%s", file);
	sk_argv_pushv(cmd, o->argv + 1);
	free(file);
	return 0;
}

int sk_run(struct sk_run_result *res, const struct sk_run_opts *o)
{
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	posix_spawn_file_actions_t fa;
	struct sk_argv cmd = SK_ARGV_INIT;
	double start = sk_now(), deadline = 0;
	char **env;
	int status = 0, err, late = 0;
	pid_t pid;

	err = command(&cmd, o);
	if (err) {
		sk_argv_release(&cmd);
		return err;
	}
	env = build_env(o->env);
	if (o->timeout_ms)
		deadline = start + o->timeout_ms / 1000.0;
	if (((o->flags & SK_RUN_CAPTURE_OUT) && !o->stdout_path &&
	     pipe2(outp, O_CLOEXEC)) ||
	    ((o->flags & SK_RUN_CAPTURE_ERR) && !o->stderr_path &&
	     pipe2(errp, O_CLOEXEC))) {
		close_pair(outp);
		free(env);
		sk_argv_release(&cmd);
		return sk_error_errno("pipe");
	}
	setup_actions(&fa, o, outp, errp);
	err = spawn(&pid, cmd.v, &fa, env);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	sk_argv_release(&cmd);
	if (outp[1] >= 0)
		close(outp[1]);
	if (errp[1] >= 0)
		close(errp[1]);
	outp[1] = errp[1] = -1;
	if (err) {
		close_pair(outp);
		close_pair(errp);
		return sk_error_set(SK_ETOOL, "cannot run '%s': %s",
				    o->argv[0], strerror(err));
	}
	if (pump(res, &outp[0], &errp[0], deadline) < 0)
		late = 1;
	if (!late)
		late = wait_child(pid, deadline, &status) == 1;
	if (late) {
		kill(-pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
	}
	/* pump closed what reached its end; the rest is still ours */
	close_pair(outp);
	close_pair(errp);
	reaped(pid);
	res->seconds = sk_now() - start;
	res->timed_out = late;
	if (WIFEXITED(status))
		res->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		res->exit_code = 128 + WTERMSIG(status);
	if (late)
		return sk_error_set(SK_ETIMEOUT, "'%s' ran past its limit of %u s and was killed",
				    o->argv[0], o->timeout_ms / 1000);
	if (o->max_file_bytes && res->exit_code == 128 + SIGXFSZ)
		return sk_error_set(SK_ETOOL, "'%s' wrote a file past the limit "
				    "of %llu bytes and was stopped", o->argv[0],
				    o->max_file_bytes);
	return 0;
}

void sk_run_result_release(struct sk_run_result *res)
{
	sk_strbuf_release(&res->out);
	sk_strbuf_release(&res->err);
}

int sk_run_have(const char *name)
{
	char *file = find_in_path(name);
	int found = file != NULL;

	free(file);
	return found;
}

void sk_argv_push(struct sk_argv *a, const char *arg)
{
	/* one slot more for the NULL that ends it */
	if (a->nr + 1 >= a->alloc) {
		a->alloc = a->alloc ? 2 * a->alloc : 16;
		a->v = sk_xrealloc(a->v, a->alloc * sizeof(*a->v));
	}
	a->v[a->nr++] = arg;
	a->v[a->nr] = NULL;
}

void sk_argv_pushv(struct sk_argv *a, const char *const *args)
{
	while (args && *args)
		sk_argv_push(a, *args++);
}

const char *sk_argv_pushf(struct sk_argv *a, const char *fmt, ...)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	va_list ap;
	char *s;

	va_start(ap, fmt);
	sk_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	s = sk_strbuf_detach(&sb);
	*SK_ARRAY_PUSH(a->owned, a->nr_owned, a->alloc_owned) = s;
	sk_argv_push(a, s);
	return s;
}

void sk_argv_release(struct sk_argv *a)
{
	sk_strvec_free_array(a->owned, a->nr_owned);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

/* Is any process of the group still there (a zombie leader counts)? */
static int group_alive(pid_t pgid)
{
	return kill(-pgid, 0) == 0 || errno == EPERM;
}

static void say(const char *msg)
{
	size_t len = strlen(msg);

	while (len) {
		ssize_t n = write(2, msg, len);

		if (n <= 0)
			break;
		msg += n;
		len -= (size_t)n;
	}
}

/* SIGTERM to every child's group, SIGKILL to what is left after a grace. */
static size_t stop_children(int sig)
{
	pid_t *snap;
	size_t n, i, left;
	int waited;

	pthread_mutex_lock(&children_lock);
	stopping = sig;
	n = nr_children;
	snap = sk_xcalloc(n + 1, sizeof(*snap));
	if (n)
		memcpy(snap, children, n * sizeof(*snap));
	pthread_mutex_unlock(&children_lock);
	for (i = 0; i < n; i++)
		kill(-snap[i], SIGTERM);
	for (waited = 0; waited < grace_ms; waited += 20) {
		for (left = 0, i = 0; i < n; i++)
			left += group_alive(snap[i]);
		if (!left)
			break;
		usleep(20000);
	}
	for (i = 0; i < n; i++)
		if (group_alive(snap[i]))
			kill(-snap[i], SIGKILL);
	free(snap);
	return n;
}

static void *signal_thread(void *arg)
{
	sigset_t *set = arg;
	char msg[256];
	size_t n, removed;
	int sig = 0;

	while (sigwait(set, &sig))
		;
	n = stop_children(sig);
	removed = sk_tempdirs_remove();
	snprintf(msg, sizeof(msg), "fatal: stopped by SIG%s: %zu running tool%s "
		 "stopped, %zu temporary director%s removed\n", sigabbrev_np(sig),
		 n, n == 1 ? "" : "s", removed, removed == 1 ? "y" : "ies");
	say(msg);
	_exit(128 + sig);
	return NULL;
}

int sk_run_signals_init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	static sigset_t set;
	const char *d = getenv("SK_RUN_DEPTH");
	pthread_attr_t attr;
	pthread_t t;
	size_t i;
	int err;

	depth = d && *d >= '1' && *d <= '8' && !d[1] ? *d - '0' : 0;
	grace_ms = SK_RUN_GRACE_MS >> (depth < 3 ? depth : 3);
	snprintf(depth_var, sizeof(depth_var), "SK_RUN_DEPTH=%d", depth + 1);

	sigemptyset(&set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		/* ignored (a background job's SIGINT, nohup): stays ignored */
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaddset(&set, sigs[i]);
	}
	err = pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (err)
		return sk_error_set(SK_ERROR, "signals: %s", strerror(err));
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	err = pthread_create(&t, &attr, signal_thread, &set);
	pthread_attr_destroy(&attr);
	if (err) {
		pthread_sigmask(SIG_UNBLOCK, &set, NULL);
		return sk_error_set(SK_ERROR, "signal thread: %s", strerror(err));
	}
	return 0;
}

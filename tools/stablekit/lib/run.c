#include "run.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char **build_env(const char *const *extra)
{
	size_t n = 0, m = 0, i;
	char **env;

	while (environ[n])
		n++;
	while (extra && extra[m])
		m++;
	env = sk_xcalloc(n + m + 1, sizeof(*env));
	for (i = 0; i < m; i++)
		env[i] = (char *)extra[i];
	for (i = 0; i < n; i++)
		env[m + i] = environ[i];
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

/* Read the child's pipes until both close or the deadline passes. */
static int pump(struct sk_run_result *res, int outfd, int errfd,
		double deadline)
{
	struct pollfd pfd[2];
	int open_fds = (outfd >= 0) + (errfd >= 0);

	while (open_fds) {
		int n = 0, ms = -1, r, i;

		if (outfd >= 0)
			pfd[n++] = (struct pollfd){ .fd = outfd, .events = POLLIN };
		if (errfd >= 0)
			pfd[n++] = (struct pollfd){ .fd = errfd, .events = POLLIN };
		if (deadline > 0) {
			double left = deadline - now();

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
			int is_out = pfd[i].fd == outfd;

			if (!pfd[i].revents)
				continue;
			if (!drain(pfd[i].fd, is_out ? &res->out : &res->err)) {
				close(pfd[i].fd);
				if (is_out)
					outfd = -1;
				else
					errfd = -1;
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
		if (deadline > 0 && now() >= deadline)
			return 1;
		if (deadline > 0)
			usleep(10000);
	}
}

int sk_run(struct sk_run_result *res, const struct sk_run_opts *o)
{
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	double start = now(), deadline = 0;
	char **env = build_env(o->env);
	int status = 0, err, late = 0;
	pid_t pid;

	if (o->timeout_ms)
		deadline = start + o->timeout_ms / 1000.0;
	if (((o->flags & SK_RUN_CAPTURE_OUT) && !o->stdout_path &&
	     pipe2(outp, O_CLOEXEC)) ||
	    ((o->flags & SK_RUN_CAPTURE_ERR) && pipe2(errp, O_CLOEXEC))) {
		close_pair(outp);
		free(env);
		return sk_error_errno("pipe");
	}
	setup_actions(&fa, o, outp, errp);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	err = posix_spawnp(&pid, o->argv[0], &fa, &attr,
			   (char *const *)o->argv, env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	free(env);
	if (outp[1] >= 0)
		close(outp[1]);
	if (errp[1] >= 0)
		close(errp[1]);
	if (err) {
		close_pair(outp);
		close_pair(errp);
		return sk_error_set(SK_ETOOL, "cannot run '%s': %s",
				    o->argv[0], strerror(err));
	}
	if (pump(res, outp[0], errp[0], deadline) < 0)
		late = 1;
	if (!late)
		late = wait_child(pid, deadline, &status) == 1;
	if (late) {
		kill(-pid, SIGKILL);
		waitpid(pid, &status, 0);
		if (outp[0] >= 0)
			close(outp[0]);
		if (errp[0] >= 0)
			close(errp[0]);
	}
	res->seconds = now() - start;
	res->timed_out = late;
	if (WIFEXITED(status))
		res->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		res->exit_code = 128 + WTERMSIG(status);
	if (late)
		return sk_error_set(SK_ETIMEOUT, "'%s' ran past its limit of %u s and was killed",
				    o->argv[0], o->timeout_ms / 1000);
	return 0;
}

void sk_run_result_release(struct sk_run_result *res)
{
	sk_strbuf_release(&res->out);
	sk_strbuf_release(&res->err);
}

int sk_run_have(const char *name)
{
	const char *path = getenv("PATH");
	struct sk_strbuf sb = SK_STRBUF_INIT;
	int found = 0;

	while (path && *path && !found) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);

		sk_strbuf_reset(&sb);
		sk_strbuf_add(&sb, path, len);
		sk_strbuf_addf(&sb, "/%s", name);
		found = access(sb.buf, X_OK) == 0;
		path = colon ? colon + 1 : NULL;
	}
	sk_strbuf_release(&sb);
	return found;
}

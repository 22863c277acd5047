#include "core/fsutil.h"
#include "core/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary directories this process made and has not removed. */
static pthread_mutex_t tempdirs_lock = PTHREAD_MUTEX_INITIALIZER;
static char **tempdirs;
static size_t nr_tempdirs, alloc_tempdirs;

static void tempdir_forget(const char *path)
{
	size_t i;

	pthread_mutex_lock(&tempdirs_lock);
	for (i = 0; i < nr_tempdirs; i++) {
		if (!strcmp(tempdirs[i], path)) {
			free(tempdirs[i]);
			tempdirs[i] = tempdirs[--nr_tempdirs];
			break;
		}
	}
	pthread_mutex_unlock(&tempdirs_lock);
}

int sk_write_file_atomic(const char *path, const void *data, size_t len)
{
	char *tmp = sk_xstrfmt("%s.tmp-XXXXXX", path);
	const char *p = data;
	int fd = mkstemp(tmp), ret = SK_ERROR;

	if (fd < 0) {
		ret = sk_error_errno(path);
		goto out;
	}
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = sk_error_errno(path);
			goto fail;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fchmod(fd, 0644) || fsync(fd)) {
		ret = sk_error_errno(path);
		goto fail;
	}
	if (close(fd)) {
		fd = -1;
		ret = sk_error_errno(path);
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path)) {
		ret = sk_error_errno(path);
		goto fail;
	}
	ret = 0;
	goto out;
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	free(tmp);
	return ret;
}

int sk_read_file(struct sk_strbuf *out, const char *path)
{
	char buf[65536];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errno == ENOENT ?
			sk_error_set(SK_ENOTFOUND, "'%s': no such file", path) :
			sk_error_errno(path);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return sk_error_errno(path);
		}
		sk_strbuf_add(out, buf, (size_t)n);
	}
	close(fd);
	return 0;
}

int sk_copy_file(const char *from, const char *to)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	int err = sk_read_file(&sb, from);

	if (!err)
		err = sk_write_file_atomic(to, sb.buf ? sb.buf : "", sb.len);
	sk_strbuf_release(&sb);
	return err;
}

int sk_mkdir_p(const char *path, int mode)
{
	char *p = sk_xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s)
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(p, (mode_t)mode) && errno != EEXIST) {
			ret = sk_error_errno(p);
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

/* ".<prefix>-<pid>-XXXXXX": the pid, or 0 when name is not one of ours. */
static long tempdir_pid(const char *name, const char *prefix)
{
	size_t len = strlen(prefix);
	char *end;
	long pid;

	if (name[0] != '.' || strncmp(name + 1, prefix, len) ||
	    name[len + 1] != '-' || name[len + 2] < '1' || name[len + 2] > '9')
		return 0;
	pid = strtol(name + len + 2, &end, 10);
	if (*end != '-' || strlen(end + 1) != 6 || pid <= 0)
		return 0;
	return pid;
}

double sk_process_start(long pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ticks = 0, btime = 0;
	FILE *f;
	int field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	p = fgets(buf, sizeof(buf), f);
	fclose(f);
	/* the command name may hold spaces and ')': fields follow the last */
	if (!p || !(p = strrchr(buf, ')')))
		return -1;
	for (field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu", &ticks) != 1)
		return -1;
	f = fopen("/proc/stat", "r");
	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "btime %llu", &btime) == 1)
			break;
	fclose(f);
	if (!btime)
		return -1;
	return (double)btime + (double)ticks / (double)sysconf(_SC_CLK_TCK);
}

/*
 * Does the process named in a temporary directory's name still own it?
 * Alive, and not a later process that reuses the pid: on a busy machine
 * pids wrap within seconds (pid_max 32768).  The owner started before it
 * made the directory, so before its last change; a process that started
 * later is not the owner (a second of slack for boot time's rounding).
 */
static int owner_alive(long pid, const char *path)
{
	struct stat st;
	double start;

	if (kill((pid_t)pid, 0) && errno == ESRCH)
		return 0;
	if (stat(path, &st))
		return 1;
	start = sk_process_start(pid);
	return start < 0 ||
	       start <= (double)st.st_ctim.tv_sec + st.st_ctim.tv_nsec / 1e9 + 1.0;
}

/* The leftovers of dead processes (SIGKILL, power loss) in parent. */
static void remove_stale(const char *parent, const char *prefix)
{
	DIR *d = opendir(parent);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		long pid = tempdir_pid(e->d_name, prefix);
		char *path;

		if (!pid || pid == (long)getpid())
			continue;
		path = sk_path_join(parent, e->d_name);
		if (!owner_alive(pid, path) && sk_is_dir(path) && sk_rmrf(path))
			sk_error_clear();
		free(path);
	}
	if (d)
		closedir(d);
}

int sk_mkdtemp_in(char **out, const char *parent, const char *prefix)
{
	char *tmpl = sk_xstrfmt("%s/.%s-%ld-XXXXXX", parent, prefix,
				(long)getpid());

	if (sk_mkdir_p(parent, 0755) || !mkdtemp(tmpl)) {
		int ret = sk_error_errno(tmpl);

		free(tmpl);
		return ret;
	}
	pthread_mutex_lock(&tempdirs_lock);
	*SK_ARRAY_PUSH(tempdirs, nr_tempdirs, alloc_tempdirs) = sk_xstrdup(tmpl);
	pthread_mutex_unlock(&tempdirs_lock);
	remove_stale(parent, prefix);
	*out = tmpl;
	return 0;
}

const char *sk_tmp_dir(void)
{
	const char *t = getenv("TMPDIR");

	return t && t[0] == '/' ? t : "/tmp";
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

static int rmrf(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : sk_error_errno(path);
	if (nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS))
		return sk_error_errno(path);
	return 0;
}

int sk_rmrf(const char *path)
{
	tempdir_forget(path);
	return rmrf(path);
}

size_t sk_tempdirs_remove(void)
{
	size_t i, n = 0;
	int tries;

	pthread_mutex_lock(&tempdirs_lock);
	for (i = 0; i < nr_tempdirs; i++) {
		if (!sk_path_exists(tempdirs[i]))
			continue;
		n++;
		/* another thread may still be writing into it */
		for (tries = 0; tries < 5 && sk_path_exists(tempdirs[i]); tries++)
			rmrf(tempdirs[i]);
	}
	pthread_mutex_unlock(&tempdirs_lock);
	return n;
}

int sk_project_lock(const char *top)
{
	static int held = -1;
	char *path = sk_path_join(top, SK_PROJECT_LOCK);
	char pid[32] = "";
	int fd, ret = 0;
	ssize_t n;

	if (held >= 0)
		goto out;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = sk_error_errno(path);
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK) {
			n = pread(fd, pid, sizeof(pid) - 1, 0);
			pid[n > 0 ? n : 0] = '\0';
			pid[strcspn(pid, "\n")] = '\0';
			ret = sk_error_set(SK_EEXISTS,
					   "another stablekit%s%s%s holds '%s': "
					   "try again when it has finished",
					   *pid ? " (pid " : "", pid, *pid ? ")" : "",
					   path);
		} else {
			ret = sk_error_errno(path);
		}
		close(fd);
		goto out;
	}
	snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, pid, strlen(pid), 0) < 0) {
		ret = sk_error_errno(path);
		close(fd);
		goto out;
	}
	held = fd;	/* until exit: the kernel drops the lock then */
out:
	free(path);
	return ret;
}

int sk_dir_swap(const char *a, const char *b)
{
	if (!renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE))
		return 0;
	if (errno == EINVAL || errno == ENOSYS)
		return sk_error_set(SK_ERROR, "cannot swap '%s' and '%s' in one step: "
				    "the file system refuses renameat2(RENAME_EXCHANGE) (%s)",
				    a, b, strerror(errno));
	return sk_error_errno(b);
}

int sk_path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int sk_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *sk_path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (*b == '/')
		b++;
	return sk_xstrfmt("%.*s/%s", (int)la, a, b);
}

const char *sk_path_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

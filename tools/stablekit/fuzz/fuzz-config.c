/*
 * The git-config readers: the input is written once, as a series.conf, and
 * read with the library's loaders, as series.conf and as branches.conf.  Invariant for
 * series.conf: what loads, saves (every key it accepts can be written);
 * and what we save loads back and saves to the same text (the confwriter
 * round trip).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <git2.h>

#include "project/branches.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "mail/series.h"
#include "core/strbuf.h"

static char *dir_a, *dir_b, *conf_a, *conf_b;

static void cleanup(void)
{
	sk_rmrf(dir_a);
}

static void setup(void)
{
	char shm[] = "/dev/shm/sk-fuzz-config-XXXXXX";
	char tmp[] = "/tmp/sk-fuzz-config-XXXXXX";
	char *tmpl = access("/dev/shm", W_OK) ? tmp : shm;

	if (!mkdtemp(tmpl))
		abort();
	dir_a = sk_xstrdup(tmpl);
	dir_b = sk_path_join(dir_a, "b");
	if (sk_mkdir_p(dir_b, 0700))
		abort();
	conf_a = sk_path_join(dir_a, "series.conf");
	conf_b = sk_path_join(dir_b, "series.conf");
	atexit(cleanup);
	git_libgit2_init();
}

static void save_to(struct sk_series *s, const char *dir)
{
	free(s->dir);
	s->dir = sk_xstrdup(dir);
}

static void round_trip(struct sk_series *s)
{
	struct sk_strbuf one = SK_STRBUF_INIT, two = SK_STRBUF_INIT;
	struct sk_series *back = NULL;

	save_to(s, dir_b);
	if (sk_series_save(s) || sk_read_file(&one, conf_b) ||
	    sk_series_load_dir(&back, dir_b))
		abort();
	if (sk_series_save(back) || sk_read_file(&two, conf_b))
		abort();
	if (strcmp(one.buf, two.buf))
		abort();
	sk_series_free(back);
	sk_strbuf_release(&one);
	sk_strbuf_release(&two);
}

/* The input, as it is: a plain write (the harness's, not the code under test). */
static void write_input(const uint8_t *data, size_t size)
{
	int fd = open(conf_a, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) ||
	    close(fd))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sk_series *s = NULL;
	struct sk_branches b = { 0 };

	if (!dir_a)
		setup();
	write_input(data, size);
	if (!sk_series_load_dir(&s, dir_a))
		round_trip(s);
	sk_series_free(s);
	sk_branches_load(&b, conf_a);
	sk_branches_release(&b);
	return 0;
}

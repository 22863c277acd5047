/*
 * Replays files through a libFuzzer harness without libFuzzer: a main()
 * that feeds every regular file of the directories given (a missing one is
 * no input) to LLVMFuzzerTestOneInput, in name order.  gcc builds it, so
 * `make check` replays every seed and reproducer in the plain and the
 * ASan+UBSan build.  A harness that finds a broken invariant aborts.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_all(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t alloc = 0, n = 0, r;

	if (!f)
		return -1;
	do {
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 4096;
			buf = realloc(buf, alloc);
			if (!buf)
				abort();
		}
		r = fread(buf + n, 1, alloc - n, f);
		n += r;
	} while (r);
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	/* exactly len bytes, as libFuzzer gives them: over-reads show */
	*out = realloc(buf, n ? n : 1);
	*len = n;
	return 0;
}

static int replay_dir(const char *dir, size_t *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t nr = 0, i;
	int ret = 0;

	if (!d)
		return errno == ENOENT ? 0 : (perror(dir), -1);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (nr + 1) * sizeof(*names));
		if (!names || asprintf(&names[nr], "%s/%s", dir, e->d_name) < 0)
			abort();
		nr++;
	}
	closedir(d);
	if (nr > 1)
		qsort(names, nr, sizeof(*names), cmp_names);
	for (i = 0; i < nr; i++) {
		struct stat st;
		uint8_t *data;
		size_t len;

		if (stat(names[i], &st) || !S_ISREG(st.st_mode))
			continue;
		if (read_all(names[i], &data, &len)) {
			perror(names[i]);
			ret = -1;
			continue;
		}
		LLVMFuzzerTestOneInput(data, len);
		free(data);
		(*count)++;
	}
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	int i, ret = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s <dir>...\n", argv[0]);
		return 129;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++)
		if (replay_dir(argv[i], &count))
			ret = 1;
	if (!count) {
		fprintf(stderr, "%s: no input in", argv[0]);
		for (i = 1; i < argc; i++)
			fprintf(stderr, " %s", argv[i]);
		fprintf(stderr, "\n");
		return 1;
	}
	printf("%s: %zu inputs replayed\n", argv[0], count);
	return ret;
}

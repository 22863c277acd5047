#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "core/error.h"
#include "core/fsutil.h"
#include "gate/guestland.h"

static void test_check_elf(void **state)
{
	(void)state;
	assert_int_equal(sk_guestland_check_elf("/bin/sh", "x86_64"), 0);
	assert_int_equal(sk_guestland_check_elf("/bin/sh", "arm64"), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "machine 62 (64-bit), not arm64"));
	assert_int_equal(sk_guestland_check_elf("/etc/passwd", "x86_64"), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "not an ELF file"));
	assert_int_equal(sk_guestland_check_elf("/bin/sh", "sparc"), SK_EINVALID);
}

/* Debian's busybox-static of each arch, without touching dpkg's arches. */
static void fetch_one(const char *work, const char *arch)
{
	struct stat before, after;
	char *path, *again;

	assert_int_equal(sk_guestland_busybox(&path, work, arch), 0);
	assert_int_equal(sk_guestland_check_elf(path, arch), 0);
	assert_int_equal(stat(path, &before), 0);
	assert_true(before.st_mode & S_IXUSR);
	/* the second call takes the cached file */
	assert_int_equal(sk_guestland_busybox(&again, work, arch), 0);
	assert_string_equal(path, again);
	assert_int_equal(stat(again, &after), 0);
	assert_int_equal(before.st_ino, after.st_ino);
	free(again);
	free(path);
}

static void test_fetch_arm64_and_i386(void **state)
{
	char tmpl[] = "/tmp/sk-guestland-XXXXXX";
	char *work = mkdtemp(tmpl), *guest;

	(void)state;
	assert_non_null(work);
	fetch_one(work, "arm64");
	fetch_one(work, "i386");
	/* nothing left behind but the two binaries */
	guest = sk_path_join(work, "guest");
	{
		char *a = sk_path_join(guest, "busybox-arm64");
		char *b = sk_path_join(guest, "busybox-i386");

		DIR *d = opendir(guest);
		struct dirent *e;
		int entries = 0;

		assert_true(sk_path_exists(a) && sk_path_exists(b));
		while (d && (e = readdir(d)))
			entries += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
		closedir(d);
		assert_int_equal(entries, 2);
		free(a);
		free(b);
	}
	free(guest);
	sk_rmrf(work);
}

static void test_sources_one_suite(void **state)
{
	const char *system =
		"Types: deb\n"
		"# http://snapshot.debian.org/archive/debian/20250520T000000Z\n"
		"URIs: http://mirror.example/debian\n"
		"Suites: bookworm bookworm-updates\n"
		"Components: main\n"
		"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n"
		"\n"
		"Types: deb\n"
		"URIs: http://mirror.example/debian-security\n"
		"Suites: bookworm-security\n"
		"Components: main\n";
	char *s;

	(void)state;
	s = sk_guestland_sources(system);
	assert_string_equal(s, "Types: deb\nURIs: http://mirror.example/debian\n"
			    "Suites: bookworm\nComponents: main\n"
			    "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n");
	assert_null(strstr(s, "security"));
	free(s);
	s = sk_guestland_sources(NULL);
	assert_non_null(strstr(s, "URIs: http://deb.debian.org/debian\n"));
	assert_non_null(strstr(s, "Suites: bookworm\n"));
	free(s);
}

static void test_unknown_arch(void **state)
{
	char *path = (char *)"x";

	(void)state;
	assert_int_equal(sk_guestland_busybox(&path, "/tmp", "riscv"), SK_EINVALID);
	assert_null(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_elf),
		cmocka_unit_test(test_sources_one_suite),
		cmocka_unit_test(test_unknown_arch),
		cmocka_unit_test(test_fetch_arm64_and_i386),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/error.h"
#include "build/kbuild.h"
#include "build/build.h"
#include "core/strvec.h"

static const char *const strip[] = { "/w/src/", "/w/x86_64-objects-patched/", NULL };

static const char base_log[] =
	"  CC      mm/vmscan.o\n"
	"/w/src/mm/vmscan.c: In function 'shrink_node':\n"
	"/w/src/mm/vmscan.c:100:7: warning: unused variable 'a' [-Wunused-variable]\n"
	"  100 |   int a;\n"
	"      |       ^\n"
	"/w/src/mm/vmscan.c: At top level:\n"
	"/w/src/mm/vmscan.c:200:13: warning: 'f' defined but not used [-Wunused-function]\n";

/* The patch added three lines above: old warnings move, one is new. */
static const char patched_log[] =
	"  CC      mm/vmscan.o\n"
	"In file included from /w/src/include/linux/mm.h:5,\n"
	"                 from /w/src/mm/vmscan.c:3:\n"
	"/w/src/mm/vmscan.c: In function \xe2\x80\x98shrink_node\xe2\x80\x99:\n"
	"/w/src/mm/vmscan.c:103:7: warning: unused variable \xe2\x80\x98" "a\xe2\x80\x99 [-Wunused-variable]\n"
	"/w/src/mm/vmscan.c:104:7: warning: unused variable 'b' [-Wunused-variable]\n"
	"/w/src/mm/vmscan.c:104:7: warning: unused variable 'b' [-Wunused-variable]\n"
	"/w/src/mm/vmscan.c: At top level:\n"
	"/w/src/mm/vmscan.c:203:13: warning: 'f' defined but not used [-Wunused-function]\n"
	"./include/generated/x.h:1:2: error: #error boom\n"
	"/w/x86_64-objects-patched/arch/x86/include/generated/y.h:9: warning: no column\n"
	"make[3]: *** [scripts/Makefile.build:229: mm/vmscan.o] Error 1\n";

static void test_parse_log(void **state)
{
	struct sk_kbuild_diags d;

	(void)state;
	assert_int_equal(sk_kbuild_parse_log(&d, patched_log, strip), 0);
	assert_int_equal(d.nr, 5);	/* the repeated line counted once */
	assert_string_equal(d.items[0].file, "mm/vmscan.c");
	assert_int_equal(d.items[0].line, 103);
	assert_int_equal(d.items[0].column, 7);
	assert_string_equal(d.items[0].function, "shrink_node");
	assert_string_equal(d.items[0].severity, "warning");
	assert_string_equal(d.items[0].message,
			    "unused variable 'a' [-Wunused-variable]");
	assert_null(d.items[2].function);	/* at top level */
	assert_string_equal(d.items[3].file, "include/generated/x.h");
	assert_string_equal(d.items[3].severity, "error");
	assert_string_equal(d.items[4].file, "arch/x86/include/generated/y.h");
	assert_int_equal(d.items[4].column, 0);
	assert_int_equal(sk_kbuild_count(&d, "warning"), 4);
	assert_int_equal(sk_kbuild_count(&d, "error"), 1);
	sk_kbuild_diags_release(&d);
}

static void test_new_warnings_ignore_line_shift(void **state)
{
	struct sk_kbuild_diags b, p, n;

	(void)state;
	sk_kbuild_parse_log(&b, base_log, strip);
	sk_kbuild_parse_log(&p, patched_log, strip);
	assert_int_equal(sk_kbuild_new_warnings(&n, &b, &p), 0);
	assert_int_equal(n.nr, 2);
	assert_string_equal(n.items[0].message,
			    "unused variable 'b' [-Wunused-variable]");
	assert_int_equal(n.items[0].line, 104);
	assert_string_equal(n.items[0].function, "shrink_node");
	assert_string_equal(n.items[1].message, "no column");
	sk_kbuild_diags_release(&n);
	/* nothing is new against itself */
	sk_kbuild_new_warnings(&n, &p, &p);
	assert_int_equal(n.nr, 0);
	sk_kbuild_diags_release(&n);
	sk_kbuild_diags_release(&b);
	sk_kbuild_diags_release(&p);
}

static void test_new_warnings_count_repeats(void **state)
{
	static const char one[] =
		"/w/src/a.c:1:1: warning: x [-Wfoo]\n";
	static const char two[] =
		"/w/src/a.c:1:1: warning: x [-Wfoo]\n"
		"/w/src/a.c:9:1: warning: x [-Wfoo]\n";
	struct sk_kbuild_diags b, p, n;

	(void)state;
	sk_kbuild_parse_log(&b, one, strip);
	sk_kbuild_parse_log(&p, two, strip);
	sk_kbuild_new_warnings(&n, &b, &p);
	assert_int_equal(n.nr, 1);
	assert_int_equal(n.items[0].line, 9);
	sk_kbuild_diags_release(&n);
	sk_kbuild_diags_release(&b);
	sk_kbuild_diags_release(&p);
}

static void test_allowlist(void **state)
{
	static const char text[] =
		"# comment\n"
		"\n"
		"i386 mm/*.c *comparison is always false*\n"
		"*    include/* unused variable 'x' [-Wunused-variable]\n";
	struct sk_kbuild_allowlist a;
	struct sk_kbuild_diag d = { "mm/vmscan.c", 3, 1, NULL, "warning",
				    "comparison is always false due to range [-Wtype-limits]" };

	(void)state;
	assert_int_equal(sk_kbuild_allowlist_parse(&a, text, "allow"), 0);
	assert_int_equal(a.nr, 2);
	assert_int_equal(a.items[0].lineno, 3);
	assert_true(sk_kbuild_allowed(&a, "i386", &d));
	assert_false(sk_kbuild_allowed(&a, "x86_64", &d));
	d.file = "include/linux/mm.h";
	d.message = "unused variable 'x' [-Wunused-variable]";
	assert_true(sk_kbuild_allowed(&a, "arm64", &d));
	sk_kbuild_allowlist_release(&a);

	assert_true(sk_kbuild_glob("*[-Wfoo]", "text [-Wfoo]"));
	assert_false(sk_kbuild_glob("*[-Wfoo]", "text f"));
	assert_true(sk_kbuild_glob("mm/*", "mm/sub/x.c"));
	assert_true(sk_kbuild_glob("a*b*c", "aXbYbZc"));
	assert_false(sk_kbuild_glob("a*b*c", "aXbYbZ"));

	assert_int_equal(sk_kbuild_allowlist_parse(&a, "i386 only-two\n", "ci/x"),
			 SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "ci/x:1:"));
}

static const char patch[] =
	"From: A <a@example.org>\n"
	"Subject: [PATCH] x\n"
	"\n"
	"---\n"
	" mm/vmscan.c | 1 +\n"
	"--- a/mm/vmscan.c\t2024-01-01\n"
	"+++ b/mm/vmscan.c\t2024-01-01\n"
	"@@ -1 +1 @@\n"
	"-- a removed line that starts with dashes\n"
	"+++ an added line\n"
	"--- a/arch/x86/mm/fault.c\n"
	"+++ b/arch/x86/mm/fault.c\n"
	"--- a/arch/arm64/mm/fault.c\n"
	"+++ b/arch/arm64/mm/fault.c\n"
	"--- /dev/null\n"
	"+++ b/mm/new.c\n"
	"--- a/include/linux/mm.h\n"
	"+++ b/include/linux/mm.h\n"
	"--- a/scripts/foo.c\n"
	"+++ b/scripts/foo.c\n"
	"--- a/arch/x86/entry/entry_64.S\n"
	"+++ b/arch/x86/entry/entry_64.S\n";

static void test_patch_files_and_objects(void **state)
{
	char **files = NULL, **objs = NULL;
	size_t nr = 0, alloc = 0, nobj = 0, aobj = 0;

	(void)state;
	assert_int_equal(sk_kbuild_patch_files(&files, &nr, &alloc, patch, "q.patch"), 0);
	assert_int_equal(nr, 7);
	assert_string_equal(files[0], "mm/vmscan.c");
	assert_string_equal(files[3], "mm/new.c");
	sk_kbuild_objects(&objs, &nobj, &aobj, sk_arch_find("i386"),
			  files, nr);
	assert_int_equal(nobj, 4);
	assert_string_equal(objs[0], "mm/vmscan.o");
	assert_string_equal(objs[1], "arch/x86/mm/fault.o");
	assert_string_equal(objs[2], "mm/new.o");
	assert_string_equal(objs[3], "arch/x86/entry/entry_64.o");
	sk_strvec_free_array(objs, nobj);
	objs = NULL;
	nobj = aobj = 0;
	sk_kbuild_objects(&objs, &nobj, &aobj, sk_arch_find("arm64"),
			  files, nr);
	assert_int_equal(nobj, 3);
	assert_string_equal(objs[1], "arch/arm64/mm/fault.o");
	sk_strvec_free_array(objs, nobj);
	sk_strvec_free_array(files, nr);
}

static void test_arches_and_modes(void **state)
{
	enum sk_build_mode m;

	(void)state;
	assert_string_equal(sk_arch_find("arm64")->cross, "aarch64-linux-gnu-");
	assert_string_equal(sk_arch_find("i386")->image_path,
			    "arch/x86/boot/bzImage");
	assert_null(sk_arch_find("riscv"));
	assert_int_equal(sk_build_mode_parse(&m, "kernel"), 0);
	assert_int_equal(m, SK_BUILD_KERNEL);
	assert_int_equal(sk_build_mode_parse(&m, "modules"), SK_EINVALID);
}

static void test_check_path(void **state)
{
	(void)state;
	assert_int_equal(sk_kbuild_check_path("/work/build/linux-6.12.y"), 0);
	assert_int_equal(sk_kbuild_check_path("/tmp/trash directory.t7000/x"),
			 SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "'/tmp/trash directory.t7000/x'"));
	assert_int_equal(sk_kbuild_check_path("/a\tb"), SK_EINVALID);
}

static void test_metadata(void **state)
{
	struct sk_build job = { 0 };
	struct sk_build_archres ar = { 0 };
	struct sk_build_variant *v = &ar.patched;
	struct sk_kbuild_target t = { "objects", "pass", 1.5 };
	char *patches[] = { "a.patch" };
	json_t *m;

	(void)state;
	job.branch = "linux-6.12.y";
	job.mode = "objects";
	job.describe = "v6.12.117";
	job.kconfig_base = "defconfig";
	memcpy(job.tip, "0123456789012345678901234567890123456789", 41);
	job.patches = patches;
	job.nr_patches = 1;
	job.jobs_per_make = 1;
	ar.arch = sk_arch_find("i386");
	ar.cross = "i686-linux-gnu-";
	ar.cc = "i686-linux-gnu-gcc";
	v->name = "patched";
	v->status = "pass";
	v->targets = &t;
	v->nr_targets = 1;
	v->reproducer = "export KBUILD_BUILD_USER=stablekit; make";
	sk_kbuild_parse_log(&v->diags, patched_log, strip);
	m = sk_build_variant_metadata(&job, &ar, v);
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(m, "build"), "target_arch")), "i386");
	assert_int_equal(json_integer_value(json_object_get(
		json_object_get(m, "results"), "warnings_count")), 4);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
		json_object_get(json_object_get(m, "results"), "targets"),
		"objects"), "status")), "pass");
	assert_string_equal(json_string_value(json_object_get(
		json_object_get(m, "source"), "git_describe")), "v6.12.117");
	assert_int_equal(json_array_size(json_object_get(
		json_object_get(m, "source"), "queue")), 1);
	assert_null(json_string_value(json_object_get(
		json_object_get(m, "compiler"), "version_full")));
	json_decref(m);
	sk_kbuild_diags_release(&v->diags);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_log),
		cmocka_unit_test(test_new_warnings_ignore_line_shift),
		cmocka_unit_test(test_new_warnings_count_repeats),
		cmocka_unit_test(test_allowlist),
		cmocka_unit_test(test_patch_files_and_objects),
		cmocka_unit_test(test_arches_and_modes),
		cmocka_unit_test(test_check_path),
		cmocka_unit_test(test_metadata),
	};

	return cmocka_run_group_tests_name("kbuild", tests, NULL, NULL);
}

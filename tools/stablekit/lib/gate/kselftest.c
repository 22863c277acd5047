#include "gate/kselftest.h"
#include "gate/kselftest-results.h"
#include "build/kbuild.h"
#include "core/arch.h"
#include "core/error.h"
#include "core/json.h"
#include "core/results.h"
#include "core/fsutil.h"
#include "core/run.h"
#include "core/strbuf.h"
#include "core/strvec.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *const cgroup_tests[] = {
	"test_memcontrol", "test_kmem", "test_core", NULL
};
static const char *const cgroup_extra[] = { "cgroup_util.c", NULL };
static const char *const mm_tests[] = {
	"map_populate", "mrelease_test", "madv_populate", NULL
};
static const char *const mm_extra[] = { "vm_util.c", NULL };

static const struct sk_kselftest_suite suites[] = {
	{ "cgroup", cgroup_tests, cgroup_extra, "-O0" },
	{ "mm", mm_tests, mm_extra, "-O2" },
};

const struct sk_kselftest_suite *sk_kselftest_suite(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		if (!strcmp(suites[i].dir, name))
			return &suites[i];
	return NULL;
}

static void push_cc(struct sk_argv *argv, const char *arch)
{
	if (!arch || !strcmp(arch, "x86_64")) {
		sk_argv_push(argv, "gcc");
	} else if (!strcmp(arch, "i386")) {
		/* Debian's cross libc: gcc -m32 would need gcc-multilib */
		sk_argv_push(argv, "i686-linux-gnu-gcc");
	} else {
		sk_argv_push(argv, "aarch64-linux-gnu-gcc");
	}
}

static char *first_error(const char *text)
{
	const char *p = strstr(text, "error");
	const char *start, *end;

	if (!p)
		p = text;
	start = p;
	while (start > text && start[-1] != '\n')
		start--;
	end = strchr(p, '\n');
	return sk_xstrndup(start, end ? (size_t)(end - start) : strlen(start));
}

/*
 * The branch's own uapi headers for arch, as the kselftests want them
 * (KHDR_INCLUDES): "make headers" into <dir>/hdr-obj/usr/include, once
 * (headers_install would need rsync).
 */
static int install_headers(const char *src, const char *arch, const char *dir)
{
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	char *probe = sk_xstrfmt("%s/hdr-obj/usr/include/linux/types.h", dir);
	char *obj = sk_xstrfmt("O=%s/hdr-obj", dir);
	char *karch = sk_xstrfmt("ARCH=%s", arch ? arch : "x86_64");
	const char *argv[] = { "make", "-s", "-C", src, obj, karch,
			       "headers", NULL };
	int err = 0;

	/* O=/a b/hdr-obj would build where the gate's other side does */
	if (sk_kbuild_check_path(dir) || sk_kbuild_check_path(src))
		err = sk_error_prefix(SK_EINVALID, "make headers");
	if (!err && !sk_path_exists(probe)) {
		ro.argv = argv;
		ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_MERGE_ERR;
		ro.timeout_ms = 600 * 1000;
		err = sk_run(&res, &ro);
		if (!err && res.exit_code)
			err = sk_error_set(SK_ETOOL, "make headers: %.300s",
					   res.out.buf);
	}
	sk_run_result_release(&res);
	free(probe);
	free(obj);
	free(karch);
	return err;
}

void sk_kselftest_suite_args(struct sk_strvec *out, const char *tdir,
			     const struct sk_kselftest_suite *suite)
{
	const char *const *x;
	char *inc = sk_xstrfmt("%s/lib/include", tdir);

	if (sk_is_dir(inc)) {
		char *flag = sk_xstrfmt("-I%s", inc);

		sk_strvec_push(out, flag);
		free(flag);
	}
	for (x = suite->extra; *x; x++) {
		char *here = sk_xstrfmt("%s/%s", tdir, *x);
		char *lib = sk_xstrfmt("lib/%s", *x);
		char *in_lib = sk_xstrfmt("%s/%s", tdir, lib);

		sk_strvec_push(out, !sk_path_exists(here) &&
			       sk_path_exists(in_lib) ? lib : *x);
		free(here);
		free(lib);
		free(in_lib);
	}
	free(inc);
}

static int build_suite(struct sk_strvec *out, struct sk_strvec *skipped,
		       const struct sk_kselftest_suite *suite,
		       const char *src, const char *arch,
		       const char *outdir);

int sk_kselftest_build(struct sk_strvec *out, struct sk_strvec *skipped,
		       const struct sk_kselftest_suite *suite,
		       const char *src, const char *arch,
		       const char *outdir)
{
	char *abs_src = NULL, *abs_out = NULL;
	int err;

	/* the compiler runs in the suite's directory: absolute paths only */
	err = sk_mkdir_p(outdir, 0755);
	if (!err) {
		abs_src = realpath(src, NULL);
		abs_out = realpath(outdir, NULL);
		if (!abs_src || !abs_out)
			err = sk_error_set(SK_ENOTFOUND, "%s: %s",
					   abs_src ? outdir : src, strerror(errno));
	}
	if (!err)
		err = build_suite(out, skipped, suite, abs_src, arch, abs_out);
	free(abs_src);
	free(abs_out);
	return err;
}

static int build_suite(struct sk_strvec *out, struct sk_strvec *skipped,
		       const struct sk_kselftest_suite *suite,
		       const char *src, const char *arch,
		       const char *outdir)
{
	char *sdir = sk_xstrfmt("%s/tools/testing/selftests", src);
	char *tdir = sk_xstrfmt("%s/%s", sdir, suite->dir);
	char *inc = sk_xstrfmt("-I%s", sdir);
	char *hdrdir = sk_xstrfmt("%s/..", outdir);
	char *khdr = sk_xstrfmt("%s/hdr-obj/usr/include", hdrdir);
	char *linebuf = sk_xstrfmt("%s/sk_linebuf.c", hdrdir);
	static const char linebuf_c[] =
		"#include <stdio.h>\n"
		"__attribute__((constructor)) static void sk_linebuf(void)\n"
		"{\n\tsetvbuf(stdout, NULL, _IOLBF, 0);\n}\n";
	const char *const *t;
	struct sk_strvec extra = { 0 };
	size_t i;
	int err = sk_mkdir_p(outdir, 0755);

	sk_kselftest_suite_args(&extra, tdir, suite);

	if (!err)
		err = install_headers(src, arch, hdrdir);
	/*
	 * Line-buffered stdout even into the runner's pipe: the tests fork,
	 * and a child would print its parent's unflushed buffer again
	 * (kselftest's runner uses stdbuf -oL, which busybox lacks).
	 */
	if (!err)
		err = sk_write_file_atomic(linebuf, linebuf_c, strlen(linebuf_c));

	for (t = suite->tests; *t && !err; t++) {
		struct sk_run_result res = SK_RUN_RESULT_INIT;
		struct sk_run_opts ro = { 0 };
		struct sk_argv argv = SK_ARGV_INIT;
		char *bin = sk_xstrfmt("%s/%s", outdir, *t);
		char *csrc = sk_xstrfmt("%s.c", *t);

		push_cc(&argv, arch);
		sk_argv_pushv(&argv, (const char *const[]){ "-static",
			      suite->optimize,
			      "-D_GNU_SOURCE=",	/* as kselftest's lib.mk */
			      "-pthread", "-w", inc, "-isystem", khdr, "-o",
			      bin, csrc, NULL });
		for (i = 0; i < extra.nr; i++)
			sk_argv_push(&argv, extra.items[i]);
		sk_argv_push(&argv, linebuf);
		ro.argv = argv.v;
		ro.cwd = tdir;
		ro.timeout_ms = 300 * 1000;
		ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_MERGE_ERR;
		err = sk_run(&res, &ro);
		if (!err && !res.exit_code) {
			*SK_ARRAY_PUSH(out->items, out->nr, out->alloc) = bin;
			bin = NULL;
		} else if (err != SK_ETOOL) {
			char *why = first_error(res.out.buf);

			*SK_ARRAY_PUSH(skipped->items, skipped->nr,
				       skipped->alloc) =
				sk_xstrfmt("%s/%s: %s", suite->dir, *t,
					   err ? sk_error_last() : why);
			free(why);
			err = 0;
		}
		sk_run_result_release(&res);
		sk_argv_release(&argv);
		free(bin);
		free(csrc);
	}
	sk_strvec_clear(&extra);
	free(sdir);
	free(tdir);
	free(inc);
	free(hdrdir);
	free(khdr);
	free(linebuf);
	return err;
}

char *sk_kselftest_suite_of(const char *bin, const char *dflt)
{
	const char *slash = strrchr(bin, '/'), *start;

	if (!slash || slash == bin)
		return sk_xstrdup(dflt);
	for (start = slash; start > bin && start[-1] != '/'; start--)
		;
	if (start == slash)
		return sk_xstrdup(dflt);
	return sk_xstrndup(start, (size_t)(slash - start));
}

char *sk_kselftest_job(const char *dir, const struct sk_strvec *bins,
		       unsigned int timeout_s, unsigned int retries)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;

	sk_strbuf_addf(&sb,
		"#!/bin/sh\n"
		"# generated by stablekit: the kselftest runner's output\n"
		"if [ \"$1\" != chrooted ]; then\n"
		"\tif [ -e /sys/block/zram0/disksize ]; then\n"
		"\t\techo 512M >/sys/block/zram0/disksize &&\n"
		"\t\tmkswap /dev/zram0 >/dev/null && swapon /dev/zram0\n"
		"\tfi\n"
		"\t# the tests' root: ext2 on a second zram device.  Their page\n"
		"\t# cache (reading a hole allocates page cache there; on tmpfs it\n"
		"\t# maps the zero page) and test_kmem_basic's negative dentries\n"
		"\t# (tmpfs frees them at once) want a disk file system.\n"
		"\tr=/mnt/ks\n"
		"\tz=$(cat /sys/class/zram-control/hot_add 2>/dev/null)\n"
		"\tif [ -n \"$z\" ] && echo 512M >/sys/block/zram$z/disksize &&\n"
		"\t   mke2fs -q /dev/zram$z >/dev/null 2>&1 && mkdir -p $r &&\n"
		"\t   mount -t ext2 /dev/zram$z $r &&\n"
		"\t   mkdir -p $r/bin $r/proc $r/sys $r/dev $r/tmp $r/run &&\n"
		"\t   cp -a /stablekit $r/ && cp /bin/busybox $r/bin/ &&\n"
		"\t   mount -t proc proc $r/proc && mount -t sysfs sysfs $r/sys &&\n"
		"\t   mount -t devtmpfs devtmpfs $r/dev &&\n"
		"\t   mount -t cgroup2 none $r/sys/fs/cgroup &&\n"
		"\t   chroot $r /bin/busybox --install -s /bin; then\n"
		"\t\techo \"# root on ext2 (/dev/zram$z)\"\n"
		"\t\tchroot $r /bin/sh /stablekit/job chrooted\n"
		"\t\texit $?\n"
		"\tfi\n"
		"\techo \"# root on tmpfs: no ext2 on zram\"\n"
		"\tcd /tmp\n"
		"fi\n"
		"n=0\n"
		"run() {\n"
		"\tn=$((n + 1))\n"
		"\techo \"# timeout set to %u\"\n"
		"\techo \"# selftests: $3: $2\"\n"
		"\t(timeout -s KILL %u /stablekit/$1 2>&1; echo $? >/run/rc) |"
		" sed 's/^/# /'\n"
		"\trc=$(cat /run/rc)\n"
		"\tcase $rc in\n"
		"\t0) echo \"ok $n selftests: $3: $2\" ;;\n"
		"\t4) echo \"ok $n selftests: $3: $2 # SKIP\"; rc=0 ;;\n"
		"\t124|137) echo \"not ok $n selftests: $3: $2 # TIMEOUT %u seconds\" ;;\n"
		"\t*) echo \"not ok $n selftests: $3: $2 # exit=$rc\" ;;\n"
		"\tesac\n"
		"\treturn $rc\n"
		"}\n"
		"echo 'TAP version 13'\n",
		timeout_s, timeout_s, timeout_s);
	for (i = 0; i < bins->nr; i++) {
		const char *b = sk_path_basename(bins->items[i]);
		char *suite = sk_kselftest_suite_of(bins->items[i], dir);
		unsigned int r;

		sk_strbuf_addf(&sb, "run %s %s %s", b, b, suite);
		for (r = 1; r <= retries; r++)
			sk_strbuf_addf(&sb, " ||\n\trun %s %s-retry%u %s", b, b,
				       r, suite);
		free(suite);
		sk_strbuf_addch(&sb, '\n');
	}
	sk_strbuf_adds(&sb, "echo \"1..$n\"\nexit 0\n");
	return sk_strbuf_detach(&sb);
}

/* "cgroup/test_x-retry2/sub": the original's name, or NULL. */
static char *retry_of(const char *name, unsigned int *nr)
{
	const char *p = strstr(name, "-retry");
	const char *q;

	if (!p)
		return NULL;
	q = p + strlen("-retry");
	*nr = (unsigned int)strtoul(q, NULL, 10);
	while (*q >= '0' && *q <= '9')
		q++;
	if (q == p + strlen("-retry") || (*q && *q != '/'))
		return NULL;
	return sk_xstrfmt("%.*s%s", (int)(p - name), name, q);
}

json_t *sk_kselftest_results(const struct sk_ktap *k)
{
	json_t *arr = json_array(), *index = json_object();
	size_t i;

	for (i = 0; i < k->nr; i++) {
		const struct sk_ktap_test *t = &k->tests[i];
		unsigned int nr;
		char *orig = retry_of(t->name, &nr);
		json_t *o;

		if (orig) {
			free(orig);
			continue;
		}
		o = json_pack("{s:o, s:s, s:o}", "name", sk_json_string(t->name),
			      "status", sk_ktap_status_name(t->status),
			      "reason", sk_json_string(t->reason));
		json_object_set_new(index, t->name,
				    json_integer((json_int_t)json_array_size(arr)));
		json_array_append_new(arr, o);
	}
	for (i = 0; i < k->nr; i++) {
		const struct sk_ktap_test *t = &k->tests[i];
		unsigned int nr = 0;
		char *orig = retry_of(t->name, &nr);
		json_t *idx, *o;
		const char *st;

		if (!orig)
			continue;
		idx = json_object_get(index, orig);
		free(orig);
		if (!idx)
			continue;
		o = json_array_get(arr, (size_t)json_integer_value(idx));
		st = json_string_value(json_object_get(o, "status"));
		if (strcmp(st, "fail") && strcmp(st, "timeout") &&
		    strcmp(st, "missing"))
			continue;
		if (t->status == SK_KTAP_PASS) {
			json_object_set_new(o, "status", json_string("flaky"));
			json_object_set_new(o, "reason", json_sprintf(
				"failed, then passed on retry %u", nr));
		} else {
			json_object_set_new(o, "retries", json_integer(nr));
		}
	}
	json_decref(index);
	return arr;
}


int sk_kselftest_failed(const char *st)
{
	return st && (!strcmp(st, "fail") || !strcmp(st, "timeout") ||
		      !strcmp(st, "missing"));
}

/* A unit after a number: "MB" of "2MB" or "2 MB", not "MBx". */
static size_t size_unit(const char *p)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "kB", "KB",
					     "MB", "GB", "B", NULL };
	const char *const *u;
	size_t n;

	for (u = units; *u; u++) {
		n = strlen(*u);
		if (!strncmp(p, *u, n) && !isalnum((unsigned char)p[n]) &&
		    p[n] != '_')
			return n;
	}
	return 0;
}

/*
 * The name a result is matched by across runs: a size in it is a
 * measurement, not the test's identity (mm/mrelease_test names the
 * allocation it reaped, "1MB" in one run and "2MB" in the next).
 */
static char *match_name(const char *name)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	const char *p = name, *q;
	size_t unit;

	while (*p) {
		int starts = isdigit((unsigned char)*p) && (p == name ||
			     (!isalnum((unsigned char)p[-1]) && p[-1] != '_' &&
			      p[-1] != '#' && p[-1] != '.'));

		if (!starts) {
			sk_strbuf_addch(&sb, *p++);
			continue;
		}
		for (q = p; isdigit((unsigned char)*q) || *q == '.'; q++)
			;
		unit = size_unit(*q == ' ' ? q + 1 : q);
		if (!unit) {
			sk_strbuf_add(&sb, p, (size_t)(q - p));
			p = q;
			continue;
		}
		sk_strbuf_adds(&sb, "<size>");
		p = (*q == ' ' ? q + 1 : q) + unit;
	}
	return sk_strbuf_detach(&sb);
}

static json_t *status_map(json_t *arr)
{
	json_t *m = json_object(), *o;
	size_t i;

	json_array_foreach(arr, i, o) {
		char *key = match_name(json_string_value(json_object_get(o,
								      "name")));

		json_object_set(m, key, json_object_get(o, "status"));
		free(key);
	}
	return m;
}

/* Is a the name of a test binary whose subtest b is ("x/y" of "x/y/z")? */
static int parent_of(const char *a, const char *b)
{
	size_t n = strlen(a);

	return !strncmp(a, b, n) && (b[n] == '/' || b[n] == ':');
}

/*
 * A failing subtest makes its binary fail too: list the subtest, which
 * says what failed, and not the binary a second time.
 */
static void drop_parents(json_t *list)
{
	size_t i = 0, j;

	while (i < json_array_size(list)) {
		const char *a = json_string_value(json_object_get(
					json_array_get(list, i), "name"));
		int covered = 0;

		for (j = 0; a && !covered && j < json_array_size(list); j++)
			covered = j != i && parent_of(a, json_string_value(
				json_object_get(json_array_get(list, j), "name")));
		if (covered)
			json_array_remove(list, i);
		else
			i++;
	}
}

json_t *sk_kselftest_compare(json_t *base, json_t *patched)
{
	json_t *out = json_pack("{s:[], s:[], s:[], s:[], s:[]}",
				"regressions", "known_failures", "fixed",
				"flaky", "new_tests");
	json_t *bm = status_map(base), *pm = status_map(patched);
	const char *name;
	json_t *v;

	json_object_foreach(pm, name, v) {
		const char *ps = json_string_value(v);
		const char *bs = json_string_value(json_object_get(bm, name));
		const char *list = NULL;

		if (!bs)
			json_array_append_new(json_object_get(out, "new_tests"),
					      json_string(name));
		if (!strcmp(ps, "flaky") || (bs && !strcmp(bs, "flaky")))
			list = "flaky";
		else if (sk_kselftest_failed(ps))
			list = sk_kselftest_failed(bs) ? "known_failures" : "regressions";
		else if (sk_kselftest_failed(bs))
			list = "fixed";
		if (list)
			json_array_append_new(json_object_get(out, list),
				json_pack("{s:s, s:s, s:s}", "name", name,
					  "baseline", bs ? bs : "absent",
					  "patched", ps));
	}
	json_object_foreach(bm, name, v) {
		if (json_object_get(pm, name) ||
		    sk_kselftest_failed(json_string_value(v)))
			continue;
		json_array_append_new(json_object_get(out, "regressions"),
			json_pack("{s:s, s:s, s:s}", "name", name, "baseline",
				  json_string_value(v), "patched", "absent"));
	}
	drop_parents(json_object_get(out, "regressions"));
	drop_parents(json_object_get(out, "known_failures"));
	drop_parents(json_object_get(out, "fixed"));
	drop_parents(json_object_get(out, "flaky"));
	json_decref(bm);
	json_decref(pm);
	return out;
}

/* How many results are there, and how many of them are not skips. */
size_t sk_kselftest_ran(json_t *results, size_t *not_skipped)
{
	json_t *o;
	size_t i;

	*not_skipped = 0;
	json_array_foreach(results, i, o) {
		const char *st = json_string_value(json_object_get(o, "status"));

		*not_skipped += !st || strcmp(st, "skip");
	}
	return json_array_size(results);
}

static char *no_results(const char *side, json_t *results)
{
	size_t n, real;

	if (!json_is_array(results))
		return sk_xstrfmt("not run: %s: no kselftest results", side);
	n = sk_kselftest_ran(results, &real);
	if (!n)
		return sk_xstrfmt("not run: %s: no kselftest result in the console",
				  side);
	if (!real)
		return sk_xstrfmt("not run: %s: every one of %zu kselftests skipped",
				  side, n);
	return NULL;
}

const char *sk_kselftest_tally(json_t *cmp, char **why)
{
	size_t nreg = json_array_size(json_object_get(cmp, "regressions"));

	*why = sk_xstrfmt("%zu regressions, %zu known failures, %zu flaky, %zu fixed",
		nreg, json_array_size(json_object_get(cmp, "known_failures")),
		json_array_size(json_object_get(cmp, "flaky")),
		json_array_size(json_object_get(cmp, "fixed")));
	return nreg ? "fail" : "pass";
}

const char *sk_kselftest_verdict(json_t *base, json_t *patched, json_t **cmp,
				 char **why)
{
	*cmp = NULL;
	*why = no_results("baseline", base);
	if (!*why)
		*why = no_results("patched", patched);
	if (*why)
		return "not run";
	*cmp = sk_kselftest_compare(base, patched);
	return sk_kselftest_tally(*cmp, why);
}

/* Is binary "suite/name" (the part of entry before ": ") in not_built? */
static int listed(json_t *not_built, const char *entry)
{
	const char *colon = strstr(entry, ": ");
	size_t len = colon ? (size_t)(colon - entry) : strlen(entry), i;
	json_t *o;

	json_array_foreach(not_built, i, o) {
		const char *s = json_string_value(o);

		if (s && !strncmp(s, entry, len) && (!s[len] || s[len] == ':'))
			return 1;
	}
	return 0;
}

const char *sk_kselftest_not_built(json_t *base_nb, json_t *patched_nb,
				   const char *st, char **why)
{
	size_t nb = json_array_size(base_nb), np = json_array_size(patched_nb);
	const char *first;
	char *was;
	size_t i;
	json_t *o;

	if (!strcmp(st, "fail"))
		return st;
	/* a list that is no list says nothing of what was built */
	if ((base_nb && !json_is_array(base_nb)) ||
	    (patched_nb && !json_is_array(patched_nb))) {
		free(*why);
		*why = sk_xstrdup("not run: kselftest.not_built is not a list");
		return "not run";
	}
	if (!nb && !np)
		return st;
	json_array_foreach(patched_nb, i, o) {
		first = json_string_value(o);
		if (!first || listed(base_nb, first))
			continue;
		free(*why);
		*why = sk_xstrfmt("builds on the baseline, not with the queue: %s",
				  first);
		return "fail";
	}
	first = json_string_value(json_array_get(nb ? base_nb : patched_nb, 0));
	was = *why;
	*why = sk_xstrfmt("not run: %zu kselftest binar%s did not build on the "
			  "%s (%s); the rest compared: %s", nb ? nb : np,
			  (nb ? nb : np) == 1 ? "y" : "ies",
			  nb ? "baseline" : "queue's side", first ? first : "?",
			  was ? was : "no comparison");
	free(was);
	return "not run";
}

char *sk_kselftest_stored_unbuilt(const char *path)
{
	struct sk_kselftest_run r;
	char *why = NULL;

	if (sk_kselftest_run_read(&r, path)) {
		why = sk_xstrfmt("the stored baseline's kselftests: %s",
				 sk_error_last());
		sk_error_clear();
	} else if (r.nr_not_built) {
		why = sk_xstrfmt("the stored baseline did not build %zu kselftest "
				 "binar%s (%s)", r.nr_not_built,
				 r.nr_not_built == 1 ? "y" : "ies", r.not_built[0]);
	}
	sk_kselftest_run_release(&r);
	return why;
}

/* "cgroup/test_kmem" of "cgroup/test_kmem/test_kmem_basic"; NULL: no '/'. */
static char *binary_of(const char *name)
{
	const char *slash = strchr(name, '/');

	if (!slash || slash == name || !slash[1] || slash[1] == '/')
		return NULL;
	slash = strchr(slash + 1, '/');
	return slash ? sk_xstrndup(name, (size_t)(slash - name)) :
		       sk_xstrdup(name);
}

void sk_kselftest_regressed(struct sk_strvec *out, json_t *cmp)
{
	json_t *o;
	size_t i, j;

	json_array_foreach(json_object_get(cmp, "regressions"), i, o) {
		char *bin = binary_of(json_string_value(
				json_object_get(o, "name")));

		for (j = 0; bin && j < out->nr; j++)
			if (!strcmp(out->items[j], bin))
				break;
		if (!bin || j < out->nr) {
			free(bin);
			continue;
		}
		*SK_ARRAY_PUSH(out->items, out->nr, out->alloc) = bin;
	}
}

/*
 * What a confirm boot says of a regression: NULL when it stands (failed
 * again with the queue, and the baseline, where it ran, passed again),
 * else why it is only flaky.
 */
static const char *unconfirmed(const char *key, json_t *bm, json_t *pm)
{
	const char *ps = json_string_value(json_object_get(pm, key));
	const char *bs = json_string_value(json_object_get(bm, key));

	if (ps && !sk_kselftest_failed(ps))
		return "failed with the queue, passed with it in a confirm boot";
	if (bs && sk_kselftest_failed(bs))
		return "failed on the baseline too, in a confirm boot";
	return NULL;
}

/* A test's status in a confirm boot, "absent"; NULL: the boot never ran. */
static json_t *confirm_status(json_t *results, json_t *st)
{
	if (!json_is_array(results))
		return NULL;
	return st ? json_incref(st) : json_string("absent");
}

void sk_kselftest_confirm(json_t *cmp, json_t *base, json_t *patched)
{
	json_t *regs = json_object_get(cmp, "regressions");
	json_t *flaky = json_object_get(cmp, "flaky");
	json_t *bm = status_map(base), *pm = status_map(patched);
	size_t i = 0;

	while (i < json_array_size(regs)) {
		json_t *o = json_array_get(regs, i);
		char *key = match_name(json_string_value(json_object_get(o,
								      "name")));
		json_t *cb = json_object_get(bm, key), *cp = json_object_get(pm, key);
		const char *why;

		json_object_set_new(o, "confirm", json_pack("{s:o*, s:o*}",
			"baseline", confirm_status(base, cb),
			"patched", confirm_status(patched, cp)));
		why = json_is_array(patched) ? unconfirmed(key, bm, pm) : NULL;
		free(key);
		if (!why) {
			i++;
			continue;
		}
		json_object_set_new(o, "reason", json_string(why));
		json_array_append(flaky, o);
		json_array_remove(regs, i);
	}
	json_decref(bm);
	json_decref(pm);
}


#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <git2.h>

#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"
#include "port/port-results.h"

static int setup(void **state)
{
	char *dir = NULL;

	if (sk_mkdtemp_in(&dir, sk_tmp_dir(), "sk-test-port-results"))
		return -1;
	*state = dir;
	return 0;
}

static int teardown(void **state)
{
	sk_rmrf(*state);
	free(*state);
	return 0;
}

static char *text_of(const char *path)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	assert_int_equal(sk_read_file(&sb, path), 0);
	return sk_strbuf_detach(&sb);
}

static void put(const char *path, const char *text)
{
	assert_int_equal(sk_write_file_atomic(path, text, strlen(text)), 0);
}

/* Patch 1 queued by a rule with two hunks, patch 2 failed. */
static void ported(struct sk_port_result *r)
{
	static struct sk_port_hunk hunks[2];
	static struct sk_port_item items[2];
	static char *fragments[] = { "ci/kconfig/memcg.config" };

	memset(r, 0, sizeof(*r));
	memset(items, 0, sizeof(items));
	hunks[0] = (struct sk_port_hunk){ .patch = "0001.patch",
		.path = "mm/vmscan.c", .nr = 1, .method = "applied",
		.offset = -12, .fuzz = 0, .function = "shrink_lruvec",
		.placed = "offset -12: the context moved" };
	hunks[1] = (struct sk_port_hunk){ .patch = "0001.patch",
		.path = "mm/vmscan.c", .nr = 2, .method = "semantic-patches",
		.offset = 40, .fuzz = 1, .rule = "lruvec-cost.cocci",
		.scope = "lru_note_cost" };
	items[0].nr = 1;
	items[0].subject = "mm: add the readers";
	items[0].method = SK_PORT_RULES;
	items[0].how = "ported with lruvec-cost.cocci";
	items[0].file = "mm-add-the-readers.patch";
	items[0].hunks = hunks;
	items[0].nr_hunks = 2;
	strcpy(items[0].upstream, "0123456789abcdef0123456789abcdef01234567");
	items[1].nr = 2;
	items[1].subject = "mm: use them";
	items[1].method = SK_PORT_FAILED;
	items[1].reason = "hunk 1 of mm/memcontrol.c does not apply";
	items[1].blocked_by = 0;
	items[1].dep_of = 0;
	r->items = items;
	r->nr = 2;
	r->target = "6.12";
	r->compile = "compile check: 2 objects built";
	r->fragments = fragments;
	r->nr_fragments = 1;
	r->spatch_seconds = 6.5;
	r->failed = 1;
}

static void test_round_trip(void **state)
{
	char *path = sk_path_join(*state, "series.json");
	char *again = sk_path_join(*state, "again.json");
	struct sk_port_result r;
	struct sk_port_results in, out;
	const struct sk_port_results_patch *p;
	char *t1, *t2;

	ported(&r);
	sk_port_results_from_port(&in, "my-series", "linux-6.12.y", &r, 2, NULL);
	assert_int_equal(sk_port_results_write(path, &in), 0);
	assert_int_equal(sk_port_results_read(&out, path), 0);

	assert_string_equal(out.series, "my-series");
	assert_string_equal(out.branch, "linux-6.12.y");
	assert_string_equal(out.queue, "stable/linux-6.12.y");
	assert_string_equal(out.target, "6.12");
	assert_null(out.no_rules);
	assert_int_equal(out.nr_kconfig_fragments, 1);
	assert_string_equal(out.kconfig_from, "project");
	assert_true(out.has_spatch_seconds && out.spatch_seconds == 6.5);
	assert_int_equal(out.failed, 1);
	assert_int_equal(out.revision, 2);
	assert_int_equal(out.nr_patches, 2);
	p = &out.patches[0];
	assert_int_equal(p->nr, 1);
	assert_string_equal(p->method, "semantic-patches");
	assert_string_equal(p->file, "mm-add-the-readers.patch");
	assert_string_equal(p->upstream, "0123456789abcdef0123456789abcdef01234567");
	assert_true(p->has_offset && p->offset == 40);	/* the largest |offset| */
	assert_true(p->has_fuzz && p->fuzz == 1);
	assert_int_equal(p->nr_hunks, 2);
	assert_string_equal(p->hunks[0].placement, "offset -12: the context moved");
	assert_string_equal(p->hunks[1].landed_in, "lru_note_cost");
	assert_string_equal(p->hunks[1].rule, "lruvec-cost.cocci");
	p = &out.patches[1];
	assert_null(p->file);
	assert_null(p->upstream);
	assert_string_equal(p->reason, "hunk 1 of mm/memcontrol.c does not apply");
	/* one queued patch: quilt pushed it, the proof passes */
	assert_true(out.has_proof);
	assert_string_equal(out.proof.status, "pass");
	assert_int_equal(out.proof.patches, 1);
	assert_string_equal(out.proof.compile, "compile check: 2 objects built");

	assert_int_equal(sk_port_results_write(again, &out), 0);
	t1 = text_of(path);
	t2 = text_of(again);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	sk_port_results_release(&in);
	sk_port_results_release(&out);
	free(again);
	free(path);
}

/* Port stopped before any patch: series, branch and a failed proof. */
static void test_stopped(void **state)
{
	char *path = sk_path_join(*state, "series.json");
	struct sk_port_results in, out;
	json_t *o;

	sk_port_results_from_port(&in, "s", "linux-7.2.y", NULL, 0,
				  "the branch does not resolve");
	o = sk_port_results_to_json(&in);
	assert_null(json_object_get(o, "patches"));
	assert_null(json_object_get(o, "revision"));
	json_decref(o);
	assert_int_equal(sk_port_results_write(path, &in), 0);
	assert_int_equal(sk_port_results_read(&out, path), 0);
	assert_false(out.has_patches);
	assert_string_equal(out.proof.status, "fail");
	assert_string_equal(out.proof.reason, "the branch does not resolve");
	assert_string_equal(out.error, "the branch does not resolve");
	sk_port_results_release(&in);
	sk_port_results_release(&out);
	free(path);
}

/* A key of the wrong type: an error naming the file and the key. */
static void test_wrong_type_names_key(void **state)
{
	char *path = sk_path_join(*state, "series.json");
	struct sk_port_results out;

	put(path, "{\"series\": \"s\", \"patches\": [{\"nr\": 1}, {\"nr\": 2,"
	    " \"hunks\": [{\"offset\": \"12\"}]}]}");
	assert_int_equal(sk_port_results_read(&out, path), SK_EINVALID);
	assert_true(!strncmp(sk_error_last(), "unreadable: ", 12));
	assert_non_null(strstr(sk_error_last(), path));
	assert_non_null(strstr(sk_error_last(),
		"key 'patches[1].hunks[0].offset': expected an integer, not a string"));
	assert_int_equal(out.nr_patches, 0);	/* released */

	put(path, "{\"proof\": {\"status\": 1}}");
	assert_int_equal(sk_port_results_read(&out, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "key 'proof.status': expected a string"));

	put(path, "{\"kconfig\": {\"fragments\": [\"a\", 2]}}");
	assert_int_equal(sk_port_results_read(&out, path), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "key 'kconfig.fragments[1]'"));

	assert_int_equal(sk_port_results_read(&out, "/nonexistent/x.json"),
			 SK_ENOTFOUND);
	free(path);
}

/*
 * "Did the branch's series port": a downstream branch's unselected series
 * is not read (nor released unread); the selected one that failed is said.
 */
static void test_not_ported(void **state)
{
	const char *dir = *state;
	char *conf = sk_xstrfmt("%s/stable/branches.conf", dir);
	char *res = sk_xstrfmt("%s/results/vendor/port", dir);
	char *a = sk_xstrfmt("%s/a.json", res), *b = sk_xstrfmt("%s/b.json", res);
	char *why;

	assert_int_equal(sk_mkdir_p(res, 0755), 0);
	*strrchr(conf, '/') = '\0';
	assert_int_equal(sk_mkdir_p(conf, 0755), 0);
	conf[strlen(conf)] = '/';
	put(conf, "[branch \"vendor\"]\n\tref = vendor\n\tbase = v6.12\n\tversion = 6.12\n\tkind = downstream\n"
		  "\tselect = a\n");
	put(a, "{\"series\": \"a\", \"failed\": 1, \"patches\": [{\"nr\": 1,"
	       " \"method\": \"FAILED\"}, {\"nr\": 2, \"method\": \"blocked\","
	       " \"blocked_by\": 1}]}");
	put(b, "{\"series\": \"b\", \"failed\": 2, \"patches\": [{\"nr\": 1,"
	       " \"method\": \"FAILED\"}]}");
	git_libgit2_init();	/* branches.conf is read by libgit2 */
	setenv("SK_WORK", dir, 1);
	why = sk_port_results_not_ported(dir, "vendor");
	unsetenv("SK_WORK");
	git_libgit2_shutdown();
	assert_non_null(why);
	assert_string_equal(why, "a: patch 1 FAILED, patch 2 blocked by 1");
	free(why);
	free(conf);
	free(res);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stopped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_type_names_key, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_ported, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

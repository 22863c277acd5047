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
#include "mail/series.h"

static char *top, *dir;

static int setup(void **state)
{
	(void)state;
	git_libgit2_init();
	if (sk_mkdtemp_in(&top, "/tmp", "test-series"))
		return -1;
	dir = sk_path_join(top, "series/s");
	return sk_mkdir_p(dir, 0755);
}

static int teardown(void **state)
{
	(void)state;
	sk_rmrf(top);
	free(top);
	free(dir);
	git_libgit2_shutdown();
	return 0;
}

/* Load series/s/series.conf written as text; SK_EINVALID expected. */
static void load_fails(const char *text, const char *msg)
{
	char *conf = sk_path_join(dir, "series.conf");
	struct sk_series *s = NULL;

	assert_int_equal(sk_write_file_atomic(conf, text, strlen(text)), 0);
	assert_int_equal(sk_series_load_dir(&s, dir), SK_EINVALID);
	assert_null(s);
	if (!strstr(sk_error_last(), msg))
		fail_msg("'%s' does not hold '%s'", sk_error_last(), msg);
	free(conf);
}

/* git-config's bare key (no '='): libgit2 gives a NULL value. */
static void test_bare_key_names_file_and_line(void **state)
{
	(void)state;
	load_fails("[series]\n\tslug = s\n[patch \"1.1\"]\n\tsubject = x\n"
		   "\treviewed-by\n\tacked-by = y\n",
		   "series/s/series.conf:5: no value (a bare key) for "
		   "'patch.1.1.reviewed-by'");
	load_fails("[series]\n\tslug\n", "series.conf:2: no value (a bare key) "
		   "for 'series.slug'");
	load_fails("[series]\n\tslug = s\n[fixlet \"1.1.1\"] file\n",
		   "series.conf:3: no value (a bare key) for 'fixlet.1.1.1.file'");
}

static void test_unknown_keys_and_sections(void **state)
{
	(void)state;
	load_fails("[series]\n\tslug = s\n\n\tColour = red\n",
		   "series.conf:4: unknown key 'series.colour'");
	load_fails("[series]\n\tslug = s\n[revision \"1\"]\n\tmbox = v1.mbx\n"
		   "\tmbx = v1.mbx\n", "series.conf:5: unknown key 'revision.1.mbx'");
	load_fails("[series]\n\tslug = s\n[include]\n\tpath = /etc/gitconfig\n",
		   "series.conf:4: unknown section in 'include.path'");
	load_fails("[series]\n\tslug = s\n[patch \"1.x\"]\n\tsubject = a\n",
		   "series.conf:4: malformed section name in 'patch.1.x.subject'");
	load_fails("[series]\n\tslug = s\n[patch \"99999999.1\"]\n\tsubject = a\n",
		   "series.conf:4: malformed section name in");
	/* libgit2 reads a key starting with a digit; git does not */
	load_fails("[series]\n\tslug = s\n[patch \"1.1\"]\n\tsubject = a\n"
		   "\t1st-by = b\n", "series.conf:5: unknown key 'patch.1.1.1st-by'");
}

/*
 * Values are one line (they go into mail headers and report.txt): one with
 * a line break or another control character but tab is written escaped,
 * and refused when read, naming file, line and key.
 */
static void test_control_characters_refused(void **state)
{
	static const char *const values[] = {
		"a\rb", "a\vb\fc", "x\r", "\f", "new\nline", "\v\r \t",
		"a\nBcc: attacker@evil.example", "nel\xc2\x85x",
	};
	struct sk_series *s = sk_xcalloc(1, sizeof(*s)), *back = NULL;
	size_t i;

	(void)state;
	s->dir = sk_xstrdup(dir);
	s->slug = sk_xstrdup("s");
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		free(s->subject);
		s->subject = sk_xstrdup(values[i]);
		assert_int_equal(sk_series_save(s), 0);
		assert_int_equal(sk_series_load_dir(&back, dir), SK_EINVALID);
		assert_non_null(strstr(sk_error_last(), "series.conf:3: a line "
				       "break or control character"));
		assert_non_null(strstr(sk_error_last(),
				       "in the value of 'series.subject'"));
		assert_null(back);
	}
	sk_series_free(s);
}

static void test_values_round_trip(void **state)
{
	static const char *const values[] = {
		" lead", "trail ", "\ttab\t", "q\"uo\\te", "#;", "\t \t",
	};
	struct sk_series *s = sk_xcalloc(1, sizeof(*s)), *back = NULL;
	size_t i;

	(void)state;
	s->dir = sk_xstrdup(dir);
	s->slug = sk_xstrdup("s");
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		free(s->subject);
		s->subject = sk_xstrdup(values[i]);
		assert_int_equal(sk_series_save(s), 0);
		assert_int_equal(sk_series_load_dir(&back, dir), 0);
		assert_string_equal(back->subject, values[i]);
		sk_series_free(back);
	}
	sk_series_free(s);
}

/* A trailer key that is no git-config name is refused, nothing written. */
static void test_trailer_key_refused(void **state)
{
	struct sk_series *s = sk_xcalloc(1, sizeof(*s));
	struct sk_revision *r;
	struct sk_series_patch *p;
	char *other = sk_path_join(top, "series/t");
	char *conf = sk_path_join(other, "series.conf");

	(void)state;
	assert_int_equal(sk_mkdir_p(other, 0755), 0);
	s->dir = other;
	s->slug = sk_xstrdup("t");
	s->revs = r = sk_xcalloc(1, sizeof(*r));
	s->nr_revs = 1;
	r->version = 1;
	r->patches = p = sk_xcalloc(1, sizeof(*p));
	r->nr_patches = 1;
	p->nr = 1;
	p->trailers = sk_xcalloc(1, sizeof(*p->trailers));
	p->nr_trailers = 1;
	p->trailers[0].key = sk_xstrdup("1st-by");
	p->trailers[0].value = sk_xstrdup("x");
	assert_int_equal(sk_series_save(s), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(),
			       "trailer key '1st-by' is not a git-config key"));
	assert_false(sk_path_exists(conf));
	sk_series_free(s);
	free(conf);
}

/* Every series directory's name passes the name check, or is reported. */
static void test_names_are_checked(void **state)
{
	char *hidden = sk_path_join(top, "series/.hidden");
	char *conf = sk_path_join(hidden, "series.conf");
	char *tmp = sk_path_join(top, "series/.pull-abc123");
	char *tmpconf = sk_path_join(tmp, "series.conf");
	char *sconf = sk_path_join(dir, "series.conf");
	struct sk_series *s = NULL;
	char **names;
	size_t nr;

	(void)state;
	assert_int_equal(sk_write_file_atomic(sconf, "[series]\n\tslug = s\n", 20), 0);
	assert_int_equal(sk_mkdir_p(tmp, 0700), 0);
	assert_int_equal(sk_write_file_atomic(tmpconf, "", 0), 0);
	assert_int_equal(sk_series_names(&names, &nr, top), 0);
	assert_int_equal(nr, 1);
	assert_string_equal(names[0], "s");
	sk_series_names_free(names, nr);

	assert_int_equal(sk_mkdir_p(hidden, 0755), 0);
	assert_int_equal(sk_write_file_atomic(conf, "", 0), 0);
	assert_int_equal(sk_series_names(&names, &nr, top), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "series/.hidden: series name "
			       "'.hidden' starts with '.'"));
	assert_null(names);
	assert_int_equal(nr, 0);
	sk_rmrf(hidden);

	assert_int_equal(sk_series_load(&s, top, "../s"), SK_EINVALID);
	assert_non_null(strstr(sk_error_last(), "series name '../s'"));
	assert_int_equal(sk_series_load(&s, top, ".hidden"), SK_EINVALID);
	free(hidden);
	free(conf);
	free(tmp);
	free(tmpconf);
	free(sconf);
}

static void set(struct sk_revision *r, int version, const char *label,
		const char *date)
{
	memset(r, 0, sizeof(*r));
	r->version = version;
	r->date = sk_xstrdup(date);
	sk_revision_set_label(r, label);
}

/* RFCs first, then the posted version, then the date; never the number. */
static void test_revision_order(void **state)
{
	struct sk_series s = { 0 };
	struct sk_revision r[5];
	const char *want[] = { "RFC", "RFC v2", "v1", "v2", "v2" };
	size_t i;

	(void)state;
	set(&r[0], 2, NULL, "Tue, 14 Jul 2026 05:31:07 -0700");
	set(&r[1], 1001, "RFC v2", "Fri, 26 Jun 2026 05:19:47 -0700");
	set(&r[2], 1, NULL, "Mon, 13 Jul 2026 09:34:31 -0700");
	set(&r[3], 1002, "RFC", "Thu, 25 Jun 2026 05:19:47 -0700");
	/* a second v2, an hour later though sent from two zones away */
	set(&r[4], 1003, "v2", "Tue, 14 Jul 2026 15:31:07 +0200");
	assert_string_equal(r[0].label, "v2");
	assert_int_equal(r[1].rfc, 1);
	assert_int_equal(r[1].posted, 2);
	assert_int_equal(r[3].posted, 1);
	s.revs = r;
	s.nr_revs = 5;
	sk_series_sort(&s);
	for (i = 0; i < 5; i++)
		assert_string_equal(r[i].label, want[i]);
	assert_int_equal(r[3].version, 2);
	assert_int_equal(r[4].version, 1003);
	assert_int_equal(sk_series_latest(&s)->version, 1003);
	for (i = 0; i < 5; i++)
		sk_revision_release(&r[i]);
}

/* label, kind and upstream are written and read back; v<N> is not written. */
static void test_label_kind_upstream_round_trip(void **state)
{
	struct sk_series *s = sk_xcalloc(1, sizeof(*s)), *back = NULL;
	struct sk_revision *r;
	char *other = sk_path_join(top, "series/u");
	char *fx;

	(void)state;
	assert_int_equal(sk_mkdir_p(other, 0755), 0);
	s->dir = other;
	s->slug = sk_xstrdup("u");
	s->kind = sk_xstrdup("stable-review");
	s->revs = r = sk_xcalloc(2, sizeof(*r));
	s->nr_revs = 2;
	r[0].version = 1001;
	sk_revision_set_label(&r[0], "RFC");
	r[0].mbox = sk_xstrdup("rfc.1001.mbx");
	r[1].version = 1;
	sk_revision_set_label(&r[1], NULL);
	r[1].patches = sk_xcalloc(1, sizeof(*r[1].patches));
	r[1].nr_patches = 1;
	r[1].patches[0].nr = 1;
	r[1].patches[0].upstream = sk_xstrdup("b377dcd9a286a6f81922ae442cd1c743bc4a2b35");
	assert_int_equal(sk_series_save(s), 0);
	assert_int_equal(sk_series_load(&back, top, "u"), 0);
	assert_string_equal(back->kind, "stable-review");
	assert_int_equal(back->nr_revs, 2);
	assert_string_equal(back->revs[0].label, "RFC");
	assert_int_equal(back->revs[0].version, 1001);
	assert_string_equal(back->revs[1].label, "v1");
	assert_string_equal(back->revs[1].patches[0].upstream,
			    "b377dcd9a286a6f81922ae442cd1c743bc4a2b35");
	assert_int_equal(back->revs[1].patches[0].nr_trailers, 0);
	fx = sk_revision_fixlets_file(&back->revs[0]);
	assert_string_equal(fx, "rfc.1001.fixlets.mbx");
	free(fx);
	fx = sk_revision_fixlets_file(&back->revs[1]);	/* no mbox key */
	assert_string_equal(fx, "v1.fixlets.mbx");
	free(fx);
	sk_series_free(back);
	sk_series_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bare_key_names_file_and_line),
		cmocka_unit_test(test_unknown_keys_and_sections),
		cmocka_unit_test(test_values_round_trip),
		cmocka_unit_test(test_control_characters_refused),
		cmocka_unit_test(test_trailer_key_refused),
		cmocka_unit_test(test_names_are_checked),
		cmocka_unit_test(test_revision_order),
		cmocka_unit_test(test_label_kind_upstream_round_trip),
	};

	return cmocka_run_group_tests_name("series", tests, setup, teardown);
}

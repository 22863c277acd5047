#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <git2.h>

#include "core/error.h"
#include "core/fsutil.h"
#include "mail/lore.h"
#include "mail/mbox.h"
#include "mail/pull-update.h"
#include "mail/series.h"

static char *project(const char *conf)
{
	char *top = NULL, *stable, *path;

	assert_int_equal(sk_mkdtemp_in(&top, "/tmp", "test-lore"), 0);
	stable = sk_path_join(top, "stable");
	assert_int_equal(sk_mkdir_p(stable, 0755), 0);
	path = sk_path_join(stable, "branches.conf");
	if (conf)
		assert_int_equal(sk_write_file_atomic(path, conf, strlen(conf)), 0);
	free(path);
	free(stable);
	return top;
}

static void test_url_default_and_set(void **state)
{
	char *top = project(NULL), *url;

	(void)state;
	assert_int_equal(sk_lore_url(&url, top), 0);
	assert_string_equal(url, SK_LORE_DEFAULT);
	free(url);
	sk_rmrf(top);
	free(top);
	top = project("[stablekit]\n\tlore = http://127.0.0.1:8080/linux-mm\n");
	assert_int_equal(sk_lore_url(&url, top), 0);
	assert_string_equal(url, "http://127.0.0.1:8080/linux-mm/");
	free(url);
	sk_rmrf(top);
	free(top);
}

static void test_url_rejected(void **state)
{
	static const char *const bad[] = {
		"file:///etc/passwd", "lore.kernel.org/all/", "https://", "http://a b/",
		"https://x/\\\"$(id)", NULL
	};
	size_t i;

	(void)state;
	for (i = 0; bad[i]; i++) {
		char *conf = sk_xstrfmt("[stablekit]\n\tlore = \"%s\"\n", bad[i]);
		char *top = project(conf), *url = NULL;

		assert_int_equal(sk_lore_url(&url, top), SK_EINVALID);
		assert_null(url);
		assert_non_null(strstr(sk_error_last(), "stable/branches.conf: stablekit.lore:"));
		sk_rmrf(top);
		free(top);
		free(conf);
	}
}

static void test_b4_env(void **state)
{
	struct sk_lore_env env;

	(void)state;
	unsetenv("GIT_CONFIG_COUNT");
	sk_lore_b4_env(&env, "http://127.0.0.1:9/a%20b/");
	assert_string_equal(env.v[0], "GIT_CONFIG_COUNT=3");
	assert_string_equal(env.v[1], "GIT_CONFIG_KEY_0=b4.midmask");
	assert_string_equal(env.v[2], "GIT_CONFIG_VALUE_0=http://127.0.0.1:9/a%%20b/%s");
	assert_string_equal(env.v[3], "GIT_CONFIG_KEY_1=b4.searchmask");
	assert_string_equal(env.v[4], "GIT_CONFIG_VALUE_1=http://127.0.0.1:9/a%%20b/?x=m&t=1&q=%s");
	assert_string_equal(env.v[5], "GIT_CONFIG_KEY_2=b4.linkmask");
	assert_string_equal(env.v[6], "GIT_CONFIG_VALUE_2=http://127.0.0.1:9/a%%20b/%s");
	assert_null(env.v[7]);
	sk_lore_env_release(&env);

	/* lore itself: b4's own /r/ links; after the caller's config entries */
	setenv("GIT_CONFIG_COUNT", "2", 1);
	sk_lore_b4_env(&env, NULL);
	assert_string_equal(env.v[0], "GIT_CONFIG_COUNT=5");
	assert_string_equal(env.v[1], "GIT_CONFIG_KEY_2=b4.midmask");
	assert_string_equal(env.v[2], "GIT_CONFIG_VALUE_2=https://lore.kernel.org/all/%s");
	assert_string_equal(env.v[6], "GIT_CONFIG_VALUE_4=https://lore.kernel.org/r/%s");
	sk_lore_env_release(&env);
	unsetenv("GIT_CONFIG_COUNT");
}

static void test_urlencode(void **state)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;

	(void)state;
	sk_lore_urlencode(&sb, "nq:\"change-id: 2026-x_y.z~\" AND d:20260712..&q=%");
	assert_string_equal(sb.buf,
		"nq%3A%22change-id%3A%202026-x_y.z~%22%20AND%20d%3A20260712..%26q%3D%25");
	sk_strbuf_release(&sb);
}

static struct sk_series *series_v2(const char *change_id)
{
	struct sk_series *s = sk_xcalloc(1, sizeof(*s));

	s->slug = sk_xstrdup("vmstat");
	s->subject = sk_xstrdup("mm/vmscan: reduce lru_lock contention");
	s->author = sk_xstrdup("Usama Arif <Usama.Arif@linux.dev>");
	s->change_id = change_id ? sk_xstrdup(change_id) : NULL;
	s->nr_revs = 1;
	s->revs = sk_xcalloc(1, sizeof(*s->revs));
	s->revs[0].version = 2;
	s->revs[0].message_id = sk_xstrdup("v2-0@linux.dev");
	s->revs[0].date = sk_xstrdup("Mon, 13 Jul 2026 09:34:31 -0700");
	s->revs[0].nr_patches = 1;
	s->revs[0].patches = sk_xcalloc(1, sizeof(*s->revs[0].patches));
	s->revs[0].patches[0].nr = 1;
	s->revs[0].patches[0].message_id = sk_xstrdup("v2-1@linux.dev");
	return s;
}

static void test_query(void **state)
{
	struct sk_series *s = series_v2(NULL);
	char *q = sk_pull_update_query(s);

	(void)state;
	assert_string_equal(q, "((s:mm AND s:vmscan AND s:reduce AND s:lru_lock AND "
			    "s:contention AND f:\"usama.arif@linux.dev\") "
			    "OR nq:\"v2-0@linux.dev\") AND d:20260712..");
	free(q);
	free(s->change_id);
	s->change_id = sk_xstrdup("20260701-vmstat-cost-\"x");
	q = sk_pull_update_query(s);
	assert_string_equal(q, "(nq:\"change-id: 20260701-vmstat-cost-x\" OR (s:mm AND "
			    "s:vmscan AND s:reduce AND s:lru_lock AND s:contention AND "
			    "f:\"usama.arif@linux.dev\") OR nq:\"v2-0@linux.dev\") "
			    "AND d:20260712..");
	free(q);
	sk_series_free(s);
}

/*
 * Tao Cui's blk-throttle fix (cgroups list, July 2026): sent from
 * cui.tao@linux.dev, in-body From: cuitao@kylinos.cn.  The list's f:
 * field is the sender's, so both are searched.
 */
static void test_query_every_identity(void **state)
{
	struct sk_series *s = series_v2(NULL);
	char *q;

	(void)state;
	free(s->subject);
	s->subject = sk_xstrdup("blk-throttle: fix");
	free(s->author);
	s->author = sk_xstrdup("Tao Cui <cuitao@kylinos.cn>");
	s->revs[0].sender = sk_xstrdup("Tao Cui <cui.tao@linux.dev>");
	s->revs[0].patches[0].author = sk_xstrdup("Tao Cui <CuiTao@kylinos.cn>");
	q = sk_pull_update_query(s);
	assert_string_equal(q, "((s:blk AND s:throttle AND s:fix AND "
			    "(f:\"cuitao@kylinos.cn\" OR f:\"cui.tao@linux.dev\")) "
			    "OR nq:\"v2-0@linux.dev\") AND d:20260712..");
	free(q);
	sk_series_free(s);
}

#define MAIL(from, subject, id, irt, body) \
	"From mboxrd@z Thu Jan  1 00:00:00 1970\n" \
	"From: " from "\nSubject: " subject "\nMessage-Id: <" id ">\n" irt \
	"Date: Mon, 20 Jul 2026 03:15:00 -0700\n\n" body "\n\n"
#define USAMA "Usama Arif <usama.arif@linux.dev>"
#define TITLE "mm/vmscan: reduce lru_lock contention"

static void test_is_revision(void **state)
{
	static const char mbox[] =
		MAIL(USAMA, "[PATCH v3 0/2] " TITLE, "v3-0@linux.dev", "", "cover")
		MAIL(USAMA, "[PATCH v3 1/2] mm: one", "v3-1@linux.dev",
		     "In-Reply-To: <v3-0@linux.dev>\n", "one")
		MAIL(USAMA, "Re: [PATCH v3 0/2] " TITLE, "r@linux.dev",
		     "In-Reply-To: <v3-0@linux.dev>\n", "a reply")
		MAIL(USAMA, "[PATCH 0/2] " TITLE, "v1-0@linux.dev", "", "v1")
		MAIL(USAMA, "[PATCH v2 0/2] " TITLE, "v2-0@linux.dev", "", "stored")
		MAIL(USAMA, "[PATCH RESEND v2 0/2] " TITLE, "v2r-0@linux.dev", "", "resend")
		MAIL(USAMA, "[PATCH v2 0/3] " TITLE, "v2b-0@linux.dev", "", "count changed")
		MAIL("Someone Else <x@example.org>", "[PATCH v4 0/2] " TITLE,
		     "v4x-0@example.org", "", "another author")
		MAIL(USAMA, "[PATCH v5 0/2] mm: another title", "v5-0@linux.dev", "",
		     "change-id: 20260701-vmstat-cost\n")
		MAIL(USAMA, "[PATCH v6] " TITLE, "v6@linux.dev", "", "single patch");
	static const int want_plain[] = { 3, 0, 0, 0, 0, 2, 2, 0, 0, 6 };
	static const int want_cid[] = { 3, 0, 0, 0, 0, 2, 2, 0, 5, 6 };
	struct sk_mbox mb = SK_MBOX_INIT;
	struct sk_series *s = series_v2(NULL);
	size_t i;

	(void)state;
	assert_int_equal(sk_mbox_parse_buf(&mb, "hits", mbox, strlen(mbox)), 0);
	assert_int_equal(mb.nr, 10);
	for (i = 0; i < mb.nr; i++)
		assert_int_equal(sk_pull_update_is_revision(s, &mb, i), want_plain[i]);
	s->change_id = sk_xstrdup("20260701-vmstat-cost");
	for (i = 0; i < mb.nr; i++)
		assert_int_equal(sk_pull_update_is_revision(s, &mb, i), want_cid[i]);
	sk_series_free(s);
	sk_mbox_release(&mb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_url_default_and_set),
		cmocka_unit_test(test_url_rejected),
		cmocka_unit_test(test_b4_env),
		cmocka_unit_test(test_urlencode),
		cmocka_unit_test(test_query),
		cmocka_unit_test(test_query_every_identity),
		cmocka_unit_test(test_is_revision),
	};

	git_libgit2_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}

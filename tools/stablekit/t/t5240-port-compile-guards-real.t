#!/bin/sh

test_description='stablekit port: the compile check compiles the code under its guards, on the real 6.12

A real stable fix (ci/port-cases/damon-kunit-vaddr-three-regions): the
upstream commit changes mm/damon/tests/vaddr-kunit.h, a header that
mm/damon/vaddr.c includes as "tests/vaddr-kunit.h", whose code is
compiled only with CONFIG_DAMON_VADDR_KUNIT_TEST, which depends on
CONFIG_DAMON_VADDR and CONFIG_KUNIT=y.  Its added line calls
damon_destroy_target(t, NULL); 6.12 has damon_destroy_target(t), and the
human backport dropped the NULL.  The upstream diff applies cleanly on the
pre-fix tree (Debian'"'"'s 6.12.118 with the human backport reversed, one
commit on the imported tree): only compiling the header through its
includer, with the symbols its guard depends on, tells it is wrong.'

. ./lib-stablekit.sh

CASE="$SK_TOP/ci/port-cases/damon-kunit-vaddr-three-regions"
UP=mm-damon-tests-vaddr-kunit-handle-alloc-failures-on
HUMAN=mm-damon-tests-vaddr-kunit-handle-alloc-failures-in
Q=p/stable/prefix-6.12.y-damon

# mbox SUBJECT MSGID TRAILERS DIFF: a one-patch mail of a bare diff
mbox() {
	printf "From mboxrd@z Thu Jan  1 00:00:00 1970\n" &&
	printf "From: SeongJae Park <sj@kernel.org>\n" &&
	printf "Date: Mon, 5 Jan 2026 10:00:00 +0000\n" &&
	printf "Subject: [PATCH] %s\n" "$1" &&
	printf "Message-Id: <%s>\n\n" "$2" &&
	printf "Handle allocation failures.\n\n%sSigned-off-by: SeongJae Park <sj@kernel.org>\n---\n" "$3" &&
	sed -n "/^diff --git/,\$p" "$4"
}

test_expect_success 'setup: the pre-fix 6.12 tree, the upstream fix and the human backport pulled' '
	sk_workspace &&
	git clone -q --shared --no-checkout -b linux-6.12.y "$WS" linux &&
	git -C linux read-tree HEAD &&
	git -C linux apply --cached -R "$CASE/human.patch" &&
	tree=$(git -C linux write-tree) &&
	c=$(git -C linux commit-tree -p HEAD -m "pre-fix: the human backport reversed" $tree) &&
	git -C linux update-ref refs/heads/prefix $c &&
	git -C linux apply --cached --check "$CASE/upstream.patch" &&
	sk_new_project p &&
	mkdir -p p/ci && cp -R "$SK_TOP/ci/kconfig" p/ci/ &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linux
		signoff = Stable Tester <tester@example.org>
	[branch "prefix-6.12.y-damon"]
		ref = prefix
		base = v6.12.118
		kind = downstream
		version = 6.12
		select = $UP
		select = $HUMAN
	EOF
	mbox "mm/damon/tests/vaddr-kunit: handle alloc failures on damon_do_test_apply_three_regions()" \
		20251223-damon-vaddr@kernel.org \
		"Fixes: 17ccae8bb5c9 (\"mm/damon: add kunit tests\")
Cc: <stable@vger.kernel.org> # 5.15.x
" "$CASE/upstream.patch" >up.mbox &&
	mbox "mm/damon/tests/vaddr-kunit: handle alloc failures in the three regions test" \
		20260106015051.430918-1-sj@kernel.org "" "$CASE/human.patch" >human.mbox &&
	(cd p && stablekit pull -m ../up.mbox && stablekit pull -m ../human.mbox) >pull.out &&
	test -d p/series/$UP && test -d p/series/$HUMAN
'

test_expect_success 'the upstream diff applies, and its compile check fails: FAILED, not queued' '
	test_expect_code 1 env -C p stablekit port $UP --branch prefix-6.12.y-damon >out 2>err &&
	grep "^  1\. FAILED .*vaddr-kunit: handle alloc failures on" out &&
	grep "too many arguments to function .damon_destroy_target." out &&
	test_path_is_missing $Q/series ||
	! grep -v "^#" $Q/series | grep .
'

test_expect_success 'the header is compiled through its includer, with its guard and what the guard depends on' '
	mail=$Q/failed/$UP-d.mail &&
	grep "mm/damon/vaddr.o for mm/damon/tests/vaddr-kunit.h" $mail &&
	grep "+ CONFIG_DAMON_VADDR_KUNIT_TEST=y" $mail &&
	grep "+ CONFIG_KUNIT=y" $mail &&
	grep "CONFIG_KUNIT for CONFIG_DAMON_VADDR_KUNIT_TEST" $mail &&
	grep "CONFIG_DAMON for CONFIG_DAMON_VADDR" $mail &&
	! grep "dependencies unmet" $mail
'

test_expect_success 'the FAILED mail shows the compiler message at the hunk' '
	grep "^  mm/damon/tests/vaddr-kunit.h:144:[0-9]*: error: too many arguments" $Q/failed/$UP-d.mail &&
	grep "^+			damon_destroy_target(t, NULL);" $Q/failed/$UP-d.mail
'

test_expect_success 'the human backport compiles with the same check: queued' '
	(cd p && stablekit port $HUMAN --branch prefix-6.12.y-damon) >out 2>err &&
	grep "^  1\. clean .*in the three regions test" out &&
	grep "^  compile check: .*+ CONFIG_KUNIT=y.*: mm/damon/vaddr\.o" out &&
	grep "^$HUMAN" $Q/series
'

test_done

#!/bin/sh

test_description='stablekit pull --round: a -rc review round or an AUTOSEL batch in one import

Each stable mail of the thread (a review patch, an AUTOSEL mail) is pulled
as the series of its own that pull <its message-id> makes, in one command;
a mail that cannot be pulled is named and the others are still pulled.
The round is the real 6.12.49-rc1 thread of the corpus (its cover, 5 of
its 105 patches and two Tested-by replies).'

. ./lib-stablekit.sh

ROUND="$SHARNESS_TEST_DIRECTORY/corpus/threads/6.12.49-rc1-partial-review.mbox"
COVER=20250922192408.913556629@linuxfoundation.org
AUTOSEL="$SHARNESS_TEST_DIRECTORY/t1330/autosel.mbox"

ids() {
	grep -i "^Message-Id:" "$1" | sed "s/.*<\(.*\)>.*/\1/"
}

test_expect_success 'setup' '
	sk_new_project p &&
	sk_new_project one
'

test_expect_success 'the round by its cover: each review patch a series, in order' '
	stablekit -C p pull --round -m "$ROUND" $COVER >out &&
	cat >expect <<-\EOF &&
	octeon_ep-fix-vf-mac-address-lifecycle-handling: v1, 1 patch (new series)
	mmc-mvsdio-fix-dma_unmap_sg-nents-value: v1, 1 patch (new series)
	rds-ib-increment-i_fastreg_wrs-before-bailing-out: v1, 1 patch (new series)
	asoc-wm8940-correct-pll-rate-rounding: v1, 1 patch (new series)
	drm-bridge-anx7625-fix-null-pointer-dereference-with: v1, 1 patch (new series)
	round: 5 stable mails, 5 pulled, 0 failed
	EOF
	test_cmp expect out &&
	for s in $(ls p/series); do
		test "$(git config -f p/series/$s/series.conf series.kind)" = stable-review &&
		git config -f p/series/$s/series.conf patch.1.1.upstream >/dev/null || return 1
	done
'

test_expect_success 'the same series as pulling each mail by its message-id' '
	for id in $(ids "$ROUND" | sed -n "2,6p"); do
		stablekit -C one pull -m "$ROUND" "$id" >/dev/null || return 1
	done &&
	diff -r p/series one/series
'

test_expect_success 'again: every series already up to date' '
	stablekit -C p pull --round -m "$ROUND" >out &&
	test "$(grep -c "(already up to date)$" out)" = 5 &&
	grep "^round: 5 stable mails, 5 pulled, 0 failed$" out
'

test_expect_success '--json: each pull with its message-id, and the counts' '
	stablekit -C p pull --round --json -m "$ROUND" $COVER >round.json &&
	jq -e ".mails == 5 and (.pulled | length) == 5 and .failed == []" round.json &&
	jq -r ".pulled[].message_id" round.json >got &&
	ids "$ROUND" | sed -n "2,6p" >expect &&
	test_cmp expect got
'

test_expect_success 'a mail that does not parse is named; the others are pulled; exit 128' '
	sk_new_project broken &&
	awk "/^Subject: \[PATCH 6.12 061\/105\]/ { hit = 1 }
	     hit && /^@@ -/ { print \"@@ -1,400 +1,400 @@\"; hit = 0; next }
	     { print }" "$ROUND" >damaged.mbox &&
	! cmp -s "$ROUND" damaged.mbox &&
	test_expect_code 128 stablekit -C broken pull --round -m "$PWD/damaged.mbox" >out 2>err &&
	grep "^error: <20250922192410.512842675@linuxfoundation.org>: .*damaged.mbox:[0-9]*: truncated patch" err &&
	grep "^round: 5 stable mails, 4 pulled, 1 failed$" out &&
	test "$(ls broken/series | wc -l)" = 4 &&
	! test -e broken/series/rds-ib-increment-i_fastreg_wrs-before-bailing-out
'

test_expect_success 'an AUTOSEL batch: each mail a series' '
	sk_new_project auto &&
	stablekit -C auto pull --round -m "$AUTOSEL" >out &&
	grep "^round: 2 stable mails, 2 pulled, 0 failed$" out &&
	test "$(git config -f auto/series/mm-other-fix-the-other/series.conf series.kind)" = autosel
'

test_expect_success 'a thread without a stable mail is an error, nothing written' '
	sk_new_project none &&
	test_expect_code 128 stablekit -C none pull --round \
		-m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox" 2>err &&
	grep "no stable review, AUTOSEL or FAILED mail in the thread" err &&
	test -z "$(ls -A none/series)"
'

test_expect_success '--round takes no --name and no --update' '
	test_expect_code 129 stablekit -C p pull --round --name x -m "$ROUND" 2>err &&
	grep "error: --round takes neither --update nor --name" err &&
	test_expect_code 129 stablekit -C p pull --round --update 2>err
'

test_done

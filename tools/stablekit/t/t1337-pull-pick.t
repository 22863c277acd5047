#!/bin/sh

test_description='stablekit pull -P: some patches of a series, as b4 am -P

A stable maintainer takes patch 2 of a three-patch series (the one with
Fixes: and Cc: stable) without the others.  The revision is still read and
validated whole; the picked patches become a series of their own, numbered
1..n, with "picked" naming what they were.  Series B (ci/seeds) is the
input; b4 am -P on the same mbox is the reference.'

. ./lib-stablekit.sh

B="$SK_TOP/ci/seeds/shadow-node-budget-mglru.v3.mbox"
COVER=20260904094555.2871043-1-hui.zhu@linux.dev
P3=20260904094555.2871043-3-hui.zhu@linux.dev
P4=20260904094555.2871043-4-hui.zhu@linux.dev
TWO=mm-workingset-use-lruvec_page_state_local-to-count

conf() {
	git config -f "p/series/$1/series.conf" "$2"
}

test_expect_success 'setup' '
	sk_new_project p
'

test_expect_success '-P 2: patch 2 alone, a series named after it' '
	stablekit -C p pull -P 2 -m "$B" $COVER >out &&
	echo "$TWO: v3, 1 patch (new series)" >expect &&
	test_cmp expect out &&
	test "$(conf $TWO series.picked)" = "2/3 of <$COVER>" &&
	test "$(conf $TWO revision.3.patches)" = 1 &&
	test "$(conf $TWO patch.3.1.message-id)" = $P3 &&
	test "$(conf $TWO patch.3.1.cc)" = stable@vger.kernel.org &&
	grep "^Subject: \[PATCH v3 1/1\] mm: workingset: use lruvec_page_state_local" \
		p/series/$TWO/v3.mbx &&
	! grep "^Subject: \[PATCH v3 0/" p/series/$TWO/v3.mbx
'

test_expect_success 'the picked patch is b4 am -P 2: patch-id, author, trailers' '
	mkdir b4 &&
	b4 am -P 2 -m "$B" -o b4 $COVER >b4.out 2>&1 || { cat b4.out; false; } &&
	cat b4/*.mbx | git patch-id --stable | cut -d" " -f1 >expect &&
	git patch-id --stable <p/series/$TWO/v3.mbx | cut -d" " -f1 >got &&
	test_cmp expect got &&
	test "$(conf $TWO patch.3.1.patch-id)" = "$(cat expect)" &&
	grep "^From: Hui Zhu <zhuhui@kylinos.cn>$" b4/*.mbx &&
	test "$(conf $TWO patch.3.1.author)" = "Hui Zhu <zhuhui@kylinos.cn>" &&
	grep -E "^(Fixes|Cc|[A-Z][a-z]+(-[a-z]+)*-by): " p/series/$TWO/v3.mbx >ours &&
	test "$(wc -l <ours)" = 4 &&
	while read -r line; do
		grep -Fx "$line" b4/*.mbx || return 1
	done <ours
'

test_expect_success 'the same pick again is up to date' '
	stablekit -C p pull -P 2 -m "$B" $COVER >out &&
	grep "^$TWO: .*(already up to date)$" out &&
	test "$(ls p/series | wc -l)" = 1
'

test_expect_success '-P _: the patch the message-id names' '
	stablekit -C p pull -P _ -m "$B" $P4 >out &&
	grep "^mm-memcg-skip-the-rcu-lock-when-the-memcg-is-not.*: v3, 1 patch (new series)$" out &&
	S=$(ls p/series | grep "^mm-memcg-skip-the-rcu") &&
	test "$(conf $S series.picked)" = "3/3 of <$P4>" &&
	test "$(conf $S patch.3.1.message-id)" = $P4
'

test_expect_success '-P 1,3 and the whole series: three series, the whole one untouched' '
	stablekit -C p pull -P 1,3 -m "$B" --name b-1-3 $COVER >out &&
	echo "b-1-3: v3, 2 patches (new series)" >expect &&
	test_cmp expect out &&
	test "$(conf b-1-3 series.picked)" = "1,3/3 of <$COVER>" &&
	test "$(conf b-1-3 patch.3.2.message-id)" = $P4 &&
	stablekit -C p pull -m "$B" $COVER >out 2>/dev/null &&
	grep "^mm-workingset-fix-the-shadow-node-budget-under-mglru: v3, 3 patches (new series)$" out &&
	test_must_fail conf mm-workingset-fix-the-shadow-node-budget-under-mglru series.picked &&
	test "$(conf $TWO revision.3.patches)" = 1
'

test_expect_success '-P 2- : from patch 2 to the last' '
	stablekit -C p pull -P 2- -m "$B" --name b-2-end $COVER >/dev/null &&
	test "$(conf b-2-end series.picked)" = "2,3/3 of <$COVER>"
'

test_expect_success 'a patch the revision lacks: error naming the range, nothing stored' '
	ls p/series >before &&
	test_expect_code 128 stablekit -C p pull -P 4 -m "$B" --name nope $COVER 2>err &&
	grep "^error: -P 4: the revision has patches 1-3$" err &&
	ls p/series >after &&
	test_cmp before after
'

test_expect_success 'a selection that is not one: usage error before any mail is read, nothing stored' '
	test_expect_code 129 stablekit -C p pull -P "2;3" -m /nonexistent --name nope $COVER 2>err &&
	grep "^error: -P 2;3: not a selection" err &&
	test_expect_code 129 stablekit -C p pull -P 3-1 -m /nonexistent --name nope $COVER 2>err &&
	grep "^error: -P 3-1: not a selection" err &&
	test_expect_code 128 stablekit -C p pull -P _ -m "$B" --name nope $COVER 2>err &&
	grep "^error: -P _: <$COVER> is not a patch of the revision$" err &&
	! test -e p/series/nope
'

test_expect_success '-P takes neither --round nor --update' '
	test_expect_code 129 stablekit -C p pull -P 2 --round -m "$B" 2>err &&
	grep "^error: -P takes neither --round nor --update$" err &&
	test_expect_code 129 stablekit -C p pull -P 2 --update 2>err &&
	grep "^error: -P takes neither --round nor --update$" err
'

test_done

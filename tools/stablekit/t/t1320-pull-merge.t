#!/bin/sh

test_description='stablekit pull: a re-pull merges, nothing collected is lost

Pulling another copy of a stored revision (same label, same code) keeps
the union of what both hold: trailers per patch, fixlets by message-id.
A less complete copy (an archive missing the review reply) changes
nothing; a duplicated fixlet mail is stored once; a reply with
References but no In-Reply-To is attached like any reply; a fixlets mbox
no revision needs is removed.
'

. ./lib-stablekit.sh
. "$SHARNESS_TEST_DIRECTORY/t1320/mails.sh"

A=mm-vmscan-reduce-lru_lock-contention-via-vmstat
SEED_A="$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox"
ACK=20260715141015.GP276793@cmpxchg.org
FIX=25a94af5-1dbe-4ab4-b47d-fb49987bfcd4@linux.dev
P2=20260713163443.3562378-3-usama.arif@linux.dev
HANNES="Johannes Weiner <hannes@cmpxchg.org>"

conf() { git config -f "$1/series/$A/series.conf" "$2"; }

test_expect_success 'setup: copies of the real thread, each missing something' '
	drop_mail $ACK <"$SEED_A" | drop_mail $FIX >neither.mbox &&
	drop_mail $FIX <"$SEED_A" >no-fixlet.mbox &&
	drop_mail $ACK <"$SEED_A" >no-ack.mbox &&
	test $(grep -c "^From mboxrd@z" neither.mbox) = 4 &&
	test $(grep -c "^From mboxrd@z" no-fixlet.mbox) = 5
'

test_expect_success 'a less complete copy after the full thread: up to date, nothing lost' '
	sk_new_project p &&
	stablekit -C p pull -m "$SEED_A" >/dev/null &&
	test "$(conf p patch.2.1.acked-by)" = "$HANNES" &&
	cp p/series/$A/v2.fixlets.mbx fixlets.before &&
	stablekit -C p pull -v -m "$PWD/neither.mbox" >out 2>err &&
	grep "^$A: v2, 2 patches + 1 fixlet (already up to date)$" out &&
	grep "^pull: patch 1: kept .Acked-by: $HANNES. (not in this copy)$" err &&
	grep "^pull: patch 2: kept fixlet <$FIX> (not in this copy)$" err &&
	test "$(conf p patch.2.1.acked-by)" = "$HANNES" &&
	test "$(conf p fixlet.2.2.1.message-id)" = $FIX &&
	test_cmp fixlets.before p/series/$A/v2.fixlets.mbx
'

test_expect_success 'the corpus copy without replies (threads/vmstat-v2-without-replies.mbox) loses nothing' '
	sk_new_project pc &&
	stablekit -C pc pull -m "$SEED_A" >/dev/null &&
	stablekit -C pc pull -m "$SHARNESS_TEST_DIRECTORY/corpus/threads/vmstat-v2-without-replies.mbox" >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (already up to date)$" out &&
	test "$(conf pc patch.2.1.acked-by)" = "$HANNES" &&
	test "$(conf pc fixlet.2.2.1.message-id)" = $FIX
'

test_expect_success 'the less complete copy first, then the full one: both added, reported' '
	sk_new_project q &&
	stablekit -C q pull -m "$PWD/neither.mbox" >/dev/null &&
	test_must_fail conf q patch.2.1.acked-by &&
	stablekit -C q pull -m "$SEED_A" >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (updated in place)$" out &&
	grep "^  same code 1: .* (trailers changed)$" out &&
	grep "^              + Acked-by: $HANNES$" out &&
	grep "^  same code 2: .* (fixlets changed)$" out &&
	! grep "^              - " out
'

test_expect_success 'copies each missing another reply add up to the whole' '
	sk_new_project r &&
	stablekit -C r pull -m "$PWD/no-fixlet.mbox" >/dev/null &&
	stablekit -C r pull -m "$PWD/no-ack.mbox" >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (updated in place)$" out &&
	test "$(conf r patch.2.1.acked-by)" = "$HANNES" &&
	test "$(conf r fixlet.2.2.1.message-id)" = $FIX &&
	stablekit -C r pull -m "$SEED_A" >out &&
	grep "(already up to date)$" out
'

test_expect_success 'a duplicated fixlet mail is stored once' '
	sk_new_project s &&
	{ cat "$SEED_A" && only_mail $FIX <"$SEED_A"; } >dup.mbox &&
	stablekit -C s pull -m "$PWD/dup.mbox" >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (new series)$" out &&
	test_must_fail conf s fixlet.2.2.2.message-id &&
	test $(grep -c "^Message-Id: <$FIX>" s/series/$A/v2.fixlets.mbx) = 1
'

test_expect_success 'replies with References but no In-Reply-To keep their trailer and fixlet' '
	sk_new_project t &&
	no_in_reply_to $ACK <"$SEED_A" | no_in_reply_to $FIX >refs.mbox &&
	test $(grep -ci "^In-Reply-To:" refs.mbox) = 3 &&
	stablekit -C t pull -m "$PWD/refs.mbox" >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (new series)$" out &&
	test "$(conf t patch.2.1.acked-by)" = "$HANNES" &&
	test "$(conf t fixlet.2.2.1.message-id)" = $FIX &&
	test "$(conf t fixlet.2.2.1.in-reply-to)" = $P2
'

test_expect_success 'a fixlets mbox no revision needs is removed when the revision is written' '
	sk_new_project u &&
	stablekit -C u pull -m "$PWD/neither.mbox" >/dev/null &&
	! test -e u/series/$A/v2.fixlets.mbx &&
	only_mail $FIX <"$SEED_A" >u/series/$A/v2.fixlets.mbx &&
	stablekit -C u pull -m "$PWD/no-fixlet.mbox" >out &&
	grep "(updated in place)$" out &&
	! test -e u/series/$A/v2.fixlets.mbx
'

test_done

#!/bin/sh

test_description='stablekit pull: the thread first, then validation

An archive holds many threads.  pull takes the thread of the message-id
given (without one: the only thread that carries patches; with more than
one it lists them and exits 129), validates only its mails, hands only
them to b4, and names every mail it left out in a --verbose line.
'

. ./lib-stablekit.sh

A=mm-vmscan-reduce-lru_lock-contention-via-vmstat
B=mm-workingset-fix-the-shadow-node-budget-under-mglru
SEED_A="$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox"
SEED_B="$SK_SEEDS/shadow-node-budget-mglru.v3.mbox"
A_COVER=20260713163443.3562378-1-usama.arif@linux.dev
A_P2=20260713163443.3562378-3-usama.arif@linux.dev
B_COVER=20260904094555.2871043-1-hui.zhu@linux.dev
ODD="$SHARNESS_TEST_DIRECTORY/t1300/odd-note.mbox"

test_must_be_empty_dir() {
	test -z "$(ls -A "$1")" || {
		echo "not empty: $1"; ls -la "$1"; false
	}
}

test_expect_success 'setup: an archive of both seed threads and an odd mail' '
	cat "$SEED_A" "$ODD" "$SEED_B" >archive.mbox &&
	cat "$SEED_A" "$ODD" >a-and-odd.mbox
'

test_expect_success 'the odd mail alone is refused (it is bad input)' '
	sk_new_project p0 &&
	test_expect_code 128 stablekit -C p0 pull -m "$ODD" 2>err &&
	grep "carries no diff" err
'

test_expect_success 'by message-id: one odd unrelated mail does not break the pull' '
	sk_new_project p1 &&
	stablekit -C p1 pull -m "$PWD/archive.mbox" $B_COVER >out 2>err &&
	grep "^$B: v3, 3 patches (new series)" out &&
	! test -e p1/series/$A &&
	! grep "pull:" err
'

test_expect_success '--verbose names each mail left out, with file:line' '
	sk_new_project p2 &&
	stablekit -C p2 pull -v -m "$PWD/archive.mbox" $B_COVER >out 2>err &&
	grep "^pull: skipped .*archive.mbox:[0-9]* <odd-note@example.org> .\[PATCH\] mm: a patch mail whose diff was lost in transit.: not in the thread pulled$" err &&
	grep "^pull: skipped .*archive.mbox:[0-9]* <$A_COVER> " err &&
	test $(grep -c "^pull: skipped" err) = $(( $(grep -c "^From mboxrd@z" "$SEED_A") + 1 ))
'

UNREADABLE="$SHARNESS_TEST_DIRECTORY/t1300/unreadable.mbox"

test_expect_success 'mails the reader cannot read, outside the thread: skipped and named' '
	cat "$SEED_A" "$UNREADABLE" >a-and-unreadable.mbox &&
	sk_new_project pu &&
	stablekit -C pu pull -v -m "$PWD/a-and-unreadable.mbox" >out 2>err &&
	grep "^$A: v2, 2 patches + 1 fixlet (new series)" out &&
	grep "^pull: skipped .*a-and-unreadable.mbox:[0-9]* .*not in the thread pulled, and unreadable: .*: byte 0xe9 in the Message-Id header" err &&
	grep "^pull: skipped .*<bad-charset@example.org> .*unreadable: .*unknown charset .x-no-such-charset." err &&
	sk_new_project pu2 &&
	stablekit -C pu2 pull -m "$PWD/a-and-unreadable.mbox" $A_COVER >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (new series)" out
'

test_expect_success 'alone, or named by its message-id, an unreadable mail is refused with its own error' '
	sk_new_project pu3 &&
	test_expect_code 128 stablekit -C pu3 pull -m "$UNREADABLE" 2>err &&
	grep "unreadable.mbox:[0-9]*: unknown charset .x-no-such-charset." err &&
	test_expect_code 128 stablekit -C pu3 pull -m "$PWD/a-and-unreadable.mbox" \
		bad-charset@example.org 2>err &&
	grep "unknown charset .x-no-such-charset." err &&
	test_must_be_empty_dir pu3/series
'

test_expect_success 'an unreadable reply inside the thread pulled fails the pull' '
	{
		cat "$SEED_A" &&
		printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: C <c@example.org>\nSubject: Re: [PATCH v2 1/2] x\nMessage-Id: <reply-bad@example.org>\nIn-Reply-To: <$A_P2>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=x-no-such-charset\n\nAcked-by: C <c@example.org>\n"
	} >a-bad-reply.mbox &&
	sk_new_project pu4 &&
	test_expect_code 128 stablekit -C pu4 pull -m "$PWD/a-bad-reply.mbox" 2>err &&
	grep "a-bad-reply.mbox:[0-9]*: unknown charset .x-no-such-charset." err &&
	test_must_be_empty_dir pu4/series
'

test_expect_success 'a message-id in the middle of the thread (or its lore URL) selects the whole thread' '
	sk_new_project p3 &&
	stablekit -C p3 pull -m "$PWD/archive.mbox" "<$A_P2>" >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (new series)" out &&
	! test -e p3/series/$B &&
	sk_new_project p3u &&
	stablekit -C p3u pull -m "$PWD/archive.mbox" "https://lore.kernel.org/all/$A_P2/" >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (new series)" out
'

test_expect_success 'without a message-id: the only thread with patches is pulled' '
	sk_new_project p4 &&
	stablekit -C p4 pull -v -m "$PWD/a-and-odd.mbox" >out 2>err &&
	grep "^$A: v2, 2 patches + 1 fixlet (new series)" out &&
	grep "^pull: skipped .*<odd-note@example.org>" err
'

test_expect_success 'without a message-id and two series: the threads are listed, exit 129' '
	sk_new_project p5 &&
	test_expect_code 129 stablekit -C p5 pull -m "$PWD/archive.mbox" 2>err &&
	grep "archive.mbox: 2 threads carry patches; name the one to pull by a message-id of it" err &&
	grep "^  <$A_COVER>  \[PATCH v2 0/2\] mm/vmscan: reduce lru_lock contention via vmstat-derived scan-balance cost  (6 mails)$" err &&
	grep "^  <$B_COVER>  \[PATCH v3 0/3\] mm: workingset: fix the shadow node budget under MGLRU  (7 mails)$" err &&
	! grep "odd-note" err &&
	test_must_be_empty_dir p5/series
'

test_expect_success 'a message-id the input lacks is an error naming both, nothing stored' '
	sk_new_project p6 &&
	test_expect_code 128 stablekit -C p6 pull -m "$PWD/archive.mbox" nosuch@example.org 2>err &&
	grep "archive.mbox: no mail with Message-Id <nosuch@example.org> in [0-9]* message(s)" err &&
	test_must_be_empty_dir p6/series
'

test_expect_success 'a bad mail inside the thread pulled still fails, naming it' '
	sk_new_project p7 &&
	sed "/^Message-ID: <$A_P2>/,/^diff --git/ s/^diff --git.*/not a diff any more/" "$SEED_A" >bad.mbox &&
	sed -i "/^not a diff any more/,/^-- \$/ { /^not a diff/!{ /^-- \$/!d } }" bad.mbox &&
	test_expect_code 128 stablekit -C p7 pull -m "$PWD/bad.mbox" $A_COVER 2>err &&
	grep "bad.mbox:[0-9]*: mail .\[PATCH v2 2/2\]" err &&
	test_must_be_empty_dir p7/series
'

test_expect_success 'a second copy of a mail is left out and named' '
	sk_new_project p8 &&
	cat "$SEED_B" "$SEED_B" >twice.mbox &&
	stablekit -C p8 pull -v -m "$PWD/twice.mbox" >out 2>err &&
	grep "^$B: v3, 3 patches (new series)" out &&
	grep "^pull: skipped .*twice.mbox:[0-9]* <$B_COVER>: a second copy of that message$" err
'

test_expect_success 'a real list archive (t/corpus as a maildir): each series by its message-id' '
	mkdir -p corpus/cur corpus/new corpus/tmp &&
	for f in "$SHARNESS_TEST_DIRECTORY"/corpus/*/*.eml; do
		d=${f%/*} &&
		cp "$f" "corpus/cur/${d##*/}_${f##*/}" || return 1
	done &&
	sk_new_project c &&
	test_expect_code 129 stablekit -C c pull -m "$PWD/corpus" 2>err &&
	grep "corpus: [0-9]* threads carry patches" err &&
	grep "^  <$A_COVER>  \[PATCH v2 0/2\] mm/vmscan: reduce lru_lock contention via vmstat-derived scan-balance cost  (6 mails)$" err &&
	grep "^  <20250922192408.913556629@linuxfoundation.org>  \[PATCH 6.12 000/105\] 6.12.49-rc1 review  ([0-9]* mails)$" err &&
	test_must_be_empty_dir c/series &&
	stablekit -C c pull -m "$PWD/corpus" $A_COVER >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (new series)$" out &&
	test "$(git config -f c/series/$A/series.conf patch.2.1.acked-by)" = "Johannes Weiner <hannes@cmpxchg.org>" &&
	stablekit -C c pull -m "$PWD/corpus" 20260626122009.75334-2-usama.arif@linux.dev >out &&
	grep "^$A: RFC, 1 patch (older revision, stored; latest stays v2)$" out &&
	stablekit -C c pull -m "$PWD/corpus" 20180910215622.4428-1-guro@fb.com >out &&
	grep "^mm-don-t-raise-memcg_oom-event-due-to-failed-high: RFC, 1 patch (new series)$" out
'

test_expect_success 'help pull documents thread selection, revision labels and merging' '
	stablekit help pull >help &&
	grep "^   Thread selection$" help &&
	grep "^   Revision labels$" help &&
	grep "^   Merging a re-pull$" help &&
	grep "^   Stable list traffic$" help &&
	grep "^       -v, --verbose$" help
'

test_done

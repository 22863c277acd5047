#!/bin/sh

test_description='stablekit pull: stable list traffic, and b4 returning all it was given

A stable review patch ("[PATCH 6.12 041/120]" naming "commit X upstream."),
an AUTOSEL mail ("[PATCH AUTOSEL 6.x ...]", "[ Upstream commit X ]") and a
FAILED mail (the original commit pasted in) are each a series of their
own; the kind is recorded for the series and the upstream commit for the
patch, and status takes that commit as explicit evidence.  The count of
patches b4 returns must be the count validated.
'

. ./lib-stablekit.sh

FIX="$SHARNESS_TEST_DIRECTORY/t1330"
REVIEW="$SHARNESS_TEST_DIRECTORY/t1150/stable-review-6.12-41-49.mbox"
R=wifi-rtw88-add-usb-id-2001-3329-for-d-link-ac13u-rev
F=drivers/net/wireless/realtek/rtw88/rtw8822cu.c

conf() { git config -f "p/series/$1/series.conf" "$2"; }

test_expect_success 'setup' '
	sk_new_project p
'

test_expect_success 'a stable review patch: kind stable-review, its upstream commit recorded' '
	stablekit -C p pull -m "$REVIEW" >out &&
	grep "^$R: v1, 1 patch (new series)$" out &&
	test "$(conf $R series.kind)" = stable-review &&
	test "$(conf $R patch.1.1.author)" = "Zenm Chen <zenmchen@gmail.com>" &&
	! grep "stable review patch" p/series/$R/v1.mbx &&
	test "$(conf $R patch.1.1.upstream)" = b377dcd9a286a6f81922ae442cd1c743bc4a2b35 &&
	stablekit -C p series show $R --json >s.json &&
	test "$(jq -r .kind s.json)" = stable-review &&
	test "$(jq -r ".revisions[0].patches[0].upstream" s.json)" = b377dcd9a286a6f81922ae442cd1c743bc4a2b35 &&
	stablekit -C p series show $R >show &&
	grep "^kind:      stable-review$" show &&
	grep "^     upstream: b377dcd9a286a6f81922ae442cd1c743bc4a2b35$" show
'

test_expect_success 'an AUTOSEL mail named by message-id: a series of its own' '
	stablekit -C p pull -v -m "$FIX/autosel.mbox" 20260105170001.2-sashal@kernel.org >out 2>err &&
	grep "^mm-other-fix-the-other: v1, 1 patch (new series)$" out &&
	grep "^pull: skipped .*autosel.mbox:2 .\[PATCH AUTOSEL 6.12 01/02\] mm: thing: count the thing.: not the stable patch pulled nor a reply to it$" err &&
	test "$(conf mm-other-fix-the-other series.kind)" = autosel &&
	test "$(conf mm-other-fix-the-other patch.1.1.upstream)" = 5555555555556666666666667777777777778888 &&
	test "$(conf mm-other-fix-the-other patch.1.1.author)" = "B Author <b@example.org>"
'

test_expect_success 'an AUTOSEL thread pulled whole: each patch its upstream commit' '
	stablekit -C p pull -m "$FIX/autosel.mbox" >out &&
	grep "^mm-thing-count-the-thing: v1, 2 patches (new series)$" out &&
	test "$(conf mm-thing-count-the-thing series.kind)" = autosel &&
	test "$(conf mm-thing-count-the-thing patch.1.1.upstream)" = 1111111111112222222222223333333333334444 &&
	test "$(conf mm-thing-count-the-thing patch.1.2.upstream)" = 5555555555556666666666667777777777778888
'

test_expect_success 'a FAILED mail: the commit in it is the patch, kind failed' '
	stablekit -C p pull -m "$FIX/failed.mbox" >out &&
	grep "^mm-thing-fix-the-thing: v1, 1 patch (new series)$" out &&
	S=mm-thing-fix-the-thing &&
	test "$(conf $S series.kind)" = failed &&
	test "$(conf $S patch.1.1.upstream)" = 0123456789abcdef0123456789abcdef01234567 &&
	test "$(conf $S patch.1.1.author)" = "A U Thor <author@example.org>" &&
	test "$(conf $S patch.1.1.file)" = mm/thing.c &&
	test "$(conf $S patch.1.1.message-id)" = 2026010511-thing-failed@gregkh &&
	grep "^Subject: \[PATCH v1 1/1\] mm: thing: fix the thing$" p/series/$S/v1.mbx
'

test_expect_success 'a plain series records no kind and no upstream' '
	stablekit -C p pull -m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox" >/dev/null &&
	B=mm-workingset-fix-the-shadow-node-budget-under-mglru &&
	test_must_fail conf $B series.kind &&
	test_must_fail conf $B patch.3.1.upstream &&
	stablekit -C p series show $B --json >b.json &&
	test "$(jq -r .kind b.json)" = series &&
	test "$(jq -r ".revisions[0].patches[0].upstream" b.json)" = null
'

test_expect_success 'status: the upstream commit a review mail names is explicit evidence' '
	git init -q linux &&
	mkdir -p linux/${F%/*} &&
	printf "line %s\n" $(test_seq 1 30) >linux/$F &&
	git -C linux add . &&
	git -C linux commit -q -m "base" &&
	git -C linux tag v7.0 &&
	printf "line %s\n" $(test_seq 1 30) | sed "s/^line 20\$/line 20\nusb id/" >linux/$F &&
	git -C linux commit -q -a -m "wifi: rtw88: a subject the review mail does not have" &&
	UP=$(git -C linux rev-parse HEAD) &&
	sk_new_project q &&
	cat >q/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linux
	[branch "mainline"]
		ref = master
		base = v7.0
		kind = mainline
	EOF
	sed "s/^commit b377dcd9a286a6f81922ae442cd1c743bc4a2b35 upstream\\./commit $UP upstream./" \
		"$REVIEW" >review.mbox &&
	grep "^commit $UP upstream\\.\$" review.mbox &&
	stablekit -C q pull -m "$PWD/review.mbox" >/dev/null &&
	(cd q && stablekit status --json >../status.json) &&
	test "$(jq -r ".patches[] | select(.id == \"$R:1\") | .branches.mainline.state" status.json)" = upstream &&
	jq -r ".patches[] | select(.id == \"$R:1\") | .branches.mainline.evidence[]" status.json >how &&
	grep "explicit reference: the stable mail names upstream commit $UP" how
'

# A series of N patches, each a reply to its cover; the counters as wide as N.
big_series() {
	awk -v n=$1 "BEGIN {
		w = length(n \"\")
		for (i = 0; i <= n; i++) {
			printf \"From mboxrd@z Thu Jan  1 00:00:00 1970\\n\"
			printf \"From: A U Thor <author@example.org>\\n\"
			printf \"Date: Mon, 5 Jan 2026 10:00:00 +0000\\n\"
			printf \"Subject: [PATCH %0*d/%d] mm: part %d\\n\", w, i, n, i
			printf \"Message-Id: <big-%d@example.org>\\n\", i
			if (i) printf \"In-Reply-To: <big-0@example.org>\\n\"
			printf \"\\nPart %d.\\n\\nSigned-off-by: A U Thor <author@example.org>\\n---\\n\", i
			printf \"diff --git a/mm/p%d.c b/mm/p%d.c\\n--- a/mm/p%d.c\\n+++ b/mm/p%d.c\\n\", i, i, i, i
			printf \"@@ -1 +1 @@\\n-old\\n+new\\n\\n\"
		}
	}"
}

test_expect_success 'a 10,000-part series that b4 returns as one patch is not stored' '
	sk_new_project h &&
	big_series 10000 >huge.mbox &&
	test_expect_code 128 stablekit -C h pull -m "$PWD/huge.mbox" 2>err &&
	grep "huge.mbox: b4 returned 1 patch but the thread holds 10000 valid patch mails of that revision; nothing stored" err &&
	test -z "$(ls -A h/series)"
'

test_done

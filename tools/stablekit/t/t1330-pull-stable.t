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
CORPUS="$SHARNESS_TEST_DIRECTORY/corpus"
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

test_expect_success 'an AUTOSEL thread without a message-id: each mail a series, listed, exit 129' '
	sk_new_project q0 &&
	test_expect_code 129 stablekit -C q0 pull -m "$FIX/autosel.mbox" 2>err &&
	grep "autosel.mbox: 2 stable mails, each a series of its own; name the one to pull by its message-id" err &&
	grep "^  <20260105170001.1-sashal@kernel.org>  \[PATCH AUTOSEL 6.12 01/02\] mm: thing: count the thing$" err &&
	grep "^  <20260105170001.2-sashal@kernel.org>  \[PATCH AUTOSEL 6.12 02/02\] mm: other: fix the other$" err &&
	test -z "$(ls -A q0/series)"
'

# real_mail FILE: a maildir holding the corpus mail FILE alone
real_mail() {
	rm -rf one && mkdir -p one/cur one/new one/tmp &&
	cp "$CORPUS/$1" one/cur/1
}

test_expect_success 'real stable mails: kind, upstream commit and the real author' '
	sk_new_project c &&
	while read file kind up author; do
		real_mail $file &&
		stablekit -C c pull -m "$PWD/one" >out || return 1
		s=$(sed -n "s/: v1, 1 patch (new series)\$//p" out) &&
		test -n "$s" &&
		test "$(git config -f c/series/$s/series.conf series.kind)" = $kind &&
		test "$(git config -f c/series/$s/series.conf patch.1.1.upstream)" = $up &&
		test "$(git config -f c/series/$s/series.conf patch.1.1.author | sed "s/ <.*//")" = "$author" ||
		{ echo "wrong: $file"; cat c/series/$s/series.conf; return 1; }
	done <<-EOF
	stable-review/6.12-026-octeon-ep.eml stable-review a72175c985132885573593222a7b088cf49b07ae Sathesh B Edara
	stable-review/6.12-057-mmc-mvsdio-quilt.eml stable-review 8ab2f1c35669bff7d7ed1bb16bf5cc989b3e2e17 Thomas Fourier
	stable-review/6.12-061-rds-quilt-utf8-cc.eml stable-review 4351ca3fcb3ffecf12631b4996bf085a2dad0db6 Håkon Bugge
	stable-review/6.12-071-asoc-wm8940-upstream-bracket.eml stable-review d05afb53c683ef7ed1228b593c3360f4d3126c58 Charles Keepax
	stable-review/6.12-077-drm-anx7625.eml stable-review a10f910c77f280327b481e77eab909934ec508f0 Loic Poulain
	autosel/6.12-04-epoll-fsdevel.eml autosel 6474353a5e3d0b2cf610153cea0c61f576a36d0a Christian Brauner
	autosel/6.12-06-xen-acpi-processor-mailman.eml autosel 0f2946bb172632e122d4033e0b03f85230a29510 Jason Andryuk
	autosel/6.12-08-drm-vkms.eml autosel 8ec43c58d3be615a71548bc09148212013fb7e5f Harry Wentland
	failed/6.1-memcg-drain-obj-stock.eml failed 9f01b4954490d4ccdbcc2b9be34a9921ceee9cbb Shakeel Butt
	failed/6.12-cgroup-rstat-forceidle.eml failed c4af66a95aa3bc1d4f607ebd4eea524fb58946e3 Abel Wu
	failed/6.12-media-venus-sasha.eml failed 93ecd6ee95c38cb533fa25f48d3c1c8cb69f410f Renjiang Han
	EOF
'

test_expect_success 'a reply to a FAILED mail is no patch' '
	real_mail failed/6.12-re-failed-rdseed-zen5.eml &&
	test_expect_code 128 stablekit -C c pull -m "$PWD/one" 2>err &&
	grep "no \[PATCH\] mail in 1 message(s)" err
'

test_expect_success 'the real review thread: a review patch by message-id, the rest skipped' '
	mkdir -p rc1/cur rc1/new rc1/tmp &&
	cp "$CORPUS"/stable-cover/6.12.49-rc1-000-cover.eml "$CORPUS"/stable-review/6.12-*.eml \
		"$CORPUS"/reply/6.12.49-rc1-tested-*.eml rc1/cur/ &&
	sk_new_project d &&
	stablekit -C d pull -v -m "$PWD/rc1" 20250922192410.408331126@linuxfoundation.org >out 2>err &&
	grep "^mmc-mvsdio-fix-dma_unmap_sg-nents-value: v1, 1 patch (new series)$" out &&
	test $(grep -c "not the stable patch pulled nor a reply to it$" err) = 7 &&
	test "$(ls d/series)" = mmc-mvsdio-fix-dma_unmap_sg-nents-value &&
	test_expect_code 129 stablekit -C d pull -m "$PWD/rc1" 2>err &&
	grep "rc1: 5 stable mails, each a series of its own" err
'

test_expect_success 'the corpus review thread as an mbox: listed without a message-id, one by it' '
	PARTIAL="$CORPUS/threads/6.12.49-rc1-partial-review.mbox" &&
	sk_new_project e &&
	test_expect_code 129 stablekit -C e pull -m "$PARTIAL" 2>err &&
	grep "^  <20250922192410.512842675@linuxfoundation.org>  \[PATCH 6.12 061/105\] rds: ib: Increment i_fastreg_wrs before bailing out$" err &&
	stablekit -C e pull -m "$PARTIAL" 20250922192410.512842675@linuxfoundation.org >out &&
	grep "^rds-ib-increment-i_fastreg_wrs-before-bailing-out: v1, 1 patch (new series)$" out &&
	test "$(git config -f e/series/rds-ib-increment-i_fastreg_wrs-before-bailing-out/series.conf patch.1.1.upstream)" = \
		4351ca3fcb3ffecf12631b4996bf085a2dad0db6
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

test_expect_success 'a FAILED mail keeps the tree it failed on: series show says it' '
	S=mm-thing-fix-the-thing &&
	test "$(conf $S series.failed-on)" = 6.1-stable &&
	stablekit -C p series show $S >show &&
	grep "^kind:      failed$" show &&
	grep "^failed on: the 6.1-stable tree$" show &&
	stablekit -C p series show $S --json >f.json &&
	test "$(jq -r .failed_on f.json)" = 6.1-stable
'

test_expect_success 'a ported FAILED patch links the patch, not the FAILED mail' '
	S=mm-thing-fix-the-thing &&
	sed "s|^Signed-off-by: Andrew Morton <akpm@linux-foundation.org>\$|&\nLink: https://lore.kernel.org/r/20251222-thing-v1@example.org|" \
		"$FIX/failed.mbox" | sed "/^Fixes: /d" >failed-link.mbox &&
	grep "^Link: https://lore.kernel.org/r/20251222-thing-v1@example.org\$" failed-link.mbox &&
	git init -q thing &&
	mkdir thing/mm && echo old >thing/mm/thing.c &&
	git -C thing add . && git -C thing commit -q -m "mm: thing: add the thing" &&
	git -C thing tag v6.1 &&
	git -C thing checkout -q -b linux-6.1.y &&
	echo 6.1.1 >thing/Makefile && git -C thing add Makefile &&
	git -C thing commit -q -m "Linux 6.1.1" &&
	sk_new_project ft &&
	cat >ft/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../thing
		signoff = Stable Tester <tester@example.org>
	[branch "linux-6.1.y"]
		ref = linux-6.1.y
		base = v6.1
		allow-pending = true
	EOF
	stablekit -C ft pull -m "$PWD/failed-link.mbox" >/dev/null &&
	(cd ft && stablekit port $S --branch linux-6.1.y) >out &&
	grep "1. clean  *mm: thing: fix the thing" out &&
	q=ft/stable/linux-6.1.y/mm-thing-fix-the-thing.patch &&
	grep "^Link: https://lore.kernel.org/r/20251222-thing-v1@example.org\$" $q &&
	! grep "thing-failed@gregkh" $q
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

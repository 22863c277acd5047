#!/bin/sh

test_description='stablekit pull: revision labels and their order

"[RFC]", "[RFC PATCH]", "[PATCH RFC]" are the revision RFC, "[RFC PATCH v2]"
RFC v2, "[PATCH v3 RESEND]" v3: an RFC is its own revision, never v1.
Revisions are ordered by label (RFCs first) and date, never by the order
they were pulled in; the latest is the last of that order.
'

. ./lib-stablekit.sh
. "$SHARNESS_TEST_DIRECTORY/t1310/one-patch.sh"

A=mm-vmscan-reduce-lru_lock-contention-via-vmstat
RFC_MAIL="$SHARNESS_TEST_DIRECTORY/corpus/rfc/vmstat-rfc-1-1.eml"
V3="$SHARNESS_TEST_DIRECTORY/t1000/series-a.v3.mbox"

conf() { git config -f "p/series/$1/series.conf" "$2"; }
labels() { stablekit -C "$1" series show "$2" --json | jq -r ".revisions[].label" | tr "\n" " "; }

test_expect_success 'setup: the real [RFC 1/1] of series A as a maildir' '
	mkdir -p rfc/cur rfc/new rfc/tmp &&
	cp "$RFC_MAIL" rfc/cur/1 &&
	sk_new_project p
'

test_expect_success '[RFC 1/1] alone is a revision of its own: RFC' '
	stablekit -C p pull -m "$PWD/rfc" >out &&
	echo "$A: RFC, 1 patch (new series)" >expect &&
	test_cmp expect out &&
	test "$(conf $A revision.1001.label)" = RFC &&
	test "$(conf $A revision.1001.mbox)" = rfc.1001.mbx &&
	grep "^Subject: \[PATCH RFC 1/1\] mm/vmscan: reduce lru_lock contention" p/series/$A/rfc.1001.mbx
'

test_expect_success 'the real v2 pulled after the RFC stays v2, with v2 subjects' '
	stablekit -C p pull -m "$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox" >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (new revision; previous RFC)$" out &&
	test -f p/series/$A/v2.mbx &&
	! test -e p/series/$A/v3.mbx &&
	grep "^Subject: \[PATCH v2 1/2\]" p/series/$A/v2.mbx &&
	grep "^Subject: \[PATCH v2 2/2\]" p/series/$A/v2.mbx &&
	test "$(labels p $A)" = "RFC v2 "
'

test_expect_success 'the RFC and the v2 thread in one mbox (corpus): each by its message-id' '
	sk_new_project both &&
	BOTH="$SHARNESS_TEST_DIRECTORY/corpus/threads/vmstat-rfc-then-v2.mbox" &&
	test_expect_code 129 stablekit -C both pull -m "$BOTH" 2>err &&
	grep "2 threads carry patches" err &&
	stablekit -C both pull -m "$BOTH" 20260626122009.75334-1-usama.arif@linux.dev >out &&
	grep "^$A: RFC, 1 patch (new series)$" out &&
	stablekit -C both pull -m "$BOTH" 20260713163443.3562378-1-usama.arif@linux.dev >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (new revision; previous RFC)$" out &&
	test "$(labels both $A)" = "RFC v2 "
'

test_expect_success 'an older revision pulled later is stored, never made latest' '
	sk_new_project q &&
	stablekit -C q pull -m "$V3" >/dev/null &&
	stablekit -C q pull -m "$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox" >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (older revision, stored; latest stays v3)$" out &&
	test "$(labels q $A)" = "v2 v3 " &&
	stablekit -C q series >list &&
	grep "^$A  *v3  *2  *0  *Usama Arif" list &&
	stablekit -C q pull -m "$PWD/rfc" >out &&
	grep "^$A: RFC, 1 patch (older revision, stored; latest stays v3)$" out &&
	test "$(labels q $A)" = "RFC v2 v3 "
'

test_expect_success 'an RFC pulled after v1 and v2 is not stored as v3; status tracks v2' '
	git init -q linux &&
	echo base >linux/README &&
	git -C linux add . &&
	git -C linux commit -q -m base &&
	git -C linux tag v7.0 &&
	sk_new_project st &&
	cat >st/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linux
	[branch "mainline"]
		ref = master
		base = v7.0
		kind = mainline
	EOF
	one_patch "[PATCH]" first 12 >st-v1.mbox &&
	one_patch "[PATCH v2]" second 14 >st-v2.mbox &&
	one_patch "[RFC PATCH]" early 2 >st-rfc.mbox &&
	for f in st-v1 st-v2 st-rfc; do
		stablekit -C st pull -m "$PWD/$f.mbox" || return 1
	done >out &&
	grep "^mm-thing: RFC, 1 patch (older revision, stored; latest stays v2)$" out &&
	! test -e st/series/mm-thing/v3.mbx &&
	(cd st && stablekit status --json >../status.json) &&
	jq -r ".patches[] | select(.series == \"mm-thing\") | .version" status.json >versions &&
	echo 2 >expect &&
	test_cmp expect versions
'

test_expect_success 'a queue from the RFC is stale once v2 is latest, and says so by label' '
	R="$PWD/stw/results/mainline/port" && mkdir -p "$R" &&
	echo "{\"revision\": 1001}" >"$R/mm-thing.json" &&
	(cd st && SK_WORK=../stw stablekit status >../status.out 2>&1) &&
	grep "^mainline: mm-thing: stale (v2 on the list, queue from RFC): stablekit port mm-thing --branch mainline$" status.out &&
	(cd st && SK_WORK=../stw stablekit status --json >../status.json) &&
	jq -e ".stale == [{\"branch\": \"mainline\", \"series\": \"mm-thing\", \"ported\": 1001, \"latest\": 2, \"ported_label\": \"RFC\", \"latest_label\": \"v2\"}]" status.json &&
	echo "{\"revision\": 2}" >"$R/mm-thing.json" &&
	(cd st && SK_WORK=../stw stablekit status >../status.out 2>&1) &&
	! grep stale status.out
'

test_expect_success 'every subject form names its revision, whatever the pull order' '
	sk_new_project r &&
	one_patch "[PATCH v3 RESEND]" three 20 >v3-resend.mbox &&
	one_patch "[RFC PATCH v2]" two 10 >rfc-v2.mbox &&
	one_patch "[RFC PATCH]" one 5 >rfc-patch.mbox &&
	one_patch "[PATCH RFC]" one 5 >patch-rfc.mbox &&
	one_patch "[RFC]" one 5 >rfc-only.mbox &&
	one_patch "[PATCH v3]" three 20 >v3.mbox &&
	for f in v3-resend rfc-v2 rfc-patch patch-rfc rfc-only v3; do
		stablekit -C r pull -m "$PWD/$f.mbox" || return 1
	done >out &&
	cat >expect <<-EOF &&
	mm-thing: v3, 1 patch (new series)
	mm-thing: RFC v2, 1 patch (older revision, stored; latest stays v3)
	mm-thing: RFC, 1 patch (older revision, stored; latest stays v3)
	mm-thing: RFC, 1 patch (already up to date)
	mm-thing: RFC, 1 patch (already up to date)
	mm-thing: v3, 1 patch (already up to date)
	EOF
	test_cmp expect out &&
	test "$(labels r mm-thing)" = "RFC RFC v2 v3 " &&
	stablekit -C r series show mm-thing --json >s.json &&
	test "$(jq -r ".revisions[-1].label" s.json)" = v3 &&
	test "$(jq -r "[.revisions[].rfc] | join(\" \")" s.json | tr -d "\n")" = "true true false"
'

test_expect_success 'diff names revisions by label: "RFC v2", rfc-v2, v3, 3' '
	stablekit -C r diff mm-thing "RFC v2" v3 >out &&
	head -1 out >first &&
	echo "mm-thing: RFC v2..v3" >expect &&
	test_cmp expect first &&
	stablekit -C r diff mm-thing rfc-v2 3 >out2 &&
	test_cmp out out2 &&
	grep -- "^--- a/RFC v2/1$" out &&
	grep -- "^+++ b/v3/1$" out &&
	test_expect_code 129 stablekit -C r diff mm-thing v9 v3 2>err &&
	grep "has no revision .v9. (it has RFC, RFC v2, v3)$" err
'

test_expect_success 'a v1 posted after an RFC v2 orders after it (RFCs first), and is latest' '
	one_patch "[PATCH]" first-posting 25 >v1.mbox &&
	sk_new_project s &&
	stablekit -C s pull -m "$PWD/rfc-v2.mbox" >/dev/null &&
	stablekit -C s pull -m "$PWD/v1.mbox" >out &&
	grep "^mm-thing: v1, 1 patch (new revision; previous RFC v2)$" out &&
	test "$(labels s mm-thing)" = "RFC v2 v1 "
'

test_expect_success 'a second v3 with other code is stored beside the first, ordered by date' '
	one_patch "[PATCH v3]" three-again 21 >v3-again.mbox &&
	stablekit -C r pull -m "$PWD/v3-again.mbox" >out 2>err &&
	grep "^mm-thing: v3, 1 patch (new revision; previous v3)$" out &&
	grep "warning: v3 is already stored with different code (revision 3); storing this one as revision 1003" err &&
	test "$(git config -f r/series/mm-thing/series.conf revision.1003.mbox)" = v3.1003.mbx &&
	stablekit -C r series show mm-thing --json >s.json &&
	test "$(jq -r ".revisions[-1].version" s.json)" = 1003 &&
	test_expect_code 129 stablekit -C r diff mm-thing v3 rfc 2>err &&
	grep "has more than one revision .v3. (it has RFC, RFC v2, v3 #3, v3 #1003)$" err &&
	stablekit -C r diff mm-thing "#3" "#1003" >out &&
	grep "^mm-thing: v3..v3$" out &&
	grep "^+++ b/v3/1$" out
'

test_done

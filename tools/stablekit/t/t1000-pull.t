#!/bin/sh

test_description='stablekit pull ingests series revisions from mboxes through b4'

. ./lib-stablekit.sh

A=mm-vmscan-reduce-lru_lock-contention-via-vmstat
B=mm-workingset-fix-the-shadow-node-budget-under-mglru

conf() {
	git config -f "p/series/$1/series.conf" "$2"
}

test_expect_success 'setup: an empty project' '
	sk_new_project p
'

test_expect_success 'pull -m stores series A v2 with two patches and the fixlet' '
	stablekit -C p pull -m "$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox" >out &&
	grep "^$A: v2, 2 patches + 1 fixlet (new series)" out &&
	test -f p/series/$A/v2.mbx &&
	test -f p/series/$A/v2.fixlets.mbx &&
	test "$(conf $A revision.2.patches)" = 2 &&
	test "$(conf $A series.author)" = "Usama Arif <usama.arif@linux.dev>"
'

test_expect_success 'the real thread: Johannes Weiner acked 1/2 in a reply, 2/2 only got a review' '
	test "$(conf $A revision.2.message-id)" = \
		"20260713163443.3562378-1-usama.arif@linux.dev" &&
	test "$(conf $A patch.2.1.acked-by)" = "Johannes Weiner <hannes@cmpxchg.org>" &&
	test_must_fail conf $A patch.2.2.acked-by
'

test_expect_success 'the fixlet is recorded as an amendment of patch 2' '
	test "$(conf $A fixlet.2.2.1.subject)" = \
		"mm/vmscan: increment pgreclaim_pageout_* and pgrotate_* for MGLRU" &&
	test "$(conf $A fixlet.2.2.1.in-reply-to)" = \
		"20260713163443.3562378-3-usama.arif@linux.dev" &&
	test_must_fail conf $A fixlet.2.1.1.subject
'

test_expect_success 'stored patch-ids are git patch-id --stable of the stored mails' '
	mkdir split &&
	git mailsplit -osplit p/series/$A/v2.mbx >/dev/null &&
	git patch-id --stable <split/0002 | cut -d" " -f1 >expect &&
	conf $A patch.2.1.patch-id >actual &&
	test_cmp expect actual &&
	git patch-id --stable <split/0003 | cut -d" " -f1 >expect &&
	conf $A patch.2.2.patch-id >actual &&
	test_cmp expect actual
'

test_expect_success 'the stored mbox is am-ready: git mailinfo reads author and subject' '
	git mailinfo msg patch <split/0003 >info &&
	grep "^Author: Usama Arif" info &&
	grep "^Subject: mm/vmscan: reduce lru_lock contention via vmstat-derived scan-balance cost" info &&
	grep "^diff --git a/mm/vmscan.c" patch
'

test_expect_success 'series B v3: three patches with Fixes, Cc: stable and Acked-by' '
	stablekit -C p pull -m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox" >out 2>err &&
	grep "^$B: v3, 3 patches (new series)" out &&
	for n in 1 2; do
		test "$(conf $B patch.3.$n.fixes)" = \
			"7404bd37cfbe (\"mm: workingset: use lruvec_lru_size() to get the number of lru pages\")" &&
		test "$(conf $B patch.3.$n.cc)" = "stable@vger.kernel.org" || return 1
	done &&
	test_must_fail conf $B patch.3.3.fixes &&
	for n in 1 2 3; do
		test "$(conf $B patch.3.$n.acked-by)" = "Shakeel Butt <shakeel.butt@linux.dev>" ||
		return 1
	done
'

test_expect_success 'malformed Fixes: lines b4 took from replies are dropped, with a warning' '
	test "$(git config -f p/series/$B/series.conf --get-all patch.3.2.fixes | wc -l)" = 1 &&
	grep "warning: patch 2/3: dropped malformed trailer .Fixes: and cc:stable" err
'

test_expect_success 'pulling the same revision again changes nothing' '
	(cd p/series && find . -type f | sort | xargs sha1sum) >before &&
	stablekit -C p pull -m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox" >out 2>/dev/null &&
	grep "already up to date" out &&
	(cd p/series && find . -type f | sort | xargs sha1sum) >after &&
	test_cmp before after
'

test_expect_success 'a later revision is added as v3 and pull says exactly what changed' '
	stablekit -C p pull -m "$SHARNESS_TEST_DIRECTORY/t1000/series-a.v3.mbox" >out &&
	cat >expect <<-EOF &&
	$A: v3, 2 patches (new revision; previous v2)
	changes since v2:
	  same code 1: mm/vmstat, mm/memcontrol: add _monotonic vmstat readers (unchanged)
	  changed   2: mm/vmscan: reduce lru_lock contention via vmstat-derived scan-balance cost (code changed, fixlets changed)
	EOF
	test_cmp expect out &&
	test -f p/series/$A/v2.mbx && test -f p/series/$A/v3.mbx
'

test_expect_success 'series lists both series with their latest revision' '
	stablekit -C p series >out &&
	grep "^$A  *v3  *2  *0  *Usama Arif" out &&
	grep "^$B  *v3  *3  *0  *Hui Zhu" out
'

test_expect_success 'series show --json carries revisions, trailers and fixlets' '
	stablekit -C p series show $A --json >out.json &&
	python3 -c "
import json, sys
s = json.load(open(\"out.json\"))
assert s[\"schema\"] == \"stablekit.series/1\"
assert [r[\"version\"] for r in s[\"revisions\"]] == [2, 3]
p2 = s[\"revisions\"][0][\"patches\"][1]
assert p2[\"fixlets\"][0][\"files\"] == [\"mm/vmscan.c\"], p2
p1 = s[\"revisions\"][1][\"patches\"][0]
assert {\"key\": \"Acked-by\", \"value\": \"Johannes Weiner <hannes@cmpxchg.org>\"} in p1[\"trailers\"]
"
'

test_expect_success 'diff shows the interdiff of the changed patch from the mboxes alone' '
	stablekit -C p diff $A v2 v3 >out &&
	grep "^= \|^! 1 -> 1" out &&
	grep "^-+	PGRECLAIM_PAGEOUT_ANON," out &&
	! grep "^+.*PGRECLAIM_PAGEOUT" out &&
	sed -n "/^! 1 -> 1/,/^! 2/p" out >first &&
	! grep "code:" first
'

test_expect_success 'diff --json marks patch 1 unchanged and patch 2 code' '
	stablekit -C p diff $A v2 v3 --json >out.json &&
	python3 -c "
import json
c = json.load(open(\"out.json\"))
assert c[0][\"changes\"] == [], c[0]
assert \"code\" in c[1][\"changes\"] and c[1][\"interdiff\"]
"
'

test_expect_success 'diff of a revision that does not exist is a usage error naming those there are' '
	test_expect_code 129 stablekit -C p diff $A v2 v9 2>err &&
	grep "has no revision .v9. (it has v2, v3)$" err
'

test_expect_success 'pull without -m and without network fails clearly' '
	test_must_fail stablekit -C p pull --timeout 60 20260713163443.3562378-1-usama.arif@linux.dev 2>err &&
	grep "b4 could not fetch" err
'

test_done

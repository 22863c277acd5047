#!/bin/sh

test_description='stablekit port: series A and its MGLRU fixlet on 7.1.y

Series A (mm/vmscan: reduce lru_lock contention via vmstat-derived
scan-balance cost, v2: 2 patches and a fixlet in a reply to patch 2) is no
stable candidate; downstream branches select it.  On the model repository
(ci/model/linux.sh build_linuxa) linux-7.2.y has the code the series is
written against, and linux-7.1.y has the code from before the 7.2 MGLRU
rework: shrink_inactive_list() with the writeback checks open-coded
instead of handle_reclaim_writeback(), and the older evict_folios().  There
patch 2 and its fixlet are carried by the pre-7.2 rules of the manifest'"'"'s
7.1 target, and the queue pushes with quilt --fuzz=0.'

. ./lib-stablekit.sh
. "$SK_TOP/ci/model/linux.sh"

A=mm-vmscan-reduce-lru_lock-contention-via-vmstat
Q=p/stable
P2=mm-vmscan-reduce-lru_lock-contention-via-vmstat-deri.patch

port() {
	(cd p && stablekit port "$@")
}

# evict_folios() of a C file, from its definition to the closing brace
evict_folios() {
	sed -n "/^static int evict_folios(/,/^}/p" "$1"
}

test_expect_success 'setup: model repository, project, series A pulled' '
	build_linuxa &&
	sk_new_project p &&
	cp -R "$SK_TOP/semantic-patches" p/ &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linuxa
		signoff = Stable Tester <tester@example.org>
	[branch "mainline"]
		ref = master
		base = v7.0
		kind = mainline
	[branch "linux-7.1.y"]
		ref = linux-7.1.y
		base = v7.1
		kind = downstream
		select = $A
	[branch "linux-7.2.y"]
		ref = linux-7.2.y
		base = v7.2
		kind = downstream
		select = $A
	[branch "vendor-7.2"]
		ref = vendor-7.2
		base = v7.2
		kind = downstream
		select = $A
	EOF
	(cd p && stablekit pull -m "$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox") >pull.out 2>&1 &&
	grep "2 patches + 1 fixlet" pull.out &&
	(cd linuxa && git for-each-ref && git rev-parse HEAD && git status --porcelain &&
	 git count-objects) >refs.before
'

test_expect_success 'the model: 7.1.y has the pre-rework code, 7.2.y the reworked' '
	git -C linuxa show linux-7.1.y:mm/vmscan.c >vmscan-7.1.c &&
	git -C linuxa show linux-7.2.y:mm/vmscan.c >vmscan-7.2.c &&
	! grep "handle_reclaim_writeback(" vmscan-7.1.c &&
	grep "handle_reclaim_writeback(nr_taken, pgdat, sc, &stat);" vmscan-7.2.c &&
	evict_folios vmscan-7.1.c >evict-7.1 &&
	grep "isolate_folios(nr_to_scan, lruvec, sc, swappiness, &type, &list);" evict-7.1 &&
	evict_folios vmscan-7.2.c >evict-7.2 &&
	grep "&list, &isolated, &type, &type_scanned);" evict-7.2
'

test_expect_success 'series A is needed on 7.1.y because the branch selects it' '
	(cd p && stablekit status --why $A:2 linux-7.1.y) >why &&
	grep "linux-7.1.y: needed" why &&
	grep "the series is selected for this downstream branch" why
'

test_expect_success '7.2.y: both patches and the fixlet apply as sent' '
	port $A --branch linux-7.2.y >out &&
	grep "target 7.2" out &&
	grep "1. clean  *mm/vmstat, mm/memcontrol: add _monotonic" out &&
	grep "2. clean  *mm/vmscan: reduce lru_lock contention" out &&
	f=$Q/linux-7.2.y/$P2 &&
	grep "^\[ stablekit: includes the fixlet \"mm/vmscan: increment pgreclaim_pageout_\* and pgrotate_\* for MGLRU\"" $f &&
	! grep "ported with" $f &&
	grep "^+	nr_isolated = isolated;" $f
'

test_expect_success 'a goto label is no definition: the fixlet is placed past retry:' '
	port $A --branch vendor-7.2 >out &&
	grep "2. offset  *mm/vmscan: reduce lru_lock contention" out &&
	grep "^\[ stablekit: applied with offset +1 in mm/vmscan.c hunk 4 \]$" \
		$Q/vendor-7.2/$P2 &&
	grep "^+	nr_isolated = isolated;" $Q/vendor-7.2/$P2
'

test_expect_success '7.1.y: patch 2 and the fixlet go through the 7.1 rules' '
	port $A --branch linux-7.1.y >out &&
	grep "target 7.1" out &&
	grep "1. clean  *mm/vmstat, mm/memcontrol: add _monotonic" out &&
	grep "2. semantic-patches  *mm/vmscan: reduce lru_lock contention" out &&
	cat >expect <<-EOF &&
	# $A
	mm-vmstat-mm-memcontrol-add-_monotonic-vmstat-reader.patch
	$P2
	EOF
	test_cmp expect $Q/linux-7.1.y/series
'

test_expect_success 'the note line names the 7.1 rules, after the fixlet line' '
	f=$Q/linux-7.1.y/$P2 &&
	grep "^\[ stablekit: " $f >notes &&
	cat >expect <<-EOF &&
	[ stablekit: includes the fixlet "mm/vmscan: increment pgreclaim_pageout_* and pgrotate_* for MGLRU" <25a94af5-1dbe-4ab4-b47d-fb49987bfcd4@linux.dev> ]
	[ stablekit: ported with semantic-patches/$A: pre-7.2/shrink-inactive-cost, pre-7.2/evict-folios-fixlet, pre-7.2/evict-folios-isolated (target 7.1) ]
	[ stablekit: mm/vmscan.c hunk 2: offset +35: the nearest exact match, below the definition its @@ line names (static void shrink_active_list(unsigned long nr_to_scan,) ]
	EOF
	test_cmp expect notes &&
	grep -A 1 "^\[ stablekit: mm/vmscan.c hunk 2: offset" $f | tail -n 1 | grep "^Signed-off-by: Stable Tester"
'

test_expect_success 'the queue pushes with quilt --fuzz=0 onto 7.1.y' '
	git -C linuxa archive --prefix=t71/ linux-7.1.y | tar -x &&
	(cd t71 && QUILT_PATCHES=../$Q/linux-7.1.y quilt --quiltrc - push -a --fuzz=0) >push.out &&
	grep "Now at patch $P2" push.out &&
	! grep -i "fuzz\|hunk.*FAILED" push.out
'

test_expect_success 'the fixlet is in the 7.1 evict_folios(): pgrotate and pageout counted' '
	evict_folios t71/mm/vmscan.c >evict &&
	grep "isolate_folios(nr_to_scan, lruvec, sc, swappiness, &type, &list);" evict &&
	! grep "handle_reclaim_writeback" evict &&
	grep "^	unsigned long nr_isolated = 0, total_reclaimed = 0, total_pageout = 0;$" evict &&
	grep "^		nr_isolated += folio_nr_pages(folio);$" evict &&
	grep "^	total_reclaimed += reclaimed;$" evict &&
	grep "^	total_pageout += stat.nr_pageout;$" evict &&
	grep -A 2 "^	if (total_pageout)$" evict >pageout &&
	grep "mod_lruvec_state(lruvec, PGRECLAIM_PAGEOUT_ANON + type," pageout &&
	grep -A 2 "^	if (nr_isolated > total_reclaimed)$" evict >rotate &&
	grep "mod_lruvec_state(lruvec, PGROTATE_ANON + type," rotate &&
	grep "nr_isolated - total_reclaimed);" rotate
'

test_expect_success 'the ported patch itself carries those lines' '
	f=$Q/linux-7.1.y/$P2 &&
	grep "^+	if (total_pageout)$" $f &&
	grep "^+		mod_lruvec_state(lruvec, PGRECLAIM_PAGEOUT_ANON + type,$" $f &&
	grep "^+	if (nr_isolated > total_reclaimed)$" $f &&
	grep "^+		mod_lruvec_state(lruvec, PGROTATE_ANON + type,$" $f &&
	grep "^+		nr_isolated += folio_nr_pages(folio);$" $f
'

test_expect_success 'patch 2 on 7.1: no cost call left, the counters bumped instead' '
	! grep "lru_note_cost" t71/mm/vmscan.c &&
	sed -n "/^static unsigned long shrink_inactive_list(/,/^}/p" t71/mm/vmscan.c >inactive &&
	grep "mod_lruvec_state(lruvec, PGRECLAIM_PAGEOUT_ANON + file," inactive &&
	grep "mod_lruvec_state(lruvec, PGROTATE_ANON + file," inactive &&
	grep "if (stat.nr_unqueued_dirty == nr_taken) {" inactive &&
	grep "lruvec_page_state_monotonic(target_lruvec, PGROTATE_ANON + f)" t71/mm/vmscan.c
'

test_expect_success 'port --json: the methods, the target and spatch time' '
	port $A --branch linux-7.1.y --json >out.json &&
	python3 -c "
import json
r = json.load(open(\"out.json\"))[0]
assert r[\"branch\"] == \"linux-7.1.y\", r
assert r[\"target\"] == \"7.1\", r
assert r[\"spatch_seconds\"] > 0, r
m = [(p[\"nr\"], p[\"method\"]) for p in r[\"patches\"]]
assert m == [(1, \"clean\"), (2, \"semantic-patches\")], m
assert \"pre-7.2/evict-folios-fixlet\" in r[\"patches\"][1][\"how\"], r
"
'

test_expect_success 'running port again gives the same bytes' '
	(cd $Q && find . -type f | sort | xargs sha1sum) >before &&
	port $A --branch linux-7.1.y >/dev/null &&
	port $A --branch linux-7.2.y >/dev/null &&
	port $A --branch vendor-7.2 >/dev/null &&
	(cd $Q && find . -type f | sort | xargs sha1sum) >after &&
	test_cmp before after
'

test_expect_success 'a 7.1 rule that changes nothing fails the port, not silently' '
	rm -rf q && cp -R p q &&
	sed "s/^int evict_folios(/int evict_folios_renamed(/" \
		"$SK_TOP/semantic-patches/$A/pre-7.2/evict-folios-fixlet.cocci" \
		>q/semantic-patches/$A/pre-7.2/evict-folios-fixlet.cocci &&
	! cmp -s q/semantic-patches/$A/pre-7.2/evict-folios-fixlet.cocci \
		"$SK_TOP/semantic-patches/$A/pre-7.2/evict-folios-fixlet.cocci" &&
	(cd q && test_expect_code 1 stablekit port $A --branch linux-7.1.y) >out &&
	grep "2. FAILED  *mm/vmscan: reduce lru_lock" out &&
	grep "evict-folios-fixlet.cocci. changed nothing in .mm/vmscan.c." \
		q/stable/linux-7.1.y/failed/mm-vmscan-reduce-lru_lock-contention-via-vmstat-deri.mail
'

test_expect_success 'the user repository is untouched: refs, HEAD, work tree, objects' '
	(cd linuxa && git for-each-ref && git rev-parse HEAD && git status --porcelain &&
	 git count-objects) >refs.after &&
	test_cmp refs.before refs.after
'

test_done

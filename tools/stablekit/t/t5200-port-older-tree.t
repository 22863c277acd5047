#!/bin/sh

test_description='stablekit port on a tree it was not written for (issue #15)

A model of a 6.1-era LTS tree (t5200/shape-6.1 on the series A model of
ci/model/linux.sh): 3-argument lru_note_cost() and lru_note_cost_folio(),
prepare_scan_count(), no memcg_node_stat_items[], memcg1 stats in
memcontrol.c, no lruvec_page_state() there.  A downstream branch selects
series A.  Patch 1 fails; patch 2 is blocked by it, not queued; no target
of the manifest matches, so no rule runs; the FAILED mail names what the
tree has instead, the prerequisites, the blocked patch, and goes to the
branch'"'"'s owners; build, gate and report say the series did not port.'

. ./lib-stablekit.sh
. "$SK_TOP/ci/model/linux.sh"

# port results, kept trees and build results of this test only
SK_WORK="$SHARNESS_TRASH_DIRECTORY/w"
export SK_WORK
SQ="'"
A=mm-vmscan-reduce-lru_lock-contention-via-vmstat
Q=p/stable/linux-6.1.y
M1=$Q/failed/mm-vmstat-mm-memcontrol-add-_monotonic-vmstat-reader.mail
RULES="$SK_TOP/semantic-patches/$A/6.12"

port() {
	(cd p && stablekit port "$@")
}

test_expect_success 'setup: the 6.1-shaped model, a downstream branch taking series A' '
	build_linuxa &&
	(cd linuxa && git checkout -q -b linux-6.1.y v7.0 &&
	 "$SHARNESS_TEST_DIRECTORY/t5200/shape-6.1" . &&
	 commit_all "$DEV" "Linux 6.1" && git tag v6.1 &&
	 git checkout -q -b vendor-7.1 linux-7.1.y &&
	 awk "/^unsigned long lruvec_page_state\\(struct lruvec/ {
		print \"/* vendor: lruvec_page_state() is an inline */\"; getline
		print \"/* vendor */\"; next }
	      { print }" mm/memcontrol.c >mm/memcontrol.c.new &&
	 mv mm/memcontrol.c.new mm/memcontrol.c &&
	 test $(git diff --numstat | cut -f1) = 2 &&
	 commit_all "$DEV" "mm: memcontrol: lruvec_page_state() inline" &&
	 git checkout -q -b vendor-7.1-fuzz linux-7.1.y &&
	 sed -i "s/= \"pgscan_proactive\",/= \"pgscan_proactive_vendor\",/" mm/vmstat.c &&
	 test $(git diff --numstat | cut -f1) = 1 &&
	 commit_all "$DEV" "mm: vmstat: a vendor name" &&
	 git checkout -q master) &&
	sk_new_project p &&
	cp -R "$SK_TOP/semantic-patches" p/ &&
	cat >>p/MAINTAINERS <<-EOF &&

	DOWNSTREAM BRANCH LINUX-6.1.Y (VENDOR KERNEL)
	M:	Vendor Kernel Team <kernel@vendor.example>
	S:	Maintained
	F:	stable/linux-6.1.y/
	EOF
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linuxa
		signoff = Stable Tester <tester@example.org>
	[branch "mainline"]
		ref = master
		base = v7.0
		kind = mainline
	[branch "linux-6.1.y"]
		ref = linux-6.1.y
		base = v6.1
		version = 6.1
		kind = downstream
		select = $A
	[branch "vendor-7.1"]
		ref = vendor-7.1
		base = v7.1
		kind = downstream
		select = $A
	[branch "vendor-7.1-fuzz"]
		ref = vendor-7.1-fuzz
		base = v7.1
		kind = downstream
		select = $A
	EOF
	(cd p && stablekit pull -m "$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox") >pull.out 2>&1 &&
	grep "2 patches + 1 fixlet" pull.out
'

test_expect_success 'patch 1 fails, patch 2 is blocked by it, exit 1' '
	test_expect_code 1 port $A --branch linux-6.1.y >out &&
	grep "^  1\. FAILED  *mm/vmstat, mm/memcontrol: add _monotonic vmstat readers$" out &&
	grep "^  2\. blocked  *mm/vmscan: reduce lru_lock contention" out &&
	grep "^       blocked by 1$" out &&
	! grep "^       $A-" out
'

test_expect_success 'no target matches: no rules, the closest named with what differs' '
	head -n 1 out >first &&
	echo "$A -> linux-6.1.y" >expect &&
	test_cmp expect first &&
	grep "^  semantic patches: no rules for this tree (closest: 7.1, differs in: lruvec-lock-irq (absent), lru-note-cost-unlock-irq (absent))$" out &&
	! grep "target 6.12" out
'

test_expect_success 'a prerequisite-blocked queue: patch 2 would port alone, it is not queued' '
	test_expect_code 1 port $A --branch vendor-7.1 >out71 &&
	grep "target 7.1" out71 &&
	grep "^  1\. FAILED  *mm/vmstat, mm/memcontrol: add _monotonic" out71 &&
	grep "^  2\. blocked  *mm/vmscan: reduce lru_lock contention" out71 &&
	! grep -v "^#" p/stable/vendor-7.1/series | grep . &&
	! ls p/stable/vendor-7.1/*.patch &&
	m=p/stable/vendor-7.1/failed/mm-vmstat-mm-memcontrol-add-_monotonic-vmstat-reader.mail &&
	grep "^  patch 2 \"mm/vmscan: reduce lru_lock contention via vmstat-derived scan-balance cost\": blocked by 1$" $m &&
	grep "^semantic patches (target 7.1): no rules for patch 1 (no port section), so its diff as it is: .*mm/memcontrol.c hunk 1 (unsigned long lruvec_page_state(" $m
'

test_expect_success 'JSON: blocked_by, and per hunk method, offset, fuzz, function, reason' '
	test_expect_code 1 port $A --branch linux-6.1.y --json >j &&
	jq -e ".[0].target == null" j &&
	jq -e ".[0].no_rules | startswith(\"no rules for this tree (closest: 7.1\")" j &&
	jq -e ".[0].patches[1].method == \"blocked\" and .[0].patches[1].blocked_by == 1" j &&
	jq -e ".[0].patches[0].how == null" j &&
	jq -r ".[0].patches[0].hunks[] | [.patch, .path, .nr, .method, .offset, .fuzz, .rule // \"-\", .reason // \"-\"] | @tsv" j >hunks &&
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" \
		1 include/linux/memcontrol.h 1 clean 0 0 - - \
		1 include/linux/memcontrol.h 2 clean 0 0 - - \
		1 include/linux/vmstat.h 1 clean 0 0 - - \
		1 include/linux/vmstat.h 2 clean 0 0 - - \
		1 mm/memcontrol.c 1 failed 0 0 - "its context (fuzz up to 3 allowed) is not in the tree where upstream has the change" \
		1 mm/vmstat.c 1 clean 0 0 - - >expect &&
	test_cmp expect hunks &&
	jq -e ".[0].patches[0].hunks[4].function == \"unsigned long lruvec_page_state(struct lruvec *lruvec, enum node_stat_item idx)\"" j
'

test_expect_success 'the seed hunks the rules leave get fuzz 1, as in the offset stage' '
	port $A --branch vendor-7.1-fuzz --json >jf &&
	jq -e ".[0].target == \"7.1\" and .[0].patches[1].method == \"semantic-patches\"" jf &&
	jq -r ".[0].patches[1].hunks[] | select(.path == \"mm/vmstat.c\" or (.path == \"mm/vmscan.c\" and .patch == \"2\")) | [.patch, .path, .nr, .method, .offset, .fuzz, .rule // \"-\"] | @tsv" jf >h &&
	printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n" \
		2 mm/vmscan.c 1 semantic 0 0 pre-7.2/shrink-inactive-cost \
		2 mm/vmscan.c 2 offset 35 0 - \
		2 mm/vmscan.c 3 offset 35 0 - \
		2 mm/vmstat.c 1 fuzz 0 1 - >expect &&
	test_cmp expect h
'

test_expect_success 'the FAILED mail, line by line' '
	sed "/^------------------ original patch ------------------$/q" $M1 >mail &&
	cat >expect <<-EOF &&
	Subject: FAILED: patch "mm/vmstat, mm/memcontrol: add _monotonic vmstat readers" failed to port to linux-6.1.y
	To: Vendor Kernel Team <kernel@vendor.example>
	Cc: Usama Arif <usama.arif@linux.dev>

	The patch below does not port to linux-6.1.y, a downstream branch that
	takes the series $A (stable/branches.conf).

	To see the failed hunks in the branch${SQ}s files, with .rej files (offline,
	from this project):

	stablekit port $A --branch linux-6.1.y --keep

	Possible dependencies:

	none earlier in the series

	Upstream changes this patch may depend on (it uses what they
	introduced, and this tree lacks it; from the series${SQ} API notes):

	  memcg_stats_index (absent in mm/memcontrol.c): the memcg stats rework that indexes lruvec stats through memcg_node_stat_items[] (memcg_stats_index(), BAD_STAT_IDX, api-timeline: I) (v6.10)
	  BAD_STAT_IDX (absent in mm/memcontrol.c): the memcg stats rework that indexes lruvec stats through memcg_node_stat_items[] (memcg_stats_index(), BAD_STAT_IDX, api-timeline: I) (v6.10)

	Not ported because this patch failed (a series applies in order):

	  patch 2 "mm/vmscan: reduce lru_lock contention via vmstat-derived scan-balance cost": blocked by 1

	What was tried:

	clean apply (libgit2): git apply: hunk at line 502 did not apply
	offset and fuzz (up to 3, placement proven): hunks failed (below)
	three-way: no upstream commit to cherry-pick
	semantic patches: no rules for this tree (closest: 7.1, differs in: lruvec-lock-irq (absent), lru-note-cost-unlock-irq (absent))

	The hunks that do not apply, and what this tree has instead:

	mm/memcontrol.c hunk 1 of patch 1 (changes lruvec_page_state):
	  lruvec_page_state is defined in include/linux/memcontrol.h:1377
	  the tree${SQ}s lruvec_page_state, include/linux/memcontrol.h:1377:
	   1377  static inline unsigned long lruvec_page_state(struct lruvec *lruvec,
	   1378  	return node_page_state(lruvec_pgdat(lruvec), idx);
	   1379  }

	------------------ original patch ------------------
	EOF
	test_cmp expect mail
'

test_expect_success 'the downstream mail has no stable wording' '
	! grep -i "stable@\|-stable tree\|original git commit id\|git send-email" mail
'

test_expect_success 'build: not run, the selected series did not port, exit 1' '
	(cd p && test_expect_code 1 stablekit build --branch linux-6.1.y) >build.out &&
	echo "linux-6.1.y: gate: not run: the selected series did not port ($A: patch 1 FAILED, patch 2 blocked by 1)" >expect &&
	test_cmp expect build.out &&
	(cd p && test_expect_code 1 stablekit build --branch linux-6.1.y --json) >build.json &&
	jq -e ".branches[0].gate == \"not run\"" build.json &&
	jq -e ".branches[0].not_run | startswith(\"not run: the selected series did not port\")" build.json
'

test_expect_success 'gate: never a pass, the queue and build stages say why' '
	(cd p && test_expect_code 1 stablekit gate --json --branch linux-6.1.y \
		--skip kselftest --skip bench) >gate.json &&
	jq -e ".verdict == \"incomplete\"" gate.json &&
	jq -e "[.stages[] | select(.name == \"queue\" or .name == \"build\") | .reason | startswith(\"not run: the selected series did not port\")] == [true, true]" gate.json
'

test_expect_success 'report: the reason is that the series did not port' '
	(cd p && stablekit report --branch linux-6.1.y) >/dev/null &&
	r=$SK_WORK/results/linux-6.1.y/report/report.txt &&
	grep "^\* objects: not run: the selected series did not port ($A: patch 1 FAILED, patch 2 blocked by 1)$" "$r" &&
	grep "quilt push: not run: the selected series did not port$" "$r" &&
	! grep "the queue does not apply" "$r" &&
	grep "^  blocked: blocked by 1$" "$r"
'

test_expect_success 'port --keep: the patch'"'"'s files, applied hunks in, the rest in .rej' '
	test_expect_code 1 port $A --branch linux-6.1.y --keep >out &&
	K=$SK_WORK/port/linux-6.1.y/$A &&
	grep "^       kept: $K (applied hunks in, the others in .rej files)$" out &&
	(cd "$K" && find . -type f | sort) >files &&
	printf "%s\n" ./include/linux/memcontrol.h ./include/linux/vmstat.h \
		./mm/memcontrol.c ./mm/memcontrol.c.rej ./mm/vmstat.c >expect &&
	test_cmp expect files &&
	grep "^+unsigned long lruvec_page_state_monotonic(struct lruvec \*lruvec,$" "$K/mm/memcontrol.c.rej" &&
	grep "^unsigned long lruvec_page_state_monotonic(struct lruvec \*lruvec,$" "$K/include/linux/memcontrol.h" &&
	! grep "lruvec_page_state_monotonic" "$K/mm/memcontrol.c"
'

test_expect_success 'the 6.12 rules match exact signatures: 6.1'"'"'s 3-argument lru_note_cost stays' '
	git -C linuxa archive --prefix=t61/ linux-6.1.y | tar -x &&
	(cd t61 &&
	 spatch --very-quiet --sp-file "$RULES/note-cost-removal.cocci" mm/swap.c &&
	 spatch --very-quiet --sp-file "$RULES/note-cost-prototypes.cocci" include/linux/swap.h) >rules.out 2>&1 &&
	test_must_be_empty rules.out
'

test_done

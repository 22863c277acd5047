# Model kernel repositories for where a real linux.git is absent: the main
# job's mainline, 7.1.y and 7.2.y, and the port tests (t5000, t5010).
# Source it with SK_TOP set, then call build_linuxb (series B) or
# build_linuxa (series A) in the directory to hold it.
#
# linuxb: files shaped by series B's preimages (tools: synth-preimage).
#   v7.0 -> "mm: workingset: use lruvec_lru_size()..." (7404bd37cfbe's
#   subject) -> v7.1 -> v7.2 -> series B patch 2 lands upstream (Link:),
#   unless MODEL_UPSTREAM=none (the main job: series B is still pending).
#   linux-7.1.y   12 lines added at the top of mm/memcontrol.c: an offset
#   linux-7.2.y   as v7.2: patches apply cleanly
#   vendor-fuzz   the outermost context line of patch 2's hunk differs
#   vendor-3way   two context lines differ: only a three-way merge works
#   vendor-fail   count_shadow_nodes() rewritten: nothing carries patch 2
#   vendor-rc1    the 7.1-rc1 one-argument get_non_dying_memcg_start():
#                 only the semantic patches carry patch 1

#
# linuxa: files shaped by series A's preimages (synth-preimage), with the
#   code around them in the 7.1 or the 7.2 shape (shape-series-a).  Series
#   A is not upstream: downstream branches select it.
#   v7.0 -> v7.1 (7.1 shapes: writeback checks open-coded in
#   shrink_inactive_list(), the older MGLRU evict_folios()) -> the 7.2
#   rework (handle_reclaim_writeback(), evict_folios() as the fixlet knows
#   it) -> v7.2
#   linux-7.1.y   v7.1 and a stable release: patch 2's first mm/vmscan.c
#                 hunk and the fixlet need the pre-7.2 rules
#   linux-7.2.y   v7.2 and a stable release: patches and fixlet apply cleanly
#   vendor-7.2    v7.2 and a comment line in evict_folios() after its
#                 retry: label: the fixlet's last hunk needs an offset

SYNTH="$SK_TOP/ci/model/synth-preimage"
SHAPE_A="$SK_TOP/ci/model/shape-series-a"
SEED_A="$SK_TOP/ci/seeds/vmstat-scan-balance-cost.v2.mbox"
SEED_B="$SK_TOP/ci/seeds/shadow-node-budget-mglru.v3.mbox"
# the hand-made 7.1-rc1 tree of the Coccinelle bridge test
RC1_TREE="$SK_TOP/tools/stablekit/t/t4010/7.1-rc1"
QI="Qi Zheng <zhengqi.arch@bytedance.com>"
HUI="Hui Zhu <zhuhui@kylinos.cn>"
DEV="Dev Eloper <dev@example.org>"

commit_all() {
	git add -A && git commit -q --author="$1" -m "$2" ${3:+-m "$3"}
}

# seed_diff MBOX N: the diff of patch N of an mbox on stdout
seed_diff() {
	awk -v n="$2" '
		/^From mboxrd@z/ { m++ }
		/^Subject: \[PATCH[^]]* [1-9][0-9]*\/[0-9]+\]/ { if (++p == n) keep = m }
		{ lines[m] = lines[m] $0 "\n" }
		END { printf "%s", lines[keep] }' "$1" |
	sed -n '/^diff --git/,/^-- $/p' | sed '$d'
}

# replace_line FILE N TEXT
replace_line() {
	awk -v n="$2" -v t="$3" 'NR == n { print t; next } { print }' "$1" >"$1.new" &&
	mv "$1.new" "$1"
}

build_linuxb() {
	git init -q linuxb && (
	cd linuxb &&
	"$SYNTH" . "$SEED_B" 1 2 &&
	commit_all "$DEV" "Linux 7.0" && git tag v7.0 &&
	echo "/* lru size */" >>mm/workingset.c &&
	commit_all "$QI" "mm: workingset: use lruvec_lru_size() to get the number of lru pages" \
		"Signed-off-by: $QI" &&
	echo "/* 7.1 */" >>Makefile && commit_all "$DEV" "Linux 7.1" && git tag v7.1 &&
	echo "/* 7.2 */" >>Makefile && commit_all "$DEV" "Linux 7.2" && git tag v7.2 &&
	git branch linux-7.2.y &&
	if [ "${MODEL_UPSTREAM:-}" != none ]; then
		seed_diff "$SEED_B" 2 >../b2.diff && git apply ../b2.diff &&
		commit_all "$HUI" "mm: workingset: use lruvec_page_state_local() to count lru pages" \
			"Link: https://lore.kernel.org/r/20260904094555.2871043-3-hui.zhu@linux.dev"
	fi &&
	git checkout -q -b linux-7.1.y v7.1 &&
	{ for i in 1 2 3 4 5 6 7 8 9 10 11 12; do echo "/* 7.1.y $i */"; done;
	  cat mm/memcontrol.c; } >mm/memcontrol.c.new && mv mm/memcontrol.c.new mm/memcontrol.c &&
	commit_all "$DEV" "mm: memcontrol: add a banner" &&
	git checkout -q -b vendor-fuzz v7.1 &&
	replace_line mm/workingset.c 693 "		/* flush first */" &&
	commit_all "$DEV" "mm: workingset: comment the flush" &&
	git checkout -q -b vendor-3way v7.1 &&
	replace_line mm/workingset.c 692 "static unsigned long count_shadow_nodes(struct shrinker *shrinker," &&
	replace_line mm/workingset.c 693 "		/* flush first */" &&
	replace_line mm/workingset.c 694 "		mem_cgroup_flush_stats(sc->memcg);" &&
	commit_all "$DEV" "mm: workingset: flush exactly" &&
	git checkout -q -b vendor-fail v7.1 &&
	for n in 693 694 695 696 697 698 699 700 701 702; do
		replace_line mm/workingset.c $n "		/* rewritten $n */" || return 1
	done &&
	commit_all "$DEV" "mm: workingset: rewrite count_shadow_nodes" &&
	git checkout -q -b vendor-rc1 v7.1 &&
	cp -R "$RC1_TREE/." . &&
	commit_all "$DEV" "mm: memcg: the 7.1-rc1 helpers" &&
	git checkout -q master )
}

build_linuxa() {
	git init -q linuxa && (
	cd linuxa &&
	"$SYNTH" . "$SEED_A" 1 2 && "$SHAPE_A" . 7.1 &&
	commit_all "$DEV" "Linux 7.0" && git tag v7.0 &&
	echo "/* 7.1 */" >>Makefile && commit_all "$DEV" "Linux 7.1" && git tag v7.1 &&
	shaped=$(mktemp -d) &&
	"$SYNTH" "$shaped" "$SEED_A" 1 2 && "$SHAPE_A" "$shaped" 7.2 &&
	cp "$shaped/mm/vmscan.c" mm/vmscan.c && rm -rf "$shaped" &&
	commit_all "$DEV" "mm: vmscan: move the writeback checks into handle_reclaim_writeback()" \
		"Signed-off-by: $DEV" &&
	echo "/* 7.2 */" >>Makefile && commit_all "$DEV" "Linux 7.2" && git tag v7.2 &&
	git checkout -q -b linux-7.2.y v7.2 &&
	echo "/* 7.2.1 */" >>Makefile && commit_all "$DEV" "Linux 7.2.1" &&
	git checkout -q -b vendor-7.2 v7.2 &&
	awk '/^\tlist_for_each_entry_safe_reverse\(folio, next, &list, lru\) \{$/ {
		print "\t/* vendor: rejected folios stay off the oldest generation */" }
		{ print }' mm/vmscan.c >mm/vmscan.c.new && mv mm/vmscan.c.new mm/vmscan.c &&
	test $(git diff --numstat | cut -f1) = 1 &&
	commit_all "$DEV" "mm: vmscan: comment the MGLRU retry loop" &&
	git checkout -q -b linux-7.1.y v7.1 &&
	echo "/* 7.1.1 */" >>Makefile && commit_all "$DEV" "Linux 7.1.1" &&
	git checkout -q master )
}

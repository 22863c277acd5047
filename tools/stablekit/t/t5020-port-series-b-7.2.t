#!/bin/sh

test_description='series B on the real 7.2.13: pull, status, port, the objects built

Series B (mm: workingset: fix the shadow node budget under MGLRU, v3,
Fixes: 7404bd37cfbe, Cc: stable) must reach linux-7.2.y.  The branch is
Debian'"'"'s 7.2.13 from the workspace ($SK_WORK/linux, one root commit, no
history): the fixed code is there, the Fixes: target cannot be resolved,
and 7.3.4 carries B (a 7.3.y backport, upstream by proxy).  The port is a
stable backport: Link: only, no "commit X upstream." without a sha, and
its compile check builds the objects of the two files B touches with the
project'"'"'s kconfig fragments (MEMCG, LRU_GEN).  Patch 3 (the fast-path
optimisation) carries no Fixes: or Cc: stable: its author says it fixes
no bug, so it is not queued, although 7.3.4 carries it.'

. ./lib-stablekit.sh

B=mm-workingset-fix-the-shadow-node-budget-under-mglru
WS="$SK_WORK/linux"
Q=p/stable/linux-7.2.y

# cell PATCH BRANCH FIELD: from status.json
cell() {
	jq -r --arg p "$1" --arg b "$2" --arg f "$3" \
		'.patches[] | select(.id == $p) | .branches[$b][$f] |
		 if type == "array" then .[] else . end' status.json
}

test_expect_success 'setup: the workspace, a project on 7.2.y and 7.3.y, B pulled' '
	sk_workspace &&
	git -C "$WS" rev-parse -q --verify "refs/tags/v7.2.13^{commit}" &&
	git -C "$WS" rev-parse -q --verify "refs/tags/v7.3.4^{commit}" &&
	sk_new_project p &&
	mkdir -p p/ci && cp -R "$SK_TOP/ci/kconfig" p/ci/ &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = $WS
		signoff = Stable Tester <tester@example.org>
	[branch "linux-7.2.y"]
		ref = linux-7.2.y
		base = v7.2.13
		kind = stable
		version = 7.2
	[branch "linux-7.3.y"]
		ref = linux-7.3.y
		base = v7.3.4
		kind = stable
		version = 7.3
	EOF
	(cd p && stablekit pull -m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox") >pull.out 2>&1 &&
	test -d p/series/$B &&
	git -C "$WS" for-each-ref >refs.before
'

test_expect_success 'status: B 1-2 needed on 7.2.y, 3 not eligible, all present on 7.3.y' '
	(cd p && stablekit status --json >../status.json) &&
	for n in 1 2; do
		test "$(cell $B:$n linux-7.2.y state)" = needed || return 1
	done &&
	test "$(cell $B:3 linux-7.2.y state)" = "not eligible" &&
	cell $B:3 linux-7.2.y evidence >ev &&
	grep "^no Fixes: and no Cc: stable\$" ev &&
	for n in 1 2 3; do
		test "$(cell $B:$n linux-7.3.y state)" = present || return 1
	done
'

test_expect_success 'port: the two tagged patches queued on 7.2.y, both files compiled' '
	(cd p && stablekit port $B --branch linux-7.2.y) >out 2>err &&
	grep -v "^#" $Q/series >queued &&
	test "$(wc -l <queued)" = 2 &&
	grep "^  1\. offset  *mm: memcg: redirect stats updates of dying memcgs" out &&
	grep "^       offset -5 in mm/memcontrol.c hunk 1\$" out &&
	grep "^  2\. clean  *mm: workingset: use lruvec_page_state_local()" out &&
	grep "^  3\. skipped  *mm: memcg: skip the RCU lock" out &&
	grep "^  compile check: x86_64 defconfig + ci/kconfig (mm-series.config) + CONFIG_MEMCG=y + CONFIG_CGROUPS=y: .*mm/memcontrol\.o.* (CONFIG_CGROUPS for CONFIG_MEMCG)$" out &&
	grep "^  compile check: .*mm/workingset\.o" out
'

test_expect_success 'the queue is a stable backport: Link:, no upstream line without a sha' '
	for p in $(cat queued); do
		grep "^Link: https://lore.kernel.org/" $Q/$p &&
		! grep "^commit [0-9a-f]* upstream\.$" $Q/$p || return 1
	done
'

test_expect_success 'the queue pushes with quilt --fuzz=0 on 7.2.13' '
	git -C "$WS" archive --prefix=tree/ v7.2.13 mm include/linux/memcontrol.h | tar xf - &&
	cp -R $Q tree/patches &&
	(cd tree && QUILT_PATCHES=patches quilt push -a --fuzz=0 >../quilt.out 2>&1) &&
	grep "^Now at patch" quilt.out
'

test_expect_success 'status: queued, identical to 7.3.y.s copy (the reference backport)' '
	(cd p && stablekit status --json >../status.json) &&
	for n in 1 2; do
		test "$(cell $B:$n linux-7.2.y state)" = queued &&
		cell $B:$n linux-7.2.y evidence >ev &&
		grep "^the queued code is identical to linux-7.3.y.s copy (the reference backport)\$" ev ||
		return 1
	done
'

test_expect_success 'the workspace is untouched' '
	git -C "$WS" for-each-ref >refs.after &&
	test_cmp refs.before refs.after
'

test_done

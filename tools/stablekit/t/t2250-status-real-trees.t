#!/bin/sh

test_description='stablekit status on the real trees: series A and B by their code

The workspace repository ($SK_WORK/linux, built by `stablekit workspace
init`) holds Debian'"'"'s 6.12.118, 7.1.8, 7.2.13 and 7.3.4, each branch one
root commit: no history proves a landing or holds a Fixes: target, so the
code is the evidence.  B (the shadow-node fix, Fixes: 7404bd37cfbe, Cc:
stable) is in 7.3.4 verbatim, fixes code 7.1.8 and 7.2.13 have and 6.12.118
does not; A (no Fixes:, selected by the downstream 6.12.y) landed in v7.3
edited, so 7.3.4 has a later revision of it.
'

. ./lib-stablekit.sh

A=mm-vmscan-reduce-lru_lock-contention-via-vmstat
B=mm-workingset-fix-the-shadow-node-budget-under-mglru
WS="$SK_WORK/linux"

# cell PATCH BRANCH FIELD: from status.json (evidence one line each)
cell() {
	jq -r --arg p "$1" --arg b "$2" --arg f "$3" \
		'.patches[] | select(.id == $p) | .branches[$b][$f] |
		 if type == "array" then .[] else . end' status.json
}

# mail SEED SUBJECT-PREFIX: the seed's mail whose Subject starts so
mail() {
	rm -rf split && mkdir split &&
	git mailsplit -osplit "$SK_SEEDS/$1" >/dev/null &&
	f=$(grep -l -F "Subject: $2" split/*) &&
	test "$(echo "$f" | wc -l)" = 1 &&
	cat "$f"
}

test_expect_success 'setup: the workspace with the four trees' '
	if ! git -C "$WS" rev-parse -q --verify "refs/tags/v7.3.4^{commit}" >/dev/null
	then
		sk_new_project ws &&
		(cd ws && stablekit workspace init >/dev/null)
	fi &&
	for t in v6.12.118 v7.1.8 v7.2.13 v7.3.4; do
		test "$(git -C "$WS" rev-list --count "$t")" = 1 || return 1
	done
'

test_expect_success 'setup: project with the four branches, A and B pulled' '
	sk_new_project p &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = $WS
	[branch "linux-7.1.y"]
		ref = linux-7.1.y
		base = v7.1.8
		kind = stable
		version = 7.1
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
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12.118
		kind = downstream
		version = 6.12
		select = $A
	EOF
	(cd p && stablekit pull -m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox" &&
	 stablekit pull -m "$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox") \
		>/dev/null 2>&1 &&
	(cd p && stablekit status --json >../status.json)
'

test_expect_success 'B on 7.3.y: present by content, every hunk' '
	for n in 1 2 3; do
		test "$(cell $B:$n linux-7.3.y state)" = present &&
		cell $B:$n linux-7.3.y evidence >ev &&
		grep "^landed by content: the patch reverse-applies on linux-7.3.y (the series in order); the post-image of [0-9]* of its [0-9]* hunks in place\$" ev &&
		grep "^landed by content" ev | tr ";" "\n" | grep "post-image of" >nums &&
		read _ _ _ in _ _ all _ <nums && test "$in" = "$all" && test "$all" -gt 0 ||
		return 1
	done
'

test_expect_success 'B on 7.1.y and 7.2.y: needed, the fixed code is there' '
	for br in linux-7.1.y linux-7.2.y; do
		for n in 1 2; do
			test "$(cell $B:$n $br state)" = needed &&
			cell $B:$n $br evidence >ev &&
			grep "^the code it fixes is in the branch (its pre-image applies)\$" ev &&
			grep "^Fixes: 7404bd37cfbe is unknown to the repository" ev &&
			grep "^the fixed code is there: $br has no history" ev &&
			grep "^upstream by proxy: linux-7.3.y, a newer stable tree, has it (landed by content)" ev ||
			return 1
		done
	done &&
	test "$(cell $B:3 linux-7.2.y state)" = "not eligible"
'

test_expect_success 'B on 6.12.y: not affected, the pre-image does not apply' '
	for n in 1 2; do
		test "$(cell $B:$n linux-6.12.y state)" = "not affected" &&
		cell $B:$n linux-6.12.y evidence >ev &&
		grep "^the code it fixes is not in the branch (its pre-image does not apply)\$" ev &&
		grep "^the fixed code is not there: linux-6.12.y has no history" ev ||
		return 1
	done &&
	cell $B:1 linux-6.12.y evidence >ev &&
	grep "^    mm/memcontrol.c#1 .*: neither\$" ev
'

test_expect_success 'B patch 2 reverse-applies alone on 6.12.y: a coincidence, said so' '
	cell $B:2 linux-6.12.y evidence >ev &&
	grep "^its post-image is on linux-6.12.y, but an earlier patch of the series is not" ev &&
	grep "^    mm/workingset.c#1 (.*count_shadow_nodes.*) at [0-9]*: post-image\$" ev
'

test_expect_success 'A on 7.3.y: landed as a later revision, with the interdiff' '
	for n in 1 2; do
		test "$(cell $A:$n linux-7.3.y state)" = present &&
		cell $A:$n linux-7.3.y evidence >ev &&
		grep "^landed as a later revision: linux-7.3.y has [0-9]* of the stored revision.s [0-9]* added lines" ev &&
		grep "^interdiff, the stored revision against linux-7.3.y:\$" ev ||
		return 1
	done &&
	cell $A:1 linux-7.3.y evidence >ev &&
	grep "^    --- mm/memcontrol.c#1 (stored revision)\$" ev &&
	grep "^    - \* XXX: This helper (and its node/global peers) exists because we place\$" ev &&
	grep "^    + \* XXX: This helper (and its node/global peers) exists because some\$" ev
'

test_expect_success 'A on 7.1.y and 7.2.y: not eligible; on 6.12.y needed' '
	for br in linux-7.1.y linux-7.2.y; do
		test "$(cell $A:1 $br state)" = "not eligible" &&
		test "$(cell $A:2 $br state)" = "not eligible" || return 1
	done &&
	test "$(cell $A:1 linux-6.12.y state)" = needed
'

test_expect_success 'A queued on 6.12.y: flagged as differing from what landed' '
	q=p/stable/linux-6.12.y && mkdir -p $q &&
	mail vmstat-scan-balance-cost.v2.mbox "[PATCH v2 1/2]" >$q/a1.patch &&
	mail vmstat-scan-balance-cost.v2.mbox "[PATCH v2 2/2]" >$q/a2.patch &&
	printf "a1.patch\na2.patch\n" >$q/series &&
	(cd p && stablekit status --json >../status.json) &&
	for n in 1 2; do
		test "$(cell $A:$n linux-6.12.y state)" = queued &&
		test "$(cell $A:$n linux-6.12.y differs_from_upstream)" = true &&
		cell $A:$n linux-6.12.y evidence >ev &&
		grep "^differs from what landed upstream: linux-7.3.y, upstream by proxy, has a later revision than the stored v2" ev &&
		grep "^interdiff, the stored v2 against linux-7.3.y:\$" ev || return 1
	done
'

test_expect_success 'B queued on 7.2.y: identical code to 7.3.y.s copy' '
	q=p/stable/linux-7.2.y && mkdir -p $q &&
	mail shadow-node-budget-mglru.v3.mbox "[PATCH v3 1/3]" >$q/b1.patch &&
	mail shadow-node-budget-mglru.v3.mbox "[PATCH v3 2/3]" >$q/b2.patch &&
	printf "b1.patch\nb2.patch\n" >$q/series &&
	(cd p && stablekit status --json >../status.json) &&
	for n in 1 2; do
		test "$(cell $B:$n linux-7.2.y state)" = queued &&
		test "$(cell $B:$n linux-7.2.y differs_from_upstream)" = false &&
		cell $B:$n linux-7.2.y evidence >ev &&
		grep "^the queued code is identical to linux-7.3.y.s copy (the reference backport)\$" ev ||
		return 1
	done
'

test_expect_success 'an edited B queue on 7.1.y: the interdiff against 7.3.y.s copy' '
	q=p/stable/linux-7.1.y && mkdir -p $q &&
	mail shadow-node-budget-mglru.v3.mbox "[PATCH v3 2/3]" |
		sed "s/^+\(.*\)lruvec_page_state_local(/+\1lruvec_page_state(/" >$q/b2.patch &&
	! cmp -s $q/b2.patch p/stable/linux-7.2.y/b2.patch &&
	echo b2.patch >$q/series &&
	(cd p && stablekit status --json >../status.json) &&
	test "$(cell $B:2 linux-7.1.y state)" = queued &&
	test "$(cell $B:2 linux-7.1.y differs_from_upstream)" = true &&
	cell $B:2 linux-7.1.y evidence >ev &&
	grep "^the queued code differs from linux-7.3.y.s copy (the reference backport); interdiff:\$" ev &&
	grep "^    ++.*lruvec_page_state(" ev
'

test_expect_success 'the summary table' '
	(cd p && stablekit status --no-color >../out) &&
	grep "^$B:1  *needed  *queued  *present  *not affected  " out &&
	grep "^$A:2  *not eligible  *not eligible  *present  *queued\*  " out &&
	grep "^$B:2  *queued\*  *queued  *present  *not affected  " out
'

test_done

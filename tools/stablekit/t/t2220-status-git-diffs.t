#!/bin/sh

test_description='stablekit status: patch-ids as git computes them, merge reverts

The history (t/lib-history.sh) has, besides the shapes of t2200, a file
renamed with an edit and a change whose hunk the indent heuristic
places, both applied upstream without a Link: (only an equal patch-id
proves them), a plain pick of the first on linux-1.0.y and a pick of the
second with another subject and another author; a topic merged and
reverted by reverting its merge, and one merged, reverted and reapplied.
Each answer is checked against what git itself says: git patch-id
--stable over git show, git merge-base --is-ancestor, the revert
messages git wrote.
'

. ./lib-stablekit.sh
. "$SHARNESS_TEST_SRCDIR/lib-history.sh"

state() {
	jq -r --arg p "$1" --arg b "$2" \
		'.patches[] | select(.id == $p) | .branches[$b].state' status.json
}

upstream() {
	jq -r --arg p "$1" '.patches[] | select(.id == $p) | .upstream[].commit' \
		status.json | sort
}

why() {
	(cd p && stablekit status --why "$1" "$2") >why
}

gpid() { git -C linux show "$1" | git patch-id --stable | cut -c1-40; }
spid() { git config -f "p/series/$1/series.conf" "patch.1.$2.patch-id"; }
slug() { ls p/series | grep "$1" | head -n 1; }

test_expect_success 'setup: history, project, series pulled, status' '
	history_generate "$PWD/linux" 400 &&
	. ./linux.shas &&
	git -C linux tag v0.1 "$(git -C linux rev-list --max-parents=0 master)" &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linux
		signoff = Stable Tester <tester@example.org>
	[branch "mainline"]
		ref = master
		base = v0.1
		kind = mainline
	[branch "linux-1.0.y"]
		ref = linux-1.0.y
		base = v1.0
	EOF
	for s in rename indent mrev mreap mremerge reword similar squash edited; do
		(cd p && stablekit pull -m "../linux.mbox/$s.mbox") >/dev/null 2>&1 ||
		return 1
	done &&
	test $(ls p/series | wc -l) = 9 &&
	(cd p && stablekit status --stats --json >../status.json 2>../stats) &&
	grep "diffs: [1-9]" stats
'

test_expect_success 'the cases are what git says they are' '
	git -C linux show --format= -M --name-status $L_RENAME >ns &&
	grep "^R0*9[0-9]	drivers/theta.c	drivers/theta_core.c" ns &&
	test "$(gpid $L_INDENT)" != \
	     "$(git -C linux show --no-indent-heuristic $L_INDENT |
		git patch-id --stable | cut -c1-40)" &&
	test "$(gpid $B_INDENT)" = "$(gpid $L_INDENT)" &&
	test "$(git -C linux log -1 --format="%s %ae" $B_INDENT)" != \
	     "$(git -C linux log -1 --format="%s %ae" $L_INDENT)" &&
	test "$(gpid $B_RENAME)" = "$(gpid $L_RENAME)"
'

test_expect_success 'a pulled patch has the patch-id git gives its commit (rename, indent heuristic)' '
	test "$(spid $(slug theta) 1)" = "$(gpid $L_RENAME)" &&
	test "$(spid $(slug eta-undo) 1)" = "$(gpid $L_INDENT)" &&
	test "$(spid $(slug mrev) 2)" = "$(gpid $M2)"
'

test_expect_success 'every patch-id the index stored is the one git patch-id --stable gives' '
	index=linux/.git/stablekit-index.sqlite &&
	sqlite3 "$index" "SELECT lower(hex(oid)), patch_id FROM commit_extra
		WHERE patch_id IS NOT NULL AND patch_id != \"\"" >stored &&
	for c in $L_RENAME $L_INDENT $B_RENAME $B_INDENT; do
		grep "^$c|" stored || return 1
	done &&
	test $(wc -l <stored) -ge 6 &&
	while IFS="|" read c id; do
		test "$id" = "$(gpid $c)" || { echo "$c: $id"; return 1; }
	done <stored
'

test_expect_success 'a renamed file: upstream by its patch-id, present on the branch as the plain pick' '
	test "$(upstream $(slug theta):1)" = "$L_RENAME" &&
	test "$(state $(slug theta):1 mainline)" = upstream &&
	test "$(state $(slug theta):1 linux-1.0.y)" = present &&
	why $(slug theta):1 linux-1.0.y &&
	grep "equal patch-id: $B_RENAME" why &&
	! grep "^similar" why
'

test_expect_success 'the indent heuristic: upstream; a pick reworded and re-authored is present' '
	test "$(upstream $(slug eta-undo):1)" = "$L_INDENT" &&
	test "$(state $(slug eta-undo):1 mainline)" = upstream &&
	test "$(state $(slug eta-undo):1 linux-1.0.y)" = present &&
	why $(slug eta-undo):1 linux-1.0.y &&
	grep "equal patch-id: $B_INDENT" why
'

test_expect_success 'a merge reverted: its patches reverted upstream, --why cites the revert and the merge' '
	git -C linux log -1 --format=%B $RMM |
		grep "^This reverts commit $MM, reversing" &&
	git -C linux merge-base --is-ancestor $M1 $MM &&
	! git -C linux merge-base --is-ancestor $M1 $MM^1 &&
	for n in 1 2; do
		test "$(state $(slug mrev):$n mainline)" = "reverted upstream" &&
		test "$(state $(slug mrev):$n linux-1.0.y)" = "reverted upstream" ||
		return 1
	done &&
	why $(slug mrev):1 mainline &&
	grep "reverted: $RMM reverts the merge $MM, which brought in $M1" why &&
	why $(slug mrev):2 linux-1.0.y &&
	grep "reverted: $RMM reverts $M2" why
'

test_expect_success 'a merge reverted and reapplied: upstream again, --why cites both' '
	git -C linux log -1 --format=%B $RRMA | grep "^This reverts commit $RMA" &&
	for n in 1 2; do
		test "$(state $(slug mreap):$n mainline)" = upstream || return 1
	done &&
	upstream $(slug mreap):1 >up &&
	grep $A1 up && grep $RRMA up &&
	why $(slug mreap):1 mainline &&
	grep "merged as $RRMA" why &&
	grep "landed again: it reverts $RMA, the revert of $A1" why &&
	grep "reverted: $RMA reverts the merge $MA, which brought in $A1" why
'

test_expect_success 'a merge reverted, then its change merged again: upstream as the new commit' '
	! git -C linux merge-base --is-ancestor $R1B $MR &&
	test "$(gpid $R1B)" = "$(gpid $R1)" &&
	test "$(state $(slug mremerge):1 mainline)" = upstream &&
	upstream $(slug mremerge):1 >up &&
	grep $R1 up && grep $R1B up &&
	why $(slug mremerge):1 mainline &&
	grep "merged as $R1B" why &&
	grep "reverted: $RMR reverts the merge $MR, which brought in $R1" why &&
	! grep "reverted: .* $R1B" why
'

test_expect_success 'a warm status diffs no commit and gives the same answers' '
	(cd p && stablekit status --stats --json >../status2.json 2>../stats2) &&
	grep "diffs: 0 " stats2 &&
	test $(sqlite3 linux/.git/stablekit-index.sqlite \
		"SELECT count(*) FROM matches") -gt 0 &&
	test "$(state $(slug similar):1 mainline)" = similar &&
	test "$(state $(slug squash):1 mainline)" = upstream &&
	jq -S "del(.timing, .stats)" status.json >a &&
	jq -S "del(.timing, .stats)" status2.json >b &&
	test_cmp a b
'

test_done

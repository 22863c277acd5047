#!/bin/sh

test_description='stablekit status on the shapes of real histories

The history (t/lib-history.sh) has mainline with landed, reverted,
squashed, split and reworded series and an unrelated topic of the same
author in the same merge, and linux-1.0.y with cherry-pick -x, plain
and reworded picks, a revert, and a revert followed by a re-landing.
Each state is checked against what git itself says of the same commits
(git cherry, git patch-id --stable, git merge-base --is-ancestor).  The
author of most cases has over 1200 commits, so that her newest are found
by walking the range, not by her address.
'

. ./lib-stablekit.sh
. "$SHARNESS_TEST_SRCDIR/lib-history.sh"

# state SLUG:N BRANCH: the state in status.json
state() {
	jq -r --arg p "$1" --arg b "$2" \
		'.patches[] | select(.id == $p) | .branches[$b].state' status.json
}

# upstream SLUG:N: the upstream commits, sorted
upstream() {
	jq -r --arg p "$1" '.patches[] | select(.id == $p) | .upstream[].commit' \
		status.json | sort
}

why() {
	(cd p && stablekit status --why "$1" "$2") >why
}

# gpid COMMIT: git's stable patch-id of a commit
gpid() { git -C linux show "$1" | git patch-id --stable | cut -c1-40; }

# spid SLUG N: the patch-id stablekit stored when the series was pulled
spid() { git config -f "p/series/$1/series.conf" "patch.1.$2.patch-id"; }

# the slug pull gave each series
slug() { ls p/series | grep "$1" | head -n 1; }

test_expect_success 'setup: history, project, every series pulled' '
	history_generate "$PWD/linux" 5000 &&
	test $(git -C linux rev-list --count --author=ann@example.org master) -gt 1200 &&
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
	for s in pickx plain reword brevert reland uprev samesub similar \
		 squash split edited topic; do
		(cd p && stablekit pull -m "../linux.mbox/$s.mbox") >/dev/null 2>&1 ||
		return 1
	done &&
	ls p/series >series &&
	test $(wc -l <series) = 12 &&
	for s in pickx plain reword brevert reland uprev; do
		S=$(echo $s | tr a-z A-Z) &&
		eval "l=\$L_$S" &&
		test "$(spid $(slug $s) 1)" = "$(gpid $l)" || return 1
	done &&
	(cd p && stablekit status --json >../status.json)
'

test_expect_success 'cherry-pick -x, plain pick, reworded pick: present, and the proof says which' '
	git -C linux cherry master linux-1.0.y v1.0 >cherry &&
	grep "^- $B_PICKX" cherry && grep "^- $B_PLAIN" cherry &&
	grep "^- $B_REWORD" cherry &&
	test "$(gpid $B_REWORD)" = "$(gpid $L_REWORD)" &&
	test "$(git -C linux log -1 --format=%s $B_REWORD)" != \
	     "$(git -C linux log -1 --format=%s $L_REWORD)" &&
	test "$(state $(slug pickx):1 linux-1.0.y)" = present &&
	test "$(state $(slug plain):1 linux-1.0.y)" = present &&
	test "$(state $(slug reword):1 linux-1.0.y)" = present &&
	why $(slug pickx):1 linux-1.0.y &&
	grep "explicit reference: $B_PICKX carries \"(cherry picked from commit $L_PICKX)\"" why &&
	why $(slug plain):1 linux-1.0.y &&
	grep "equal patch-id: $B_PLAIN" why &&
	why $(slug reword):1 linux-1.0.y &&
	grep "equal patch-id: $B_REWORD" why
'

test_expect_success 'a revert on the branch: "reverted on this branch", with its sha' '
	git -C linux merge-base --is-ancestor $B_BREVERT $BR_BREVERT &&
	git -C linux log -1 --format=%B $BR_BREVERT |
		grep "^This reverts commit $B_BREVERT" &&
	git -C linux cherry master linux-1.0.y v1.0 | grep "^+ $BR_BREVERT" &&
	test "$(state $(slug brevert):1 linux-1.0.y)" = "reverted on this branch" &&
	test "$(state $(slug brevert):1 mainline)" = upstream &&
	why $(slug brevert):1 linux-1.0.y &&
	grep "reverted: $BR_BREVERT" why
'

test_expect_success 'revert and re-landing on the branch: present again, the revert in --why' '
	git -C linux merge-base --is-ancestor $BR_RELAND $B_RELAND2 &&
	test "$(gpid $B_RELAND2)" = "$(spid $(slug reland) 1)" &&
	test "$(state $(slug reland):1 linux-1.0.y)" = present &&
	why $(slug reland):1 linux-1.0.y &&
	grep "reverted: $BR_RELAND" why &&
	grep "landed again: $B_RELAND2" why
'

test_expect_success 'a fix reverted upstream: "reverted upstream" on mainline, not needed on stable' '
	git -C linux merge-base --is-ancestor $L_UPREV $RUP &&
	git -C linux merge-base --is-ancestor $RUP master &&
	git -C linux log -1 --format=%B $RUP |
		grep "^This reverts commit $L_UPREV" &&
	test "$(state $(slug uprev):1 mainline)" = "reverted upstream" &&
	test "$(state $(slug uprev):1 linux-1.0.y)" = "reverted upstream" &&
	why $(slug uprev):1 linux-1.0.y &&
	grep "reverted: $RUP" why
'

test_expect_success 'same subject and author, another patch-id (reverted): not present, waits for mainline' '
	test "$(git -C linux log -1 --format="%s %ae" $S1)" = \
	     "$(git -C linux log -1 --format="%s %ae" $P_SAMESUB)" &&
	test "$(gpid $S1)" != "$(spid $(slug samesub) 1)" &&
	git -C linux merge-base --is-ancestor $S1 v1.0 &&
	test "$(state $(slug samesub):1 mainline)" = pending &&
	test -z "$(upstream $(slug samesub):1)" &&
	test "$(state $(slug samesub):1 linux-1.0.y)" = waits
'

test_expect_success 'same subject, another patch-id: "similar", with the diffstat of the difference' '
	test "$(gpid $SIM)" != "$(spid $(slug similar) 1)" &&
	test "$(state $(slug similar):1 mainline)" = similar &&
	test -z "$(upstream $(slug similar):1)" &&
	why $(slug similar):1 mainline &&
	grep "similar: $SIM has the subject but not the patch-id" why &&
	grep "mm/gamma.c" why
'

test_expect_success 'two patches squashed into one commit: upstream, by the hunks it covers' '
	test "$(gpid $Q)" != "$(spid $(slug squash) 1)" &&
	test "$(gpid $Q)" != "$(spid $(slug squash) 2)" &&
	test "$(upstream $(slug squash):1)" = $Q &&
	test "$(upstream $(slug squash):2)" = $Q &&
	why $(slug squash):1 mainline &&
	grep "reshaped landing: the hunks of the patch are covered by $Q" why
'

test_expect_success 'one patch split into two commits: upstream as both' '
	test "$(gpid $SP1)" != "$(spid $(slug split) 1)" &&
	printf "%s\n" $SP1 $SP2 | sort >expect &&
	upstream $(slug split):1 >actual &&
	test_cmp expect actual &&
	why $(slug split):1 mainline &&
	grep "reshaped landing: the hunks of the patch are covered by" why
'

test_expect_success 'a patch edited on the way, with the series Link: upstream, the evidence listed' '
	test "$(gpid $E2)" != "$(spid $(slug edited) 2)" &&
	git -C linux log -1 --format=%B $E2 |
		grep "^Link: https://lore.kernel.org/r/edited-0@example.org" &&
	test "$(upstream $(slug edited):1)" = $E1 &&
	test "$(upstream $(slug edited):2)" = $E2 &&
	why $(slug edited):2 mainline &&
	grep "reshaped landing: the series. Link: <edited-0@example.org>; the hunks of the patch are covered by $E2 (2 of its 4 changed lines" why &&
	jq -e ".patches[] | select(.id == \"$(slug edited):2\") | .similar == []" status.json
'

test_expect_success 'an unrelated commit of the same author in the same merge is not attached' '
	git -C linux merge-base --is-ancestor $U $MT &&
	test $(git -C linux diff-tree --no-commit-id --name-only -r $U | wc -l) = 14 &&
	git -C linux diff-tree --no-commit-id --name-only -r $U |
		grep include/shared.h &&
	git -C linux diff-tree --no-commit-id --name-only -r $T2 |
		grep include/shared.h &&
	test "$(upstream $(slug topic):1)" = $T1 &&
	test "$(upstream $(slug topic):2)" = $T2 &&
	! grep $U status.json
'

test_expect_success 'port writes only a proven upstream sha' '
	test "$(state $(slug topic):2 linux-1.0.y)" = needed &&
	t=$(slug topic) &&
	(cd p && stablekit port $t --branch linux-1.0.y) >out &&
	f=$(ls p/stable/linux-1.0.y/*teardown*.patch) &&
	grep "^commit $T2 upstream\.$" $f &&
	! grep "^commit $U" $f
'

test_expect_success 'the same answers from a pack (commits first, read ahead), from several packs, from loose objects, from deltified commits' '
	idx=linux/.git/stablekit-index.sqlite &&
	git -C linux repack -adq &&
	git verify-pack -v linux/.git/objects/pack/pack-*.idx | sed -n 1p |
		grep " commit " &&
	rm -f $idx* && (cd p && stablekit status --json >../packed.json) &&
	mkdir one && mv linux/.git/objects/pack/pack-* one/ &&
	for f in one/pack-*.pack
	do
		git -C linux unpack-objects -q <$f || return 1
	done &&
	git -C linux rev-list --objects master~300 |
		git -C linux pack-objects -q .git/objects/pack/pack >/dev/null &&
	git -C linux rev-list --objects --all --not master~300 |
		git -C linux pack-objects -q .git/objects/pack/pack >/dev/null &&
	git -C linux prune-packed &&
	test $(ls linux/.git/objects/pack/pack-*.pack | wc -l) = 2 &&
	rm -f $idx* && (cd p && stablekit status --json >../packs.json) &&
	test_cmp packed.json packs.json &&
	git -C linux repack -adq &&
	mkdir loose && mv linux/.git/objects/pack/pack-* loose/ &&
	rm -r one &&
	for f in loose/pack-*.pack
	do
		git -C linux unpack-objects -q <$f || return 1
	done &&
	test_must_fail ls linux/.git/objects/pack/pack-*.pack &&
	rm -f $idx* && (cd p && stablekit status --json >../loose.json) &&
	test_cmp packed.json loose.json &&
	git -C linux repack -adfq --window=250 --depth=50 &&
	git verify-pack -v linux/.git/objects/pack/pack-*.idx |
		awk "\$2 == \"commit\" && NF > 5" >deltas &&
	test -s deltas &&
	rm -f $idx* && (cd p && stablekit status --json >../deltified.json) &&
	test_cmp packed.json deltified.json
'

test_expect_success 'an index filled in steps answers as one filled at once' '
	idx=linux/.git/stablekit-index.sqlite &&
	rm -f $idx* && (cd p && stablekit status --json >../once.json) &&
	main=$(git -C linux rev-parse master) &&
	stable=$(git -C linux rev-parse linux-1.0.y) &&
	n=$(git -C linux rev-list --count v1.0..linux-1.0.y) &&
	test $n -gt 4 &&
	m=$(git -C linux rev-list --count master~2500..master) &&
	s=$(git -C linux rev-list --count linux-1.0.y~$((n / 2))..linux-1.0.y) &&
	git -C linux update-ref refs/heads/master master~2500 &&
	git -C linux update-ref refs/heads/linux-1.0.y linux-1.0.y~$((n / 2)) &&
	rm -f $idx* && (cd p && stablekit status --json >/dev/null) &&
	git -C linux update-ref refs/heads/master $main &&
	git -C linux update-ref refs/heads/linux-1.0.y $stable &&
	(cd p && stablekit status --json --stats >../steps.json 2>../stats) &&
	grep "^  mainline: walked $m, new $m$" stats &&
	grep "^  linux-1.0.y: walked $s, new $s$" stats &&
	test_cmp once.json steps.json
'

test_done

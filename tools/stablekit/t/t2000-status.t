#!/bin/sh

test_description='stablekit status: patch states across mainline and stable branches

A model kernel repository (t2000/model.sh) has mainline with v6.12, v7.0,
v7.1, v7.2 and v7.3-rc1, and the branches linux-6.12.y, linux-7.1.y and
linux-7.2.y with backports.  Series A (the vmstat seed) landed in
v7.3-rc1 as three commits, each with the Link: of its patch; series B (the shadow-node seed) fixes
7404bd37cfbe, a sha the model does not have, whose subject it does.
'

. ./lib-stablekit.sh

# pull is the lead's command under test elsewhere (t1000); its leaks are
# not this test's subject, so LeakSanitizer is off for it alone.
A=mm-vmscan-reduce-lru_lock-contention-via-vmstat
B=mm-workingset-fix-the-shadow-node-budget-under-mglru

# write_series SLUG SUBJECT AUTHOR: series.conf header, one revision.
write_series() {
	mkdir -p "p/series/$1" &&
	cat >"p/series/$1/series.conf" <<-CONF
	[series]
		slug = $1
		subject = $2
		author = $3
	[revision "1"]
		message-id = $1-0@example.org
		mbox = v1.mbx
	CONF
	: >"p/series/$1/v1.mbx"
}

# add_patch SLUG N SUBJECT AUTHOR PATCH-ID "FILES" [KEY=VALUE...]
add_patch() {
	conf="p/series/$1/series.conf"
	printf '[patch "1.%s"]\n\tsubject = %s\n\tauthor = %s\n' "$2" "$3" "$4" >>"$conf" &&
	printf '\tmessage-id = %s-%s@example.org\n\tpatch-id = %s\n' "$1" "$2" "$5" >>"$conf" &&
	for f in $6; do printf '\tfile = %s\n' "$f" >>"$conf"; done &&
	shift 6 &&
	for kv in "$@"; do
		printf '\t%s = %s\n' "${kv%%=*}" "${kv#*=}" >>"$conf"
	done
}

pid() { git -C linux show "$1" | git patch-id --stable | cut -c1-40; }

# state PATCH BRANCH: the state in status.json
state() {
	jq -r --arg p "$1" --arg b "$2" \
		'.patches[] | select(.id == $p) | .branches[$b].state' status.json
}

test_expect_success 'setup: model repository, project and series' '
	. "$SHARNESS_TEST_SRCDIR/t2000/model.sh" &&
	. ./shas &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linux
	[branch "mainline"]
		ref = master
		base = v7.0
		kind = mainline
	[branch "linux-7.1.y"]
		ref = linux-7.1.y
		base = v7.1
		arch = x86_64
	[branch "linux-7.2.y"]
		ref = linux-7.2.y
		base = v7.2
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12
	[branch "vendor-7.1"]
		ref = linux-7.1.y
		base = v7.1
		kind = downstream
		select = $A
	EOF
	(cd p &&
	 stablekit pull -m "$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox" &&
	 stablekit pull -m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox") &&
	test -f "p/series/$A/series.conf" && test -f "p/series/$B/series.conf" &&
	DEV="Dev Eloper <dev@example.org>" &&
	write_series fix-d "mm: workingset: fix shadow count overflow" "$DEV" &&
	add_patch fix-d 1 "mm: workingset: fix shadow count overflow" "$DEV" \
		"$(pid $D)" mm/workingset.c \
		"fixes=$(echo $W | cut -c1-12) (\\\"mm: workingset: use lruvec_lru_size() to get the number of lru pages\\\")" \
		"cc=stable@vger.kernel.org" &&
	sed -i "s/message-id = fix-d-1@example.org/message-id = fixd-1@example.org/" \
		p/series/fix-d/series.conf &&
	write_series vmscan-bound "mm: vmscan: lru size fixes" "$DEV" &&
	add_patch vmscan-bound 1 "mm: vmscan: add a helper for the lru size" \
		"$DEV" 1111111111111111111111111111111111111111 mm/vmscan.c &&
	add_patch vmscan-bound 2 "mm: vmscan: fix the lru size underflow" \
		"$DEV" 2222222222222222222222222222222222222222 mm/vmscan.c \
		"cc=\"stable@vger.kernel.org # 7.2.x\"" &&
	write_series fix-f "mm: page_alloc: fix foo helper" "$DEV" &&
	add_patch fix-f 1 "mm: page_alloc: fix foo helper" "$DEV" \
		3333333333333333333333333333333333333333 mm/page_alloc.c \
		"fixes=0123456789ab (\\\"mm: page_alloc: add foo helper\\\")" &&
	write_series fix-g "mm: swap_state: fix counter leak" "$DEV" &&
	add_patch fix-g 1 "mm: swap_state: fix counter leak" "$DEV" \
		"$(pid $G)" mm/swap_state.c "cc=stable@vger.kernel.org" &&
	mkdir -p p/stable/linux-7.2.y &&
	echo "mm-page_alloc-fix-foo-helper.patch" >p/stable/linux-7.2.y/series &&
	printf "Subject: [PATCH] mm: page_alloc: fix foo helper\n\n" \
		>p/stable/linux-7.2.y/mm-page_alloc-fix-foo-helper.patch &&
	(cd p && stablekit series >../series.out) &&
	test $(wc -l <series.out) -ge 6
'

test_expect_success 'status --json (cold index)' '
	(cd p && stablekit status --json --stats >../status.json 2>../stats) &&
	grep "linux-7.1.y: walked [1-9]" stats &&
	jq -e ".branches | length == 5" status.json
'

test_expect_success 'every state of the matrix' '
	jq -r ".patches[] | .id as \$id | .branches | to_entries[] |
		\"\(\$id) \(.key) \(.value.state)\"" status.json >actual &&
	cat >expect <<-EOF &&
	fix-d:1 mainline upstream
	fix-d:1 linux-7.1.y present
	fix-d:1 linux-7.2.y present
	fix-d:1 linux-6.12.y not affected
	fix-d:1 vendor-7.1 present
	fix-f:1 mainline pending
	fix-f:1 linux-7.1.y not affected
	fix-f:1 linux-7.2.y queued
	fix-f:1 linux-6.12.y not affected
	fix-f:1 vendor-7.1 not affected
	fix-g:1 mainline upstream
	fix-g:1 linux-7.1.y needed
	fix-g:1 linux-7.2.y present
	fix-g:1 linux-6.12.y present
	fix-g:1 vendor-7.1 needed
	$A:1 mainline upstream
	$A:1 linux-7.1.y not eligible
	$A:1 linux-7.2.y present
	$A:1 linux-6.12.y not eligible
	$A:1 vendor-7.1 needed
	$A:2 mainline upstream
	$A:2 linux-7.1.y not eligible
	$A:2 linux-7.2.y not eligible
	$A:2 linux-6.12.y not eligible
	$A:2 vendor-7.1 needed
	$B:1 mainline pending
	$B:1 linux-7.1.y waits
	$B:1 linux-7.2.y waits
	$B:1 linux-6.12.y not affected
	$B:1 vendor-7.1 needed
	$B:2 mainline pending
	$B:2 linux-7.1.y waits
	$B:2 linux-7.2.y waits
	$B:2 linux-6.12.y not affected
	$B:2 vendor-7.1 needed
	$B:3 mainline pending
	$B:3 linux-7.1.y not eligible
	$B:3 linux-7.2.y not eligible
	$B:3 linux-6.12.y not eligible
	$B:3 vendor-7.1 not eligible
	vmscan-bound:1 mainline pending
	vmscan-bound:1 linux-7.1.y not eligible
	vmscan-bound:1 linux-7.2.y not eligible
	vmscan-bound:1 linux-6.12.y not eligible
	vmscan-bound:1 vendor-7.1 not eligible
	vmscan-bound:2 mainline pending
	vmscan-bound:2 linux-7.1.y not eligible
	vmscan-bound:2 linux-7.2.y waits
	vmscan-bound:2 linux-6.12.y not eligible
	vmscan-bound:2 vendor-7.1 not eligible
	EOF
	test_cmp expect actual
'

test_expect_success 'series A landed as three commits: the mapping is shown' '
	jq -r ".patches[] | select(.id == \"$A:1\") | .upstream[].commit" \
		status.json >a1 &&
	echo $A1 >expect && test_cmp expect a1 &&
	jq -r ".patches[] | select(.id == \"$A:2\") | .upstream[].commit" \
		status.json | sort >a2 &&
	printf "%s\n" $A2 $A3 | sort >expect && test_cmp expect a2 &&
	jq -r ".patches[] | select(.id == \"$A:2\") | .upstream[] |
		select(.commit == \"$A2\") | .match" status.json >how &&
	grep "explicit reference: its Link:/Message-Id: is the patch.s <20260713163443.3562378-3-usama.arif@linux.dev>" how &&
	jq -r ".patches[] | select(.id == \"$A:2\") | .upstream[] |
		select(.commit == \"$A3\") | .match" status.json >how &&
	grep "explicit reference: its Link:/Message-Id: is the patch.s <20260713163443.3562378-3-usama.arif@linux.dev>" how
'

test_expect_success 'upstream by Message-Id and by patch-id' '
	jq -r ".patches[] | select(.id == \"fix-d:1\") | .upstream[0].match" \
		status.json >how &&
	grep "explicit reference: its Link:/Message-Id: is the patch.s <fixd-1@example.org>" how &&
	jq -r ".patches[] | select(.id == \"fix-g:1\") | .upstream[0].match" \
		status.json >how && grep "equal patch-id: it has the patch-id of the patch" how
'

test_expect_success 'present: upstream line, [ Upstream commit ], cherry-pick, patch-id, base' '
	(cd p && stablekit status --why fix-d:1 linux-7.1.y >../why) &&
	grep "explicit reference: .* carries \"commit $D upstream.\"" why &&
	(cd p && stablekit status --why $A:1 linux-7.2.y >../why) &&
	grep "explicit reference: .* carries \"\[ Upstream commit $A1 \]\"" why &&
	(cd p && stablekit status --why fix-g:1 linux-6.12.y >../why) &&
	grep "explicit reference: .* carries \"(cherry picked from commit $G)\"" why &&
	(cd p && stablekit status --why fix-g:1 linux-7.2.y >../why) &&
	grep "equal patch-id: .* has the patch-id of the patch (subject \"mm: swap_state: plug a counter leak\")" why &&
	(cd p && stablekit status --why fix-d:1 linux-7.2.y >../why) &&
	grep "is in the base v7.2" why
'

test_expect_success 'Fixes: unknown sha resolved by the quoted subject, and said so' '
	(cd p && stablekit status --why $B:1 linux-7.1.y >../why) &&
	head -n1 why | grep ": waits$" &&
	grep "not upstream yet (mainline-first): no mainline commit proves it, and no newer stable branch has it; needed once it is upstream (its Fixes: target is in the branch)" why &&
	grep "7404bd37cfbe is unknown to the repository; resolved by its quoted subject to $(echo $W | cut -c1-12)" why &&
	grep "is in the base v7.1" why &&
	(cd p && stablekit status --why fix-f:1 linux-7.1.y >../why) &&
	grep "0123456789ab is unknown to the repository" why &&
	grep "is not in linux-7.1.y" why &&
	(cd p && stablekit status --why fix-d:1 linux-6.12.y >../why) &&
	grep "resolves to $(echo $W | cut -c1-12)" why
'

test_expect_success 'Cc: stable # 7.2.x bound; admitted but pending: waits' '
	(cd p && stablekit status --why vmscan-bound:2 linux-7.1.y >../why) &&
	grep "# 7.2.x excludes 7.1" why &&
	(cd p && stablekit status --why vmscan-bound:2 linux-7.2.y >../why) &&
	grep "^  - not upstream yet (mainline-first): .*; needed once it is upstream (Cc: stable # 7.2.x admits 7.2)$" why &&
	jq -r ".patches[] | select(.id == \"$A:2\") |
		.branches[\"vendor-7.1\"].deps[]" status.json >deps &&
	echo $A:1 >expect && test_cmp expect deps
'

test_expect_success 'queued and not eligible say why' '
	(cd p && stablekit status --why fix-f:1 linux-7.2.y >../why) &&
	grep "stable/linux-7.2.y/series lists mm-page_alloc-fix-foo-helper.patch$" why &&
	(cd p && stablekit status --why $A:2 linux-7.1.y >../why) &&
	grep "no Fixes: and no Cc: stable" why &&
	(cd p && stablekit status --why $B:3 vendor-7.1 >../why) &&
	grep "not selected for this downstream branch" why
'

test_expect_success 'a patch can be named by its subject' '
	(cd p && stablekit status --why "mm: swap_state: fix counter leak" linux-7.1.y >../why) &&
	head -n1 why | grep "^fix-g:1 .*: needed$"
'

test_expect_success 'warm run walks nothing and gives the same answer' '
	(cd p && stablekit status --json --stats >../status2.json 2>../stats) &&
	! grep "walked [1-9]" stats &&
	test_cmp status.json status2.json
'

test_expect_success 'a new backport is indexed incrementally' '
	(cd linux && git checkout -q linux-7.1.y &&
	 git cherry-pick $G >/dev/null &&
	 printf "mm: swap_state: fix counter leak\n\ncommit %s upstream.\n" $G >../msg &&
	 git commit -q --amend -F ../msg && git checkout -q master) &&
	(cd p && stablekit status --json --stats >../status.json 2>../stats) &&
	grep "linux-7.1.y: walked 1, new 1$" stats &&
	test "$(state fix-g:1 linux-7.1.y)" = present
'

test_expect_success 'two projects on one repository with other bases do not walk each other again' '
	mkdir -p p2 &&
	cp -R p/series p2/ && mkdir -p p2/stable &&
	sed -e "s/base = v7.0/base = v6.12/" -e "s/base = v7.1/base = v7.0/" \
		p/stable/branches.conf >p2/stable/branches.conf &&
	(cd p2 && stablekit status --json --stats >../p2.json 2>../stats) &&
	grep "mainline: walked [1-9]" stats &&
	for i in 1 2; do
		(cd p && stablekit status --json --stats >../p1.json 2>../stats1) &&
		(cd p2 && stablekit status --json --stats >../p2b.json 2>../stats2) &&
		! grep "walked [1-9]" stats1 stats2 || return 1
	done &&
	test_cmp p2.json p2b.json &&
	test "$(jq -r ".patches[] | select(.id == \"fix-g:1\") | .branches[\"linux-7.1.y\"].state" p2.json)" = present
'

test_expect_success 'a torn index is rebuilt, with a warning' '
	index=linux/.git/stablekit-index.sqlite &&
	test -s $index && ! test -e $index-wal &&
	size=$(wc -c <$index) &&
	head -c $((size / 2)) $index >torn && mv torn $index &&
	(cd p && stablekit status --json >../status.torn 2>../err) &&
	grep "warning: the index .*stablekit-index.sqlite. was torn or not an index; rebuilt" err &&
	(cd p && stablekit status --json >../status.again 2>../err) &&
	test_must_be_empty err &&
	test_cmp status.torn status.again
'

test_expect_success 'a file that is not an index is rebuilt, with a warning' '
	echo "not a database" >linux/.git/stablekit-index.sqlite &&
	(cd p && stablekit status --json >../status.foreign 2>../err) &&
	grep "was torn or not an index; rebuilt" err &&
	test_cmp status.again status.foreign
'

test_expect_success 'the table has a row per patch and a column per branch' '
	(cd p && stablekit status >../table) &&
	head -n1 table | grep "^PATCH *mainline *linux-7.1.y *linux-7.2.y *linux-6.12.y *vendor-7.1 *SUBJECT" &&
	test $(wc -l <table) = 11 &&
	grep "^$A:2 .*needed+1" table &&
	grep "^vmscan-bound:2 .*waits" table
'

test_expect_success 'unknown patch or branch in --why is a usage error' '
	(cd p && test_expect_code 129 stablekit status --why nope:1 linux-7.1.y 2>../err) &&
	grep "no patch" err &&
	(cd p && test_expect_code 129 stablekit status --why fix-d:1 linux-9.9.y 2>../err) &&
	grep "no branch" err
'

test_expect_success 'a missing repository is reported' '
	(cd p && test_expect_code 128 stablekit status --repo ../nowhere 2>../err) &&
	grep "no kernel repository at" err
'

test_expect_success 'allow-pending = true: pending patches needed on that branch, with Stable-dep-of' '
	git config -f p/stable/branches.conf branch.linux-7.2.y.allow-pending true &&
	test_when_finished "git config -f p/stable/branches.conf --unset branch.linux-7.2.y.allow-pending" &&
	(cd p && stablekit status --json >../pending.json) &&
	jq -r ".patches[] | select(.id == \"vmscan-bound:2\") |
		.branches[\"linux-7.2.y\"].deps[]" pending.json >deps &&
	echo vmscan-bound:1 >expect && test_cmp expect deps &&
	(cd p && stablekit status --why vmscan-bound:1 linux-7.2.y >../why) &&
	grep "Stable-dep-of: vmscan-bound:2" why &&
	(cd p && stablekit status --why $B:1 linux-7.2.y >../why) &&
	head -n1 why | grep ": needed$" &&
	grep "^  - its Fixes: target is in the branch; not upstream yet, taken as the branch sets allow-pending$" why &&
	(cd p && stablekit status --why $B:1 linux-7.1.y >../why) &&
	head -n1 why | grep ": waits$"
'

test_expect_success 'allow-pending is for stable branches, and a boolean' '
	cp p/stable/branches.conf conf.saved &&
	test_when_finished "cp conf.saved p/stable/branches.conf" &&
	git config -f p/stable/branches.conf branch.vendor-7.1.allow-pending true &&
	(cd p && test_expect_code 128 stablekit status 2>../err) &&
	grep "branches.conf:[0-9]*: branch .vendor-7.1.: allow-pending is for stable branches" err &&
	cp conf.saved p/stable/branches.conf &&
	git config -f p/stable/branches.conf branch.linux-7.1.y.allow-pending maybe &&
	(cd p && test_expect_code 128 stablekit status 2>../err) &&
	grep "branches.conf:[0-9]*: branch .linux-7.1.y.: allow-pending = .maybe. is not a boolean" err
'

test_expect_success 'a ref missing from the repository: that branch unknown, the others shown, exit 1' '
	cat >>p/stable/branches.conf <<-EOF &&
	[branch "linux-9.9.y"]
		ref = linux-9.9.y
		base = v9.9
	EOF
	(cd p && test_expect_code 1 stablekit status --json >../status.json) &&
	test "$(state fix-d:1 linux-9.9.y)" = unknown &&
	test "$(state fix-d:1 linux-7.2.y)" != unknown &&
	jq -e ".branches[] | select(.name == \"linux-9.9.y\") | .problem == \"ref '"'"'linux-9.9.y'"'"' is not in the repository\"" status.json &&
	(cd p && test_expect_code 1 stablekit status >../out) &&
	grep "^PATCH " out &&
	grep "^linux-9.9.y: unknown: ref .linux-9.9.y. is not in the repository$" out
'

test_done

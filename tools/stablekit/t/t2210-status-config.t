#!/bin/sh

test_description='stablekit status: branches.conf is checked, a branch may live in another repository

Unknown keys and sections, a bad kind, version or arch, a branch without
ref or base, a base the repository does not have and a name that cannot be a
path component are errors naming file:line (exit 128), not "unknown"
patches.  A branch with repo = is tracked in that repository.
'

. ./lib-stablekit.sh
. "$SHARNESS_TEST_SRCDIR/lib-history.sh"

state() {
	jq -r --arg p "$1" --arg b "$2" \
		'.patches[] | select(.id == $p) | .branches[$b].state' status.json
}

# conf LINES...: branches.conf with mainline, then the given lines
conf() {
	{
		printf '[stablekit]\n\trepo = ../linux\n'
		printf '[branch "mainline"]\n\tref = master\n\tbase = v0.1\n\tkind = mainline\n'
		printf '%s\n' "$@"
	} >p/stable/branches.conf
}

# bad LINE-NUMBER MESSAGE LINES...: status exits 128 naming the line
bad() {
	n=$1 msg=$2
	shift 2
	conf "$@" &&
	(cd p && test_expect_code 128 stablekit status 2>../err) &&
	grep "stable/branches.conf:$n: $msg" err
}

test_expect_success 'setup: history, project, series topic' '
	history_generate "$PWD/linux" 50 &&
	. ./linux.shas &&
	git -C linux tag v0.1 "$(git -C linux rev-list --max-parents=0 master)" &&
	sk_new_project p &&
	conf "[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.0" &&
	(cd p && stablekit pull -m ../linux.mbox/topic.mbox) >/dev/null 2>&1 &&
	T=$(ls p/series) &&
	(cd p && stablekit status --json >../status.json) &&
	test "$(state $T:2 linux-1.0.y)" = needed
'

test_expect_success 'an unknown key in a branch is an error naming its line' '
	bad 9 "branch .linux-1.0.y.: unknown key .bsae." \
		"[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	bsae = v1.0" \
		"	base = v1.0"
'

test_expect_success 'an unknown section is an error naming its line' '
	bad 11 "unknown key .gate.arch." \
		"[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.0" \
		"[gate]" "	arch = x86_64"
'

test_expect_success 'a branch without base is an error' '
	bad 7 "branch .linux-1.0.y. has no base" \
		"[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y"
'

test_expect_success 'a branch without ref is an error naming its line' '
	bad 7 "branch .linux-1.0.y. has no ref" \
		"[branch \"linux-1.0.y\"]" "	base = v1.0"
'

test_expect_success 'a base the repository does not have is an error' '
	bad 9 "branch .linux-1.0.y.: base .v1.1. is not in the repository" \
		"[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.1"
'

test_expect_success 'an unknown arch, kind or version is an error naming its line' '
	bad 10 "branch .linux-1.0.y.: unknown arch .x86-64." \
		"[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.0" \
		"	arch = x86-64" &&
	bad 10 "branch .linux-1.0.y.: unknown branch kind .stabel." \
		"[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.0" \
		"	kind = stabel" &&
	bad 10 "branch .linux-1.0.y.: no version in .one." \
		"[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.0" \
		"	version = one"
'

test_expect_success 'a branch given twice is an error naming the second section' '
	bad 10 "section .branch \"linux-1.0.y\". again (it is at line 7)" \
		"[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.0" \
		"[branch \"linux-1.0.y\"]" "	kind = downstream"
'

test_expect_success 'a key given twice is an error naming the second line' '
	bad 10 ".base. is set again (it is set at line 9)" \
		"[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.0" \
		"	base = v0.1" &&
	bad 11 ".repo. is set again (it is set at line 10)" \
		"[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.0" \
		"	repo = ../linux" "	repo = ../other" &&
	conf "[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.0" \
		"	arch = x86_64" "	arch = arm64" &&
	(cd p && stablekit status >/dev/null)
'

test_expect_success 'a base that is not an ancestor of the ref is an error naming its line' '
	! git -C linux merge-base --is-ancestor $MAIN linux-1.0.y &&
	bad 9 "branch .linux-1.0.y.: base .$MAIN. is not an ancestor of ref .linux-1.0.y." \
		"[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = $MAIN" &&
	conf "[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.0" &&
	(cd p && stablekit status --json >../status.json) &&
	test "$(state $T:2 linux-1.0.y)" = needed
'

test_expect_success 'a sha or a branch as base: the message says to set the version' '
	bad 9 "branch .backport. has no version: neither its base .$V10. (a commit or branch, not a release tag vX.Y) nor its name says one; set version = X.Y" \
		"[branch \"backport\"]" "	ref = linux-1.0.y" "	base = $V10" &&
	conf "[branch \"backport\"]" "	ref = linux-1.0.y" "	base = $V10" \
		"	version = 1.0" &&
	(cd p && stablekit status --json >../status.json) &&
	test "$(state $T:2 backport)" = needed
'

test_expect_success 'a branch name that is not a valid name is an error' '
	bad 8 "" "[branch \"../up\"]" "	base = v1.0" &&
	grep "branch" err && grep "\.\./up" err
'

test_expect_success 'repo = : a branch tracked in another repository' '
	git clone -q linux other &&
	git -C other checkout -q -b vendor v1.0 &&
	git -C other cherry-pick -x $T2 >/dev/null &&
	conf "[branch \"linux-1.0.y\"]" "	ref = linux-1.0.y" "	base = v1.0" \
		"[branch \"vendor\"]" "	repo = ../other" "	ref = vendor" \
		"	base = v1.0" &&
	! git -C linux rev-parse -q --verify vendor &&
	(cd p && stablekit status --json >../status.json) &&
	test "$(state $T:2 vendor)" = present &&
	test "$(state $T:1 vendor)" = needed &&
	test "$(state $T:2 linux-1.0.y)" = needed &&
	(cd p && stablekit status --why $T:2 vendor) >why &&
	grep "carries \"(cherry picked from commit $T2)\"" why &&
	test -f other/.git/stablekit-index.sqlite
'

test_expect_success 'repo = that is no repository is an error naming its line' '
	bad 7 "branch .vendor.: no repository at .../nowhere." \
		"[branch \"vendor\"]" "	ref = vendor" "	base = v1.0" \
		"	repo = ../nowhere"
'

test_done

#!/bin/sh

test_description='bad arguments fail before any work, with one exit code per kind

A usage error (an unknown option, stage or arch, a value out of range, an
unknown branch, revision or command) exits 129, names what there is, and
starts nothing: no kernel build, no results directory.  A command that
would build kernels is never started by default.
'

. ./lib-stablekit.sh

export SK_WORK="$SHARNESS_TRASH_DIRECTORY/work"

# usage_error CMD...: exit 129, nothing under $SK_WORK, no child started
usage_error() {
	rm -rf "$SK_WORK" &&
	(cd p && test_expect_code 129 stablekit "$@") >out 2>err &&
	test_must_be_empty out &&
	! test -e "$SK_WORK"
}

test_expect_success 'setup: a project with one branch on a small repository' '
	git init -q lin &&
	echo "int a;" >lin/a.c &&
	git -C lin add a.c && git -C lin commit -q -m base && git -C lin tag v6.12 &&
	git -C lin branch linux-6.12.y &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-\EOF
	[stablekit]
		repo = ../lin
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12
	EOF
'

test_expect_success 'gate --skip with no such stage' '
	usage_error gate --branch linux-6.12.y --skip nonsense &&
	grep "no such stage (build, kselftest, bench, mglru)" err
'

test_expect_success 'gate --runs 0 and a count beyond an int' '
	usage_error gate --branch linux-6.12.y --runs 0 &&
	usage_error gate --branch linux-6.12.y --runs 99999999999
'

test_expect_success 'gate --arch that no guest boots' '
	usage_error gate --branch linux-6.12.y --arch sparc &&
	grep "unknown arch .sparc." err
'

test_expect_success 'gate and test --runner that is no runner, --lava-config alone' '
	usage_error gate --branch linux-6.12.y --runner ssh &&
	grep "unknown runner .ssh. (local, lava)" err &&
	usage_error test --kernel none --runner ssh &&
	grep "unknown runner .ssh." err &&
	usage_error gate --branch linux-6.12.y --lava-config x.conf &&
	grep "only with --runner lava" err &&
	usage_error test --kernel none --runner local --lava-config x.conf
'

test_expect_success 'gate, test, build, port and report on an unknown branch' '
	for cmd in "gate --branch nosuch" "test --branch nosuch" \
		"build --branch nosuch" "port x --branch nosuch" \
		"report --branch nosuch"
	do
		usage_error $cmd &&
		grep "unknown branch .nosuch. (.*branches.conf has: linux-6.12.y)" err ||
		return 1
	done
'

test_expect_success 'build and test with no branch start nothing' '
	usage_error build &&
	grep "name the branches to build" err &&
	usage_error test &&
	grep "name the branch whose kernel to build" err
'

test_expect_success 'help for a command that does not exist' '
	usage_error help nosuch &&
	grep "^   status " err
'

test_expect_success 'series show and diff of a series that is not there' '
	usage_error series show nosuch &&
	grep "no series .nosuch. under series/ (there is none" err &&
	usage_error diff nosuch v1 v2 &&
	grep "no series .nosuch." err
'

A=mm-vmscan-reduce-lru_lock-contention-via-vmstat
B=mm-workingset-fix-the-shadow-node-budget-under-mglru

test_expect_success 'setup: two series stored' '
	(cd p && stablekit pull -m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox" &&
	 stablekit pull -m "$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox") >/dev/null 2>&1 &&
	test -d p/series/$A && test -d p/series/$B
'

test_expect_success 'port of a series that is not there: named, the others listed, 129' '
	usage_error port nosuch --branch linux-6.12.y &&
	grep "^error: no series .nosuch. under series/ (there are: $A, $B)$" err &&
	usage_error status --series nosuch &&
	grep "^error: no series .nosuch. under series/ (there are: $A, $B)$" err &&
	usage_error pull --update nosuch &&
	grep "^error: no series .nosuch. under series/ (there are: $A, $B)$" err &&
	usage_error pull --update mm- &&
	grep "^error: .mm-. is the start of 2 series. names: $A, $B; give more of the name$" err
'

test_expect_success 'a unique start of a name names the series, everywhere' '
	(cd p && stablekit series show mm-w) >out &&
	grep "^series:    $B$" out &&
	(cd p && test_expect_code 129 stablekit diff mm-w v3 v9) 2>err &&
	grep "series .$B. has no revision .v9." err &&
	(cd p && stablekit status --series mm-w --json) >status.json &&
	test "$(jq -r "[.patches[].series] | unique | .[]" status.json)" = $B &&
	(cd p && stablekit status --why mm-w:1 linux-6.12.y) >why &&
	grep "^$B:1 " why &&
	(cd p && stablekit port mm-w --branch linux-6.12.y) >out &&
	grep "^$B -> linux-6.12.y" out
'

test_expect_success 'an ambiguous start of a name lists the candidates' '
	usage_error series show mm- &&
	grep "^error: .mm-. is the start of 2 series. names: $A, $B; give more of the name$" err &&
	usage_error port mm --branch linux-6.12.y &&
	grep "is the start of 2 series. names" err
'

test_expect_success 'series with a mistyped word: named, with a guess' '
	usage_error series shwo x &&
	grep "^error: series: unknown word .shwo.; did you mean .show.?$" err &&
	usage_error series frob &&
	grep "^error: series: unknown word .frob. (list or show)$" err &&
	usage_error stauts &&
	grep "did you mean .status.?" err
'

test_expect_success 'port --progress: progress lines on stderr, none without' '
	(cd p && SK_PROGRESS=0 stablekit port mm-w --branch linux-6.12.y --progress) >out 2>err &&
	grep "^\[ *[0-9]*:[0-9][0-9]\] port: tracking $B on the branches (status)$" err &&
	grep "^\[ *[0-9]*:[0-9][0-9]\] port: $B -> linux-6.12.y$" err &&
	grep "^\[ *[0-9]*:[0-9][0-9]\] port: $B -> linux-6.12.y: done, every needed patch queued$" err &&
	! grep "^\[" out &&
	(cd p && SK_PROGRESS=0 stablekit port mm-w --branch linux-6.12.y) >out 2>err &&
	test_must_be_empty err
'

test_expect_success 'series outside a project: an error, not an empty table' '
	nowhere=$(mktemp -d "${TMPDIR:-/tmp}/sk-nowhere.XXXXXX") &&
	test_when_finished "rm -rf \"$nowhere\"" &&
	(cd "$nowhere" && test_expect_code 128 stablekit series) >out 2>err &&
	test_must_be_empty out &&
	grep "^error: not in a stablekit project: no series/ in $nowhere or any directory above it" err
'

test_done

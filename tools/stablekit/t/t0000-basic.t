#!/bin/sh

test_description='stablekit runs, dispatches commands and reports usage errors'

. ./lib-stablekit.sh

test_expect_success 'version names libgit2' '
	stablekit --version >out &&
	grep "^stablekit version .* (libgit2 1\." out
'

test_expect_success 'no command is a usage error' '
	test_expect_code 129 stablekit 2>err &&
	grep "^usage: stablekit" err
'

test_expect_success 'an unknown command is a usage error naming it' '
	test_expect_code 129 stablekit frobnicate 2>err &&
	grep "'\''frobnicate'\'' is not a stablekit command" err
'

test_expect_success 'an unknown option is a usage error' '
	sk_new_project p &&
	test_expect_code 129 stablekit -C p series --bogus 2>err &&
	grep "unknown option '\''--bogus'\''" err
'

test_expect_success '-C into a missing directory fails' '
	test_expect_code 128 stablekit -C no/such/dir series 2>err &&
	grep "cannot change to" err
'

test_expect_success 'help shows the manual page of a command' '
	stablekit help pull >out &&
	grep -i "stablekit-pull" out &&
	grep -i "use-local-mbox\|-m" out
'

test_expect_success 'help for an unknown command is a usage error listing the commands' '
	test_expect_code 129 stablekit help frobnicate 2>err &&
	grep "no manual page" err &&
	grep "^   gate " err
'

test_expect_success 'help alone lists every command and the exit codes' '
	stablekit help >out &&
	for c in pull series diff maintainers workspace status scan port build test gate report init help
	do
		grep "^   $c " out || return 1
	done &&
	grep "129 usage" out
'

test_expect_success 'a bad global option is a usage error before any work' '
	test_expect_code 129 stablekit --frobnicate status 2>err &&
	grep "unknown option" err
'

# make check prints ci/test-failures after a failed prove: CI shows only
# the end of its log, and sharness throws a test's output away without -v
test_expect_success 'a failed test leaves its output for ci/test-failures' '
	cat >t9990-inner.t <<-\EOF &&
	#!/bin/sh
	test_description="inner"
	. "$SK_TOP/tools/stablekit/t/lib-stablekit.sh"
	test_expect_success "quiet pass" "echo passing output"
	test_expect_success "a failure" "
		echo what went wrong &&
		echo on stderr too >&2 &&
		false
	"
	test_done
	EOF
	chmod +x t9990-inner.t &&
	(SK_BUILD="$PWD/inner-build" && export SK_BUILD &&
	 test_expect_code 1 ./t9990-inner.t >tap) &&
	grep "^not ok 2 - a failure" tap &&
	! grep "^what went wrong" tap &&
	"$SK_TOP/ci/test-failures" inner-build/test-logs >failures &&
	grep "^=== t9990-inner.log: not ok 2 - a failure$" failures &&
	grep "^    what went wrong$" failures &&
	grep "^    on stderr too$" failures &&
	! grep "passing output" failures
'

test_done

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
	for c in pull series diff maintainers workspace status port build test gate report help
	do
		grep "^   $c " out || return 1
	done &&
	grep "129 usage" out
'

test_expect_success 'a bad global option is a usage error before any work' '
	test_expect_code 129 stablekit --frobnicate status 2>err &&
	grep "unknown option" err
'

test_done

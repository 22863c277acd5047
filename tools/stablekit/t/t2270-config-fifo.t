#!/bin/sh

test_description='a FIFO as a config file or as its include.path hangs no command

libgit2 opens and reads what include.path names, as it finds it: a FIFO
nobody writes to hung every command for ever.  Each config file and the
files it includes must be regular files; anything else is an error
naming it (and the line that includes it), exit 128, at once.'

. ./lib-stablekit.sh

test_expect_success 'setup: a project and a FIFO' '
	sk_new_project p &&
	git init -q lin && git -C lin commit -q --allow-empty -m base &&
	git -C lin tag v6.12 && git -C lin branch linux-6.12.y &&
	cat >branches.good <<-\EOF &&
	[stablekit]
		repo = ../lin
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12
	EOF
	mkfifo fifo
'

test_expect_success 'include.path naming a FIFO: status says so at once, exit 128' '
	cp branches.good p/stable/branches.conf &&
	printf "[include]\n\tpath = ../../fifo\n" >>p/stable/branches.conf &&
	test_expect_code 128 timeout 20 stablekit -C p status 2>err &&
	grep "branches.conf:7: include.path .*fifo. is not a regular file" err
'

test_expect_success 'an includeIf path to a FIFO, two includes deep: the same' '
	cp branches.good p/stable/branches.conf &&
	printf "[includeIf \"gitdir:/\"]\n\tpath = more.conf\n" >>p/stable/branches.conf &&
	printf "[include]\n\tpath = \"%s/fifo\"\n" "$PWD" >p/stable/more.conf &&
	test_expect_code 128 timeout 20 stablekit -C p status 2>err &&
	grep "more.conf:2: include.path .*/fifo. is not a regular file" err
'

test_expect_success 'branches.conf itself a FIFO: the same, for status and pull --update' '
	rm p/stable/branches.conf && mkfifo p/stable/branches.conf &&
	test_expect_code 128 timeout 20 stablekit -C p status 2>err &&
	grep "branches.conf: not a regular file" err &&
	test_expect_code 128 timeout 20 stablekit -C p pull --update 2>err &&
	grep "branches.conf: not a regular file" err
'

test_expect_success 'a series.conf that is a FIFO: series show names it' '
	rm p/stable/branches.conf && cp branches.good p/stable/branches.conf &&
	mkdir -p p/series/s && mkfifo p/series/s/series.conf &&
	test_expect_code 128 timeout 20 stablekit -C p series show s 2>err &&
	grep "series/s/series.conf: not a regular file" err
'

test_expect_success 'a regular include is read as before: branches.conf takes no include' '
	rm -r p/series/s &&
	cp branches.good p/stable/branches.conf &&
	printf "[include]\n\tpath = extra.conf\n" >>p/stable/branches.conf &&
	printf "[branch \"linux-6.12.y\"]\n\tarch = x86_64\n" >p/stable/extra.conf &&
	test_expect_code 128 timeout 60 stablekit -C p status >out 2>err &&
	grep "branches.conf:7: unknown key .include.path." err &&
	! grep "not a regular file" err
'

test_done

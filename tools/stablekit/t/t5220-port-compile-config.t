#!/bin/sh

test_description='stablekit port: which kconfig the compile check takes, and who is to blame

The compile check builds the objects a queue touches with defconfig and
the project'"'"'s ci/kconfig/*.config, or, when the project has no
ci/kconfig/, the fragments stablekit ships (its data directory, stablekit
--data-dir; SK_DATADIR overrides it): a project made with stablekit init
gets CONFIG_MEMCG and the rest.  When the queue does not compile, the
branch without it is built too, the same objects with the same
configuration: if that fails as well the branch does not build them with
this config and nobody is blamed; if it builds, the queue breaks the
build.  The tree is t5210/tree, a tiny kernel-like tree whose Makefile
compiles with gcc, plus mm/memcg.c that only builds with CONFIG_MEMCG (as
mm/memcontrol.c does).'

. ./lib-stablekit.sh

# kbuild takes no path with white space, as the trash directory has
SK_WORK="$SK_BUILD/t5220-work"
export SK_WORK
rm -rf "$SK_WORK"
unset SK_DATADIR

port() {
	(cd p && stablekit port "$@")
}

# mail SLUG: the last commit of branch SLUG as a 1-patch thread
mail() {
	{
		printf "From mboxrd@z Thu Jan  1 00:00:00 1970\n" &&
		printf "From: A U Thor <author@example.org>\n" &&
		printf "Date: Mon, 5 Jan 2026 10:00:00 +0000\n" &&
		printf "Subject: [PATCH] %s\n" "$(git -C tiny log -1 --format=%s $1)" &&
		printf "Message-Id: <%s@example.org>\n\n" "$1" &&
		printf "A change.\n\nSigned-off-by: A U Thor <author@example.org>\n---\n" &&
		git -C tiny diff $1~1 $1
	} >$1.mbox
}

test_expect_success 'setup: a tree whose mm/memcg.c needs CONFIG_MEMCG, two series' '
	git init -q tiny && (
	cd tiny &&
	cp -R "$SHARNESS_TEST_DIRECTORY/t5210/tree/." . &&
	cat >include/linux/memcontrol.h <<-\EOF &&
	#ifndef _LINUX_MEMCONTROL_H
	#define _LINUX_MEMCONTROL_H
	#ifdef CONFIG_MEMCG
	extern int memory_cgrp_subsys_on_dfl_key;
	#endif
	#endif
	EOF
	cat >mm/memcg.c <<-\EOF &&
	#include <linux/memcontrol.h>

	int memcg_on_dfl(void)
	{
		return memory_cgrp_subsys_on_dfl_key;
	}

	int memcg_a(void)
	{
		return 1;
	}

	int memcg_b(void)
	{
		return 2;
	}
	EOF
	git add -A && git commit -q -m "Linux 6.12" && git tag v6.12 &&
	git checkout -q -b fix &&
	sed -i "s/return memory_cgrp_subsys_on_dfl_key;/return !!memory_cgrp_subsys_on_dfl_key;/" mm/memcg.c &&
	git commit -q -a -m "mm: memcg: return a boolean" &&
	git checkout -q -b broken v6.12 &&
	sed -i "s/return 2;/return memcg_missing();/" mm/memcg.c &&
	git commit -q -a -m "mm: memcg: call a function the tree lacks" &&
	git checkout -q master ) &&
	mail fix && mail broken &&
	stablekit init p >init.out &&
	cat >>p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../tiny
		signoff = Stable Tester <tester@example.org>
	[branch "vendor-612"]
		ref = master
		base = v6.12
		kind = downstream
		select = mm-memcg-return-a-boolean
		select = mm-memcg-call-a-function-the-tree-lacks
	EOF
	(cd p && stablekit pull -m ../fix.mbox && stablekit pull -m ../broken.mbox) >pull.out 2>&1 &&
	test -d p/series/mm-memcg-return-a-boolean &&
	! test -e p/ci
'

test_expect_success 'a project without ci/kconfig compiles with the shipped fragments' '
	port mm-memcg-return-a-boolean --branch vendor-612 >out &&
	grep "^  1\. clean  *mm: memcg: return a boolean$" out &&
	grep "^  compile check: x86_64 defconfig + shipped ci/kconfig (mm-series.config): mm/memcg.o$" out &&
	test -f p/stable/vendor-612/mm-memcg-return-a-boolean.patch
'

test_expect_success 'port --json names the shipped fragments, under stablekit --data-dir' '
	port mm-memcg-return-a-boolean --branch vendor-612 --json >json &&
	data=$(stablekit --data-dir) &&
	jq -e ".[0].kconfig.from == \"shipped\"" json &&
	jq -e --arg f "$data/ci/kconfig/mm-series.config" ".[0].kconfig.fragments == [\$f]" json &&
	grep "^CONFIG_MEMCG=y$" "$data/ci/kconfig/mm-series.config" &&
	jq -e ".[0].compile_verdict == null" json
'

test_expect_success 'SK_DATADIR names another data directory: its fragments are taken' '
	mkdir -p data/ci/kconfig &&
	printf "CONFIG_SWAP=y\n" >data/ci/kconfig/swap-only.config &&
	test_expect_code 128 env SK_DATADIR="$PWD/data" \
		sh -c "cd p && stablekit port mm-memcg-return-a-boolean --branch vendor-612 --json" >json 2>err &&
	jq -e ".[0].kconfig.from == \"shipped\"" json &&
	jq -e --arg f "$PWD/data/ci/kconfig/swap-only.config" ".[0].kconfig.fragments == [\$f]" json
'

test_expect_success 'the project'"'"'s ci/kconfig replaces the shipped fragments' '
	mkdir -p p/ci/kconfig &&
	printf "CONFIG_SWAP=y\n" >p/ci/kconfig/local.config &&
	test_expect_code 128 port mm-memcg-return-a-boolean --branch vendor-612 --json >json 2>err &&
	jq -e ".[0].kconfig.from == \"project\"" json &&
	jq -e ".[0].kconfig.fragments | length == 1" json &&
	jq -e ".[0].kconfig.fragments[0] | endswith(\"/p/ci/kconfig/local.config\")" json
'

test_expect_success 'a config gap: the branch does not build the objects either, nobody blamed' '
	cp -R p/stable/vendor-612 queue-before &&
	test_expect_code 128 port mm-memcg-return-a-boolean --branch vendor-612 >out 2>err &&
	grep "^error: compile check: the branch does not build these objects with this config, with or without the queue (x86_64 defconfig + ci/kconfig (local.config): mm/memcg.o):$" err &&
	grep "^  mm/memcg.c:[0-9]*:[0-9]*: error: .memory_cgrp_subsys_on_dfl_key. undeclared" err &&
	grep "the queue is not to blame and nothing was queued" err &&
	! grep "the queue breaks the build" err &&
	! test -e p/stable/vendor-612/failed &&
	diff -r queue-before p/stable/vendor-612 &&
	jq -e ".proof.status == \"fail\"" "$SK_WORK/results/vendor-612/port/mm-memcg-return-a-boolean.json" &&
	jq -e ".patches[0].method != \"FAILED\"" "$SK_WORK/results/vendor-612/port/mm-memcg-return-a-boolean.json"
'

test_expect_success 'port --json says the branch is the one broken' '
	test_expect_code 128 port mm-memcg-return-a-boolean --branch vendor-612 --json >json 2>err &&
	jq -e ".[0].compile_verdict == \"the branch does not build these objects with this config\"" json &&
	jq -e ".[0].error | startswith(\"compile check: the branch does not build\")" json
'

test_expect_success 'with the config fixed, a queue that breaks the build is blamed' '
	rm -r p/ci &&
	test_expect_code 1 port mm-memcg-call-a-function-the-tree-lacks --branch vendor-612 >out 2>err &&
	grep "^  1\. FAILED  *mm: memcg: call a function the tree lacks$" out &&
	grep "the queue does not compile with it: mm/memcg.c:[0-9]*:[0-9]*: error: implicit declaration of function .memcg_missing." out &&
	grep "^  compile check: the queue breaks the build$" out &&
	test -f p/stable/vendor-612/failed/mm-memcg-call-a-function-the-tree-lacks.mail
'

test_expect_success 'port --json says the queue is the one broken' '
	test_expect_code 1 port mm-memcg-call-a-function-the-tree-lacks --branch vendor-612 --json >json &&
	jq -e ".[0].compile_verdict == \"the queue breaks the build\"" json &&
	jq -e ".[0].patches[0].method == \"FAILED\"" json
'

test_expect_success 'cleanup' '
	rm -rf "$SK_WORK"
'

test_done

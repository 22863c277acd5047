#!/bin/sh

test_description='stablekit port: the queue entries of other series are checked as build checks them

port keeps the lines of stable/<branch>/series that belong to other
series, reads their patches, applies them first and copies them into the
new queue.  An entry such as ../../../outside/escape.patch used to be read
from outside the project, fed to quilt and rewritten.  port now checks
every entry with the one reader build uses (core/names.c): it exits 128
naming the series file and line, and nothing outside the project nor in
the queue is read or changed.  Quilt options on a line (-p2, -R), which
quilt would honour and stablekit does not, are refused the same way.'

. ./lib-stablekit.sh
. "$SK_TOP/ci/model/linux.sh"

B=mm-workingset-fix-the-shadow-node-budget-under-mglru
Q=p/stable/linux-7.2.y

port() {
	(cd p && stablekit port "$@")
}

# state: everything under the queue and outside/, with mode, link count,
# inode and contents
state() {
	find $Q outside -type f -o -type p | sort | while read f; do
		stat -c "%n %a %h %i %s" "$f" &&
		{ test -p "$f" || sha1sum "$f"; }
	done
}

test_expect_success 'setup: model repository, project, series B pulled, a file outside' '
	build_linuxb &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linuxb
		signoff = Stable Tester <tester@example.org>
	[branch "mainline"]
		ref = master
		base = v7.0
		kind = mainline
	[branch "linux-7.2.y"]
		ref = linux-7.2.y
		base = v7.2
	EOF
	(cd p && stablekit pull -m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox") >/dev/null 2>&1 &&
	mkdir -p outside $Q &&
	cat >outside/escape.patch <<-\EOF &&
	Subject: outside

	--- /dev/null
	+++ b/outside.txt
	@@ -0,0 +1 @@
	+from outside
	EOF
	chmod 600 outside/escape.patch &&
	ln outside/escape.patch outside/hardlink
'

test_expect_success 'an entry ../../../outside/escape.patch: refused with file and line, nothing read or changed' '
	printf "# other-series\n../../../outside/escape.patch\n" >$Q/series &&
	state >before &&
	test_expect_code 128 port $B --branch linux-7.2.y >out 2>err &&
	grep "stable/linux-7.2.y/series:2: queue entry name .\.\./\.\./\.\./outside/escape\.patch. has a character other than letters" err &&
	state >after &&
	test_cmp before after &&
	printf "# other-series\n../../../outside/escape.patch\n" >expect &&
	test_cmp expect $Q/series
'

test_expect_success 'an entry that is a FIFO outside: refused before it is opened' '
	mkfifo outside/fifo.patch &&
	printf "# other-series\n../../../outside/fifo.patch\n" >$Q/series &&
	test_expect_code 128 timeout 60 sh -c "cd p && stablekit port $B --branch linux-7.2.y" 2>err &&
	grep "series:2: queue entry name" err
'

test_expect_success 'an entry with a slash or an absolute path: refused' '
	printf "# other-series\nsub/x.patch\n" >$Q/series &&
	test_expect_code 128 port $B --branch linux-7.2.y 2>err &&
	grep "series:2: queue entry name .sub/x.patch. has a character other than" err &&
	printf "# other-series\n$PWD/outside/escape.patch\n" >$Q/series &&
	test_expect_code 128 port $B --branch linux-7.2.y 2>err &&
	grep "series:2: queue entry name" err
'

test_expect_success 'quilt options on a line of another series: -p2 and -R refused, naming them' '
	cp outside/escape.patch $Q/other.patch &&
	printf "# other-series\nother.patch -p2\n" >$Q/series &&
	state >before &&
	test_expect_code 128 port $B --branch linux-7.2.y 2>err &&
	grep "series:2: quilt option .-p2. for .other.patch. is not supported" err &&
	printf "# other-series\n\nother.patch -R # reversed\n" >$Q/series &&
	test_expect_code 128 port $B --branch linux-7.2.y 2>err &&
	grep "series:3: quilt option .-R. for .other.patch. is not supported" err &&
	printf "# other-series\nother.patch -p2\n" >$Q/series &&
	state >after &&
	test_cmp before after
'

test_expect_success 'a good entry of another series, with -p1 and a comment, is kept and pushed first' '
	printf "# other-series\nother.patch -p1 # the default\n" >$Q/series &&
	port $B --branch linux-7.2.y >out 2>err &&
	head -n 2 $Q/series >head &&
	printf "# other-series\nother.patch # the default\n" >expect &&
	test_cmp expect head &&
	grep "^# $B" $Q/series &&
	grep "^+++ b/outside.txt" $Q/other.patch
'

test_expect_success 'status: a bad entry is a warning naming file and line, never read' '
	printf "# other-series\n../../../outside/fifo.patch\nother.patch\n" >$Q/series &&
	(cd p && timeout 60 stablekit status) >out 2>err &&
	grep "warning: .*stable/linux-7.2.y/series:2: queue entry name .\.\./\.\./\.\./outside/fifo\.patch. has a character" err
'

test_done

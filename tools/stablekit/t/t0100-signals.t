#!/bin/sh

test_description='signals, the project lock and option limits

SIGINT, SIGTERM and SIGHUP stop the process groups of the running tools,
remove the temporary directories and exit 128 + N; SIGKILL leaves a
temporary directory that the next run removes; one writer of series/ and
stable/ at a time; integer options out of range are usage errors before
any work.'

. ./lib-stablekit.sh
. "$SK_TOP/ci/model/linux.sh"

B=mm-workingset-fix-the-shadow-node-budget-under-mglru

# A tool that starts a long child of its own and records both pids:
# <name>.pid (the tool) and <name>.child (its sleep).
slow_tool() {
	cat >bin/$1 <<-EOF &&
	#!/bin/sh
	echo \$\$ >"$PWD/$1.pid"
	sleep 300 &
	echo \$! >"$PWD/$1.child"
	wait
	EOF
	chmod +x bin/$1
}

# wait_for FILE: until it exists (60 s at most: a loaded machine under
# ASan can take seconds to start a tool)
wait_for() {
	n=0
	while ! test -s "$1"; do
		n=$((n + 1))
		test $n -lt 1200 || return 1
		sleep 0.05
	done
}

# gone PID: no such process, or a zombie waiting for init
gone() {
	s=$(ps -o stat= -p "$1" 2>/dev/null)
	case "$s" in
	""|Z*) return 0 ;;
	*) return 1 ;;
	esac
}

# stop_left: on a failure, stop what a test left running (its files name it)
stop_left() {
	for f in sk.pid b4.pid b4.child quilt.pid quilt.child; do
		test -s $f && ! gone $(cat $f) && kill $(cat $f)
		rm -f $f
	done
	return 0
}

# tmp_of PID: the temporary directories of stablekit PID in /tmp
tmp_of() {
	ls -a /tmp | grep "^\.stablekit-pull-$1-" || true
}

test_expect_success 'setup: a project and a b4 that does not finish' '
	sk_new_project p &&
	mkdir bin &&
	slow_tool b4
'

test_expect_success 'SIGTERM: the tool and its child stopped, no temporary left, exit 143' '
	rm -f b4.pid b4.child &&
	(cd p && PATH="$PWD/../bin:$PATH" exec stablekit pull "<a@b.c>") >out 2>err &
	pid=$! && echo $pid >sk.pid && test_when_finished stop_left &&
	wait_for b4.child &&
	test -n "$(tmp_of $pid)" &&
	kill -TERM $pid &&
	test_expect_code 143 wait $pid &&
	grep "fatal: stopped by SIGTERM: 1 running tool stopped, 1 temporary directory removed" err &&
	gone $(cat b4.pid) &&
	gone $(cat b4.child) &&
	test -z "$(tmp_of $pid)"
'

# A background job of a shell has SIGINT ignored: python undoes that and
# becomes stablekit, as a terminal's Ctrl-C reaches a foreground one.
SIGINT_DEFAULT="import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])"

test_expect_success 'SIGINT (Ctrl-C): the same, exit 130' '
	rm -f b4.pid b4.child &&
	(cd p && PATH="$PWD/../bin:$PATH" \
	 exec python3 -c "$SIGINT_DEFAULT" stablekit pull "<a@b.c>") >out 2>err &
	pid=$! && echo $pid >sk.pid && test_when_finished stop_left &&
	wait_for b4.child &&
	kill -INT $pid &&
	test_expect_code 130 wait $pid &&
	grep "fatal: stopped by SIGINT" err &&
	gone $(cat b4.pid) &&
	gone $(cat b4.child) &&
	test -z "$(tmp_of $pid)"
'

test_expect_success 'a second writer is refused while the first holds the project' '
	rm -f b4.pid b4.child &&
	(cd p && PATH="$PWD/../bin:$PATH" exec stablekit pull "<a@b.c>") >out 2>err &
	pid=$! && echo $pid >sk.pid && test_when_finished stop_left &&
	wait_for b4.child &&
	(cd p && test_expect_code 128 stablekit pull -m /dev/null) 2>err2 &&
	grep "another stablekit (pid $pid) holds .*/p/.stablekit.lock" err2 &&
	(cd p && test_expect_code 128 stablekit port --all) 2>err3 &&
	grep "another stablekit (pid $pid) holds" err3 &&
	kill -TERM $pid &&
	test_expect_code 143 wait $pid &&
	gone $(cat b4.child)
'

test_expect_success 'the lock is the kernel'"'"'s: gone with its holder' '
	(cd p && test_expect_code 128 stablekit pull -m /nonexistent) 2>err &&
	! grep "another stablekit" err &&
	grep "/nonexistent" err &&
	git -C "$SK_TOP" check-ignore -q .stablekit.lock
'

test_expect_success 'SIGKILL leaves a temporary directory; the next run removes it' '
	rm -f b4.pid b4.child &&
	(cd p && PATH="$PWD/../bin:$PATH" exec stablekit pull "<a@b.c>") >out 2>err &
	pid=$! && echo $pid >sk.pid && test_when_finished stop_left &&
	wait_for b4.child &&
	kill -KILL $pid &&
	test_expect_code 137 wait $pid;
	left=$(tmp_of $pid) &&
	kill $(cat b4.pid) $(cat b4.child) &&
	test -n "$left" &&
	test -d "/tmp/$left" &&
	(cd p && test_expect_code 128 stablekit pull -m /nonexistent) &&
	! test -e "/tmp/$left"
'

test_expect_success 'setup: model repository, series B pulled, queued on 7.2.y' '
	build_linuxb &&
	sk_new_project q &&
	cat >q/stable/branches.conf <<-EOF &&
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
	(cd q && stablekit pull -m "$SEED_B" && stablekit port $B --branch linux-7.2.y) >/dev/null 2>&1 &&
	test -f q/stable/linux-7.2.y/series
'

test_expect_success 'SIGTERM during port: quilt stopped, the queue whole, no temporary' '
	slow_tool quilt &&
	rm -f quilt.pid quilt.child &&
	mkdir tmp &&
	(cd q/stable && find . -type f | sort | xargs sha1sum) >before &&
	(cd q && TMPDIR="$PWD/../tmp" PATH="$PWD/../bin:$PATH" \
	 exec stablekit port $B --branch linux-7.2.y) >out 2>err &
	pid=$! && echo $pid >sk.pid && test_when_finished stop_left &&
	wait_for quilt.child &&
	ls -a q/stable | grep "^\.port-$pid-" &&
	ls -a tmp | grep "^\.sandbox-$pid-" &&
	kill -TERM $pid &&
	test_expect_code 143 wait $pid &&
	gone $(cat quilt.pid) &&
	gone $(cat quilt.child) &&
	(cd q/stable && find . -type f | sort | xargs sha1sum) >after &&
	test_cmp before after &&
	ls -a q/stable tmp >dirs &&
	! grep "^\." dirs | grep -v "^\.\.*$"
'

test_expect_success 'integer options out of range: exit 129, nothing done' '
	mkdir w &&
	for args in "gate --branch b --runs 99999999999" "gate --branch b --runs 0" \
		    "gate --branch b --jobs 2147483648" "test --timeout 4294968" \
		    "test --retries -1" "test --test-timeout 0" "test --bench 99999999999" \
		    "build --jobs 0" "build --parallel -2" "build --timeout 99999999999" \
		    "pull --timeout 99999999999 <a@b.c>"; do
		(cd p && SK_WORK="$PWD/../w/work" test_expect_code 129 stablekit $args) 2>err ||
		return 1
		grep "^error: option .* expects a whole number from" err || return 1
	done &&
	! test -e w/work &&
	ls -a p >files && ! grep stablekit-pull files
'

test_done

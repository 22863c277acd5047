#!/bin/sh

test_description='stablekit build over distcc: [build] distcc-hosts

A distccd on 127.0.0.1 (its own port, log and pid file) takes the compiles
of an objects build of the real 6.12 tree for x86_64, through ccache
(CCACHE_PREFIX=distcc) with an empty cache so that every compile goes out.
The queue is built without its baseline (--no-baseline): the baseline is
the same make over distcc again, and t6000 builds both.
The results are those of a local build; the metadata and the reproducer
name the hosts; make gets as many jobs as the hosts take.  A host list
that is not one is an error naming its line.
'

. ./lib-stablekit.sh

WS="$SK_WORK/linux"
FIX="$SHARNESS_TEST_SRCDIR/t6000"
Q=p/stable/linux-6.12.y
PORT=$((36000 + $$ % 1000))

# kbuild takes no white space in a path: the work directory is not in
# the trash directory; an empty one and an empty ccache each time, so
# that every compile goes out
BW="$SK_WORK/t6100-build"

sk_build() {
	(cd p && CCACHE_DIR="$PWD/../ccache" stablekit build --repo "$WS" \
		--work "$BW" --results ../results \
		--branch linux-6.12.y --mode objects --arch x86_64 \
		--no-baseline "$@")
}

hosts() {
	git config -f p/stable/branches.conf build.distcc-hosts "$1"
}

test_expect_success 'setup: workspace, project, a distccd on 127.0.0.1' '
	sk_kernel_project p &&
	rm -rf "$Q" && mkdir -p "$Q" && cp "$FIX/harmless.patch" "$Q/" &&
	echo harmless.patch >"$Q/series" &&
	rm -rf "$BW" && mkdir ccache &&
	# distccd run by root drops to its own user, which writes here
	mkdir d && chmod 777 d &&
	distccd --daemon --listen 127.0.0.1 --allow 127.0.0.1 --port $PORT \
		--jobs 4 --log-file "$PWD/d/distccd.log" --log-level info \
		--pid-file "$PWD/d/distccd.pid" --enable-tcp-insecure \
		</dev/null >/dev/null 2>&1 &&
	for i in 1 2 3 4 5 6 7 8 9 10; do
		test -s d/distccd.pid && break
		sleep 0.5
	done &&
	test -s d/distccd.pid
'

test_expect_success 'an objects build over distcc passes, and the compiles reached distccd' '
	hosts "127.0.0.1:$PORT/4" &&
	sk_build --json >out.json &&
	jq -r ".branches[0].arches[0] | \"\(.baseline.status) \(.patched.status) \(.new_warnings | length)\"" \
		out.json >row &&
	echo "skipped pass 0" >expect && test_cmp expect row &&
	grep "COMPILE_" d/distccd.log | sed "s/.* \([A-Z_]*\) exit.* /\1 /" &&
	test $(grep -c "COMPILE_OK.*/mm/vmscan\.c$" d/distccd.log) = 1 &&
	grep "COMPILE_OK.*/kernel/bounds\.c$" d/distccd.log &&
	grep "COMPILE_OK.*/arch/x86/kernel/asm-offsets\.c$" d/distccd.log &&
	! grep -E "COMPILE_(OK|ERROR).* [^ ]*(parse-options|fixdep|confdata)\.c$" \
		d/distccd.log
'

test_expect_success 'the hosts are in the metadata and the reproducer, make gets their jobs' '
	R=results/linux-6.12.y/build/objects &&
	jq -e ".distcc_hosts == \"127.0.0.1:$PORT/4\" and .jobs_per_make == 4" \
		$R/build.json &&
	jq -e ".reproducer | test(\"HOSTCC=env -u CCACHE_PREFIX ccache gcc\")" \
		$R/x86_64/patched/metadata.json &&
	jq -e ".reproducer | test(\"DISTCC_HOSTS=127.0.0.1:$PORT/4\") and
		test(\"CCACHE_PREFIX=distcc\")" $R/x86_64/patched/metadata.json &&
	grep -e " -j4 " $R/x86_64/patched/build.log
'

test_expect_success 'a host list that is not one is an error naming its line' '
	hosts "127.0.0.1;touch\${IFS}pwned" &&
	n=$(grep -n distcc-hosts p/stable/branches.conf | cut -d: -f1) &&
	(cd p && test_expect_code 128 stablekit status 2>../err) &&
	grep "stable/branches.conf:$n: distcc host .127.0.0.1;touch" err &&
	test_must_fail ls pwned p/pwned &&
	hosts "@build-host" &&
	(cd p && test_expect_code 128 stablekit status 2>../err) &&
	grep "distcc host .@build-host. is not HOST" err
'

# gone PID: no such process, or a zombie waiting for init to reap it
gone() {
	case "$(ps -o stat= -p "$1" 2>/dev/null)" in
	""|Z*) return 0 ;;
	*) return 1 ;;
	esac
}

test_expect_success 'cleanup: distccd stopped' '
	pid=$(cat d/distccd.pid) &&
	kill $pid &&
	for i in $(test_seq 1 100); do
		gone $pid && break
		sleep 0.1
	done &&
	gone $pid
'

test_done

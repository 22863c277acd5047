#!/bin/sh

test_description='stablekit gate --runner lava: the guests as LAVA jobs

ci/lava/up starts a single-host LAVA from Debian'"'"'s lava-server and
lava-dispatcher (PostgreSQL, lava-server under gunicorn, the scheduler,
the event publisher, one worker with two qemu devices, all on 127.0.0.1);
the gate of the real 6.12.y then runs each guest (the kselftest sides, the
benchmark boots) as a LAVA job and must give what the local runner gives.
The kernels are the gate'"'"'s own, as t7200 builds them (ccache).  LAVA
itself lives in $SK_WORK/lava; ci/lava/down stops it at the end.
'

. ./lib-stablekit.sh

L="$SK_WORK/lava"
G="$SK_WORK/t9000"
conf="$L/lava.conf"
api=http://127.0.0.1:8000/api/v0.2
rm -rf "$G"

gate() {
	(cd "$SK_TOP" && stablekit gate --json --branch linux-6.12.y \
		--arch x86_64 --skip build --skip mglru --runs 1 --no-reuse "$@")
}

# Its gate stores a baseline, where t7200 needs its own (see there).
locked_gate() {
	(flock 9 && gate "$@") 9>"$SK_WORK/gate-baseline.lock"
}

test_expect_success 'ci/lava/up: a worker online with two qemu devices, on loopback' '
	"$SK_TOP/ci/lava/up" --devices 2 --dir "$L" 2>up.err &&
	curl -sf "$api/workers/sk-worker/" >worker.json &&
	jq -e ".state == \"Online\"" worker.json &&
	curl -sf "$api/devices/?device_type=qemu" >devices.json &&
	jq -r ".results[].hostname" devices.json | sort >devices &&
	printf "qemu01\nqemu02\n" >expect &&
	test_cmp expect devices &&
	test "$(git config -f "$conf" lava.url)" = http://127.0.0.1:8000/ &&
	ss -Hltn >listening &&
	! grep -v -e " 127\.0\.0\.1:" -e " \[::1\]:" listening | grep -e ":8000 " -e ":8001 " -e ":5500 "
'

test_expect_success 'ci/lava/up again keeps the token and the devices' '
	token=$(git config -f "$conf" lava.token) &&
	"$SK_TOP/ci/lava/up" --devices 2 --dir "$L" 2>up2.err &&
	test "$(git config -f "$conf" lava.token)" = "$token" &&
	curl -sf "$api/workers/sk-worker/" | jq -e ".state == \"Online\""
'

test_expect_success 'the gate on LAVA runs every stage the local gate runs' '
	test_expect_code 1 locked_gate --runner lava --lava-config "$conf" \
		--out "$G/lava" >gate.json &&
	jq -r ".stages[] | \"\(.name) \(.status)\"" gate.json >stages &&
	cat >expect <<-\EOF &&
	queue not run
	build not run
	kernel pass
	boot pass
	kselftest pass
	bench-classic not run
	EOF
	test_cmp expect stages &&
	jq -e ".verdict == \"incomplete\" and .runner == \"lava\"" gate.json &&
	jq -e ".regressions == []" "$G/lava/kselftest-compare.json"
'

test_expect_success 'each kselftest side was a Complete LAVA job' '
	for side in baseline patched
	do
		jq -e ".boot.runner == \"lava\" and .boot.lava.health == \"Complete\"
		       and .boot.lava.job > 0 and .boot.status == \"ok\"" \
			"$G/lava/kselftest-$side/results.json" || return 1
	done
'

test_expect_success 'the benchmark boots ran on LAVA and were read as here' '
	for side in baseline patched
	do
		grep "^stablekit-guest: done rc=0" \
			"$G/lava/bench-classic/$side-1/console.log" || return 1
	done &&
	jq -e ".runs.baseline | length == 1" "$G/lava/bench-classic.json" &&
	jq -e ".runs.patched[0].lru_lock_acquisitions > 0" \
		"$G/lava/bench-classic.json"
'

test_expect_success 'the jobs were spread over both devices' '
	curl -sf "$api/jobs/?ordering=-id&limit=4" >jobs.json &&
	jq -r ".results[].actual_device" jobs.json | sort -u >used &&
	printf "qemu01\nqemu02\n" >expect &&
	test_cmp expect used
'

# A flaky test (failed, then passed on its retry) is a pass on both
# runners: which run it hits is chance, not the runner; so is a size in a
# test's name (mrelease_test names the allocation it reaped, 1MB or 2MB).
# The suite has a known failure (test_percpu_basic on both kernels), so
# test exits 1.
results() {
	jq -r ".kselftest.results[] | \"\(.name) \(.status)\"" "$1" |
		sed -e "s/ flaky\$/ pass/" -e "s/[0-9][0-9]*[KMG]B/<size>/g" | sort
}

test_expect_success 'LAVA and QEMU here give the same kselftest results on one kernel' '
	(cd "$SK_TOP" && test_might_fail stablekit test --json --suite cgroup \
		--suite mm --test-timeout 300 --retries 1 \
		--kernel "$G/lava/build-kernel-baseline.img" \
		--out "$G/local-baseline") >local.json &&
	results local.json >local &&
	results "$G/lava/kselftest-baseline/results.json" >lava &&
	test "$(wc -l <local)" -gt 10 &&
	test_cmp local lava &&
	jq -e ".boot.status == \"ok\" and (.boot | has(\"lava\") | not)" local.json
'

test_expect_success 'a kernel that panics on LAVA fails with the panic and the job error' '
	(cd "$SK_TOP" && test_expect_code 1 stablekit test --json \
		--runner lava --lava-config "$conf" --boot-only --timeout 300 \
		--kernel "$G/lava/build-kernel-patched.img" \
		--append rdinit=/nonexistent --out "$G/panic") >panic.json &&
	jq -e ".status == \"fail\" and .boot.status == \"splat\"" panic.json &&
	jq -e ".boot.splat.kind == \"panic\"" panic.json &&
	jq -e ".boot.lava.health == \"Incomplete\"
	       and .boot.lava.error_type == \"Job\"" panic.json
'

test_expect_success 'a job LAVA refuses is not run, naming the reason' '
	sed "s/device-type = qemu/device-type = nosuchtype/" "$conf" >bad.conf &&
	(cd "$SK_TOP" && test_expect_code 1 stablekit test --json \
		--runner lava --lava-config "$SHARNESS_TRASH_DIRECTORY/bad.conf" \
		--boot-only --kernel "$G/lava/build-kernel-patched.img" \
		--out "$G/refused") >refused.json &&
	jq -e ".status == \"not run\"" refused.json &&
	jq -r .reason refused.json | grep "submit: HTTP 400"
'

test_expect_success 'a job that ends before the guest says a line is not run' '
	sed "s|artifacts-url = .*|artifacts-url = file:///nonexistent/artifacts|" \
		"$conf" >noart.conf &&
	(cd "$SK_TOP" && test_expect_code 1 stablekit test --json \
		--runner lava --lava-config "$SHARNESS_TRASH_DIRECTORY/noart.conf" \
		--boot-only --kernel "$G/lava/build-kernel-patched.img" \
		--out "$G/noart") >noart.json &&
	jq -e ".status == \"not run\"" noart.json &&
	jq -r .reason noart.json >reason &&
	grep "Incomplete before the guest.s first line: Job: " reason &&
	grep /nonexistent/artifacts/ reason
'

test_expect_success 'a bad LAVA config stops the gate before anything runs' '
	printf "[lava]\n\turl = ftp://x/\n" >ftp.conf &&
	test_expect_code 128 gate --runner lava --out "$G/badconf" \
		--lava-config "$SHARNESS_TRASH_DIRECTORY/ftp.conf" 2>err &&
	grep "ftp.conf: lava.token is not set" err &&
	! test -e "$G/badconf"
'

test_expect_success 'ci/lava/down stops what up started' '
	"$SK_TOP/ci/lava/down" --dir "$L" &&
	! curl -s "$api/workers/" &&
	! pgrep -f "lava-worker --url" &&
	! pgrep -f "gunicorn.*lava_server" &&
	! ls "$L"/*.pid
'

test_done

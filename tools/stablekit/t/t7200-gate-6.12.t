#!/bin/sh

test_description='stablekit gate on the real 6.12.y with series A'"'"'s queue

The gate cut to what CI can pay for: the LOCK_STAT kernels of the
baseline and of stable/linux-6.12.y (series A), both booted with the
kselftests, and one benchmark run a side.  One run is too few for the
significance test, so the benchmark stage is "not run" and the verdict
"incomplete": what is checked here is each run itself (the lock
acquisitions that series A removes, the counters it adds).  The full gate
(4 + 4 runs, MGLRU too) is make bench (ci/bench.d/gate) and make run.
The kernels share $SK_WORK and ccache with t7000, whose kernel is the
patched one of this config; a stored baseline (from an earlier run) is
reused, as a user'"'"'s second gate would.
'

. ./lib-stablekit.sh

# kbuild takes no white space in O=, and trash directories have some
G="$SK_WORK/t7200"
rm -rf "$G"

# The stored baseline ($SK_WORK/results/linux-6.12.y/gate-baseline) is
# shared with t9000's gate, which may run beside this file and store its
# own: the last test needs the one the first stored, so this file holds
# the store to itself.
exec 9>"$SK_WORK/gate-baseline.lock" && flock 9

# x86_64 alone: arm64's kernels, boot and kselftests are t7020 (through
# stablekit test) and t7100 (the gate's stages per arch); both here would
# add two cold arm64 kernels and their TCG guests to CI
gate() {
	(cd "$SK_TOP" && stablekit gate --json --branch linux-6.12.y \
		--arch x86_64 --skip build --skip mglru --runs 1 "$@")
}

test_expect_success 'the gate runs every stage asked for, and says incomplete' '
	test_expect_code 1 gate --out "$G/g" >gate.json &&
	jq -r ".stages[] | \"\(.name) \(.status)\"" gate.json >stages &&
	jq -r ".reasons[]" gate.json &&
	cat >expect <<-\EOF &&
	queue not run
	build not run
	kernel pass
	boot pass
	kselftest pass
	bench-classic not run
	EOF
	test_cmp expect stages &&
	jq -e ".verdict == \"incomplete\"" gate.json
'

# Built in one run, the patched kernel starts from the baseline's objects
# (series A changes mmzone.h: most of the tree is compiled again, from
# ccache since t7000); the boot, the kselftests and the counters below are
# that kernel's.  A baseline stored by an earlier run is not built again.
test_expect_success 'the patched kernel is built on the baseline'"'"'s objects of the same run' '
	if jq -e ".baseline.reused == true" gate.json; then
		jq -e ".branches[0].arches[0].baseline.note == \"--no-baseline\"" \
			"$G"/g/build-kernel.json
	else
		jq -e ".branches[0].arches[0].patched.note |
			startswith(\"built on the baseline\")" "$G"/g/build-kernel.json
	fi
'

test_expect_success 'one run a side is too few to gate on, never a pass' '
	jq -e ".verdict == \"not run\"" "$G"/g/bench-classic.json &&
	jq -r ".reasons[]" "$G"/g/bench-classic.json >reasons &&
	grep "runs" reasons
'

test_expect_success 'series A brings no kselftest regression' '
	jq -c ".regressions[], .flaky[]" "$G"/g/kselftest-compare.json &&
	jq -e ".regressions == []" "$G"/g/kselftest-compare.json &&
	jq -e ".status != \"not run\"" "$G"/g/kselftest-patched/results.json
'

# test_memcg_max fails on both sides when the suite is built with -O2
# (the allocation is optimised away) or the OOM killer does not come
test_expect_success 'the memcg limit and OOM tests pass on both kernels' '
	for side in baseline patched; do
		for t in test_memcg_max test_memcg_oom_events test_memcg_min; do
			jq -e --arg n "cgroup/test_memcontrol/$t" \
				"[.kselftest.results[] | select(.name == \$n) |
				  .status] == [\"pass\"]" \
				"$G"/g/kselftest-$side/results.json || return 1
		done
	done
'

test_expect_success 'the patched kernel takes far fewer lru_lock acquisitions per page scanned' '
	base=$(jq ".runs.baseline[0].lru_lock_per_1000_scanned" "$G"/g/bench-classic.json) &&
	patched=$(jq ".runs.patched[0].lru_lock_per_1000_scanned" "$G"/g/bench-classic.json) &&
	echo "baseline $base patched $patched" &&
	awk -v b="$base" -v p="$patched" "BEGIN { exit !(b > 0 && p > 0 && p < 0.75 * b) }"
'

test_expect_success 'the new counters are in /proc/vmstat and memory.stat, counting' '
	for c in pgrotate_anon pgreclaim_pageout_anon; do
		for f in vmstat memstat; do
			jq -e --arg c "$c" --arg f "$f" \
				".new_counters[\$c][\$f].present and
				 .new_counters[\$c][\$f].delta > 0" \
				"$G"/g/bench-classic.json || return 1
		done
	done &&
	jq -e ".runs.baseline[0].counters | keys | map(select(test(\"pgrotate\"))) == []" \
		"$G"/g/bench-classic.json
'

test_expect_success 'a second gate reuses the stored baseline and runs the patched side only' '
	test_expect_code 1 gate --skip kselftest --out "$G/g2" >gate2.json &&
	jq -e ".baseline.reused == true" gate2.json &&
	jq -e ".throughput_gated == false and .baseline_reused == true" \
		"$G"/g2/bench-classic.json &&
	jq -e ".branches[0].arches[0].baseline.note == \"--no-baseline\"" \
		"$G"/g2/build-kernel.json &&
	test_cmp "$G"/g/bench-classic/baseline-1/console.log \
		"$G"/g2/bench-classic/baseline-1/console.log &&
	test -s "$G"/g2/bench-classic/patched-1/console.log
'

test_done

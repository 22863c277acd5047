#!/bin/sh

test_description='stablekit test: QEMU boot, hard timeout, splats in the console log

The hung guest is qemu-system-x86_64 without a kernel: the firmware finds
nothing to boot and sits there, so the hard limit must kill it and record
TIMEOUT.  The real boot needs a kernel: $SK_TEST_KERNEL, else the gate'"'"'s
patched one, "stablekit build --mode kernel --fragment
ci/kconfig/gate-lockstat.config" (ccache; minutes cold).
'

. ./lib-stablekit.sh

FIX="$SHARNESS_TEST_SRCDIR/t7000"

test_expect_success 'an oops in the log is a failure naming the line' '
	test_expect_code 1 stablekit test --scan-log "$FIX/oops.log" >out &&
	grep "oops.log:8: BUG: BUG: kernel NULL pointer dereference" out
'

test_expect_success 'a lockdep splat in the middle of a test line is found' '
	test_expect_code 1 stablekit test --scan-log "$FIX/lockdep-midline.log" >out &&
	grep ":4: lockdep: WARNING: possible circular locking" out
'

test_expect_success 'a clean log, with the words in test output, passes' '
	stablekit test --scan-log "$FIX/clean.log" >out &&
	grep "clean$" out
'

test_expect_success 'no kernel image: not run, never a pass' '
	(cd "$SK_TOP" && test_expect_code 1 stablekit test --json \
		--kernel "$SHARNESS_TRASH_DIRECTORY/nothing" --out "$SHARNESS_TRASH_DIRECTORY/nr") >nr.json &&
	jq -e ".status == \"not run\"" nr.json &&
	jq -r .reason nr.json | grep "^not run: kernel image" &&
	jq -e ".status == \"not run\"" nr/results.json
'

test_expect_success 'a hung guest comes back as TIMEOUT within the limit' '
	start=$(date +%s) &&
	(cd "$SK_TOP" && test_expect_code 1 stablekit test --json --kernel none \
		--timeout 3 --out "$SHARNESS_TRASH_DIRECTORY/hung") >hung.json &&
	end=$(date +%s) &&
	test $((end - start)) -lt 15 &&
	jq -e ".boot.status == \"timeout\"" hung.json &&
	jq -e ".status == \"fail\"" hung.json &&
	jq -r .boot.reason hung.json | grep "^TIMEOUT: killed after 3 s"
'

test_expect_success 'a results path with white space: kselftests not run, named' '
	(cd "$SK_TOP" && test_expect_code 1 stablekit test --json \
		--kernel /bin/true --src "$SK_WORK/linux" \
		--out "$SHARNESS_TRASH_DIRECTORY/with space") >space.json &&
	jq -e ".status == \"not run\"" space.json &&
	jq -r .reason space.json >reason &&
	grep "kbuild cannot take a path with white space: .*with space" reason
'

# The kernel for a real boot: given, or from stablekit build.
sk_kernel() {
	if test -n "$SK_TEST_KERNEL"; then
		echo "$SK_TEST_KERNEL"
		return 0
	fi
	if ! (cd "$SK_TOP" && stablekit build -h >/dev/null 2>&1); then
		echo "no kernel: stablekit build --mode kernel is missing" >&2
		return 1
	fi
	# the gate's patched kernel (t7200 then finds it in ccache); the
	# results here, where no other build of the branch removes the image
	(cd "$SK_TOP" && stablekit --json build --mode kernel \
		--branch linux-6.12.y --arch x86_64 --no-baseline \
		--results "$SHARNESS_TRASH_DIRECTORY/results" \
		--fragment "$SK_TOP/ci/kconfig/gate-lockstat.config") >build.json ||
	{ echo "stablekit build --mode kernel failed" >&2; return 1; }
	jq -r "[.branches[0].arches[] | select(.arch == \"x86_64\") |
		(.patched.image // .baseline.image)][0] // empty" build.json
}

test_expect_success 'a real boot reaches the done marker' '
	kernel=$(sk_kernel) && test -f "$kernel" &&
	(cd "$SK_TOP" && stablekit test --json --boot-only --kernel "$kernel" \
		--timeout 120 --out "$SHARNESS_TRASH_DIRECTORY/boot") >boot.json &&
	jq -e ".boot.status == \"ok\"" boot.json &&
	grep "^stablekit-guest: start 6.12" boot/console.log &&
	grep "^stablekit-guest: done rc=0" boot/console.log
'

# The gate's confirm boot of a regressed binary is this: its suite built,
# the one binary run.  kbuild takes no white space in O=, and trash
# directories have some.
O="$SK_WORK/t7000"
rm -rf "$O"

test_expect_success '--only runs the named kselftest binary alone' '
	test -f "$kernel" &&
	(cd "$SK_TOP" && stablekit test --json --kernel "$kernel" \
		--src "$SK_WORK/linux" --only cgroup/test_core --timeout 300 \
		--out "$O/only") >only.json &&
	jq -e ".status == \"pass\"" only.json &&
	jq -r ".kselftest.results[].name" only.json >names &&
	grep "^cgroup/test_core/test_cgcore_destroy$" names &&
	! grep -v "^cgroup/test_core" names &&
	grep "^# selftests: cgroup: test_core.\?$" "$O"/only/console.log &&
	! grep "^# selftests: cgroup: test_memcontrol" "$O"/only/console.log
'

test_expect_success '--only a binary that is not built: not run, named' '
	test -f "$kernel" &&
	(cd "$SK_TOP" && test_expect_code 1 stablekit test --json \
		--kernel "$kernel" --src "$SK_WORK/linux" \
		--only cgroup/test_nothing \
		--out "$O/nothing") >nothing.json &&
	jq -e ".status == \"not run\"" nothing.json &&
	jq -r .reason nothing.json >reason &&
	grep "no kselftest binary .cgroup/test_nothing. built" reason &&
	! test -e "$O"/nothing/console.log &&
	test_expect_code 129 stablekit test --kernel "$kernel" --only test_core \
		2>err &&
	grep "only .test_core.: name a binary as <suite>/<binary>" err
'

# The same initramfs with /stablekit/job replaced by a dangling symlink (a
# second archive appended; the kernel unpacks both, the later entry wins):
# ci/guest/init must say rc=127, never rc=0, for a guest that ran nothing.
test_expect_success 'a guest without /stablekit/job says done rc=127' '
	test -f "$kernel" && test -f boot/initramfs.cpio &&
	mkdir -p nojob/stablekit && ln -s /nonexistent nojob/stablekit/job &&
	(cd nojob && echo stablekit/job | cpio -o -H newc --quiet) >nojob.cpio &&
	cat boot/initramfs.cpio nojob.cpio >nojob-initramfs.cpio &&
	{ timeout 120 qemu-system-x86_64 -M pc -m 512 -smp 1 -accel tcg \
		-display none -monitor none -serial stdio -no-reboot -nodefaults \
		-kernel "$kernel" -initrd nojob-initramfs.cpio \
		-append "console=ttyS0 panic=-1" >nojob.log 2>&1 || true; } &&
	grep "^stablekit-guest: start 6.12" nojob.log &&
	grep "^stablekit-guest: error: no /stablekit/job" nojob.log &&
	grep "^stablekit-guest: done rc=127" nojob.log &&
	! grep "done rc=0" nojob.log &&
	stablekit test --scan-log nojob.log
'

test_done

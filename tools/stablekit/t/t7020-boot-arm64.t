#!/bin/sh

test_description='stablekit test on arm64: Debian'"'"'s busybox for the guest, a boot, a kselftest

The gate boots every arch of [gate] arch.  An arm64 guest needs a static
arm64 userland, which stablekit fetches with apt under a private
configuration (the system'"'"'s dpkg architectures unchanged), and the
branch'"'"'s LOCK_STAT kernel for arm64, cross-built from tinyconfig (the
gate'"'"'s own, so t7200 then finds it in ccache; minutes cold).
'

. ./lib-stablekit.sh

test_expect_success 'the branch builds an arm64 kernel with the gate config' '
	(cd "$SK_TOP" && stablekit --json build --mode kernel \
		--branch linux-6.12.y --arch arm64 --no-baseline \
		--results "$SHARNESS_TRASH_DIRECTORY/results" \
		--fragment "$SK_TOP/ci/kconfig/gate-lockstat.config") >build.json &&
	jq -r "[.branches[0].arches[] | select(.arch == \"arm64\") |
		.patched.image][0] // empty" build.json >image &&
	kernel=$(cat image) && test -f "$kernel" &&
	file "$kernel" | grep "Linux kernel ARM64 boot executable"
'

test_expect_success 'it boots under TCG (virt, cortex-a57) to the done marker' '
	kernel=$(cat image) &&
	dpkg --print-foreign-architectures >arches.before &&
	(cd "$SK_TOP" && stablekit test --json --boot-only --arch arm64 \
		--kernel "$kernel" --timeout 300 \
		--out "$SHARNESS_TRASH_DIRECTORY/boot") >boot.json &&
	jq -e ".boot.status == \"ok\"" boot.json &&
	grep "Machine model: linux,dummy-virt" boot/console.log &&
	grep "^stablekit-guest: start 6.12" boot/console.log &&
	grep "^stablekit-guest: done rc=0" boot/console.log
'

test_expect_success 'its userland: Debian'"'"'s arm64 busybox, fetched, dpkg untouched' '
	file -L "$SK_WORK/guest/busybox-arm64" >type &&
	grep "ARM aarch64" type && grep "statically linked" type &&
	dpkg --print-foreign-architectures >arches.after &&
	test_cmp arches.before arches.after
'

# kbuild (make headers for the kselftests) takes no white space in its
# paths, and trash directories have some
KS="$SK_WORK/t7020/ks"
rm -rf "$SK_WORK/t7020"

# The memcg binary alone: the whole cgroup suite under arm64 TCG (the
# cpu and freezer tests wait seconds each, emulated) is the gate's, in
# make run; what is proven here is a cross-built static kselftest that
# runs and passes in the arm64 guest.
test_expect_success 'the memcg kselftests, cross-built statically, run in the arm64 guest' '
	kernel=$(cat image) &&
	(cd "$SK_TOP" && stablekit test --json --arch arm64 --kernel "$kernel" \
		--only cgroup/test_memcontrol --src "$SK_WORK/linux" --timeout 900 \
		--out "$KS") >ks.json;
	jq -e ".boot.status == \"ok\"" ks.json &&
	jq -e ".kselftest.counts.pass > 0" ks.json &&
	! jq -r ".kselftest.results[].name" ks.json | grep -v "^cgroup/test_memcontrol" &&
	jq -e "[.kselftest.results[] | select(.name == \"cgroup/test_memcontrol/test_memcg_max\")][0].status == \"pass\"" ks.json &&
	find "$KS" -name test_memcontrol -type f >bins &&
	test -s bins &&
	file "$(head -1 bins)" >type &&
	grep "ARM aarch64" type && grep "statically linked" type
'

test_done

#!/bin/sh

test_description='stablekit test: a boot passes only with the guest rc expected

A qemu-system-x86_64 on PATH plays the guest: it reads the initramfs it is
given and prints the console of ci/guest/init, "stablekit-guest: done
rc=N" with N the job'"'"'s exit code, or 127 when the archive holds no
/stablekit/job.  No kernel is built or booted.'

. ./lib-stablekit.sh

test_expect_success 'setup: a QEMU that plays the guest' '
	mkdir bin &&
	cat >bin/qemu-system-x86_64 <<-\EOF &&
	#!/bin/sh
	while test $# -gt 0; do
		test "$1" = -initrd && initrd=$2
		shift
	done
	echo "stablekit-guest: start 6.12.0 cpus=2"
	if test -n "$FAKE_NO_JOB" ||
	   ! cpio -it <"$initrd" 2>/dev/null | grep -qx stablekit/job; then
		echo "stablekit-guest: error: no /stablekit/job"
		echo "stablekit-guest: done rc=127"
	else
		echo "stablekit-guest: done rc=${FAKE_RC:-0}"
	fi
	EOF
	chmod +x bin/qemu-system-x86_64 &&
	test -x /bin/busybox
'

boot() {
	(cd "$SK_TOP" && PATH="$SHARNESS_TRASH_DIRECTORY/bin:$PATH" \
	 stablekit test --json --accel tcg --boot-only --kernel /bin/true \
		--timeout 30 --out "$SHARNESS_TRASH_DIRECTORY/$1")
}

test_expect_success '--boot-only gives the guest a job; rc=0 passes' '
	boot ok >ok.json &&
	jq -e ".status == \"pass\"" ok.json &&
	jq -e ".boot.status == \"ok\" and .boot.guest_rc == 0" ok.json &&
	cpio -it <ok/initramfs.cpio 2>/dev/null | grep -qx stablekit/job
'

test_expect_success 'a job that fails fails the boot: guest-fail, exit 1' '
	(FAKE_RC=3 && export FAKE_RC && test_expect_code 1 boot rc3) >rc3.json &&
	jq -e ".status == \"fail\"" rc3.json &&
	jq -e ".boot.status == \"guest-fail\" and .boot.guest_rc == 3" rc3.json &&
	jq -r .boot.reason rc3.json | grep "rc=3, not 0" &&
	jq -r .reason rc3.json | grep "^boot: "
'

test_expect_success 'a guest without /stablekit/job says rc=127 and fails' '
	(FAKE_NO_JOB=1 && export FAKE_NO_JOB && test_expect_code 1 boot nojob) >nojob.json &&
	jq -e ".status == \"fail\"" nojob.json &&
	jq -e ".boot.guest_rc == 127" nojob.json &&
	jq -r .boot.reason nojob.json | grep "(no /stablekit/job)" &&
	grep "^stablekit-guest: error: no /stablekit/job" nojob/console.log
'

test_done

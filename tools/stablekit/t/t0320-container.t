#!/bin/sh

test_description='the Debian package in a fresh container

A fresh Debian root of the release this machine runs (debootstrap
--variant=minbase: no git, no compiler, nothing of stablekit), entered
with chroot in a mount and PID namespace of its own.  apt installs the
package there, every dependency from the archive, so its Depends are
proven enough; then stablekit works from the files the package put in
that root alone (nothing of the checkout or of this machine is visible
inside): init, pull, status, port with its compile check, report, each
FAILED mail addressed as stable does.

Needs root (chroot, mount) and the Debian archive.  The packages debootstrap
and apt fetch are kept in $SK_WORK/container-cache for the next run.'

. ./lib-stablekit.sh

BUILD_DIR=$(cd "$SK_BUILD" && pwd -P)
B="$BUILD_DIR/t0320-build"
ROOT="$BUILD_DIR/t0320-root"
CACHE="$SK_WORK/container-cache"
SUITE=$(. /etc/os-release && echo "$VERSION_CODENAME")
MIRROR=http://deb.debian.org/debian
unset SK_DATADIR STABLEKIT_DOCDIR STABLEKIT_REPO
# the results and the compile check's checkout (kbuild: no white space),
# seen at the same path inside the root
SK_WORK="$BUILD_DIR/t0320-work"
export SK_WORK
SEEN_ROOT=

# Nothing of the root may still be mounted when it is removed.
remove_root() {
	if grep -q " $ROOT[/ ]" /proc/self/mountinfo; then
		echo "error: something is still mounted under $ROOT" >&2
		return 1
	fi
	rm -rf "$ROOT"
}
remove_root && rm -rf "$B" "$SK_WORK" || exit 1

mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$SK_TOP" -s BUILD="$B" "$@"
}

# in_root CMD...: CMD chrooted in ROOT, in namespaces that end with it:
# /proc mounted, the apt cache, the trash directory and SK_WORK at their
# own paths (so that the files a test writes and the paths stablekit
# prints are the same inside and out), PATH the root's own.
in_root() {
	unshare --mount --pid --fork --kill-child -- sh -c '
		root=$1 cache=$2 trash=$3 work=$4 dir=$5
		shift 5
		mkdir -p "$root$trash" "$root$work" &&
		mount -t proc proc "$root/proc" &&
		mount --bind "$cache" "$root/var/cache/apt/archives" &&
		mount --bind "$trash" "$root$trash" &&
		mount --bind "$work" "$root$work" &&
		exec chroot "$root" /usr/bin/env \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			sh -c "cd \"\$0\" && exec \"\$@\"" "$dir" "$@"
	' in_root "$ROOT" "$CACHE/apt" "$SHARNESS_TRASH_DIRECTORY" "$SK_WORK" \
		"$PWD" "$@"
}

installed() {
	in_root stablekit "$@"
}

VERSION=$(stablekit --version | sed -n "s/^stablekit version \([^ ]*\) .*/\1/p")
DEB_NAME="stablekit_${VERSION}_$(dpkg --print-architecture).deb"

test_expect_success 'runs as root, as chroot and mount need' '
	test "$(id -u)" = 0
'

test_expect_success 'make deb builds the package' '
	mk deb >make.out 2>&1 &&
	test -f "$B/deb/$DEB_NAME"
'

test_expect_success 'debootstrap makes a fresh root: no git, no compiler, no stablekit' '
	mkdir -p "$CACHE/debootstrap" "$CACHE/apt" "$SK_WORK" &&
	debootstrap --variant=minbase --cache-dir="$CACHE/debootstrap" \
		"$SUITE" "$ROOT" "$MIRROR" >debootstrap.out 2>&1 &&
	test -x "$ROOT/usr/bin/apt-get" &&
	for f in stablekit git gcc make quilt spatch b4; do
		! test -e "$ROOT/usr/bin/$f" || return 1
	done &&
	cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
'

test_expect_success 'apt installs the package there, its dependencies from the archive' '
	cp "$B/deb/$DEB_NAME" "$ROOT/tmp/" &&
	in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends "/tmp/$DEB_NAME" >apt.out 2>&1 &&
	in_root dpkg-query -W -f "\${Status} \${Version}\n" stablekit >status &&
	echo "install ok installed $VERSION" >expect &&
	test_cmp expect status
'

test_expect_success 'what stablekit runs came with it: git, quilt, spatch, b4, make, gcc' '
	in_root git --version &&
	in_root quilt --version &&
	in_root spatch --version >spatch.out &&
	in_root b4 --version &&
	in_root make --version >make-version.out &&
	in_root gcc --version >gcc.out
'

test_expect_success 'stablekit reads the data the package installed' '
	echo /usr/share/stablekit >expect &&
	installed --data-dir >actual &&
	test_cmp expect actual &&
	installed --version | grep "^stablekit version $VERSION "
'

. "$SHARNESS_TEST_DIRECTORY/lib-installed.sh"

test_expect_success 'apt removes it: none of its files are left' '
	in_root env DEBIAN_FRONTEND=noninteractive apt-get remove -y \
		stablekit >remove.out 2>&1 &&
	! test -e "$ROOT/usr/bin/stablekit" &&
	! test -e "$ROOT/usr/share/stablekit"
'

test_expect_success 'cleanup' '
	remove_root &&
	rm -rf "$B" "$SK_WORK"
'

test_done

#!/bin/sh

test_description='the Debian package: built from the checkout, installed, used

make deb builds stablekit_<version>_<arch>.deb with dpkg-buildpackage from
a copy of the checkout.  Its control names the shared libraries and the
tools stablekit runs, and apt can satisfy them from the archive.  dpkg
installs it into an empty root (its own dpkg database; the libraries and
tools come from this machine), and stablekit runs from the package'"'"'s
files alone: init, pull, status, port with its compile check, report,
each FAILED mail addressed as stable does.  dpkg -r leaves nothing.'

. ./lib-stablekit.sh

# make takes no path with white space, as the trash directory has: the
# package build and the root go beside it.
BUILD_DIR=$(cd "$SK_BUILD" && pwd -P)
B="$BUILD_DIR/t0310-build"
ROOT="$BUILD_DIR/t0310-root"
unset SK_DATADIR STABLEKIT_DOCDIR STABLEKIT_REPO
SK_WORK="$BUILD_DIR/t0310-work"
export SK_WORK
rm -rf "$B" "$ROOT" "$SK_WORK"

# make as a user runs it, not as the make check this may run under
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$SK_TOP" -s BUILD="$B" "$@"
}

installed() {
	env PATH="$ROOT/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin" stablekit "$@"
}

pkg() {
	dpkg --root="$ROOT" --force-not-root --log="$B/dpkg.log" "$@"
}

VERSION=$(stablekit --version | sed -n "s/^stablekit version \([^ ]*\) .*/\1/p")
DEB="$B/deb/stablekit_${VERSION}_$(dpkg --print-architecture).deb"

test_expect_success 'make deb builds the package from the checkout' '
	test -n "$VERSION" &&
	git -C "$SK_TOP" status --porcelain >before &&
	mk deb >make.out 2>&1 &&
	test -f "$DEB" &&
	git -C "$SK_TOP" status --porcelain >after &&
	test_cmp before after
'

test_expect_success 'its control: name, version, the libraries and the tools it runs' '
	dpkg-deb -f "$DEB" Package Version >fields &&
	printf "Package: stablekit\nVersion: %s\n" "$VERSION" >expect &&
	test_cmp expect fields &&
	dpkg-deb -f "$DEB" Depends | tr "," "\n" | sed "s/^ *//; s/ .*//" >depends &&
	grep "^libgit2-" depends &&
	for p in libjansson4 libsqlite3-0 libcurl4 git b4 quilt coccinelle make gcc; do
		grep -x "$p" depends || return 1
	done &&
	dpkg-deb -f "$DEB" Recommends | grep "qemu-system-x86"
'

test_expect_success 'its files: the binary, the manual pages, the data, all under /usr' '
	dpkg-deb -c "$DEB" | awk "{ print \$6 }" >files &&
	grep -x "./usr/bin/stablekit" files &&
	grep -x "./usr/share/man/man1/stablekit-port.1.gz" files &&
	grep -x "./usr/share/stablekit/ci/kconfig/mm-series.config" files &&
	grep -x "./usr/share/stablekit/ci/guest/init" files &&
	grep -x "./usr/share/stablekit/Documentation/report-schema.json" files &&
	grep -x "./usr/share/doc/stablekit/copyright" files &&
	! grep -v -e "^\./$" -e "^\./usr/" files
'

test_expect_success 'apt can install it, its dependencies from the archive' '
	apt-get install -s "$DEB" >apt.out 2>&1 &&
	grep "^Inst stablekit ($VERSION " apt.out &&
	! grep "^E:" apt.out
'

test_expect_success 'dpkg installs it into an empty root' '
	mkdir -p "$ROOT/var/lib/dpkg/info" "$ROOT/var/lib/dpkg/updates" &&
	: >"$ROOT/var/lib/dpkg/status" &&
	pkg --force-depends -i "$DEB" >dpkg.out 2>&1 &&
	pkg -s stablekit >status.out &&
	grep "^Status: install ok installed$" status.out &&
	test -x "$ROOT/usr/bin/stablekit"
'

test_expect_success 'the installed binary reads the packaged data, SK_DATADIR unset' '
	echo "$ROOT/usr/share/stablekit" >expect &&
	installed --data-dir >actual &&
	test_cmp expect actual &&
	installed --version | grep "^stablekit version $VERSION "
'

. "$SHARNESS_TEST_DIRECTORY/lib-installed.sh"

test_expect_success 'dpkg -r removes every file it installed' '
	pkg --force-depends -r stablekit >remove.out 2>&1 &&
	find "$ROOT" -path "$ROOT/var" -prune -o ! -type d -print >left &&
	test_must_be_empty left &&
	! pkg -s stablekit 2>/dev/null | grep "^Status: install ok installed$"
'

test_expect_success 'cleanup' '
	rm -rf "$B" "$ROOT" "$SK_WORK"
'

test_done

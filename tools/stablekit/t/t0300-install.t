#!/bin/sh

test_description='make install: stablekit from its installed files alone

make install DESTDIR=... PREFIX=/usr from the checkout puts the binary in
/usr/bin, the manual pages in /usr/share/man/man1 and the data stablekit
reads at run time (manual page text, report schema, kconfig fragments,
guest files, pinned trees, helpers) in /usr/share/stablekit.  The binary
has no path of the checkout in it; run from the DESTDIR with SK_DATADIR
unset it reads the installed files, and copied alone it looks in the
install prefix.  stablekit init makes a project that pull, status, port
(its compile check with the installed kconfig fragments) and report work
in; help and man show the installed pages; make uninstall removes
everything.'

. ./lib-stablekit.sh

# make takes no path with white space, as the trash directory has: the
# build and the root go beside it.  The build starts as a copy of the
# tests' own (timestamps kept), so only what PREFIX changes is made again.
BUILD_DIR=$(cd "$SK_BUILD" && pwd -P)
B="$BUILD_DIR/t0300-build"
ROOT="$BUILD_DIR/t0300-root"
CHECKOUT=$(cd "$SK_TOP" && pwd -P)
# the copied objects were built with ASan+UBSan in build/asan (SANITIZE=1)
case "$BUILD_DIR" in
*/asan) SAN=1 ;;
*) SAN= ;;
esac

# make as a user runs it, not as the make check this may run under
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$SK_TOP" -s BUILD="$B" SANITIZE="$SAN" DESTDIR="$ROOT" PREFIX=/usr "$@"
}
unset SK_DATADIR STABLEKIT_DOCDIR STABLEKIT_REPO
# the results and the compile check's checkout (kbuild: no white space)
SK_WORK="$BUILD_DIR/t0300-work"
export SK_WORK
rm -rf "$B" "$ROOT" "$SK_WORK"

installed() {
	env PATH="$ROOT/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin" stablekit "$@"
}

test_expect_success 'make install DESTDIR PREFIX=/usr from the checkout' '
	mkdir -p "$B" &&
	cp -a "$SK_BUILD/tools" "$SK_BUILD/libstablekit.a" "$SK_BUILD/stablekit" \
		"$SK_BUILD/helpers" "$B/" &&
	mk install >make.out 2>&1 &&
	test -x "$ROOT/usr/bin/stablekit" &&
	test -f "$ROOT/usr/share/stablekit/Documentation/stablekit-port.txt" &&
	test -f "$ROOT/usr/share/stablekit/Documentation/report-schema.json" &&
	test -f "$ROOT/usr/share/stablekit/ci/kconfig/mm-series.config" &&
	test -f "$ROOT/usr/share/stablekit/ci/kconfig/gate-kernel.config" &&
	test -x "$ROOT/usr/share/stablekit/ci/guest/init" &&
	test -f "$ROOT/usr/share/stablekit/ci/trees.conf" &&
	test -f "$ROOT/usr/share/stablekit/helpers/usemem.c" &&
	test -f "$ROOT/usr/share/stablekit/helpers/helper.h" &&
	test -f "$ROOT/usr/share/man/man1/stablekit-status.1" &&
	test -f "$ROOT/usr/share/man/man1/stablekit-init.1"
'

test_expect_success 'the installed binary names no path of the checkout' '
	strings "$ROOT/usr/bin/stablekit" >strings.out &&
	grep "/usr/share/stablekit" strings.out &&
	! grep -F "$CHECKOUT" strings.out
'

test_expect_success 'it reads its data beside itself, SK_DATADIR unset' '
	echo "$ROOT/usr/share/stablekit" >expect &&
	installed --data-dir >actual &&
	test_cmp expect actual
'

test_expect_success 'copied alone, it looks in the install prefix, not the checkout' '
	mkdir alone && cp "$ROOT/usr/bin/stablekit" alone/ &&
	echo /usr/share/stablekit >expect &&
	alone/stablekit --data-dir >actual &&
	test_cmp expect actual
'

test_expect_success 'SK_DATADIR overrides it' '
	echo /somewhere/else >expect &&
	SK_DATADIR=/somewhere/else installed --data-dir >actual &&
	test_cmp expect actual
'

. "$SHARNESS_TEST_DIRECTORY/lib-installed.sh"

test_expect_success 'make uninstall removes what install put there' '
	mk uninstall >make.out 2>&1 &&
	find "$ROOT" ! -type d >left &&
	test_must_be_empty left
'

test_expect_success 'cleanup' '
	rm -rf "$B" "$ROOT" "$SK_WORK"
'

test_done

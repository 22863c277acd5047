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

test_expect_success 'setup: the inputs, copied out of the checkout' '
	cp "$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox" seed.mbox &&
	git init -q linux &&
	mkdir -p linux/mm &&
	printf "int a;\n" >linux/mm/vmscan.c &&
	git -C linux add -A && git -C linux commit -qm "Linux 6.12" &&
	git -C linux tag v6.12 && git -C linux branch linux-6.12.y
'

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

test_expect_success 'stablekit init makes a project' '
	installed init proj >out &&
	grep "^Initialized a stablekit project in $PWD/proj$" out &&
	test -d proj/series &&
	grep "^#\[branch \"linux-6.12.y\"\]$" proj/stable/branches.conf &&
	grep "^#	repo = ../linux$" proj/stable/branches.conf &&
	grep "^Maintainers List$" proj/MAINTAINERS &&
	! ls -a proj | grep "^\.init"
'

test_expect_success 'init --json names the project and what it made' '
	installed init --json made/here >json &&
	jq -e --arg p "$PWD/made/here" ".project == \$p" json &&
	jq -e ".created == [\"series/\", \"stable/branches.conf\", \"MAINTAINERS\"]" json &&
	test -d made/here/series
'

test_expect_success 'init refuses a project that is there, and writes nothing' '
	echo "# mine" >>proj/stable/branches.conf &&
	cp proj/stable/branches.conf conf.before &&
	test_expect_code 128 installed init proj 2>err &&
	grep "^error: .proj/series. exists: proj is a stablekit project already (nothing written)$" err &&
	test_cmp conf.before proj/stable/branches.conf &&
	! ls -a proj | grep "^\.init"
'

test_expect_success 'init refuses to write over a MAINTAINERS, and writes nothing' '
	mkdir other && echo "mine" >other/MAINTAINERS &&
	test_expect_code 128 installed init other 2>err &&
	grep "^error: .other/MAINTAINERS. exists: init would overwrite it (nothing written)$" err &&
	echo mine >expect && test_cmp expect other/MAINTAINERS &&
	! test -e other/series && ! test -e other/stable
'

test_expect_success 'pull and status work in it, from the installed files' '
	cat >>proj/stable/branches.conf <<-\EOF &&
	[stablekit]
		repo = ../linux
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12
		kind = downstream
	EOF
	(cd proj && installed pull -m ../seed.mbox) >pull.out &&
	grep "^mm-vmscan-reduce-lru_lock-contention-via-vmstat: v2, 2 patches" pull.out &&
	(cd proj && installed status --json) >status.json &&
	jq -e ".patches[0].id == \"mm-vmscan-reduce-lru_lock-contention-via-vmstat:1\"" status.json &&
	jq -e ".patches[0].branches[\"linux-6.12.y\"].state == \"not eligible\"" status.json &&
	(cd proj && installed status) >status.out &&
	grep "linux-6.12.y" status.out
'

test_expect_success 'port compiles with the installed kconfig fragments; report' '
	git init -q tiny &&
	cp -R "$SHARNESS_TEST_DIRECTORY/t5210/tree/." tiny/ &&
	git -C tiny add -A && git -C tiny commit -qm "Linux 6.12" && git -C tiny tag v6.12 &&
	git -C tiny checkout -q -b fix &&
	sed -i "s/lruvec->anon_cost += cost;/lruvec->anon_cost += cost + 0;/" tiny/mm/swap.c &&
	git -C tiny commit -qam "mm: swap: count anon the same" &&
	{
		printf "From mboxrd@z Thu Jan  1 00:00:00 1970\n" &&
		printf "From: A U Thor <author@example.org>\n" &&
		printf "Date: Mon, 5 Jan 2026 10:00:00 +0000\n" &&
		printf "Subject: [PATCH] mm: swap: count anon the same\n" &&
		printf "Message-Id: <anon@example.org>\n\n" &&
		printf "Same.\n\nSigned-off-by: A U Thor <author@example.org>\n---\n" &&
		git -C tiny diff fix~1 fix
	} >anon.mbox &&
	cat >>proj/stable/branches.conf <<-\EOF &&
	[branch "vendor"]
		repo = ../tiny
		ref = master
		base = v6.12
		kind = downstream
		select = mm-swap-count-anon-the-same
	EOF
	(cd proj && installed pull -m ../anon.mbox) >pull2.out &&
	(cd proj && installed port mm-swap-count-anon-the-same --branch vendor --json) >port.json &&
	jq -e ".[0].patches[0].method == \"clean\"" port.json &&
	jq -e ".[0].kconfig.from == \"shipped\"" port.json &&
	jq -e --arg f "$ROOT/usr/share/stablekit/ci/kconfig/mm-series.config" \
		".[0].kconfig.fragments == [\$f]" port.json &&
	test -f proj/stable/vendor/mm-swap-count-anon-the-same.patch &&
	(cd proj && installed report --branch vendor) >report.out &&
	grep "mm: swap: count anon the same" report.out
'

test_expect_success 'help shows the installed manual page' '
	echo "MARK: the installed copy" >>"$ROOT/usr/share/stablekit/Documentation/stablekit-status.txt" &&
	installed help status >help.out &&
	grep "^STABLEKIT-STATUS(1)" help.out &&
	tail -1 help.out | grep "^MARK: the installed copy$" &&
	installed help init | grep "^       stablekit init \[--json\] \[<dir>\]$"
'

test_expect_success 'man shows the installed man pages' '
	MANPATH="$ROOT/usr/share/man" MANWIDTH=80 man stablekit-init >man.out 2>man.err &&
	grep "stablekit-init - create a stablekit project" man.out &&
	MANPATH="$ROOT/usr/share/man" MANWIDTH=80 man stablekit >man.out 2>man.err &&
	grep "stablekit-help - show the manual page" man.out
'

test_expect_success 'make uninstall removes what install put there' '
	mk uninstall >make.out 2>&1 &&
	find "$ROOT" ! -type d >left &&
	test_must_be_empty left
'

test_expect_success 'cleanup' '
	rm -rf "$B" "$ROOT" "$SK_WORK"
'

test_done

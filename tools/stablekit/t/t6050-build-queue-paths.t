#!/bin/sh

test_description='stablekit build: a queue whose diff leaves the checkout is refused

build reads the paths of stable/<branch>/*.patch to undo the queue later
(rewrite or remove each).  A queued patch naming ../../../victim used to
make that undo unlink a file outside the checkout.  Every queued patch is
now parsed and checked before the checkout is touched: build exits 128,
naming the patch file and line, and nothing is written.  The tree is a
small model with the files build looks for in a kernel tree; no kernel is
built.
'

. ./lib-stablekit.sh

Q=p/stable/linux-6.12.y
# kbuild takes no white space in its paths, and the trash directory has
# one: the work directory and the victim beside it live under the build.
W="$SK_BUILD/t6050-work"
VICTIM="$W/victim"

sk_build() {
	(cd p && stablekit build --repo ../lin --work "$W/w" \
		--results ../results --branch linux-6.12.y --arch x86_64 "$@")
}

test_expect_success 'setup: a model tree, a project, a victim outside' '
	git init -q lin &&
	mkdir -p lin/scripts/kconfig lin/arch/x86 lin/mm &&
	printf "all:\n%%:\n\t@:\n" >lin/Makefile &&
	printf "#!/bin/sh\n" >lin/scripts/kconfig/merge_config.sh &&
	echo "config X86" >lin/arch/x86/Kconfig &&
	echo "obj-y += a.o" >lin/mm/Makefile &&
	printf "int a;\n" >lin/mm/a.c &&
	git -C lin add -A && git -C lin commit -qm base && git -C lin tag v6.12 &&
	git -C lin branch linux-6.12.y &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../lin
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12
	EOF
	mkdir -p $Q &&
	rm -rf "$W" && mkdir -p "$W" &&
	echo "precious" >"$VICTIM"
'

test_expect_success 'a queued patch naming ../../../victim: refused, victim kept' '
	cat >$Q/evil.patch <<-\EOF &&
	From: A U Thor <author@example.org>
	Subject: evil

	---
	--- a/../../../victim
	+++ b/../../../victim
	@@ -1 +1 @@
	-precious
	+gone
	EOF
	printf "# queue\nevil.patch\n" >$Q/series &&
	test_expect_code 128 sk_build 2>err &&
	grep "queue of .linux-6.12.y.: .*stable/linux-6.12.y/evil.patch:5: unsafe path .a/../../../victim." err &&
	echo precious >expect &&
	test_cmp expect "$VICTIM" &&
	! test -e "$W/w"
'

test_expect_success 'the same in a git diff, and a queue entry that is no name' '
	cat >$Q/evil.patch <<-\EOF &&
	Subject: evil

	diff --git a/mm/a.c b/mm/a.c
	--- a/mm/a.c
	+++ b/../../../victim
	@@ -1 +1 @@
	-int a;
	+int b;
	EOF
	test_expect_code 128 sk_build 2>err &&
	grep "evil.patch:5: unsafe path" err &&
	printf "../../../victim\n" >$Q/series &&
	test_expect_code 128 sk_build 2>err &&
	grep "queue entry" err &&
	test_cmp expect "$VICTIM" &&
	! test -e "$W/w"
'

test_expect_success 'quilt options on a series line (-R, -p2) are refused, naming file and line' '
	cat >$Q/ok.patch <<-\EOF &&
	Subject: ok

	--- a/mm/a.c
	+++ b/mm/a.c
	@@ -1 +1 @@
	-int a;
	+int b;
	EOF
	printf "# queue\nok.patch -R\n" >$Q/series &&
	test_expect_code 128 sk_build 2>err &&
	grep "queue of .linux-6.12.y.: .*stable/linux-6.12.y/series:2: quilt option .-R. for .ok.patch. is not supported" err &&
	printf "ok.patch -p1 -p2\n" >$Q/series &&
	test_expect_code 128 sk_build 2>err &&
	grep "series:1: quilt option .-p2. for .ok.patch. is not supported" err &&
	! test -e "$W/w"
'

test_expect_success 'a symbolic link in a queued patch is refused too' '
	cat >$Q/link.patch <<-\EOF &&
	Subject: link

	diff --git a/mm/l b/mm/l
	new file mode 120000
	--- /dev/null
	+++ b/mm/l
	@@ -0,0 +1 @@
	+../../../victim
	EOF
	printf "link.patch\n" >$Q/series &&
	test_expect_code 128 sk_build 2>err &&
	grep "link.patch:4: .mm/l. is a symbolic link" err &&
	! test -e "$W/w"
'

test_expect_success 'clean up the work directory' '
	rm -rf "$W"
'

test_expect_success 'baseline and patched builds both fail: gate FAIL, never pass' '
	test_when_finished "rm -rf \"\$W\" failbin" &&
	rm -f $Q/*.patch &&
	cat >$Q/ok.patch <<-\EOF &&
	Subject: ok

	--- a/mm/a.c
	+++ b/mm/a.c
	@@ -1 +1 @@
	-int a;
	+int b;
	EOF
	printf "ok.patch\n" >$Q/series &&
	mkdir -p failbin &&
	printf "#!/bin/sh\necho \"mm/a.c:1:1: error: broken\" >&2\nexit 2\n" >failbin/make &&
	chmod +x failbin/make &&
	(PATH="$PWD/failbin:$PATH" && export PATH &&
	 test_expect_code 1 sk_build --mode objects >out 2>err) &&
	grep "  gate: FAIL" out &&
	! grep "gate: pass" out &&
	jq -e ".gate == \"fail\"" results/linux-6.12.y/build/objects/build.json
'

test_expect_success 'progress: a line per step with the elapsed time on a non-terminal stderr; --quiet silences it' '
	test_when_finished "rm -rf \"\$W\"" &&
	rm -f $Q/*.patch && : >$Q/series &&
	sk_build --mode objects >out 2>err;
	grep -E "^\[ *[0-9]+:[0-5][0-9]\] build linux-6.12.y: " err &&
	(cd p && stablekit --quiet build --repo ../lin --work "$W/w" \
		--results ../results --branch linux-6.12.y --arch x86_64 \
		--mode objects) >out 2>err;
	! grep -E "^\[ *[0-9]+:[0-5][0-9]\] " err &&
	(cd p && SK_PROGRESS=0 stablekit build --repo ../lin --work "$W/w" \
		--results ../results --branch linux-6.12.y --arch x86_64 \
		--mode objects) >out 2>err;
	! grep -E "^\[ *[0-9]+:[0-5][0-9]\] " err
'

test_expect_success 'results are replaced in one step: the last run'"'"'s stay whole while a build runs' '
	test_when_finished "rm -rf \"\$W\" bin" &&
	rm -f $Q/*.patch && : >$Q/series &&
	sk_build --mode objects >out 2>err;
	test -f results/linux-6.12.y/build/objects/build.json &&
	cp results/linux-6.12.y/build/objects/build.json last.json &&
	cp results/linux-6.12.y/build/objects/x86_64/baseline/metadata.json last-meta.json &&
	mkdir -p bin &&
	printf "#!/bin/sh\ntouch \"%s/make.started\"\nsleep 3\nexec /usr/bin/make \"\$@\"\n" \
		"$PWD" >bin/make && chmod +x bin/make &&
	rm -f make.started &&
	(PATH="$PWD/bin:$PATH" && export PATH && sk_build --mode objects >out2 2>err2) &
	pid=$! &&
	n=0 && while ! test -e make.started && test $n -lt 100; do sleep 0.1; n=$((n+1)); done &&
	test -e make.started &&
	# until the build ends, the results are never missing nor partial
	gone= && polls=0 &&
	while kill -0 $pid 2>/dev/null
	do
		test -f results/linux-6.12.y/build/objects/build.json &&
		test -f results/linux-6.12.y/build/objects/x86_64/baseline/metadata.json ||
		gone=yes
		polls=$((polls + 1))
		sleep 0.05
	done &&
	wait $pid;
	test $polls -gt 10 &&
	test -z "$gone" &&
	jq -e ".results | endswith(\"/results/linux-6.12.y/build/objects\")" results/linux-6.12.y/build/objects/build.json &&
	! grep -r "/\.objects-" results/linux-6.12.y/build/objects &&
	test -z "$(ls -A results/linux-6.12.y/build | grep "^\.")"
'

test_done

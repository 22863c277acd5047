#!/bin/sh

test_description='stablekit build: objects mode on the real 6.12 workspace, 3 arches

A scratch project with its own quilt queue for linux-6.12.y, built against
$SK_WORK/linux (created with "stablekit workspace init" when missing) for
x86_64, arm64 and i386.  The checkout and the O= directories are kept in
$SK_WORK/t6000-build and reused across cases and runs; ccache is on.
'

. ./lib-stablekit.sh

SRC=/usr/src/linux-source-6.12.tar.xz
WS="$SK_WORK/linux"
# What the project depends on is installed by make deps: its absence is
# a failure, never a skip.
if ! test -d "$WS/.git" && ! test -f "$SRC"; then
	error "no workspace and $SRC not installed (make deps)"
fi
for tool in quilt make aarch64-linux-gnu-gcc i686-linux-gnu-gcc riscv64-linux-gnu-gcc; do
	command -v $tool >/dev/null || error "$tool not installed (make deps)"
done

FIX="$SHARNESS_TEST_SRCDIR/t6000"
Q=p/stable/linux-6.12.y

# Run a build of linux-6.12.y in p; the JSON summary goes to out.json.
sk_build() {
	(cd p && stablekit build --repo "$WS" --work "$SK_WORK/t6000-build" \
		--results ../results --branch linux-6.12.y "$@")
}

use_queue() {
	rm -rf "$Q" && mkdir -p "$Q" &&
	echo "# t6000 queue" >"$Q/series" &&
	for p in "$@"; do
		cp "$FIX/$p" "$Q/" && echo "$p" >>"$Q/series" || return 1
	done
}

# arch -> "baseline patched new-warnings" from out.json
row() {
	jq -r ".branches[0].arches[] | select(.arch == \"$1\") |
		\"\(.baseline.status) \(.patched.status) \(.new_warnings | length)\"" out.json
}

test_expect_success 'setup: workspace and project' '
	sk_kernel_project p &&
	git -C "$WS" for-each-ref >refs.before &&
	git -C "$WS" rev-parse HEAD >head.before &&
	git -C "$WS" ls-files -s >index.before
'

test_expect_success 'a harmless patch: three arches pass, no new warning' '
	use_queue harmless.patch &&
	sk_build --json >out.json &&
	test "$(row x86_64)" = "pass pass 0" &&
	test "$(row arm64)" = "pass pass 0" &&
	test "$(row i386)" = "pass pass 0" &&
	jq -e ".branches[0].gate == \"pass\"" out.json &&
	jq -e ".branches[0].queue.status == \"applied\"" out.json &&
	jq -e ".branches[0].queue.files == [\"mm/vmscan.c\"]" out.json
'

test_expect_success 'the results keep the queue that was built, copied at the start' '
	R=results/linux-6.12.y/build/objects &&
	test_cmp "$Q/series" $R/queue/series &&
	test_cmp "$Q/harmless.patch" $R/queue/harmless.patch
'

test_expect_success 'metadata.json, build.log and config per build' '
	R=results/linux-6.12.y/build/objects &&
	test -f $R/build.json &&
	for a in x86_64 arm64 i386; do
		for v in baseline patched; do
			test -s $R/$a/$v/build.log &&
			grep -q "^CONFIG_MEMCG=y" $R/$a/$v/config &&
			grep -q "^CONFIG_LRU_GEN=y" $R/$a/$v/config &&
			jq -e ".build.target_arch == \"$a\" and
				.results.status == \"pass\" and
				.results.targets.objects.status == \"pass\" and
				(.build.objects | index(\"mm/vmscan.o\")) != null and
				(.reproducer | test(\"KBUILD_BUILD_TIMESTAMP=@[0-9]+ KBUILD_BUILD_USER=stablekit KBUILD_BUILD_HOST=stablekit\")) and
				(.source.git_describe | startswith(\"v6.12.\")) and
				(.compiler.version_full | test(\"gcc\"))" \
				$R/$a/$v/metadata.json || return 1
		done
	done &&
	jq -e ".source.queue == [\"harmless.patch\"]" $R/i386/patched/metadata.json &&
	jq -e ".build.cross_compile == \"aarch64-linux-gnu-\"" $R/arm64/baseline/metadata.json
'

test_expect_success 'the user repository is untouched' '
	git -C "$WS" for-each-ref >refs.after &&
	test_cmp refs.before refs.after &&
	git -C "$WS" rev-parse HEAD >head.after &&
	test_cmp head.before head.after &&
	git -C "$WS" ls-files -s >index.after &&
	test_cmp index.before index.after &&
	git -C "$WS" status --porcelain >st &&
	test_must_be_empty st &&
	test -d "$SK_WORK/t6000-build/linux-6.12.y/src/mm" &&
	! test -e "$SK_WORK/t6000-build/linux-6.12.y/src/.pc"
'

test_expect_success 'a patch that adds a warning is caught with file:line' '
	use_queue warning.patch &&
	test_expect_code 1 sk_build >out 2>err &&
	grep "x86_64: new warning: mm/vmscan.c:529:[0-9]*: unused variable .sk_t6000_unused. \[-Wunused-variable\] (in reclaim_throttle)" out &&
	grep "arm64: new warning: mm/vmscan.c:529:" out &&
	grep "i386: new warning: mm/vmscan.c:529:" out &&
	grep "gate: FAIL" out
'

test_expect_success 'the same warning, allow-listed, passes the gate' '
	cp p/ci/build-allowlist allow.orig &&
	echo "* mm/vmscan.c unused variable *sk_t6000_unused* [-Wunused-variable]" \
		>>p/ci/build-allowlist &&
	sk_build --json >out.json &&
	cp allow.orig p/ci/build-allowlist &&
	jq -e "[.branches[0].arches[].new_warnings[] | .allowed] == [true, true, true]" out.json &&
	jq -e ".branches[0].gate == \"pass\"" out.json
'

test_expect_success 'a patch that breaks only i386 fails i386 alone' '
	use_queue break-i386.patch &&
	test_expect_code 1 sk_build --json >out.json &&
	test "$(row x86_64)" = "pass pass 0" &&
	test "$(row arm64)" = "pass pass 0" &&
	jq -r ".branches[0].arches[] | select(.arch == \"i386\") |
		\"\(.baseline.status) \(.patched.status) \(.gate_failed)\"" out.json >i386 &&
	echo "pass fail true" >expect && test_cmp expect i386 &&
	R=results/linux-6.12.y/build/objects/i386/patched &&
	jq -e ".results.errors[] | select(.file == \"mm/vmscan.c\" and
		(.message | test(\"sk_t6000_undeclared\")))" $R/metadata.json &&
	grep "sk_t6000_undeclared" $R/build.log
'

test_expect_success 'a missing cross compiler is a toolchain problem, not the patch' '
	use_queue harmless.patch &&
	sk_build --cross-compile arm64=nonexistent-linux-gnu- >out &&
	grep "arm64 *toolchain-missing *toolchain-missing" out &&
	grep "arm64: toolchain problem, not the queue: toolchain .nonexistent-linux-gnu-gcc. not found" out &&
	grep "x86_64 *pass *pass" out &&
	grep "i386 *pass *pass" out &&
	grep "gate: pass" out
'

test_expect_success 'riscv64, one row of the arch table, builds its objects' '
	use_queue harmless.patch &&
	sk_build --arch riscv64 --json >out.json &&
	test "$(row riscv64)" = "pass pass 0" &&
	R=results/linux-6.12.y/build/objects/riscv64 &&
	jq -e ".build.cross_compile == \"riscv64-linux-gnu-\" and
		.build.kernel_arch == \"riscv\"" $R/patched/metadata.json
'

test_expect_success 'no queue: baseline only, and it says so' '
	rm -rf "$Q" &&
	sk_build --arch x86_64 --json >out.json &&
	jq -e ".branches[0].queue.status == \"none\"" out.json &&
	test "$(row x86_64)" = "pass skipped 0" &&
	jq -e ".branches[0].worktree_reused" out.json
'

test_expect_success 'a queue that does not apply fails the gate' '
	use_queue harmless.patch &&
	sed "s/stablekit t6000: a comment/no such context/" "$FIX/harmless.patch" \
		>"$Q/harmless.patch" &&
	sed "/^ \/\* stablekit/d" "$Q/harmless.patch" >/dev/null &&
	sed -i "s/^ void reclaim_throttle/ void no_such_function/" "$Q/harmless.patch" &&
	test_expect_code 1 sk_build --arch x86_64 >out &&
	grep "queue: 1 patch, apply-failed" out &&
	grep "the queue does not apply" out &&
	! test -e "$SK_WORK/t6000-build/linux-6.12.y/src/.pc"
'

test_expect_success 'a branch whose ref is missing or is a model tree is not buildable' '
	(cd p && test_expect_code 128 stablekit build --repo "$WS" \
		--work "$SK_WORK/t6000-build" --results ../results \
		--branch mainline >../out 2>../err) &&
	grep "mainline: not buildable: ref .master. is not in the repository" out &&
	git init -q model && echo model >model/README &&
	git -C model add README && git -C model commit -q -m model &&
	git -C model branch linux-7.2.y &&
	(cd p && test_expect_code 128 stablekit build --repo ../model \
		--work ../modelwork --results ../results --branch linux-7.2.y \
		>../out 2>../err) &&
	grep "not buildable: the tree at .linux-7.2.y. has no .Makefile." out &&
	! grep pass out
'

test_done

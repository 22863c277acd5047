#!/bin/sh

test_description='stablekit workspace init: the real Debian trees of the embedded default

$SK_WORK/linux with linux-6.12.y = 6.12.118, linux-7.1.y = 7.1.8,
linux-7.2.y = 7.2.13 and linux-7.3.y = 7.3.4 (ci/trees.conf): make check
builds it before the tests (a cold build fetches about 490 MB from
deb.debian.org and imports four trees), so here init only verifies it;
run alone on a fresh SK_WORK, this file builds it.  Then: its shape, the
content facts tracking relies on, status with the embedded default
branches, and a pin that the archive no longer has.
'

. ./lib-stablekit.sh

test_expect_success 'the workspace has the four pinned trees' '
	sk_workspace &&
	stablekit -C "$SK_TOP" workspace init --json >init.json &&
	jq -r ".trees[] | \"\(.branch) \(.tag)\"" init.json >trees &&
	cat >expect <<-\EOF &&
	linux-6.12.y v6.12.118
	linux-7.1.y v7.1.8
	linux-7.2.y v7.2.13
	linux-7.3.y v7.3.4
	EOF
	test_cmp expect trees &&
	jq -e ".imported == 0 and .head == \"linux-6.12.y\"" init.json
'

test_expect_success 'each branch: one root commit, tagged, the Makefile its version' '
	while read b t; do
		test "$(git -C "$WS" rev-list --count $b)" = 1 &&
		test "$(git -C "$WS" rev-list --parents $b)" = \
		     "$(git -C "$WS" rev-parse $b)" &&
		test "$(git -C "$WS" rev-parse "$t^{commit}")" = \
		     "$(git -C "$WS" rev-parse $b)" &&
		git -C "$WS" show $b:Makefile >mf &&
		v=${t#v} &&
		grep "^VERSION = ${v%%.*}$" mf &&
		grep "^SUBLEVEL = ${v##*.}$" mf || return 1
	done <trees
'

test_expect_success 'whole trees, .gitignore notwithstanding; shared blobs stored once' '
	total=0 &&
	while read b t; do
		git -C "$WS" cat-file -e $b:mm/workingset.c &&
		git -C "$WS" cat-file -e $b:Documentation/process/stable-kernel-rules.rst &&
		git -C "$WS" ls-tree -r $b >files.$b &&
		n=$(wc -l <files.$b) && test $n -gt 80000 &&
		total=$(($total + $n)) || return 1
	done <trees &&
	git -C "$WS" cat-file -e linux-7.2.y:.gitignore &&
	cat files.* | awk "{print \$3}" | sort -u | wc -l >unique &&
	echo "blobs: $total in the trees, $(cat unique) different" &&
	test $(cat unique) -lt $(($total * 2 / 3)) &&
	git -C "$WS" count-objects -v >count &&
	objects=$(awk "/^(count|in-pack):/ {n += \$2} END {print n}" count) &&
	test $objects -lt $total
'

test_expect_success 'HEAD linux-6.12.y, its work tree clean' '
	test "$(git -C "$WS" symbolic-ref HEAD)" = refs/heads/linux-6.12.y &&
	grep "^SUBLEVEL = 118$" "$WS/Makefile" &&
	git -C "$WS" status --porcelain --ignored >st &&
	test_must_be_empty st
'

# The code series B fixes (7404bd37cfbe's count_shadow_nodes() summing
# lruvec_lru_size()) is in 7.1.8 and 7.2.13, not in 6.12.118; 7.3.4 has
# B, which reads lruvec_page_state_local(lruvec, NR_LRU_BASE + i) again.
count_shadow_nodes() {
	git -C "$WS" show $1:mm/workingset.c >ws.c &&
	sed -n "/^static unsigned long count_shadow_nodes/,/^}/p" ws.c >fn.$1 &&
	test -s fn.$1
}

test_expect_success 'the trees are the releases: count_shadow_nodes() per version' '
	for b in linux-7.1.y linux-7.2.y; do
		count_shadow_nodes $b &&
		grep "pages += lruvec_lru_size(lruvec, i, MAX_NR_ZONES - 1);" fn.$b ||
		return 1
	done &&
	count_shadow_nodes linux-7.3.y &&
	! grep "lruvec_lru_size" fn.linux-7.3.y &&
	grep "NR_LRU_BASE + i" fn.linux-7.3.y &&
	count_shadow_nodes linux-6.12.y &&
	! grep "lruvec_lru_size" fn.linux-6.12.y
'

test_expect_success '--tree verifies only the trees named' '
	stablekit -C "$SK_TOP" workspace init --tree 7.2.13 >out &&
	grep "^already initialised .*: 1 tree, HEAD linux-6.12.y$" out &&
	grep "^  linux-7.2.y v7.2.13 [0-9a-f]\{12\} already there$" out &&
	test $(wc -l <out) = 2
'

test_expect_success 'status: every real branch has its tip; mainline unknown, said why' '
	sk_new_project p &&
	cp "$SK_TOP/stable/branches.conf" p/stable/ &&
	(cd p && stablekit status --json >../status.json) &&
	for b in linux-6.12.y linux-7.1.y linux-7.2.y linux-7.3.y; do
		jq -e --arg b $b --arg t "$(git -C "$WS" rev-parse $b)" \
			".branches[] | select(.name == \$b) | .tip == \$t" \
			status.json || return 1
	done &&
	(cd p && stablekit status >../out) &&
	grep "^mainline: unknown: ref .master. is not in the embedded workspace (the Debian trees of ci/trees.conf; pass --repo)$" out &&
	! grep "^linux-[0-9.]*y: unknown" out
'

test_expect_success 'a pinned version the archive no longer has: the versions it has' '
	sed -e "s/^\(	debversion = \)7.2.13-1$/\17.2.13-99/" \
	    -e "s/linux-source-7.2_7.2.13-1_all.deb/linux-source-7.2_7.2.13-99_all.deb/" \
		"$SK_TOP/ci/trees.conf" >gone.conf &&
	grep "7.2.13-99" gone.conf &&
	test_expect_code 128 stablekit workspace init --pins gone.conf \
		--tree 7.2.13 gone/linux 2>err &&
	grep "gone.conf: tree 7.2.13: linux-source-7.2 7.2.13-99 is not in the archive (http://deb.debian.org/debian sid) any more; it lists .*7.2.13-1" err &&
	! test -e gone/linux &&
	! test -e "$SK_WORK/downloads/linux-source-7.2_7.2.13-99_all.deb"
'

test_expect_success 'the machine apt state is untouched: no stablekit source in it' '
	! grep -rl stablekit /etc/apt/sources.list.d /etc/apt/sources.list 2>/dev/null &&
	test -f "$SK_WORK/apt/sources.list.d/stablekit.sources" &&
	grep "^Suites: sid trixie-backports$" "$SK_WORK/apt/sources.list.d/stablekit.sources"
'

test_done

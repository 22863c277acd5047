#!/bin/sh

test_description='semantic patches: series B on a tree with the 7.1-rc1 helpers

Ports "mm: workingset: fix the shadow node budget under MGLRU" (3
patches, written for get_non_dying_memcg_start(memcg, bool *rcu_locked))
with ci/cocci/port onto tiny hand-made trees (t4010/) holding only the
functions involved, shaped like mm/memcontrol.c and mm/workingset.c:
one with the 7.1-rc1 one-argument helpers, one with the 7.1-rc2 form,
and both again without memcg_is_dying() (before 6.19).  Checks that the
probes pick the right target, that the bridge
compat/get_non_dying_memcg_start-v7.1-rc2 gives the 7.1-rc2 form, that
every port gives the expected files, which compile and keep RCU
balanced (also across a cgroup rebind), and that rules re-run change
nothing.'

. ./lib-stablekit.sh

slug=mm-workingset-fix-the-shadow-node-budget-under-mglru
cocci="$SK_TOP/ci/cocci"
fix="$SHARNESS_TEST_DIRECTORY/t4010"
bridge="$SK_TOP/semantic-patches/compat/get_non_dying_memcg_start-v7.1-rc2.cocci"

# Compile FILE of TREE, with and without CONFIG_MEMCG_V1.
syntax_ok() {
	for v1 in -UCONFIG_MEMCG_V1 -DCONFIG_MEMCG_V1
	do
		gcc -fsyntax-only -Wall -Wextra -Werror -Wno-unused-parameter \
			-Wno-unused-function $v1 -I "$1/include" "$1/$2" ||
		return 1
	done
}

# Build TREE's mm/memcontrol.c with the RCU-counting stubs and run them
# (ARGS: "all" when dying memcgs are redirected on cgroup v2 too).
rcu_balance() {
	bal_tree=$1 &&
	shift &&
	gcc -Wall -Werror -Wno-unused-function -DCONFIG_MEMCG_V1 \
		-I "$bal_tree/include" -o balance "$fix/rcu-balance.c" \
		"$bal_tree/mm/memcontrol.c" &&
	./balance "$@"
}

# Make a tree before 6.19 from TREE: no memcg_is_dying() in memcontrol.h,
# css_is_dying() in memcontrol.c.
pre_619() {
	cp -R "$1" "$2" &&
	sed "/memcg-is-dying: begin/,/memcg-is-dying: end/d" \
		"$1/include/linux/memcontrol.h" >"$2/include/linux/memcontrol.h" &&
	sed "s/memcg_is_dying(memcg)/css_is_dying(\&memcg->css)/g" \
		"$1/mm/memcontrol.c" >"$2/mm/memcontrol.c" &&
	! grep -r "memcg_is_dying(" "$2"
}

test_expect_success 'set up the trees' '
	cp -R "$fix/7.1-rc1" rc1 &&
	cp -R "$fix/7.1-rc1" rc2 &&
	cp "$fix/7.1-memcontrol.c" rc2/mm/memcontrol.c &&
	pre_619 rc1 old-rc1 &&
	pre_619 rc2 old-rc2 &&
	sed "s/memcg_is_dying(memcg)/css_is_dying(\&memcg->css)/g" \
		"$fix/expect-memcontrol.c" >expect-old-memcontrol.c &&
	cp -R "$fix/7.1-rc1" none &&
	sed "/^#ifdef CONFIG_MEMCG_V1/,/^#endif/d; s/get_non_dying_memcg_[a-z]*(.*);//" \
		"$fix/7.1-rc1/mm/memcontrol.c" >none/mm/memcontrol.c &&
	! grep get_non_dying none/mm/memcontrol.c &&
	cp -R "$fix/7.1-rc1" half &&
	cp "$fix/7.1-memcontrol.c" half/mm/memcontrol.c &&
	echo "struct mem_cgroup *get_non_dying_memcg_start(struct mem_cgroup *memcg);" \
		>>half/mm/memcontrol.c
'

test_expect_success 'the hand-made trees compile' '
	for t in rc1 rc2 old-rc1 old-rc2
	do
		syntax_ok $t mm/memcontrol.c &&
		syntax_ok $t mm/workingset.c || return 1
	done
'

test_expect_success 'the 7.1-rc1 form loses RCU balance across a rebind' '
	test_must_fail rcu_balance rc1 >out &&
	cat out &&
	grep "^alive, rebind: rcu depth -1," out
'

test_expect_success 'the bridge gives exactly the 7.1-rc2 form' '
	"$cocci/run-triple" "$bridge" rc1/mm/memcontrol.c >bridged.c &&
	test_cmp "$fix/7.1-memcontrol.c" bridged.c &&
	rcu_balance rc2
'

test_expect_success 'plain hunks of 7.1-rc1:1 are patch 1 as it was sent' '
	"$cocci/seed-diffs" "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox" seeds &&
	test_cmp seeds/1.diff \
		"$SK_TOP/semantic-patches/$slug/hunks/7.1-rc1/1-memcontrol.patch"
'

test_expect_success 'without the bridge, patch 1 does not apply to 7.1-rc1' '
	test_must_fail "$cocci/port" $slug rc1 forced 7.1 2>err &&
	grep "seed hunks of patch 1 do not apply" err
'

# TREE TARGET EXPECTED-MEMCONTROL.C
for case in "rc2 7.1 expect-memcontrol.c" \
	    "rc1 7.1-rc1 expect-memcontrol.c" \
	    "old-rc2 pre-6.19 expect-old-memcontrol.c" \
	    "old-rc1 pre-6.19-rc1-form expect-old-memcontrol.c"
do
	set -- $case
	tree=$1 target=$2 expect=$3

	test_expect_success "$tree: the probes pick $target, the port applies" '
		"$cocci/port" $slug $tree ported-$tree >port.out &&
		cat port.out &&
		grep -x "target: $target" port.out
	'

	test_expect_success "$tree: the port gives the expected files" '
		if test -f "$fix/$expect"
		then
			cp "$fix/$expect" expect.c
		else
			cp "$expect" expect.c
		fi &&
		test_cmp expect.c ported-$tree/mm/memcontrol.c &&
		test_cmp "$fix/expect-workingset.c" ported-$tree/mm/workingset.c
	'

	test_expect_success "$tree: the port compiles and keeps RCU balanced" '
		syntax_ok ported-$tree mm/memcontrol.c &&
		syntax_ok ported-$tree mm/workingset.c &&
		rcu_balance ported-$tree all
	'

	test_expect_success "$tree: rules re-run on the port change nothing" '
		cp -R ported-$tree again-$tree &&
		"$cocci/port" --rules-only $slug $target again-$tree &&
		diff -r ported-$tree again-$tree
	'
done

test_expect_success 'a tree without the helpers (6.12.y) is refused' '
	test_must_fail "$cocci/port" $slug none out-none 2>err &&
	grep "no target matches" err
'

test_expect_success 'a tree with both forms is refused' '
	test_must_fail "$cocci/port" $slug half out-half 2>err &&
	grep "no target matches" err
'

test_done

#!/bin/sh

test_description='stablekit port: stable queues proven with quilt, one test per pipeline stage'

. ./lib-stablekit.sh
. "$SK_TOP/ci/model/linux.sh"

B=mm-workingset-fix-the-shadow-node-budget-under-mglru
Q=p/stable

port() {
	(cd p && stablekit port "$@")
}

test_expect_success 'setup: model repository, project, series B pulled' '
	build_linuxb &&
	sk_new_project p &&
	cp -R "$SK_TOP/semantic-patches" p/ &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linuxb
		signoff = Stable Tester <tester@example.org>
	[branch "mainline"]
		ref = master
		base = v7.0
		kind = mainline
	[branch "linux-7.1.y"]
		ref = linux-7.1.y
		base = v7.1
		allow-pending = true
	[branch "linux-7.2.y"]
		ref = linux-7.2.y
		base = v7.2
	[branch "vendor-fuzz"]
		ref = vendor-fuzz
		base = v7.1
		allow-pending = true
	[branch "vendor-3way"]
		ref = vendor-3way
		base = v7.1
		allow-pending = true
	[branch "vendor-fail"]
		ref = vendor-fail
		base = v7.1
		allow-pending = true
	[branch "vendor-rc1"]
		ref = vendor-rc1
		base = v7.1
		allow-pending = true
	[branch "vendor-down"]
		ref = vendor-fail
		base = v7.1
		kind = downstream
		select = $B
	EOF
	(cd p && stablekit pull -m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox") >/dev/null 2>&1 &&
	(cd linuxb && git for-each-ref && git rev-parse HEAD && git status --porcelain &&
	 git count-objects) >refs.before
'

test_expect_success 'clean: series B on 7.2.y, patch 2 queued, patch 1 waits for mainline, 3 not eligible' '
	port $B --branch linux-7.2.y --progress >out 2>err &&
	grep "^\[ *[0-9]*:[0-9][0-9]\] port: $B -> linux-7.2.y: patch 2/3: mm: workingset: use lruvec_page_state_local() to count lru pages$" err &&
	grep "^\[ *[0-9]*:[0-9][0-9]\] port: $B -> linux-7.2.y: 1 patch queued: quilt push$" err &&
	! grep "patch 1/3" err &&
	grep "^  1\. skipped  *mm: memcg: redirect stats" out &&
	grep "^       waits: not upstream yet (mainline-first): no mainline commit proves it, and no newer stable branch has it" out &&
	grep "2. clean  *mm: workingset: use lruvec_page_state_local" out &&
	grep "3. skipped .*mm: memcg: skip the RCU lock" out &&
	grep "not eligible: no Fixes: and no Cc: stable" out &&
	cat >expect <<-EOF &&
	# $B
	mm-workingset-use-lruvec_page_state_local-to-count-l.patch
	EOF
	test_cmp expect $Q/linux-7.2.y/series &&
	(cd p && stablekit status --why $B:1 linux-7.2.y) >why &&
	grep "linux-7.2.y: waits$" why &&
	port $B --branch linux-7.2.y --json >strict.json &&
	jq -e ".[0].patches[0].method == \"skipped\" and (.[0].patches[0].reason | startswith(\"waits: not upstream yet (mainline-first)\"))" strict.json
'

test_expect_success 'the patches carry upstream line, trailers, note and sign-off' '
	f=$Q/linux-7.2.y/mm-workingset-use-lruvec_page_state_local-to-count-l.patch &&
	head -n 3 $f >head &&
	cat >expect <<-EOF &&
	From: Hui Zhu <zhuhui@kylinos.cn>
	Date: Fri, 04 Sep 2026 17:45:57 +0800
	Subject: mm: workingset: use lruvec_page_state_local() to count lru pages
	EOF
	test_cmp expect head &&
	up=$(git -C linuxb rev-parse master) &&
	grep "^commit $up upstream\.$" $f &&
	grep "^Fixes: 7404bd37cfbe" $f &&
	grep "^Acked-by: Shakeel Butt" $f &&
	tail -n +1 $f | grep -n "^Signed-off-by:" | tail -n 1 | grep "Stable Tester" &&
	! test -e $Q/linux-7.2.y/mm-memcg-redirect-stats-updates-of-dying-memcgs-for-a.patch
'

test_expect_success 'the queue pushes with quilt onto the branch' '
	git -C linuxb archive --prefix=tree/ linux-7.2.y | tar -x &&
	(cd tree && QUILT_PATCHES=../$Q/linux-7.2.y quilt --quiltrc - push -aq) &&
	grep "lruvec_page_state_local(lruvec," tree/mm/workingset.c
'

test_expect_success 'offset: 7.1.y has the code 12 lines lower' '
	port $B --branch linux-7.1.y >out &&
	grep "1. offset  *mm: memcg: redirect" out &&
	grep "offset +12 in mm/memcontrol.c hunk 1" out &&
	grep "^\[ stablekit: applied with offset +12 in mm/memcontrol.c hunk 1" \
		$Q/linux-7.1.y/mm-memcg-redirect-stats-updates-of-dying-memcgs-for-a.patch
'

test_expect_success 'allow-pending = true: the pending patch 1 queued, with its Link: and no upstream line' '
	g=$Q/linux-7.1.y/mm-memcg-redirect-stats-updates-of-dying-memcgs-for-a.patch &&
	! grep "upstream\.$" $g &&
	grep "^Link: https://lore.kernel.org/r/20260904094555.2871043-2-hui.zhu@linux.dev" $g
'

test_expect_success 'fuzz 1: one outer context line differs' '
	port $B --branch vendor-fuzz >out &&
	grep "2. fuzz  *mm: workingset" out &&
	grep "fuzz 1 in mm/workingset.c hunk 1" out
'

test_expect_success 'fuzz 2: two outer context lines differ, placed where upstream has it' '
	port $B --branch vendor-3way >out &&
	grep "2. fuzz  *mm: workingset" out &&
	grep "fuzz 2 in mm/workingset.c hunk 1" out &&
	grep "^\[ stablekit: mm/workingset.c hunk 1: fuzz 2: 2 of the 2 outer context lines differ (2 dropped before, 0 after); below the definition its @@ line names (static unsigned long count_shadow_nodes(struct shrinker \*shrinker,); the only place that matches \]$" \
		$Q/vendor-3way/mm-workingset-use-lruvec_page_state_local-to-count-l.patch &&
	port $B --branch vendor-3way --json >3way.json &&
	jq -e ".[0].patches[1].hunks[0].method == \"fuzz\" and .[0].patches[1].hunks[0].landed_in == \"count_shadow_nodes\"" 3way.json &&
	git -C linuxb archive --prefix=t3/ vendor-3way | tar -x &&
	(cd t3 && QUILT_PATCHES=../$Q/vendor-3way quilt --quiltrc - push -aq) &&
	grep "mem_cgroup_flush_stats(sc->memcg);" t3/mm/workingset.c &&
	grep "lruvec_page_state_local(lruvec," t3/mm/workingset.c
'

test_expect_success 'semantic patches: the 7.1-rc1 helpers need the bridge' '
	port $B --branch vendor-rc1 >out &&
	grep "target 7.1-rc1" out &&
	grep "1. semantic-patches  *mm: memcg: redirect" out &&
	grep "get_non_dying_memcg_start-v7.1-rc2" out
'

test_expect_success 'nothing carries it: a FAILED mail, exit 1, the rest still queued' '
	test_expect_code 1 port $B --branch vendor-fail >out &&
	grep "2. FAILED  *mm: workingset" out &&
	cat $Q/vendor-fail/series >series &&
	grep "^mm-memcg-redirect-stats" series && ! grep "^mm-workingset" series &&
	m=$Q/vendor-fail/failed/mm-workingset-use-lruvec_page_state_local-to-count-l.mail &&
	grep "^Subject: FAILED: patch \"mm: workingset: use lruvec_page_state_local() to count lru pages\" failed to apply to 7.1-stable tree" $m &&
	grep "^git cherry-pick -x $(git -C linuxb rev-parse master)" $m &&
	grep "^Possible dependencies:" $m &&
	grep "20260904094555.2871043-2-hui.zhu@linux.dev" $m &&
	grep "^mm/workingset.c hunk 1 of patch 2 (changes count_shadow_nodes):$" $m &&
	grep "^    692  static unsigned long count_shadow_nodes(struct shrinker \*shrinker,$" $m &&
	grep "/\* rewritten 693 \*/" $m &&
	grep "three-way" $m
'

test_expect_success 'report keeps the FAILED mail of a stable branch as port addressed it' '
	(cd p && stablekit report --results ../results --branch vendor-fail) >/dev/null &&
	m=mm-workingset-use-lruvec_page_state_local-to-count-l.mail &&
	test_cmp $Q/vendor-fail/failed/$m results/vendor-fail/report/failed/$m &&
	sed -n "1,/^\$/p" results/vendor-fail/report/failed/$m >head &&
	cat >expect <<-EOF &&
	Subject: FAILED: patch "mm: workingset: use lruvec_page_state_local() to count lru pages" failed to apply to 7.1-stable tree
	To: Hui Zhu <zhuhui@kylinos.cn>
	Cc: stable@vger.kernel.org

	EOF
	test_cmp expect head
'

test_expect_success 'report keeps a downstream FAILED mail to the owner, no stable@' '
	test_expect_code 1 port $B --branch vendor-down >out &&
	grep "2. FAILED  *mm: workingset" out &&
	(cd p && stablekit report --results ../results --branch vendor-down) >/dev/null &&
	m=mm-workingset-use-lruvec_page_state_local-to-count-l.mail &&
	test_cmp $Q/vendor-down/failed/$m results/vendor-down/report/failed/$m &&
	sed -n "1,/^\$/p" results/vendor-down/report/failed/$m >head &&
	cat >expect <<-EOF &&
	Subject: FAILED: patch "mm: workingset: use lruvec_page_state_local() to count lru pages" failed to port to vendor-down
	To: Stable Tester <tester@example.org>
	Cc: Hui Zhu <zhuhui@kylinos.cn>

	EOF
	test_cmp expect head &&
	! grep "stable@" head
'

test_expect_success 'running port again gives the same bytes' '
	(cd $Q && find . -type f | sort | xargs sha1sum) >before &&
	for b in linux-7.1.y linux-7.2.y vendor-fuzz vendor-3way vendor-rc1; do
		port $B --branch $b >/dev/null || return 1
	done &&
	(cd $Q && find . -type f | sort | xargs sha1sum) >after &&
	test_cmp before after
'

test_expect_success 'the user repository is untouched: refs, HEAD, work tree, objects' '
	(cd linuxb && git for-each-ref && git rev-parse HEAD && git status --porcelain &&
	 git count-objects) >refs.after &&
	test_cmp refs.before refs.after
'

test_expect_success 'status now says queued, with the queue entry as evidence' '
	(cd p && stablekit status --why $B:2 linux-7.2.y) >why &&
	grep "linux-7.2.y: queued" why &&
	grep "stable/linux-7.2.y/series lists" why
'

test_expect_success 'a port killed halfway leaves the previous queue intact' '
	(cd $Q && find . -type f | sort | xargs sha1sum) >before &&
	mkdir slowbin &&
	printf "#!/bin/sh\nsleep 30\n" >slowbin/quilt && chmod +x slowbin/quilt &&
	(cd p && PATH="$PWD/../slowbin:$PATH" exec stablekit port $B --branch linux-7.2.y) &
	pid=$! &&
	sleep 3 && kill -9 $pid && wait $pid;
	pkill -f "slowbin/quilt" ;
	(cd $Q && find . -path "./.*" -prune -o -type f -print | sort | xargs sha1sum) >after &&
	test_cmp before after
'

test_expect_success 'port --json names the method of every patch' '
	port $B --branch linux-7.1.y --json >out.json &&
	python3 -c "
import json
r = json.load(open(\"out.json\"))[0]
assert r[\"branch\"] == \"linux-7.1.y\"
m = [(p[\"nr\"], p[\"method\"]) for p in r[\"patches\"]]
assert m == [(1, \"offset\"), (2, \"clean\"), (3, \"skipped\")], m
"
'

test_done

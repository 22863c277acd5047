#!/bin/sh

test_description='stablekit port: the queue must compile, as it must push with quilt

After the rules, port builds the objects of the files the queue touches
for x86_64 (stablekit build'"'"'s objects mode: defconfig, ci/kconfig
fragments: the project has none, so the shipped ones) on a checkout of the branch, and fails with the compiler'"'"'s
message when they do not build.  The tree is t5210/tree, a tiny
kernel-like tree whose Makefile compiles with gcc.  A rule that matches
lru_note_cost(...) of any arity removes 6.1'"'"'s 3-argument function and
leaves lru_note_cost_folio() calling it: quilt pushes that queue; the
compile check refuses it.  A model repository without a Makefile is no
kernel tree: the check says so and does not fail.'

. ./lib-stablekit.sh

# kbuild takes no path with white space, as the trash directory has
SK_WORK="$SK_BUILD/t5210-work"
export SK_WORK
rm -rf "$SK_WORK"
S=mm-drop-lru_note_cost
SP=p/semantic-patches/$S

port() {
	(cd p && stablekit port "$@")
}

test_expect_success 'setup: the tree, a mainline change, a 6.1-shaped branch, a model' '
	git init -q tiny && (
	cd tiny &&
	cp -R "$SHARNESS_TEST_DIRECTORY/t5210/tree/." . &&
	git add -A && git commit -q -m "Linux 6.12" && git tag v6.12 &&
	git branch vendor-612 &&
	git checkout -q -b mainline &&
	sed -i "/^void lru_note_cost(struct/,/nr_rotated);/d; /lru_note_cost_refault/d" include/linux/swap.h &&
	sed -i "/^void lru_note_cost(/,/^}/d; /^void lru_note_cost_refault(/,/^}/d" mm/swap.c &&
	cat -s mm/swap.c >swap.c && mv swap.c mm/swap.c &&
	! grep lru_note_cost include/linux/swap.h mm/swap.c &&
	git commit -q -a --author="A U Thor <author@example.org>" \
		-m "mm: drop lru_note_cost()" -m "The cost is a vmstat counter now." \
		-m "Signed-off-by: A U Thor <author@example.org>" &&
	{
		printf "From mboxrd@z Thu Jan  1 00:00:00 1970\n" &&
		printf "From: A U Thor <author@example.org>\n" &&
		printf "Date: Mon, 5 Jan 2026 10:00:00 +0000\n" &&
		printf "Subject: [PATCH] mm: drop lru_note_cost()\n" &&
		printf "Message-Id: <drop@example.org>\n\n" &&
		printf "The cost is a vmstat counter now.\n\n" &&
		printf "Signed-off-by: A U Thor <author@example.org>\n---\n" &&
		git diff HEAD^ HEAD
	} >../drop.mbox &&
	git checkout -q -b vendor-61 v6.12 &&
	cat >include/linux/swap.h.new <<-\EOF &&
	#ifndef _LINUX_SWAP_H
	#define _LINUX_SWAP_H

	struct lruvec {
		unsigned long file_cost, anon_cost;
		struct lruvec *parent;
	};
	struct folio {
		struct lruvec *lruvec;
		int file;
		unsigned int nr;
	};

	void lru_note_cost(struct lruvec *lruvec, int file, unsigned int nr_pages);
	void lru_note_cost_folio(struct folio *);

	#endif
	EOF
	mv include/linux/swap.h.new include/linux/swap.h &&
	cat >mm/swap.c <<-\EOF &&
	#include <linux/swap.h>

	void lru_note_cost(struct lruvec *lruvec, int file, unsigned int nr_pages)
	{
		do {
			if (file)
				lruvec->file_cost += nr_pages;
			else
				lruvec->anon_cost += nr_pages;
		} while ((lruvec = lruvec->parent));
	}

	void lru_note_cost_folio(struct folio *folio)
	{
		lru_note_cost(folio->lruvec, folio->file, folio->nr);
	}

	int swap_ready(void)
	{
		return 1;
	}
	EOF
	git commit -q -a -m "Linux 6.1" && git tag v6.1 &&
	git checkout -q -b model v6.12 && git rm -q Makefile &&
	git commit -q -m "a model, no kernel" &&
	git checkout -q mainline ) &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../tiny
		signoff = Stable Tester <tester@example.org>
	[branch "mainline"]
		ref = mainline
		base = v6.12
		kind = mainline
	[branch "vendor-612"]
		ref = vendor-612
		base = v6.12
		kind = downstream
		select = $S
	[branch "vendor-61"]
		ref = vendor-61
		base = v6.1
		version = 6.1
		kind = downstream
		select = $S
	[branch "model"]
		ref = model
		base = v6.12
		kind = downstream
		select = $S
	EOF
	(cd p && stablekit pull -m ../drop.mbox) >pull.out 2>&1 &&
	test -d p/series/$S
'

test_expect_success 'setup: rules for 6.1 that match lru_note_cost of any arity' '
	mkdir -p $SP/6.1 &&
	cat >$SP/manifest.conf <<-EOF &&
	[series]
		slug = $S
	[probe "note-cost-folio"]
		file = include/linux/swap.h
		grep = void lru_note_cost_folio(struct folio *);
	[target "6.1"]
		when = note-cost-folio
	[patch "1"]
		subject = mm: drop lru_note_cost()
	[port "6.1:1"]
		drop = include/linux/swap.h:1
		drop = mm/swap.c:1
		rule = 6.1/note-cost-prototypes
		rule = 6.1/note-cost-removal
	EOF
	cat >$SP/6.1/note-cost-prototypes.cocci <<-\EOF &&
	// Target: include/linux/swap.h
	@depends on file in "include/linux/swap.h"@
	@@
	- void lru_note_cost(...);
	EOF
	cat >$SP/6.1/note-cost-removal.cocci <<-\EOF
	// Target: mm/swap.c
	@depends on file in "mm/swap.c"@
	@@
	- void lru_note_cost(...) { ... }
	EOF
'

test_expect_success 'a queue that compiles passes, and says what was built' '
	port $S --branch vendor-612 >out &&
	grep "^  1\. clean  *mm: drop lru_note_cost()$" out &&
	grep "^  compile check: x86_64 defconfig + shipped ci/kconfig (mm-series.config): mm/swap.o (mm/swap.o for include/linux/swap.h)$" out &&
	jq -e ".proof.compile == \"compile check: x86_64 defconfig + shipped ci/kconfig (mm-series.config): mm/swap.o (mm/swap.o for include/linux/swap.h)\"" \
		"$SK_WORK/results/vendor-612/port/$S.json"
'

test_expect_success 'a partial rewrite pushes with quilt but does not compile: FAILED, per patch' '
	test_expect_code 1 port $S --branch vendor-61 >out 2>err &&
	grep "^  1\. FAILED  *mm: drop lru_note_cost()$" out &&
	grep "^       the queue does not compile with it: mm/swap.c:[0-9]*:[0-9]*: error: implicit declaration of function .lru_note_cost." out &&
	! test -e p/stable/vendor-61/mm-drop-lru_note_cost.patch &&
	! grep "^mm-drop" p/stable/vendor-61/series &&
	jq -e ".proof.status == \"not run\"" "$SK_WORK/results/vendor-61/port/$S.json" &&
	jq -e ".patches[0].method == \"FAILED\"" "$SK_WORK/results/vendor-61/port/$S.json"
'

test_expect_success 'its FAILED mail has the compiler message at the hunk' '
	m=p/stable/vendor-61/failed/mm-drop-lru_note_cost.mail &&
	grep "^Subject: FAILED: patch \"mm: drop lru_note_cost()\" failed to port to vendor-61$" $m &&
	grep "^the patch applies (semantic-patches) and the queue pushes with quilt, but the queue does not compile with it" $m &&
	grep -A1 "^  mm/swap.c:[0-9]*:[0-9]*: error: implicit declaration of function .lru_note_cost." $m >at &&
	grep "^  at this hunk of the patch (mm/swap.c, new lines" at &&
	grep "^------------------ original patch ------------------$" $m
'

test_expect_success 'port --json has the patch and its hunks when the compile check fails' '
	test_expect_code 1 port $S --branch vendor-61 --json >json &&
	jq -e ".[0].patches[0].method == \"FAILED\"" json &&
	jq -e ".[0].patches[0].reason | contains(\"does not compile\")" json &&
	jq -e "(.[0].patches[0].hunks | length) == 2" json &&
	jq -e ".[0].failed == 1" json
'

test_expect_success 'a model repository is no kernel tree: said, not failed' '
	port $S --branch model >out &&
	grep "^  compile check: not a kernel tree (the tree at .model. has no .Makefile. (a model repository, not a kernel))$" out &&
	test -f p/stable/model/series
'

# mail N OF SUBJECT: patch N of a series on stdin's diff, in reply to 1/N
mail() {
	printf "From mboxrd@z Thu Jan  1 00:00:00 1970\n" &&
	printf "From: A U Thor <author@example.org>\n" &&
	printf "Date: Mon, 5 Jan 2026 10:0%d:00 +0000\n" "$1" &&
	printf "Subject: [PATCH %d/%d] %s\n" "$1" "$2" "$3" &&
	printf "Message-Id: <%s-%d@example.org>\n" "$4" "$1" &&
	if test "$1" != 1
	then
		printf "In-Reply-To: <%s-1@example.org>\n" "$4"
	fi &&
	printf "\n%s\n\nSigned-off-by: A U Thor <author@example.org>\n---\n" "$3" &&
	cat &&
	printf "\n"
}

# series NAME: the last two commits of branch NAME as a 2-patch thread
series() {
	{
		git -C tiny diff $1~2 $1~1 | mail 1 2 "$(git -C tiny log -1 --format=%s $1~1)" $1 &&
		git -C tiny diff $1~1 $1 | mail 2 2 "$(git -C tiny log -1 --format=%s $1)" $1
	} >$1.mbox
}

test_expect_success 'setup: two 2-patch series whose patch 1 fails on 6.1' '
	(cd tiny && git checkout -q -b s1 v6.12 &&
	 sed -i "/^void lru_note_cost_refault(struct folio \*);/a unsigned long swap_weight(struct lruvec *lruvec);" include/linux/swap.h &&
	 sed -i "/lru_note_cost(folio->lruvec, folio->file, folio->nr, 0);/{n;a \\
\\
unsigned long swap_weight(struct lruvec *lruvec)\\
{\\
	return lruvec->file_cost + lruvec->anon_cost;\\
}
}" mm/swap.c &&
	 git commit -q -a -m "mm: add swap_weight()" &&
	 sed -i "s/^\tnr_reclaimed += nr;/\tnr_reclaimed += nr + swap_weight(lruvec) % 2;/" mm/vmscan.c &&
	 git commit -q -a -m "mm: vmscan: weigh reclaim by swap_weight()" &&
	 git checkout -q -b s2 v6.12 &&
	 sed -i "s/^\tlru_note_cost(folio->lruvec, folio->file, folio->nr, 0);/\t\/* a refault costs IO *\/\n&/" mm/swap.c &&
	 git commit -q -a -m "mm: comment the refault cost" &&
	 sed -i "s/^\treturn lruvec->anon_cost;/\treturn lruvec->anon_cost + 1;/" mm/vmscan.c &&
	 git commit -q -a -m "mm: vmscan: count one reclaim less" &&
	 git checkout -q mainline) &&
	git -C tiny show s1~1:mm/swap.c | grep "^unsigned long swap_weight(struct lruvec \*lruvec)$" &&
	git -C tiny show s2~1:mm/swap.c | grep "a refault costs IO" &&
	series s1 && series s2 &&
	cat >>p/stable/branches.conf <<-EOF &&
	[branch "vendor-61b"]
		ref = vendor-61
		base = v6.1
		version = 6.1
		kind = downstream
		select = mm-add-swap_weight
		select = mm-comment-the-refault-cost
	EOF
	(cd p && stablekit pull -m ../s1.mbox && stablekit pull -m ../s2.mbox) >pull2.out 2>&1 &&
	test -d p/series/mm-add-swap_weight && test -d p/series/mm-comment-the-refault-cost
'

test_expect_success 'a build proves a later patch independent of a failed one: queued' '
	test_expect_code 1 port mm-comment-the-refault-cost --branch vendor-61b >out &&
	grep "^  1\. FAILED  *mm: comment the refault cost$" out &&
	grep "^  2\. clean  *mm: vmscan: count one reclaim less$" out &&
	grep "^       ported without patch 1, which failed: the queue compiles without it$" out &&
	grep "^  compile check: x86_64 defconfig + shipped ci/kconfig (mm-series.config): mm/vmscan.o$" out &&
	f=p/stable/vendor-61b/mm-vmscan-count-one-reclaim-less.patch &&
	grep "^\[ stablekit: ported without patch 1 of the series, which failed; the queue without it compiles \]$" $f &&
	grep -A 2 "^Ported without this patch (the queue without it compiles):$" \
		p/stable/vendor-61b/failed/mm-comment-the-refault-cost.mail >ind &&
	grep "^  patch 2 \"mm: vmscan: count one reclaim less\"$" ind
'

test_expect_success 'a later patch that needs the failed one does not compile without it: blocked' '
	test_expect_code 1 port mm-add-swap_weight --branch vendor-61b >out &&
	grep "^  1\. FAILED  *mm: add swap_weight()$" out &&
	grep "^  2\. blocked  *mm: vmscan: weigh reclaim by swap_weight()$" out &&
	grep "^       blocked by 1 (it ported, but the queue without patch 1 does not compile: mm/vmscan.c:[0-9]*:[0-9]*: error: implicit declaration of function .swap_weight.*)$" out &&
	! grep "swap_weight" p/stable/vendor-61b/series &&
	grep "^mm-vmscan-count-one-reclaim-less.patch$" p/stable/vendor-61b/series &&
	grep "^  patch 2 \"mm: vmscan: weigh reclaim by swap_weight()\": blocked by 1 (it ported" \
		p/stable/vendor-61b/failed/mm-add-swap_weight.mail
'

test_expect_success 'setup: psi.c, #included by build_utility.c under CONFIG_PSI' '
	(cd tiny && git checkout -q -b psi-base v6.12 &&
	 mkdir -p kernel/sched &&
	 echo "obj-y += build_utility.o" >kernel/sched/Makefile &&
	 printf "struct psi_group {\n\tint total;\n};\n" >kernel/sched/sched.h &&
	 printf "#include \"sched.h\"\n\n#ifdef CONFIG_PSI\n# include \"psi.c\"\n#endif\n" \
		>kernel/sched/build_utility.c &&
	 printf "int psi_total(struct psi_group *g)\n{\n\tint t = g->total;\n\n\treturn t;\n}\n" \
		>kernel/sched/psi.c &&
	 git add -A && git commit -q -m "sched: psi" && git tag v6.12-psi &&
	 git checkout -q -b psi-fix &&
	 sed -i "s/^\treturn t;/\treturn t + 1;/" kernel/sched/psi.c &&
	 git commit -q -a -m "sched/psi: count one more" &&
	 git checkout -q -b psi-broken v6.12-psi &&
	 sed -i "s/^\treturn t;/\treturn psi_missing(t);/" kernel/sched/psi.c &&
	 git commit -q -a -m "sched/psi: call a function this tree lacks" &&
	 git checkout -q -b swap-h v6.12 &&
	 sed -i "s/^\tunsigned long file_cost, anon_cost;/&\n\tunsigned long refault_cost;/" include/linux/swap.h &&
	 git commit -q -a -m "mm: swap: a refault cost field" &&
	 git checkout -q mainline) &&
	for b in psi-fix psi-broken swap-h; do
		git -C tiny diff $b~1 $b | mail 1 1 "$(git -C tiny log -1 --format=%s $b)" $b >$b.mbox &&
		(cd p && stablekit pull -m ../$b.mbox) >>pull3.out 2>&1 || return 1
	done &&
	cat >>p/stable/branches.conf <<-EOF &&
	[branch "vendor-psi"]
		ref = psi-base
		base = v6.12
		kind = downstream
		select = sched-psi-count-one-more
		select = sched-psi-call-a-function-this-tree-lacks
		select = mm-swap-a-refault-cost-field
	EOF
	test -d p/series/sched-psi-count-one-more
'

test_expect_success 'code under CONFIG_PSI is compiled: a call to a missing function is refused' '
	test_expect_code 1 port sched-psi-call-a-function-this-tree-lacks --branch vendor-psi >out &&
	grep "^  1\. FAILED  *sched/psi: call a function this tree lacks$" out &&
	grep "the queue does not compile with it: kernel/sched/psi.c:[0-9]*:[0-9]*: error: implicit declaration of function .psi_missing." out
'

test_expect_success 'a #included .c is compiled through its includer, CONFIG_PSI enabled' '
	port sched-psi-count-one-more --branch vendor-psi >out &&
	grep "^  1\. clean  *sched/psi: count one more$" out &&
	grep "^  compile check: x86_64 defconfig + shipped ci/kconfig (mm-series.config) + CONFIG_PSI=y: kernel/sched/build_utility.o (kernel/sched/build_utility.o for kernel/sched/psi.c, which it #includes)$" out
'

test_expect_success 'a header-only queue is compiled through an object that includes it' '
	port mm-swap-a-refault-cost-field --branch vendor-psi >out &&
	grep "^  1\. clean  *mm: swap: a refault cost field$" out &&
	grep "^  compile check: x86_64 defconfig + shipped ci/kconfig (mm-series.config): mm/[a-z]*\.o (mm/[a-z]*\.o for include/linux/swap.h)$" out
'

test_expect_success 'a branch in a repository of its own (an imported tarball) is ported to' '
	mkdir tarball && git -C tiny archive v6.12 | tar -x -C tarball &&
	(cd tarball && git init -q && git add -A &&
	 git commit -q -m "Linux 6.12 (from the release tarball)" && git tag v6.12) &&
	cat >>p/stable/branches.conf <<-EOF &&
	[branch "tarball-612"]
		repo = ../tarball
		ref = master
		base = v6.12
		kind = downstream
		select = $S
	EOF
	port $S --branch tarball-612 >out &&
	grep "^  1\. clean  *mm: drop lru_note_cost()$" out &&
	grep "^  compile check: x86_64 defconfig + shipped ci/kconfig (mm-series.config): mm/swap.o" out &&
	grep "^commit $(git -C tiny rev-parse mainline~0) upstream\.$\|^mm-drop" \
		p/stable/tarball-612/series p/stable/tarball-612/mm-drop-lru_note_cost.patch &&
	test -z "$(git -C tarball status --porcelain)"
'

test_expect_success 'on a kernel tree a patch that fails after a failed one is blocked by it' '
	(cd tiny && git checkout -q -b s3 v6.12 &&
	 sed -i "s/^\tlru_note_cost(folio->lruvec, folio->file, folio->nr, 0);/\t\/* refault *\/\n&/" mm/swap.c &&
	 git commit -q -a -m "mm: mark the refault" &&
	 sed -i "s/^\t\/\* refault \*\//\t\/* a refault *\//" mm/swap.c &&
	 git commit -q -a -m "mm: word the refault mark" &&
	 git checkout -q mainline) &&
	series s3 &&
	(cd p && stablekit pull -m ../s3.mbox) >pull4.out 2>&1 &&
	cat >>p/stable/branches.conf <<-EOF &&
	[branch "vendor-61c"]
		ref = vendor-61
		base = v6.1
		version = 6.1
		kind = downstream
		select = mm-mark-the-refault
	EOF
	test_expect_code 1 port mm-mark-the-refault --branch vendor-61c >out &&
	grep "^  1\. FAILED  *mm: mark the refault$" out &&
	grep "^  2\. blocked  *mm: word the refault mark$" out &&
	grep "^       blocked by 1 (it does not apply without patch 1 either)$" out &&
	! test -e p/stable/vendor-61c/failed/mm-word-the-refault-mark.mail &&
	grep "^  patch 2 \"mm: word the refault mark\": blocked by 1" \
		p/stable/vendor-61c/failed/mm-mark-the-refault.mail
'

test_expect_success 'cleanup' '
	rm -rf "$SK_WORK"
'

test_done

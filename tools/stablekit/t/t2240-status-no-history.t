#!/bin/sh

test_description='stablekit status on trees without history: the code is the evidence

Each branch of the repository is one root commit, as a distribution
source package imported into git is: no commit proves a landing and no
Fixes: target can be found.  Series F fixes a commit the repository does
not have (Cc: stable); series R is a feature a downstream branch selects.
linux-6.1.y predates the code F fixes, linux-7.1.y and linux-7.2.y have
it, linux-7.3.y has F verbatim and R as a later revision.
'

. ./lib-stablekit.sh

F=mm-count-the-dying-memcgs-in-the-budget
R=mm-vmscan-add-the-scan-costs

W_OLD='int count(void)
{
	return state_local();
}

int other(void)
{
	return 0;
}'
W_BUG='int count(void)
{
	return lru_size();
}

int other(void)
{
	return 1;
}'
W_FIXED='int count(void)
{
	return lru_size() + dying_size();
}

int other(void)
{
	return min(1, budget());
}'
V_BASE='int scan(void)
{
	int cost = 0;
	return cost;
}'
V_LATER='int scan(void)
{
	int cost = 0;
	cost += anon_cost();
	cost += file_cost_monotonic();
	cost += slab_cost();
	return cost;
}'

# import BRANCH TAG W V: a root commit of mm/w.c and mm/v.c
import() {
	git -C linux checkout -q --orphan "$1" &&
	git -C linux rm -rfq --cached . >/dev/null 2>&1
	mkdir -p linux/mm &&
	printf "%s\n" "$3" >linux/mm/w.c &&
	printf "%s\n" "$4" >linux/mm/v.c &&
	git -C linux add mm &&
	git -C linux commit -q -m "Linux $2 (source package)" &&
	git -C linux tag "$2"
}

# cell PATCH BRANCH FIELD: from status.json
cell() {
	jq -r --arg p "$1" --arg b "$2" --arg f "$3" \
		'.patches[] | select(.id == $p) | .branches[$b][$f] |
		 if type == "array" then .[] else . end' status.json
}

test_expect_success 'setup: four imported trees, a project, F and R pulled' '
	git init -q linux &&
	import linux-6.1.y v6.1.9 "$W_OLD" "$V_BASE" &&
	import linux-7.1.y v7.1.8 "$W_BUG" "$V_BASE" &&
	import linux-7.2.y v7.2.13 "$W_BUG" "$V_BASE" &&
	import linux-7.3.y v7.3.4 "$W_FIXED" "$V_LATER" &&
	import linux-6.12.y v6.12.118 "$W_BUG" "$V_BASE" &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linux
	[branch "linux-6.1.y"]
		ref = linux-6.1.y
		base = v6.1.9
	[branch "linux-7.1.y"]
		ref = linux-7.1.y
		base = v7.1.8
	[branch "linux-7.2.y"]
		ref = linux-7.2.y
		base = v7.2.13
	[branch "linux-7.3.y"]
		ref = linux-7.3.y
		base = v7.3.4
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12.118
		kind = downstream
		select = $R
	EOF
	(cd p && stablekit pull -m "$SHARNESS_TEST_SRCDIR/t2240/fix.mbox" &&
	 stablekit pull -m "$SHARNESS_TEST_SRCDIR/t2240/feature.mbox") &&
	test -d p/series/$F && test -d p/series/$R
'

test_expect_success 'queues: F on 7.2.y (patch 2 edited), R on 6.12.y' '
	mkdir -p p/stable/linux-7.2.y p/stable/linux-6.12.y &&
	printf "%s\n" mm-count-the-dying-memcgs-in-the-budget.patch \
		mm-bound-the-budget.patch >p/stable/linux-7.2.y/series &&
	sed -n "/^Subject: \[PATCH 1\/2\]/,/^-- \$/p" \
		"$SHARNESS_TEST_SRCDIR/t2240/fix.mbox" |
		sed "s/^Subject: \[PATCH 1\/2\]/Subject:/" \
		>p/stable/linux-7.2.y/mm-count-the-dying-memcgs-in-the-budget.patch &&
	sed -n "/^Subject: \[PATCH 2\/2\]/,/^-- \$/p" \
		"$SHARNESS_TEST_SRCDIR/t2240/fix.mbox" |
		sed -e "s/^Subject: \[PATCH 2\/2\]/Subject:/" \
		    -e "s/min(1, budget())/min(2, budget())/" \
		>p/stable/linux-7.2.y/mm-bound-the-budget.patch &&
	echo mm-vmscan-add-the-scan-costs.patch >p/stable/linux-6.12.y/series &&
	sed -n "/^Subject:/,/^-- \$/p" "$SHARNESS_TEST_SRCDIR/t2240/feature.mbox" |
		sed "s/^Subject: \[PATCH\]/Subject:/" \
		>p/stable/linux-6.12.y/mm-vmscan-add-the-scan-costs.patch &&
	(cd p && stablekit status --json >../status.json)
'

test_expect_success 'by content: F reverse-applies on 7.3.y, present' '
	test "$(cell $F:1 linux-7.3.y state)" = present &&
	test "$(cell $F:2 linux-7.3.y state)" = present &&
	cell $F:1 linux-7.3.y evidence >ev &&
	grep "landed by content: the patch reverse-applies on linux-7.3.y (the series in order); the post-image of 1 of its 1 hunks in place" ev &&
	grep "mm/w.c#1 at 1: post-image" ev
'

test_expect_success 'Fixes: unresolvable, pre-image applies: needed, said why' '
	test "$(cell $F:1 linux-7.1.y state)" = needed &&
	test "$(cell $F:2 linux-7.1.y state)" = needed &&
	cell $F:1 linux-7.1.y evidence >ev &&
	grep "the code it fixes is in the branch (its pre-image applies)" ev &&
	grep "Fixes: 0badc0de1234 is unknown to the repository" ev &&
	grep "the fixed code is there: linux-7.1.y has no history" ev
'

test_expect_success 'Fixes: unresolvable, pre-image absent: not affected, with the hunks' '
	test "$(cell $F:1 linux-6.1.y state)" = "not affected" &&
	cell $F:1 linux-6.1.y evidence >ev &&
	grep "the code it fixes is not in the branch (its pre-image does not apply)" ev &&
	grep "mm/w.c#1: neither" ev &&
	test "$(cell $F:2 linux-6.1.y state)" = "not affected" &&
	! grep "not in the repository\"*$" ev
'

test_expect_success 'upstream by proxy: 7.3.y has F; none on 7.3.y itself' '
	cell $F:1 linux-7.1.y evidence >ev &&
	grep "upstream by proxy: linux-7.3.y, a newer stable tree, has it (landed by content)" ev &&
	test "$(cell $F:1 linux-7.1.y upstream_by_proxy)" = linux-7.3.y &&
	test "$(cell $F:1 linux-7.3.y upstream_by_proxy)" = null &&
	cell $F:1 linux-7.3.y evidence >ev &&
	! grep "upstream by proxy" ev &&
	cell $F:1 linux-6.1.y evidence >ev &&
	grep "upstream by proxy: linux-7.3.y" ev
'

test_expect_success 'a queue is compared with the newer stable tree: identical, or the interdiff' '
	test "$(cell $F:1 linux-7.2.y state)" = queued &&
	test "$(cell $F:1 linux-7.2.y differs_from_upstream)" = false &&
	cell $F:1 linux-7.2.y evidence >ev &&
	grep "the queued code is identical to linux-7.3.y.s copy (the reference backport)" ev &&
	test "$(cell $F:2 linux-7.2.y state)" = queued &&
	test "$(cell $F:2 linux-7.2.y differs_from_upstream)" = true &&
	cell $F:2 linux-7.2.y evidence >ev &&
	grep "the queued code differs from linux-7.3.y.s copy" ev &&
	grep -e "-.*return min(1, budget());" ev &&
	grep -e "+.*return min(2, budget());" ev
'

test_expect_success 'another revision: R on 7.3.y, with the interdiff' '
	test "$(cell $R:1 linux-7.3.y state)" = present &&
	cell $R:1 linux-7.3.y evidence >ev &&
	grep "landed as a later revision: linux-7.3.y has 2 of the stored revision.s 3 added lines" ev &&
	grep -e "-.*cost += file_cost();" ev &&
	grep -e "+.*cost += file_cost_monotonic();" ev &&
	grep "^    @@ -2,7 +2,7 @@ int scan(void)\$" ev &&
	! grep "^    [-+].*anon_cost" ev &&
	! grep "diff --git" ev
'

test_expect_success 'a downstream queue of R differs from what landed: flagged, interdiff' '
	test "$(cell $R:1 linux-6.12.y state)" = queued &&
	test "$(cell $R:1 linux-6.12.y differs_from_upstream)" = true &&
	cell $R:1 linux-6.12.y evidence >ev &&
	grep "differs from what landed upstream: linux-7.3.y, upstream by proxy" ev &&
	grep -e "+.*cost += file_cost_monotonic();" ev &&
	test "$(cell $R:1 linux-7.1.y state)" = "not eligible"
'

test_expect_success 'the text table and --why say the same' '
	(cd p && stablekit status --no-color >../out) &&
	grep "^$F:1  *not affected  *needed  *queued  *present  *needed  " out &&
	grep "^$R:1  *not eligible  *not eligible  *not eligible  *present  *queued\*  " out &&
	grep "^$F:2  *not affected  *needed+1  *queued\*  *present  " out &&
	grep "^\*: queued, but not the code that landed upstream" out &&
	(cd p && stablekit status --why $F:1 linux-7.1.y >../why) &&
	grep "needed" why && grep "the fixed code is there" why
'

test_expect_success 'port: a Cc: stable fix not affected is skipped with its reason' '
	(cd p && stablekit port $F --branch linux-6.1.y >../port.out) &&
	grep "skipped.*mm: count the dying memcgs" port.out &&
	grep "not affected: the code it fixes is not in the branch (its pre-image does not apply)" port.out
'

test_expect_success 'port: a stable queue without a proven upstream sha gets Link: only' '
	(cd p && stablekit port $F --branch linux-7.1.y >../port.out) &&
	q=p/stable/linux-7.1.y/mm-count-the-dying-memcgs-in-the-budget.patch &&
	grep "^Link: https://lore.kernel.org/r/fix-1@example.org\$" $q &&
	! grep "upstream\\.\$" $q &&
	! grep "Upstream commit" $q &&
	test "$(grep -c "^Link:" $q)" = 1
'

test_expect_success 'an imported tree with commits on top: the code decides, not the missing history' '
	git -C linux checkout -q -b vendor-7.1.y linux-7.1.y &&
	mkdir -p linux/vendor &&
	echo "vendor build glue" >linux/vendor/README &&
	git -C linux add vendor &&
	git -C linux commit -q -m "vendor: build glue" &&
	git -C linux checkout -q -b vendor-6.1.y linux-6.1.y &&
	mkdir -p linux/vendor &&
	echo "vendor build glue" >linux/vendor/README &&
	git -C linux add vendor &&
	git -C linux commit -q -m "vendor: build glue" &&
	sk_new_project v &&
	cp -R p/series v/ &&
	cat >v/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linux
	[branch "vendor-7.1.y"]
		ref = vendor-7.1.y
		base = v7.1.8
	[branch "vendor-6.1.y"]
		ref = vendor-6.1.y
		base = v6.1.9
	EOF
	(cd v && stablekit status --json >../vendor.json) &&
	jq -r ".patches[] | select(.id == \"$F:1\") | .branches[\"vendor-7.1.y\"].evidence[]" vendor.json >ev &&
	grep "the code it fixes is in the branch (its pre-image applies)" ev &&
	grep "the fixed code is there: vendor-7.1.y has no history before its base (a root commit)" ev &&
	jq -r ".patches[] | select(.id == \"$F:1\") | .branches[\"vendor-6.1.y\"].state" vendor.json >state &&
	echo "not affected" >expect &&
	test_cmp expect state &&
	jq -r ".patches[] | select(.id == \"$F:1\") | .branches[\"vendor-6.1.y\"].evidence[]" vendor.json >ev &&
	grep "its pre-image does not apply" ev &&
	! grep "its Fixes: target is not in the repository" ev
'

test_done

#!/bin/sh

test_description='stablekit scan: what a stable branch is missing, by sha

The history (t/lib-scan-history.sh) is kernel-shaped: mainline with
Cc: stable (bounded by "# 6.1+" and "# 6.9+", and a noautosel opt-out),
Fixes: of commits before and after the branch point, a fix of a fix, a
Fixes: with an unknown sha and a quoted subject, a revert, a prerequisite
by lines and one by file; linux-6.1.y took one fix with -x, one reworded
(equal patch-id only), one as a stable backport ("commit X upstream.",
another patch-id) and one it reverted.  The scan is compared with what
git itself answers of the same commits (git log --grep, git cherry,
git patch-id --stable, git merge-base --is-ancestor), then port queues
what it found by sha and quilt pushes the queue with --fuzz=0.
'

. ./lib-stablekit.sh
. "$SHARNESS_TEST_SRCDIR/lib-scan-history.sh"

g() { git -C linux "$@"; }
gpid() { g show "$1" | git patch-id --stable | cut -c1-40; }

# field SHA KEY: a field of the scan's entry for a commit
field() {
	jq -r --arg c "$1" ".commits[] | select(.commit == \$c) | .$2" scan.json
}

# git_answer: the candidates of linux-6.1.y (6.1) and their states, by
# git's own commands, in mainline order: "<sha> <state>"
git_answer() {
	g cherry linux-6.1.y master v6.1 >cherry &&
	: >answer &&
	for c in $(g rev-list --reverse --no-merges v6.1..master); do
		msg=$(g log -1 --format=%B $c) &&
		cc=no &&
		if echo "$msg" | grep -q "^Cc:.*stable@\(vger\.\)\{0,1\}kernel\.org"
		then
			cc=yes
			bound=$(echo "$msg" | sed -n \
				"s/^Cc:.*stable@[^#]*# *v\{0,1\}\([0-9]*\.[0-9]*\).*/\1/p")
			if test -n "$bound" &&
			   test "$(printf "%s\n6.1\n" $bound | sort -V | head -n1)" != "$bound"
			then
				continue
			fi
		fi
		fx=$(echo "$msg" | sed -n "s/^Fixes: \([0-9a-f]*\) .*/\1/p")
		if test -n "$fx"; then
			t=$(g rev-parse -q --verify "$fx^{commit}") ||
			t=$(g log --format="%H%x09%s" v6.1..$c |
			    awk -F"\t" -v s="$(echo "$msg" |
				sed -n "s/^Fixes: [0-9a-f]* (\"\(.*\)\")$/\1/p")" \
			    "\$2 == s { print \$1 }" | head -n1)
			in=no
			if test -n "$t"; then
				g merge-base --is-ancestor $t linux-6.1.y && in=yes
				grep -q "^- $t" cherry && in=yes
				test -n "$(g log --format=%H --grep=$t v6.1..linux-6.1.y)" &&
					in=yes
				grep -q "^$t " answer && in=yes
			fi
			test $in = yes || continue
		elif test $cc = no; then
			continue
		fi
		# its state: referenced or equal patch-id, reverted here or upstream
		p=$(g log --format=%H --grep=$c v6.1..linux-6.1.y | tail -n1)
		grep -q "^- $c" cherry && test -z "$p" &&
		p=$(for b in $(g rev-list --no-merges v6.1..linux-6.1.y); do
			test "$(gpid $b)" = "$(gpid $c)" && echo $b; done | tail -n1)
		if test -n "$p" &&
		   test -n "$(g log --format=%H --grep="^This reverts commit $p" v6.1..linux-6.1.y)"
		then
			st="reverted here"
		elif test -n "$p"; then
			st=present
		elif test -n "$(g log --format=%H --grep="^This reverts commit $c" v6.1..master)"
		then
			st="reverted upstream"
		else
			st=new
		fi
		echo "$c $st" >>answer || return 1
	done
}

test_expect_success 'setup: kernel-shaped mainline and linux-6.1.y, a project' '
	scan_history_generate "$PWD/linux" &&
	. ./linux.shas &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../linux
		signoff = Stable Tester <tester@example.org>
	[branch "mainline"]
		ref = master
		base = v6.0
		kind = mainline
	[branch "linux-6.1.y"]
		ref = linux-6.1.y
		base = v6.1
	[branch "linux-6.9.y"]
		ref = linux-6.1.y
		base = v6.1
		version = 6.9
	EOF
	(cd p && stablekit scan --branch linux-6.1.y --json >../scan.json) &&
	git_answer &&
	test $(wc -l <answer) -gt 10
'

test_expect_success 'the candidates and their states are git'"'"'s answer, in mainline order' '
	jq -r ".commits[] | \"\(.commit) \(.state)\"" scan.json >actual &&
	test_cmp answer actual
'

test_expect_success 'the numbers: candidates, already present, new' '
	test "$(jq .numbers.candidates scan.json)" = $(wc -l <answer) &&
	test "$(jq .numbers.present scan.json)" = $(grep -c " present$" answer) &&
	test "$(jq .numbers.new scan.json)" = $(grep -c " new$" answer) &&
	test "$(jq .numbers.reverted scan.json)" = $(grep -c " reverted" answer) &&
	(cd p && stablekit scan --branch linux-6.1.y) >table &&
	tail -n1 table >last &&
	echo "14 candidates, 3 already present, 9 new, 2 reverted" >expect &&
	test_cmp expect last &&
	grep "^$(g rev-parse --short=12 $CC61)  new  *mm: b: fix the leak$" table
'

test_expect_success 'cherry-pick -x: present, by its reference' '
	g log -1 --format=%B $B_PICKX | grep "(cherry picked from commit $PICKX)" &&
	test "$(field $PICKX state)" = present &&
	test "$(field $PICKX present_as)" = $B_PICKX &&
	field $PICKX "evidence[0]" | grep "carries \"(cherry picked from commit $PICKX)\""
'

test_expect_success 'a pick reworded without reference: present by git patch-id --stable' '
	test "$(gpid $REWORD)" = "$(gpid $B_REWORD)" &&
	test "$(g log -1 --format=%s $REWORD)" != "$(g log -1 --format=%s $B_REWORD)" &&
	test -z "$(g log --format=%H --grep=$REWORD linux-6.1.y)" &&
	test "$(field $REWORD present_as)" = $B_REWORD &&
	field $REWORD "evidence[0]" | grep "has its patch-id $(gpid $REWORD | cut -c1-12)"
'

test_expect_success 'a stable backport with another patch-id: present by "commit X upstream."' '
	test "$(gpid $UPREF)" != "$(gpid $B_UPREF)" &&
	g cherry linux-6.1.y master v6.1 | grep "^+ $UPREF" &&
	test "$(field $UPREF state)" = present &&
	test "$(field $UPREF present_as)" = $B_UPREF &&
	field $UPREF "evidence[0]" | grep "carries \"commit $UPREF upstream.\""
'

test_expect_success 'reverted upstream and reverted on the branch, with the reverts' '
	g log -1 --format=%B $RGONE | grep "^This reverts commit $GONE" &&
	test "$(field $GONE state)" = "reverted upstream" &&
	test "$(field $GONE reverted_by)" = $RGONE &&
	g log -1 --format=%B $BR_UNDONE | grep "^This reverts commit $B_UNDONE" &&
	test "$(field $UNDONE state)" = "reverted here" &&
	test "$(field $UNDONE present_as)" = $B_UNDONE &&
	test "$(field $UNDONE reverted_by)" = $BR_UNDONE
'

test_expect_success 'not candidates: # 6.9+ on 6.1, noautosel, a Fixes: of what 6.1 lacks, no trailer' '
	! g merge-base --is-ancestor $FEAT linux-6.1.y &&
	for c in $CC69 $NOAUTO $FIXFEAT $FEAT $ADDG $HELPK; do
		test -z "$(field $c state)" || return 1
	done
'

test_expect_success 'the version bound: "# 6.9+" is a candidate for a 6.9 branch' '
	(cd p && stablekit scan --branch linux-6.9.y --json) >scan69.json &&
	jq -r ".commits[].commit" scan69.json | grep $CC69 &&
	jq -r ".commits[] | select(.commit == \"$CC69\") | .why[0]" scan69.json |
		grep "admits 6.9"
'

test_expect_success 'Fixes: resolved by ancestry, by the quoted subject, and through a pick' '
	g merge-base --is-ancestor $OLD1 linux-6.1.y &&
	field $FIXOLD "why[1]" | grep "$(g rev-parse --short=12 $OLD1).*is in the branch" &&
	test_must_fail g rev-parse -q --verify "0123456789ab^{commit}" &&
	field $BYSUBJ "why[1]" | grep "0123456789ab is unknown to the repository; by its quoted subject it is $(g rev-parse --short=12 $REWORD)" &&
	field $FIXRW "why[1]" | grep "which the branch has (present, as $(g rev-parse --short=12 $B_REWORD))"
'

test_expect_success 'a fix of a fix joins it: fixed later by, and a prerequisite' '
	g log -1 --format=%B $FIXFIX | grep "^Fixes: $(g rev-parse --short=12 $CC61)" &&
	test "$(field $CC61 "fixed_by[0]")" = $FIXFIX &&
	test "$(field $FIXFIX "prerequisites[0].commit")" = $CC61 &&
	field $FIXFIX "prerequisites[0].why" | grep "it fixes"
'

test_expect_success 'prerequisites: an earlier new commit on the same lines, a file the branch lacks' '
	g diff $PREP^ $PREP -- mm/a.c | grep "^+a: pool lock reworked" &&
	g diff -U0 $NEEDP^ $NEEDP | grep "^@@ -21 +21 @@" &&
	test "$(field $NEEDP "prerequisites[0].commit")" = $PREP &&
	field $NEEDP "prerequisites[0].why" | grep "changed the lines of mm/a.c" &&
	test_must_fail g cat-file -e linux-6.1.y:drivers/g.c &&
	test "$(g log --format=%H --diff-filter=A v6.1..master -- drivers/g.c)" = $ADDG &&
	test "$(field $NEEDG "prerequisites[0].commit")" = $ADDG &&
	field $NEEDG "prerequisites[0].why" | grep "the branch lacks drivers/g.c" &&
	test "$(field $CC61 "prerequisites | length")" = 0 &&
	test "$(field $PREP "prerequisites | length")" = 0
'

test_expect_success 'a prerequisite named in the Cc: stable line ("# 6.1.x: <sha>: ...")' '
	g log -1 --format=%B $USEK | grep "^Cc: .*# 6.1.x: $(g rev-parse --short=12 $HELPK): " &&
	test_must_fail g merge-base --is-ancestor $HELPK linux-6.1.y &&
	g cherry linux-6.1.y master v6.1 | grep "^+ $HELPK" &&
	test "$(field $USEK state)" = new &&
	test "$(field $USEK "prerequisites[0].commit")" = $HELPK &&
	field $USEK "prerequisites[0].why" | grep "its Cc: stable line names"
'

test_expect_success 'a branch that merged mainline has those commits by ancestry' '
	g checkout -q -b down linux-6.1.y &&
	g merge -q --no-edit $CC61 >/dev/null &&
	g checkout -q master &&
	g merge-base --is-ancestor $CC61 down &&
	cat >>p/stable/branches.conf <<-EOF &&
	[branch "down"]
		ref = down
		base = v6.1
		version = 6.1
		kind = downstream
	EOF
	(cd p && stablekit scan --branch down --json) >down.json &&
	jq -r ".commits[] | select(.commit == \"$CC61\") | .state, .present_as, .evidence[0]" down.json >out &&
	printf "present\n%s\n%s itself is in the branch'"'"'s history\n" $CC61 \
		$(g rev-parse --short=12 $CC61) >expect &&
	test_cmp expect out &&
	test "$(jq -r ".commits[] | select(.commit == \"$FIXFIX\") | .state" down.json)" = new
'

test_expect_success 'a base that mainline lacks (a stable tag): since the merge-base, as --since it' '
	test "$(jq -r .since_how scan.json)" = "base v6.1" &&
	g checkout -q -b rel v6.1 &&
	g commit -q --allow-empty -m "Linux 6.1.1" &&
	g tag v6.1.1 &&
	g cherry-pick --allow-empty v6.1..linux-6.1.y >/dev/null &&
	g checkout -q master &&
	test_must_fail g merge-base --is-ancestor v6.1.1 master &&
	cat >>p/stable/branches.conf <<-EOF &&
	[branch "rel"]
		ref = rel
		base = v6.1.1
		version = 6.1
	EOF
	(cd p && stablekit scan --branch rel --json) >rel.json &&
	test "$(jq -r .since_how rel.json)" = merge-base &&
	test "$(jq -r .since rel.json)" = "$(g rev-parse v6.1)" &&
	(cd p && stablekit scan --branch rel --since v6.1 --json) >rel-since.json &&
	jq -r ".commits[] | \"\(.commit) \(.state)\"" rel.json >actual &&
	jq -r ".commits[] | \"\(.commit) \(.state)\"" rel-since.json >expect &&
	test $(wc -l <actual) -gt 10 &&
	test_cmp expect actual
'

test_expect_success '--since: only what mainline has after it, as git rev-list says' '
	(cd p && stablekit scan --branch linux-6.1.y --since $UPREF --json) >since.json &&
	g rev-list --reverse $UPREF..master >after &&
	jq -r ".commits[].commit" since.json >listed &&
	test -s listed &&
	! grep $CC61 listed &&
	while read c; do grep -q $c after || return 1; done <listed &&
	test "$(jq -r .since_how since.json)" = "--since $UPREF"
'

test_expect_success 'help scan shows the manual page; scan -h the usage' '
	stablekit help scan >out &&
	grep "^STABLEKIT-SCAN(1)" out &&
	grep "reverted upstream" out &&
	(cd p && stablekit scan -h) >out 2>&1 &&
	grep "stablekit scan --branch <branch>" out
'

test_expect_success 'bad input: an unknown branch, revision or option is named, exit 129' '
	(cd p && test_expect_code 129 stablekit scan --branch linux-9.9.y) 2>err &&
	grep "linux-9.9.y" err && grep "linux-6.1.y" err &&
	(cd p && test_expect_code 129 stablekit scan --branch linux-6.1.y --since nosuchrev) 2>err &&
	grep "nosuchrev" err &&
	(cd p && test_expect_code 129 stablekit scan) 2>err &&
	(cd p && test_expect_code 128 stablekit scan --branch mainline) 2>err &&
	grep "mainline.*scan a stable branch" err
'

# qname COMMIT: the queue file port names a commit's patch
qname() {
	echo "$(g log -1 --format=%s $1 | tr A-Z a-z |
		sed "s/[^a-z0-9_][^a-z0-9_]*/-/g; s/^-//; s/-\$//").patch"
}

test_expect_success 'port --from-scan: the new commits in mainline order, "commit X upstream." first' '
	(cd p && stablekit port --from-scan --branch linux-6.1.y) >port.out &&
	for c in $(sed -n "s/ new$//p" answer); do
		test $c = $NEEDG && qname $ADDG
		test $c = $USEK && qname $HELPK
		qname $c || return 1
	done >expect &&
	sed -n "2,\$p" p/stable/linux-6.1.y/series >queued &&
	test_cmp expect queued &&
	head -n1 p/stable/linux-6.1.y/series | grep "^# upstream-commits$" &&
	f=p/stable/linux-6.1.y/$(qname $FIXFIX) &&
	test "$(sed -n 1p $f)" = "From: $(g log -1 --format="%an <%ae>" $FIXFIX)" &&
	test "$(sed -n 3p $f)" = "Subject: $(g log -1 --format=%s $FIXFIX)" &&
	test "$(sed -n 5p $f)" = "commit $FIXFIX upstream." &&
	grep "^Fixes: $(g rev-parse --short=12 $CC61)" $f &&
	grep "^Signed-off-by: Stable Tester <tester@example.org>$" $f
'

test_expect_success 'port --from-scan: a prerequisite no candidate comes along, with Stable-dep-of' '
	f=p/stable/linux-6.1.y/$(qname $ADDG) &&
	test "$(sed -n 5p $f)" = "commit $ADDG upstream." &&
	grep "^Stable-dep-of: $(g rev-parse --short=12 $NEEDG) (\"drivers: g: fix the helper\")$" $f &&
	grep "taken as a dependency of patch" port.out
'

test_expect_success 'the queue pushes with quilt --fuzz=0 on the branch, and carries the fixes' '
	mkdir tree &&
	g archive linux-6.1.y | tar -x -C tree &&
	(cd tree && QUILT_PATCHES=../p/stable/linux-6.1.y quilt push -a --fuzz=0) &&
	test "$(sed -n 11p tree/mm/b.c)" = "b: and the other leak" &&
	test "$(sed -n 21p tree/mm/a.c)" = "a: pool lock fixed" &&
	test "$(sed -n 10p tree/drivers/g.c)" = "g: helper fixed"
'

test_expect_success 'port <sha> without its prerequisite: FAILED mail, exit 1, nothing queued' '
	(cd p && test_expect_code 1 stablekit port $NEEDG --branch linux-6.1.y) >port2.out &&
	grep "FAILED .*drivers: g: fix the helper" port2.out &&
	grep "drivers/g.c does not exist" port2.out &&
	grep "drivers/g.c" p/stable/linux-6.1.y/failed/$(qname $NEEDG | sed "s/patch$/mail/") &&
	! grep "\.patch$" p/stable/linux-6.1.y/series
'

test_expect_success 'port <sha>...: given out of order, queued in mainline order' '
	(cd p && stablekit port $NEEDG $ADDG --branch linux-6.1.y) >port3.out &&
	{ echo "# upstream-commits" && qname $ADDG && qname $NEEDG; } >expect &&
	test_cmp expect p/stable/linux-6.1.y/series &&
	grep "^commit $ADDG upstream.$" p/stable/linux-6.1.y/$(qname $ADDG) &&
	! grep "Stable-dep-of" p/stable/linux-6.1.y/$(qname $ADDG) &&
	rm -rf tree && mkdir tree && g archive linux-6.1.y | tar -x -C tree &&
	(cd tree && QUILT_PATCHES=../p/stable/linux-6.1.y quilt push -a --fuzz=0) &&
	test "$(sed -n 10p tree/drivers/g.c)" = "g: helper fixed"
'

test_expect_success 'port of a revision that is no commit: exit 129, the queue untouched' '
	cp p/stable/linux-6.1.y/series series.before &&
	(cd p && test_expect_code 129 stablekit port $ADDG nosuchrev --branch linux-6.1.y) 2>err &&
	grep "nosuchrev.*is not a commit" err &&
	test_cmp series.before p/stable/linux-6.1.y/series
'

test_expect_success 'port --from-scan with nothing new: says so, the queue untouched' '
	cp p/stable/linux-6.1.y/series series.before &&
	(cd p && stablekit port --from-scan --since master --branch linux-6.1.y) >out &&
	grep "the scan found nothing new" out &&
	(cd p && stablekit port --from-scan --since master --branch linux-6.1.y --json) >out &&
	echo "[]" >expect && test_cmp expect out &&
	test_cmp series.before p/stable/linux-6.1.y/series
'

test_done

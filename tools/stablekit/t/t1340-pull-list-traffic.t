#!/bin/sh

test_description='stablekit pull: real list traffic that broke it

Whole threads from the cgroups list archive (corpus/threads, message-ids
in corpus/README.md), each pulled and, where b4 reads the thread offline,
compared with "b4 am -t" on the same file: the same patches (git patch-id
--stable), the same Acked-by/Reviewed-by/Tested-by per patch.
'

. ./lib-stablekit.sh

T="$SHARNESS_TEST_DIRECTORY/corpus/threads"

conf() { git config -f "$1/series/$2/series.conf" "$3"; }

# b4_am FILE MSGID: b4's am-ready mbox of the thread, one file per patch
# in split/ (0001, 0002 ...).
b4_am() {
	rm -rf b4 split && mkdir b4 split &&
	b4 --offline-mode am -t --use-local-mbox "$1" -o b4 "$2" >b4.log 2>&1 &&
	git mailsplit -osplit b4/*.mbx >/dev/null
}

# review_trailers: "acked-by Name <addr>" lines, sorted
review_trailers() {
	grep -E "^(Acked|Reviewed|Tested)-by: " |
	sed -E "s/^([A-Za-z-]+): /\L\1 /" | sort
}

# same_as_b4 PROJECT SLUG REV: each stored patch is b4's, with b4's trailers
same_as_b4() {
	n=$(ls split | wc -l) &&
	test "$(conf "$1" "$2" revision.$3.patches)" = "$n" &&
	i=1 &&
	while test $i -le $n; do
		f=split/$(printf %04d $i) &&
		git patch-id --stable <$f | cut -d" " -f1 >expect &&
		conf "$1" "$2" patch.$3.$i.patch-id >actual &&
		test_cmp expect actual &&
		review_trailers <$f >expect &&
		git config -f "$1/series/$2/series.conf" --get-regexp \
			"^patch\.$3\.$i\.(acked|reviewed|tested)-by\$" |
			sed "s/^patch\.$3\.$i\.//" | sort >actual &&
		test_cmp expect actual || return 1
		i=$((i + 1))
	done
}

DYING=memcg-bail-out-reclaim-when-memcg-is-dying
DYING_COVER=20260630012909.144372-1-jiayuan.chen@linux.dev

test_expect_success 'an Acked-by given to the cover letter is given to every patch, as b4 am -t does' '
	sk_new_project p1 &&
	stablekit -C p1 pull -m "$T/memcg-dying-v2-cover-ack.mbox" >out &&
	grep "^$DYING: v2, 4 patches (new series)$" out &&
	for i in 1 2 3 4; do
		test "$(conf p1 $DYING patch.2.$i.acked-by)" = "Johannes Weiner <hannes@cmpxchg.org>" || return 1
	done &&
	b4_am "$T/memcg-dying-v2-cover-ack.mbox" $DYING_COVER &&
	test $(cat b4/*.mbx | review_trailers | wc -l) = 4 &&
	same_as_b4 p1 $DYING 2
'

SWAP=mm-swap_cgroup-fix-kernel-bug-in-swap_cgroup_record
SWAP_REPLY=CAMgjq7CMsAMZZJL1=a=EtfWCOuDFE62RKR_0hUdPC4H+QF5GfQ@mail.gmail.com

test_expect_success 'a reply whose inline diff the mailer wrapped: warned about by name, the series pulled' '
	sk_new_project p2 &&
	stablekit -C p2 pull -m "$T/swap-cgroup-wrapped-reply-diff.mbox" >out 2>err &&
	grep "^$SWAP: v1, 1 patch (new series)$" out &&
	grep "^warning: reply <$SWAP_REPLY> .Re: \[PATCH\] mm/swap_cgroup: fix kernel BUG in swap_cgroup_record. (.*swap-cgroup-wrapped-reply-diff.mbox:[0-9]*): its diff does not parse, not taken as a fixlet: .*truncated patch" err &&
	test -z "$(conf p2 $SWAP patch.1.1.fixlet)" &&
	! ls p2/series/$SWAP/*.fixlets.mbx &&
	b4_am "$T/swap-cgroup-wrapped-reply-diff.mbox" 20260110064613.606532-1-kartikey406@gmail.com &&
	same_as_b4 p2 $SWAP 1
'

MUTEX=cgroup-fix-compilation-issue-due-to-cgroup_mutex-not
MUTEX_ID=5df9200f0e7c4bc586af76e21b380f67@honor.com

# b4 0.12 cannot read this thread (it dies on the folded Subject of the
# reply), so the patch-id is computed from the mail itself.
test_expect_success 'a base64 body with CRLF line ends reads like LF (Outlook, honor.com)' '
	sk_new_project p4 &&
	stablekit -C p4 pull -m "$T/cgroup-mutex-v2-base64-crlf.mbox" $MUTEX_ID >out &&
	grep "^$MUTEX: v2, 1 patch (new series)$" out &&
	test "$(conf p4 $MUTEX patch.2.1.file)" = kernel/cgroup/cgroup.c &&
	! grep -q "$(printf "\r")" p4/series/$MUTEX/v2.mbx &&
	awk "/^From mboxrd/ { n++ } n == 1" "$T/cgroup-mutex-v2-base64-crlf.mbox" |
		sed "1,/^\$/d" | base64 -d | tr -d "\r" |
		git patch-id --stable | cut -d" " -f1 >expect &&
	conf p4 $MUTEX patch.2.1.patch-id >actual &&
	test_cmp expect actual &&
	git patch-id --stable <p4/series/$MUTEX/v2.mbx | cut -d" " -f1 >actual &&
	test_cmp expect actual
'

test_expect_success 'an error naming a path never prints its control characters raw' '
	sk_new_project p4b &&
	esc=$(printf "\033") &&
	{
		printf "From mboxrd@z Thu Jan  1 00:00:00 1970\n" &&
		printf "From: A <a@example.org>\nSubject: [PATCH] x: y\n" &&
		printf "Message-Id: <esc@example.org>\nDate: Mon, 1 Jun 2026 00:00:00 +0000\n\n" &&
		printf "x\n\nSigned-off-by: A <a@example.org>\n---\n" &&
		printf "diff --git a/x${esc}[2J b/x${esc}[2J\n--- a/x${esc}[2J\n+++ b/x${esc}[2J\n" &&
		printf "@@ -1 +1 @@\n-a\n+b\n"
	} >esc.mbox &&
	test_expect_code 128 stablekit -C p4b pull -m "$PWD/esc.mbox" 2>err &&
	grep "x\\\\x1b\[2J" err &&
	! grep -q "$esc" err
'

CPUSET=cgroup-cpuset-support-multiple-source-destination

test_expect_success 'a follow-up [PATCH-next v6 7/6] is stored as an addition to v6, as b4 takes it' '
	sk_new_project p6 &&
	stablekit -C p6 pull -v -m "$T/cpuset-v6-7-of-6.mbox" >out 2>err &&
	grep "^$CPUSET: v6, 7 patches (new series)$" out &&
	grep "^pull: patch 7/6 .cgroup/cpuset: Set old_mems_allowed from guarantee_online_mems() consistently.: added to the revision after it was posted$" err &&
	test "$(conf p6 $CPUSET patch.6.7.message-id)" = 20260605000224.451246-1-longman@redhat.com &&
	grep "^Subject: \[PATCH v6 7/6\] " p6/series/$CPUSET/v6.mbx &&
	grep "^Subject: \[PATCH v6 1/6\] " p6/series/$CPUSET/v6.mbx &&
	b4_am "$T/cpuset-v6-7-of-6.mbox" 20260604150229.414135-1-longman@redhat.com &&
	same_as_b4 p6 $CPUSET 6
'

test_expect_success 'the stored mails keep the sender'"'"'s signature (git 2.54.0), as b4 does' '
	grep --no-group-separator -A1 "^-- \$" b4/*.mbx | grep -v "^-- \$" >expect &&
	test $(wc -l <expect) = 7 &&
	awk "/^Subject: \[PATCH v6 [1-9]/ { p = 1 } p" p6/series/$CPUSET/v6.mbx |
		grep --no-group-separator -A1 "^-- \$" | grep -v "^-- \$" >actual &&
	test_cmp expect actual &&
	! grep "^2\.39\.5\$" p6/series/$CPUSET/v6.mbx
'

PSI66=sched-psi-fix-race-in-pressure_write-cve-2026-52991
PSI66_2=20260715084256.43412-3-lulie@linux.alibaba.com

test_expect_success "an author's [PATCH 6.6.y 0/2] backport: 2/2's message-id pulls the whole revision" '
	sk_new_project p7 &&
	stablekit -C p7 pull -m "$T/psi-6.6.y-backport.mbox" $PSI66_2 >out &&
	grep "^$PSI66: v1, 2 patches (new series)$" out &&
	test "$(conf p7 $PSI66 revision.1.message-id)" = 20260715084256.43412-1-lulie@linux.alibaba.com &&
	test "$(conf p7 $PSI66 patch.1.1.upstream)" = 94a4acfec14615e971eb2c9e1fa6c992c85ff6c6 &&
	test "$(conf p7 $PSI66 patch.1.2.upstream)" = a5b98009f16d8a5fb4a8ff9a193f5735515c38fa &&
	test "$(conf p7 $PSI66 series.kind || echo series)" = series &&
	b4_am "$T/psi-6.6.y-backport.mbox" $PSI66_2 &&
	same_as_b4 p7 $PSI66 1
'

test_expect_success "the backport without a message-id: the thread with its cover, no listing" '
	sk_new_project p7b &&
	stablekit -C p7b pull -m "$T/psi-6.6.y-backport.mbox" >out 2>err &&
	grep "^$PSI66: v1, 2 patches (new series)$" out &&
	! grep "each a series of its own" err
'

test_expect_success 'a stable review thread still gives each review patch its own series' '
	sk_new_project p7c &&
	test_expect_code 129 stablekit -C p7c pull -m "$T/6.12.49-rc1-partial-review.mbox" 2>err &&
	grep "stable mails, each a series of its own" err
'

PSET=sched-psi-fix-psimon-fork-deadlock-and-rtpoll_timer

test_expect_success 'a [PATCHSET v2] cover without a counter is the cover of v2' '
	sk_new_project ps &&
	stablekit -C ps pull -m "$T/psi-patchset-v2.mbox" >out &&
	grep "^$PSET: v2, 2 patches (new series)$" out &&
	test "$(conf ps $PSET revision.2.message-id)" = 20260712174619.3553231-1-tj@kernel.org &&
	b4_am "$T/psi-patchset-v2.mbox" 20260712174619.3553231-1-tj@kernel.org &&
	ls b4/v2_* &&
	same_as_b4 ps $PSET 2
'

THP=split-a-folio-to-any-lower-order-folios
THP5=20240226205534.1603748-1-zi.yan@sent.com

# fixlets PROJECT REV PATCH: the message-ids of a patch's stored fixlets
fixlets() {
	git config -f "$1/series/$THP/series.conf" --get-regexp \
		"^fixlet\.$2\.$3\.[0-9]*\.message-id\$" | cut -d" " -f2
}

test_expect_success 'a fixlet sent again, corrected, replaces the earlier version; other fixlets stay' '
	sk_new_project fx &&
	stablekit -C fx pull -m "$T/thp-split-v5-fixlet-versions.mbox" $THP5 >out 2>err &&
	grep "^$THP: v5, 8 patches + 4 fixlets (new series)$" out &&
	for old in A111EB95 7E498B77 0685EC19; do
		grep "^warning: patch 8: fixlet <$old-[-0-9A-F]*@nvidia.com> replaced by its later version" err || return 1
	done &&
	test $(grep -c "replaced by its later version" err) = 3 &&
	printf "%s\n" 262E4DAA-4A78-4328-B745-1355AE356A07@nvidia.com \
		C9E1C776-3861-40EB-A0DC-E2B849F9EF9A@nvidia.com >expect &&
	fixlets fx 5 8 >actual &&
	test_cmp expect actual &&
	printf "%s\n" 494F48CD-1F0F-4CAD-884E-6D48F40AF990@nvidia.com \
		FD2D17E1-5B18-4342-8692-FCE2FA774895@nvidia.com >expect &&
	fixlets fx 5 7 >actual &&
	test_cmp expect actual &&
	test $(grep -c "^Subject: \[PATCH\] \[fixlet\]" fx/series/$THP/v5.fixlets.mbx) = 4 &&
	b4_am "$T/thp-split-v5-fixlet-versions.mbox" $THP5 &&
	same_as_b4 fx $THP 5
'

test_expect_success 'a stored fixlet is replaced when a later copy of the thread brings its new version' '
	sk_new_project fx2 &&
	perl -0777 -ne "for (split /(?=^From mboxrd\@z )/m) { print unless /^Message-I[dD]: <(7E498B77|0685EC19|262E4DAA)/mi }" \
		"$T/thp-split-v5-fixlet-versions.mbox" >early.mbox &&
	stablekit -C fx2 pull -m "$PWD/early.mbox" $THP5 >out &&
	grep "^$THP: v5, 8 patches + 4 fixlets (new series)$" out &&
	fixlets fx2 5 8 >first &&
	grep "^A111EB95-" first &&
	stablekit -C fx2 pull -m "$T/thp-split-v5-fixlet-versions.mbox" $THP5 >out 2>err &&
	grep "fixlet <A111EB95-0AF5-4715-82A4-70B8AD900A93@nvidia.com> replaced by its later version" err &&
	printf "%s\n" 262E4DAA-4A78-4328-B745-1355AE356A07@nvidia.com \
		C9E1C776-3861-40EB-A0DC-E2B849F9EF9A@nvidia.com >expect &&
	fixlets fx2 5 8 | sort >actual &&
	sort expect >expect.sorted &&
	test_cmp expect.sorted actual
'

test_expect_success 'the second of two sketches of the same change ("Actually this") is the one kept' '
	sk_new_project fx3 &&
	stablekit -C fx3 pull -m "$T/thp-split-v4-fixlet-versions.mbox" \
		20240213215520.1048625-1-zi.yan@sent.com >out 2>err &&
	grep "^$THP: v4, 7 patches + 1 fixlet (new series)$" out &&
	grep "^warning: patch 5: fixlet <0A9F291F-E6B3-48C0-A2B5-3C893F02AE1D@nvidia.com> replaced by its later version <5CF2076E-E56F-4E79-AD95-F58111A623C7@nvidia.com>" err &&
	test "$(fixlets fx3 4 5)" = 5CF2076E-E56F-4E79-AD95-F58111A623C7@nvidia.com
'

test_done

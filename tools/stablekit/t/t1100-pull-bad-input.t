#!/bin/sh

test_description='stablekit pull rejects bad input clearly and writes nothing half-done'

. ./lib-stablekit.sh

B=mm-workingset-fix-the-shadow-node-budget-under-mglru
SEED="$SK_SEEDS/shadow-node-budget-mglru.v3.mbox"
REENCODE="$SHARNESS_TEST_DIRECTORY/t1100/reencode-mbox"

# pull must fail with exit 128, name the input, and leave series/ empty
pull_fails() {
	test_expect_code 128 stablekit -C p pull -m "$PWD/$1" 2>err &&
	grep "$2" err &&
	test_must_be_empty_dir p/series
}

test_must_be_empty_dir() {
	test -z "$(ls -A "$1")" || {
		echo "not empty: $1"; ls -la "$1"; false
	}
}

test_expect_success 'setup' '
	sk_new_project p
'

test_expect_success 'an empty file' '
	: >empty.mbox &&
	pull_fails empty.mbox "empty.mbox: empty file"
'

test_expect_success 'a file that is not an mbox' '
	echo "hello world, not mail" >text.mbox &&
	pull_fails text.mbox "text.mbox:1: not an mbox"
'

test_expect_success 'a Message-Id with a byte outside printable ASCII' '
	printf "From x Mon Sep 17 00:00:00 2001\nFrom: A <a@example.org>\nSubject: [PATCH] mm: x\nMessage-Id: <c@\333x\201@example.org>\r\n\nbody\n" >latin1-msgid.mbox &&
	pull_fails latin1-msgid.mbox "latin1-msgid.mbox:4: byte 0xdb in the Message-Id header"
'

test_expect_success 'a patch truncated inside a hunk names the line' '
	head -n 150 "$SEED" >trunc.mbox &&
	pull_fails trunc.mbox "trunc.mbox:151: truncated patch: the hunk at line 142"
'

test_expect_success 'a series cut short (patches missing) is not stored' '
	awk "/^From mboxrd@z/{n++} n<=3" "$SEED" >short.mbox &&
	pull_fails short.mbox "short.mbox: incomplete series, missing patch 2/3 3/3"
'

test_expect_success 'a [PATCH] mail without a diff' '
	cat >nodiff.mbox <<-\EOF &&
	From x Mon Sep 17 00:00:00 2001
	From: A U Thor <author@example.org>
	Date: Mon, 5 Jan 2026 10:00:00 +0000
	Subject: [PATCH] mm: words only
	Message-Id: <nodiff@example.org>

	Just words, no diff.
	EOF
	pull_fails nodiff.mbox "nodiff.mbox:2: mail .\[PATCH\] mm: words only. carries no diff"
'

test_expect_success 'a diff that climbs out of the tree with ../' '
	sed "s|a/mm/workingset.c|a/../../etc/passwd|" "$SEED" >dotdot.mbox &&
	pull_fails dotdot.mbox "dotdot.mbox:327: unsafe path"
'

test_expect_success 'a diff with an absolute path' '
	sed "s|^+++ b/mm/workingset.c|+++ /etc/passwd|" "$SEED" >abs.mbox &&
	pull_fails abs.mbox "abs.mbox:330: unsafe path ./etc/passwd."
'

test_expect_success 'a diff that writes into .git/' '
	sed "s|b/mm/workingset.c|b/.git/hooks/post-checkout|" "$SEED" >hook.mbox &&
	pull_fails hook.mbox "hook.mbox:327: unsafe path"
'

test_expect_success 'CRLF line ends are read like LF ones (same patch-ids)' '
	stablekit -C p pull -m "$SEED" --name lf >/dev/null 2>&1 &&
	sed "s/\$/\r/" "$SEED" >crlf.mbox &&
	stablekit -C p pull -m "$PWD/crlf.mbox" --name crlf >/dev/null 2>&1 &&
	git config -f p/series/lf/series.conf --get-regexp "patch-id" >expect &&
	git config -f p/series/crlf/series.conf --get-regexp "patch-id" >actual &&
	test_cmp expect actual
'

for enc in qp base64
do
	test_expect_success "$enc bodies are decoded (same patch-ids, same trailers)" '
		"$REENCODE" $enc "$SEED" $enc.mbox &&
		stablekit -C p pull -m "$PWD/$enc.mbox" --name $enc >/dev/null 2>&1 &&
		git config -f p/series/lf/series.conf --get-regexp "patch-id|fixes|acked-by" >expect &&
		git config -f p/series/$enc/series.conf --get-regexp "patch-id|fixes|acked-by" >actual &&
		test_cmp expect actual
	'
done

test_expect_success 'raw ISO-8859-1 header bytes are converted to UTF-8' '
	"$REENCODE" latin1 "$SEED" latin1.mbox &&
	stablekit -C p pull -m "$PWD/latin1.mbox" --name latin1 >/dev/null 2>&1 &&
	test "$(git config -f p/series/latin1/series.conf series.author)" = \
		"Hüi Zhü <hui.zhu@linux.dev>"
'

test_expect_success 'RFC 2047 encoded words, folded, are decoded' '
	"$REENCODE" rfc2047 "$SEED" rfc2047.mbox &&
	stablekit -C p pull -m "$PWD/rfc2047.mbox" --name rfc2047 >/dev/null 2>&1 &&
	test "$(git config -f p/series/rfc2047/series.conf series.author)" = \
		"Hüi Zhü <hui.zhu@linux.dev>" &&
	test "$(git config -f p/series/rfc2047/series.conf patch.3.3.subject)" = \
		"mm: memcg: skip the RCU lock when the memcg is not dying"
'

test_expect_success 'a subject with shell metacharacters and slashes stays data' '
	sk_new_project q &&
	sed -e "s|^Subject: \[PATCH v3 3/3\].*|Subject: [PATCH v3 3/3] mm: \$(touch pwned); rm -rf / \&\& \`touch pwned2\` \| a/b|" \
	    -e "s|^Subject: \[PATCH v3 0/3\].*|Subject: [PATCH v3 0/3] ../../mm: \$(touch pwned) a/b|" \
		"$SEED" >meta.mbox &&
	(cd q && stablekit pull -m "$PWD/../meta.mbox" >../out 2>/dev/null) &&
	! test -e pwned && ! test -e q/pwned && ! test -e pwned2 &&
	ls q/series >names &&
	echo mm-touch-pwned-a-b >expect &&
	test_cmp expect names &&
	grep -F "\$(touch pwned); rm -rf / && \`touch pwned2\` | a/b" \
		q/series/mm-touch-pwned-a-b/series.conf
'

test_expect_success 'a 50 MB mbox: the series is found among the chatter' '
	sk_new_project big &&
	python3 -c "
import sys
filler = \"an unrelated discussion line that makes the archive large\n\" * 800
out = open(\"big.mbox\", \"w\")
for i in range(1150):
    out.write(\"From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: Someone <else@example.org>\n\"
              \"Date: Thu, 3 Sep 2026 10:00:00 +0000\nSubject: Re: other thread %d\n\"
              \"Message-Id: <filler-%d@example.org>\n\n%s\n\" % (i, i, filler))
out.write(open(sys.argv[1]).read())
" "$SEED" &&
	test $(wc -c <big.mbox) -gt 50000000 &&
	stablekit -C big pull -m "$PWD/big.mbox" 20260904094555.2871043-1-hui.zhu@linux.dev >out 2>/dev/null &&
	grep "^$B: v3, 3 patches (new series)" out
'

test_expect_success 'a maildir is read like an mbox' '
	sk_new_project md &&
	mkdir -p maildir/cur maildir/new maildir/tmp &&
	(cd maildir/cur && awk "/^From mboxrd@z/{n++} {print > sprintf(\"%03d\", n)}" "$SEED") &&
	stablekit -C md pull -m "$PWD/maildir" >out 2>/dev/null &&
	grep "^$B: v3, 3 patches (new series)" out
'

test_done

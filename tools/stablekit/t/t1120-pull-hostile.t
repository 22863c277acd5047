#!/bin/sh

test_description='stablekit pull and series under hostile input: names, headers, series.conf'

. ./lib-stablekit.sh

SEED="$SK_SEEDS/shadow-node-budget-mglru.v3.mbox"
B=mm-workingset-fix-the-shadow-node-budget-under-mglru

test_must_be_empty_dir() {
	test -z "$(ls -A "$1")" || {
		echo "not empty: $1"; ls -la "$1"; false
	}
}

# b4 as installed, but the thread we hand it is kept in to-b4.mbx.
test_expect_success 'setup: a project, and b4 that keeps its input' '
	sk_new_project p &&
	mkdir bin &&
	real=$(command -v b4) &&
	cat >bin/b4 <<-EOF &&
	#!/bin/sh
	prev=
	for a; do
		test "\$prev" = --use-local-mbox && cp "\$a" "$PWD/to-b4.mbx"
		prev=\$a
	done
	exec "$real" "\$@"
	EOF
	chmod +x bin/b4
'

test_expect_success 'pull --name ../../x writes nothing, outside or inside' '
	mkdir -p deep/er &&
	sk_new_project deep/er/q &&
	test_expect_code 128 stablekit -C deep/er/q pull -m "$SEED" \
		--name ../../x 2>err &&
	grep "error: series name .\.\./\.\./x. has a character other than" err &&
	test_must_be_empty_dir deep/er/q/series &&
	! test -e deep/x && ! test -e deep/er/x
'

test_expect_success 'pull --name .hidden is refused' '
	test_expect_code 128 stablekit -C p pull -m "$SEED" --name .hidden 2>err &&
	grep "series name .\.hidden. starts with .\.." err &&
	test_must_be_empty_dir p/series
'

test_expect_success 'pull --name with a slash or ending in .lock is refused' '
	test_expect_code 128 stablekit -C p pull -m "$SEED" --name a/b 2>err &&
	test_expect_code 128 stablekit -C p pull -m "$SEED" --name x.lock 2>err &&
	grep "ends with .\.lock." err &&
	test_must_be_empty_dir p/series
'

# RFC 2047: "=0A" and base64 of CRLF decode to line breaks; the header
# rule turns them into spaces, so no header is forged for b4 or stored.
test_expect_success 'an encoded newline forges no Message-Id or Link' '
	sed -e "s|^\(Subject: \[PATCH v3 1/3\] .*\)|\1 =?utf-8?q?=0AMessage-Id:_<forged@evil.example>?=|" \
	    -e "s|^\(Subject: \[PATCH v3 2/3\] .*\)|\1 =?utf-8?b?DQpNZXNzYWdlLUlkOiA8Zm9yZ2VkMkBldmlsLmV4YW1wbGU+?=|" \
	    -e "s|^\(Subject: \[PATCH v3 0/3\] .*\)|\1 =?utf-8?q?=0ALink:_https://evil.example/?=|" \
		"$SEED" >inject.mbox &&
	PATH="$PWD/bin:$PATH" stablekit -C p pull -m "$PWD/inject.mbox" \
		--name inject >out 2>err &&
	test -f to-b4.mbx &&
	! grep -i "^message-id:.*forged" to-b4.mbx &&
	! grep -i "^link:.*evil" to-b4.mbx &&
	! grep -i "^message-id:.*forged" p/series/inject/v3.mbx &&
	! grep -i "^link:.*evil" p/series/inject/v3.mbx &&
	! grep -i "^link:.*forged" p/series/inject/v3.mbx &&
	git config -f p/series/inject/series.conf --get-regexp "message-id|link" >ids &&
	! grep forged ids &&
	grep "^patch\.3\.1\.message-id 20260904094555.2871043-2-hui.zhu@linux.dev" ids &&
	git config -f p/series/inject/series.conf patch.3.1.subject >subj &&
	grep "hierarchies \{1,2\}Message-Id: <forged@evil.example>\$" subj
'

test_expect_success 'a series directory named .hidden is reported, not skipped' '
	sk_new_project h &&
	mkdir h/series/.hidden &&
	cp p/series/inject/series.conf h/series/.hidden/ &&
	test_expect_code 128 stablekit -C h series list 2>err &&
	grep "error: .*series/\.hidden: series name .\.hidden. starts with" err &&
	rm -r h/series/.hidden &&
	mkdir h/series/.pull-XYZ123 &&
	: >h/series/.pull-XYZ123/series.conf &&
	stablekit -C h series list >out
'

test_expect_success 'series show refuses a name that is no series name' '
	test_expect_code 128 stablekit -C p series show ../p/series/inject 2>err &&
	grep "series name" err
'

test_expect_success 'a bare key in series.conf is an error at its line' '
	sk_new_project b &&
	cp -r p/series/inject b/series/bare &&
	printf "\treviewed-by\n" >>b/series/bare/series.conf &&
	n=$(wc -l <b/series/bare/series.conf) &&
	test_expect_code 128 stablekit -C b series list 2>err &&
	grep "series/bare/series.conf:$n: no value (a bare key) for .patch\.3\.3\.reviewed-by." err &&
	test_expect_code 128 stablekit -C b series show bare 2>err &&
	grep "series.conf:$n: no value" err
'

test_expect_success 'an unknown key in series.conf is an error at its line' '
	sk_new_project u &&
	cp -r p/series/inject u/series/unk &&
	sed -i "3a\\	colour = red" u/series/unk/series.conf &&
	test_expect_code 128 stablekit -C u series show unk 2>err &&
	grep "series/unk/series.conf:4: unknown key .series\.colour." err
'

test_expect_success 'a trailer key git-config cannot name is dropped with a warning' '
	sk_new_project k &&
	sed "s|^Signed-off-by: Hui Zhu <zhuhui@kylinos.cn>|1st-Tested-by: T <t@example.org>\n&|" \
		"$SEED" >key.mbox &&
	stablekit -C k pull -m "$PWD/key.mbox" --name key >out 2>err &&
	grep "warning: patch 1/3: dropped unstorable (key not a git-config name) trailer .1st-Tested-by: T <t@example.org>." err &&
	git config -f k/series/key/series.conf -l >all &&
	! grep -i "1st-tested-by" all &&
	grep "patch.3.1.signed-off-by=Hui Zhu <zhuhui@kylinos.cn>" all
'

test_expect_success 'VT, FF and Unicode line breaks in a header become spaces for b4' '
	sk_new_project c &&
	sed "s|^Subject: \[PATCH v3 0/3\] mm: workingset|Subject: [PATCH v3 0/3] =?utf-8?q?mm:=0B=0Cworkingset=C2=85=E2=80=A8x?=|" \
		"$SEED" >vt.mbox &&
	PATH="$PWD/bin:$PATH" stablekit -C c pull -m "$PWD/vt.mbox" --name vt >out 2>err &&
	grep "^Subject: \[PATCH v3 0/3\] mm:  workingset     x: fix" to-b4.mbx &&
	git config -f c/series/vt/series.conf series.subject >subj &&
	echo "mm: workingset x: fix the shadow node budget under MGLRU" >expect &&
	test_cmp expect subj
'

# RFC 2047: a display name that decodes to address syntax is a name.  The
# address is the angle-addr as sent.  git mailinfo (git am, b4) takes the
# first '@' of a From: line for the address and b4 0.12 drops quotes, so
# the name loses its '<' and '>', its '@' becomes " at ", and it is quoted
# where it has other specials; no reader takes torvalds@ for the author.
test_expect_success 'an encoded display name "Linus Torvalds <torvalds@...>," does not change the author' '
	sk_new_project s &&
	sed -e "s|^From: Hui Zhu <hui.zhu@linux.dev>|From: =?utf-8?q?Linus_Torvalds_<torvalds@linux-foundation.org>,?= <attacker@evil.example>|" \
	    -e "/^From: Hui Zhu <zhuhui@kylinos.cn>/d" \
		"$SEED" >spoof.mbox &&
	PATH="$PWD/bin:$PATH" stablekit -C s pull -m "$PWD/spoof.mbox" --name spoof >out 2>err &&
	git config -f s/series/spoof/series.conf series.author >author &&
	echo "\"Linus Torvalds torvalds at linux-foundation.org,\" <attacker@evil.example>" >expect &&
	test_cmp expect author &&
	git config -f s/series/spoof/series.conf --get-regexp "author" >authors &&
	test $(wc -l <authors) = 4 &&
	sed "s/.*<\([^<>]*\)>\$/\1/" authors | sort -u >addrs &&
	echo attacker@evil.example >expect &&
	test_cmp expect addrs &&
	! grep "torvalds@" s/series/spoof/series.conf s/series/spoof/v3.mbx &&
	grep "^From: \"Linus Torvalds torvalds at linux-foundation.org,\" <attacker@evil.example>\$" to-b4.mbx &&
	sed -n "/^From: \"Linus/{p;q}" to-b4.mbx | git mailinfo /dev/null /dev/null >info &&
	grep "^Email: attacker@evil.example\$" info
'

test_expect_success 'a quote in the encoded name cannot close the quoting' '
	sk_new_project u &&
	sed "s|^From: Hui Zhu <hui.zhu@linux.dev>|From: =?utf-8?q?a\"_<torvalds@linux-foundation.org>,_\"b?= <attacker@evil.example>|" \
		"$SEED" >quote.mbox &&
	stablekit -C u pull -m "$PWD/quote.mbox" --name quote >out 2>err &&
	git config -f u/series/quote/series.conf series.author >author &&
	printf "%s\n" "\"a\\\" torvalds at linux-foundation.org, \\\"b\" <attacker@evil.example>" >expect &&
	test_cmp expect author
'

test_expect_success 'plain names are stored as sent' '
	git config -f p/series/inject/series.conf patch.3.1.author >a &&
	echo "Hui Zhu <zhuhui@kylinos.cn>" >expect &&
	test_cmp expect a
'

test_done

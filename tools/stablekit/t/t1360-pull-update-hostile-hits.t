#!/bin/sh

test_description='stablekit pull --update: what a search answer holds is data

Anyone can post to the list, so the search hits are hostile input.  A
local HTTP server answers every search with hits.mbox; b4 is a stand-in
that writes its argv, one argument a line, and fails.
 - a Message-Id that is no Message-Id (-m/path, a URL) is never handed
   to b4: a warning names it; every id b4 gets comes after "--";
 - one unreadable mail among the hits is a warning, not the end of the
   update for every series;
 - the update has an overall deadline and a cap on the revisions it
   pulls per series, both options, with their defaults in the manual.'

. ./lib-stablekit.sh

B=mm-workingset-fix-the-shadow-node-budget-under-mglru
SUBJ="mm: workingset: fix the shadow node budget under MGLRU"
no_proxy=127.0.0.1 NO_PROXY=127.0.0.1
export no_proxy NO_PROXY

stop_server() {
	test -f httpd.pid || return 0
	kill "$(cat httpd.pid)" 2>/dev/null
	rm -f httpd.pid
	return 0
}
trap 'sk_code=$?; stop_server; (exit $sk_code); die' EXIT

# hit VERSION ID [HEADERS]: the cover of a v<VERSION> of series B under
# Message-Id <ID>, as the list would have it
hit() {
	printf "From mboxrd@z Thu Jan  1 00:00:00 1970\n"
	printf "From: Hui Zhu <hui.zhu@linux.dev>\n"
	printf "Subject: [PATCH v%s 0/3] %s\n" "$1" "$SUBJ"
	printf "Date: Fri, 0%s Oct 2026 10:00:00 +0000\n" "$1"
	printf "Message-Id: <%s>\n" "$2"
	test -z "$3" || printf "%s\n" "$3"
	printf "\nthe cover of v%s\n\n" "$1"
}

update() {
	(cd p && PATH="$SHARNESS_TRASH_DIRECTORY/bin:$PATH" \
		ARGV_LOG="$SHARNESS_TRASH_DIRECTORY/b4.argv" \
		stablekit pull --update "$@")
}

test_expect_success 'setup: series B v3 stored, a search server, a b4 that logs' '
	sk_new_project p &&
	(cd p && stablekit pull -m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox") >/dev/null 2>&1 &&
	cat >server.py <<-\EOF &&
	import http.server, sys
	class H(http.server.BaseHTTPRequestHandler):
	    def answer(self):
	        with open("hits.mbox", "rb") as f:
	            import gzip
	            data = gzip.compress(f.read())
	        self.send_response(200)
	        self.send_header("Content-Length", str(len(data)))
	        self.end_headers()
	        self.wfile.write(data)
	    do_GET = do_POST = answer
	    def log_message(self, *a):
	        pass
	s = http.server.HTTPServer(("127.0.0.1", 0), H)
	# its own pid: python3 may be a wrapper that does not exec
	import os
	open("httpd.pid", "w").write(str(os.getpid()))
	open("port", "w").write(str(s.server_address[1]))
	s.serve_forever()
	EOF
	rm -f port &&
	python3 server.py </dev/null >server.log 2>&1 3>&- 4>&- 5>&- 6>&- &
	for i in $(seq 100); do test -s port && break; sleep 0.1; done &&
	git config -f p/stable/branches.conf stablekit.lore "http://127.0.0.1:$(cat port)/all/" &&
	mkdir bin &&
	cat >bin/b4 <<-\EOF &&
	#!/bin/sh
	{ echo "== b4"; for a; do printf "%s\n" "$a"; done; } >>"$ARGV_LOG"
	sleep "${B4_SLEEP:-0}"
	exit 1
	EOF
	chmod +x bin/b4
'

test_expect_success 'ids shaped as an option or a URL are left out with a warning; the rest follow "--"' '
	{ hit 4 "-m/etc/passwd" && hit 5 "https://evil.example/x@y" &&
	  hit 6 "--use-local-mbox=x@y" && hit 7 "v7@example.org"; } >hits.mbox &&
	rm -f b4.argv &&
	test_expect_code 128 update >out 2>err &&
	grep "warning: $B: search hit left out: Message-Id .-m/etc/passwd. is not Message-Id shaped: it starts with .-." err &&
	grep "warning: $B: search hit left out: Message-Id .https://evil.example/x@y. is not Message-Id shaped: it holds a ./." err &&
	grep "warning: $B: search hit left out: Message-Id .--use-local-mbox=x@y. is not" err &&
	! grep -e "passwd" -e "evil.example" -e "use-local-mbox=x" b4.argv &&
	grep -A6 "^== b4" b4.argv >runs &&
	grep -x -- "--" runs &&
	grep -x -B1 "v7@example.org" runs | head -n 1 >before &&
	echo -- >expect && test_cmp expect before
'

test_expect_success 'pull <msgid>: the id b4 gets follows "--"; a URL is its id, from the configured lore' '
	rm -f b4.argv &&
	(cd p && PATH="$SHARNESS_TRASH_DIRECTORY/bin:$PATH" \
		ARGV_LOG="$SHARNESS_TRASH_DIRECTORY/b4.argv" \
		test_expect_code 128 stablekit pull "https://evil.example/r/abc@def/") 2>err &&
	tail -n 2 b4.argv >got &&
	printf "%s\n" -- abc@def >expect &&
	test_cmp expect got &&
	rm -f b4.argv &&
	(cd p && PATH="$SHARNESS_TRASH_DIRECTORY/bin:$PATH" \
		ARGV_LOG="$SHARNESS_TRASH_DIRECTORY/b4.argv" \
		test_expect_code 128 stablekit pull -- "-m/etc/passwd") 2>err &&
	grep "Message-Id .-m/etc/passwd. is not Message-Id shaped" err &&
	! test -e b4.argv
'

test_expect_success 'unreadable mails among the hits (NUL, unknown charset, 8-bit Message-Id) are warned about and skipped' '
	{ printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: x <x@y>\nSubject: nul\nMessage-Id: <nul@x>\n\na\000b\n\n" &&
	  printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: x <x@y>\nSubject: cs\nMessage-Id: <cs@x>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=x-no-such-charset\nContent-Transfer-Encoding: 8bit\n\n\351t\351\n\n" &&
	  printf "From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: x <x@y>\nSubject: id\nMessage-Id: <\351@x>\n\nbody\n\n" &&
	  hit 7 "v7@example.org"; } >hits.mbox &&
	rm -f b4.argv &&
	test_expect_code 128 update >out 2>err &&
	grep "warning: $B: search hit left out: .*charset" err &&
	grep "warning: $B: search hit left out: .*byte 0xe9 in the Message-Id header" err &&
	test $(grep -c "warning: $B: search hit left out: " err) -ge 2 &&
	grep -x "v7@example.org" b4.argv &&
	grep "failed pulling v7@example.org" out
'

test_expect_success 'a cap on the revisions pulled per series: the newest kept, the others named' '
	{ for v in 4 5 6 7 8; do hit $v "v$v@example.org" || return 1; done; } >hits.mbox &&
	rm -f b4.argv &&
	test_expect_code 128 update --max-revisions 2 >out 2>err &&
	grep "warning: $B: 3 older revisions on the list left out (at most 2 pulled per series, --max-revisions): <v4@example.org> <v5@example.org> <v6@example.org>" err &&
	grep -x "v[0-9]@example.org" b4.argv >pulled &&
	printf "%s\n" v7@example.org v8@example.org >expect &&
	test_cmp expect pulled
'

test_expect_success 'the default cap is 5 revisions' '
	{ for v in 4 5 6 7 8 9; do hit $v "v$v@example.org" || return 1; done; } >hits.mbox &&
	rm -f b4.argv &&
	test_expect_code 128 update >out 2>err &&
	grep "1 older revision on the list left out (at most 5 pulled per series" err &&
	test $(grep -c -x "v[0-9]@example.org" b4.argv) = 5
'

test_expect_success 'an overall deadline: what it leaves no time for is not run, and said' '
	{ for v in 4 5 6 7 8; do hit $v "v$v@example.org" || return 1; done; } >hits.mbox &&
	rm -f b4.argv &&
	start=$(date +%s) &&
	B4_SLEEP=3 && export B4_SLEEP &&
	test_expect_code 128 update --deadline 5 >out 2>err;
	code=$? && unset B4_SLEEP && test $code = 0 &&
	end=$(date +%s) &&
	test $((end - start)) -lt 20 &&
	runs=$(grep -c "^== b4" b4.argv) &&
	test $runs -ge 1 && test $runs -le 2 &&
	grep "failed pulling v8@example.org: not pulled: the update.s deadline of 5 s passed (--deadline)" out
'

test_expect_success '--deadline and --max-revisions go with --update' '
	test_expect_code 129 stablekit -C p pull --deadline 5 x@y 2>err &&
	grep "go with --update" err
'

test_expect_success 'stop the server (test_done removes its pid file)' '
	stop_server &&
	! test -e httpd.pid
'

test_done

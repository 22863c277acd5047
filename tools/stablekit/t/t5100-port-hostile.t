#!/bin/sh

test_description='stablekit port: the commands of a FAILED mail run what they say

A Message-Id may hold quotes, backticks and $ (RFC 5322 atext).  Every
command the FAILED mail suggests is built from argv and quoted: pasting
the line into sh runs that argv, and nothing else.'

. ./lib-stablekit.sh
. "$SK_TOP/ci/model/linux.sh"

B=mm-workingset-fix-the-shadow-node-budget-under-mglru
MAIL=stable/vendor-fail/failed/mm-workingset-use-lruvec_page_state_local-to-count-l.mail
ORIG=20260904094555.2871043-3-hui.zhu@linux.dev

# project DIR REPO MSGID: series B with patch 2 under MSGID, ported to
# vendor-fail, where nothing carries patch 2
project() {
	sk_new_project $1 &&
	cat >$1/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../$2
		signoff = Stable Tester <tester@example.org>
	[branch "mainline"]
		ref = master
		base = v7.0
		kind = mainline
	[branch "vendor-fail"]
		ref = vendor-fail
		base = v7.1
		allow-pending = true
	EOF
	O=$ORIG ID="$3" perl -pe 's/\Q$ENV{O}\E/$ENV{ID}/g' "$SEED_B" >$1.mbox &&
	(cd $1 && stablekit pull -m ../$1.mbox) >/dev/null 2>&1 &&
	(cd $1 && test_expect_code 1 stablekit port $B --branch vendor-fail) >$1.out &&
	grep "2. FAILED" $1.out
}

# A git and a b4 that only write their argv, one argument a line.
test_expect_success 'setup: argv-logging git and b4' '
	mkdir bin &&
	cat >bin/git <<-\EOF &&
	#!/bin/sh
	for a; do printf "%s\n" "$a"; done >>"$ARGV_LOG.${0##*/}"
	EOF
	cp bin/git bin/b4 &&
	chmod +x bin/git bin/b4
'

# commands PROJECT: the command lines of the mail, comments left out
commands() {
	sed -n "/^To reproduce/,/^Possible dependencies:/p" $1/$MAIL |
	sed -e 1d -e "\$d" | grep -v -e "^#" -e "^\$"
}

# run_line PROJECT N: line N in sh -c in a scratch directory, with the
# logging tools first on PATH; the argv land in PROJECT.argv.git/.b4
run_line() {
	rm -rf scratch "$PWD/$1.argv".* && mkdir scratch &&
	line=$(commands $1 | sed -n "$2p") &&
	(cd scratch && ARGV_LOG="$SHARNESS_TRASH_DIRECTORY/$1.argv" \
	 PATH="$SHARNESS_TRASH_DIRECTORY/bin:$PATH" sh -c "$line") &&
	! test -e scratch/pwned && ! test -e pwned
}

# stored PROJECT: the Message-Id of patch 2 as stablekit stored it
stored() {
	(cd $1 && stablekit series show $B --json) |
	python3 -c "import json, sys
s = json.load(sys.stdin)
r = s[\"revisions\"][-1] if \"revisions\" in s else s
print([p for p in r[\"patches\"] if p[\"nr\"] == 2][0][\"message_id\"])"
}

test_expect_success 'setup: model repositories, with and without patch 2 upstream' '
	build_linuxb &&
	mkdir none && (cd none && MODEL_UPSTREAM=none build_linuxb) &&
	mv none/linuxb linuxb-none && rmdir none
'

HOSTILE="x'\`touch\${IFS}pwned\`'@y"

test_expect_success 'a Message-Id with quote, backtick and $: FAILED mail' '
	project p linuxb "$HOSTILE" &&
	stored p >id && echo "$HOSTILE" >expect && test_cmp expect id &&
	commands p >cmds && test $(wc -l <cmds) = 4
'

test_expect_success 'git checkout runs as it says' '
	run_line p 1 &&
	printf "%s\n" checkout $(git -C linuxb rev-parse vendor-fail) >expect &&
	test_cmp expect p.argv.git
'

test_expect_success 'git cherry-pick -x of the upstream commit' '
	run_line p 2 &&
	printf "%s\n" cherry-pick -x $(git -C linuxb rev-parse master) >expect &&
	test_cmp expect p.argv.git
'

test_expect_success 'git send-email in reply to the Message-Id, nothing run' '
	run_line p 4 &&
	cat >expect <<-EOF &&
	send-email
	--to
	<stable@vger.kernel.org>
	--in-reply-to
	<$HOSTILE>
	--subject-prefix
	PATCH 7.1.y
	HEAD^..
	EOF
	test_cmp expect p.argv.git
'

test_expect_success 'not upstream: b4 am of the Message-Id piped to git am' '
	project q linuxb-none "$HOSTILE" &&
	commands q >cmds && test $(wc -l <cmds) = 4 &&
	grep "^b4 am" cmds &&
	run_line q 2 &&
	printf "%s\n" am -o - -- "$HOSTILE" >expect &&
	test_cmp expect q.argv.b4 &&
	printf "%s\n" am -3 >expect &&
	test_cmp expect q.argv.git
'

# The example of the review, with a space; the mail parser decides what
# is kept of it, and the commands carry exactly that.
SPACED="x'\`touch pwned\`'@y"

test_expect_success 'the review example <x'"'"'`touch pwned`'"'"'@y>' '
	project r linuxb-none "$SPACED" &&
	stored r >id &&
	for n in 2 4; do
		run_line r $n || return 1
	done &&
	printf "%s\n" am -o - -- "$(cat id)" >expect &&
	run_line r 2 && test_cmp expect r.argv.b4 &&
	run_line r 4 &&
	sed -n 5p r.argv.git >got && echo "<$(cat id)>" >expect &&
	test_cmp expect got
'

test_done

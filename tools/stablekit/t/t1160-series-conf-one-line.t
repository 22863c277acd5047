#!/bin/sh

test_description='series.conf and branches.conf values are one line: no header is forged

A git-config value may hold "\n" (and CR inside quotes).  A series.conf
subject or author with "\nBcc: ..." used to put a Bcc: header into the
FAILED mail and the queued patch, and a signoff in branches.conf the same.
Such a value is now refused where it is read, naming file, line and key
(exit 128, nothing written), and every header a mail or patch gets from
data is made one line where it is written (the identity from the user'"'"'s
git config included).'

. ./lib-stablekit.sh
. "$SK_TOP/ci/model/linux.sh"

B=mm-workingset-fix-the-shadow-node-budget-under-mglru
CONF=p/series/$B/series.conf
NL='
'

# B is pending on the model's mainline: the branch takes it anyway
# (allow-pending), as the rule tested here is not mainline-first
branches() {
	cat >p/stable/branches.conf <<-EOF
	[stablekit]
		repo = ../linuxb
	$1
	[branch "mainline"]
		ref = master
		base = v7.0
		kind = mainline
	[branch "vendor-fail"]
		ref = vendor-fail
		base = v7.1
		kind = stable
		allow-pending = true
	EOF
}

# no line of the files under DIR is a header that no one wrote
no_forged() {
	! grep -r -i -e "^Bcc:" -e "^X-Evil:" "$@"
}

test_expect_success 'setup: model repository, project, series B pulled' '
	build_linuxb &&
	sk_new_project p &&
	branches "	signoff = Stable Tester <tester@example.org>" &&
	(cd p && stablekit pull -m "$SK_SEEDS/shadow-node-budget-mglru.v3.mbox") >/dev/null 2>&1 &&
	cp $CONF series.conf.good
'

test_expect_success 'a subject with \n in series.conf: refused naming file, line and key, nothing written' '
	git config -f $CONF patch.3.2.subject "mm: x${NL}Bcc: attacker@evil.example" &&
	grep "subject = mm: x\\\\nBcc: attacker@evil.example" $CONF &&
	line=$(grep -n "subject = mm: x" $CONF | cut -d: -f1) &&
	test_expect_code 128 stablekit -C p series show $B 2>err &&
	grep "series.conf:$line: a line break or control character .* in the value of .patch.3.2.subject." err &&
	test_expect_code 128 stablekit -C p port $B --branch vendor-fail >out 2>err &&
	grep "series.conf:$line: .*patch.3.2.subject" err &&
	! test -e p/stable/vendor-fail &&
	no_forged p/stable
'

test_expect_success 'an author with a CR, and a trailer with \n: refused the same way' '
	cp series.conf.good $CONF &&
	git config -f $CONF patch.3.2.author "Hui Zhu <zhuhui@kylinos.cn>$(printf "\\r")X-Evil: 1" &&
	test_expect_code 128 stablekit -C p port $B --branch vendor-fail 2>err &&
	grep "in the value of .patch.3.2.author." err &&
	cp series.conf.good $CONF &&
	git config -f $CONF patch.3.2.acked-by "A <a@b>${NL}Bcc: attacker@evil.example" &&
	test_expect_code 128 stablekit -C p port $B --branch vendor-fail 2>err &&
	grep "in the value of .patch.3.2.acked-by." err &&
	! test -e p/stable/vendor-fail
'

test_expect_success 'a signoff with \n in branches.conf: refused naming file, line and key' '
	cp series.conf.good $CONF &&
	branches "	signoff = Stable Tester <tester@example.org>\\nBcc: attacker@evil.example" &&
	test_expect_code 128 stablekit -C p port $B --branch vendor-fail 2>err &&
	grep "branches.conf:3: a line break or control character in the value of .stablekit.signoff." err &&
	! test -e p/stable/vendor-fail
'

test_expect_success 'an identity from git config with \n: the patches and the FAILED mail get it on one line' '
	branches "" &&
	git config --global user.name "Stable Tester${NL}Bcc: attacker@evil.example" &&
	test_when_finished "git config --global user.name \"\$GIT_AUTHOR_NAME\"" &&
	test_expect_code 1 stablekit -C p port $B --branch vendor-fail >out 2>err &&
	grep "^Signed-off-by: Stable Tester Bcc: attacker@evil.example <tester@example.org>$" \
		p/stable/vendor-fail/*.patch &&
	ls p/stable/vendor-fail/failed/*.mail &&
	no_forged p/stable
'

test_done

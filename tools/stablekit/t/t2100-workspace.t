#!/bin/sh

test_description='stablekit workspace init: pinned trees into one repository

Hermetic: two small kernel-like trees pinned as "installed" files (the
kind Debian linux-source-6.12 is), so the import, the pins, the selection
of trees, adding to a workspace, atomicity and the errors are tested in
seconds.  The real trees are t2110-workspace-real.t.
'

. ./lib-stablekit.sh

DPKG_VERSION=$(dpkg-query -W -f='${Version}' dpkg)

# make_tree SUBLEVEL: tree-SUBLEVEL.tar.xz, a Linux 9.9.SUBLEVEL look-alike
# with a Debian-like top-level .gitignore that ignores everything.
make_tree() {
	rm -rf src && d=src/linux-9.9 &&
	mkdir -p $d/mm $d/scripts $d/debian $d/empty/dir &&
	printf "VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = %s\nEXTRAVERSION =\n" \
		"$1" >$d/Makefile &&
	printf ".*\n/*\n!/debian/\n" >$d/.gitignore &&
	echo "shared by every tree" >$d/mm/vmscan.c &&
	echo "only in 9.9.$1" >$d/mm/only.c &&
	printf "#!/bin/sh\necho %s\n" "$1" >$d/scripts/run.sh &&
	chmod +x $d/scripts/run.sh &&
	echo "debian $1" >$d/debian/changelog &&
	ln -s mm/vmscan.c $d/link &&
	tar -cJf tree-$1.tar.xz -C src linux-9.9
}

# pin VERSION SUBLEVEL [BRANCH]: a [tree] section for tree-SUBLEVEL.tar.xz
pin() {
	f=$PWD/tree-$2.tar.xz &&
	printf "[tree \"%s\"]\n\tbranch = %s\n\tkind = installed\n" \
		"$1" "${3:-linux-$1}" &&
	printf "\tpackage = dpkg\n\tdebversion = %s\n\tfile = %s\n" \
		"$DPKG_VERSION" "$f" &&
	printf "\tsize = %s\n\tsha256 = %s\n" "$(stat -c %s "$f")" \
		"$(sha256sum "$f" | cut -d" " -f1)"
}

test_expect_success 'setup: two trees and their pins' '
	make_tree 1 && make_tree 2 &&
	{ pin 9.9.1 1 && pin 9.9.2 2; } >pins.conf
'

test_expect_success 'init imports every pinned tree into one new repository' '
	stablekit workspace init --pins pins.conf --json ws/linux >init.json &&
	jq -e ".created and .imported == 2 and .head == \"linux-9.9.1\"" init.json &&
	jq -r ".trees[] | \"\(.version) \(.branch) \(.tag) \(.imported) \(.files)\"" \
		init.json >trees &&
	cat >expect <<-\EOF &&
	9.9.1 linux-9.9.1 v9.9.1 true 7
	9.9.2 linux-9.9.2 v9.9.2 true 7
	EOF
	test_cmp expect trees
'

test_expect_success 'each branch is one root commit of its tree, tagged v<version>' '
	for v in 9.9.1 9.9.2; do
		test "$(git -C ws/linux rev-list --count linux-$v)" = 1 &&
		test "$(git -C ws/linux rev-list --parents linux-$v)" = \
		     "$(git -C ws/linux rev-parse linux-$v)" &&
		test "$(git -C ws/linux rev-parse "v$v^{commit}")" = \
		     "$(git -C ws/linux rev-parse linux-$v)" &&
		git -C ws/linux show linux-$v:Makefile >mf &&
		grep "^SUBLEVEL = ${v##*.}$" mf || return 1
	done
'

test_expect_success 'the whole tree: ignored files, modes and links; no empty dirs' '
	git -C ws/linux ls-tree -r linux-9.9.2 >tree &&
	grep "^100644 blob [0-9a-f]*	.gitignore$" tree &&
	grep "^100644 blob [0-9a-f]*	debian/changelog$" tree &&
	grep "^100644 blob [0-9a-f]*	mm/only.c$" tree &&
	grep "^100755 blob [0-9a-f]*	scripts/run.sh$" tree &&
	grep "^120000 blob [0-9a-f]*	link$" tree &&
	test "$(git -C ws/linux cat-file blob linux-9.9.2:link)" = mm/vmscan.c &&
	! grep "empty" tree &&
	git -C ws/linux ls-tree -r linux-9.9.1 >tree1 &&
	sed "s/[0-9a-f]\{40\}//" tree >m2 && sed "s/[0-9a-f]\{40\}//" tree1 >m1 &&
	test_cmp m1 m2
'

test_expect_success 'blobs the trees share are stored once' '
	test "$(git -C ws/linux rev-parse linux-9.9.1:mm/vmscan.c)" = \
	     "$(git -C ws/linux rev-parse linux-9.9.2:mm/vmscan.c)" &&
	{ git -C ws/linux ls-tree -r -t linux-9.9.1 &&
	  git -C ws/linux ls-tree -r -t linux-9.9.2; } |
		awk "{print \$3}" | sort -u | wc -l >n &&
	# + 2 root trees, 2 commits, 2 tags: every object exactly once
	expect=$(( $(cat n) + 6 )) &&
	git -C ws/linux count-objects -v >count &&
	grep "^count: $expect$" count
'

test_expect_success 'HEAD is the first tree, its checkout the clean work tree' '
	test "$(git -C ws/linux symbolic-ref HEAD)" = refs/heads/linux-9.9.1 &&
	grep "^SUBLEVEL = 1$" ws/linux/Makefile &&
	git -C ws/linux status --porcelain --ignored >st &&
	test_must_be_empty st &&
	test "$(git -C ws/linux config stablekit.workspace)" = true
'

test_expect_success 'progress lines say what each step does' '
	stablekit workspace init --pins pins.conf ws/p >out 2>err &&
	grep "workspace: checking 9.9.1 (dpkg " err &&
	grep "workspace: extracting 9.9.1 (tree-1.tar.xz) as the work tree" err &&
	grep "workspace: importing 9.9.2" err &&
	grep "workspace: linux-9.9.2 = v9.9.2 (7 files" err &&
	grep "^initialised ws/p: 2 trees, HEAD linux-9.9.1$" out
'

test_expect_success 'a second init is a no-op that says so' '
	before=$(git -C ws/linux show-ref) &&
	stablekit workspace init --pins pins.conf ws/linux >out &&
	grep "^already initialised ws/linux: 2 trees" out &&
	grep "^  linux-9.9.2 v9.9.2 [0-9a-f]\{12\} already there$" out &&
	test "$(git -C ws/linux show-ref)" = "$before"
'

test_expect_success 'the same pin gives the same commit in another workspace' '
	test "$(git -C ws/linux rev-parse linux-9.9.2)" = \
	     "$(git -C ws/p rev-parse linux-9.9.2)"
'

test_expect_success '--tree imports only the trees named (version or branch)' '
	stablekit workspace init --pins pins.conf --tree linux-9.9.2 --json \
		ws/sel >sel.json &&
	jq -e "[.trees[].version] == [\"9.9.2\"] and .head == \"linux-9.9.2\"" sel.json &&
	git -C ws/sel for-each-ref --format="%(refname)" >refs &&
	cat >expect <<-\EOF &&
	refs/heads/linux-9.9.2
	refs/tags/v9.9.2
	EOF
	test_cmp expect refs
'

test_expect_success 'init adds the trees a workspace lacks, HEAD unchanged' '
	stablekit workspace init --pins pins.conf ws/sel >out &&
	grep "^updated ws/sel: 2 trees, HEAD linux-9.9.2$" out &&
	grep "^  linux-9.9.1 v9.9.1 [0-9a-f]\{12\} imported: 7 files" out &&
	grep "^  linux-9.9.2 v9.9.2 [0-9a-f]\{12\} already there$" out &&
	test "$(git -C ws/sel rev-parse linux-9.9.1)" = \
	     "$(git -C ws/linux rev-parse linux-9.9.1)" &&
	test "$(git -C ws/sel symbolic-ref HEAD)" = refs/heads/linux-9.9.2
'

test_expect_success 'an unknown --tree is an error naming the pinned ones; nothing made' '
	test_expect_code 128 stablekit workspace init --pins pins.conf \
		--tree 9.9.7 ws/none 2>err &&
	grep "no tree .9.9.7. in pins.conf (it pins 9.9.1 9.9.2)" err &&
	! test -e ws/none
'

test_expect_success 'a file that is not the pinned one fails before anything is made' '
	sed "0,/sha256 = [0-9a-f]*/s//sha256 = $(printf "%064d" 0)/" pins.conf >bad.conf &&
	test_expect_code 128 stablekit workspace init --pins bad.conf ws/bad 2>err &&
	grep "tree-1.tar.xz. has sha256 [0-9a-f]\{64\}, the pin of tree 9.9.1 says 0\{64\}" err &&
	! test -e ws/bad &&
	sed "0,/size = [0-9]*/s//size = 12/" pins.conf >bad.conf &&
	test_expect_code 128 stablekit workspace init --pins bad.conf ws/bad 2>err &&
	grep "bytes, the pin of tree 9.9.1 says 12" err &&
	! test -e ws/bad
'

test_expect_success 'an installed package of another version is refused' '
	sed "0,/debversion = .*/s//debversion = 0.0-1/" pins.conf >bad.conf &&
	test_expect_code 128 stablekit workspace init --pins bad.conf ws/bad 2>err &&
	grep "tree 9.9.1: installed dpkg is $DPKG_VERSION, the pin is 0.0-1" err &&
	! test -e ws/bad
'

test_expect_success 'a tree whose Makefile is not its version: new workspace absent' '
	{ pin 9.9.1 1 && pin 9.9.3 2 linux-9.9.3; } >wrong.conf &&
	test_expect_code 128 stablekit workspace init --pins wrong.conf ws/wrong 2>err &&
	grep "tree 9.9.3: its Makefile says 9.9.2" err &&
	! test -e ws/wrong &&
	ls -a ws >left && ! grep "^\.workspace" left
'

test_expect_success 'the same in an existing workspace: no branch, no tag' '
	cp -R ws/linux ws/copy &&
	{ pin 9.9.1 1 linux-9.9.1 && pin 9.9.3 2 linux-9.9.3; } >wrong.conf &&
	test_expect_code 128 stablekit workspace init --pins wrong.conf ws/copy 2>err &&
	grep "its Makefile says 9.9.2" err &&
	test_must_fail git -C ws/copy rev-parse --verify -q linux-9.9.3 &&
	test_must_fail git -C ws/copy rev-parse --verify -q v9.9.3 &&
	ls -a ws >left && ! grep "^\.workspace" left
'

test_expect_success 'a branch that is another tree is an error, not overwritten' '
	{ pin 9.9.1 2 linux-9.9.2; } >clash.conf &&
	before=$(git -C ws/linux rev-parse linux-9.9.2) &&
	test_expect_code 128 stablekit workspace init --pins clash.conf ws/linux 2>err &&
	grep "branch .linux-9.9.2. of .ws/linux. is not tree 9.9.1 (no tag v9.9.1 at its tip)" err &&
	test "$(git -C ws/linux rev-parse linux-9.9.2)" = "$before"
'

test_expect_success 'a directory that is not a workspace is refused' '
	mkdir -p other/linux && echo x >other/linux/file &&
	test_expect_code 128 stablekit workspace init --pins pins.conf other/linux 2>err &&
	grep "exists and is not a workspace" err &&
	test -f other/linux/file &&
	git init -q other/repo &&
	test_expect_code 128 stablekit workspace init --pins pins.conf other/repo 2>err &&
	grep "other/repo. exists and is not a workspace (no stablekit.workspace" err &&
	test_must_fail git -C other/repo rev-parse --verify -q linux-9.9.1
'

test_expect_success 'a pin file with a missing or bad key names file and tree' '
	grep -v sha256 pins.conf >bad.conf &&
	test_expect_code 128 stablekit workspace init --pins bad.conf ws/bad 2>err &&
	grep "bad.conf: tree .9.9.1. has no sha256" err &&
	sed "s/kind = installed/kind = rpm/" pins.conf >bad.conf &&
	test_expect_code 128 stablekit workspace init --pins bad.conf ws/bad 2>err &&
	grep "bad.conf: tree .9.9.1.: kind .rpm. is not installed, deb or orig" err &&
	printf "[tree \"1.0\"]\n\tcolour = red\n" >bad.conf &&
	test_expect_code 128 stablekit workspace init --pins bad.conf ws/bad 2>err &&
	grep "bad.conf: tree .1.0.: unknown key .colour." err &&
	! test -e ws/bad
'

test_expect_success 'two inits at once: both succeed, one workspace' '
	for i in 1 2 3; do
		rm -rf ws/race &&
		{ stablekit workspace init --pins pins.conf ws/race >race.a 2>&1 & } &&
		stablekit workspace init --pins pins.conf ws/race >race.b 2>&1 &&
		wait $! &&
		test "$(git -C ws/race rev-parse linux-9.9.2)" = \
		     "$(git -C ws/linux rev-parse linux-9.9.2)" || return 1
	done &&
	ls -a ws >left && ! grep "^\.workspace" left
'

test_expect_success 'workspace path is $SK_WORK/linux' '
	(cd ws && SK_WORK=/some/where stablekit workspace path) >out &&
	echo /some/where/linux >expect && test_cmp expect out
'

test_done

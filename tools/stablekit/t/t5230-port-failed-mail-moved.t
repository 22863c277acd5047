#!/bin/sh

test_description='stablekit port: the FAILED mail says where the code of a gone function is

Mainline folded the body of split_huge_page_to_order() into a new
__folio_split() and then fixed __folio_split(); the branch still has the
code inside split_huge_page_to_order(), as 6.12 has __folio_split()'"'"'s
code in split_huge_page_to_list_to_order().  The fix is refused (its
changed lines belong to __folio_split(), which the branch lacks), and
the FAILED mail names and shows the function where the hunk'"'"'s lines
are now, as a human backporter looks for it first, not only the names
nearest to the gone one.'

. ./lib-stablekit.sh
. "$SK_TOP/ci/model/linux.sh"

SK_WORK="$SHARNESS_TRASH_DIRECTORY/w"
export SK_WORK

F="$SHARNESS_TEST_DIRECTORY/t5230"
SQ="'"

test_expect_success 'setup: a branch with the code, mainline with it folded and fixed' '
	git init -q lin && (cd lin &&
	mkdir mm && cp "$F/split-1.0.c" mm/split.c && echo "/* 1.0 */" >Makefile &&
	commit_all "$DEV" "Linux 1.0" && git tag v1.0 &&
	git branch linux-1.0.y &&
	cp "$F/split-folded.c" mm/split.c &&
	commit_all "$DEV" "mm: split: fold the split into __folio_split()" &&
	cp "$F/split-fixed.c" mm/split.c &&
	commit_all "$DEV" "mm: split: do not split a folio under writeback" &&
	git format-patch -q -1 --stdout \
		--add-header="Message-Id: <split-writeback-1@example.org>" >../fix.mbox) &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../lin
		signoff = Stable Tester <tester@example.org>
	[branch "mainline"]
		ref = master
		base = v1.0
		kind = mainline
	[branch "linux-1.0.y"]
		ref = linux-1.0.y
		base = v1.0
		version = 1.0
		kind = downstream
		select = mm-split-do-not-split-a-folio-under-writeback
	EOF
	(cd p && stablekit pull -m ../fix.mbox) >pull.out 2>&1 &&
	test -d p/series/mm-split-do-not-split-a-folio-under-writeback
'

test_expect_success 'the fix is refused: its function is gone from the branch' '
	(cd p && test_expect_code 1 stablekit port \
		mm-split-do-not-split-a-folio-under-writeback --branch linux-1.0.y) >out &&
	grep "^  1\. FAILED" out
'

test_expect_success 'the mail names and shows where the hunk'"'"'s lines are now' '
	m=$(ls p/stable/linux-1.0.y/failed/*.mail) &&
	sed -n "/^The hunks that do not apply/,/^------------------ original patch/p" "$m" >hunks &&
	grep "^mm/split.c hunk 1 of patch 1 (changes __folio_split):$" hunks &&
	grep "^  __folio_split is absent in this tree" hunks &&
	grep "^  the hunk${SQ}s lines are in split_huge_page_to_order now: [0-9]* of its [0-9]* distinctive preimage lines at mm/split.c:10$" hunks &&
	grep "^  the tree${SQ}s split_huge_page_to_order, mm/split.c:3:$" hunks &&
	grep "^     13  	ret = remap_folio_to_order(folio, order);$" hunks
'

test_done

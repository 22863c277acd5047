#!/bin/sh

test_description='stablekit maintainers: the project'"'"'s owners, or the kernel'"'"'s at a branch tip

A path of the project (series/, stable/, semantic-patches/ ...) is
answered from the project'"'"'s MAINTAINERS; a kernel path from the
MAINTAINERS at the tip of a configured branch, read with libgit2, as
get_maintainer.pl would read it there.
'

. ./lib-stablekit.sh

test_expect_success 'setup: a kernel repository whose two branches differ in MAINTAINERS' '
	git init -q lin &&
	cat >lin/MAINTAINERS <<-\EOF &&
	MEMORY MANAGEMENT
	M:	Andrew Morton <akpm@linux-foundation.org>
	L:	linux-mm@kvack.org
	S:	Maintained
	F:	mm/
	EOF
	mkdir lin/mm && echo "/* vmscan */" >lin/mm/vmscan.c &&
	git -C lin add . && git -C lin commit -q -m base && git -C lin tag v6.12 &&
	git -C lin branch linux-6.12.y &&
	git -C lin checkout -q -b linux-6.13.y &&
	cat >>lin/MAINTAINERS <<-\EOF &&

	MEMORY MANAGEMENT - RECLAIM
	M:	Reclaim Maintainer <reclaim@example.org>
	L:	linux-mm@kvack.org
	S:	Maintained
	F:	mm/vmscan.c
	EOF
	git -C lin commit -q -a -m reclaim &&
	git -C lin checkout -q linux-6.12.y &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-\EOF
	[stablekit]
		repo = ../lin
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12
	[branch "linux-6.13.y"]
		ref = linux-6.13.y
		base = v6.12
	EOF
'

test_expect_success 'a kernel path without --file: the first branch'"'"'s MAINTAINERS' '
	(cd p && stablekit maintainers mm/vmscan.c) >out &&
	cat >expect <<-\EOF &&
	To: Andrew Morton <akpm@linux-foundation.org>
	Cc: linux-mm@kvack.org
	EOF
	test_cmp expect out
'

test_expect_success '--branch: the MAINTAINERS at that branch'"'"'s tip, not the checkout' '
	(cd p && stablekit maintainers --branch linux-6.13.y mm/vmscan.c) >out &&
	grep "^To: Reclaim Maintainer <reclaim@example.org>$" out &&
	! grep "Reclaim" lin/MAINTAINERS
'

test_expect_success 'a project path: the project'"'"'s MAINTAINERS' '
	(cd p && stablekit maintainers stable/linux-6.12.y/series) >out &&
	grep "^To: Stable Kit Maintainers" out
'

test_expect_success 'an unknown branch is a usage error naming those there are' '
	(cd p && test_expect_code 129 stablekit maintainers --branch nosuch mm/vmscan.c) 2>err &&
	grep "unknown branch .nosuch. (.* has: linux-6.12.y, linux-6.13.y)" err
'

test_expect_success 'THE REST: LKML in Cc: under a specific section, as get_maintainer.pl' '
	cat >rest <<-\EOF &&
	MEMORY MANAGEMENT
	M:	Andrew Morton <akpm@linux-foundation.org>
	L:	linux-mm@kvack.org
	S:	Maintained
	F:	mm/

	THE REST
	M:	Linus Torvalds <torvalds@linux-foundation.org>
	L:	linux-kernel@vger.kernel.org
	S:	Buried alive in reporters
	F:	*
	F:	*/
	EOF
	(cd p && stablekit maintainers --file ../rest mm/vmscan.c) >out &&
	cat >expect <<-\EOF &&
	To: Andrew Morton <akpm@linux-foundation.org>
	Cc: linux-mm@kvack.org
	Cc: linux-kernel@vger.kernel.org
	EOF
	test_cmp expect out
'

test_expect_success 'THE REST alone: its maintainer and its list' '
	(cd p && stablekit maintainers --file ../rest kernel/fork.c Makefile) >out &&
	cat >expect <<-\EOF &&
	To: Linus Torvalds <torvalds@linux-foundation.org>
	Cc: linux-kernel@vger.kernel.org
	EOF
	test_cmp expect out
'

test_done

#!/bin/sh

test_description='stablekit build --mode kernel: the patched kernel is built on the baseline'"'"'s objects

A cold kernel is most of a gate on a small machine, and the patched one
differs from the baseline by what the queue reaches: series B changes two
.c files.  The patched kernel is built in the baseline'"'"'s O= directory
of the same run (its image already in the results), and make compiles
again only what is older than its sources.  In that directory, not a
copy: kbuild and objtool keep its absolute path, and on 7.2.13 a copy
compiled 1,046 of 1,081 objects again.  The tree is a small model whose
make does what kbuild does for this (t6060/Makefile): one object per
mm/*.c, recompiled when it or the header it includes is newer, each
compile logged in $(O)/compiled.
'

. ./lib-stablekit.sh

Q=p/stable/linux-6.12.y
F="$SHARNESS_TEST_DIRECTORY/t6060"
# kbuild takes no white space in its paths, and the trash directory has one
W="$SK_BUILD/t6060-work"
O="$W/w/linux-6.12.y"

sk_build() {
	(cd p && stablekit build --mode kernel --repo ../lin --work "$W/w" \
		--results ../results --branch linux-6.12.y --arch x86_64 --json "$@")
}

# queue NAME FILE SED: a queued patch that edits FILE of the tree with SED
queue() {
	rm -rf edit && git -C lin worktree add -q ../edit linux-6.12.y &&
	sed -i "$3" "edit/$2" &&
	{ printf "From: A U Thor <author@example.org>\nSubject: %s\n\n---\n" "$1" &&
	  git -C edit diff; } >"$Q/$1.patch" &&
	git -C lin worktree remove --force ../edit &&
	echo "$1.patch" >>$Q/series
}

compiled() { # DIR: what make compiled in x86_64-kernel-DIR, sorted
	sort "$O/x86_64-kernel-$1/compiled"
}

test_expect_success 'setup: a model tree, a project' '
	git init -q lin &&
	mkdir -p lin/scripts/kconfig lin/arch/x86 lin/mm lin/include &&
	cp "$F/Makefile" lin/Makefile &&
	cp "$F/merge_config.sh" lin/scripts/kconfig/merge_config.sh &&
	cp "$F/config" lin/scripts/config &&
	chmod +x lin/scripts/kconfig/merge_config.sh lin/scripts/config &&
	echo "config X86" >lin/arch/x86/Kconfig &&
	echo "obj-y += a.o b.o" >lin/mm/Makefile &&
	cp "$F/a.c" "$F/b.c" lin/mm/ && cp "$F/mm.h" lin/include/ &&
	git -C lin add -A && git -C lin commit -qm base && git -C lin tag v6.12 &&
	git -C lin branch linux-6.12.y &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-EOF &&
	[stablekit]
		repo = ../lin
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12
	EOF
	mkdir -p $Q && : >$Q/series &&
	rm -rf "$W" && mkdir -p "$W"
'

test_expect_success 'a queue changing one .c file: only that object is compiled again' '
	queue b-returns-3 mm/b.c "s/return 2;/return 3;/" &&
	sk_build >out.json &&
	jq -e ".branches[0].arches[0].baseline.status == \"pass\"" out.json &&
	jq -e ".branches[0].arches[0].patched.status == \"pass\"" out.json &&
	printf "%s\n" mm/a.c mm/b.c mm/b.c >expect &&
	compiled baseline >actual && test_cmp expect actual &&
	! test -e "$O/x86_64-kernel-patched" &&
	jq -e ".branches[0].arches[0].patched.note | startswith(\"built on the baseline${SQ:-'"'"'}s objects\")" out.json
'

test_expect_success 'the two images in the results differ by the queue' '
	b=$(jq -r ".branches[0].arches[0].baseline.image" out.json) &&
	p=$(jq -r ".branches[0].arches[0].patched.image" out.json) &&
	test -f "$b" && test -f "$p" && ! cmp -s "$b" "$p"
'

test_expect_success 'a queue changing a header: every object that includes it is compiled again' '
	: >$Q/series && rm -f $Q/*.patch &&
	queue mm-h-comment include/mm.h "1i /* a comment */" &&
	sk_build >out.json &&
	printf "%s\n" mm/a.c mm/a.c mm/b.c mm/b.c >expect &&
	compiled baseline >actual && test_cmp expect actual
'

test_expect_success 'a queue changing a Kconfig file: the patched kernel is built afresh' '
	: >$Q/series && rm -f $Q/*.patch &&
	queue kconfig arch/x86/Kconfig "a config X86_EXTRA" &&
	sk_build >out.json &&
	printf "%s\n" mm/a.c mm/b.c >expect &&
	compiled patched >actual && test_cmp expect actual &&
	jq -e ".branches[0].arches[0].patched.note == null" out.json
'

test_expect_success 'with --no-baseline the patched kernel is built afresh' '
	: >$Q/series && rm -f $Q/*.patch &&
	queue b-returns-4 mm/b.c "s/return 2;/return 4;/" &&
	sk_build --no-baseline >out.json &&
	printf "%s\n" mm/a.c mm/b.c >expect &&
	compiled patched >actual && test_cmp expect actual
'

test_done

#!/bin/sh

test_description='semantic patches: every rule against its own test input

Each rule under semantic-patches/ is a triple, as in Coccinelle'"'"'s own
tests: RULE.cocci, the input RULE.c (small C shaped like the kernel code
the rule targets) and the expected result RULE.res.  A rule must turn
RULE.c into exactly RULE.res, and running it again on RULE.res must
change nothing (rules are guarded so that a port can be re-run).'

. ./lib-stablekit.sh

sp="$SK_TOP/semantic-patches"
run_triple="$SK_TOP/ci/cocci/run-triple"

test_expect_success 'spatch is installed' '
	spatch --version >version &&
	grep "spatch version" version
'

test_expect_success 'every rule is a whole triple' '
	find "$sp" -name "*.cocci" | sort >rules &&
	test -s rules &&
	while read -r rule
	do
		test -f "${rule%.cocci}.c" &&
		test -f "${rule%.cocci}.res" || return 1
	done <rules
'

for rule in $(cd "$sp" && find . -name '*.cocci' | sed 's|^\./||' | sort)
do
	name=${rule%.cocci}
	test_expect_success "$name" '
		out=$(echo "$name" | tr / _) &&
		"$run_triple" "$sp/$rule" >"$out.actual" &&
		test_cmp "$sp/$name.res" "$out.actual" &&
		"$run_triple" "$sp/$rule" "$sp/$name.res" >"$out.again" &&
		test_cmp "$sp/$name.res" "$out.again"
	'
done

test_expect_success 'a rule that does not do its job fails its triple' '
	mkdir -p broken &&
	sed "s/PGROTATE_ANON + file, rotated/PGROTATE_FILE, rotated/" \
		"$sp/mm-vmscan-reduce-lru_lock-contention-via-vmstat/6.12/note-cost-callers.cocci" \
		>broken/note-cost-callers.cocci &&
	cp "$sp/mm-vmscan-reduce-lru_lock-contention-via-vmstat/6.12/note-cost-callers.c" \
		broken/ &&
	"$run_triple" broken/note-cost-callers.cocci >broken.actual &&
	! test_cmp "$sp/mm-vmscan-reduce-lru_lock-contention-via-vmstat/6.12/note-cost-callers.res" \
		broken.actual
'

test_done

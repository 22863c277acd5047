#!/bin/sh

test_description='stablekit workspace init: the embedded 6.12.y kernel repository

Builds the workspace from Debian linux-source-6.12 for real (about a
minute) in $SK_WORK/linux, where later real-kernel tests reuse it; an
existing workspace there is verified instead.
'

. ./lib-stablekit.sh

SRC=/usr/src/linux-source-6.12.tar.xz
if ! test -f "$SRC"; then
	skip_all="$SRC not installed (make deps)"
	test_done
fi

WS="$SK_WORK/linux"

test_expect_success 'init builds (or verifies) the workspace' '
	sk_new_project p &&
	cp "$SK_TOP/stable/branches.conf" p/stable/ &&
	(cd p && stablekit workspace init --json >../init.json) &&
	jq -e ".branch == \"linux-6.12.y\"" init.json &&
	jq -r .dir init.json >dir && echo "$WS" >expect && test_cmp expect dir
'

test_expect_success 'branch linux-6.12.y with tag v6.12.<sublevel> of the Makefile' '
	sub=$(sed -n "s/^SUBLEVEL = //p" "$WS/Makefile") &&
	test -n "$sub" &&
	test "$(git -C "$WS" symbolic-ref HEAD)" = refs/heads/linux-6.12.y &&
	test "$(git -C "$WS" rev-parse "v6.12.$sub^{commit}")" = \
	     "$(git -C "$WS" rev-parse linux-6.12.y)" &&
	jq -e ".tag == \"v6.12.$sub\"" init.json
'

test_expect_success 'HEAD has the whole tree, .gitignore notwithstanding' '
	git -C "$WS" cat-file -e HEAD:mm/vmscan.c &&
	git -C "$WS" cat-file -e HEAD:Documentation/process/stable-kernel-rules.rst &&
	git -C "$WS" cat-file -e HEAD:.gitignore &&
	test "$(git -C "$WS" ls-tree -r HEAD | wc -l)" -gt 80000
'

test_expect_success 'the work tree is clean' '
	git -C "$WS" status --porcelain --ignored >st &&
	test_must_be_empty st
'

test_expect_success 'a second init is a no-op that says so' '
	before=$(git -C "$WS" rev-parse HEAD) &&
	(cd p && stablekit workspace init >../out) &&
	grep "^already initialised" out &&
	test "$(git -C "$WS" rev-parse HEAD)" = "$before"
'

test_expect_success 'a directory that is not a workspace is refused' '
	mkdir -p other/linux && echo x >other/linux/file &&
	test_must_fail stablekit workspace init other/linux 2>err &&
	grep "exists and is not a workspace" err &&
	test -f other/linux/file
'

test_expect_success 'a missing tarball fails before touching anything' '
	test_must_fail stablekit workspace init --source /nonexistent.tar.xz new 2>err &&
	grep "not found" err &&
	! test -e new
'

test_expect_success 'status runs against the workspace by default' '
	(cd p && SK_WORK="$SK_WORK" stablekit status --json >../status.json) &&
	jq -e ".branches[] | select(.name == \"linux-6.12.y\") | .tip != null" status.json
'

test_expect_success 'the branches the workspace lacks are unknown, and expected (exit 0)' '
	(cd p && SK_WORK="$SK_WORK" stablekit status >../out) &&
	grep "^linux-7.1.y: unknown: ref .linux-7.1.y. is not in the embedded workspace (it holds linux-6.12.y only; pass --repo)$" out &&
	! grep "^linux-6.12.y: unknown" out
'

test_done

#!/bin/sh

test_description='stablekit status: stable branches take mainline first

A stable branch takes a patch only once it is proven upstream: a live
mainline commit carries it, or a newer stable branch has it (upstream by
proxy: stable trees take only mainline commits).  A patch it would need
otherwise waits, and says why, unless the branch sets allow-pending.

The model: mainline (master) with v7.1, v7.2 and, after v7.2, U (series
up) and D (patch 2 of series dep); linux-7.1.y and linux-7.2.y from the
tags; linux-7.2.y carries X (series proxy), which mainline has not.
Series pend is nowhere.  Every patch has Cc: stable, but dep:1.
'

. ./lib-stablekit.sh

# write_series SLUG SUBJECT: series.conf header, one revision.
write_series() {
	mkdir -p "p/series/$1" &&
	cat >"p/series/$1/series.conf" <<-CONF
	[series]
		slug = $1
		subject = $2
		author = Dev Eloper <dev@example.org>
	[revision "1"]
		message-id = $1-0@example.org
		mbox = v1.mbx
	CONF
	: >"p/series/$1/v1.mbx"
}

# add_patch SLUG N SUBJECT PATCH-ID FILE [KEY=VALUE...]
add_patch() {
	conf="p/series/$1/series.conf"
	printf '[patch "1.%s"]\n\tsubject = %s\n\tauthor = Dev Eloper <dev@example.org>\n' "$2" "$3" >>"$conf" &&
	printf '\tmessage-id = %s-%s@example.org\n\tpatch-id = %s\n\tfile = %s\n' "$1" "$2" "$4" "$5" >>"$conf" &&
	shift 5 &&
	for kv in "$@"; do
		printf '\t%s = %s\n' "${kv%%=*}" "${kv#*=}" >>"$conf"
	done
}

pid() { git -C linux show "$1" | git patch-id --stable | cut -c1-40; }

# edit FILE LINE TEXT SUBJECT: change one line and commit it
edit() {
	sed -i "$2s/.*/$3/" "linux/$1" && git -C linux commit -qam "$4"
}

# state PATCH BRANCH: the state in status.json
state() {
	jq -r --arg p "$1" --arg b "$2" \
		'.patches[] | select(.id == $p) | .branches[$b].state' status.json
}

branches() {
	cat <<-EOF
	[stablekit]
		repo = ../linux
	EOF
	if test "$1" = mainline; then
		cat <<-EOF
		[branch "mainline"]
			ref = master
			base = v7.1
			kind = mainline
		EOF
	fi
	cat <<-EOF
	[branch "linux-7.1.y"]
		ref = linux-7.1.y
		base = v7.1
	[branch "linux-7.2.y"]
		ref = linux-7.2.y
		base = v7.2
	EOF
}

CC=cc=stable@vger.kernel.org

test_expect_success 'setup: model repository and the four series' '
	git init -q linux &&
	mkdir linux/mm &&
	for f in a b c; do
		test_seq 1 20 | sed "s/^/$f line /" >linux/mm/$f.c || return 1
	done &&
	git -C linux add -A && git -C linux commit -qm "Linux 7.1" &&
	git -C linux tag v7.1 &&
	echo 7.2 >linux/Makefile && git -C linux add Makefile &&
	git -C linux commit -qm "Linux 7.2" && git -C linux tag v7.2 &&
	git -C linux checkout -q -b linux-7.1.y v7.1 &&
	echo 7.1.1 >linux/Makefile && git -C linux add Makefile &&
	git -C linux commit -qm "Linux 7.1.1" &&
	git -C linux checkout -q -b linux-7.2.y v7.2 &&
	edit mm/b.c 5 "b line five" "mm: b: fix the proxy race" &&
	X=$(git -C linux rev-parse HEAD) &&
	git -C linux checkout -q master &&
	edit mm/a.c 5 "a line five" "mm: a: fix the upstream leak" &&
	U=$(git -C linux rev-parse HEAD) &&
	edit mm/c.c 9 "c line nine" "mm: c: fix the helper user" &&
	D=$(git -C linux rev-parse HEAD) &&
	sk_new_project p &&
	branches mainline >p/stable/branches.conf &&
	write_series up "mm: a: fix the upstream leak" &&
	add_patch up 1 "mm: a: fix the upstream leak" "$(pid $U)" mm/a.c $CC &&
	write_series pend "mm: a: fix the pending leak" &&
	add_patch pend 1 "mm: a: fix the pending leak" \
		4444444444444444444444444444444444444444 mm/a.c $CC &&
	write_series proxy "mm: b: fix the proxy race" &&
	add_patch proxy 1 "mm: b: fix the proxy race" "$(pid $X)" mm/b.c $CC &&
	write_series dep "mm: c: a helper and its user" &&
	add_patch dep 1 "mm: c: add a helper" \
		5555555555555555555555555555555555555555 mm/c.c &&
	add_patch dep 2 "mm: c: fix the helper user" "$(pid $D)" mm/c.c $CC &&
	(cd p && stablekit status --json >../status.json)
'

test_expect_success 'upstream on mainline: needed on both stable branches' '
	test "$(state up:1 mainline)" = upstream &&
	test "$(state up:1 linux-7.1.y)" = needed &&
	test "$(state up:1 linux-7.2.y)" = needed
'

test_expect_success 'pending on mainline: waits on both stable branches, and says why' '
	test "$(state pend:1 mainline)" = pending &&
	test "$(state pend:1 linux-7.1.y)" = waits &&
	test "$(state pend:1 linux-7.2.y)" = waits &&
	(cd p && stablekit status --why pend:1 linux-7.1.y >../why) &&
	head -n1 why | grep "on linux-7.1.y: waits$" &&
	sed -n 2p why >line &&
	echo "  - not upstream yet (mainline-first): no mainline commit proves it, and no newer stable branch has it; needed once it is upstream (Cc: stable)" >expect &&
	test_cmp expect line
'

test_expect_success 'in a newer stable branch: upstream by proxy, needed on the older one' '
	test "$(state proxy:1 mainline)" = pending &&
	test "$(state proxy:1 linux-7.2.y)" = present &&
	test "$(state proxy:1 linux-7.1.y)" = needed &&
	jq -r ".patches[] | select(.id == \"proxy:1\") |
		.branches[\"linux-7.1.y\"].upstream_by_proxy" status.json >by &&
	echo linux-7.2.y >expect && test_cmp expect by &&
	(cd p && stablekit status --why proxy:1 linux-7.1.y >../why) &&
	grep "^  - upstream by proxy: linux-7.2.y, a newer stable branch, has it; stable branches take only mainline commits$" why
'

test_expect_success 'upstream, but it needs an earlier patch that is not: waits too' '
	test "$(state dep:2 mainline)" = upstream &&
	test "$(state dep:1 mainline)" = pending &&
	test "$(state dep:2 linux-7.1.y)" = waits &&
	test "$(state dep:1 linux-7.1.y)" = "not eligible" &&
	(cd p && stablekit status --why dep:2 linux-7.1.y >../why) &&
	grep "^  - not upstream yet (mainline-first): it needs dep:1 (\"mm: c: add a helper\"), both touch the same files, and that patch is not upstream yet$" why
'

test_expect_success 'the table shows waits' '
	(cd p && stablekit status --no-color >../table) &&
	grep "^pend:1  *pending  *waits  *waits " table &&
	grep "^proxy:1  *pending  *needed  *present " table
'

# tty_status COLUMNS: the table as a terminal of that width shows it
tty_status() {
	(cd p && COLUMNS=$1 script -qec "stablekit --quiet status --no-color" /dev/null) |
	tr -d "\r"
}

test_expect_success 'on a terminal the subject fits its width, cut at a word' '
	tty_status 65 >narrow &&
	grep "^up:1 .*  mm: a: fix the…\$" narrow &&
	sed "s/…/./" narrow | awk "{ if (length(\$0) > 65) exit 1 }" &&
	tty_status 200 >wide &&
	grep "^up:1 .*  mm: a: fix the upstream leak\$" wide &&
	(cd p && COLUMNS=60 stablekit status --no-color) >piped &&
	grep "^up:1 .*  mm: a: fix the upstream leak\$" piped
'

test_expect_success 'allow-pending = true on one branch: its pending patches needed, with Stable-dep-of' '
	git config -f p/stable/branches.conf branch.linux-7.1.y.allow-pending true &&
	(cd p && stablekit status --json >../status.json) &&
	test "$(state pend:1 linux-7.1.y)" = needed &&
	test "$(state pend:1 linux-7.2.y)" = waits &&
	test "$(state dep:2 linux-7.1.y)" = needed &&
	test "$(state dep:1 linux-7.1.y)" = needed &&
	(cd p && stablekit status --why dep:1 linux-7.1.y >../why) &&
	grep "Stable-dep-of: dep:2" why &&
	git config -f p/stable/branches.conf --unset branch.linux-7.1.y.allow-pending
'

test_expect_success 'no mainline tracked: only the proxy proves; the reason says so' '
	branches >p/stable/branches.conf &&
	(cd p && stablekit status --json >../status.json) &&
	test "$(state up:1 linux-7.1.y)" = waits &&
	test "$(state proxy:1 linux-7.1.y)" = needed &&
	(cd p && stablekit status --why up:1 linux-7.2.y >../why) &&
	grep "^  - not upstream yet (mainline-first): no mainline branch is tracked to prove it, and no newer stable branch has it" why
'

test_done

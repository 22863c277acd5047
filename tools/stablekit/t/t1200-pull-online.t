#!/bin/sh

test_description='stablekit pull <msgid> and pull --update against a real public-inbox server

Debian'"'"'s public-inbox (the software lore runs) serves an inbox on
127.0.0.1 (t1200/README): series A'"'"'s v1 arrives, later its v2, then a
review with an Acked-by and a fixlet reply, then a v3 that folds the fixlet
in as patch 3; series B, with a change-id, gets a v4 under a reworded
subject.  After each import pull --update must find, store and report
exactly that, and "up to date" on the run after.  The queue ported from v2
is shown stale once v3 is stored; the server stopped, the update exits 128
and touches nothing.
'

. ./lib-stablekit.sh
. "$SK_TOP/ci/model/linux.sh"

A=mm-vmscan-reduce-lru_lock-contention-via-vmstat
F="$SHARNESS_TEST_SRCDIR/t1200"
V1=20260706091200.1402215-1-usama.arif@linux.dev
V2=20260713163431.1907337-1-usama.arif@linux.dev
V3=20260720101500.2210554-1-usama.arif@linux.dev
B=mm-workingset-fix-the-shadow-node-budget-under-mglru
B3=20260904094555.2871043-1-hui.zhu@linux.dev
B4=20260914031000.1184420-1-hui.zhu@linux.dev
INBOX="$SHARNESS_TRASH_DIRECTORY/inbox"
PI_CONFIG="$SHARNESS_TRASH_DIRECTORY/pi.config"
SK_WORK="$SHARNESS_TRASH_DIRECTORY/work"
export PI_CONFIG SK_WORK
# curl and b4 (python-requests) go to the server itself, never to a proxy
no_proxy=127.0.0.1 NO_PROXY=127.0.0.1
export no_proxy NO_PROXY

conf() {
	git config -f "p/series/$A/series.conf" "$@"
}

confb() {
	git config -f "p/series/$B/series.conf" "$@"
}

snapshot() {
	(cd p && find series stable -type f | sort | xargs sha1sum) &&
	(cd "$SK_WORK" && find . -type f | sort | xargs sha1sum)
}

# The server: public-inbox-httpd on a free loopback port, stopped by its PID
# on every path out of this script.
stop_server() {
	test -f httpd.pid || return 0
	pid=$(cat httpd.pid) && rm -f httpd.pid &&
	kill "$pid" 2>/dev/null
	for i in $(seq 50); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	kill -9 "$pid" 2>/dev/null
	return 0
}
trap 'sk_code=$?; stop_server; (exit $sk_code); die' EXIT

# A search that answers (200, or 404: nothing found) after an import:
# public-inbox 1.9 restarts a worker whose index changed under it.
wait_server() {
	for i in $(seq 100); do
		code=$(curl -s -o /dev/null -w "%{http_code}" --max-time 5 \
			"$LORE?q=s:vmscan&x=A") &&
		case $code in 200|404) return 0 ;; esac
		sleep 0.1
	done
	echo "public-inbox-httpd did not answer on $LORE" >&2
	return 1
}

start_server() {
	PORT=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])") ||
	return 1
	LORE="http://127.0.0.1:$PORT/linux-mm/"
	public-inbox-httpd -l "http://127.0.0.1:$PORT" </dev/null >>httpd.log 2>&1 \
		3>&- 4>&- 5>&- 6>&- &
	echo $! >httpd.pid
	wait_server
}

# import MBOX: every mail as the list would deliver it, then index
import() {
	rm -rf split && mkdir split &&
	git mailsplit --mboxrd -osplit "$1" >/dev/null &&
	for m in split/*; do
		ORIGINAL_RECIPIENT=linux-mm@kvack.org \
		public-inbox-mda --no-precheck <"$m" || return 1
	done &&
	public-inbox-index "$INBOX" &&
	{ test ! -f httpd.pid || wait_server; }
}

update() {
	(cd p && stablekit pull --update "$@")
}

test_expect_success 'setup: a public-inbox list, a model repository, a project' '
	public-inbox-init -V2 -L full linux-mm "$INBOX" \
		http://127.0.0.1/linux-mm/ linux-mm@kvack.org &&
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none &&
	build_linuxa &&
	mkdir -p "$SK_WORK" &&
	sk_new_project p &&
	cat >p/stable/branches.conf <<-EOF
	[stablekit]
		repo = ../linuxa
		signoff = Stable Tester <tester@example.org>
	[branch "mainline"]
		ref = master
		base = v7.0
		kind = mainline
	[branch "linux-7.2.y"]
		ref = linux-7.2.y
		base = v7.2
		kind = downstream
		select = $A
	EOF
'

test_expect_success 'no series yet: update has nothing to follow and asks no server' '
	update >out &&
	echo "no series under series/: nothing to follow" >expect &&
	test_cmp expect out
'

# public-inbox-httpd 1.9 searches only an index that existed when it started
test_expect_success 'v1 on the list: pull <msgid> fetches it from the server through b4' '
	import "$F/1-v1.mbox" &&
	start_server &&
	git config -f p/stable/branches.conf stablekit.lore "$LORE" &&
	(cd p && stablekit pull $V1) >out &&
	echo "$A: v1, 2 patches (new series)" >expect &&
	test_cmp expect out &&
	test "$(conf revision.1.message-id)" = $V1 &&
	test "$(conf series.author)" = "Usama Arif <usama.arif@linux.dev>" &&
	test -f p/series/$A/v1.mbx
'

test_expect_success 'the Link: trailers point at the configured server' '
	test "$(conf patch.1.1.link)" = \
		"${LORE}20260706091200.1402215-2-usama.arif@linux.dev"
'

test_expect_success 'nothing new: update says up to date and writes nothing' '
	snapshot >before &&
	update >out &&
	echo "$A: up to date (v1)" >expect &&
	test_cmp expect out &&
	snapshot >after &&
	test_cmp before after
'

test_expect_success 'v2 arrives: update finds it by subject and author and pulls it' '
	import "$F/2-v2.mbox" &&
	update >out &&
	cat >expect <<-EOF &&
	$A: new revision v2 on the list, pulled (2 patches; previous v1)
	  same code 1: mm/vmstat, mm/memcontrol: add _monotonic vmstat readers (unchanged)
	  changed   2: mm/vmscan: reduce lru_lock contention via vmstat-derived scan-balance cost (code changed)
	  interdiff 2: +1 -1 lines (stablekit diff $A v1 v2)
	EOF
	test_cmp expect out &&
	test "$(conf revision.2.message-id)" = $V2 &&
	test "$(conf revision.2.patches)" = 2 &&
	test -f p/series/$A/v1.mbx && test -f p/series/$A/v2.mbx
'

test_expect_success 'the run after: up to date, nothing written' '
	snapshot >before &&
	update >out &&
	echo "$A: up to date (v2)" >expect &&
	test_cmp expect out &&
	snapshot >after &&
	test_cmp before after
'

test_expect_success 'port takes v2 and records it; no queue is stale' '
	(cd p && stablekit port $A --branch linux-7.2.y) >port.out &&
	test "$(jq .revision "$SK_WORK/results/linux-7.2.y/port/$A.json")" = 2 &&
	update --json >out.json &&
	jq -e ".stale == []" out.json &&
	(cd p && stablekit status --no-color) >status.out &&
	! grep stale status.out
'

test_expect_success 'a review: update finds the Acked-by and the fixlet reply' '
	import "$F/3-review.mbox" &&
	update >out &&
	cat >expect <<-EOF &&
	$A: v2 updated: 1 new trailer, 1 new fixlet
	  same code 1: mm/vmstat, mm/memcontrol: add _monotonic vmstat readers (trailers changed)
	              + Acked-by: Johannes Weiner <hannes@cmpxchg.org>
	  same code 2: mm/vmscan: reduce lru_lock contention via vmstat-derived scan-balance cost (fixlets changed)
	EOF
	test_cmp expect out &&
	test "$(conf patch.2.1.acked-by)" = "Johannes Weiner <hannes@cmpxchg.org>" &&
	test "$(conf fixlet.2.2.1.message-id)" = 5d3e8c1a-7f2b-4c9e-9a41-2f6d0b8e7c13@linux.dev &&
	test -f p/series/$A/v2.fixlets.mbx &&
	update >out &&
	echo "$A: up to date (v2)" >expect &&
	test_cmp expect out
'

test_expect_success 'v3 with a third patch: update --json pulls it and says what changed' '
	import "$F/4-v3.mbox" &&
	update --json >out.json &&
	jq -e ".lore == \"$LORE\"" out.json &&
	jq -e ".series | length == 1" out.json &&
	jq -e ".series[0] | .series == \"$A\" and .status == \"new-revision\" and
		.latest_before == 2 and .latest == 3 and .found == 1" out.json &&
	jq -e ".series[0].pulls | length == 1" out.json &&
	jq -e ".series[0].pulls[0] | .message_id == \"$V3\" and
		.outcome == \"new-revision\" and .version == 3 and .previous == 2" out.json &&
	jq -e "[.series[0].pulls[0].changes[] | select(.changes | index(\"added\"))] |
		map(.nr) == [3]" out.json &&
	test "$(conf revision.3.patches)" = 3 &&
	test "$(conf patch.3.3.subject)" = \
		"mm/vmscan: increment pgreclaim_pageout_* and pgrotate_* for MGLRU" &&
	test "$(conf patch.3.1.acked-by)" = "Johannes Weiner <hannes@cmpxchg.org>" &&
	jq -e ".stale == [{\"branch\": \"linux-7.2.y\", \"series\": \"$A\", \"ported\": 2, \"latest\": 3, \"ported_label\": \"v2\", \"latest_label\": \"v3\"}]" out.json
'

test_expect_success 'the run after: up to date, and the queue from v2 is named stale' '
	update >out &&
	cat >expect <<-EOF &&
	$A: up to date (v3)
	linux-7.2.y: $A: stale (v3 on the list, queue from v2): stablekit port $A --branch linux-7.2.y
	EOF
	test_cmp expect out
'

test_expect_success 'series B has a change-id: its v4 under a reworded subject is found by it' '
	import "$F/6-b-v3.mbox" &&
	(cd p && stablekit pull $B3) >out 2>/dev/null &&
	grep "^$B: v3, 3 patches (new series)" out &&
	test "$(confb series.change-id)" = 20260828-shadow-budget-5c2e91 &&
	update $B >out 2>err &&
	echo "$B: up to date (v3)" >expect &&
	test_cmp expect out &&
	test_must_be_empty err &&
	import "$F/7-b-v4.mbox" &&
	update $B >out &&
	cat out &&
	head -n 1 out >actual &&
	echo "$B: new revision v4 on the list, pulled (3 patches; previous v3)" >expect &&
	test_cmp expect actual &&
	test "$(confb revision.4.message-id)" = $B4 &&
	test "$(confb series.subject)" = "mm: workingset: fix the shadow node budget under MGLRU" &&
	update $B >out &&
	echo "$B: up to date (v4)" >expect &&
	test_cmp expect out
'

test_expect_success 'status shows the queue ported from v2 as stale' '
	(cd p && stablekit status --no-color) >status.out &&
	grep "^linux-7.2.y: $A: stale (v3 on the list, queue from v2): stablekit port $A --branch linux-7.2.y$" status.out &&
	(cd p && stablekit status --json) >status.json &&
	jq -e ".stale == [{\"branch\": \"linux-7.2.y\", \"series\": \"$A\", \"ported\": 2, \"latest\": 3, \"ported_label\": \"v2\", \"latest_label\": \"v3\"}]" status.json
'

test_expect_success 'the report names the revision the queue came from and the newer one' '
	(cd p && stablekit report --branch linux-7.2.y --json) >report.json &&
	jq -e ".backports.series[] | select(.series == \"$A\") |
		.revision == 2 and .latest_revision == 3" report.json
'

test_expect_success 'port again regenerates the queue from v3; stale no more' '
	(cd p && stablekit port $A --branch linux-7.2.y) >port.out &&
	test "$(jq .revision "$SK_WORK/results/linux-7.2.y/port/$A.json")" = 3 &&
	grep "^  3\. " port.out &&
	grep "increment-pgreclaim" p/stable/linux-7.2.y/series &&
	(cd p && stablekit status --no-color) >status.out &&
	! grep stale status.out
'

test_expect_success 'an incomplete v4 on the list: update fails for it, stores nothing of it' '
	import "$F/5-v4-incomplete.mbox" &&
	snapshot >before &&
	test_expect_code 128 update >out 2>err &&
	grep "^$A: failed pulling 20260727080000.3301876-1-usama.arif@linux.dev: .*incomplete series, missing patch 2/3 3/3" out &&
	grep "^error: $A: " err &&
	snapshot >after &&
	test_cmp before after &&
	test_must_fail conf revision.4.message-id
'

test_expect_success 'offline: the server stopped, update exits 128 and touches nothing' '
	stop_server &&
	snapshot >before &&
	test_expect_code 128 update 2>err >out &&
	grep "cannot reach $LORE (offline?)" err &&
	grep "nothing was pulled" err &&
	test_must_be_empty out &&
	snapshot >after &&
	test_cmp before after
'

test_expect_success 'offline: pull <msgid> names the server it could not fetch from' '
	test_expect_code 128 stablekit -C p pull --timeout 60 $V3 2>err &&
	grep "b4 could not fetch .$V3. from $LORE" err
'

test_expect_success 'a lore setting that is no http(s) URL is an error naming the file' '
	git config -f p/stable/branches.conf stablekit.lore "file:///etc" &&
	test_expect_code 128 update 2>err &&
	grep "stable/branches.conf: stablekit.lore: .file:///etc. is not an http(s) URL" err
'

test_expect_success 'update of a series that is not stored is a usage error (129)' '
	git config -f p/stable/branches.conf stablekit.lore "$LORE" &&
	test_expect_code 129 update no-such-series 2>err &&
	grep "no-such-series" err
'

test_done

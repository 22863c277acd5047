#!/bin/sh

test_description='stablekit pull --update on real list traffic

Real cgroups-list threads (corpus/threads, message-ids in
corpus/README.md) served by a local public-inbox (as t1200): an ack sent
to the cover letter after the series was stored reaches every patch; the
incomplete first posting of a v2 that was resent whole is noted and
skipped, not a failure of every update.
'

. ./lib-stablekit.sh

T="$SHARNESS_TEST_DIRECTORY/corpus/threads"
INBOX="$SHARNESS_TRASH_DIRECTORY/inbox"
PI_CONFIG="$SHARNESS_TRASH_DIRECTORY/pi.config"
export PI_CONFIG
no_proxy=127.0.0.1 NO_PROXY=127.0.0.1
export no_proxy NO_PROXY

conf() { git config -f "$1/series/$2/series.conf" "$3"; }

snapshot() {
	(cd "$1" && find series -type f | sort | xargs sha1sum)
}

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

wait_server() {
	for i in $(seq 100); do
		code=$(curl -s -o /dev/null -w "%{http_code}" --max-time 5 \
			"$LORE?q=s:memcg&x=A") &&
		case $code in 200|404) return 0 ;; esac
		sleep 0.1
	done
	echo "public-inbox-httpd did not answer on $LORE" >&2
	return 1
}

start_server() {
	PORT=$(python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])") ||
	return 1
	LORE="http://127.0.0.1:$PORT/cgroups/"
	public-inbox-httpd -l "http://127.0.0.1:$PORT" </dev/null >>httpd.log 2>&1 \
		3>&- 4>&- 5>&- 6>&- &
	echo $! >httpd.pid
	wait_server
}

# public-inbox-httpd 1.9 searches only an index that existed when it
# started: import everything first, then start it.
import() {
	rm -rf split && mkdir split &&
	git mailsplit --mboxrd -osplit "$1" >/dev/null &&
	for m in split/*; do
		ORIGINAL_RECIPIENT=cgroups@vger.kernel.org \
		public-inbox-mda --no-precheck <"$m" || return 1
	done &&
	public-inbox-index "$INBOX"
}

# project DIR: a project that reads the local server
project() {
	sk_new_project "$1" &&
	git config -f "$1/stable/branches.conf" stablekit.lore "$LORE"
}

DYING=memcg-bail-out-reclaim-when-memcg-is-dying
KMEM=per-memcg-per-node-kmem-accounting
KMEM_FIRST=20260626101356.1599643-1-alex@ghiti.fr
KMEM_RESEND=20260626102358.1603618-1-alex@ghiti.fr
BLK=blk-throttle-fix-divide-by-zero-on-legacy-iops-limit
BLK_V2=20260715125042.1465476-1-cui.tao@linux.dev
SWAP=mm-swap-introduce-swap-tier-infrastructure
SWAP_V8=20260617053447.2831896-1-youngjun.park@lge.com

test_expect_success 'setup: the threads on a public-inbox list' '
	public-inbox-init -V2 -L full cgroups "$INBOX" \
		http://127.0.0.1/cgroups/ cgroups@vger.kernel.org &&
	git config -f "$PI_CONFIG" publicinboxmda.spamcheck none &&
	import "$T/memcg-dying-v2-cover-ack.mbox" &&
	import "$T/kmem-v2-first-incomplete.mbox" &&
	import "$T/kmem-v2-resend.mbox" &&
	import "$T/blk-throttle-v2-sent-as-other.mbox" &&
	import "$T/swap-tiers-v8-new-subject.mbox" &&
	start_server
'

test_expect_success 'stored before the ack came: update gives the cover ack to every patch' '
	project p1 &&
	awk "/^From mboxrd@z/ { n++ } n <= 5" "$T/memcg-dying-v2-cover-ack.mbox" >no-ack.mbox &&
	stablekit -C p1 pull -m "$PWD/no-ack.mbox" >out &&
	grep "^$DYING: v2, 4 patches (new series)$" out &&
	test_must_fail conf p1 $DYING patch.2.1.acked-by &&
	(cd p1 && stablekit pull --update) >out &&
	grep "^$DYING: v2 updated: 4 new trailers, 0 new fixlets$" out &&
	for i in 1 2 3 4; do
		test "$(conf p1 $DYING patch.2.$i.acked-by)" = "Johannes Weiner <hannes@cmpxchg.org>" || return 1
	done &&
	(cd p1 && stablekit pull --update) >out &&
	echo "$DYING: up to date (v2)" >expect &&
	test_cmp expect out
'

test_expect_success 'a pick (pull -P 3) stored before the ack: update gives it the ack, still one patch' '
	project p6 &&
	stablekit -C p6 pull -P 3 -m "$PWD/no-ack.mbox" >out &&
	S=$(ls p6/series) &&
	test "$(conf p6 $S revision.2.patches)" = 1 &&
	test_must_fail conf p6 $S patch.2.1.acked-by &&
	(cd p6 && stablekit pull --update) >out &&
	grep "^$S: v2 updated: 1 new trailer, 0 new fixlets$" out &&
	test "$(conf p6 $S patch.2.1.acked-by)" = "Johannes Weiner <hannes@cmpxchg.org>" &&
	test "$(conf p6 $S revision.2.patches)" = 1 &&
	test "$(conf p6 $S series.picked)" = "3/4 of <20260630012909.144372-1-jiayuan.chen@linux.dev>" &&
	(cd p6 && stablekit pull --update) >out &&
	echo "$S: up to date (v2)" >expect &&
	test_cmp expect out
'

test_expect_success 'v2 stored whole from its RESEND: the incomplete first posting is noted and skipped' '
	project p5 &&
	stablekit -C p5 pull -m "$T/kmem-v2-resend.mbox" >out &&
	grep "^$KMEM: v2, 9 patches (new series)$" out &&
	snapshot p5 >before &&
	(cd p5 && stablekit pull --update) >out 2>err &&
	grep "^$KMEM: skipped $KMEM_FIRST: an incomplete posting of v2 (missing patch 5/9 6/9 7/9 8/9 9/9); v2 is stored complete from <$KMEM_RESEND>$" out &&
	grep "^$KMEM: up to date (v2)$" out &&
	! grep "^error:" err &&
	snapshot p5 >after &&
	test_cmp before after &&
	(cd p5 && stablekit pull --update --json) >out.json &&
	jq -e ".series[0].status == \"up-to-date\"" out.json &&
	jq -e ".series[0].pulls[] | select(.message_id == \"$KMEM_FIRST\") | .outcome == \"skipped\"" out.json
'

test_expect_success 'sent from another address than the in-body From: v2 is found by the sender too' '
	project p3 &&
	stablekit -C p3 pull -m "$T/blk-throttle-v1-sent-as-other.mbox" >out &&
	grep "^$BLK: v1, 1 patch (new series)$" out &&
	test "$(conf p3 $BLK series.author)" = "Tao Cui <cuitao@kylinos.cn>" &&
	test "$(conf p3 $BLK revision.1.sender)" = "Tao Cui <cui.tao@linux.dev>" &&
	(cd p3 && stablekit pull --update) >out &&
	grep "^$BLK: new revision v2 on the list, pulled (1 patch; previous v1)$" out &&
	test "$(conf p3 $BLK revision.2.message-id)" = $BLK_V2 &&
	(cd p3 && stablekit pull --update) >out &&
	echo "$BLK: up to date (v2)" >expect &&
	test_cmp expect out
'

test_expect_success 'a v8 under a new subject that links v7 is found and joins the series' '
	project p8 &&
	stablekit -C p8 pull -m "$T/swap-tiers-v7.mbox" >out &&
	grep "^$SWAP: v7, 4 patches (new series)$" out &&
	(cd p8 && stablekit pull --update) >out &&
	grep "^$SWAP: new revision v8 on the list, pulled (4 patches; previous v7)$" out &&
	test "$(conf p8 $SWAP revision.8.message-id)" = $SWAP_V8 &&
	test "$(ls p8/series)" = $SWAP
'

test_expect_success 'offline too: pull -m of the v8 thread joins the stored v7' '
	project p8b &&
	stablekit -C p8b pull -m "$T/swap-tiers-v7.mbox" >/dev/null &&
	stablekit -C p8b pull -m "$T/swap-tiers-v8-new-subject.mbox" >out &&
	grep "^$SWAP: v8, 4 patches (new revision; previous v7)$" out &&
	test "$(ls p8b/series)" = $SWAP
'

test_done

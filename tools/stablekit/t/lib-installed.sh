# The user's flow from installed files alone, shared by t0300 (make
# install) and t0310 (the Debian package).  The including test defines
# installed() (stablekit from the install root on PATH), ROOT (that root)
# and SK_WORK, and has its seed in $SK_SEEDS.  SEEN_ROOT is the root as
# the installed stablekit sees it: ROOT unless set (t0320 sets it empty,
# stablekit running chrooted there).
: "${SEEN_ROOT=$ROOT}"

test_expect_success 'setup: the inputs, copied out of the checkout' '
	cp "$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox" seed.mbox &&
	git init -q linux &&
	mkdir -p linux/mm &&
	printf "int a;\n" >linux/mm/vmscan.c &&
	git -C linux add -A && git -C linux commit -qm "Linux 6.12" &&
	git -C linux tag v6.12 && git -C linux branch linux-6.12.y
'

test_expect_success 'stablekit init makes a project' '
	installed init proj >out &&
	grep "^Initialized a stablekit project in $PWD/proj$" out &&
	test -d proj/series &&
	grep "^#\[branch \"linux-6.12.y\"\]$" proj/stable/branches.conf &&
	grep "^#	repo = ../linux$" proj/stable/branches.conf &&
	grep "^Maintainers List$" proj/MAINTAINERS &&
	! ls -a proj | grep "^\.init"
'

test_expect_success 'init --json names the project and what it made' '
	installed init --json made/here >json &&
	jq -e --arg p "$PWD/made/here" ".project == \$p" json &&
	jq -e ".created == [\"series/\", \"stable/branches.conf\", \"MAINTAINERS\"]" json &&
	test -d made/here/series
'

test_expect_success 'init refuses a project that is there, and writes nothing' '
	echo "# mine" >>proj/stable/branches.conf &&
	cp proj/stable/branches.conf conf.before &&
	test_expect_code 128 installed init proj 2>err &&
	grep "^error: .proj/series. exists: proj is a stablekit project already (nothing written)$" err &&
	test_cmp conf.before proj/stable/branches.conf &&
	! ls -a proj | grep "^\.init"
'

test_expect_success 'init refuses to write over a MAINTAINERS, and writes nothing' '
	mkdir other && echo "mine" >other/MAINTAINERS &&
	test_expect_code 128 installed init other 2>err &&
	grep "^error: .other/MAINTAINERS. exists: init would overwrite it (nothing written)$" err &&
	echo mine >expect && test_cmp expect other/MAINTAINERS &&
	! test -e other/series && ! test -e other/stable
'

test_expect_success 'pull and status work in it, from the installed files' '
	cat >>proj/stable/branches.conf <<-\EOF &&
	[stablekit]
		repo = ../linux
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12
		kind = downstream
	EOF
	(cd proj && installed pull -m ../seed.mbox) >pull.out &&
	grep "^mm-vmscan-reduce-lru_lock-contention-via-vmstat: v2, 2 patches" pull.out &&
	(cd proj && installed status --json) >status.json &&
	jq -e ".patches[0].id == \"mm-vmscan-reduce-lru_lock-contention-via-vmstat:1\"" status.json &&
	jq -e ".patches[0].branches[\"linux-6.12.y\"].state == \"not eligible\"" status.json &&
	(cd proj && installed status) >status.out &&
	grep "linux-6.12.y" status.out
'

test_expect_success 'port compiles with the installed kconfig fragments; report' '
	git init -q tiny &&
	cp -R "$SHARNESS_TEST_DIRECTORY/t5210/tree/." tiny/ &&
	git -C tiny add -A && git -C tiny commit -qm "Linux 6.12" && git -C tiny tag v6.12 &&
	git -C tiny checkout -q -b fix &&
	sed -i "s/lruvec->anon_cost += cost;/lruvec->anon_cost += cost + 0;/" tiny/mm/swap.c &&
	git -C tiny commit -qam "mm: swap: count anon the same" &&
	{
		printf "From mboxrd@z Thu Jan  1 00:00:00 1970\n" &&
		printf "From: A U Thor <author@example.org>\n" &&
		printf "Date: Mon, 5 Jan 2026 10:00:00 +0000\n" &&
		printf "Subject: [PATCH] mm: swap: count anon the same\n" &&
		printf "Message-Id: <anon@example.org>\n\n" &&
		printf "Same.\n\nCc: stable@vger.kernel.org\n" &&
		printf "Signed-off-by: A U Thor <author@example.org>\n---\n" &&
		git -C tiny diff fix~1 fix
	} >anon.mbox &&
	cat >>proj/stable/branches.conf <<-\EOF &&
	[branch "vendor"]
		repo = ../tiny
		ref = master
		base = v6.12
		kind = downstream
		select = mm-swap-count-anon-the-same
	EOF
	(cd proj && installed pull -m ../anon.mbox) >pull2.out &&
	(cd proj && installed port mm-swap-count-anon-the-same --branch vendor --json) >port.json &&
	jq -e ".[0].patches[0].method == \"clean\"" port.json &&
	jq -e ".[0].kconfig.from == \"shipped\"" port.json &&
	jq -e --arg f "$SEEN_ROOT/usr/share/stablekit/ci/kconfig/mm-series.config" \
		".[0].kconfig.fragments == [\$f]" port.json &&
	test -f proj/stable/vendor/mm-swap-count-anon-the-same.patch &&
	(cd proj && installed report --branch vendor) >report.out &&
	grep "mm: swap: count anon the same" report.out
'

test_expect_success 'the gate reads the shipped gate.conf, its branch sections only from the project' '
	git -C linux branch linux-7.2.y &&
	cat >>proj/stable/branches.conf <<-\EOF &&
	[branch "linux-7.2.y"]
		ref = linux-7.2.y
		base = v6.12
		kind = downstream
	EOF
	(cd proj && test_expect_code 1 installed gate --json --branch linux-7.2.y \
		--skip build --skip kselftest --skip bench --out "$PWD/../g1") >gate1.json &&
	jq -e --arg f "$SEEN_ROOT/usr/share/stablekit/ci/gate.conf" \
		".config == {\"path\": \$f, \"from\": \"shipped\"}" gate1.json &&
	grep "^\[gate \"linux-7.2.y\"\]" "$ROOT/usr/share/stablekit/ci/gate.conf" &&
	jq -e ".bench == \"lrulock\"" gate1.json &&
	mkdir proj/ci &&
	printf "[gate \"linux-7.2.y\"]\n\tbench = shadow\n" >proj/ci/gate.conf &&
	(cd proj && test_expect_code 1 installed gate --json --branch linux-7.2.y \
		--skip build --skip kselftest --skip bench --out "$PWD/../g2") >gate2.json &&
	jq -e --arg f "$PWD/proj/ci/gate.conf" \
		".config == {\"path\": \$f, \"from\": \"project\"}" gate2.json &&
	jq -e ".bench == \"shadow\"" gate2.json
'

test_expect_success 'a stable branch: the FAILED mail to the author, Cc stable@' '
	git -C tiny checkout -q -b old v6.12 &&
	sed -i "s/lruvec->anon_cost += cost;/lruvec->anon_cost -= cost;/" tiny/mm/swap.c &&
	git -C tiny commit -qam "mm: swap: another change there" &&
	cat >>proj/stable/branches.conf <<-\EOF &&
	[branch "old-stable"]
		repo = ../tiny
		ref = old
		base = v6.12
		kind = stable
		allow-pending = true
	EOF
	(cd proj && test_expect_code 1 installed port mm-swap-count-anon-the-same \
		--branch old-stable) >port.out &&
	grep "FAILED  *mm: swap: count anon the same" port.out &&
	m=proj/stable/old-stable/failed/mm-swap-count-anon-the-same.mail &&
	sed -n "1,/^\$/p" $m >head &&
	cat >expect <<-\EOF &&
	Subject: FAILED: patch "mm: swap: count anon the same" failed to apply to 6.12-stable tree
	To: A U Thor <author@example.org>
	Cc: stable@vger.kernel.org

	EOF
	test_cmp expect head &&
	(cd proj && installed report --branch old-stable) >report.out &&
	r=$SK_WORK/results/old-stable/report &&
	test_cmp $m $r/failed/mm-swap-count-anon-the-same.mail &&
	sed -n "1,2p" $r/report.txt >report.head &&
	cat >expect <<-\EOF &&
	To: A U Thor <author@example.org>
	Cc: stable@vger.kernel.org
	EOF
	test_cmp expect report.head
'

test_expect_success 'help shows the installed manual page' '
	echo "MARK: the installed copy" >>"$ROOT/usr/share/stablekit/Documentation/stablekit-status.txt" &&
	installed help status >help.out &&
	grep "^STABLEKIT-STATUS(1)" help.out &&
	tail -1 help.out | grep "^MARK: the installed copy$" &&
	installed help init | grep "^       stablekit init \[--json\] \[<dir>\]$"
'

test_expect_success 'man shows the installed man pages' '
	MANPATH="$ROOT/usr/share/man" MANWIDTH=80 man stablekit-init >man.out 2>man.err &&
	grep "stablekit-init - create a stablekit project" man.out &&
	MANPATH="$ROOT/usr/share/man" MANWIDTH=80 man stablekit >man.out 2>man.err &&
	grep "stablekit-help - show the manual page" man.out
'


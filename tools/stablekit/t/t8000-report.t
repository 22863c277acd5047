#!/bin/sh

test_description='stablekit report: mail text, JSON and HTML from the results files

t8000/results holds what port, build and gate write for linux-6.12.y.  The
report must copy its numbers, show what did not run as "not run", and sign
Tested-by only when everything ran and passed.
'

. ./lib-stablekit.sh

R="$SHARNESS_TRASH_DIRECTORY/results"
REP="$R/linux-6.12.y/report"

report() {
	(cd p && stablekit report --results "$R" "$@")
}

fresh_results() {
	rm -rf "$R" &&
	cp -R "$SHARNESS_TEST_SRCDIR/t8000/results" "$R"
}

# Rewrite a results file with a jq filter.
edit() {
	jq "$2" "$R/linux-6.12.y/$1" >edit.tmp &&
	mv edit.tmp "$R/linux-6.12.y/$1"
}

test_expect_success 'setup: a project, its queue and a kernel repository with MAINTAINERS' '
	sk_new_project p &&
	cp -R "$SK_TOP/series/." p/series/ &&
	mkdir -p p/stable/linux-6.12.y &&
	cp "$SK_TOP"/stable/linux-6.12.y/* p/stable/linux-6.12.y/ &&
	cat >p/stable/branches.conf <<-\EOF &&
	[stablekit]
		repo = ../linux
		signoff = Report Tester <report@example.org>
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12
		version = 6.12
		kind = downstream
		select = mm-vmscan-reduce-lru_lock-contention-via-vmstat
		arch = x86_64
	EOF
	git init -q linux &&
	cat >linux/MAINTAINERS <<-\EOF &&
	MEMORY MANAGEMENT - CORE
	M:	Andrew Morton <akpm@linux-foundation.org>
	L:	linux-mm@kvack.org
	S:	Maintained
	F:	mm/

	MEMORY MANAGEMENT - RECLAIM
	M:	Reclaim Maintainer <reclaim@example.org>
	R:	Reclaim Reviewer <reviewer@example.org>
	L:	linux-mm@kvack.org
	S:	Maintained
	F:	mm/vmscan.c
	EOF
	mkdir linux/mm && echo "/* vmscan */" >linux/mm/vmscan.c &&
	git -C linux add . && git -C linux commit -q -m "Linux 6.12" &&
	git -C linux tag v6.12 && git -C linux branch linux-6.12.y &&
	fresh_results
'

test_expect_success 'everything ran and passed: verdict pass and a Tested-by line' '
	report --branch linux-6.12.y >out &&
	grep "^Subject: \[stablekit\] linux-6.12.y v6.12.117: 2 backports: PASS$" out &&
	grep "^Tested-by: Report Tester <report@example.org>$" out &&
	jq -e ".verdict == \"pass\" and .reasons == []" "$REP/report.json"
'

test_expect_success 'the mail has the LKFT sections in order' '
	grep "^## " "$REP/report.txt" >sections &&
	cat >expect <<-\EOF &&
	## Build
	## Backports
	## Test Regressions (compared to the baseline, v6.12.117)
	## Test Fixes (compared to the baseline, v6.12.117)
	## Test result summary
	## Metric Regressions (compared to the baseline)
	## Metric Fixes (compared to the baseline)
	## Build Summary
	## Benchmark: classic LRU, lru_gen 0x0000: pass
	EOF
	test_cmp expect sections
'

test_expect_success 'benchmark rows in the LKP form, numbers from bench-classic.json' '
	grep -E "^ +347\.00 ± +1% +-31\.0% +239\.50 ± +1%  lru_lock_per_1000_scanned  \(p=0\.008 significant, pass, threshold 5%\)$" out &&
	edit gate/bench-classic.json \
		".metrics.lru_lock_per_1000_scanned.patched.median = 123.25" &&
	report --branch linux-6.12.y >out2 &&
	grep -E "^ +347\.00 ± +1% +-31\.0% +123\.25 ± +1%  lru_lock_per_1000_scanned" out2
'

test_expect_success 'backports: how each patch was ported and its proof' '
	fresh_results &&
	report --branch linux-6.12.y >out &&
	grep -A3 "^\* mm/vmscan: reduce lru_lock contention" out >bp &&
	grep "not upstream yet: https://lore.kernel.org/r/" bp &&
	grep "ported with semantic-patches/mm-vmscan-reduce-lru_lock-contention-via-vmstat: 6.12/node-stat-items" bp &&
	grep "proof: quilt push pass; build x86_64 pass arm64 pass i386 pass; boot pass; kselftest pass" bp
'

test_expect_success 'test summary and known failures come from the kselftest results' '
	grep "^total: 12, pass: 9, fail: 1, skip: 1, xfail: 0, timeout: 0$" out &&
	grep "^\* cgroup:test_memcontrol:test_memcg_min: fail -> fail$" out &&
	grep -A1 "^Flaky" out | grep "test_memcg_low: pass -> flaky"
'

test_expect_success 'what the confirm boot said of a regression and of a flaky test' '
	fresh_results &&
	edit gate/kselftest-compare.json ".regressions = [{
		name: \"cgroup:test_memcontrol:test_memcg_reclaim\",
		baseline: \"pass\", patched: \"fail\",
		confirm: {baseline: \"pass\", patched: \"fail\"}}] |
	  .flaky += [{name: \"cgroup:test_kmem:test_kmem_dead_cgroups\",
		baseline: \"pass\", patched: \"fail\", confirm: {patched: \"pass\"},
		reason: \"failed with the queue, passed with it in a confirm boot\"}]" &&
	{ report --branch linux-6.12.y >out || :; } &&
	grep "^\* cgroup:test_memcontrol:test_memcg_reclaim: pass -> fail; confirm boot: baseline pass, patched fail$" out &&
	grep "^\* cgroup:test_kmem:test_kmem_dead_cgroups: pass -> fail; confirm boot: baseline not run, patched pass; failed with the queue, passed with it in a confirm boot$" out &&
	grep "test_memcg_low: pass -> flaky$" out &&
	grep "test_memcg_reclaim: pass &rarr; fail; confirm boot: baseline pass, patched fail<" "$REP/report.html" &&
	fresh_results && report --branch linux-6.12.y >out
'

test_expect_success 'recipients: author, MAINTAINERS at the branch tip, trailers' '
	jq -r ".recipients.to[]" "$REP/report.json" >to &&
	grep -x "Usama Arif <usama.arif@linux.dev>" to &&
	grep -x "Reclaim Maintainer <reclaim@example.org>" to &&
	grep -x "Andrew Morton <akpm@linux-foundation.org>" to &&
	jq -r ".recipients.cc[]" "$REP/report.json" >cc &&
	grep -x "Reclaim Reviewer <reviewer@example.org>" cc &&
	grep -x "linux-mm@kvack.org" cc &&
	! grep -x "stable@vger.kernel.org" cc &&
	jq -e ".recipients.maintainers | startswith(\"MAINTAINERS at \")" "$REP/report.json"
'

test_expect_success 'report.json validates against the documented schema' '
	/usr/bin/python3 - "$SK_TOP/tools/stablekit/Documentation/report-schema.json" \
		"$REP/report.json" <<-\EOF
	import json, sys, jsonschema
	schema = json.load(open(sys.argv[1]))
	jsonschema.Draft202012Validator.check_schema(schema)
	jsonschema.Draft202012Validator(schema).validate(json.load(open(sys.argv[2])))
	EOF
'

test_expect_success 'the schema rejects a report that calls a missing stage a pass' '
	jq ".gate = {\"status\": \"not run\"}" "$REP/report.json" >bad.json &&
	test_must_fail /usr/bin/python3 - "$SK_TOP/tools/stablekit/Documentation/report-schema.json" \
		bad.json 2>err <<-\EOF &&
	import json, sys, jsonschema
	jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(
		json.load(open(sys.argv[2])))
	EOF
	grep "^jsonschema.exceptions.ValidationError: .reason. is a required property" err
'

test_expect_success 'no gate results: "not run" with the reason, no Tested-by' '
	rm -r "$R/linux-6.12.y/gate" &&
	report --branch linux-6.12.y >out &&
	grep "^Subject: .*: INCOMPLETE$" out &&
	grep "^\* gate: not run: no $R/linux-6.12.y/gate/gate.json (stablekit gate)$" out &&
	grep "^No Tested-by: the verdict is incomplete.$" out &&
	! grep "^Tested-by:" out &&
	grep -A1 "^## Metric Regressions" out | grep "^not run" &&
	jq -e "[.benchmarks[].status] | all(. == \"not run\")" "$REP/report.json"
'

test_expect_success '--check exits 1 unless every verdict is pass' '
	test_expect_code 1 report --branch linux-6.12.y --check >/dev/null &&
	fresh_results &&
	report --branch linux-6.12.y --check >/dev/null
'

test_expect_success 'a kselftest regression fails the verdict and is listed' '
	edit gate/kselftest-compare.json ".regressions = [{\"name\": \"cgroup:test_memcontrol:test_memcg_max\", \"baseline\": \"pass\", \"patched\": \"fail\"}]" &&
	edit gate/gate.json "(.stages[] | select(.name == \"kselftest\")) |= (.status = \"fail\" | .reason = \"1 regressions\") | .verdict = \"fail\" | .reasons = [\"kselftest: 1 regressions\"]" &&
	report --branch linux-6.12.y >out &&
	grep -A1 "^## Test Regressions" out | grep "^\* cgroup:test_memcontrol:test_memcg_max: pass -> fail$" &&
	grep "^Subject: .*: FAIL$" out &&
	! grep "^Tested-by:" out
'

# The gate's results over x86_64 and arm64, with one arm64 regression.
two_arch_results() {
	fresh_results &&
	G="$R/linux-6.12.y/gate" &&
	mkdir -p "$G/arm64/kselftest-patched" &&
	cp "$G/kselftest-patched/results.json" "$G/arm64/kselftest-patched/" &&
	jq ".regressions = [{\"name\": \"mm:mm:madv_populate\", \"baseline\": \"pass\", \"patched\": \"fail\"}]" \
		"$G/kselftest-compare.json" >"$G/arm64/kselftest-compare.json" &&
	edit gate/gate.json ".arches = [\"x86_64\", \"arm64\"] | .stages += [{\"name\": \"kernel-arm64\", \"status\": \"pass\", \"arch\": \"arm64\", \"seconds\": 1}, {\"name\": \"boot-arm64\", \"status\": \"pass\", \"arch\": \"arm64\", \"seconds\": 1}, {\"name\": \"kselftest-arm64\", \"status\": \"fail\", \"reason\": \"1 regressions\", \"arch\": \"arm64\", \"seconds\": 1}] | .verdict = \"fail\" | .reasons = [\"kselftest-arm64: fail: 1 regressions\"]"
}

test_expect_success 'a gate over two arches: one entry per arch, an arm64 regression named' '
	two_arch_results &&
	report --branch linux-6.12.y >out &&
	jq -e "[.tests.arches[].arch] == [\"x86_64\", \"arm64\"]" "$REP/report.json" &&
	jq -e ".tests.arches[0].kselftest.status == \"pass\" and .tests.arches[1].kselftest.status == \"fail\"" "$REP/report.json" &&
	jq -e ".tests.arches[1].regressions[0].name == \"mm:mm:madv_populate\"" "$REP/report.json" &&
	jq -e ".tests.arches[1].counts.pass > 0" "$REP/report.json" &&
	jq -e ".verdict == \"fail\"" "$REP/report.json" &&
	jq -e "[.reasons[] | select(startswith(\"kselftest arm64: \"))] | length == 1" "$REP/report.json" &&
	grep "; boot x86_64 pass, arm64 pass; kselftest x86_64 pass, arm64 fail$" out &&
	/usr/bin/python3 -c "import json, sys, jsonschema; jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(json.load(open(sys.argv[1])))" \
		"$REP/report.json" "$SK_TOP/tools/stablekit/Documentation/report-schema.json"
'

test_expect_success 'a metric over its threshold is a metric regression' '
	fresh_results &&
	edit gate/bench-classic.json ".metrics.throughput_pages_per_s.verdict = \"fail\" | .metrics.throughput_pages_per_s.change_pct = -14.5" &&
	report --branch linux-6.12.y >out &&
	grep -A1 "^## Metric Regressions" out | grep "^\* classic throughput_pages_per_s: -14.5% (p=0.016)$"
'

test_expect_success 'a new warning on one arch fails the build section' '
	fresh_results &&
	edit build/objects/build.json "(.arches[] | select(.arch == \"i386\")) |= (.gate_failed = true | .gate_why = \"1 new warning\" | .new_warnings = [\"mm/vmscan.c:123:5: warning: unused variable x\"]) | .gate = \"fail\"" &&
	report --branch linux-6.12.y >out &&
	grep "^\* i386 (objects, .*): fail, 0 warnings, 0 errors: 1 new warning$" out &&
	grep "^  new warning: mm/vmscan.c:123:5: warning: unused variable x$" out &&
	jq -e ".verdict == \"fail\"" "$REP/report.json"
'

test_expect_success 'a new warning as the build writes it: file, line, message, function' '
	fresh_results &&
	edit build/objects/build.json "(.arches[] | select(.arch == \"arm64\")) |= (.gate_failed = true | .gate_why = \"1 new warning\" | .new_warnings = [{\"file\": \"mm/vmscan.c\", \"line\": 529, \"column\": 6, \"severity\": \"warning\", \"message\": \"unused variable x [-Wunused-variable]\", \"function\": \"reclaim_throttle\", \"allowed\": false}]) | .gate = \"fail\"" &&
	report --branch linux-6.12.y >out &&
	grep "^  new warning: mm/vmscan.c:529:6: warning: unused variable x \[-Wunused-variable\] (in reclaim_throttle)$" out &&
	! grep "^  new warning: *$" out
'

test_expect_success 'a model branch without a buildable tree says so' '
	fresh_results &&
	echo "{\"branch\": \"linux-6.12.y\", \"mode\": \"objects\", \"buildable\": false, \"why\": \"the tree at '\''linux-6.12.y'\'' has no '\''Makefile'\''\"}" \
		>"$R/linux-6.12.y/build/objects/build.json" &&
	report --branch linux-6.12.y >out &&
	grep "^\* objects: not run: not buildable: the tree at .linux-6.12.y. has no .Makefile.$" out &&
	! grep "^Tested-by:" out
'

test_expect_success 'an unreadable results file is named with its line, exit 128' '
	fresh_results &&
	printf "{\n  \"verdict\": \n" >"$R/linux-6.12.y/gate/gate.json" &&
	test_expect_code 128 report --branch linux-6.12.y >out 2>err &&
	grep "^error: unreadable: $R/linux-6.12.y/gate/gate.json:3: " err &&
	jq -e ".input_errors | length == 1" "$REP/report.json"
'

test_expect_success 'FAILED mails are copied as port addressed them, blank line kept' '
	fresh_results &&
	mkdir -p p/stable/linux-6.12.y/failed &&
	printf "Subject: FAILED: patch \"x\" failed to port to linux-6.12.y\nTo: Owner <owner@example.org>\nCc: Usama Arif <usama.arif@linux.dev>\n\nbody line\n" \
		>p/stable/linux-6.12.y/failed/x.mail &&
	printf "not a mail\n" >p/stable/linux-6.12.y/failed/notes.txt &&
	report --branch linux-6.12.y >/dev/null 2>err &&
	m="$REP/failed/x.mail" &&
	test_cmp p/stable/linux-6.12.y/failed/x.mail "$m" &&
	! grep "stable@" "$m" &&
	grep "warning: .*/failed/notes.txt: not a FAILED mail" err &&
	! test -e "$REP/failed/notes.txt" &&
	jq -e ".failed_mails == [\"$m\"]" "$REP/report.json" &&
	rm -r p/stable/linux-6.12.y/failed
'

test_expect_success 'an interrupted gate: boot and kselftest interrupted/not run, no regressions count' '
	fresh_results &&
	edit gate/gate.json ".stages |= map(select(.name == \"queue\" or .name == \"build\" or .name == \"kernel\")) | .verdict = \"incomplete\"" &&
	rm -rf "$R/linux-6.12.y/gate/kselftest-patched" "$R/linux-6.12.y/gate/kselftest-compare.json" &&
	test_might_fail report --branch linux-6.12.y >/dev/null &&
	jq -r ".tests.boot.reason, .tests.reason" "$REP/report.json" >why &&
	grep -c "^interrupted/not run: the gate recorded no boot stage" why &&
	grep "^interrupted/not run: the gate recorded no kselftest stage" why &&
	grep "^interrupted/not run: the gate recorded no kselftest stage" "$REP/report.txt" &&
	! grep "No test regressions found" "$REP/report.txt" &&
	grep "<tr><th>regressions</th><td>&ndash;</td></tr>" "$REP/report.html" &&
	! grep "<tr><th>regressions</th><td>0</td>" "$REP/report.html" &&
	fresh_results
'

test_expect_success 'summary: status matrix and one verdict line per branch' '
	report --summary >out &&
	grep "^patch  *linux-6.12.y *$" out &&
	grep "^mm-vmscan-reduce-lru_lock-contention-via-vmstat:2  *queued *$" out &&
	grep "^mm-workingset-fix-the-shadow-node-budget-under-mglru:1  *not affected *$" out &&
	tip=$(git -C linux rev-parse linux-6.12.y | cut -c1-12) &&
	grep "^linux-6.12.y  *$tip  *PASS  *pass  *pass  *pass  *Tested-by$" out &&
	grep "^HTML report: $R/report/index.html$" out &&
	jq -e ".schema == \"stablekit.report-summary/1\" and .branches[0].verdict == \"pass\"" \
		"$R/report/summary.json"
'

# Chromium is given relative paths and a file: URL, as the trash
# directory's name has a space.
file_url() {
	printf "file://%s" "$1" | sed "s/ /%20/g"
}

chromium_text() {
	rm -f page.pdf &&
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--no-pdf-header-footer --user-data-dir=chromium \
		--print-to-pdf=page.pdf "$(file_url "$1")" 2>/dev/null &&
	pdftotext -layout page.pdf -
}

chromium_dom() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir=chromium --dump-dom "$(file_url "$1")" 2>/dev/null
}

test_expect_success 'HTML in headless Chromium: what a reader sees' '
	report --branch linux-6.12.y >/dev/null &&
	chromium_text "$REP/report.html" >seen &&
	grep "Verdict: pass" seen &&
	grep "Tested-by: Report Tester <report@example.org>" seen &&
	grep -E "347\.00 +1% +-31\.0% +239\.50 +1% +lru_lock_per_1000_scanned" seen &&
	grep "lru_lock_per_1000_scanned: median 347.00 → 239.50 lru_lock acquisitions per 1000 pages" seen &&
	grep "scanned (-31.0%, p=0.008); each dot is one run" seen &&
	grep -E "objects +i386 +i686-linux-gnu-gcc" seen &&
	grep "test_memcg_min: fail → fail" seen
'

test_expect_success 'HTML: a column per arch the gate booted' '
	two_arch_results &&
	report --branch linux-6.12.y >/dev/null &&
	chromium_text "$REP/report.html" >seen &&
	grep -E "(^|[ \f])x86_64 +arm64 *$" seen &&
	grep -E "^ *kselftest +pass +fail *$" seen &&
	grep -E "^ *regressions +0 +1 *$" seen &&
	fresh_results &&
	report --branch linux-6.12.y >/dev/null
'

test_expect_success 'HTML charts: one dot per run of the results, baseline and patched' '
	chromium_dom "$REP/report.html" >dom &&
	runs=$(jq ".runs.baseline | length" "$R/linux-6.12.y/gate/bench-classic.json") &&
	test "$runs" -gt 0 &&
	test $(grep -o "<circle class=\"run baseline\"" dom | wc -l) -eq $((3 * runs)) &&
	test $(grep -o "<circle class=\"run patched\"" dom | wc -l) -eq $((3 * runs)) &&
	test $(grep -o "<svg " dom | wc -l) -eq 3
'

test_expect_success 'HTML of a report with nothing run shows "not run", never pass' '
	rm -r "$R/linux-6.12.y" &&
	report --branch linux-6.12.y >/dev/null &&
	chromium_text "$REP/report.html" >seen &&
	grep "Verdict: incomplete" seen &&
	grep "No Tested-by: the verdict is incomplete." seen &&
	! grep -w pass seen
'

test_expect_success 'HTML escapes what comes from mails: a hostile subject stays text' '
	fresh_results &&
	edit port/mm-vmscan-reduce-lru_lock-contention-via-vmstat.json \
		".patches[0].subject = \"mm: <script>alert(1)</script> & <b>x</b>\"" &&
	report --branch linux-6.12.y >/dev/null &&
	! grep "<script>" "$REP/report.html" &&
	grep "mm: &lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;x&lt;/b&gt;" "$REP/report.html" &&
	chromium_text "$REP/report.html" >seen &&
	grep "<script>alert(1)" seen &&
	grep "</script> &" seen &&
	grep "<b>x</b>" seen
'

test_expect_success 'summary page in Chromium: the matrix and the verdicts' '
	fresh_results &&
	report --summary >/dev/null &&
	chromium_text "$R/report/index.html" >seen &&
	chromium_dom "$R/report/index.html" >dom &&
	grep "^<tr><td>linux-6.12.y</td>" dom >row &&
	test $(grep -o "class=\"pass\">pass<" row | wc -l) -eq 4 &&
	grep "<td>Tested-by: Report Tester &lt;report@example.org&gt;</td>" row &&
	grep -E "mm: memcg: skip the RCU lock when the memcg is not dying +not eligible" seen
'

test_expect_success 'index.html: every report link opens that branch'"'"'s page' '
	fresh_results &&
	report --summary >/dev/null &&
	chromium_dom "$R/report/index.html" >dom &&
	grep -o "<a class=\"report\" href=\"[^\"]*\"" dom | sed "s/.*href=\"//; s/\"$//" >links &&
	test $(wc -l <links) -eq 1 &&
	while read -r href
	do
		page="$R/report/$href" &&
		test -f "$page" &&
		chromium_text "$page" >linked &&
		grep "stablekit report: linux-6.12.y" linked || return 1
	done <links
'

test_expect_success 'index.html: tip, the reason for a verdict that is not pass, Tested-by' '
	rm -r "$R/linux-6.12.y/gate" &&
	report --summary >/dev/null &&
	chromium_text "$R/report/index.html" >seen &&
	grep "Made 20[0-9][0-9]-" seen &&
	chromium_dom "$R/report/index.html" >dom &&
	grep "^<tr><td>linux-6.12.y</td>" dom >row &&
	tip=$(git -C linux rev-parse linux-6.12.y | cut -c1-12) &&
	grep "<code>$tip</code>" row &&
	grep "class=\"notrun\">incomplete<" row &&
	grep "<td class=\"why\">boot: not run: no .*gate.json (stablekit gate) (and [0-9]* more in its report)</td>" row &&
	grep "<td>no</td>" row
'

test_expect_success 'a patch that was not queued shows no quilt push result' '
	fresh_results &&
	edit port/mm-vmscan-reduce-lru_lock-contention-via-vmstat.json \
		".patches[1].file = null | .patches[1].method = \"skipped\" | .patches[1].how = null | .patches[1].reason = \"already present\"" &&
	report --branch linux-6.12.y >/dev/null &&
	chromium_dom "$REP/report.html" >dom &&
	grep -o "<tr><td>[^<]*</td>.*</tr>" dom | grep "already present" >row &&
	grep "not queued" row &&
	! grep "class=\"pass\"" row
'

test_expect_success 'a metric measured without a threshold is "not gated", never a pass' '
	fresh_results &&
	edit gate/bench-classic.json ".metrics.lru_lock_per_1000_scanned |= (del(.threshold_pct) | .gated = false | .not_gated = \"MGLRU does not run the cost path: measured, no threshold\" | .verdict = \"info\")" &&
	report --branch linux-6.12.y >out &&
	grep "lru_lock_per_1000_scanned  (p=0.008, not gated: MGLRU does not run the cost path: measured, no threshold)$" out &&
	chromium_dom "$REP/report.html" >dom &&
	grep "<td>lru_lock_per_1000_scanned</td>" dom >row &&
	grep "not gated" row &&
	! grep "class=\"pass\"" row
'

test_expect_success 'the schema rejects a metric pass without a threshold' '
	fresh_results &&
	report --branch linux-6.12.y >/dev/null &&
	jq "(.benchmarks[0].metrics[] | select(.name == \"lru_lock_per_1000_scanned\")) |= del(.threshold_pct)" \
		"$REP/report.json" >bad.json &&
	test_must_fail /usr/bin/python3 - "$SK_TOP/tools/stablekit/Documentation/report-schema.json" \
		bad.json 2>err <<-\EOF &&
	import json, sys, jsonschema
	jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(
		json.load(open(sys.argv[2])))
	EOF
	grep "threshold_pct. is a required property" err
'

test_expect_success 'a reused baseline is said in the mail and the page' '
	fresh_results &&
	edit gate/bench-classic.json ".baseline_reused = true" &&
	report --branch linux-6.12.y >out &&
	grep "^baseline: reused from an earlier gate run" out &&
	grep "class=\"reused\"" "$REP/report.html"
'

test_expect_success 'a spread around a mean near zero is absolute, not a percentage' '
	fresh_results &&
	edit gate/bench-classic.json ".metrics.lru_lock_contentions.baseline |= (.median = 0 | .stddev = 0.8 | .stddev_pct = 200)" &&
	report --branch linux-6.12.y >out &&
	grep "lru_lock_contentions$" out >row &&
	! grep "200%" row &&
	grep "±0.8" row
'

test_expect_success 'charts: ticks, the unit, and an axis no narrower than the threshold' '
	fresh_results &&
	report --branch linux-6.12.y >/dev/null &&
	chromium_dom "$REP/report.html" >dom &&
	grep -c "<text class=\"tick\"" dom >ticks &&
	test $(cat ticks) -eq 15 &&
	grep "lru_lock acquisitions per 1000 pages scanned" dom &&
	grep "pages/s" dom &&
	# throughput: median 5012, threshold 10 %: the axis spans at least +-10 %
	sed -n "/aria-label=\"throughput_pages_per_s\"/,/<\/svg>/p" dom |
		sed -n "s/.*<text class=\"tick\"[^>]*>\([^<]*\)<.*/\1/p" >axis &&
	lo=$(head -1 axis) && hi=$(tail -1 axis) &&
	awk -v lo="$lo" -v hi="$hi" "BEGIN { exit !(lo <= 5012 * 0.9 && hi >= 5012 * 1.1) }"
'

test_expect_success 'nothing queued: the baseline-only build is "not run", never a fail or a pass' '
	fresh_results &&
	edit build/objects/build.json ".queue = {\"status\": \"none\", \"patches\": [], \"files\": [], \"log\": null} | (.arches[] |= (.patched = {\"status\": \"skipped\", \"note\": \"no queue: baseline only\"}))" &&
	test_must_fail report --branch linux-6.12.y --check >out &&
	grep "^\* build objects: not run: nothing queued (every patch present or not eligible); the baseline alone was built$" out &&
	! grep "does not apply" out &&
	jq -e ".verdict == \"incomplete\" and .tested_by == null" "$REP/report.json" &&
	jq -e ".builds[0].status == \"not run\"" "$REP/report.json"
'

test_expect_success 'a mail with nothing queued still has a To:' '
	fresh_results &&
	rm -r "$R/linux-6.12.y/port" &&
	cp p/stable/branches.conf branches.saved &&
	sed -i "s/kind = downstream/kind = stable/; /select = /d" p/stable/branches.conf &&
	report --branch linux-6.12.y >out;
	cp branches.saved p/stable/branches.conf &&
	grep "^To: stable@vger.kernel.org$" out
'

test_expect_success 'a results value with a line break gives no header of its own in report.txt or a FAILED mail' '
	fresh_results &&
	edit build/objects/build.json ".describe = \"v6.12.117\\nBcc: attacker@evil.example\"" &&
	mkdir -p p/stable/linux-6.12.y/failed &&
	printf "Subject: FAILED: x\nTo: someone\n\nbody\n" >p/stable/linux-6.12.y/failed/x.mail &&
	test_when_finished "rm -r p/stable/linux-6.12.y/failed" &&
	report --branch linux-6.12.y >out &&
	grep "^Subject: \[stablekit\] linux-6.12.y v6.12.117 Bcc: attacker@evil.example: " "$REP/report.txt" &&
	! grep "^Bcc:" "$REP/report.txt" "$REP"/failed/*.mail out
'

test_expect_success 'a series.conf value with \n: report exits 128 naming the key, recipients not silently dropped' '
	fresh_results &&
	S=p/series/mm-vmscan-reduce-lru_lock-contention-via-vmstat/series.conf &&
	cp $S series.conf.saved &&
	test_when_finished "cp series.conf.saved $S" &&
	git config -f $S patch.2.1.author "Usama Arif <usama.arif@linux.dev>
Bcc: attacker@evil.example" &&
	test_expect_code 128 report --branch linux-6.12.y >out 2>err &&
	grep "^error: recipients: .*series.conf:[0-9]*: a line break or control character .* in the value of .patch.2.1.author." err &&
	! grep -s "^Bcc:" "$REP/report.txt" out
'

test_expect_success 'summary --include: one table over two projects, every link opens' '
	fresh_results &&
	report --summary >/dev/null &&
	R2="$SHARNESS_TRASH_DIRECTORY/model/results" &&
	rm -rf "$R2" && mkdir -p "$R2/report" "$R2/linux-7.1.y/report" &&
	jq ".branches[0].branch = \"linux-7.1.y\" | .branches[0].verdict = \"incomplete\" | .branches[0].reasons = [\"build objects: not run: not buildable\"]" \
		"$R/report/summary.json" >"$R2/report/summary.json" &&
	sed "s/stablekit report: linux-6.12.y/stablekit report: linux-7.1.y/" \
		"$REP/report.html" >"$R2/linux-7.1.y/report/report.html" &&
	report --summary --include "$R2" >out &&
	grep "^linux-6.12.y  *[0-9a-f]\{12\}  *PASS" out &&
	grep "^linux-7.1.y (model)  .* INCOMPLETE" out &&
	grep "^linux-7.1.y (model): build objects: not run: not buildable$" out &&
	chromium_dom "$R/report/index.html" >dom &&
	grep -o "<a class=\"report\" href=\"[^\"]*\"" dom | sed "s/.*href=\"//; s/\"$//" >links &&
	test $(wc -l <links) -eq 2 &&
	grep "^\.\./\.\./model/results/linux-7.1.y/report/report.html$" links &&
	for b in linux-6.12.y linux-7.1.y
	do
		href=$(grep "$b" links) &&
		chromium_text "$R/report/$href" >linked &&
		grep "stablekit report: $b" linked || return 1
	done
'

test_expect_success 'summary --include of a project without a summary fails, naming it' '
	test_expect_code 128 report --summary --include "$SHARNESS_TRASH_DIRECTORY/nothing" 2>err &&
	grep "include .*nothing: not run: no .*nothing/report/summary.json (run stablekit report --summary for that project first)" err &&
	test_expect_code 129 report --include "$SHARNESS_TRASH_DIRECTORY/nothing"
'

test_done

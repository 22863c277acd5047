#!/bin/sh

test_description='stablekit gate: a stage that cannot run is "not run", never a pass

The full gate builds kernels (minutes); make bench runs it (ci/bench.d/gate).
'

. ./lib-stablekit.sh

test_expect_success 'every stage skipped: incomplete, exit 1, gate.json' '
	(cd "$SK_TOP" && SK_WORK="$SHARNESS_TRASH_DIRECTORY/w" &&
	 export SK_WORK && test_expect_code 1 stablekit gate --json \
		--branch linux-6.12.y --skip build --skip kselftest \
		--skip bench --out "$SHARNESS_TRASH_DIRECTORY/g") >gate.json &&
	jq -e ".verdict == \"incomplete\"" gate.json &&
	jq -e "[.stages[].status] | all(. == \"not run\")" gate.json &&
	jq -r ".stages[].name" gate.json >names &&
	printf "%s\n" queue build kernel boot kselftest bench-classic >expect &&
	test_cmp expect names &&
	jq -e ".reasons[0] == \"queue: not run: --skip build\"" \
		g/gate.json
'

test_expect_success 'gate.json says whether the baseline was reused' '
	jq -e ".baseline.reused == false" gate.json &&
	jq -e ".baseline.why_not == \"no stored baseline\"" gate.json &&
	(cd "$SK_TOP" && SK_WORK="$SHARNESS_TRASH_DIRECTORY/w" &&
	 export SK_WORK && test_expect_code 1 stablekit gate --json --no-reuse \
		--branch linux-6.12.y --skip build --skip kselftest \
		--skip bench --out "$SHARNESS_TRASH_DIRECTORY/g2") >g2.json &&
	jq -e ".baseline.why_not == \"--no-reuse\"" g2.json &&
	! test -e w/results/linux-6.12.y/gate-baseline
'

test_expect_success 'gate wants --branch' '
	(cd "$SK_TOP" && test_expect_code 129 stablekit gate)
'

test_done

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
	printf "%s\n" queue build kernel boot kselftest kernel-arm64 \
		boot-arm64 kselftest-arm64 bench-classic >expect &&
	test_cmp expect names &&
	jq -e ".reasons[0] == \"queue: not run: --skip build\"" \
		g/gate.json
'

test_expect_success 'gate.json has the graph the library ran, every step done' '
	jq -r ".graph[] | .step + (.after | if length > 0
		then \" <- \" + join(\",\") else \"\" end)" gate.json >graph &&
	cat >expect <<-\EOF &&
	objects
	kernel x86_64 <- objects
	kselftest x86_64 <- kernel x86_64
	kernel arm64 <- kernel x86_64
	kselftest arm64 <- kernel arm64
	bench classic <- kernel x86_64
	bench mglru <- kernel x86_64
	store <- kselftest x86_64,kselftest arm64,bench classic,bench mglru
	EOF
	test_cmp expect graph &&
	jq -e "[.graph[].done] | all" gate.json &&
	jq -e ".runner == \"local\"" gate.json
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

test_expect_success 'the arches come from [gate] arch, then [gate "<branch>"]' '
	cat >arches.conf <<-\EOF &&
	[gate]
		arch = arm64
	[gate "linux-6.12.y"]
		arch = i386
		arch = arm64
	EOF
	(cd "$SK_TOP" && SK_WORK="$SHARNESS_TRASH_DIRECTORY/w" &&
	 export SK_WORK && test_expect_code 1 stablekit gate --json \
		--config "$SHARNESS_TRASH_DIRECTORY/arches.conf" \
		--branch linux-6.12.y --skip build --skip kselftest \
		--skip bench --out "$SHARNESS_TRASH_DIRECTORY/g3") >g3.json &&
	jq -e ".arches == [\"arm64\", \"i386\"] and .arch == \"arm64\"" g3.json &&
	jq -r ".stages[] | select(.arch == \"i386\") | .name" g3.json >names &&
	printf "%s\n" kernel-i386 boot-i386 kselftest-i386 >expect &&
	test_cmp expect names
'

test_expect_success '--arch runs that arch alone' '
	(cd "$SK_TOP" && SK_WORK="$SHARNESS_TRASH_DIRECTORY/w" &&
	 export SK_WORK && test_expect_code 1 stablekit gate --json \
		--arch x86_64 --branch linux-6.12.y --skip build \
		--skip kselftest --skip bench --out "$SHARNESS_TRASH_DIRECTORY/g4") >g4.json &&
	jq -e ".arches == [\"x86_64\"]" g4.json &&
	jq -e "[.stages[].arch] | all(. == \"x86_64\")" g4.json
'

test_expect_success 'the benchmark runs on x86_64 alone: --arch arm64 says so and is incomplete' '
	(cd "$SK_TOP" && SK_WORK="$SHARNESS_TRASH_DIRECTORY/w" &&
	 export SK_WORK && test_expect_code 1 stablekit gate --json \
		--arch arm64 --branch linux-6.12.y --skip build \
		--skip kselftest --out "$SHARNESS_TRASH_DIRECTORY/g6") >g6.json &&
	jq -e ".verdict == \"incomplete\"" g6.json &&
	jq -e ".stages[] | select(.name == \"kernel\") | .status == \"not run\"" g6.json &&
	jq -r ".stages[] | select(.name == \"bench-classic\") | .reason" g6.json >reason &&
	echo "not run: the benchmark runs on x86_64, and this gate'"'"'s first arch is arm64" >expect &&
	test_cmp expect reason
'

test_expect_success 'an unknown arch in the gate config: exit 128 naming the key' '
	printf "[gate]\n\tarch = sparc\n" >bad.conf &&
	(cd "$SK_TOP" && SK_WORK="$SHARNESS_TRASH_DIRECTORY/w" &&
	 export SK_WORK && test_expect_code 128 stablekit gate \
		--config "$SHARNESS_TRASH_DIRECTORY/bad.conf" \
		--branch linux-6.12.y --skip build --skip kselftest \
		--skip bench --out "$SHARNESS_TRASH_DIRECTORY/g5") 2>err &&
	grep "bad.conf: gate.arch: unknown arch .sparc." err &&
	! test -e g5/gate.json
'

test_expect_success 'the benchmark comes from [gate "<branch>"] bench, lrulock by default' '
	jq -e ".bench == \"lrulock\"" gate.json &&
	cat >bench.conf <<-\EOF &&
	[gate]
		arch = x86_64
	[gate "linux-7.2.y"]
		bench = shadow
	EOF
	(cd "$SK_TOP" && SK_WORK="$SHARNESS_TRASH_DIRECTORY/w" &&
	 export SK_WORK && test_expect_code 1 stablekit gate --json \
		--config "$SHARNESS_TRASH_DIRECTORY/bench.conf" \
		--branch linux-7.2.y --skip build --skip kselftest \
		--skip bench --out "$SHARNESS_TRASH_DIRECTORY/g7") >g7.json &&
	jq -e ".bench == \"shadow\"" g7.json
'

test_expect_success 'an unknown benchmark: exit 128 naming the key' '
	printf "[gate \"linux-7.2.y\"]\n\tbench = shadows\n" >badbench.conf &&
	(cd "$SK_TOP" && SK_WORK="$SHARNESS_TRASH_DIRECTORY/w" &&
	 export SK_WORK && test_expect_code 128 stablekit gate \
		--config "$SHARNESS_TRASH_DIRECTORY/badbench.conf" \
		--branch linux-7.2.y --skip build --skip kselftest \
		--skip bench --out "$SHARNESS_TRASH_DIRECTORY/g8") 2>err &&
	grep "badbench.conf: gate.linux-7.2.y.bench: unknown benchmark .shadows." err &&
	! test -e g8/gate.json
'

# skipped <out> [option...]: every stage skipped, the branch's tip from
# the small repository "tree" (STABLEKIT_REPO)
skipped() {
	out=$1
	shift
	(cd "$SK_TOP" && SK_WORK="$SHARNESS_TRASH_DIRECTORY/w" &&
	 STABLEKIT_REPO="$SHARNESS_TRASH_DIRECTORY/tree" &&
	 export SK_WORK STABLEKIT_REPO && stablekit gate --json \
		--branch linux-6.12.y --skip build --skip kselftest \
		--skip bench --out "$SHARNESS_TRASH_DIRECTORY/$out" "$@")
}

test_expect_success 'a gate writes the key of its inputs after gate.json' '
	git init -q tree &&
	git -C tree commit -q --allow-empty -m "the tip" &&
	git -C tree branch -f linux-6.12.y &&
	test_expect_code 1 skipped r >r.json 2>r.err &&
	jq -e ".verdict == \"incomplete\" and .reused_from == null" r.json &&
	grep "^tip $(git -C tree rev-parse linux-6.12.y)$" r/gate.key &&
	grep "^stablekit [0-9a-f]\{40\}$" r/gate.key &&
	grep "^queue/series [0-9a-f]\{40\}$" r/gate.key
'

test_expect_success 'an incomplete gate is run again' '
	test_expect_code 1 skipped r >r.json 2>r.err &&
	! grep "gate: reused" r.err &&
	jq -e ".reused_from == null" r.json
'

# The verdict of a passing gate comes from kernels and guests (t7000,
# t7200); here gate.json is made to say pass, to see what follows from it.
test_expect_success 'a gate whose inputs are those of one that passed is not run again' '
	jq ".verdict = \"pass\" | .reasons = []" r/gate.json >pass.json &&
	cp pass.json r/gate.json &&
	touch -d "2026-01-02 03:04:05 UTC" r/gate.json &&
	skipped r >r2.json 2>r2.err &&
	grep "gate: reused: .* passed at 2026-01-02T03:04:05Z" r2.err &&
	jq -e ".verdict == \"pass\" and
		.reused_from == \"2026-01-02T03:04:05Z\"" r2.json &&
	jq -e ".reused_from == \"2026-01-02T03:04:05Z\"" r/gate.json &&
	jq -S "del(.reused_from)" r2.json >a &&
	jq -S "del(.reused_from)" pass.json >b &&
	test_cmp a b
'

test_expect_success 'reused again, it keeps the time of the gate that ran' '
	skipped r >r3.json 2>r3.err &&
	jq -e ".reused_from == \"2026-01-02T03:04:05Z\"" r3.json &&
	(cd "$SK_TOP" && SK_WORK="$SHARNESS_TRASH_DIRECTORY/w" &&
	 STABLEKIT_REPO="$SHARNESS_TRASH_DIRECTORY/tree" &&
	 export SK_WORK STABLEKIT_REPO && stablekit gate \
		--branch linux-6.12.y --skip build --skip kselftest \
		--skip bench --out "$SHARNESS_TRASH_DIRECTORY/r") >r3.txt &&
	grep "^gate linux-6.12.y: pass (reused: the gate of 2026-01-02T03:04:05Z, which took [0-9]* s)$" r3.txt
'

test_expect_success 'another option, --no-reuse or a new tip runs the gate again' '
	test_expect_code 1 skipped r --runs 3 >r4.json &&
	jq -e ".verdict == \"incomplete\" and .reused_from == null" r4.json &&
	grep "^runs 3$" r/gate.key &&
	jq ".verdict = \"pass\" | .reasons = []" r/gate.json >pass.json &&
	mv pass.json r/gate.json &&
	skipped r --runs 3 >r5.json &&
	jq -e ".reused_from != null" r5.json &&
	rm r/gate.key &&
	test_expect_code 1 skipped r --runs 3 --no-reuse >r6.json &&
	jq -e ".reused_from == null" r6.json &&
	grep "^runs 3$" r/gate.key &&
	jq ".verdict = \"pass\" | .reasons = []" r/gate.json >pass.json &&
	mv pass.json r/gate.json &&
	git -C tree commit -q --allow-empty -m "a new tip" &&
	git -C tree branch -f linux-6.12.y &&
	test_expect_code 1 skipped r --runs 3 >r8.json &&
	jq -e ".reused_from == null" r8.json
'

test_expect_success 'the report says the gate was reused, and from when' '
	jq ".verdict = \"pass\" | .reasons = []" r/gate.json >pass.json &&
	mv pass.json r/gate.json &&
	touch -d "2026-01-02 03:04:05 UTC" r/gate.json &&
	skipped r --runs 3 >r9.json &&
	mkdir -p w/results/linux-6.12.y &&
	rm -rf w/results/linux-6.12.y/gate &&
	cp -r r w/results/linux-6.12.y/gate &&
	(cd "$SK_TOP" && SK_WORK="$SHARNESS_TRASH_DIRECTORY/w" &&
	 export SK_WORK && stablekit report --branch linux-6.12.y --json \
		>"$SHARNESS_TRASH_DIRECTORY/report.json" &&
	 stablekit report --branch linux-6.12.y \
		>"$SHARNESS_TRASH_DIRECTORY/report.txt" &&
	 stablekit report --summary --branch linux-6.12.y \
		>"$SHARNESS_TRASH_DIRECTORY/summary.txt") &&
	jq -e ".gate.reused_from == \"2026-01-02T03:04:05Z\"" report.json &&
	grep "^Gate: the results of the gate that passed at 2026-01-02T03:04:05Z" \
		report.txt &&
	grep "^linux-6.12.y: gate reused: the one that passed at 2026-01-02T03:04:05Z" \
		summary.txt &&
	jq -e ".branches[0].gate_reused_from == \"2026-01-02T03:04:05Z\"" \
		w/results/report/summary.json
'

test_expect_success 'gate wants --branch' '
	(cd "$SK_TOP" && test_expect_code 129 stablekit gate)
'

test_done

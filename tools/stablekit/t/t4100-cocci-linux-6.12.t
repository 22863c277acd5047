#!/bin/sh

test_description='semantic patches: series A ported to the real 6.12 tree

Ports "mm/vmscan: reduce lru_lock contention via vmstat-derived
scan-balance cost" (2 patches and the MGLRU fixlet) to Debian'"'"'s
linux-source-6.12 with the rules and hunks its manifest picks for the
probed target, then proves the result: the mm objects build for x86_64,
arm64 and i386 with no warning the unpatched tree does not have, the new
/proc/vmstat names sit at their enum positions (and the check catches a
misordered tree), checkpatch finds no error in the port, and running the
rules again changes nothing.  Caches in $SK_WORK: the extracted tree and
the unpatched builds are reused, the port and its builds are redone.'

. ./lib-stablekit.sh

slug=mm-vmscan-reduce-lru_lock-contention-via-vmstat
cocci="$SK_TOP/ci/cocci"
port="$SK_WORK/port-6.12-seriesA"
base_out="$SK_WORK/build-6.12-base"
port_out="$SK_WORK/build-6.12-seriesA"
arches="x86_64 arm64 i386"

test_expect_success 'extract linux-source-6.12' '
	"$cocci/linux-source" >tree &&
	tree=$(cat tree) &&
	test -f "$tree/mm/vmscan.c" &&
	grep -q "^6\.12\." "$tree/.sk-extracted"
'
tree=$(cat tree 2>/dev/null)

test_expect_success 'the probes pick the 6.12 rule set and the port applies' '
	"$cocci/port" $slug "$tree" "$port" >port.out &&
	cat port.out &&
	grep -x "target: 6.12" port.out &&
	grep "^spatch wall time: " port.out
'
test -f port.out && sed -n 's/^spatch wall time: /# spatch wall time (series A on 6.12): /p' port.out

test_expect_success 'the files the series touches' '
	"$cocci/seed-diffs" "$SK_SEEDS/vmstat-scan-balance-cost.v2.mbox" seeds &&
	cat seeds/*.diff | sed -n "s|^+++ b/||p" | sort -u >touched &&
	test $(wc -l <touched) = 11
'

test_expect_success 'the port carries the whole series' '
	(cd "$port" && grep -n "lru_note_cost" include/linux/swap.h mm/*.c) >left;
	test_must_be_empty left &&
	grep -q "lruvec_page_state_monotonic(target_lruvec" "$port/mm/vmscan.c" &&
	grep -q "mod_lruvec_state(lruvec, PGROTATE_ANON + type" "$port/mm/vmscan.c" &&
	grep -q "spin_lock_init(&lruvec->cost_lock);" "$port/mm/mmzone.c" &&
	grep -q "cost_accum\[WORKINGSET_ANON\]" "$port/mm/memcontrol-v1.c" &&
	grep -q "{ \"pgrotate_anon\"," "$port/mm/memcontrol.c"
'

test_expect_success 'unpatched mm objects build (baseline warnings)' '
	"$cocci/build-objects" "$tree" "$base_out" $arches >base.times &&
	cat base.times
'

test_expect_success 'ported mm objects build for x86_64, arm64, i386' '
	rm -rf "$port_out" &&
	"$cocci/build-objects" "$port" "$port_out" $arches >port.times &&
	cat port.times &&
	test $(wc -l <port.times) = 3
'
test -f port.times && sed "s/^/# object build seconds (ported, cold config): /" port.times

for arch in $arches
do
	test_expect_success "$arch: no new warnings" '
		comm -13 "$base_out/$arch/warnings" "$port_out/$arch/warnings" >new &&
		test_must_be_empty new
	'
	test_expect_success "$arch: vmstat names line up with enum node_stat_item" '
		"$cocci/check-vmstat-order" "$port" "$port_out/$arch" $arch >order &&
		cat order &&
		test $(grep -c "^lined up " order) = 4
	'
done

test_expect_success 'a misordered vmstat_text[] compiles and the check fails' '
	cp "$port/mm/vmstat.c" vmstat.c.good &&
	test_when_finished "cp vmstat.c.good \"$port/mm/vmstat.c\"" &&
	perl -0pi -e "s/(\t\"pgrotate_anon\",\n)(\t\"pgrotate_file\",\n)/\$2\$1/" \
		"$port/mm/vmstat.c" &&
	! test_cmp vmstat.c.good "$port/mm/vmstat.c" &&
	make -s -C "$port" O="$port_out/x86_64" ARCH=x86_64 mm/vmstat.o &&
	test_must_fail "$cocci/check-vmstat-order" "$port" "$port_out/x86_64" \
		x86_64 >order.bad &&
	cat order.bad &&
	grep "^MISORDERED PGROTATE_ANON: .* is \"pgrotate_file\"" order.bad
'

test_expect_success 'checkpatch finds no error in the port' '
	while read -r f
	do
		diff -u --label "a/$f" --label "b/$f" "$tree/$f" "$port/$f"
		test $? -le 1 || return 1
	done <touched >port.diff &&
	test -s port.diff &&
	(cd "$tree" && perl scripts/checkpatch.pl --no-tree --patch \
		--no-signoff --show-types -q "$OLDPWD/port.diff") >checkpatch.out;
	cat checkpatch.out &&
	! grep "^ERROR:" checkpatch.out &&
	grep "total: 0 errors" checkpatch.out
'

test_expect_success 'running the rules again changes nothing' '
	rm -rf again &&
	mkdir again &&
	while read -r f
	do
		mkdir -p "again/$(dirname "$f")" &&
		cp "$port/$f" "again/$f" || return 1
	done <touched &&
	"$cocci/port" --rules-only $slug 6.12 again >again.out &&
	while read -r f
	do
		test_cmp "$port/$f" "again/$f" || return 1
	done <touched
'

test_done

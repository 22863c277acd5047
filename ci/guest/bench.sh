#!/bin/sh
# In-guest benchmark of `stablekit gate` (run as /stablekit/job).
# The seed's method scaled to a VM: usemem in a two-level memcg with
# memory.max on the leaf, swap on zram, THP off (kernel command line).
# Parameters come from /stablekit/bench.env (written by stablekit):
#   RUNS WORKERS SIZE TOUCHES SEED MEMCG_MAX SWAP
# Prints, per run, a block that lib/gate/bench.c parses:
#   stablekit-bench: begin <run>
#   stablekit-bench: usemem <usemem's line>
#   stablekit-bench: vmstat <name> <delta>          (every changed counter)
#   stablekit-bench: memstat <name> <delta>         (the leaf's memory.stat)
#   stablekit-bench: has vmstat|memstat <name>      (names of COUNTERS_RE)
#   stablekit-bench: lockstat <class> <acquisitions> <contentions>
#   stablekit-bench: end <run>
RUNS=1 WORKERS=1 SIZE=256M TOUCHES=200000 SEED=42 MEMCG_MAX=64M SWAP=1G LRU_GEN=n
COUNTERS_RE='^(pgrotate_|pgreclaim_pageout_)'
[ -f /stablekit/bench.env ] && . /stablekit/bench.env
B=/sys/fs/cgroup
P="stablekit-bench:"

if [ -e /sys/block/zram0/disksize ]; then
	echo "$SWAP" >/sys/block/zram0/disksize &&
	mkswap /dev/zram0 >/dev/null && swapon /dev/zram0 ||
	echo "$P error: no swap on zram"
else
	echo "$P error: no zram"
fi
echo never >/sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null
echo "$P thp $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
[ "$LRU_GEN" = y ] && echo y >/sys/kernel/mm/lru_gen/enabled
echo "$P lru_gen $(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null || echo none)"

echo +memory >$B/cgroup.subtree_control
mkdir -p $B/gate
echo +memory >$B/gate/cgroup.subtree_control
mkdir -p $B/gate/leaf
echo "$MEMCG_MAX" >$B/gate/leaf/memory.max

snap() {
	cat /proc/vmstat >/tmp/vmstat.$1
	cat $B/gate/leaf/memory.stat >/tmp/memstat.$1
	if [ -r /proc/lock_stat ]; then
		cp /proc/lock_stat /tmp/lockstat.$1
	fi
}

delta() {
	awk -v p="$P $3" 'NR == FNR { a[$1] = $2; next }
		($2 - a[$1]) != 0 { printf "%s %s %d\n", p, $1, $2 - a[$1] }' "$1" "$2"
}

r=1
while [ $r -le "$RUNS" ]; do
	sync
	echo 3 >/proc/sys/vm/drop_caches
	[ -w /proc/lock_stat ] && echo 0 >/proc/lock_stat
	snap before
	echo "$P begin $r"
	out=$(sh -c "echo \$\$ >$B/gate/leaf/cgroup.procs &&
		exec /stablekit/usemem -n $WORKERS -s $SIZE -t $TOUCHES -S $SEED" 2>&1)
	snap after
	echo "$P usemem $out"
	delta /tmp/vmstat.before /tmp/vmstat.after vmstat
	delta /tmp/memstat.before /tmp/memstat.after memstat
	for f in vmstat memstat; do
		awk -v p="$P has $f" -v re="$COUNTERS_RE" '$1 ~ re { print p, $1 }' \
			/tmp/$f.after
	done
	if [ -r /tmp/lockstat.after ]; then
		awk -v p="$P lockstat" '$1 ~ /^&lruvec->lru_lock/ && $1 ~ /:$/ {
			name = $1; sub(/:$/, "", name)
			printf "%s %s %d %d\n", p, name, $9, $3 }' /tmp/lockstat.after
	fi
	echo "$P end $r"
	r=$((r + 1))
done
exit 0

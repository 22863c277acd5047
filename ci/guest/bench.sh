#!/bin/sh
# In-guest benchmark of `stablekit gate` (run as /stablekit/job).
# The seed's method scaled to a VM: usemem in a two-level memcg with
# memory.max on the leaf, swap on zram, THP off (kernel command line).
# Parameters come from /stablekit/bench.env (written by stablekit):
#   RUNS WORKERS SIZE TOUCHES SEED MEMCG_MAX SWAP LRU_GEN WORKLOAD
# WORKLOAD=lrulock (series A's): the usemem run above.  WORKLOAD=shadow
# (series B's): usemem -D in an unlimited memcg (the stat-update fast
# path: CHURN_SIZE CHURN_TOUCHES), then wsbench on a second zram device
# in a memcg of MEMCG_MAX whose children come and go (the shadow-node
# budget: HOT COLD ROUNDS; see tools/stablekit/helpers/wsbench.c).
# Prints, per run, a block that lib/gate/bench.c parses:
#   stablekit-bench: begin <run>
#   stablekit-bench: usemem <usemem's line>          (lrulock)
#   stablekit-bench: churn <usemem -D's line>        (shadow)
#   stablekit-bench: wsbench <wsbench's line>        (shadow)
#   stablekit-bench: vmstat <name> <delta>          (every changed counter)
#   stablekit-bench: memstat <name> <delta>         (the leaf's memory.stat)
#   stablekit-bench: has vmstat|memstat <name>      (names of COUNTERS_RE)
#   stablekit-bench: lockstat <class> <acquisitions> <contentions>
#   stablekit-bench: end <run>
RUNS=1 WORKERS=1 SIZE=256M TOUCHES=200000 SEED=42 MEMCG_MAX=64M SWAP=1G LRU_GEN=n
WORKLOAD=lrulock HOT=8M COLD=128M ROUNDS=2 CHURN_SIZE=4M CHURN_TOUCHES=60000
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
LEAF=$B/gate/leaf
if [ "$WORKLOAD" = shadow ]; then
	# the hot and cold ranges, read from a device that holds nothing
	ws=$(cat /sys/class/zram-control/hot_add 2>/dev/null) &&
	echo 2G >/sys/block/zram$ws/disksize ||
	echo "$P error: no second zram device"
	LEAF=$B/gate/ws
	mkdir -p $B/gate/churn $LEAF
	echo +memory >$LEAF/cgroup.subtree_control
else
	mkdir -p $LEAF
fi
echo "$MEMCG_MAX" >$LEAF/memory.max

workload() {
	if [ "$WORKLOAD" != shadow ]; then
		out=$(sh -c "echo \$\$ >$LEAF/cgroup.procs &&
			exec /stablekit/usemem -n $WORKERS -s $SIZE -t $TOUCHES -S $SEED" 2>&1)
		echo "$P usemem $out"
		return
	fi
	out=$(sh -c "echo \$\$ >$B/gate/churn/cgroup.procs &&
		exec /stablekit/usemem -D -s $CHURN_SIZE -t $CHURN_TOUCHES" 2>&1)
	echo "$P churn $out"
	# after the child is gone, a stream of memory.max evicts the
	# parent's oldest pages but keeps some of the filler (wsbench.c)
	out=$(/stablekit/wsbench -d /dev/zram$ws -c $LEAF -H $HOT -C $COLD \
		-O $MEMCG_MAX -r $ROUNDS 2>&1)
	echo "$P wsbench $out"
}

snap() {
	cat /proc/vmstat >/tmp/vmstat.$1
	cat $LEAF/memory.stat >/tmp/memstat.$1
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
	workload >/tmp/workload
	snap after
	cat /tmp/workload
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

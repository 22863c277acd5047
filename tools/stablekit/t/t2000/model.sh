# Builds the model kernel repository of t2000 in ./linux: mainline with
# v6.12, v7.0, v7.1, v7.2, v7.3-rc1 and the branches linux-6.12.y,
# linux-7.1.y, linux-7.2.y.  Sourced by the setup test; plain git.

QI="Qi Zheng <zhengqi.arch@bytedance.com>"
USAMA="Usama Arif <usama.arif@linux.dev>"
DEV="Dev Eloper <dev@example.org>"

# mk AUTHOR "FILE..." SUBJECT [BODY LINE...]: append a line to each file.
mk() {
	author=$1 files=$2
	shift 2
	for f in $files; do
		mkdir -p "$(dirname "$f")" &&
		echo "$1: $f" >>"$f" &&
		git add "$f" || return 1
	done
	printf '%s\n' "$@" >../msg &&
	git commit -q --author="$author" -F ../msg
}

release() {
	echo "$1" >Makefile && git add Makefile &&
	git commit -q -m "Linux ${1#v}" && git tag "$1"
}

sha() { git rev-parse "$1"; }

# amend_msg SUBJECT [BODY LINE...]: reword HEAD.
amend_msg() {
	printf '%s\n' "$@" >../msg && git commit -q --amend -F ../msg
}

git init -q linux && cd linux &&
for f in mm/vmscan.c mm/workingset.c mm/memcontrol.c mm/vmstat.c \
	 mm/page_alloc.c mm/swap_state.c include/linux/vmstat.h \
	 include/linux/mmzone.h include/linux/vm_event_item.h; do
	mkdir -p "$(dirname "$f")" && echo "/* $f */" >"$f" || exit 1
done &&
git add . && git commit -q -m "Linux 6.12" && git tag v6.12 &&
git branch linux-6.12.y &&
mk "$DEV" mm/page_alloc.c "mm: page_alloc: tidy up" &&
release v7.0 &&
mk "$QI" mm/workingset.c \
	"mm: workingset: use lruvec_lru_size() to get the number of lru pages" \
	"" "Signed-off-by: $QI" &&
W=$(sha HEAD) &&
mk "$DEV" mm/vmscan.c "mm: vmscan: clean up" &&
release v7.1 &&
git branch linux-7.1.y &&
mk "$DEV" mm/workingset.c "mm: workingset: fix shadow count overflow" "" \
	"Fixes: $(echo $W | cut -c1-12) (\"mm: workingset: use lruvec_lru_size() to get the number of lru pages\")" \
	"Cc: stable@vger.kernel.org" \
	"Link: https://lore.kernel.org/r/fixd-1@example.org" \
	"Signed-off-by: $DEV" &&
D=$(sha HEAD) &&
mk "$DEV" mm/page_alloc.c "mm: page_alloc: add foo helper" &&
release v7.2 &&
git branch linux-7.2.y &&
LORE=https://lore.kernel.org/r/20260713163443.3562378 &&
mk "$USAMA" "include/linux/vmstat.h mm/vmstat.c mm/memcontrol.c" \
	"mm/vmstat, mm/memcontrol: add _monotonic vmstat readers" "" \
	"Link: $LORE-2-usama.arif@linux.dev" &&
A1=$(sha HEAD) &&
mk "$USAMA" "mm/vmscan.c mm/vmstat.c include/linux/vm_event_item.h" \
	"mm/vmscan: add pgrotate_anon and pgrotate_file vmstat counters" "" \
	"Link: $LORE-3-usama.arif@linux.dev" &&
A2=$(sha HEAD) &&
mk "$USAMA" "mm/vmscan.c mm/workingset.c include/linux/mmzone.h" \
	"mm/vmscan: reduce lru_lock contention via vmstat-derived scan-balance cost" "" \
	"Link: $LORE-3-usama.arif@linux.dev" &&
A3=$(sha HEAD) &&
mk "$DEV" mm/swap_state.c "mm: swap_state: fix counter leak" "" \
	"Cc: stable@vger.kernel.org" "Signed-off-by: $DEV" &&
G=$(sha HEAD) &&
release v7.3-rc1 &&

git checkout -q linux-7.1.y &&
git cherry-pick $D >/dev/null &&
amend_msg "mm: workingset: fix shadow count overflow" "" \
	"commit $D upstream." "" "Signed-off-by: $DEV" &&
release v7.1.1 &&

git checkout -q linux-7.2.y &&
git cherry-pick $A1 >/dev/null &&
amend_msg "mm/vmstat, mm/memcontrol: add _monotonic vmstat readers" "" \
	"[ Upstream commit $A1 ]" &&
git cherry-pick $G >/dev/null &&
amend_msg "mm: swap_state: plug a counter leak" "" "Signed-off-by: $DEV" &&
release v7.2.1 &&

git checkout -q linux-6.12.y &&
git cherry-pick -x $G >/dev/null &&
release v6.12.1 &&
git checkout -q master &&
cd .. &&
echo "W=$W D=$D A1=$A1 A2=$A2 A3=$A3 G=$G" >shas

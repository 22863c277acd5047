# A kernel-shaped history for `stablekit scan` and `port <sha>`: mainline
# with the trailers stable work reads, and a stable branch that took some
# of it the ways maintainers take it.  Source it, then run
#
#   scan_history_generate DIR
#
# which builds DIR (a git repository) and writes DIR.shas (shell
# assignments of every commit named below).  Commits are made with the git
# commands a maintainer runs (commit, cherry-pick, cherry-pick -x,
# revert), so that their messages are git's own.
#
# mainline (master), before v6.1 (the branch has them by ancestry):
#   OLD1    "mm: a: add the pool"                       mm/a.c
#   OLD2    "fs: c: add the cache"                      fs/c.c
# after v6.1, in this order:
#   FEAT    "drivers: e: add the frobnicator"           no trailer
#   CC61    "mm: b: fix the leak"                       Cc: stable # 6.1+
#   CC69    "kernel: f: fix the race"                   Cc: stable # 6.9+ (not for 6.1)
#   FIXOLD  "mm: a: fix the pool overflow"              Fixes: OLD1
#   FIXFEAT "drivers: e: fix the frobnicator"           Fixes: FEAT (not in 6.1)
#   PICKX   "fs: d: fix the lock"                       Cc: stable; picked -x
#   REWORD  "fs: c: fix the cache size"                 Fixes: OLD2; picked
#           with another subject, no reference (equal patch-id)
#   UPREF   "net: h: fix the queue"                     Cc: stable; backported
#           with "commit X upstream." and changed context (other patch-id)
#   GONE    "kernel: f: fix the count"                  Cc: stable, and
#   RGONE   its revert                                  (reverted upstream)
#   FIXFIX  "mm: b: fix the leak fix"                   Fixes: CC61 (a fix of a fix)
#   PREP    "mm: a: rework the pool lock"               Cc: stable
#   NEEDP   "mm: a: fix the pool lock"                  Cc: stable, next to
#           PREP's lines (PREP is its prerequisite)
#   ADDG    "drivers: g: add the helper"                adds drivers/g.c, no trailer
#   NEEDG   "drivers: g: fix the helper"                Cc: stable, changes
#           drivers/g.c (the branch lacks it)
#   BYSUBJ  "fs: c: fix the cache size again"           Fixes: 0123456789ab
#           ("fs: c: fix the cache size"): an unknown sha, REWORD's subject
#   FIXRW   "fs: c: fix the cache size fix"             Fixes: REWORD (the
#           branch has REWORD by patch-id only)
#   UNDONE  "mm: b: fix the free"                       Cc: stable; picked
#           -x on the branch and reverted there
#   NOAUTO  "kernel: f: fix the timer"                  Cc: stable+noautosel
#   HELPK   "lib: k: add k_min()"                       no trailer
#   USEK    "kernel: f: use k_min in the setup"         Cc: stable # 6.1.x:
#           <HELPK>: ... (the stable rules' way to name a prerequisite)
# linux-6.1.y, from v6.1:
#   B_PICKX  cherry-pick -x of PICKX
#   B_REWORD cherry-pick of REWORD, subject reworded
#   B_UPREF  UPREF as a stable backport: "commit <UPREF> upstream."
#   B_UNDONE cherry-pick -x of UNDONE, BR_UNDONE its revert
#
# So on linux-6.1.y: new CC61 FIXOLD FIXFIX PREP NEEDP NEEDG BYSUBJ FIXRW
# USEK, present PICKX REWORD UPREF, reverted upstream GONE, reverted here
# UNDONE; not candidates FEAT CC69 FIXFEAT ADDG NOAUTO HELPK.

SCAN_ANN="Ann Author <ann@example.org>"
SCAN_BOB="Bob Builder <bob@example.org>"

# sedit FILE LINE TEXT: rewrite one line of a file and stage it.
sedit() {
	sed -i "$2s/.*/$3/" "$1" && git add "$1"
}

# scommit AUTHOR SUBJECT [BODY LINE...]: commit what is staged.
scommit() {
	_a=$1 _s=$2
	shift 2
	{ printf '%s\n' "$_s" ""; printf '%s\n' "$@"; } >"$SCAN_TMP/msg" &&
	git commit -q --author="$_a" -F "$SCAN_TMP/msg"
}

stick() {
	SCAN_T=$((SCAN_T + 60))
	GIT_AUTHOR_DATE="$SCAN_T +0000" GIT_COMMITTER_DATE="$SCAN_T +0000"
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
}

# sfile PATH: a 40-line file, staged
sfile() {
	mkdir -p "$(dirname "$1")" &&
	for i in $(seq 1 40); do echo "$1 line $i"; done >"$1" &&
	git add "$1"
}

short() { git rev-parse --short=12 "$1"; }

# fixes COMMIT: the Fixes: line git's documentation asks for
fixes() { git log -1 --format='Fixes: %h ("%s")' --abbrev=12 "$1"; }

scan_history_cases() {
	out=$1
	stick && for f in mm/a.c mm/b.c fs/c.c fs/d.c drivers/e.c kernel/f.c \
		net/h.c; do sfile $f || return 1; done &&
	scommit "$SCAN_BOB" "Initial import" &&
	git tag v6.0 &&
	stick && sedit mm/a.c 5 "a: the pool" &&
	scommit "$SCAN_ANN" "mm: a: add the pool" "" "Pool the objects." "" \
		"Signed-off-by: $SCAN_ANN" &&
	OLD1=$(git rev-parse HEAD) &&
	stick && sedit fs/c.c 5 "c: the cache" &&
	scommit "$SCAN_BOB" "fs: c: add the cache" "" "Cache the blocks." "" \
		"Signed-off-by: $SCAN_BOB" &&
	OLD2=$(git rev-parse HEAD) &&
	git tag v6.1 &&

	stick && sedit drivers/e.c 10 "e: frobnicate" &&
	scommit "$SCAN_BOB" "drivers: e: add the frobnicator" "" "Frobnicate." "" \
		"Signed-off-by: $SCAN_BOB" &&
	FEAT=$(git rev-parse HEAD) &&
	stick && sedit mm/b.c 10 "b: free the leak" &&
	scommit "$SCAN_ANN" "mm: b: fix the leak" "" "Free it on the error path." "" \
		"Cc: stable@vger.kernel.org # 6.1+" "Signed-off-by: $SCAN_ANN" &&
	CC61=$(git rev-parse HEAD) &&
	stick && sedit kernel/f.c 10 "f: lock the race" &&
	scommit "$SCAN_BOB" "kernel: f: fix the race" "" "Take the lock." "" \
		"Cc: <stable@vger.kernel.org> # 6.9+" "Signed-off-by: $SCAN_BOB" &&
	CC69=$(git rev-parse HEAD) &&
	stick && sedit mm/a.c 5 "a: the pool, bounded" &&
	scommit "$SCAN_ANN" "mm: a: fix the pool overflow" "" "Bound it." "" \
		"$(fixes $OLD1)" "Signed-off-by: $SCAN_ANN" &&
	FIXOLD=$(git rev-parse HEAD) &&
	stick && sedit drivers/e.c 10 "e: frobnicate, checked" &&
	scommit "$SCAN_BOB" "drivers: e: fix the frobnicator" "" "Check it." "" \
		"$(fixes $FEAT)" "Cc: stable@vger.kernel.org" \
		"Signed-off-by: $SCAN_BOB" &&
	FIXFEAT=$(git rev-parse HEAD) &&
	stick && sedit fs/d.c 10 "d: lock it" &&
	scommit "$SCAN_BOB" "fs: d: fix the lock" "" "Lock it." "" \
		"Cc: stable@vger.kernel.org" "Signed-off-by: $SCAN_BOB" &&
	PICKX=$(git rev-parse HEAD) &&
	stick && sedit fs/c.c 20 "c: size the cache" &&
	scommit "$SCAN_BOB" "fs: c: fix the cache size" "" "Size it." "" \
		"$(fixes $OLD2)" "Signed-off-by: $SCAN_BOB" &&
	REWORD=$(git rev-parse HEAD) &&
	stick && sedit net/h.c 10 "h: queue fixed" &&
	sedit net/h.c 12 "h: queue context upstream" &&
	scommit "$SCAN_ANN" "net: h: fix the queue" "" "Fix the queue." "" \
		"Cc: stable@vger.kernel.org" "Signed-off-by: $SCAN_ANN" &&
	UPREF=$(git rev-parse HEAD) &&
	stick && sedit kernel/f.c 20 "f: count right" &&
	scommit "$SCAN_BOB" "kernel: f: fix the count" "" "Count right." "" \
		"Cc: stable@vger.kernel.org" "Signed-off-by: $SCAN_BOB" &&
	GONE=$(git rev-parse HEAD) &&
	stick && git revert --no-edit $GONE >/dev/null &&
	RGONE=$(git rev-parse HEAD) &&
	stick && sedit mm/b.c 11 "b: and the other leak" &&
	scommit "$SCAN_ANN" "mm: b: fix the leak fix" "" "The fix missed one." "" \
		"$(fixes $CC61)" "Cc: stable@vger.kernel.org" \
		"Signed-off-by: $SCAN_ANN" &&
	FIXFIX=$(git rev-parse HEAD) &&
	stick && sedit mm/a.c 20 "a: pool lock reworked" &&
	scommit "$SCAN_ANN" "mm: a: rework the pool lock" "" "Rework it." "" \
		"Cc: stable@vger.kernel.org" "Signed-off-by: $SCAN_ANN" &&
	PREP=$(git rev-parse HEAD) &&
	stick && sedit mm/a.c 21 "a: pool lock fixed" &&
	scommit "$SCAN_ANN" "mm: a: fix the pool lock" "" "Fix it." "" \
		"Cc: stable@vger.kernel.org" "Signed-off-by: $SCAN_ANN" &&
	NEEDP=$(git rev-parse HEAD) &&
	stick && sfile drivers/g.c &&
	scommit "$SCAN_BOB" "drivers: g: add the helper" "" "Help." "" \
		"Signed-off-by: $SCAN_BOB" &&
	ADDG=$(git rev-parse HEAD) &&
	stick && sedit drivers/g.c 10 "g: helper fixed" &&
	scommit "$SCAN_BOB" "drivers: g: fix the helper" "" "Fix it." "" \
		"Cc: stable@vger.kernel.org" "Signed-off-by: $SCAN_BOB" &&
	NEEDG=$(git rev-parse HEAD) &&
	stick && sedit fs/c.c 30 "c: size the cache again" &&
	scommit "$SCAN_BOB" "fs: c: fix the cache size again" "" "Again." "" \
		'Fixes: 0123456789ab ("fs: c: fix the cache size")' \
		"Signed-off-by: $SCAN_BOB" &&
	BYSUBJ=$(git rev-parse HEAD) &&
	stick && sedit fs/c.c 35 "c: the size fix fixed" &&
	scommit "$SCAN_BOB" "fs: c: fix the cache size fix" "" "Fix the fix." "" \
		"$(fixes $REWORD)" "Signed-off-by: $SCAN_BOB" &&
	FIXRW=$(git rev-parse HEAD) &&
	stick && sedit mm/b.c 30 "b: free once" &&
	scommit "$SCAN_ANN" "mm: b: fix the free" "" "Free once." "" \
		"Cc: stable@vger.kernel.org" "Signed-off-by: $SCAN_ANN" &&
	UNDONE=$(git rev-parse HEAD) &&
	stick && sedit kernel/f.c 30 "f: timer fixed" &&
	scommit "$SCAN_BOB" "kernel: f: fix the timer" "" "Fix it." "" \
		"Cc: stable+noautosel@kernel.org # racy" "Signed-off-by: $SCAN_BOB" &&
	NOAUTO=$(git rev-parse HEAD) &&
	stick && sedit kernel/f.c 35 "f: k_min helper" &&
	scommit "$SCAN_BOB" "lib: k: add k_min()" "" "A helper." "" \
		"Signed-off-by: $SCAN_BOB" &&
	HELPK=$(git rev-parse HEAD) &&
	stick && sedit kernel/f.c 5 "f: setup with k_min" &&
	scommit "$SCAN_BOB" "kernel: f: use k_min in the setup" "" "Use it." "" \
		"Cc: <stable@vger.kernel.org> # 6.1.x: $(short $HELPK): lib: k: add k_min()" \
		"Signed-off-by: $SCAN_BOB" &&
	USEK=$(git rev-parse HEAD) &&

	git checkout -q -b linux-6.1.y v6.1 &&
	stick && git cherry-pick -x $PICKX >/dev/null &&
	B_PICKX=$(git rev-parse HEAD) &&
	stick && git cherry-pick $REWORD >/dev/null &&
	git commit -q --amend -m "fs/c: size the cache right" \
		-m "Backported for 6.1." &&
	B_REWORD=$(git rev-parse HEAD) &&
	stick && sedit net/h.c 10 "h: queue fixed" &&
	scommit "$SCAN_ANN" "net: h: fix the queue" "commit $UPREF upstream." "" \
		"Fix the queue." "" "Cc: stable@vger.kernel.org" \
		"Signed-off-by: $SCAN_ANN" &&
	B_UPREF=$(git rev-parse HEAD) &&
	stick && git cherry-pick -x $UNDONE >/dev/null &&
	B_UNDONE=$(git rev-parse HEAD) &&
	stick && git revert --no-edit $B_UNDONE >/dev/null &&
	BR_UNDONE=$(git rev-parse HEAD) &&
	git checkout -q master &&
	for v in OLD1 OLD2 FEAT CC61 CC69 FIXOLD FIXFEAT PICKX REWORD UPREF \
		GONE RGONE FIXFIX PREP NEEDP ADDG NEEDG BYSUBJ FIXRW UNDONE \
		NOAUTO HELPK USEK B_PICKX B_REWORD B_UPREF B_UNDONE BR_UNDONE; do
		eval "echo $v=\$$v" || return 1
	done >"$out.shas"
}

scan_history_generate() {
	SCAN_TMP=$(mkdir -p "$1.tmp" && cd "$1.tmp" && pwd)
	SCAN_T=1700000000
	git init -q "$1" &&
	(cd "$1" && scan_history_cases "$(cd .. && pwd)/$(basename "$1")")
}

# A history generator for the tracking tests: a kernel-like repository with
# the shapes real stable trees have.  Source it, then run
#
#   history_generate DIR [FILLER]
#
# which builds DIR (a git repository) and writes DIR.shas (shell
# assignments of every commit named below) and DIR.mbox/<slug>.mbox (the
# series as posted, one thread per series, for `stablekit pull -m`).
#
# The bulk of the history (FILLER commits, default 400, on files of their
# own, by several authors, before and after the release) is written with
# git fast-import; the cases themselves are made with the git commands a
# maintainer runs (commit, cherry-pick, cherry-pick -x, revert, merge), so
# that their messages are git's own.
#
# mainline (master), after the tag v1.0 unless said otherwise:
#   S1      "mm: alpha: fix the samesub overflow" by Ann, before v1.0, and
#   RS1     its revert, before v1.0; series samesub posts the same subject
#           by the same author with another change (a different patch-id);
#           it is not merged
#   L_PICKX, L_PLAIN, L_REWORD, L_BREVERT, L_RELAND, L_UPREV
#           one patch each of the series pickx, plain, reword, brevert,
#           reland, uprev, applied as posted (equal patch-id, Link:)
#   RUP     Revert "mm: beta: fix the uprev hang" (of L_UPREV)
#   SIM     "mm: gamma: fix the similar leak": the subject of series similar,
#           another change; the series is not merged
#   Q       series squash (two patches) squashed into one commit, no Link:
#   SP1 SP2 series split (one patch, two hunks) split into two commits
#   E1 E2   series edited (two patches): E1 patch 1 as posted (Link:), E2
#           patch 2 edited on the way (both its added lines differ), with
#           the Link: of the series' cover letter
#   T1 U T2 MT  on a topic branch merged by MT: series topic (Bob, two
#           patches, Link:) with U, an unrelated rework by Bob of 14 files,
#           one of them a file of T2, in between
#
# linux-1.0.y, from v1.0:
#   B_PICKX   cherry-pick -x of L_PICKX
#   B_PLAIN   plain cherry-pick of L_PLAIN
#   B_REWORD  cherry-pick of L_REWORD, subject reworded
#   B_BREVERT cherry-pick -x of L_BREVERT, then BR_BREVERT its revert
#   B_RELAND  cherry-pick -x of L_RELAND, BR_RELAND its revert, then
#   B_RELAND2 cherry-pick -x of L_RELAND again
#
# git's own diffs and merge reverts (mainline, after the topic merge):
#   L_RENAME  drivers/theta.c renamed to drivers/theta_core.c with one line
#             edited (series rename, no Link: upstream: only git's rename
#             detection gives the mail's patch-id)
#   L_INDENT  a third "if (ret)" block in fs/eta.c (series indent, no Link:),
#             placed in the diff by the indent heuristic; ETA (before v1.0)
#             added fs/eta.c with two of them
#   M1 M2 MM RMM    series mrev (Bob, two patches) on a branch merged by MM,
#             then RMM = git revert -m 1 MM ("reversing changes made to")
#   A1 A2 MA RMA RRMA   series mreap merged by MA, reverted by RMA, and
#             RRMA its revert (the topic lands again)
#   R1 MR RMR R1B MR2   series mremerge merged by MR, reverted by RMR,
#             then picked again as R1B on a new branch merged by MR2
# linux-1.0.y:
#   B_RENAME  plain cherry-pick of L_RENAME
#   B_INDENT  cherry-pick of L_INDENT, subject reworded and author changed
#             (Carol): only its patch-id says what it is
#
# Every series patch has Cc: stable, so that on linux-1.0.y it is needed
# unless it is there already (or reverted).

ANN="Ann Author <ann@example.org>"
BOB="Bob Builder <bob@example.org>"
HISTORY_LINES=40

# The fast-import stream: the files of every case, then filler commits.
history_stream() {
	perl -e '
	my ($filler, $lines, @files) = @ARGV;
	my @who = ("Carol Coder <carol\@example.org>",
		   "Dan Dev <dan\@example.org>", "Eve Hacker <eve\@example.org>",
		   "Ann Author <ann\@example.org>");
	my $t = 1600000000;
	my $msg = "Initial import\n";
	print "commit refs/heads/master\nmark :1\n";
	print "author Stable Tester <tester\@example.org> $t +0000\n";
	print "committer Stable Tester <tester\@example.org> $t +0000\n";
	print "data ", length($msg), "\n$msg";
	for my $f (@files) {
		my $c = join("", map { "$f line $_\n" } 1 .. $lines);
		print "M 100644 inline $f\ndata ", length($c), "\n$c";
	}
	print "\n";
	for my $i (1 .. $filler) {
		my $w = $who[$i % @who];
		my $f = "lib/filler" . ($i % 50) . ".c";
		$t += 60;
		$msg = "lib: filler" . ($i % 50) . ": tune case $i\n\n" .
			"Case $i is handled one step earlier.\n\n" .
			"Signed-off-by: $w\n";
		print "commit refs/heads/master\nmark :", $i + 1, "\n";
		print "author $w $t +0000\ncommitter $w $t +0000\n";
		print "data ", length($msg), "\n$msg";
		print "from :$i\n";
		my $c = "filler case $i\n";
		print "M 100644 inline $f\ndata ", length($c), "\n$c\n";
	}' "$1" "$HISTORY_LINES" mm/alpha.c mm/beta.c mm/gamma.c fs/gamma.c \
		fs/delta.c net/epsilon.c include/shared.h drivers/theta.c \
		$(for i in $(seq 1 13); do echo net/zeta$i.c; done)
}

# hedit FILE LINE TEXT: rewrite one line of a file and stage it.
hedit() {
	sed -i "$2s/.*/$3/" "$1" && git add "$1"
}

# hcommit AUTHOR SUBJECT [BODY LINE...]: commit what is staged.
hcommit() {
	_a=$1 _s=$2
	shift 2
	{ printf '%s\n' "$_s" ""; printf '%s\n' "$@"; } >"$HISTORY_TMP/msg" &&
	git commit -q --author="$_a" -F "$HISTORY_TMP/msg"
}

# The trailers of a posted patch landing as SLUG-N.
trailers() {
	printf '%s\n' "Cc: stable@vger.kernel.org" \
		"Link: https://lore.kernel.org/r/$1@example.org" \
		"Signed-off-by: ${2:-$ANN}"
}

# A fast-moving clock, so that commit dates order the history.
htick() {
	HISTORY_T=$((HISTORY_T + 60))
	GIT_AUTHOR_DATE="$HISTORY_T +0000" GIT_COMMITTER_DATE="$HISTORY_T +0000"
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
}

# mbox SLUG SUBJECT COMMIT...: a thread (cover letter when more than one
# patch) of the given commits as posted: Message-Id <SLUG-N@example.org>.
history_mbox() {
	_slug=$1 _cover=$2
	shift 2
	_n=$# _i=0
	if test $_n -gt 1; then
		printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
		printf 'From: %s\nDate: Tue, 14 Nov 2023 22:13:20 +0000\n' \
			"$(git log -1 --format='%an <%ae>' "$1")"
		printf 'Subject: [PATCH 0/%d] %s\n' $_n "$_cover"
		printf 'Message-Id: <%s-0@example.org>\n\n' "$_slug"
		printf 'The cover letter of %s.\n\n' "$_slug"
	fi
	for c in "$@"; do
		_i=$((_i + 1))
		printf 'From %s Mon Sep 17 00:00:00 2001\n' "$(git rev-parse "$c")"
		printf 'From: %s\n' "$(git log -1 --format='%an <%ae>' "$c")"
		printf 'Date: Tue, 14 Nov 2023 22:13:2%d +0000\n' $_i
		printf 'Subject: [PATCH %d/%d] %s\n' $_i $_n \
			"$(git log -1 --format=%s "$c")"
		printf 'Message-Id: <%s-%d@example.org>\n' "$_slug" $_i
		test $_n -gt 1 &&
		printf 'In-Reply-To: <%s-0@example.org>\n' "$_slug"
		printf '\n'
		git log -1 --format=%b "$c" | grep -v "^Link:"
		printf -- '---\n'
		git diff-tree -p -M --no-commit-id "$c"
		printf -- '-- \n2.40.0\n\n'
	done
}

history_generate() {
	HISTORY_DIR=$1
	HISTORY_TMP=$(mkdir -p "$1.tmp" && cd "$1.tmp" && pwd)
	HISTORY_T=1700000000
	mkdir -p "$1.mbox" &&
	git init -q "$1" &&
	history_stream "${2:-400}" | git -C "$1" fast-import --quiet &&
	(cd "$1" && git checkout -q master && history_cases "$(cd .. && pwd)/$(basename "$1")")
}

# Post a change as a patch of its own on a side branch, as mailed.
posted() {	# REF FROM: a side branch mail/REF at FROM
	git checkout -q -b "mail/$1" "$2"
}

# fs/eta.c: a function of error checks, the indent heuristic's case (with
# an argument, one more check after a blank line: git's diff shows the
# blank line last, a diff without the heuristic first)
eta_file() {
	printf 'int eta_setup(void)\n{\n\tint ret = eta_one();\n\n'
	for i in 1 2 ${1:+3}; do
		test $i = 3 && printf '\n'
		printf '\tif (ret) {\n\t\teta_undo();\n\t}\n'
	done
	printf '\treturn 0;\n}\n'
}

history_cases() {
	out=$1
	htick && eta_file >fs/eta.c && git add fs/eta.c &&
	hcommit "$ANN" "fs: eta: add the setup" "" "Set it up." "" \
		"Signed-off-by: $ANN" &&
	ETA=$(git rev-parse HEAD) &&
	# before the release: S1 and its revert
	htick && hedit mm/alpha.c 5 "alpha: saturate the samesub counter" &&
	hcommit "$ANN" "mm: alpha: fix the samesub overflow" "" \
		"The counter overflows; saturate it." "" "Signed-off-by: $ANN" &&
	S1=$(git rev-parse HEAD) &&
	htick && git revert --no-edit "$S1" >/dev/null && RS1=$(git rev-parse HEAD) &&
	htick && git commit -q --allow-empty -m "Linux 1.0" && git tag v1.0 &&
	V10=$(git rev-parse HEAD) &&
	git branch linux-1.0.y &&

	# series posted on their own branches, then applied upstream
	htick && hedit mm/alpha.c 10 "alpha: count pickx once" &&
	hcommit "$ANN" "mm: alpha: fix the pickx counter" "" \
		"The pickx counter is counted twice." "" "$(trailers pickx-1)" &&
	L_PICKX=$(git rev-parse HEAD) &&
	htick && hedit mm/alpha.c 20 "alpha: count plain once" &&
	hcommit "$ANN" "mm: alpha: fix the plain counter" "" \
		"The plain counter is counted twice." "" "$(trailers plain-1)" &&
	L_PLAIN=$(git rev-parse HEAD) &&
	htick && hedit mm/beta.c 5 "beta: drop the reword reference" &&
	hcommit "$ANN" "mm: beta: fix the reword leak" "" \
		"A reference is leaked on the reword path." "" "$(trailers reword-1)" &&
	L_REWORD=$(git rev-parse HEAD) &&
	htick && hedit fs/gamma.c 5 "gamma: lock brevert" &&
	hcommit "$ANN" "fs: gamma: fix the brevert race" "" \
		"Take the lock." "" "$(trailers brevert-1)" &&
	L_BREVERT=$(git rev-parse HEAD) &&
	htick && hedit fs/gamma.c 20 "gamma: lock reland" &&
	hcommit "$ANN" "fs: gamma: fix the reland race" "" \
		"Take the lock." "" "$(trailers reland-1)" &&
	L_RELAND=$(git rev-parse HEAD) &&
	htick && hedit mm/beta.c 20 "beta: wake uprev" &&
	hcommit "$ANN" "mm: beta: fix the uprev hang" "" \
		"Wake the waiter." "" "$(trailers uprev-1)" &&
	L_UPREV=$(git rev-parse HEAD) &&
	htick && git revert --no-edit "$L_UPREV" >/dev/null &&
	RUP=$(git rev-parse HEAD) &&
	htick && hedit mm/gamma.c 5 "gamma: free similar on the error path" &&
	hcommit "$ANN" "mm: gamma: fix the similar leak" "" \
		"Free it on the error path." "" "Signed-off-by: $ANN" &&
	SIM=$(git rev-parse HEAD) &&
	MAIN=$(git rev-parse HEAD) &&

	# what was posted and landed reshaped, or not at all
	posted samesub "$V10" &&
	htick && hedit mm/alpha.c 30 "alpha: clamp the samesub counter" &&
	hcommit "$ANN" "mm: alpha: fix the samesub overflow" "" \
		"The counter overflows; clamp it." "" "$(trailers samesub-1)" &&
	P_SAMESUB=$(git rev-parse HEAD) &&
	posted similar "$V10" &&
	htick && hedit mm/gamma.c 5 "gamma: free similar on every path" &&
	hedit mm/gamma.c 15 "gamma: similar freed" &&
	hcommit "$ANN" "mm: gamma: fix the similar leak" "" \
		"Free it on every path." "" "$(trailers similar-1)" &&
	P_SIMILAR=$(git rev-parse HEAD) &&
	posted squash "$V10" &&
	htick && hedit mm/beta.c 30 "beta: squash one checked" &&
	hcommit "$ANN" "mm: beta: check the squash input" "" \
		"Check it." "" "$(trailers squash-1)" &&
	P_SQUASH1=$(git rev-parse HEAD) &&
	htick && hedit mm/gamma.c 30 "gamma: squash two checked" &&
	hcommit "$ANN" "mm: gamma: check the squash output" "" \
		"Check it." "" "$(trailers squash-2)" &&
	P_SQUASH2=$(git rev-parse HEAD) &&
	posted edited "$V10" &&
	htick && hedit fs/delta.c 15 "delta: edited one" &&
	hcommit "$ANN" "fs: delta: prepare the edited path" "" \
		"Prepare." "" "$(trailers edited-1)" &&
	P_EDITED1=$(git rev-parse HEAD) &&
	htick && hedit fs/delta.c 20 "delta: edited two" &&
	hedit fs/delta.c 25 "delta: edited three" &&
	hcommit "$ANN" "fs: delta: fix the edited path" "" \
		"Fix." "" "$(trailers edited-2)" &&
	P_EDITED2=$(git rev-parse HEAD) &&
	posted split "$V10" &&
	htick && hedit fs/delta.c 5 "delta: split part one" &&
	hedit fs/delta.c 30 "delta: split part two" &&
	hcommit "$ANN" "fs: delta: fix the split accounting" "" \
		"Account in both places." "" "$(trailers split-1)" &&
	P_SPLIT=$(git rev-parse HEAD) &&

	git checkout -q master &&
	htick && hedit mm/beta.c 30 "beta: squash one checked" &&
	hedit mm/gamma.c 30 "gamma: squash two checked" &&
	hcommit "$ANN" "mm: check the squash input and output" "" \
		"Check both." "" "Signed-off-by: $ANN" &&
	Q=$(git rev-parse HEAD) &&
	htick && hedit fs/delta.c 5 "delta: split part one" &&
	hcommit "$ANN" "fs: delta: account the split in the first place" "" \
		"Account here." "" "Signed-off-by: $ANN" &&
	SP1=$(git rev-parse HEAD) &&
	htick && hedit fs/delta.c 30 "delta: split part two" &&
	hcommit "$ANN" "fs: delta: account the split in the second place" "" \
		"And here." "" "Signed-off-by: $ANN" &&
	SP2=$(git rev-parse HEAD) &&
	htick && hedit fs/delta.c 15 "delta: edited one" &&
	hcommit "$ANN" "fs: delta: prepare the edited path" "" \
		"Prepare." "" "$(trailers edited-1)" &&
	E1=$(git rev-parse HEAD) &&
	htick && hedit fs/delta.c 20 "delta: edited two, reworked" &&
	hedit fs/delta.c 25 "delta: edited three, as the maintainer wanted" &&
	hcommit "$ANN" "fs: delta: fix the edited path" "" \
		"Fix (edited on the way)." "" \
		"Link: https://lore.kernel.org/r/edited-0@example.org" \
		"Signed-off-by: $ANN" &&
	E2=$(git rev-parse HEAD) &&

	# the topic branch: series topic and an unrelated rework by Bob
	git checkout -q -b topic &&
	htick && hedit net/epsilon.c 5 "epsilon: set up topic" &&
	hcommit "$BOB" "net: epsilon: fix the topic setup" "" \
		"Set it up first." "" "$(trailers topic-1 "$BOB")" &&
	T1=$(git rev-parse HEAD) &&
	htick &&
	for i in $(seq 1 13); do
		hedit net/zeta$i.c 10 "zeta$i: reworked" || return 1
	done &&
	hedit include/shared.h 35 "shared: zeta reworked" &&
	hcommit "$BOB" "net: zeta: rework the zeta drivers" "" \
		"Rework them." "" "Signed-off-by: $BOB" &&
	U=$(git rev-parse HEAD) &&
	htick && hedit net/epsilon.c 25 "epsilon: tear down topic" &&
	hedit include/shared.h 5 "shared: topic torn down" &&
	hcommit "$BOB" "net: epsilon: fix the topic teardown" "" \
		"Tear it down last." "" "$(trailers topic-2 "$BOB")" &&
	T2=$(git rev-parse HEAD) &&
	git checkout -q master &&
	htick && git merge -q --no-ff -m "Merge branch topic" topic &&
	MT=$(git rev-parse HEAD) &&

	# git's diffs: a rename, a change the indent heuristic places
	htick && git mv drivers/theta.c drivers/theta_core.c &&
	hedit drivers/theta_core.c 38 "theta: the core, renamed" &&
	hcommit "$ANN" "drivers: theta: move the core into theta_core.c" "" \
		"Name the file after what it holds." "" \
		"Cc: stable@vger.kernel.org" "Signed-off-by: $ANN" &&
	L_RENAME=$(git rev-parse HEAD) &&
	htick && eta_file more >fs/eta.c && git add fs/eta.c &&
	hcommit "$ANN" "fs: eta: undo the setup on every error" "" \
		"Check once more." "" "Cc: stable@vger.kernel.org" \
		"Signed-off-by: $ANN" &&
	L_INDENT=$(git rev-parse HEAD) &&

	# a topic merged and reverted by reverting its merge
	git checkout -q -b mrev &&
	htick && hedit net/epsilon.c 35 "epsilon: mrev one" &&
	hcommit "$BOB" "net: epsilon: fix the mrev refcount" "" "One." "" \
		"$(trailers mrev-1 "$BOB")" &&
	M1=$(git rev-parse HEAD) &&
	htick && hedit fs/gamma.c 35 "gamma: mrev two" &&
	hcommit "$BOB" "fs: gamma: fix the mrev lock" "" "Two." "" \
		"$(trailers mrev-2 "$BOB")" &&
	M2=$(git rev-parse HEAD) &&
	git checkout -q master &&
	htick && git merge -q --no-ff -m "Merge branch mrev" mrev &&
	MM=$(git rev-parse HEAD) &&
	htick && git revert --no-edit -m 1 "$MM" >/dev/null &&
	RMM=$(git rev-parse HEAD) &&
	# a topic merged, reverted by its merge, and reapplied
	git checkout -q -b mreap &&
	htick && hedit net/epsilon.c 38 "epsilon: mreap one" &&
	hcommit "$BOB" "net: epsilon: fix the mreap count" "" "One." "" \
		"$(trailers mreap-1 "$BOB")" &&
	A1=$(git rev-parse HEAD) &&
	htick && hedit fs/gamma.c 38 "gamma: mreap two" &&
	hcommit "$BOB" "fs: gamma: fix the mreap wait" "" "Two." "" \
		"$(trailers mreap-2 "$BOB")" &&
	A2=$(git rev-parse HEAD) &&
	git checkout -q master &&
	htick && git merge -q --no-ff -m "Merge branch mreap" mreap &&
	MA=$(git rev-parse HEAD) &&
	htick && git revert --no-edit -m 1 "$MA" >/dev/null &&
	RMA=$(git rev-parse HEAD) &&
	htick && git revert --no-edit "$RMA" >/dev/null &&
	RRMA=$(git rev-parse HEAD) &&
	# a topic merged, reverted by its merge, rebased and merged again
	git checkout -q -b mremerge &&
	htick && hedit net/epsilon.c 40 "epsilon: mremerge one" &&
	hcommit "$BOB" "net: epsilon: fix the mremerge leak" "" "One." "" \
		"$(trailers mremerge-1 "$BOB")" &&
	R1=$(git rev-parse HEAD) &&
	git checkout -q master &&
	htick && git merge -q --no-ff -m "Merge branch mremerge" mremerge &&
	MR=$(git rev-parse HEAD) &&
	htick && git revert --no-edit -m 1 "$MR" >/dev/null &&
	RMR=$(git rev-parse HEAD) &&
	git checkout -q -b mremerge2 &&
	htick && git cherry-pick "$R1" >/dev/null &&
	R1B=$(git rev-parse HEAD) &&
	git checkout -q master &&
	htick && git merge -q --no-ff -m "Merge branch mremerge2" mremerge2 &&
	MR2=$(git rev-parse HEAD) &&

	# the stable branch
	git checkout -q linux-1.0.y &&
	htick && git cherry-pick -x "$L_PICKX" >/dev/null &&
	B_PICKX=$(git rev-parse HEAD) &&
	htick && git cherry-pick "$L_PLAIN" >/dev/null &&
	B_PLAIN=$(git rev-parse HEAD) &&
	htick && git cherry-pick "$L_REWORD" >/dev/null &&
	hcommit_amend "beta: plug a refcount problem on teardown" &&
	B_REWORD=$(git rev-parse HEAD) &&
	htick && git cherry-pick -x "$L_BREVERT" >/dev/null &&
	B_BREVERT=$(git rev-parse HEAD) &&
	htick && git revert --no-edit "$B_BREVERT" >/dev/null &&
	BR_BREVERT=$(git rev-parse HEAD) &&
	htick && git cherry-pick -x "$L_RELAND" >/dev/null &&
	B_RELAND=$(git rev-parse HEAD) &&
	htick && git revert --no-edit "$B_RELAND" >/dev/null &&
	BR_RELAND=$(git rev-parse HEAD) &&
	htick && git cherry-pick -x "$L_RELAND" >/dev/null &&
	B_RELAND2=$(git rev-parse HEAD) &&
	htick && git cherry-pick "$L_RENAME" >/dev/null &&
	B_RENAME=$(git rev-parse HEAD) &&
	htick && git cherry-pick "$L_INDENT" >/dev/null &&
	{ echo "eta: plug the error path"; echo; echo "Backported."; } \
		>"$HISTORY_TMP/msg" &&
	git commit -q --amend --author="Carol Coder <carol@example.org>" \
		-F "$HISTORY_TMP/msg" &&
	B_INDENT=$(git rev-parse HEAD) &&
	git checkout -q master &&

	# the series as posted
	history_mbox pickx "" "$L_PICKX" >"$out.mbox/pickx.mbox" &&
	history_mbox plain "" "$L_PLAIN" >"$out.mbox/plain.mbox" &&
	history_mbox reword "" "$L_REWORD" >"$out.mbox/reword.mbox" &&
	history_mbox brevert "" "$L_BREVERT" >"$out.mbox/brevert.mbox" &&
	history_mbox reland "" "$L_RELAND" >"$out.mbox/reland.mbox" &&
	history_mbox uprev "" "$L_UPREV" >"$out.mbox/uprev.mbox" &&
	history_mbox samesub "" "$P_SAMESUB" >"$out.mbox/samesub.mbox" &&
	history_mbox similar "" "$P_SIMILAR" >"$out.mbox/similar.mbox" &&
	history_mbox squash "mm: check the squash input and output" \
		"$P_SQUASH1" "$P_SQUASH2" >"$out.mbox/squash.mbox" &&
	history_mbox split "" "$P_SPLIT" >"$out.mbox/split.mbox" &&
	history_mbox edited "fs: delta: the edited path" "$P_EDITED1" \
		"$P_EDITED2" >"$out.mbox/edited.mbox" &&
	history_mbox topic "net: epsilon: topic fixes" "$T1" "$T2" \
		>"$out.mbox/topic.mbox" &&
	history_mbox rename "" "$L_RENAME" >"$out.mbox/rename.mbox" &&
	history_mbox indent "" "$L_INDENT" >"$out.mbox/indent.mbox" &&
	history_mbox mrev "net: epsilon, fs: gamma: mrev fixes" "$M1" "$M2" \
		>"$out.mbox/mrev.mbox" &&
	history_mbox mreap "net: epsilon, fs: gamma: mreap fixes" "$A1" "$A2" \
		>"$out.mbox/mreap.mbox" &&
	history_mbox mremerge "" "$R1" >"$out.mbox/mremerge.mbox" &&
	for v in S1 RS1 V10 L_PICKX L_PLAIN L_REWORD L_BREVERT L_RELAND \
		 L_UPREV RUP SIM MAIN P_SAMESUB P_SIMILAR P_SQUASH1 P_SQUASH2 \
		 P_SPLIT P_EDITED1 P_EDITED2 Q SP1 SP2 E1 E2 T1 U T2 MT \
		 B_PICKX B_PLAIN B_REWORD \
		 B_BREVERT BR_BREVERT B_RELAND BR_RELAND B_RELAND2 \
		 ETA L_RENAME L_INDENT M1 M2 MM RMM A1 A2 MA RMA RRMA \
		 R1 MR RMR R1B MR2 \
		 B_RENAME B_INDENT; do
		eval "echo $v=\$$v"
	done >"$out.shas"
}

# Reword HEAD's subject, keeping its body.
hcommit_amend() {
	{ echo "$1"; echo; git log -1 --format=%b; } >"$HISTORY_TMP/msg" &&
	git commit -q --amend -F "$HISTORY_TMP/msg"
}

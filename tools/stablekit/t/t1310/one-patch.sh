# one_patch TAGS CODE DAY: a one-patch mail "TAGS mm: thing" whose diff
# adds CODE, dated day DAY of January 2026.  Synthetic: real mail shows
# these subject forms, never all of them on one patch.
one_patch() {
	cat <<-EOF
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: A U Thor <author@example.org>
	Date: Mon, $3 Jan 2026 10:00:00 +0000
	Subject: $1 mm: thing
	Message-Id: <thing-$3@example.org>

	Make the thing better.

	Signed-off-by: A U Thor <author@example.org>
	---
	diff --git a/mm/thing.c b/mm/thing.c
	--- a/mm/thing.c
	+++ b/mm/thing.c
	@@ -1 +1 @@
	-old
	+$2

	EOF
}

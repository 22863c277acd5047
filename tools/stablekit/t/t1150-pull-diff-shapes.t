#!/bin/sh

test_description='stablekit pull and port: quilt-style diffs are read, unsafe diffs refused

Stable review mails and the patches of our own queues carry quilt-style
diffs ("--- a/file", "+++ b/file", no "diff --git" line); both pull and
port read them.  A diff that renames from outside the tree or carries a
symbolic link is refused at pull, naming the mail file and line.
'

. ./lib-stablekit.sh

FIX="$SHARNESS_TEST_DIRECTORY/t1150"
REVIEW="$FIX/stable-review-6.12-41-49.mbox"
S=wifi-rtw88-add-usb-id-2001-3329-for-d-link-ac13u-rev
F=drivers/net/wireless/realtek/rtw88/rtw8822cu.c

test_must_be_empty_dir() {
	test -z "$(ls -A "$1")" || {
		echo "not empty: $1"; ls -la "$1"; false
	}
}

# pull must fail with exit 128, name the input, and leave series/ empty
pull_fails() {
	test_expect_code 128 stablekit -C p pull -m "$PWD/$1" 2>err &&
	grep "$2" err &&
	test_must_be_empty_dir p/series
}

# A one-patch mail of the shape of the seed's, its diff given on stdin.
diff_mail() {
	cat <<-\EOF &&
	From mboxrd@z Thu Jan  1 00:00:00 1970
	From: A U Thor <author@example.org>
	Date: Mon, 5 Jan 2026 10:00:00 +0000
	Subject: [PATCH] mm: a change
	Message-Id: <shape@example.org>

	A change.

	Signed-off-by: A U Thor <author@example.org>
	---
	EOF
	cat
}

test_expect_success 'setup: a project and a model tree holding the file' '
	sk_new_project p &&
	git init -q lin &&
	mkdir -p lin/${F%/*} &&
	{
		echo "// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause" &&
		for i in $(test_seq 2 18); do echo "/* line $i */"; done &&
		printf "static const struct usb_device_id rtw_8822cu_id_table[] = {\n" &&
		printf "\t{ USB_DEVICE_AND_INTERFACE_INFO(RTW_USB_VENDOR_ID_REALTEK, 0xc82c, 0xff, 0xff, 0xff),\n" &&
		printf "\t  .driver_info = (kernel_ulong_t)&(rtw8822c_hw_spec) },\n" &&
		printf "\t{ USB_DEVICE_AND_INTERFACE_INFO(0x13b1, 0x0043, 0xff, 0xff, 0xff),\n" &&
		printf "\t  .driver_info = (kernel_ulong_t)&(rtw8822c_hw_spec) }, /* Alpha - Alpha */\n" &&
		printf "\t{},\n};\nMODULE_DEVICE_TABLE(usb, rtw_8822cu_id_table);\n\n" &&
		printf "static int rtw8822cu_probe(void)\n{\n\treturn 0;\n}\n"
	} >lin/$F &&
	git -C lin add -A && git -C lin commit -qm base && git -C lin tag v6.12 &&
	git -C lin branch linux-6.12.y &&
	git -C lin checkout -q -b shifted &&
	sed -i "/line 3 \*/d; /line 4 \*/d" lin/$F &&
	git -C lin commit -qam "two lines fewer" && git -C lin checkout -q master &&
	cat >p/stable/branches.conf <<-EOF
	[stablekit]
		repo = ../lin
		signoff = Stable Tester <tester@example.org>
	[branch "mainline"]
		ref = master
		base = v6.12
		kind = mainline
	[branch "linux-6.12.y"]
		ref = linux-6.12.y
		base = v6.12
		allow-pending = true
	[branch "shifted"]
		ref = shifted
		base = v6.12
		allow-pending = true
	EOF
'

test_expect_success 'a stable review mail: its quilt-style diff is no longer refused' '
	sk_new_project p-review &&
	test_might_fail stablekit -C p-review pull -m "$REVIEW" 2>err &&
	! grep "carries no diff" err &&
	! grep "$REVIEW:[0-9]*:" err
'

test_expect_success 'a stable review patch sent on its own is stored, diff as sent' '
	sed "s|^Subject: \[PATCH 6.12 41/49\]|Subject: [PATCH 6.12 1/1]|" "$REVIEW" >one.mbox &&
	stablekit -C p pull -m "$PWD/one.mbox" >out 2>err &&
	grep "^$S: v1, 1 patch (new series)" out &&
	test "$(git config -f p/series/$S/series.conf patch.1.1.file)" = "$F" &&
	grep "^--- a/$F$" p/series/$S/v1.mbx &&
	! grep "^diff --git" p/series/$S/v1.mbx
'

test_expect_success 'its patch-id is git patch-id --stable of the same change' '
	{
		echo "diff --git a/$F b/$F" &&
		echo "index 1234567..89abcde 100644" &&
		sed -n "/^--- a\/drivers/,\$p" "$REVIEW"
	} >git-form.diff &&
	{ echo "commit 0000000000000000000000000000000000000000"; cat git-form.diff; } |
		git patch-id --stable | cut -d" " -f1 >expect &&
	git config -f p/series/$S/series.conf patch.1.1.patch-id >actual &&
	test_cmp expect actual
'

test_expect_success 'port: a quilt-style patch applies clean (libgit2) and with an offset' '
	(cd p && stablekit port $S --branch linux-6.12.y) >out &&
	grep "1. clean  *wifi: rtw88: Add USB ID" out &&
	(cd p && stablekit port $S --branch shifted) >out &&
	grep "1. offset  *wifi: rtw88: Add USB ID" out &&
	grep "offset -2 in $F hunk 1" out &&
	git -C lin archive --prefix=tree/ shifted | tar -x &&
	(cd tree && QUILT_PATCHES=../p/stable/shifted quilt --quiltrc - push -aq) &&
	grep -c "0x2001, 0x3329" tree/$F >count &&
	echo 1 >expect &&
	test_cmp expect count
'

test_expect_success 'a rename from an absolute path is refused (file:line)' '
	sk_new_project q &&
	diff_mail >rename.mbox <<-\EOF &&
	diff --git a/mm/a.c b/mm/b.c
	similarity index 100%
	rename from /etc/passwd
	rename to mm/b.c
	EOF
	test_expect_code 128 stablekit -C q pull -m "$PWD/rename.mbox" 2>err &&
	grep "rename.mbox:13: unsafe path ./etc/passwd." err &&
	test_must_be_empty_dir q/series
'

test_expect_success 'a rename out of the tree with .. is refused' '
	diff_mail >rename2.mbox <<-\EOF &&
	diff --git a/mm/a.c b/mm/a.c
	similarity index 100%
	rename from mm/a.c
	rename to ../../a.c
	EOF
	test_expect_code 128 stablekit -C q pull -m "$PWD/rename2.mbox" 2>err &&
	grep "rename2.mbox:14: unsafe path" err &&
	test_must_be_empty_dir q/series
'

test_expect_success 'a symbolic link diff is refused at pull (file:line)' '
	diff_mail >link.mbox <<-\EOF &&
	diff --git a/mm/link b/mm/link
	new file mode 120000
	index 0000000..8a0dd4d
	--- /dev/null
	+++ b/mm/link
	@@ -0,0 +1 @@
	+/etc/passwd
	\ No newline at end of file
	EOF
	test_expect_code 128 stablekit -C q pull -m "$PWD/link.mbox" 2>err &&
	grep "link.mbox:12: .mm/link. is a symbolic link (mode 120000)" err &&
	test_must_be_empty_dir q/series
'

test_expect_success 'a quilt-style diff climbing out with .. is refused' '
	diff_mail >qdotdot.mbox <<-\EOF &&
	--- a/../../victim
	+++ b/../../victim
	@@ -1 +1 @@
	-a
	+b
	EOF
	test_expect_code 128 stablekit -C q pull -m "$PWD/qdotdot.mbox" 2>err &&
	grep "qdotdot.mbox:11: unsafe path .a/../../victim." err &&
	test_must_be_empty_dir q/series
'

test_done

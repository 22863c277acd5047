#include "project/scaffold.h"
#include "project/branches.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char branches_conf[] =
	"# The branches stablekit tracks, ports to, builds and reports on\n"
	"# (git-config syntax; `stablekit help status` and `stablekit help port`).\n"
	"# Every line below is an example: uncomment and adapt.\n"
	"#\n"
	"# The kernel repository: a linux.git clone (relative to this project,\n"
	"# or absolute) holding mainline and the branches below, e.g. with\n"
	"#   git remote add stable https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git\n"
	"#   git fetch stable\n"
	"# (--repo or $STABLEKIT_REPO override it).  signoff: who signs the\n"
	"# backports (default: git's user.name and user.email).\n"
	"#\n"
	"#[stablekit]\n"
	"#\trepo = ../linux\n"
	"#\tsignoff = Your Name <you@example.org>\n"
	"#\n"
	"# Mainline: where a patch must land first.  ref is a branch or tag of\n"
	"# the repository, base the release tag below which history is not walked.\n"
	"#\n"
	"#[branch \"mainline\"]\n"
	"#\tref = master\n"
	"#\tbase = v6.18\n"
	"#\tkind = mainline\n"
	"#\n"
	"# A stable branch: takes fixes proven upstream (Cc: stable, Fixes:).\n"
	"# version bounds \"Cc: stable # X.Y.x\" (default: from base); one arch\n"
	"# line per architecture it is built for (x86_64, arm64, i386, riscv64).\n"
	"#\n"
	"#[branch \"linux-6.12.y\"]\n"
	"#\tref = stable/linux-6.12.y\n"
	"#\tbase = v6.12\n"
	"#\tkind = stable\n"
	"#\tversion = 6.12\n"
	"#\tarch = x86_64\n"
	"#\tarch = arm64\n"
	"#\n"
	"# A downstream (vendor, production) branch: takes the series you select\n"
	"# by their slug (stablekit series), in a repository of its own if need be.\n"
	"#\n"
	"#[branch \"vendor-6.12\"]\n"
	"#\tref = vendor/6.12\n"
	"#\tbase = v6.12\n"
	"#\tkind = downstream\n"
	"#\tselect = <series slug>\n"
	"#\trepo = ../vendor-kernel\n";

static const char maintainers_head[] =
	"List of maintainers of this stablekit project\n"
	"=============================================\n"
	"\n"
	"The format is the Linux kernel's (Documentation/process/maintainers.rst):\n"
	"\n"
	"\tM: Maintainer: Name <address>\n"
	"\tR: Designated reviewer: Name <address>\n"
	"\tL: Mailing list that is relevant to this area\n"
	"\tS: Status: Supported, Maintained, Odd Fixes, Orphan, Obsolete\n"
	"\tF: Files and directories, with wildcard patterns; a trailing slash\n"
	"\t   covers the directory and everything below it\n"
	"\tX: Files and directories that are NOT maintained, same rules as F:\n"
	"\tN: Files and directories whose names match this regex (extended)\n"
	"\tK: Keyword regex matched against the patch or file content\n"
	"\n"
	"stablekit reads this file to address reports and FAILED mails: a\n"
	"branch's queue is stable/<branch>/, a series is series/<slug>/.  Give\n"
	"each branch its owners, e.g.\n"
	"\n"
	"\tSTABLE BRANCH LINUX-6.12.Y\n"
	"\tM:\tYour Name <you@example.org>\n"
	"\tL:\tstable@vger.kernel.org\n"
	"\tS:\tMaintained\n"
	"\tF:\tstable/linux-6.12.y/\n"
	"\n"
	"Maintainers List\n"
	"----------------\n";

static const char *const entries[] = { "stable", "MAINTAINERS", "series", NULL };

static int write_tree(const char *tmp, const char *who)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	char *path = sk_path_join(tmp, "series");
	int ret = sk_mkdir_p(path, 0755);

	free(path);
	path = sk_path_join(tmp, "stable");
	if (!ret)
		ret = sk_mkdir_p(path, 0755);
	free(path);
	path = sk_path_join(tmp, SK_BRANCHES_CONF);
	if (!ret)
		ret = sk_write_file_atomic(path, branches_conf, strlen(branches_conf));
	free(path);
	sk_strbuf_adds(&sb, maintainers_head);
	if (who)
		sk_strbuf_addf(&sb, "\nTHIS PROJECT\nM:\t%s\nS:\tMaintained\n"
			       "F:\tseries/\nF:\tstable/\n", who);
	path = sk_path_join(tmp, "MAINTAINERS");
	if (!ret)
		ret = sk_write_file_atomic(path, sb.buf, sb.len);
	free(path);
	sk_strbuf_release(&sb);
	return ret;
}

/* Move the entries of from into to, never over anything; undone on failure. */
static int move_in(const char *from, const char *to)
{
	size_t i, j;
	int ret = 0;

	for (i = 0; entries[i]; i++) {
		char *a = sk_path_join(from, entries[i]), *b = sk_path_join(to, entries[i]);

		if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_NOREPLACE))
			ret = errno == EEXIST ?
			      sk_error_set(SK_EEXISTS, "'%s' appeared meanwhile (nothing written)", b) :
			      sk_error_errno(b);
		free(a);
		free(b);
		if (ret)
			break;
	}
	for (j = 0; ret && j < i; j++) {
		char *a = sk_path_join(from, entries[j]), *b = sk_path_join(to, entries[j]);

		if (rename(b, a))
			sk_error_prefix(ret, "and '%s' could not be taken back", b);
		free(a);
		free(b);
	}
	return ret;
}

int sk_scaffold_create(const char *dir, const char *who)
{
	const char *const *e;
	char *tmp = NULL;
	int ret;

	if (sk_path_exists(dir) && !sk_is_dir(dir))
		return sk_error_set(SK_EEXISTS, "'%s' exists and is not a directory", dir);
	/* series/ first: it is what makes a directory a project */
	for (e = entries + 2; e >= entries; e--) {
		char *path = sk_path_join(dir, *e);
		int there = sk_path_exists(path);

		if (there && !strcmp(*e, "series"))
			ret = sk_error_set(SK_EEXISTS, "'%s' exists: %s is a stablekit "
					   "project already (nothing written)", path, dir);
		else if (there)
			ret = sk_error_set(SK_EEXISTS, "'%s' exists: init would overwrite "
					   "it (nothing written)", path);
		free(path);
		if (there)
			return ret;
	}
	ret = sk_mkdir_p(dir, 0755);
	if (!ret)
		ret = sk_mkdtemp_in(&tmp, dir, "init");
	if (!ret)
		ret = write_tree(tmp, who);
	if (!ret)
		ret = move_in(tmp, dir);
	if (tmp && sk_rmrf(tmp) && !ret)
		ret = SK_ERROR;
	free(tmp);
	return ret;
}

# Shared set-up for stablekit's sharness tests: source it first.
#
#   SK_TOP     the stablekit checkout (series/, stable/, semantic-patches/ ...)
#   SK_BUILD   the build directory holding the stablekit binary
#   SK_SEEDS   the embedded seed threads (ci/seeds)
#   SK_WORK    a cache shared by tests that need the real 6.12 tree; the
#              tests' own (work/tests), never the main job's work/, so that
#              `make check` after `make run` neither reuses nor overwrites
#              the main job's results, baselines or kernels
#
# Trash directories go under the build directory, not the source tree.

: "${SK_TOP:=$(cd "$(dirname "$0")/../../.." && pwd)}"
: "${SK_BUILD:=$SK_TOP/build/default}"
SK_SEEDS="$SK_TOP/ci/seeds"
: "${SK_WORK:=$SK_TOP/work/tests}"
export SK_TOP SK_BUILD SK_SEEDS SK_WORK

root="$SK_BUILD/trash"
mkdir -p "$root"
SHARNESS_BUILD_DIRECTORY="$SK_BUILD"
SHARNESS_TEST_SRCDIR="$SK_TOP/tools/stablekit/t"

# Identities and dates fixed, so that the tests' repositories are the same
# every run.
GIT_AUTHOR_NAME="Stable Tester"
GIT_AUTHOR_EMAIL="tester@example.org"
GIT_COMMITTER_NAME="Stable Tester"
GIT_COMMITTER_EMAIL="tester@example.org"
GIT_AUTHOR_DATE="1700000000 +0000"
GIT_COMMITTER_DATE="1700000000 +0000"
GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE GIT_CONFIG_NOSYSTEM

# ccache's directory follows HOME, which sharness moves into the trash
# directory: keep the user's, so kernel builds stay warm between runs (and
# between CI's plain and sanitizer passes).
if test -z "$CCACHE_DIR" && command -v ccache >/dev/null 2>&1; then
	CCACHE_DIR=$(ccache -k cache_dir) && export CCACHE_DIR
fi

. /usr/share/sharness/sharness.sh

# A make that runs the tests (make -j2 check) passes its jobserver down as
# descriptors 3 and 4, which are the test log here: a make the tests run
# would read its job tokens from the log and stop ("read jobs pipe: Bad
# file descriptor").  The makes of the tests are their own.
unset MAKEFLAGS MFLAGS MAKELEVEL

# Without -v, what the tests print is kept in $SK_BUILD/test-logs/<test>.log
# and not thrown away: CI shows the lines before each failure at the end
# of the run (ci/test-failures), so a failure in a clean checkout can be
# read without running it again.
if test "$verbose" != t; then
	mkdir -p "$SK_BUILD/test-logs" &&
	exec 3>"$SK_BUILD/test-logs/$this_test.log" 4>&3
	# sharness's own, with the mark ci/test-failures looks for
	test_failure_() {
		echo "### not ok $test_count - $1" >&3
		test_failure=$(($test_failure + 1))
		say_color error "not ok $test_count - $1"
		shift
		echo "$@" | sed -e 's/^/#	/'
		test "$immediate" = "" || { EXIT_OK=t; exit 1; }
	}
fi

git config --global init.defaultBranch master
git config --global user.name "$GIT_AUTHOR_NAME"
git config --global user.email "$GIT_AUTHOR_EMAIL"

# A fresh stablekit project to run commands in: series/ and stable/.
sk_new_project() {
	mkdir -p "$1/series" "$1/stable" &&
	cp "$SK_TOP/MAINTAINERS" "$1/MAINTAINERS"
}

# sk_workspace: the embedded workspace of real trees ($SK_WORK/linux:
# linux-6.12.y, linux-7.1.y, linux-7.2.y, linux-7.3.y, see ci/trees.conf)
# in WS, built when missing (make check builds it before the tests) and
# completed when it lacks a tree.
sk_workspace() {
	WS="$SK_WORK/linux" &&
	stablekit -C "$SK_TOP" workspace init >/dev/null
}

# sk_kernel_project DIR: a project that builds the workspace's trees
# ($SK_WORK/linux, initialised once) with the repository's branches,
# kconfig fragments and warning allow-list.
sk_kernel_project() {
	sk_workspace &&
	sk_new_project "$1" &&
	cp "$SK_TOP/stable/branches.conf" "$1/stable/" &&
	mkdir -p "$1/ci" && cp -r "$SK_TOP/ci/kconfig" "$1/ci/" &&
	cp "$SK_TOP/ci/build-allowlist" "$1/ci/"
}

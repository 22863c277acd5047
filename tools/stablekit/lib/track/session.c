#include "track/session.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "track/index.h"
#include "project/repo.h"

#include <stdlib.h>
#include <string.h>

int sk_session_open(struct sk_session *s, const char *top,
		    const char *repo_option, const char *only_series)
{
	struct sk_repo_choice choice = { 0 };
	struct sk_track_opts to = { 0 };
	struct sk_index *idx = NULL;
	char *conf = sk_path_join(top, SK_BRANCHES_CONF);
	int ret;

	memset(s, 0, sizeof(*s));
	ret = sk_branches_load(&s->branches, conf);
	free(conf);
	if (ret)
		return ret;
	choice.option = repo_option;
	choice.config = s->branches.repo;
	choice.top = top;
	ret = sk_repo_locate(&s->repo_path, &s->repo_how, &choice);
	if (!ret && sk_repo_open(&s->repo, s->repo_path))
		ret = sk_error_set(SK_ENOTFOUND, "no kernel repository at '%s' (from %s)%s",
				   s->repo_path, s->repo_how,
				   !strcmp(s->repo_how, "workspace") ?
				   ": run 'stablekit workspace init' or pass --repo" : "");
	if (ret)
		return ret;
	s->index_path = sk_repo_index_path(s->repo);
	ret = sk_index_open(&idx, s->index_path);
	if (ret)
		return ret;
	to.top = top;
	to.repo = s->repo;
	to.idx = idx;
	to.branches = &s->branches;
	to.only_series = only_series;
	to.workspace = !strcmp(s->repo_how, "workspace");
	ret = sk_track_run(&s->track, &to);
	sk_index_close(idx);
	return ret;
}

void sk_session_close(struct sk_session *s)
{
	sk_track_free(s->track);
	git_repository_free(s->repo);
	sk_branches_release(&s->branches);
	free(s->index_path);
	free(s->repo_path);
	memset(s, 0, sizeof(*s));
}

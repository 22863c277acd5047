#include "gate/gate-config.h"
#include "core/arch.h"
#include "core/error.h"
#include "core/gitconfig.h"
#include "core/strbuf.h"
#include "gate/bench.h"

#include <git2.h>
#include <math.h>
#include <string.h>

static const char *known_arch(const char *name)
{
	const struct sk_arch *a = sk_arch_find(name);

	return a && a->qemu_binary ? a->name : NULL;
}

static int add_arch(struct sk_gate_arches *out, const char *name)
{
	size_t i;

	for (i = 0; i < out->nr; i++)
		if (!strcmp(out->v[i], name))
			return 0;
	out->v[out->nr++] = name;	/* every known arch fits */
	return 0;
}

struct arch_read {
	struct sk_gate_arches *out;
	const char *path, *key;
	int err;
};

static int read_arch(const git_config_entry *e, void *data)
{
	struct arch_read *r = data;
	const char *a = known_arch(e->value ? e->value : "");

	if (!a) {
		r->err = sk_error_set(SK_EINVALID, "%s: %s: unknown arch '%s' "
				      "(x86_64, arm64, i386)", r->path, r->key,
				      e->value ? e->value : "");
		return 1;
	}
	return add_arch(r->out, a);
}

static int read_arches(struct sk_gate_arches *out, git_config *cfg,
		       const char *path, const char *key)
{
	struct arch_read r = { out, path, key, 0 };
	int err = git_config_get_multivar_foreach(cfg, key, NULL, read_arch, &r);

	if (r.err)
		return r.err;
	if (err == GIT_ENOTFOUND)
		return 0;
	return err < 0 ? sk_error_git(SK_EINVALID, path) : 0;
}

int sk_gate_config_arches(struct sk_gate_arches *out, const char *path,
		   const char *branch)
{
	git_config *cfg = NULL;
	char *key = NULL;
	int err = 0;

	out->nr = 0;
	if (path && sk_gitconfig_check(path))
		return SK_EINVALID;
	if (path && git_config_open_ondisk(&cfg, path) < 0)
		return sk_error_git(SK_EINVALID, path);
	if (cfg)
		err = read_arches(out, cfg, path, "gate.arch");
	if (!err && !out->nr) {
		add_arch(out, "x86_64");
		add_arch(out, "arm64");
	}
	if (!err && cfg && branch) {
		key = sk_xstrfmt("gate.%s.arch", branch);
		err = read_arches(out, cfg, path, key);
	}
	free(key);
	git_config_free(cfg);
	return err;
}

/* key's last value, when set: 1 and *kind, 0 unset, negative bad. */
static int read_bench(enum sk_bench_kind *kind, git_config *cfg,
		      const char *path, const char *key)
{
	git_buf buf = { 0 };
	int k;

	if (git_config_get_string_buf(&buf, cfg, key) < 0) {
		git_error_clear();
		return 0;
	}
	k = sk_bench_kind_parse(buf.ptr);
	if (k < 0) {
		k = sk_error_set(SK_EINVALID, "%s: %s: unknown benchmark '%s' "
				 "(lrulock, shadow)", path, key, buf.ptr);
		git_buf_dispose(&buf);
		return k;
	}
	*kind = (enum sk_bench_kind)k;
	git_buf_dispose(&buf);
	return 1;
}

int sk_gate_config_bench(enum sk_bench_kind *out, const char *path,
			 const char *branch)
{
	git_config *cfg = NULL;
	char *key = branch ? sk_xstrfmt("gate.%s.bench", branch) : NULL;
	int err = 0;

	*out = SK_BENCH_LRULOCK;
	if (path && sk_gitconfig_check(path))
		return SK_EINVALID;
	if (path && sk_gitconfig_check(path)) {
		free(key);
		return SK_EINVALID;
	}
	if (path && git_config_open_ondisk(&cfg, path) < 0) {
		free(key);
		return sk_error_git(SK_EINVALID, path);
	}
	if (cfg && key)
		err = read_bench(out, cfg, path, key);
	if (cfg && !err)
		err = read_bench(out, cfg, path, "gate.bench");
	free(key);
	git_config_free(cfg);
	return err < 0 ? err : 0;
}

/*
 * A threshold read as a number in [min, max] (max may be INFINITY: "inf"
 * measures without gating); anything else, NaN included, is an error
 * naming the file and key, so that no verdict is weighed against it.
 */
static int conf_double(double *out, git_config *cfg, const char *path,
		       const char *key, double min, double max)
{
	git_buf buf = { 0 };
	char *end = NULL;
	double v;
	int ret = 0;

	if (git_config_get_string_buf(&buf, cfg, key))
		goto out;
	v = strtod(buf.ptr, &end);
	if (end == buf.ptr || *end || isnan(v) || v < min || v > max)
		ret = sk_error_set(SK_EINVALID, "%s: %s: '%s' is not a number "
				   "from %g to %g", path, key, buf.ptr, min, max);
	else
		*out = v;
out:
	git_buf_dispose(&buf);
	git_error_clear();
	return ret;
}

int sk_gate_config(struct sk_gate_thresholds *t, char **env, const char *path)
{
	static const struct {
		const char *key, *var, *dflt;
	} keys[] = {
		{ "bench.runs", "RUNS", "5" },
		{ "bench.workers", "WORKERS", "1" },
		{ "bench.size", "SIZE", "256M" },
		{ "bench.touches", "TOUCHES", "200000" },
		{ "bench.seed", "SEED", "42" },
		{ "bench.memoryMax", "MEMCG_MAX", "64M" },
		{ "bench.swap", "SWAP", "1G" },
		{ "bench.hot", "HOT", "8M" },
		{ "bench.cold", "COLD", "128M" },
		{ "bench.rounds", "ROUNDS", "2" },
		{ "bench.churnSize", "CHURN_SIZE", "4M" },
		{ "bench.churnTouches", "CHURN_TOUCHES", "60000" },
	};
	struct sk_strbuf sb = SK_STRBUF_INIT;
	git_config *cfg = NULL;
	size_t i;
	int ret = 0;

	t->lock_ratio_pct = 5;
	t->throughput_pct = 10;
	t->alpha = 0.05;
	t->min_runs = 3;
	t->shadow_kept_pct = 10;
	t->fastpath_pct = 10;
	t->kind = SK_BENCH_LRULOCK;
	if (path && sk_gitconfig_check(path))
		return SK_EINVALID;
	if (path && git_config_open_ondisk(&cfg, path) < 0)
		return sk_error_git(SK_EINVALID, path);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		git_buf buf = { 0 };
		const char *v = keys[i].dflt;

		if (cfg && !git_config_get_string_buf(&buf, cfg, keys[i].key))
			v = buf.ptr;
		/* values go into a shell file: keep them to [A-Za-z0-9.] */
		sk_strbuf_addf(&sb, "%s=%s\n", keys[i].var,
			       strspn(v, "0123456789.KMGkmg") == strlen(v) ?
			       v : keys[i].dflt);
		git_buf_dispose(&buf);
	}
	if (cfg) {
		double runs = t->min_runs;

		ret = conf_double(&t->lock_ratio_pct, cfg, path,
				  "threshold.lruLockPer1000Scanned", 0, INFINITY);
		if (!ret)
			ret = conf_double(&t->throughput_pct, cfg, path,
					  "threshold.throughput", 0, INFINITY);
		if (!ret)
			ret = conf_double(&t->shadow_kept_pct, cfg, path,
					  "threshold.shadowKept", 0, INFINITY);
		if (!ret)
			ret = conf_double(&t->fastpath_pct, cfg, path,
					  "threshold.statFastPath", 0, INFINITY);
		if (!ret)
			ret = conf_double(&t->alpha, cfg, path, "threshold.alpha",
					  1e-9, 1);
		if (!ret)
			ret = conf_double(&runs, cfg, path, "threshold.minRuns",
					  1, 1000);
		t->min_runs = (int)runs;
		git_config_free(cfg);
	}
	if (ret) {
		sk_strbuf_release(&sb);
		*env = NULL;
		return ret;
	}
	*env = sk_strbuf_detach(&sb);
	return 0;
}

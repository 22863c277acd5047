#include "port/cocci.h"
#include "port/apply.h"
#include "core/diff.h"
#include "core/error.h"
#include "core/gitconfig.h"
#include "core/fsutil.h"
#include "mail/patch.h"
#include "project/repo.h"
#include "core/run.h"
#include "core/strvec.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MANIFEST "manifest.conf"

int sk_cocci_open(struct sk_cocci *c, const char *top, const char *slug)
{
	char *sp = sk_path_join(top, "semantic-patches"), *m;

	memset(c, 0, sizeof(*c));
	sk_strbuf_init(&c->log);
	c->dir = sk_path_join(sp, slug);
	free(sp);
	m = sk_path_join(c->dir, MANIFEST);
	if (!sk_path_exists(m)) {
		free(m);
		return sk_error_set(SK_ENOTFOUND, "no semantic patches for '%s' (%s/%s)",
				    slug, c->dir, MANIFEST);
	}
	free(m);
	return 0;
}

void sk_cocci_release(struct sk_cocci *c)
{
	free(c->dir);
	free(c->target);
	free(c->closest);
	sk_strbuf_release(&c->log);
	memset(c, 0, sizeof(*c));
}

static int open_manifest(git_config **cfg, const struct sk_cocci *c)
{
	char *m = sk_path_join(c->dir, MANIFEST);
	int ret = 0;

	ret = sk_gitconfig_check(m);
	if (!ret && git_config_open_ondisk(cfg, m))
		ret = sk_error_git(SK_EINVALID, m);
	free(m);
	return ret;
}

static int read_blob(struct sk_strbuf *out, git_repository *repo,
		     const git_oid *tree_id, const char *path)
{
	git_tree *tree = NULL;
	git_tree_entry *e = NULL;
	git_blob *blob = NULL;
	int ret = SK_ENOTFOUND;

	if (!git_tree_lookup(&tree, repo, tree_id) &&
	    !git_tree_entry_bypath(&e, tree, path) &&
	    !git_blob_lookup(&blob, repo, git_tree_entry_id(e))) {
		sk_strbuf_add(out, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
		ret = 0;
	}
	git_blob_free(blob);
	git_tree_entry_free(e);
	git_tree_free(tree);
	return ret;
}

/* 1 holds, 0 does not, negative on error. */
static int probe(git_config *cfg, const char *name, git_repository *repo,
		 const git_oid *tree)
{
	char *file = sk_config_strf(cfg, "probe.%s.file", name);
	char *fixed = sk_config_strf(cfg, "probe.%s.grep", name);
	char *re = sk_config_strf(cfg, "probe.%s.regex", name);
	struct sk_strbuf text = SK_STRBUF_INIT;
	int ret;

	if (!file || (!fixed && !re)) {
		ret = sk_error_set(SK_EINVALID, "probe '%s' needs file and grep or regex", name);
		goto out;
	}
	ret = read_blob(&text, repo, tree, file);
	if (ret == SK_ENOTFOUND) {
		ret = 0;	/* a file the tree lacks holds nothing */
		goto out;
	}
	if (fixed) {
		ret = strstr(text.buf, fixed) != NULL;
	} else {
		regex_t rx;

		if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB | REG_NEWLINE)) {
			ret = sk_error_set(SK_EINVALID, "probe '%s': bad regex '%s'", name, re);
			goto out;
		}
		ret = !regexec(&rx, text.buf, 0, NULL, 0);
		regfree(&rx);
	}
out:
	sk_strbuf_release(&text);
	free(file);
	free(fixed);
	free(re);
	return ret;
}

/*
 * How many terms of a target's "when" fail on the tree (0: it matches);
 * the failing ones go to differs as "NAME (absent)" or "NAME (present)".
 * SK_EINVALID for a target with no positive probe: a target names what
 * the tree must have, not only what it lacks.
 */
static int target_misses(git_config *cfg, const char *target, const char *when,
			 git_repository *repo, const git_oid *tree,
			 struct sk_strbuf *differs)
{
	char *terms = sk_xstrdup(when), *save = NULL, *t;
	int misses = 0, positive = 0;

	for (t = strtok_r(terms, " \t", &save); t && misses >= 0;
	     t = strtok_r(NULL, " \t", &save)) {
		int neg = *t == '!';
		int r = probe(cfg, t + neg, repo, tree);

		positive |= !neg;
		if (r < 0) {
			misses = r;
		} else if (neg ? r : !r) {
			misses++;
			sk_strbuf_addf(differs, "%s%s (%s)", differs->len ? ", " : "",
				       t + neg, neg ? "present" : "absent");
		}
	}
	free(terms);
	if (misses >= 0 && !positive)
		misses = sk_error_set(SK_EINVALID, "target '%s' has no probe that must hold "
				      "(a target names what the tree must have)", target);
	return misses;
}

int sk_cocci_pick_target(struct sk_cocci *c, git_repository *repo,
			 const git_oid *tree)
{
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	struct sk_strbuf differs = SK_STRBUF_INIT;
	int ret = open_manifest(&cfg, c), best = -1;

	free(c->closest);
	c->closest = NULL;
	/* not git_config_iterator_glob_new(): libgit2 1.5 leaks its regex match data */
	if (!ret && git_config_iterator_new(&it, cfg))
		ret = sk_error_git(SK_ERROR, "manifest");
	while (!ret && !git_config_next(&e, it)) {
		const char *name = e->name + 7;
		size_t nlen = strlen(e->name), len = nlen > 12 ? nlen - 12 : 0;
		char *target;
		int misses;

		if (strncmp(e->name, "target.", 7) || nlen <= 12 ||
		    strcmp(e->name + nlen - 5, ".when"))
			continue;
		target = sk_xstrndup(name, len);
		sk_strbuf_reset(&differs);
		misses = target_misses(cfg, target, e->value, repo, tree, &differs);
		if (misses < 0) {
			ret = misses;
		} else if (!misses && c->target) {
			ret = sk_error_set(SK_EINVALID, "targets '%s' and '%s' both match",
					   c->target, target);
		} else if (!misses) {
			c->target = target;
			target = NULL;
		} else if (best < 0 || misses < best) {
			best = misses;
			free(c->closest);
			c->closest = sk_xstrfmt("closest: %s, differs in: %s", target,
						differs.buf);
		}
		free(target);
	}
	if (!ret && !c->target)
		ret = sk_error_set(SK_ENOTFOUND, "no rules for this tree (%s)",
				   c->closest ? c->closest : "the manifest has no target");
	git_config_iterator_free(it);
	git_config_free(cfg);
	sk_strbuf_release(&differs);
	return ret;
}

static void push(char ***arr, size_t *nr, char *v)
{
	*arr = sk_xrealloc(*arr, (*nr + 1) * sizeof(**arr));
	(*arr)[(*nr)++] = v;
}

static int collect(git_config *cfg, const char *key, char ***arr, size_t *nr,
		   const char *dir, const char *suffix)
{
	git_config_iterator *it = NULL;
	git_config_entry *e;

	if (git_config_multivar_iterator_new(&it, cfg, key, NULL))
		return 0;	/* none */
	while (!git_config_next(&e, it)) {
		char *rel = sk_xstrfmt("%s%s", e->value, suffix);

		push(arr, nr, dir ? sk_path_join(dir, rel) : sk_xstrdup(rel));
		free(rel);
	}
	git_config_iterator_free(it);
	return 0;
}

int sk_cocci_port_spec(struct sk_cocci_port *out, const struct sk_cocci *c,
		       const char *patch_key)
{
	git_config *cfg = NULL;
	char *base;
	int ret = open_manifest(&cfg, c);

	memset(out, 0, sizeof(*out));
	if (ret)
		return ret;
	base = sk_xstrfmt("port.%s:%s.", c->target, patch_key);
	{
		char *k1 = sk_xstrfmt("%sdrop", base), *k2 = sk_xstrfmt("%srule", base);
		char *k3 = sk_xstrfmt("%shunks", base);

		collect(cfg, k1, &out->drops, &out->nr_drops, NULL, "");
		collect(cfg, k2, &out->rules, &out->nr_rules, c->dir, ".cocci");
		collect(cfg, k3, &out->hunks, &out->nr_hunks, c->dir, "");
		free(k1);
		free(k2);
		free(k3);
	}
	free(base);
	git_config_free(cfg);
	return 0;
}

void sk_cocci_port_release(struct sk_cocci_port *p)
{
	sk_strvec_free_array(p->drops, p->nr_drops);
	sk_strvec_free_array(p->rules, p->nr_rules);
	sk_strvec_free_array(p->hunks, p->nr_hunks);
	memset(p, 0, sizeof(*p));
}

/* The file a rule works on: its first "// Target: PATH" line. */
static int rule_target(char **out, const char *rule)
{
	struct sk_strbuf text = SK_STRBUF_INIT;
	const char *t;
	int ret = sk_read_file(&text, rule);

	*out = NULL;
	if (!ret) {
		t = strstr(text.buf, "// Target:");
		if (!t)
			ret = sk_error_set(SK_EINVALID, "%s: no '// Target: PATH' line", rule);
		else {
			t += 10;
			while (*t == ' ')
				t++;
			*out = sk_xstrndup(t, strcspn(t, " \t\n"));
		}
	}
	sk_strbuf_release(&text);
	return ret;
}

int sk_cocci_port_files(char ***out, size_t *nr, const struct sk_cocci_port *p)
{
	size_t i;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	for (i = 0; !ret && i < p->nr_rules; i++) {
		char *t;

		ret = rule_target(&t, p->rules[i]);
		if (!ret)
			push(out, nr, t);
	}
	return ret;
}

static int dropped(char *const *drops, size_t nr, const char *path, size_t k)
{
	char *key = sk_xstrfmt("%s:%zu", path, k);
	size_t i;
	int found = 0;

	for (i = 0; !found && i < nr; i++)
		found = !strcmp(drops[i], key);
	free(key);
	return found;
}

/* One file's header and the hunks kept; nothing when all are dropped. */
static void keep_file(struct sk_strbuf *out, const char *diff,
		      const struct sk_diff_file *f, char *const *drops,
		      size_t nr)
{
	const char *path = f->new_path ? f->new_path : "/dev/null";
	size_t k, kept = 0;
	struct sk_strbuf hunks = SK_STRBUF_INIT;

	for (k = 0; k < f->nr_hunks; k++) {
		const struct sk_diff_hunk *h = &f->hunks[k];

		if (dropped(drops, nr, path, k + 1))
			continue;
		sk_strbuf_add(&hunks, diff + h->begin, h->end - h->begin);
		kept++;
	}
	if (!f->nr_hunks || kept) {
		size_t hdr_end = f->nr_hunks ? f->hunks[0].begin : f->end;

		sk_strbuf_add(out, diff + f->begin, hdr_end - f->begin);
		sk_strbuf_add(out, hunks.buf, hunks.len);
	}
	sk_strbuf_release(&hunks);
}

int sk_cocci_drop_hunks(struct sk_strbuf *out, const char *diff,
		       char *const *drops, size_t nr)
{
	struct sk_diff d;
	size_t i;
	int ret = sk_diff_parse(&d, diff, strlen(diff), "the diff", 1, 0);

	if (ret)
		return ret;
	for (i = 0; i < d.nr; i++)
		keep_file(out, diff, &d.files[i], drops, nr);
	sk_diff_release(&d);
	return 0;
}

/*
 * Run one rule on the sandbox.  spatch exits 0 when nothing matches, so a
 * rule that leaves its file as it was is a failure here: the tree lacks
 * the code the rule rewrites, and the port would silently miss its part
 * (rules are guarded only against a second run, which a port never does).
 */
static int run_spatch(struct sk_cocci *c, struct sk_sandbox *sb,
		      const char *rule, unsigned int timeout_ms)
{
	char *target = NULL, *path = NULL;
	struct sk_strbuf before = SK_STRBUF_INIT, after = SK_STRBUF_INIT;
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	int ret = rule_target(&target, rule);

	if (!ret)
		ret = sk_sandbox_checkout(sb, &target, 1);
	if (!ret) {
		path = sk_path_join(sb->dir, target);
		ret = sk_read_file(&before, path);
	}
	if (!ret) {
		const char *argv[] = { "spatch", "--very-quiet", "--no-show-diff",
				       "--in-place", "--sp-file", rule, target, NULL };

		ro.argv = argv;
		ro.cwd = sb->dir;
		ro.timeout_ms = timeout_ms;
		ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_MERGE_ERR;
		ret = sk_run(&res, &ro);
		c->spatch_seconds += res.seconds;
	}
	if (!ret && res.exit_code)
		ret = sk_error_set(SK_ECONFLICT, "spatch rule '%s' failed on '%s' (exit %d): %s",
				   rule, target, res.exit_code, res.out.buf);
	if (!ret)
		ret = sk_read_file(&after, path);
	if (!ret && before.len == after.len &&
	    (!before.len || !memcmp(before.buf, after.buf, before.len)))
		ret = sk_error_set(SK_ECONFLICT, "spatch rule '%s' changed nothing in '%s'",
				   rule, target);
	if (!ret)
		sk_strbuf_addf(&c->log, "%s on %s\n", rule, target);
	sk_strbuf_release(&before);
	sk_strbuf_release(&after);
	sk_run_result_release(&res);
	free(path);
	free(target);
	return ret;
}

/* "mm/vmscan.c hunk 3 (static void prepare_scan_control(...)), ..." */
static void failed_hunks(struct sk_strbuf *out, const struct sk_apply_report *rep,
			 size_t from)
{
	size_t i;

	for (i = from; i < rep->nr; i++) {
		const struct sk_hunk_report *h = &rep->hunks[i];

		if (h->applied)
			continue;
		sk_strbuf_addf(out, "%s%s hunk %d", out->len ? ", " : "", h->path, h->nr);
		if (h->absent)
			sk_strbuf_adds(out, " (the file is absent)");
		else if (h->funcname)
			sk_strbuf_addf(out, " (%s)", h->funcname);
	}
}

static int apply_file(struct sk_sandbox *sb, const char *text, const char *what,
		      struct sk_apply_report *out, unsigned int flags)
{
	struct sk_apply_report own = { 0 }, *rep = out ? out : &own;
	size_t from = rep->nr;
	struct sk_diff d;
	char **files = NULL;
	size_t nr = 0, alloc = 0;
	int ret = sk_diff_parse(&d, text, strlen(text), what, 1, 0);

	if (ret)
		return ret;
	sk_diff_paths(&files, &nr, &alloc, &d, SK_DIFF_PATHS_OLD);
	ret = sk_sandbox_checkout(sb, files, nr);
	if (!ret)
		ret = sk_apply_diff(rep, sb->dir, &d, flags);
	if (ret == SK_ECONFLICT) {
		struct sk_strbuf which = SK_STRBUF_INIT;

		failed_hunks(&which, rep, from);
		ret = sk_error_set(SK_ECONFLICT, "%s do%s not apply (%s): %s", what,
				   flags & SK_APPLY_FUZZ ? "" : "es",
				   flags & SK_APPLY_FUZZ ? "offset and fuzz 1 allowed" :
				   "no fuzz allowed", which.buf);
		sk_strbuf_release(&which);
	}
	sk_strvec_free_array(files, nr);
	sk_diff_release(&d);
	sk_apply_report_release(&own);
	return ret;
}

int sk_cocci_port_patch(struct sk_cocci *c, struct sk_sandbox *sb,
			const struct sk_cocci_port *spec, const char *diff,
			struct sk_apply_report *rep, unsigned int timeout_ms)
{
	struct sk_strbuf kept = SK_STRBUF_INIT, text = SK_STRBUF_INIT;
	size_t i;
	int ret = 0;

	ret = sk_cocci_drop_hunks(&kept, diff, spec->drops, spec->nr_drops);
	if (!ret && kept.len)
		ret = apply_file(sb, kept.buf, "the seed hunks the rules leave", rep,
				 SK_APPLY_FUZZ);
	for (i = 0; !ret && i < spec->nr_rules; i++)
		ret = run_spatch(c, sb, spec->rules[i], timeout_ms);
	for (i = 0; !ret && i < spec->nr_hunks; i++) {
		sk_strbuf_reset(&text);
		ret = sk_read_file(&text, spec->hunks[i]);
		if (!ret)
			ret = apply_file(sb, text.buf, spec->hunks[i], NULL, 0);
	}
	sk_strbuf_release(&kept);
	sk_strbuf_release(&text);
	return ret;
}

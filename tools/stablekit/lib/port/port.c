#include "port/port.h"
#include "port/port-internal.h"
#include "port/apply.h"
#include "port/cocci.h"
#include "core/diff.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/names.h"
#include "build/build.h"
#include "mail/mbox.h"
#include "mail/patch.h"
#include "port/quilt.h"
#include "core/results.h"
#include "core/sandbox.h"
#include "mail/series.h"
#include "core/strvec.h"
#include "core/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const method_names[] = {
	[SK_PORT_CLEAN] = "clean",
	[SK_PORT_OFFSET] = "offset",
	[SK_PORT_FUZZ] = "fuzz",
	[SK_PORT_THREEWAY] = "three-way",
	[SK_PORT_RULES] = "semantic-patches",
	[SK_PORT_FAILED] = "FAILED",
	[SK_PORT_SKIPPED] = "skipped",
	[SK_PORT_BLOCKED] = "blocked",
};

const char *sk_port_method_name(enum sk_port_method m)
{
	return method_names[m];
}

/*
 * A block of the series file: "# <slug>" then its patches.  The other
 * series' lines are kept as they are; their entries are checked as build
 * checks them (sk_name_series_line): they are read, applied and copied.
 */
static int read_queue(struct port *p)
{
	char *series = sk_path_join(p->queue_dir, "series");
	struct sk_strbuf text = SK_STRBUF_INIT;
	const char *s;
	unsigned long lineno = 1;
	int ours = 0, ret = sk_read_file(&text, series);

	if (ret == SK_ENOTFOUND)
		ret = 0;
	for (s = text.buf; !ret && *s; lineno++) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		char *entry = NULL;

		if (*s == '#' && len > 2)
			ours = len - 2 == strlen(p->o->slug) &&
			       !strncmp(s + 2, p->o->slug, len - 2);
		if (!ours)
			ret = sk_name_series_line(&entry, s, len, series, lineno);
		if (!ret && !ours) {
			sk_strbuf_add(&p->other, s, len);
			sk_strbuf_addch(&p->other, '\n');
		}
		if (entry)
			*SK_ARRAY_PUSH(p->other_files, p->nr_other,
				       p->alloc_other) = entry;
		s += len + (nl ? 1 : 0);
	}
	if (ret)
		sk_error_prefix(ret, "queue of '%s'", p->tb->br->name);
	free(series);
	sk_strbuf_release(&text);
	return ret;
}

static int files_of(char ***out, size_t *nr, const char *diff, const char *what)
{
	*out = NULL;
	*nr = 0;
	return sk_patch_diff_check(diff, what, 1, out, nr);
}

/* The queue's patches of other series come first, as quilt will push them. */
static int apply_other(struct port *p)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < p->nr_other; i++) {
		struct sk_strbuf text = SK_STRBUF_INIT;
		struct sk_apply_report rep = { 0 };
		char *path = sk_path_join(p->queue_dir, p->other_files[i]);
		char **files;
		size_t nr;

		ret = sk_read_file(&text, path);
		if (!ret)
			ret = files_of(&files, &nr, text.buf, path);
		if (!ret) {
			ret = sk_sandbox_checkout(&p->sb, files, nr);
			sk_strvec_free_array(files, nr);
		}
		if (!ret)
			ret = sk_apply_dir(&rep, p->sb.dir, text.buf, 0);
		if (ret == SK_ECONFLICT)
			ret = sk_error_set(SK_ECONFLICT,
					   "'%s', already queued, no longer applies", path);
		sk_apply_report_release(&rep);
		sk_strbuf_release(&text);
		free(path);
	}
	return ret ? ret : sk_sandbox_snapshot(&p->sb);
}

static int load_diffs(struct port *p, struct work *w)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;
	int ret;

	w->nr = 1 + w->sp->nr_fixlets;
	w->diffs = sk_xcalloc(w->nr, sizeof(char *));
	w->keys = sk_xcalloc(w->nr, sizeof(char *));
	w->reps = sk_xcalloc(w->nr, sizeof(*w->reps));
	w->rule_reps = sk_xcalloc(w->nr, sizeof(*w->rule_reps));
	ret = sk_series_patch_diff(&sb, p->series, p->rev, w->sp->nr);
	w->diffs[0] = sk_strbuf_detach(&sb);
	w->keys[0] = sk_xstrfmt("%d", w->sp->nr);
	for (i = 0; !ret && i < w->sp->nr_fixlets; i++) {
		ret = sk_series_fixlet_diff(&sb, p->series, p->rev, w->sp->nr,
					    w->sp->fixlets[i].nr);
		w->diffs[i + 1] = sk_strbuf_detach(&sb);
		w->keys[i + 1] = sk_xstrfmt("%d.fixlet%d", w->sp->nr, w->sp->fixlets[i].nr);
	}
	for (i = 0; !ret && i < w->nr; i++) {
		char **files;
		size_t nr;

		ret = files_of(&files, &nr, w->diffs[i], w->keys[i]);
		if (!ret)
			ret = sk_sandbox_checkout(&p->sb, files, nr);
		sk_strvec_free_array(files, nr);
	}
	return ret;
}

static struct sk_port_hunk *add_hunk(struct work *w, const char *key,
				     const char *path, int nr, const char *method,
				     const char *function)
{
	struct sk_port_item *it = w->item;
	struct sk_port_hunk *h = SK_ARRAY_PUSH(it->hunks, it->nr_hunks, it->alloc_hunks);

	memset(h, 0, sizeof(*h));
	h->patch = sk_xstrdup(key);
	h->path = sk_xstrdup(path);
	h->nr = nr;
	h->method = method;
	if (function) {
		size_t n = strlen(function);

		while (n && (function[n - 1] == ' ' || function[n - 1] == '\t'))
			n--;
		while (n && (*function == ' ' || *function == '\t')) {
			function++;
			n--;
		}
		h->function = n ? sk_xstrndup(function, n) : NULL;
	}
	return h;
}

static void clear_hunks(struct sk_port_item *it)
{
	size_t i;

	for (i = 0; i < it->nr_hunks; i++) {
		free(it->hunks[i].patch);
		free(it->hunks[i].path);
		free(it->hunks[i].rule);
		free(it->hunks[i].function);
		free(it->hunks[i].reason);
		free(it->hunks[i].placed);
		free(it->hunks[i].scope);
	}
	free(it->hunks);
	it->hunks = NULL;
	it->nr_hunks = it->alloc_hunks = 0;
}

/* Every hunk of diff i, carried as it is by method. */
static void hunks_from_diff(struct work *w, size_t i, const char *method)
{
	struct sk_diff d;
	size_t f, k;

	if (sk_diff_parse(&d, w->diffs[i], strlen(w->diffs[i]), w->keys[i], 1, 0)) {
		sk_error_clear();
		return;
	}
	for (f = 0; f < d.nr; f++) {
		const struct sk_diff_file *df = &d.files[f];
		const char *path = df->new_path ? df->new_path : df->old_path;

		for (k = 0; k < df->nr_hunks; k++)
			add_hunk(w, w->keys[i], path, (int)k + 1, method,
				 df->hunks[k].funcname)->placed = sk_xstrdup(
				!strcmp(method, "clean") ?
				"clean: its context at the line its header gives (libgit2)" :
				"three-way merge of the upstream commit (libgit2)");
	}
	sk_diff_release(&d);
}

static void hunk_from_report(struct work *w, const char *key,
			     const struct sk_hunk_report *r)
{
	/* from the line the @@ header gives, as patch(1) counts it */
	long off = r->applied ? r->got_line - r->header_line : 0;
	struct sk_port_hunk *h = add_hunk(w, key, r->path, r->nr,
		!r->applied ? "failed" : r->fuzz ? "fuzz" : off ? "offset" : "clean",
		r->funcname);

	h->offset = off;
	h->fuzz = r->fuzz;
	h->placed = r->placed ? sk_xstrdup(r->placed) : NULL;
	h->scope = r->scope ? sk_xstrdup(r->scope) : NULL;
	if (r->absent)
		h->reason = sk_xstrfmt("%s does not exist in this tree", r->path);
	else if (r->ambiguous)
		h->reason = sk_xstrfmt("%zu places where upstream has it match its context "
				       "as well (fuzz allowed): refused, not guessed", r->ambiguous);
	else if (!r->applied)
		h->reason = sk_xstrdup("its context (fuzz up to 3 allowed) is not in the tree "
				       "where upstream has the change");
}

static void hunks_from_report(struct work *w, const char *key,
			      const struct sk_apply_report *rep)
{
	size_t i;

	for (i = 0; i < rep->nr; i++)
		hunk_from_report(w, key, &rep->hunks[i]);
}

/* The rules of a spec whose "// Target:" is path, as "6.12/x, 6.12/y". */
static char *rules_for(const struct sk_cocci_port *spec, const char *dir,
		       const char *path)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i, dl = strlen(dir);

	for (i = 0; i < spec->nr_rules; i++) {
		char **files;
		size_t nr;
		const char *r = spec->rules[i] + dl + 1;

		if (sk_cocci_port_files(&files, &nr, &(struct sk_cocci_port){
				.rules = &spec->rules[i], .nr_rules = 1 })) {
			sk_error_clear();
			continue;
		}
		if (nr && !strcmp(files[0], path))
			sk_strbuf_addf(&sb, "%s%.*s", sb.len ? ", " : "",
				       (int)(strlen(r) - 6), r);
		sk_strvec_free_array(files, nr);
	}
	for (i = 0; i < spec->nr_hunks; i++) {
		struct sk_strbuf text = SK_STRBUF_INIT;
		char *needle = sk_xstrfmt("+++ b/%s\n", path);

		if (!sk_read_file(&text, spec->hunks[i]) && strstr(text.buf, needle))
			sk_strbuf_addf(&sb, "%s%s", sb.len ? ", " : "",
				       spec->hunks[i] + dl + 1);
		sk_error_clear();
		free(needle);
		sk_strbuf_release(&text);
	}
	return sb.len ? sk_strbuf_detach(&sb) : (sk_strbuf_release(&sb), NULL);
}

/* Diff i under the rules: kept hunks as they went, dropped ones semantic. */
static void hunks_from_rules(struct work *w, size_t i,
			     const struct sk_cocci_port *spec, const char *dir)
{
	const struct sk_apply_report *rep = &w->rule_reps[i];
	struct sk_diff d;
	size_t f, k, r = 0;

	if (sk_diff_parse(&d, w->diffs[i], strlen(w->diffs[i]), w->keys[i], 1, 0)) {
		sk_error_clear();
		return;
	}
	for (f = 0; f < d.nr; f++) {
		const struct sk_diff_file *df = &d.files[f];
		const char *path = df->new_path ? df->new_path : df->old_path;

		for (k = 0; k < df->nr_hunks; k++) {
			char *key = sk_xstrfmt("%s:%zu", path, k + 1);
			struct sk_port_hunk *h;
			size_t j;
			int drop = 0;

			for (j = 0; j < spec->nr_drops; j++)
				drop |= !strcmp(spec->drops[j], key);
			free(key);
			if (!drop && r < rep->nr) {
				hunk_from_report(w, w->keys[i], &rep->hunks[r++]);
				w->item->hunks[w->item->nr_hunks - 1].nr = (int)k + 1;
				continue;
			}
			h = add_hunk(w, w->keys[i], path, (int)k + 1, "semantic",
				     df->hunks[k].funcname);
			h->rule = rules_for(spec, dir, path);
			h->placed = sk_xstrfmt("by the semantic patches (%s)",
					       h->rule ? h->rule : "the series' rules");
		}
	}
	sk_diff_release(&d);
}

static int stage_clean(struct port *p, struct work *w)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < w->nr; i++)
		ret = sk_sandbox_apply_git(&p->sb, w->diffs[i]);
	if (ret)
		sk_strbuf_addf(&w->tried, "clean apply (libgit2): %s\n", sk_error_last());
	for (i = 0; !ret && i < w->nr; i++)
		hunks_from_diff(w, i, "clean");
	return ret;
}

static int stage_offset(struct port *p, struct work *w)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < w->nr; i++)
		ret = sk_apply_dir(&w->reps[i], p->sb.dir, w->diffs[i],
				   SK_APPLY_FUZZ | SK_APPLY_FUZZ3);
	if (!ret)
		ret = sk_sandbox_snapshot(&p->sb);
	if (ret) {
		sk_strbuf_addf(&w->tried, "offset and fuzz (up to 3, placement proven): %s\n",
			       ret == SK_ECONFLICT ? "hunks failed (below)" : sk_error_last());
		return ret;
	}
	{
		struct sk_strbuf how = SK_STRBUF_INIT;
		int fuzz = 0;

		for (i = 0; i < w->nr; i++) {
			sk_apply_describe(&how, &w->reps[i]);
			fuzz |= sk_apply_max_fuzz(&w->reps[i]);
			hunks_from_report(w, w->keys[i], &w->reps[i]);
		}
		w->item->how = sk_strbuf_detach(&how);
		w->item->method = fuzz ? SK_PORT_FUZZ : SK_PORT_OFFSET;
	}
	return 0;
}

static int stage_threeway(struct port *p, struct work *w)
{
	size_t i;
	int ret = 0;

	if (!w->tp || !w->tp->nr_upstream) {
		sk_strbuf_adds(&w->tried, "three-way: no upstream commit to cherry-pick\n");
		return SK_ECONFLICT;
	}
	for (i = 0; !ret && i < w->tp->nr_upstream; i++) {
		git_oid id;

		if (git_oid_fromstr(&id, w->tp->upstream[i].commit))
			ret = sk_error_set(SK_ECONFLICT, "bad upstream id");
		else
			ret = sk_sandbox_cherrypick(&p->sb, &id);
	}
	if (ret)
		sk_strbuf_addf(&w->tried, "three-way (git_cherrypick_commit of %zu upstream commit%s): %s\n",
			       w->tp->nr_upstream, w->tp->nr_upstream == 1 ? "" : "s",
			       sk_error_last());
	else
		w->item->method = SK_PORT_THREEWAY;
	for (i = 0; !ret && i < w->nr; i++)
		hunks_from_diff(w, i, "three-way");
	return ret;
}

/* The rules of a failed spec, after what failed, for the FAILED mail. */
static void rules_tried(struct work *w, size_t i, const struct sk_cocci_port *spec,
			const char *dir, const char *target)
{
	size_t j, dl = strlen(dir);

	sk_strbuf_addf(&w->tried, "semantic patches (target %s), patch %s: %s\n",
		       target, w->keys[i], sk_error_last());
	sk_strbuf_addf(&w->tried, "  its rules, in order (each runs only after the seed hunks it leaves applied):\n");
	for (j = 0; j < spec->nr_rules; j++)
		sk_strbuf_addf(&w->tried, "    %.*s\n", (int)(strlen(spec->rules[j]) - dl - 7),
			       spec->rules[j] + dl + 1);
}

static int stage_rules(struct port *p, struct work *w)
{
	struct sk_strbuf how = SK_STRBUF_INIT;
	size_t i, j, dir_len = p->cocci.dir ? strlen(p->cocci.dir) : 0;
	int ret = 0, listed = 0;

	if (!p->have_cocci) {
		sk_strbuf_addf(&w->tried, "semantic patches: %s\n",
			       p->res->no_rules ? p->res->no_rules : "the series has none");
		return SK_ECONFLICT;
	}
	for (i = 0; !ret && i < w->nr; i++) {
		struct sk_cocci_port spec;
		char **files;
		size_t nr;

		ret = sk_cocci_port_spec(&spec, &p->cocci, w->keys[i]);
		if (!ret)
			ret = sk_cocci_port_files(&files, &nr, &spec);
		if (!ret) {
			ret = sk_sandbox_checkout(&p->sb, files, nr);
			sk_strvec_free_array(files, nr);
		}
		if (!ret)
			ret = sk_cocci_port_patch(&p->cocci, &p->sb, &spec, w->diffs[i],
						  &w->rule_reps[i], p->o->timeout_ms);
		if (ret && spec.nr_rules) {
			rules_tried(w, i, &spec, p->cocci.dir, p->cocci.target);
			listed = 1;
		} else if (ret && !spec.nr_drops && !spec.nr_hunks) {
			sk_strbuf_addf(&w->tried, "semantic patches (target %s): no rules for patch %s "
				       "(no port section), so its diff as it is: %s\n",
				       p->cocci.target, w->keys[i], sk_error_last());
			listed = 1;
		}
		if (!ret)
			hunks_from_rules(w, i, &spec, p->cocci.dir);
		for (j = 0; !ret && j < spec.nr_rules; j++)
			sk_strbuf_addf(&how, "%s%.*s", how.len ? ", " : "",
				       (int)(strlen(spec.rules[j]) - dir_len - 7),
				       spec.rules[j] + dir_len + 1);
		for (j = 0; !ret && j < spec.nr_hunks; j++)
			sk_strbuf_addf(&how, "%s%s", how.len ? ", " : "",
				       spec.hunks[j] + dir_len + 1);
		sk_cocci_port_release(&spec);
	}
	if (!ret)
		ret = sk_sandbox_snapshot(&p->sb);
	if (ret) {
		if (!listed)
			sk_strbuf_addf(&w->tried, "semantic patches (target %s): %s\n",
				       p->cocci.target, sk_error_last());
		sk_strbuf_release(&how);
		return ret;
	}
	w->item->how = sk_xstrfmt("ported with %s: %s (target %s)",
				  p->cocci.dir + strlen(p->o->top) + 1,
				  how.len ? how.buf : "no rule", p->cocci.target);
	sk_strbuf_release(&how);
	w->item->method = SK_PORT_RULES;
	return 0;
}

/* The stored mail of the patch, parsed: message and trailers. */
static int load_mail(struct sk_patch *out, struct port *p, int nr)
{
	struct sk_strbuf text = SK_STRBUF_INIT;
	struct sk_mbox mb = SK_MBOX_INIT;
	int ret = sk_series_patch_mail(&text, p->series, p->rev, nr);

	memset(out, 0, sizeof(*out));
	if (!ret)
		ret = sk_mbox_parse_buf(&mb, p->rev->mbox, text.buf, text.len);
	if (!ret)
		ret = sk_patch_parse(out, &mb.mails[0]);
	sk_mbox_release(&mb);
	sk_strbuf_release(&text);
	return ret;
}

static void upstream_line(struct sk_strbuf *out, const struct port *p,
			  const struct work *w)
{
	size_t i, n = 0;

	/* only a commit tracking proved to carry the patch (see track.h) */
	for (i = 0; w->tp && i < w->tp->nr_upstream; i++) {
		if (!sk_track_upstream_proven(&w->tp->upstream[i]))
			continue;
		sk_strbuf_addf(out, p->o->bracket_style ? "[ Upstream commit %s ]\n" :
			       "commit %s upstream.\n", w->tp->upstream[i].commit);
		n++;
	}
	if (n)
		sk_strbuf_addch(out, '\n');
}

/* Per hunk not carried clean: how it was placed, and why that is the place. */
static void placement_notes(struct sk_strbuf *out, const struct sk_port_item *it)
{
	size_t i;

	for (i = 0; i < it->nr_hunks; i++) {
		const struct sk_port_hunk *h = &it->hunks[i];

		if (h->placed && (!strncmp(h->placed, "offset", 6) ||
				  !strncmp(h->placed, "fuzz", 4)))
			sk_strbuf_addf(out, "[ stablekit: %s hunk %d: %s ]\n", h->path, h->nr,
				       h->placed);
	}
}

/*
 * A stable queue names its upstream commit only when tracking proved one
 * (upstream_line); without one (a tree without history, upstream only by
 * proxy) the Link: to the patch's mail is what says where it came from.
 * A pulled FAILED mail is not the patch: the commit pasted in it carries
 * its own Link: (kept with its trailers), and nothing points at the
 * FAILED mail.
 */
static void link_line(struct sk_strbuf *out, const struct port *p,
		      const struct work *w, const struct sk_patch *mail)
{
	const char *id = w->sp->message_id;
	size_t i, len;

	if (p->tb->br->kind == SK_BRANCH_DOWNSTREAM || !id || !*id ||
	    (p->series->kind && !strcmp(p->series->kind, "failed")))
		return;
	for (i = 0; w->tp && i < w->tp->nr_upstream; i++)
		if (sk_track_upstream_proven(&w->tp->upstream[i]))
			return;
	id += *id == '<';
	len = strcspn(id, ">");
	for (i = 0; i < mail->nr_trailers; i++)
		if (!strcasecmp(mail->trailers[i].key, "Link") &&
		    memmem(mail->trailers[i].value, strlen(mail->trailers[i].value),
			   id, len))
			return;
	sk_strbuf_addf(out, "Link: https://lore.kernel.org/r/%.*s\n", (int)len, id);
}

static void note_line(struct sk_strbuf *out, const struct port *p,
		      const struct work *w)
{
	size_t i;

	for (i = 0; i < w->sp->nr_fixlets; i++)
		sk_strbuf_addf(out, "[ stablekit: includes the fixlet \"%s\" <%s> ]\n",
			       w->sp->fixlets[i].subject, w->sp->fixlets[i].message_id);
	if (w->item->independent_of)
		sk_strbuf_addf(out, "[ stablekit: ported without patch %d of the series, which "
			       "failed; the queue without it compiles ]\n", w->item->independent_of);
	if (w->item->how && *w->item->how)
		sk_strbuf_addf(out, "[ stablekit: %s%s ]\n",
			       w->item->method == SK_PORT_OFFSET ? "applied with " :
			       w->item->method == SK_PORT_FUZZ ? "applied with " : "",
			       w->item->how);
	else if (w->item->method == SK_PORT_THREEWAY)
		sk_strbuf_adds(out, "[ stablekit: three-way merge of the upstream commit ]\n");
	placement_notes(out, w->item);
	(void)p;
}

static struct sk_track_patch *track_patch(struct port *p, int nr);

static void compose(struct sk_strbuf *out, const struct port *p,
		    const struct work *w, const struct sk_patch *mail,
		    const char *diff)
{
	size_t i;

	/* header values from data are made one line: no header is forged */
	sk_strbuf_adds(out, "From: ");
	sk_utf8_add_one_line(out, mail->author);
	sk_strbuf_adds(out, "\nDate: ");
	sk_utf8_add_one_line(out, mail->date);
	sk_strbuf_adds(out, "\nSubject: ");
	sk_utf8_add_one_line(out, mail->subj.title);
	sk_strbuf_adds(out, "\n\n");
	upstream_line(out, p, w);
	sk_strbuf_adds(out, mail->message);
	sk_strbuf_adds(out, "\n\n");
	for (i = 0; i < mail->nr_trailers; i++)
		sk_strbuf_addf(out, "%s: %s\n", mail->trailers[i].key,
			       mail->trailers[i].value);
	link_line(out, p, w, mail);
	if (w->item->dep_of) {
		const struct sk_series_patch *d = NULL;
		size_t k;

		for (k = 0; k < p->rev->nr_patches; k++)
			if (p->rev->patches[k].nr == w->item->dep_of)
				d = &p->rev->patches[k];
		/* the commit that needs this one, as the stable tree names it */
		if (d) {
			const struct sk_track_patch *dt = track_patch((struct port *)p, d->nr);

			sk_strbuf_addf(out, "Stable-dep-of: %.12s (\"%s\")\n",
				       dt && dt->nr_upstream ?
				       dt->upstream[dt->nr_upstream - 1].commit : d->patch_id,
				       d->subject);
		}
	}
	note_line(out, p, w);
	if (p->o->signoff) {
		sk_strbuf_adds(out, "Signed-off-by: ");
		sk_utf8_add_one_line(out, p->o->signoff);
		sk_strbuf_addch(out, '\n');
	}
	/* quilt refresh --diffstat writes the "---" and the diffstat */
	sk_strbuf_addch(out, '\n');
	sk_strbuf_adds(out, diff);
}

/* ---- --keep: the failed patch's files, hunks applied or in .rej ---- */

/* Write text to dir/path, its directories first. */
static int keep_write(const char *dir, const char *path, const char *text, size_t len)
{
	char *full = sk_path_join(dir, path), *slash = strrchr(full, '/');
	int ret = 0;

	if (slash) {
		*slash = '\0';
		ret = sk_mkdir_p(full, 0755);
		*slash = '/';
	}
	if (!ret)
		ret = sk_write_file_atomic(full, text, len);
	free(full);
	return ret;
}

/* One file of a diff, hunk by hunk, as patch(1) does without --dry-run. */
static int keep_file(const struct port *p, const char *dir, const char *diff,
		     const struct sk_diff_file *f)
{
	struct sk_strbuf cur = SK_STRBUF_INIT, rej = SK_STRBUF_INIT;
	const char *path = f->old_path ? f->old_path : f->new_path;
	char *kept = sk_path_join(dir, path), *orig = sk_path_join(p->sb.dir, path);
	size_t k, hdr = f->nr_hunks ? f->hunks[0].begin - f->begin : 0;
	int ret = sk_read_file(&cur, sk_path_exists(kept) ? kept : orig);

	if (ret == SK_ENOTFOUND) {
		sk_error_clear();
		ret = 0;
	}
	for (k = 0; !ret && k < f->nr_hunks; k++) {
		const struct sk_diff_hunk *h = &f->hunks[k];
		struct sk_strbuf one = SK_STRBUF_INIT, out = SK_STRBUF_INIT;
		struct sk_apply_report rep = { 0 };
		int r;

		sk_strbuf_add(&one, diff + f->begin, hdr);
		sk_strbuf_add(&one, diff + h->begin, h->end - h->begin);
		r = sk_apply_text(&out, &rep, path, cur.buf, one.buf,
				  SK_APPLY_FUZZ | SK_APPLY_FUZZ3);
		if (!r) {
			sk_strbuf_reset(&cur);
			sk_strbuf_add(&cur, out.buf, out.len);
		} else if (r == SK_ECONFLICT) {
			if (!rej.len)
				sk_strbuf_add(&rej, diff + f->begin, hdr);
			sk_strbuf_add(&rej, diff + h->begin, h->end - h->begin);
		} else {
			ret = r;
		}
		sk_apply_report_release(&rep);
		sk_strbuf_release(&one);
		sk_strbuf_release(&out);
	}
	if (!ret && f->new_path)
		ret = keep_write(dir, path, cur.buf, cur.len);
	if (!ret && rej.len) {
		char *r = sk_xstrfmt("%s.rej", path);

		ret = keep_write(dir, r, rej.buf, rej.len);
		free(r);
	}
	sk_strbuf_release(&cur);
	sk_strbuf_release(&rej);
	free(kept);
	free(orig);
	return ret;
}

/*
 * $SK_WORK/port/<branch>/<slug>: the files the failed patch and its
 * fixlets touch, as the branch (and the patches queued before) has them,
 * with every hunk that applies applied and the others in FILE.rej.
 */
static int keep_tree(struct port *p, struct work *w)
{
	char *work = sk_work_dir(p->o->top);
	char *dir = sk_xstrfmt("%s/port/%s/%s", work, p->tb->br->name, p->o->slug);
	size_t i, f;
	int ret = 0;

	if (sk_path_exists(dir))
		ret = sk_rmrf(dir);
	if (!ret)
		ret = sk_mkdir_p(dir, 0755);
	for (i = 0; !ret && i < w->nr; i++) {
		struct sk_diff d;

		ret = sk_diff_parse(&d, w->diffs[i], strlen(w->diffs[i]), w->keys[i], 1, 0);
		if (ret)
			break;
		for (f = 0; !ret && f < d.nr; f++)
			ret = keep_file(p, dir, w->diffs[i], &d.files[f]);
		sk_diff_release(&d);
	}
	if (!ret)
		w->item->kept = dir;
	else
		free(dir);
	free(work);
	return ret;
}

static int port_one(struct port *p, struct work *w, struct sk_strbuf *patch_text)
{
	git_oid start;
	int ret;

	git_oid_cpy(&start, &p->sb.tree);
	ret = load_diffs(p, w);
	if (ret)
		return ret;
	w->item->method = SK_PORT_CLEAN;
	ret = stage_clean(p, w);
	if (ret && ret != SK_ECONFLICT && ret != SK_EINVALID)
		return ret;
	if (ret && !(ret = sk_sandbox_reset(&p->sb, &start)))
		ret = stage_offset(p, w);
	if (ret && ret != SK_ECONFLICT)
		return ret;
	if (ret && !(ret = sk_sandbox_reset(&p->sb, &start)))
		ret = stage_threeway(p, w);
	if (ret && ret != SK_ECONFLICT)
		return ret;
	if (ret && !(ret = sk_sandbox_reset(&p->sb, &start)))
		ret = stage_rules(p, w);
	if (ret && ret != SK_ECONFLICT && ret != SK_ENOTFOUND && ret != SK_EINVALID)
		return ret;
	if (ret) {
		struct sk_strbuf mail = SK_STRBUF_INIT, orig = SK_STRBUF_INIT;
		size_t i;

		ret = sk_sandbox_reset(&p->sb, &start);
		if (ret)
			return ret;
		w->item->method = SK_PORT_FAILED;
		w->item->reason = sk_xstrdup("no method carries it: see the FAILED mail");
		free(w->item->how);
		w->item->how = NULL;
		clear_hunks(w->item);
		for (i = 0; i < w->nr; i++)
			hunks_from_report(w, w->keys[i], &w->reps[i]);
		sk_port_failed_mail(&mail, p, w);
		if (!sk_series_patch_mail(&orig, p->series, p->rev, w->sp->nr))
			sk_strbuf_add(&mail, orig.buf, orig.len);
		w->item->failed_mail = sk_strbuf_detach(&mail);
		sk_strbuf_release(&orig);
		p->res->failed++;
		return p->o->keep ? keep_tree(p, w) : 0;
	}
	{
		struct sk_strbuf diff = SK_STRBUF_INIT;
		struct sk_patch mail;

		ret = sk_sandbox_diff(&diff, &p->sb, &start, &p->sb.tree);
		if (!ret && !diff.len)
			ret = sk_error_set(SK_ERROR, "patch %d changes nothing on %s",
					   w->sp->nr, p->tb->br->name);
		if (!ret)
			ret = load_mail(&mail, p, w->sp->nr);
		if (!ret) {
			compose(patch_text, p, w, &mail, diff.buf);
			sk_patch_release(&mail);
		}
		sk_strbuf_release(&diff);
	}
	return ret;
}

static struct sk_port_item *new_item(struct port *p, const struct sk_series_patch *sp)
{
	struct sk_port_item *it = SK_ARRAY_PUSH(p->res->items, p->res->nr, p->res->alloc);

	memset(it, 0, sizeof(*it));
	it->nr = sp->nr;
	it->subject = sk_xstrdup(sp->subject);
	return it;
}

static struct sk_track_patch *track_patch(struct port *p, int nr)
{
	size_t i;

	for (i = 0; i < p->o->track->nr_patches; i++) {
		struct sk_track_patch *tp = &p->o->track->patches[i];

		if (!strcmp(tp->slug, p->o->slug) && tp->nr == nr)
			return tp;
	}
	return NULL;
}

/* Which patches to port: needed or queued, and what they depend on. */
static void select_patches(struct port *p, int *take, int *dep_of)
{
	size_t i, j;

	for (i = 0; i < p->rev->nr_patches; i++) {
		struct sk_track_patch *tp = track_patch(p, p->rev->patches[i].nr);
		const struct sk_track_cell *c = tp ? &tp->cells[p->o->branch] : NULL;

		if (!c || (c->state != SK_STATE_NEEDED && c->state != SK_STATE_QUEUED))
			continue;
		take[i] = 1;
		for (j = 0; j < c->nr_deps; j++) {
			size_t k;

			for (k = 0; k < p->rev->nr_patches; k++)
				if (p->rev->patches[k].nr == c->deps[j] && !take[k]) {
					take[k] = 1;
					dep_of[k] = p->rev->patches[i].nr;
				}
		}
	}
}

static void skip_item(struct port *p, const struct sk_series_patch *sp)
{
	struct sk_track_patch *tp = track_patch(p, sp->nr);
	const struct sk_track_cell *c = tp ? &tp->cells[p->o->branch] : NULL;
	struct sk_port_item *it = new_item(p, sp);

	it->method = SK_PORT_SKIPPED;
	it->reason = sk_xstrfmt("%s%s%s", c ? sk_state_name(c->state) : "not tracked",
				c && c->nr_evidence ? ": " : "",
				c && c->nr_evidence ? c->evidence[0] : "");
}

static int write_queue(struct port *p, const char *dir, char **names,
		       struct sk_strbuf *texts, size_t nr)
{
	struct sk_strbuf series = SK_STRBUF_INIT;
	size_t i;
	int ret = 0;

	sk_strbuf_add(&series, p->other.buf, p->other.len);
	if (nr)
		sk_strbuf_addf(&series, "# %s\n", p->o->slug);
	for (i = 0; !ret && i < nr; i++) {
		char *path = sk_path_join(dir, names[i]);

		sk_strbuf_addf(&series, "%s\n", names[i]);
		ret = sk_write_file_atomic(path, texts[i].buf, texts[i].len);
		free(path);
	}
	for (i = 0; !ret && i < p->nr_other; i++) {
		struct sk_strbuf text = SK_STRBUF_INIT;
		char *src = sk_path_join(p->queue_dir, p->other_files[i]);
		char *dst = sk_path_join(dir, p->other_files[i]);

		ret = sk_read_file(&text, src);
		if (!ret)
			ret = sk_write_file_atomic(dst, text.buf, text.len);
		sk_strbuf_release(&text);
		free(src);
		free(dst);
	}
	if (!ret) {
		char *path = sk_path_join(dir, "series");

		ret = sk_write_file_atomic(path, series.buf, series.len);
		free(path);
	}
	sk_strbuf_release(&series);
	return ret;
}

static int write_failed(struct port *p, const char *dir)
{
	char *fdir = sk_path_join(dir, "failed");
	size_t i;
	int ret = 0, made = 0;

	for (i = 0; !ret && i < p->res->nr; i++) {
		struct sk_port_item *it = &p->res->items[i];
		struct sk_strbuf name = SK_STRBUF_INIT;
		char *path;

		if (!it->failed_mail)
			continue;
		if (!made && !(ret = sk_mkdir_p(fdir, 0755)))
			made = 1;
		sk_track_queue_name(&name, it->subject);
		sk_strbuf_adds(&name, ".mail");
		path = sk_path_join(fdir, name.buf);
		if (!ret) {
			struct sk_strbuf mail = SK_STRBUF_INIT;

			sk_strbuf_add(&mail, it->failed_mail, it->blocked_at);
			sk_port_blocked_list(&mail, p->res, it->nr);
			sk_strbuf_adds(&mail, it->failed_mail + it->blocked_at);
			ret = sk_write_file_atomic(path, mail.buf, mail.len);
			sk_strbuf_release(&mail);
		}
		free(path);
		sk_strbuf_release(&name);
	}
	free(fdir);
	return ret;
}

/*
 * Swap the proven queue into place in one step: the old one stays whole
 * until then, and a reader sees one or the other, never none.
 */
static int install(struct port *p, const char *tmp)
{
	int ret = 0;

	if (!sk_is_dir(p->queue_dir)) {
		if (rename(tmp, p->queue_dir))
			ret = sk_error_errno(p->queue_dir);
		return ret;
	}
	ret = sk_dir_swap(tmp, p->queue_dir);
	if (!ret)
		sk_rmrf(tmp);	/* the old queue */
	return ret;
}

/* ---- the compile check: the queue's objects on x86_64 ---- */

/* $SK_WORK/build/<branch>, canonical: the compiler's paths are stripped of it. */
static char *absolute_work(const char *top, const char *branch)
{
	char *work = sk_work_dir(top), *real, *dir;

	if (sk_mkdir_p(work, 0755))
		sk_error_clear();
	real = realpath(work, NULL);
	dir = sk_xstrfmt("%s/build/%s", real ? real : work, branch);
	free(real);
	free(work);
	return dir;
}

/* "mm/swap.c:12:3: error: ..." lines of the patched build, at most 20. */
static void compiler_errors(struct sk_strbuf *out, const struct sk_build_variant *v)
{
	size_t i, n = 0;

	for (i = 0; i < v->diags.nr && n < 20; i++) {
		const struct sk_kbuild_diag *d = &v->diags.items[i];

		if (strcmp(d->severity, "error"))
			continue;
		sk_strbuf_addf(out, "  %s:%u:%u: error: %s\n", d->file, d->line,
			       d->column, d->message);
		n++;
	}
	if (!n)
		sk_strbuf_addf(out, "  %s (see %s/build.log)\n",
			       v->note ? v->note : "make failed", v->resdir ? v->resdir : "");
}

/*
 * Part of the proof, as quilt push is: the queue pushed on a checkout of
 * the branch, the objects of the files it touches built for x86_64 with
 * the branch's build setup (defconfig and ci/kconfig's fragments, the
 * `stablekit build` objects mode, sharing its checkout and O= directory).
 * A tree that is no kernel tree is not compiled, and says so.
 */
/*
 * "x86_64 defconfig + ci/kconfig (mm-series.config) + CONFIG_PSI=y: objects
 * (why)"; "shipped ci/kconfig" when the project has no ci/kconfig/ of its
 * own and the defaults stablekit ships were taken (core/datadir.h).
 */
static char *compile_what(const struct sk_build *job, const struct sk_build_archres *ar,
			  const struct sk_port_compile *t)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;

	sk_strbuf_addf(&sb, "x86_64 %s", job->kconfig_base);
	for (i = 0; i < job->nr_kconfig; i++)
		sk_strbuf_addf(&sb, "%s%s", i ? ", " : job->kconfig_shipped ?
			       " + shipped ci/kconfig (" : " + ci/kconfig (",
			       sk_path_basename(job->fragments[i]));
	if (job->nr_kconfig)
		sk_strbuf_addch(&sb, ')');
	for (i = 0; i < t->nr_configs; i++)
		sk_strbuf_addf(&sb, " + %s=y", t->configs[i]);
	for (i = 0; i < ar->patched.nr_unmet; i++)
		sk_strbuf_addf(&sb, "%s%s", i ? ", " : " (not set, its dependencies unmet: ",
			       ar->patched.kconfig_unmet[i]);
	if (ar->patched.nr_unmet)
		sk_strbuf_addch(&sb, ')');
	sk_strbuf_adds(&sb, ": ");
	for (i = 0; i < ar->nr_objects; i++)
		sk_strbuf_addf(&sb, "%s%s", i ? " " : "", ar->objects[i]);
	if (!ar->nr_objects)
		sk_strbuf_adds(&sb, "no object");
	if (t->why.len)
		sk_strbuf_addf(&sb, " (%s)", t->why.buf);
	return sk_strbuf_detach(&sb);
}

/* The kconfig fragments the check used, for port --json. */
static void keep_fragments(struct sk_port_result *r, const struct sk_build *job)
{
	size_t i;

	sk_strvec_free_array(r->fragments, r->nr_fragments);
	r->fragments = sk_xcalloc(job->nr_kconfig + 1, sizeof(char *));
	r->nr_fragments = job->nr_kconfig;
	for (i = 0; i < job->nr_kconfig; i++)
		r->fragments[i] = sk_xstrdup(job->fragments[i]);
	r->fragments_shipped = job->kconfig_shipped;
}

/* The Kconfig fragment that enables the symbols guarding the changed lines. */
static int write_fragment(char **path, const char *dir, const struct sk_port_compile *t)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;
	int ret;

	for (i = 0; i < t->nr_configs; i++)
		sk_strbuf_addf(&sb, "%s=y\n", t->configs[i]);
	*path = sk_path_join(dir, "port-guards.config");
	ret = sk_write_file_atomic(*path, sb.buf, sb.len);
	sk_strbuf_release(&sb);
	return ret;
}

/* Does the branch's tree have the source of obj ("mm/swap.o": .c or .S)? */
static int tip_has_source(struct port *p, git_tree *tree, const char *obj)
{
	static const char *const exts[] = { ".c", ".S", NULL };
	size_t n = strlen(obj);
	const char *const *e;
	int found = 0;

	if (n < 3 || strcmp(obj + n - 2, ".o"))
		return 0;
	for (e = exts; *e && !found; e++) {
		char *src = sk_xstrfmt("%.*s%s", (int)(n - 2), obj, *e);
		git_tree_entry *te = NULL;

		found = !git_tree_entry_bypath(&te, tree, src);
		git_tree_entry_free(te);
		free(src);
	}
	git_error_clear();
	return found;
}

/*
 * The queue did not compile: the branch without it, the same objects (those
 * the branch has), the same configuration.  *verdict: "queue" (the branch
 * builds them, or has none of them: the queue breaks the build) or
 * "branch" (it does not build them either: errors in base_errors).
 */
static int build_baseline(struct port *p, const struct sk_build_opts *patched,
			  const struct sk_port_compile *t, const char **verdict,
			  struct sk_strbuf *base_errors)
{
	struct sk_build_opts ko = *patched;
	struct sk_build job;
	git_tree *tree = NULL;
	char **have = sk_xcalloc(t->nr_objects + 1, sizeof(char *));
	char *empty = NULL;
	size_t i, nr = 0;
	int ret = 0;

	*verdict = "queue";
	if (git_tree_lookup(&tree, p->repo, &p->tip_tree))
		ret = sk_error_git(SK_ERROR, "the branch's tree");
	for (i = 0; !ret && i < t->nr_objects; i++)
		if (tip_has_source(p, tree, t->objects[i]))
			have[nr++] = t->objects[i];
	git_tree_free(tree);
	if (ret || !nr)
		goto out;
	/* an empty queue: the baseline alone */
	ret = sk_mkdtemp_in(&empty, sk_tmp_dir(), "port-baseline");
	if (ret)
		goto out;
	ko.queue_dir = empty;
	ko.no_baseline = 0;
	ko.objects = have;
	ko.nr_objects = nr;
	memset(&job, 0, sizeof(job));
	ret = sk_build_run(&job, &ko);
	if (!ret && job.buildable && job.nr_arches) {
		const struct sk_build_variant *b = &job.arches[0].base;

		if (b->status && !strcmp(b->status, "toolchain-missing")) {
			ret = sk_error_set(SK_ETOOL, "compile check: no x86_64 compiler: %s",
					   b->note ? b->note : job.arches[0].cc);
		} else if (!b->status || strcmp(b->status, "pass")) {
			*verdict = "branch";
			compiler_errors(base_errors, b);
		}
	}
	sk_build_release(&job);
out:
	if (empty)
		sk_rmrf(empty);
	free(empty);
	free(have);
	return ret;
}

/*
 * Part of the proof, as quilt push is: the queue pushed on a checkout of
 * the branch, and what compiles the lines it changes built for x86_64
 * with the branch's build setup (defconfig and ci/kconfig's fragments, the
 * `stablekit build` objects mode, sharing its checkout and O= directory)
 * plus the Kconfig symbols that guard them (port-compile.c).  A tree that
 * is no kernel tree is not compiled, and says so.
 */
static int compile_check(struct port *p, const char *queue, struct sk_strbuf *texts,
			 size_t nr)
{
	struct sk_build job;
	struct sk_build_opts ko = { 0 };
	struct sk_port_compile t;
	char *arches[] = { "x86_64" }, *results = NULL, *frag = NULL;
	char *work = absolute_work(p->o->top, p->tb->br->name);
	char **tv = sk_xcalloc(nr + 1, sizeof(char *));
	size_t i;
	int ret = sk_mkdtemp_in(&results, sk_tmp_dir(), "port-compile");

	for (i = 0; i < nr; i++)
		tv[i] = texts[i].buf;
	memset(&t, 0, sizeof(t));
	sk_strbuf_init(&t.why);
	if (p->kernel_tree)
		sk_port_compile_targets(&t, p, tv, nr);
	free(tv);
	if (!ret && t.nr_configs)
		ret = write_fragment(&frag, results, &t);
	ko.repo = p->repo;
	ko.top = p->o->top;
	ko.branch = p->tb->br;
	ko.mode = SK_BUILD_OBJECTS;
	ko.arches = arches;
	ko.nr_arches = 1;
	ko.work = work;
	ko.results = results;
	ko.no_baseline = 1;
	ko.queue_dir = queue;
	ko.timeout_s = p->o->timeout_ms / 1000;
	ko.objects = t.objects;
	ko.nr_objects = t.nr_objects;
	ko.fragments = frag ? &frag : NULL;
	ko.nr_fragments = frag ? 1 : 0;
	memset(&job, 0, sizeof(job));
	p->compile_failed = 0;
	if (!ret)
		ret = sk_build_run(&job, &ko);
	if (!ret && !job.buildable) {
		p->res->compile = sk_xstrfmt("compile check: not a kernel tree (%s)", job.why);
	} else if (!ret) {
		const struct sk_build_archres *ar = &job.arches[0];
		struct sk_strbuf sb = SK_STRBUF_INIT;

		struct sk_strbuf base = SK_STRBUF_INIT;
		const char *verdict = NULL;

		free(p->compile_what);
		p->compile_what = compile_what(&job, ar, &t);
		keep_fragments(p->res, &job);
		if (ar->patched.status && !strcmp(ar->patched.status, "toolchain-missing")) {
			ret = sk_error_set(SK_ETOOL, "compile check: no x86_64 compiler: %s",
					   ar->patched.note ? ar->patched.note : ar->cc);
		} else if (ar->patched.status && !strcmp(ar->patched.status, "pass")) {
			free(p->res->compile);
			p->res->compile = sk_xstrfmt("compile check: %s", p->compile_what);
		} else {
			compiler_errors(&sb, &ar->patched);
			ret = build_baseline(p, &ko, &t, &verdict, &base);
		}
		if (!ret && verdict && !strcmp(verdict, "branch")) {
			/* a configuration gap, not the queue's fault: nobody is blamed */
			free(p->res->compile_verdict);
			p->res->compile_verdict = sk_xstrdup("the branch does not build "
							     "these objects with this config");
			ret = sk_error_set(SK_EINVALID,
					   "compile check: the branch does not build these objects "
					   "with this config, with or without the queue (%s):\n%s"
					   "the queue is not to blame and nothing was queued: give the "
					   "project the kconfig fragments the branch needs "
					   "(ci/kconfig/*.config, stablekit help port)",
					   p->compile_what, base.buf);
		} else if (!ret && verdict) {
			free(p->res->compile_verdict);
			p->res->compile_verdict = sk_xstrdup("the queue breaks the build");
			sk_strbuf_reset(&p->compile_errors);
			sk_strbuf_add(&p->compile_errors, sb.buf, sb.len);
			p->compile_failed = 1;
			ret = sk_error_set(SK_ECONFLICT,
					   "the queue breaks the build: it does not compile, the "
					   "branch without it does (%s, %s):\n%s",
					   p->compile_what,
					   ar->patched.status ? ar->patched.status : "not built",
					   sb.buf);
		}
		sk_strbuf_release(&base);
		sk_strbuf_release(&sb);
	}
	sk_build_release(&job);
	sk_port_compile_release(&t);
	if (results)
		sk_rmrf(results);
	free(results);
	free(frag);
	free(work);
	return ret;
}

static int prove_and_install(struct port *p, char **names,
			     struct sk_strbuf *texts, size_t nr)
{
	struct sk_strbuf log = SK_STRBUF_INIT;
	char *parent = sk_path_join(p->o->top, "stable"), *tmp = NULL;
	int ret = sk_mkdtemp_in(&tmp, parent, "port");

	if (!ret)
		ret = write_queue(p, tmp, names, texts, nr);
	if (!ret)
		ret = write_failed(p, tmp);
	if (!ret)
		ret = sk_sandbox_reset(&p->sb, &p->tip_tree);
	if (!ret)
		ret = sk_quilt_prove(&log, p->sb.dir, tmp, p->o->timeout_ms);
	if (ret == SK_ECONFLICT)
		ret = sk_error_prefix(SK_ECONFLICT, "the queue does not push with quilt:\n%s",
				      log.buf);
	if (!ret && nr)
		ret = compile_check(p, tmp, texts, nr);
	if (!ret && chmod(tmp, 0755))
		ret = sk_error_errno(tmp);
	if (!ret)
		ret = install(p, tmp);
	if (ret && tmp)
		sk_rmrf(tmp);
	free(tmp);
	free(parent);
	sk_strbuf_release(&log);
	return ret;
}

static void release_work(struct work *w)
{
	size_t i;

	for (i = 0; w->reps && i < w->nr; i++) {
		sk_apply_report_release(&w->reps[i]);
		sk_apply_report_release(&w->rule_reps[i]);
	}
	free(w->reps);
	free(w->rule_reps);
	sk_strvec_free_array(w->diffs, w->nr);
	sk_strvec_free_array(w->keys, w->nr);
	sk_strbuf_release(&w->tried);
}

/*
 * The queue with the patches tried after a failure did not compile: they
 * were not independent of it after all.  They go out of the queue, blocked.
 * Returns how many went.
 */
static size_t unqueue_independent(struct port *p, char **names,
				  struct sk_strbuf *texts, size_t *queued)
{
	const char *last = sk_error_last(), *nl = strchr(last, '\n');
	char *why;
	size_t i, j, k, gone = 0;

	/* the compiler's first message, else the error's first line */
	if (nl && nl[1])
		last = nl + 1 + strspn(nl + 1, " ");
	why = sk_xstrndup(last, strcspn(last, "\n"));

	for (i = 0; i < p->res->nr; i++) {
		struct sk_port_item *it = &p->res->items[i];

		if (!it->independent_of || !it->file)
			continue;
		for (j = 0; j < *queued && strcmp(names[j], it->file); j++)
			;
		if (j == *queued)
			continue;
		free(names[j]);
		sk_strbuf_release(&texts[j]);
		for (k = j; k + 1 < *queued; k++) {
			names[k] = names[k + 1];
			texts[k] = texts[k + 1];
		}
		names[--*queued] = NULL;
		sk_strbuf_init(&texts[*queued]);
		free(it->file);
		it->file = NULL;
		free(it->how);
		it->how = NULL;
		free(it->reason);
		it->blocked_by = it->independent_of;
		it->independent_of = 0;
		it->method = SK_PORT_BLOCKED;
		it->reason = sk_xstrfmt("blocked by %d (it ported, but the queue without patch %d "
					"does not compile: %s)", it->blocked_by, it->blocked_by, why);
		p->res->failed++;
		gone++;
	}
	free(why);
	return gone;
}

/* Does the queue file text change path? */
static int patch_touches(const char *text, const char *path)
{
	char *needle = sk_xstrfmt("\n+++ b/%s\n", path);
	int hit = strstr(text, needle) != NULL;

	free(needle);
	return hit;
}

static struct sk_port_item *item_of_file(struct port *p, const char *file)
{
	size_t i;

	for (i = 0; i < p->res->nr; i++)
		if (p->res->items[i].file && !strcmp(p->res->items[i].file, file))
			return &p->res->items[i];
	return NULL;
}

static const struct sk_series_patch *series_patch(const struct port *p, int nr)
{
	size_t i;

	for (i = 0; i < p->rev->nr_patches; i++)
		if (p->rev->patches[i].nr == nr)
			return &p->rev->patches[i];
	return NULL;
}

/*
 * The queue does not compile, and no patch was queued only as independent
 * of a failed one: the first queued patch that changes a file the compiler
 * complains about fails (the first queued one when none does), with a
 * FAILED mail that shows each message at its hunk; the patches queued
 * after it, applied on top of it, are blocked by it.  Returns 0 when no
 * patch is left to blame.
 */
static int blame_compile(struct port *p, char **names, struct sk_strbuf *texts,
			 size_t *queued)
{
	const char *e = p->compile_errors.buf;
	size_t culprit = *queued, j;
	struct sk_port_item *it;
	struct sk_strbuf mail = SK_STRBUF_INIT, orig = SK_STRBUF_INIT;
	char *first;
	int nr;

	if (!*queued)
		return 0;
	for (; e && *e && culprit == *queued; e = strchr(e, '\n') ? strchr(e, '\n') + 1 : NULL) {
		const char *f = e + strspn(e, " ");
		char *file = sk_xstrndup(f, strcspn(f, ":\n"));

		for (j = 0; j < *queued && culprit == *queued; j++)
			if (patch_touches(texts[j].buf, file))
				culprit = j;
		free(file);
	}
	if (culprit == *queued)
		culprit = 0;
	it = item_of_file(p, names[culprit]);
	if (!it)
		return 0;
	nr = it->nr;
	sk_port_compile_mail(&mail, p, series_patch(p, nr), it, texts[culprit].buf);
	if (!sk_series_patch_mail(&orig, p->series, p->rev, nr))
		sk_strbuf_add(&mail, orig.buf, orig.len);
	sk_error_clear();
	e = p->compile_errors.buf + strspn(p->compile_errors.buf, " ");
	first = sk_xstrndup(e, strcspn(e, "\n"));
	it->method = SK_PORT_FAILED;
	free(it->reason);
	it->reason = sk_xstrfmt("the queue does not compile with it: %s (see the FAILED mail)",
				first);
	free(it->failed_mail);
	it->failed_mail = sk_strbuf_detach(&mail);
	p->res->failed++;
	for (j = culprit; j < *queued; j++) {
		struct sk_port_item *later = item_of_file(p, names[j]);

		if (later && later != it) {
			later->method = SK_PORT_BLOCKED;
			later->blocked_by = nr;
			free(later->reason);
			later->reason = sk_xstrfmt("blocked by %d (queued on top of it, which does "
						   "not compile)", nr);
			p->res->failed++;
		}
		if (later) {
			free(later->file);
			later->file = NULL;
		}
		free(names[j]);
		names[j] = NULL;
		sk_strbuf_release(&texts[j]);
	}
	*queued = culprit;
	free(first);
	sk_strbuf_release(&orig);
	return 1;
}

/* A step of the port, as it starts: the command's progress line. */
static void step(const struct port *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void step(const struct port *p, const char *fmt, ...)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	va_list ap;

	if (!p->o->progress)
		return;
	va_start(ap, fmt);
	sk_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	p->o->progress(sb.buf, p->o->progress_data);
	sk_strbuf_release(&sb);
}

static int port_all(struct port *p)
{
	size_t n = p->rev->nr_patches, i, queued = 0;
	int *take = sk_xcalloc(n + 1, sizeof(int)), *dep_of = sk_xcalloc(n + 1, sizeof(int));
	struct sk_strbuf *texts = sk_xcalloc(n + 1, sizeof(*texts));
	char **names = sk_xcalloc(n + 1, sizeof(char *));
	int ret = 0, failed_nr = 0;

	select_patches(p, take, dep_of);
	p->take = take;
	for (i = 0; !ret && i < n; i++) {
		const struct sk_series_patch *sp = &p->rev->patches[i];
		struct work w = { 0 };

		if (!take[i]) {
			skip_item(p, sp);
			continue;
		}
		if (failed_nr && !p->kernel_tree) {
			/*
			 * A series applies in order: what follows a failure
			 * waits, unless a build proves it independent (on a
			 * kernel tree, below and in prove_and_install()).
			 */
			struct sk_port_item *it = new_item(p, sp);

			it->method = SK_PORT_BLOCKED;
			it->blocked_by = failed_nr;
			it->dep_of = dep_of[i];
			it->reason = sk_xstrfmt("blocked by %d", failed_nr);
			p->res->failed++;
			continue;
		}
		w.sp = sp;
		w.tp = track_patch(p, sp->nr);
		w.item = new_item(p, sp);
		w.item->dep_of = dep_of[i];
		w.item->independent_of = failed_nr;
		if (w.tp && w.tp->nr_upstream)
			memcpy(w.item->upstream, w.tp->upstream[w.tp->nr_upstream - 1].commit, 41);
		sk_strbuf_init(&texts[queued]);
		step(p, "patch %d/%zu: %s", sp->nr, n, sp->subject);
		ret = port_one(p, &w, &texts[queued]);
		if (!ret && w.item->method != SK_PORT_FAILED) {
			struct sk_strbuf name = SK_STRBUF_INIT;

			sk_track_queue_name(&name, sp->subject);
			sk_strbuf_adds(&name, ".patch");
			w.item->file = sk_xstrdup(name.buf);
			names[queued++] = sk_strbuf_detach(&name);
		} else if (!ret && failed_nr) {
			/*
			 * It does not apply either, on a tree that lacks patch
			 * failed_nr: blocked by it, as a series applies in
			 * order; patch failed_nr's mail lists it.
			 */
			w.item->independent_of = 0;
			w.item->method = SK_PORT_BLOCKED;
			w.item->blocked_by = failed_nr;
			free(w.item->reason);
			w.item->reason = sk_xstrfmt("blocked by %d (it does not apply without "
						    "patch %d either)", failed_nr, failed_nr);
			free(w.item->failed_mail);
			w.item->failed_mail = NULL;
		} else if (!ret) {
			w.item->independent_of = 0;
			failed_nr = sp->nr;
		}
		release_work(&w);
	}
	if (!ret)
		step(p, "%zu patch%s queued: quilt push%s", queued,
		     queued == 1 ? "" : "es", p->kernel_tree && queued ?
		     " and the compile check" : "");
	if (!ret)
		ret = prove_and_install(p, names, texts, queued);
	while (ret == SK_ECONFLICT && p->compile_failed &&
	       (unqueue_independent(p, names, texts, &queued) ||
		blame_compile(p, names, texts, &queued))) {
		sk_error_clear();
		step(p, "the compile check failed: again with %zu patch%s",
		     queued, queued == 1 ? "" : "es");
		ret = prove_and_install(p, names, texts, queued);
	}
	for (i = 0; i < n; i++) {
		sk_strbuf_release(&texts[i]);
		free(names[i]);
	}
	free(texts);
	free(names);
	free(take);
	free(dep_of);
	return ret;
}

/*
 * A branch in a repository of its own (a tree imported from a release
 * tarball): its tip is there, the upstream commits in the project's
 * repository, which its object database gets as an alternate (in memory:
 * nothing is written to either repository).
 */
static int open_own_repo(struct port *p)
{
	const char *br_repo = p->tb->br->repo;
	char *path = br_repo[0] == '/' ? sk_xstrdup(br_repo) : sk_path_join(p->o->top, br_repo);
	char *objects = sk_path_join(git_repository_commondir(p->o->repo), "objects");
	git_odb *odb = NULL;
	int ret = 0;

	if (git_repository_open(&p->own_repo, path))
		ret = sk_error_git(SK_ENOTFOUND, path);
	else if (git_repository_odb(&odb, p->own_repo) ||
		 git_odb_add_disk_alternate(odb, objects))
		ret = sk_error_git(SK_ERROR, objects);
	if (!ret)
		p->repo = p->own_repo;
	git_odb_free(odb);
	free(objects);
	free(path);
	return ret;
}

static int setup(struct port *p)
{
	git_commit *tip = NULL;
	git_oid id;
	char *stable = sk_path_join(p->o->top, "stable");
	int ret;

	p->tb = &p->o->track->branches[p->o->branch];
	p->repo = p->o->repo;
	p->queue_dir = sk_path_join(stable, p->tb->br->name);
	p->res->queue = sk_xstrdup(p->queue_dir);
	free(stable);
	if (p->tb->problem)
		return sk_error_set(SK_ENOTFOUND, "cannot port to %s: %s",
				    p->tb->br->name, p->tb->problem);
	if (p->tb->br->repo && (ret = open_own_repo(p)))
		return ret;
	ret = 0;
	if (p->o->series)
		p->series = (struct sk_series *)p->o->series;
	else
		ret = sk_series_load(&p->series, p->o->top, p->o->slug);
	if (!ret && !(p->rev = sk_series_latest(p->series)))
		ret = sk_error_set(SK_ENOTFOUND, "series '%s' has no revision", p->o->slug);
	if (!ret && (git_oid_fromstr(&id, p->tb->tip) ||
		     git_commit_lookup(&tip, p->repo, &id)))
		ret = sk_error_git(SK_ERROR, p->tb->tip);
	if (!ret) {
		git_tree *tree = NULL;
		const char *missing;

		git_oid_cpy(&p->tip_tree, git_commit_tree_id(tip));
		if (!git_commit_tree(&tree, tip))
			p->kernel_tree = sk_build_kernel_tree(tree, &missing);
		git_tree_free(tree);
	}
	git_commit_free(tip);
	if (!ret)
		ret = read_queue(p);
	if (!ret)
		ret = sk_sandbox_attach_mempack(p->repo);
	if (!ret)
		ret = sk_sandbox_open(&p->sb, p->repo, &p->tip_tree,
				      sk_tmp_dir());
	if (!ret)
		ret = apply_other(p);
	if (ret)
		return ret;
	ret = sk_cocci_open(&p->cocci, p->o->top, p->o->slug);
	if (!ret)
		ret = sk_cocci_pick_target(&p->cocci, p->repo, &p->tip_tree);
	if (!ret) {
		p->have_cocci = 1;
		p->res->target = sk_xstrdup(p->cocci.target);
	} else if (ret == SK_ENOTFOUND && p->cocci.closest) {
		/* the rules are for other trees: none of them is used here */
		p->res->no_rules = sk_xstrdup(sk_error_last());
	}
	return ret == SK_ENOTFOUND ? 0 : ret;
}

int sk_port(struct sk_port_result *res, const struct sk_port_opts *o)
{
	struct port p = { 0 };
	int ret;

	memset(res, 0, sizeof(*res));
	p.o = o;
	p.res = res;
	sk_strbuf_init(&p.other);
	sk_strbuf_init(&p.compile_errors);
	ret = setup(&p);
	if (!ret)
		ret = port_all(&p);
	res->spatch_seconds = p.cocci.spatch_seconds;
	sk_cocci_release(&p.cocci);
	sk_sandbox_release(&p.sb);
	if (!o->series)
		sk_series_free(p.series);
	free(p.queue_dir);
	sk_strbuf_release(&p.other);
	sk_strvec_free_array(p.other_files, p.nr_other);
	sk_strbuf_release(&p.compile_errors);
	free(p.compile_what);
	if (p.defs)
		sk_defs_release(p.defs);
	free(p.defs);
	git_repository_free(p.own_repo);
	return ret;
}

void sk_port_result_release(struct sk_port_result *r)
{
	size_t i;

	for (i = 0; i < r->nr; i++) {
		free(r->items[i].subject);
		free(r->items[i].how);
		free(r->items[i].file);
		free(r->items[i].reason);
		free(r->items[i].failed_mail);
		free(r->items[i].kept);
		clear_hunks(&r->items[i]);
	}
	free(r->items);
	free(r->target);
	free(r->no_rules);
	free(r->compile);
	free(r->compile_verdict);
	sk_strvec_free_array(r->fragments, r->nr_fragments);
	free(r->queue);
	memset(r, 0, sizeof(*r));
}

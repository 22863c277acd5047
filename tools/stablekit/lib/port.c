#include "port.h"
#include "apply.h"
#include "cocci.h"
#include "error.h"
#include "fsutil.h"
#include "mbox.h"
#include "patch.h"
#include "quilt.h"
#include "sandbox.h"
#include "series.h"
#include "shquote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
};

const char *sk_port_method_name(enum sk_port_method m)
{
	return method_names[m];
}

/* Everything one port works on, released in one place. */
struct port {
	const struct sk_port_opts *o;
	struct sk_port_result *res;
	struct sk_track_branch *tb;
	struct sk_series *series;
	const struct sk_revision *rev;
	struct sk_sandbox sb;
	struct sk_cocci cocci;
	int have_cocci;
	git_oid tip_tree;
	char *queue_dir;		/* stable/<branch> */
	struct sk_strbuf other;		/* series file lines of other series */
	char **other_files;
	size_t nr_other;
};

/* A block of the series file: "# <slug>" then its patches. */
static int read_queue(struct port *p)
{
	char *series = sk_path_join(p->queue_dir, "series");
	struct sk_strbuf text = SK_STRBUF_INIT;
	const char *s;
	int ours = 0, ret = sk_read_file(&text, series);

	free(series);
	if (ret == SK_ENOTFOUND)
		ret = 0;
	for (s = text.buf; !ret && *s;) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);

		if (*s == '#' && len > 2)
			ours = len - 2 == strlen(p->o->slug) &&
			       !strncmp(s + 2, p->o->slug, len - 2);
		if (!ours) {
			sk_strbuf_add(&p->other, s, len);
			sk_strbuf_addch(&p->other, '\n');
			if (*s != '#' && len) {
				p->other_files = sk_xrealloc(p->other_files,
					(p->nr_other + 1) * sizeof(char *));
				p->other_files[p->nr_other++] = sk_xstrndup(s, strcspn(s, " \t\n"));
			}
		}
		s += len + (nl ? 1 : 0);
	}
	sk_strbuf_release(&text);
	return ret;
}

static int files_of(char ***out, size_t *nr, const char *diff, const char *what)
{
	*out = NULL;
	*nr = 0;
	return sk_diff_check(diff, what, 1, out, nr);
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
			sk_strv_free(files, nr);
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

struct work {
	const struct sk_series_patch *sp;
	struct sk_track_patch *tp;
	struct sk_port_item *item;
	char **diffs;			/* the patch, then its fixlets */
	char **keys;			/* "2", "2.fixlet1" */
	size_t nr;
	struct sk_apply_report rep;	/* of the offset/fuzz stage */
	struct sk_strbuf tried;		/* what was tried, for a failure */
};

static int load_diffs(struct port *p, struct work *w)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	size_t i;
	int ret;

	w->nr = 1 + w->sp->nr_fixlets;
	w->diffs = sk_xcalloc(w->nr, sizeof(char *));
	w->keys = sk_xcalloc(w->nr, sizeof(char *));
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
		sk_strv_free(files, nr);
	}
	return ret;
}

static int stage_clean(struct port *p, struct work *w)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < w->nr; i++)
		ret = sk_sandbox_apply_git(&p->sb, w->diffs[i]);
	if (ret)
		sk_strbuf_addf(&w->tried, "clean apply (libgit2): %s\n", sk_error_last());
	return ret;
}

static int stage_offset(struct port *p, struct work *w)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < w->nr; i++)
		ret = sk_apply_dir(&w->rep, p->sb.dir, w->diffs[i], SK_APPLY_FUZZ);
	if (!ret)
		ret = sk_sandbox_snapshot(&p->sb);
	if (ret) {
		sk_strbuf_addf(&w->tried, "offset and fuzz 1: %s\n",
			       ret == SK_ECONFLICT ? "hunks failed (below)" : sk_error_last());
		return ret;
	}
	{
		struct sk_strbuf how = SK_STRBUF_INIT;

		sk_apply_describe(&how, &w->rep);
		w->item->how = sk_strbuf_detach(&how);
		w->item->method = sk_apply_max_fuzz(&w->rep) ? SK_PORT_FUZZ : SK_PORT_OFFSET;
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
	return ret;
}

static int stage_rules(struct port *p, struct work *w)
{
	struct sk_strbuf how = SK_STRBUF_INIT;
	size_t i, j, dir_len = p->cocci.dir ? strlen(p->cocci.dir) : 0;
	int ret = 0;

	if (!p->have_cocci) {
		sk_strbuf_addf(&w->tried, "semantic patches: %s\n",
			       p->cocci.dir ? "no target of the manifest matches this tree" :
			       "the series has none");
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
			sk_strv_free(files, nr);
		}
		if (!ret)
			ret = sk_cocci_port_patch(&p->cocci, &p->sb, &spec, w->diffs[i],
						  p->o->timeout_ms);
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

static void note_line(struct sk_strbuf *out, const struct port *p,
		      const struct work *w)
{
	size_t i;

	for (i = 0; i < w->sp->nr_fixlets; i++)
		sk_strbuf_addf(out, "[ stablekit: includes the fixlet \"%s\" <%s> ]\n",
			       w->sp->fixlets[i].subject, w->sp->fixlets[i].message_id);
	if (w->item->how && *w->item->how)
		sk_strbuf_addf(out, "[ stablekit: %s%s ]\n",
			       w->item->method == SK_PORT_OFFSET ? "applied with " :
			       w->item->method == SK_PORT_FUZZ ? "applied with " : "",
			       w->item->how);
	else if (w->item->method == SK_PORT_THREEWAY)
		sk_strbuf_adds(out, "[ stablekit: three-way merge of the upstream commit ]\n");
	(void)p;
}

static void compose(struct sk_strbuf *out, const struct port *p,
		    const struct work *w, const struct sk_patch *mail,
		    const char *diff)
{
	size_t i;

	sk_strbuf_addf(out, "From: %s\n", mail->author);
	sk_strbuf_addf(out, "Date: %s\n", mail->date);
	sk_strbuf_addf(out, "Subject: %s\n\n", mail->subj.title);
	upstream_line(out, p, w);
	sk_strbuf_adds(out, mail->message);
	sk_strbuf_adds(out, "\n\n");
	for (i = 0; i < mail->nr_trailers; i++)
		sk_strbuf_addf(out, "%s: %s\n", mail->trailers[i].key,
			       mail->trailers[i].value);
	if (w->item->dep_of) {
		const struct sk_series_patch *d = NULL;
		size_t k;

		for (k = 0; k < p->rev->nr_patches; k++)
			if (p->rev->patches[k].nr == w->item->dep_of)
				d = &p->rev->patches[k];
		if (d)
			sk_strbuf_addf(out, "Stable-dep-of: %.12s (\"%s\")\n",
				       *w->item->upstream ? w->item->upstream : d->patch_id,
				       d->subject);
	}
	note_line(out, p, w);
	if (p->o->signoff)
		sk_strbuf_addf(out, "Signed-off-by: %s\n", p->o->signoff);
	/* quilt refresh --diffstat writes the "---" and the diffstat */
	sk_strbuf_addch(out, '\n');
	sk_strbuf_adds(out, diff);
}

static void command(struct sk_strbuf *out, const char *const *argv)
{
	size_t nr = 0;

	while (argv[nr])
		nr++;
	sk_shell_argv(out, argv, nr);
}

void sk_port_failed_commands(struct sk_strbuf *out, const char *tip,
			     const char *upstream, const char *message_id,
			     int major, int minor)
{
	char *reply_to = sk_xstrfmt("<%s>", message_id);
	char *prefix = sk_xstrfmt("PATCH %d.%d.y", major, minor);

	command(out, (const char *const[]){ "git", "checkout", tip, NULL });
	sk_strbuf_addch(out, '\n');
	if (upstream && *upstream) {
		command(out, (const char *const[]){ "git", "cherry-pick", "-x",
						    upstream, NULL });
	} else {
		/* "--": a Message-Id may start with '-' */
		command(out, (const char *const[]){ "b4", "am", "-o", "-", "--",
						    message_id, NULL });
		sk_strbuf_adds(out, " | ");
		command(out, (const char *const[]){ "git", "am", "-3", NULL });
	}
	sk_strbuf_adds(out, "\n# <resolve conflicts, build, test, etc.>\n");
	command(out, (const char *const[]){ "git", "commit", "-s", NULL });
	sk_strbuf_addch(out, '\n');
	command(out, (const char *const[]){ "git", "send-email", "--to",
		"<stable@vger.kernel.org>", "--in-reply-to", reply_to,
		"--subject-prefix", prefix, "HEAD^..", NULL });
	sk_strbuf_addch(out, '\n');
	free(reply_to);
	free(prefix);
}

static void failed_mail(struct sk_strbuf *out, const struct port *p,
			const struct work *w)
{
	const struct sk_branch *br = p->tb->br;
	size_t i;

	sk_strbuf_addf(out, "Subject: FAILED: patch \"%s\" failed to apply to %d.%d-stable tree\n",
		       w->sp->subject, br->major, br->minor);
	sk_strbuf_addf(out, "To: %s\nCc: stable@vger.kernel.org\n\n", w->sp->author);
	sk_strbuf_addf(out, "The patch below does not apply to the %d.%d-stable tree (%s).\n"
		       "If someone wants it applied there, or to any other stable or longterm\n"
		       "tree, then please email the backport, including the original git commit\n"
		       "id to <stable@vger.kernel.org>.\n\n", br->major, br->minor, br->name);
	sk_strbuf_adds(out, "To reproduce the conflict and resubmit, you may use the following commands:\n\n");
	sk_port_failed_commands(out, p->tb->tip, w->item->upstream,
				w->sp->message_id, br->major, br->minor);
	sk_strbuf_addch(out, '\n');
	sk_strbuf_adds(out, "Possible dependencies:\n\n");
	for (i = 0; i < p->rev->nr_patches && p->rev->patches[i].nr < w->sp->nr; i++)
		sk_strbuf_addf(out, "%s (\"%s\")\n", p->rev->patches[i].message_id,
			       p->rev->patches[i].subject);
	sk_strbuf_adds(out, "\nWhat was tried:\n\n");
	sk_strbuf_add(out, w->tried.buf, w->tried.len);
	for (i = 0; i < w->rep.nr; i++) {
		const struct sk_hunk_report *h = &w->rep.hunks[i];

		if (h->applied)
			continue;
		sk_strbuf_addf(out, "\n%s hunk %d (%s), expected at line %ld; the tree has:\n%s",
			       h->path, h->nr, h->funcname ? h->funcname : "file top",
			       h->want_line, h->met ? h->met : "");
	}
	sk_strbuf_addf(out, "\n------------------ original patch ------------------\n");
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

		w->item->method = SK_PORT_FAILED;
		w->item->reason = sk_xstrdup("no method carries it: see the FAILED mail");
		failed_mail(&mail, p, w);
		if (!sk_series_patch_mail(&orig, p->series, p->rev, w->sp->nr))
			sk_strbuf_add(&mail, orig.buf, orig.len);
		w->item->failed_mail = sk_strbuf_detach(&mail);
		sk_strbuf_release(&orig);
		p->res->failed++;
		return sk_sandbox_reset(&p->sb, &start);
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
		if (!ret)
			ret = sk_write_file_atomic(path, it->failed_mail, strlen(it->failed_mail));
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
	sk_strv_free(w->diffs, w->nr);
	sk_strv_free(w->keys, w->nr);
	sk_apply_report_release(&w->rep);
	sk_strbuf_release(&w->tried);
}

static int port_all(struct port *p)
{
	size_t n = p->rev->nr_patches, i, queued = 0;
	int *take = sk_xcalloc(n + 1, sizeof(int)), *dep_of = sk_xcalloc(n + 1, sizeof(int));
	struct sk_strbuf *texts = sk_xcalloc(n + 1, sizeof(*texts));
	char **names = sk_xcalloc(n + 1, sizeof(char *));
	int ret = 0;

	select_patches(p, take, dep_of);
	for (i = 0; !ret && i < n; i++) {
		const struct sk_series_patch *sp = &p->rev->patches[i];
		struct work w = { 0 };

		if (!take[i]) {
			skip_item(p, sp);
			continue;
		}
		w.sp = sp;
		w.tp = track_patch(p, sp->nr);
		w.item = new_item(p, sp);
		w.item->dep_of = dep_of[i];
		if (w.tp && w.tp->nr_upstream)
			memcpy(w.item->upstream, w.tp->upstream[w.tp->nr_upstream - 1].commit, 41);
		sk_strbuf_init(&texts[queued]);
		ret = port_one(p, &w, &texts[queued]);
		if (!ret && w.item->method != SK_PORT_FAILED) {
			struct sk_strbuf name = SK_STRBUF_INIT;

			sk_track_queue_name(&name, sp->subject);
			sk_strbuf_adds(&name, ".patch");
			w.item->file = sk_xstrdup(name.buf);
			names[queued++] = sk_strbuf_detach(&name);
		}
		release_work(&w);
	}
	if (!ret)
		ret = prove_and_install(p, names, texts, queued);
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

static int setup(struct port *p)
{
	git_commit *tip = NULL;
	git_oid id;
	char *stable = sk_path_join(p->o->top, "stable");
	int ret;

	p->tb = &p->o->track->branches[p->o->branch];
	p->queue_dir = sk_path_join(stable, p->tb->br->name);
	p->res->queue = sk_xstrdup(p->queue_dir);
	free(stable);
	if (p->tb->problem)
		return sk_error_set(SK_ENOTFOUND, "cannot port to %s: %s",
				    p->tb->br->name, p->tb->problem);
	ret = sk_series_load(&p->series, p->o->top, p->o->slug);
	if (!ret && !(p->rev = sk_series_latest(p->series)))
		ret = sk_error_set(SK_ENOTFOUND, "series '%s' has no revision", p->o->slug);
	if (!ret && (git_oid_fromstr(&id, p->tb->tip) ||
		     git_commit_lookup(&tip, p->o->repo, &id)))
		ret = sk_error_git(SK_ERROR, p->tb->tip);
	if (!ret)
		git_oid_cpy(&p->tip_tree, git_commit_tree_id(tip));
	git_commit_free(tip);
	if (!ret)
		ret = read_queue(p);
	if (!ret)
		ret = sk_sandbox_attach_mempack(p->o->repo);
	if (!ret)
		ret = sk_sandbox_open(&p->sb, p->o->repo, &p->tip_tree,
				      sk_tmp_dir());
	if (!ret)
		ret = apply_other(p);
	if (ret)
		return ret;
	ret = sk_cocci_open(&p->cocci, p->o->top, p->o->slug);
	if (!ret)
		ret = sk_cocci_pick_target(&p->cocci, p->o->repo, &p->tip_tree);
	if (!ret) {
		p->have_cocci = 1;
		p->res->target = sk_xstrdup(p->cocci.target);
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
	ret = setup(&p);
	if (!ret)
		ret = port_all(&p);
	res->spatch_seconds = p.cocci.spatch_seconds;
	sk_cocci_release(&p.cocci);
	sk_sandbox_release(&p.sb);
	sk_series_free(p.series);
	free(p.queue_dir);
	sk_strbuf_release(&p.other);
	sk_strv_free(p.other_files, p.nr_other);
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
	}
	free(r->items);
	free(r->target);
	free(r->queue);
	memset(r, 0, sizeof(*r));
}

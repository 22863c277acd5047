#include "port/port-internal.h"
#include "project/branches.h"
#include "core/error.h"
#include "core/gitconfig.h"
#include "core/fsutil.h"
#include "mail/maintainers.h"
#include "project/repo.h"
#include "core/shquote.h"
#include "core/diff.h"
#include "core/utf8.h"
#include "port/preimage.h"

#include <ctype.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- what the target has where a hunk failed (the FAILED mail) ---- */

static int is_ident(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The name an @@ line names (see sk_apply_def_name), or 0. */
static size_t hunk_name(const char *funcname, const char **name)
{
	while (funcname && (*funcname == ' ' || *funcname == '\t'))
		funcname++;
	return funcname ? sk_apply_def_name(funcname, name) : 0;
}

/* Does line contain name as a whole word (its column, or -1)? */
static long word_at(const char *line, const char *name, size_t n)
{
	const char *p = line;

	while ((p = strstr(p, name))) {
		if ((p == line || !is_ident(p[-1])) && !is_ident(p[n]))
			return p - line;
		p++;
	}
	return -1;
}

struct text_lines {
	struct sk_strbuf text;
	char **v;
	size_t nr;
};

/* Cut l->text into l->v. */
static void split_text(struct text_lines *l)
{
	char *s;

	for (s = l->text.buf; s && *s;) {
		char *nl = strchr(s, '\n');

		l->v = sk_xrealloc(l->v, (l->nr + 1) * sizeof(char *));
		l->v[l->nr++] = s;
		if (!nl)
			break;
		*nl = '\0';
		s = nl + 1;
	}
}

/* SK_ENOTFOUND when the file is absent. */
static int read_lines(struct text_lines *l, const char *dir, const char *path)
{
	char *full = sk_path_join(dir, path);
	int ret;

	memset(l, 0, sizeof(*l));
	sk_strbuf_init(&l->text);
	ret = sk_read_file(&l->text, full);
	free(full);
	if (ret)
		return ret;
	split_text(l);
	return 0;
}

/* path as the branch's tip has it (the sandbox holds only the queue's files). */
static int read_tree_lines(struct text_lines *l, struct port *p, const char *path)
{
	int ret;

	memset(l, 0, sizeof(*l));
	sk_strbuf_init(&l->text);
	ret = sk_defs_read(&l->text, p->repo, &p->tip_tree, path);
	if (ret) {
		sk_strbuf_release(&l->text);
		return ret;
	}
	split_text(l);
	return 0;
}

static void text_lines_release(struct text_lines *l)
{
	sk_strbuf_release(&l->text);
	free(l->v);
}

/* The line where the definition of name starts, or -1. */
static long find_def(const struct text_lines *l, const char *name, size_t n)
{
	return sk_preimage_def_line((const char *const *)l->v, l->nr, name, n);
}

/* The line of the closing brace of the definition at at (or at itself). */
static size_t def_end(const struct text_lines *l, size_t at)
{
	size_t end = at;

	if (strchr(l->v[at], ';') && !strchr(l->v[at], '{'))
		return at;
	while (end < l->nr && (end == at || (l->v[end][0] != '}')))
		end++;
	return end < l->nr ? end : l->nr - 1;
}

/* Where in [at, end] the most of the hunk's preimage lines are (0-based). */
static size_t conflict_at(const struct text_lines *l, size_t at, size_t end,
			  const struct sk_diff_hunk *dh)
{
	size_t best = at, best_n = 0, i, k;

	for (i = at; dh && i <= end; i++) {
		size_t n = 0, j = i;

		for (k = 0; k < dh->nr_lines && j <= end; k++) {
			if (dh->lines[k].origin == '+')
				continue;
			n += !strcmp(l->v[j], dh->lines[k].text);
			j++;
		}
		if (n > best_n) {
			best = i;
			best_n = n;
		}
	}
	return best;
}

#define SHOW_WHOLE 80
#define SHOW_AROUND 12

static void show_lines(struct sk_strbuf *out, const struct text_lines *l, size_t from,
		       size_t to)
{
	size_t i;

	for (i = from; i <= to && i < l->nr; i++)
		sk_strbuf_addf(out, "  %5zu  %s\n", i + 1, l->v[i]);
}

/*
 * The definition, with line numbers: whole when short, else its head and
 * the lines around where the hunk's preimage best matches (never cut
 * before them), then its end.
 */
static void show_def(struct sk_strbuf *out, const struct text_lines *l, long at,
		     const struct sk_diff_hunk *dh)
{
	size_t end = def_end(l, (size_t)at), c, from, to;

	if (end - (size_t)at < SHOW_WHOLE) {
		show_lines(out, l, (size_t)at, end);
		return;
	}
	c = conflict_at(l, (size_t)at, end, dh);
	from = c > (size_t)at + 3 + SHOW_AROUND ? c - SHOW_AROUND : (size_t)at;
	to = c + (dh ? dh->nr_lines : 0) + SHOW_AROUND;
	if (to + 3 >= end)
		to = end;
	show_lines(out, l, (size_t)at, from > (size_t)at ? (size_t)at + 2 : (size_t)at);
	if (from > (size_t)at + 3)
		sk_strbuf_addf(out, "  [... lines %zu-%zu ...]\n", (size_t)at + 4, from);
	show_lines(out, l, from > (size_t)at + 3 ? from : (size_t)at + 3, to);
	if (to < end) {
		sk_strbuf_addf(out, "  [... lines %zu-%zu ...]\n", to + 2, end);
		show_lines(out, l, end, end);
	}
}

/* The tip's definition index, built once per port (the core and the patch's folders). */
static const struct sk_defs *defs_of(struct port *p, const char *path)
{
	char *under[] = { "include/", "mm/", "kernel/", "lib/", "fs/", "block/",
			  "arch/x86/", NULL };
	const char *slash = strrchr(path, '/');

	if (p->defs)
		return p->defs;
	p->defs = sk_xcalloc(1, sizeof(*p->defs));
	under[7] = slash ? sk_xstrndup(path, (size_t)(slash - path) + 1) : NULL;
	if (sk_defs_index(p->defs, p->repo, &p->tip_tree, under, under[7] ? 8 : 7))
		sk_error_clear();
	free(under[7]);
	return p->defs;
}

/* Up to 3 names the tree defines nearest to name, with where. */
static void nearest(struct sk_strbuf *out, struct port *p, const char *path,
		    const char *name, size_t n)
{
	const struct sk_defs *d = defs_of(p, path);
	size_t idx[3], k, nr = sk_defs_nearest(d, name, n, idx, 3);

	for (k = 0; k < nr; k++)
		sk_strbuf_addf(out, "  nearest name: %s (%s:%ld)\n", d->v[idx[k]].name,
			       d->v[idx[k]].path, d->v[idx[k]].line);
	if (!nr)
		sk_strbuf_addf(out, "  no similar name is defined in the %zu files searched\n",
			       d->files);
}

/* name where the index has it, shown from there; 0 when it has none. */
static int show_elsewhere(struct sk_strbuf *out, struct port *p, const char *path,
			  const char *name, size_t n, const struct sk_diff_hunk *dh)
{
	const struct sk_defs *d = defs_of(p, path);
	size_t first, nr = sk_defs_find(d, name, n, &first), k;
	struct text_lines l;

	if (!nr)
		return 0;
	for (k = 0; k < nr; k++)
		sk_strbuf_addf(out, "  %.*s is defined in %s:%ld\n", (int)n, name,
			       d->v[first + k].path, d->v[first + k].line);
	if (!read_tree_lines(&l, p, d->v[first].path)) {
		if (d->v[first].line - 1 < (long)l.nr) {
			sk_strbuf_addf(out, "  the tree's %.*s, %s:%ld:\n", (int)n, name,
				       d->v[first].path, d->v[first].line);
			show_def(out, &l, d->v[first].line - 1, dh);
		}
		text_lines_release(&l);
	}
	sk_error_clear();
	return 1;
}

/*
 * Where the hunk's preimage lines are now, when the definition it changes
 * is gone: in its file (file, as the sandbox has it), else (file NULL: it
 * is gone too) in its folder of the branch's tree; with that definition
 * shown.
 */
static void gone_lines(struct sk_strbuf *out, struct port *p, const char *path,
		       const struct sk_diff_hunk *dh, const struct text_lines *file)
{
	struct sk_preimage_place pl;
	struct text_lines other;
	const struct text_lines *l = file;
	int found;

	if (!dh)
		return;
	found = file ? sk_preimage_find_lines(&pl, path, (const char *const *)file->v,
					      file->nr, dh) :
		sk_preimage_find_tree(&pl, p->repo, &p->tip_tree, path, dh);
	if (found <= 0) {
		sk_error_clear();
		return;
	}
	sk_strbuf_addf(out, "  the hunk's lines are in %s now: %zu of its %zu distinctive preimage lines at %s:%ld\n",
		       pl.def ? pl.def : "no definition (the top level)", pl.matched,
		       pl.distinctive, pl.path, pl.line);
	if (!l && !read_tree_lines(&other, p, pl.path))
		l = &other;
	if (l) {
		long at = pl.def ? pl.def_line - 1 : pl.line - 1;

		sk_strbuf_addf(out, "  the tree's %s, %s:%ld:\n", pl.def ? pl.def : "lines",
			       pl.path, at + 1);
		if (pl.def)
			show_def(out, l, at, dh);
		else
			show_lines(out, l, (size_t)at, (size_t)at + 7);
	}
	if (l == &other)
		text_lines_release(&other);
	sk_error_clear();
	sk_preimage_place_release(&pl);
}

/* The hunk of the diff text the report is about (file path, nr-th). */
static const struct sk_diff_hunk *diff_hunk(const struct sk_diff *d, const char *path, int nr)
{
	size_t f;

	for (f = 0; f < d->nr; f++) {
		const char *fp = d->files[f].new_path ? d->files[f].new_path : d->files[f].old_path;

		if (fp && !strcmp(fp, path) && nr >= 1 && (size_t)nr <= d->files[f].nr_hunks)
			return &d->files[f].hunks[nr - 1];
	}
	return NULL;
}

/*
 * One failed hunk: the definition it changes (from its own lines, else its
 * @@ line) as the target has it, with line numbers; where it lives now when
 * its file lacks it; the nearest names when the tree lacks it.
 */
static void failed_hunk(struct sk_strbuf *out, struct port *p, const char *key,
			const char *diff, const struct sk_hunk_report *h)
{
	struct text_lines l;
	struct sk_diff d;
	const struct sk_diff_hunk *dh = NULL;
	const char *name = h->changes;
	size_t n = name ? strlen(name) : hunk_name(h->funcname, &name);
	long at;
	int have_file;

	if (sk_diff_parse(&d, diff, strlen(diff), key, 1, 0)) {
		sk_error_clear();
		memset(&d, 0, sizeof(d));
	}
	dh = diff_hunk(&d, h->path, h->nr);
	sk_strbuf_addf(out, "\n%s hunk %d of patch %s", h->path, h->nr, key);
	if (n)
		sk_strbuf_addf(out, " (changes %.*s)", (int)n, name);
	else if (h->funcname)
		sk_strbuf_addf(out, " (@@ %s)", h->funcname);
	sk_strbuf_adds(out, ":\n");
	have_file = !h->absent && !read_lines(&l, p->sb.dir, h->path);
	if (!have_file) {
		sk_error_clear();
		sk_strbuf_addf(out, "  %s is absent in this tree\n", h->path);
		if (!n || !show_elsewhere(out, p, h->path, name, n, dh)) {
			if (n)
				sk_strbuf_addf(out, "  %.*s is absent in this tree too\n",
					       (int)n, name);
			gone_lines(out, p, h->path, dh, NULL);
			if (n)
				nearest(out, p, h->path, name, n);
		}
		sk_diff_release(&d);
		return;
	}
	if (!n) {
		sk_strbuf_addf(out, "  the context at line %ld is not there; the tree has:\n",
			       h->want_line);
		at = h->want_line - 1 >= 0 ? h->want_line - 1 : 0;
		show_lines(out, &l, (size_t)at, (size_t)at + 7);
	} else if ((at = find_def(&l, name, n)) >= 0) {
		sk_strbuf_addf(out, "  the tree's %.*s, %s:%ld (the hunk's context is not in it):\n",
			       (int)n, name, h->path, at + 1);
		show_def(out, &l, at, dh);
	} else if (!show_elsewhere(out, p, h->path, name, n, dh)) {
		sk_strbuf_addf(out, "  %.*s is absent in this tree (%zu files searched)\n", (int)n,
			       name, defs_of(p, h->path)->files);
		gone_lines(out, p, h->path, dh, &l);
		nearest(out, p, h->path, name, n);
	}
	text_lines_release(&l);
	sk_diff_release(&d);
}

/* ---- prerequisites: semantic-patches/<slug>/prerequisites.conf ---- */

struct prereq_ctx {
	struct port *p;
	const struct work *w;
	struct sk_strbuf *out;
	git_config *cfg;
	size_t n;
};

static int diff_uses(const struct work *w, const char *sym)
{
	size_t i, n = strlen(sym);
	const char *s;

	for (i = 0; i < w->nr; i++)
		for (s = w->diffs[i]; (s = strstr(s, sym)); s++)
			if ((s == w->diffs[i] || !is_ident(s[-1])) && !is_ident(s[n]))
				return 1;
	return 0;
}

/* Is sym in the target's file (checked out into the sandbox)? */
static int tree_has(struct port *p, const char *file, const char *sym)
{
	struct text_lines l;
	size_t i;
	int found = 0;

	if (sk_sandbox_checkout(&p->sb, (char *const[]){ (char *)file }, 1) ||
	    read_lines(&l, p->sb.dir, file)) {
		sk_error_clear();
		return 0;
	}
	for (i = 0; !found && i < l.nr; i++)
		found = word_at(l.v[i], sym, strlen(sym)) >= 0;
	text_lines_release(&l);
	return found;
}

static int prereq_one(const git_config_entry *e, void *data)
{
	struct prereq_ctx *c = data;
	size_t len = strlen(e->name);
	char *sym, *file, *change, *release, *commit;

	/* one visit per section: at its "file" key */
	if (strncmp(e->name, "prerequisite.", 13) || len < 19 ||
	    strcmp(e->name + len - 5, ".file"))
		return 0;
	sym = sk_xstrndup(e->name + 13, len - 18);
	if (!diff_uses(c->w, sym) || tree_has(c->p, e->value, sym)) {
		free(sym);
		return 0;
	}
	file = sk_xstrdup(e->value);
	change = sk_config_strf(c->cfg, "prerequisite.%s.change", sym);
	release = sk_config_strf(c->cfg, "prerequisite.%s.release", sym);
	commit = sk_config_strf(c->cfg, "prerequisite.%s.commit", sym);
	if (!c->n++)
		sk_strbuf_adds(c->out, "\nUpstream changes this patch may depend on (it uses what they\n"
			       "introduced, and this tree lacks it; from the series' API notes):\n\n");
	sk_strbuf_addf(c->out, "  %s (absent in %s): %s%s%s%s%s%s\n", sym, file,
		       commit ? commit : "", commit ? " " : "",
		       change ? change : "the change that introduced it",
		       release ? " (" : "", release ? release : "", release ? ")" : "");
	free(sym);
	free(file);
	free(change);
	free(release);
	free(commit);
	return 0;
}

static void prerequisites(struct sk_strbuf *out, struct port *p,
			  const struct work *w)
{
	struct prereq_ctx c = { p, w, out, NULL, 0 };
	char *path;

	if (!p->cocci.dir)
		return;
	path = sk_path_join(p->cocci.dir, "prerequisites.conf");
	if (sk_path_exists(path) && !sk_gitconfig_check(path) &&
	    !git_config_open_ondisk(&c.cfg, path))
		git_config_foreach(c.cfg, prereq_one, &c);
	sk_error_clear();
	git_config_free(c.cfg);
	free(path);
}

/*
 * The later patches of the series and what became of them once patch nr
 * failed: blocked, or queued because the compile check proved them
 * independent.  Known only when every patch was tried.
 */
void sk_port_blocked_list(struct sk_strbuf *out, const struct sk_port_result *r, int nr)
{
	size_t i, n = 0, k = 0;

	for (i = 0; i < r->nr; i++) {
		const struct sk_port_item *it = &r->items[i];

		if (it->blocked_by != nr)
			continue;
		if (!n++)
			sk_strbuf_adds(out, "\nNot ported because this patch failed (a series applies in order):\n\n");
		sk_strbuf_addf(out, "  patch %d \"%s\": %s\n", it->nr, it->subject, it->reason);
	}
	for (i = 0; i < r->nr; i++) {
		const struct sk_port_item *it = &r->items[i];

		if (it->independent_of != nr)
			continue;
		if (!k++)
			sk_strbuf_adds(out, "\nPorted without this patch (the queue without it compiles):\n\n");
		sk_strbuf_addf(out, "  patch %d \"%s\"\n", it->nr, it->subject);
	}
}

/* Who gets the mail: stable as the stable rules say; downstream its owners. */
static void address(struct sk_strbuf *out, const struct port *p,
		    const struct work *w)
{
	const struct sk_branch *br = p->tb->br;
	struct sk_maintainers m = { 0 };
	struct sk_recipients r = { 0 };
	char *mpath, *queue;
	size_t i;

	/* header values from data are made one line: no header is forged */
	if (br->kind != SK_BRANCH_DOWNSTREAM) {
		sk_strbuf_adds(out, "Subject: FAILED: patch \"");
		sk_utf8_add_one_line(out, w->sp->subject);
		sk_strbuf_addf(out, "\" failed to apply to %d.%d-stable tree\n",
			       br->major, br->minor);
		sk_strbuf_adds(out, "To: ");
		sk_utf8_add_one_line(out, w->sp->author);
		sk_strbuf_adds(out, "\nCc: stable@vger.kernel.org\n\n");
		sk_strbuf_addf(out, "The patch below does not apply to the %d.%d-stable tree (%s).\n"
			       "If someone wants it applied there, or to any other stable or longterm\n"
			       "tree, then please email the backport, including the original git commit\n"
			       "id to <stable@vger.kernel.org>.\n\n", br->major, br->minor, br->name);
		return;
	}
	mpath = sk_path_join(p->o->top, "MAINTAINERS");
	queue = sk_xstrfmt("stable/%s/series", br->name);
	if (!sk_maintainers_load(&m, mpath))
		sk_maintainers_recipients(&r, &m, (const char *const[]){ queue }, 1);
	sk_error_clear();
	sk_strbuf_adds(out, "Subject: FAILED: patch \"");
	sk_utf8_add_one_line(out, w->sp->subject);
	sk_strbuf_addf(out, "\" failed to port to %s\n", br->name);
	sk_strbuf_adds(out, "To: ");
	for (i = 0; i < r.nr_to; i++) {
		sk_strbuf_adds(out, i ? ", " : "");
		sk_utf8_add_one_line(out, r.to[i]);
	}
	if (!r.nr_to)
		sk_utf8_add_one_line(out, p->o->signoff ? p->o->signoff :
				     w->sp->author);
	sk_strbuf_adds(out, "\nCc: ");
	sk_utf8_add_one_line(out, w->sp->author);
	sk_strbuf_adds(out, "\n\n");
	sk_strbuf_addf(out, "The patch below does not port to %s, a downstream branch that\n"
		       "takes the series %s (stable/branches.conf).\n\n", br->name, p->o->slug);
	sk_recipients_release(&r);
	sk_maintainers_release(&m);
	free(queue);
	free(mpath);
}

static void offline_commands(struct sk_strbuf *out, const struct port *p)
{
	sk_strbuf_adds(out, "To see the failed hunks in the branch's files, with .rej files (offline,\n"
		       "from this project):\n\n");
	command(out, (const char *const[]){ "stablekit", "port", p->o->slug, "--branch",
					    p->tb->br->name, "--keep", NULL });
	sk_strbuf_adds(out, "\n\n");
}

void sk_port_failed_mail(struct sk_strbuf *out, struct port *p,
			 const struct work *w)
{
	const struct sk_branch *br = p->tb->br;
	size_t i, k;

	address(out, p, w);
	for (i = 0; i < w->sp->nr_fixlets; i++)
		sk_strbuf_addf(out, "It includes the fixlet \"%s\" <%s> (patch %s).\n%s",
			       w->sp->fixlets[i].subject, w->sp->fixlets[i].message_id,
			       w->keys[i + 1], i + 1 == w->sp->nr_fixlets ? "\n" : "");
	offline_commands(out, p);
	if (br->kind != SK_BRANCH_DOWNSTREAM) {
		sk_strbuf_adds(out, "To reproduce the conflict and resubmit, you may use the following commands:\n\n");
		sk_port_failed_commands(out, p->tb->tip, w->item->upstream,
					w->sp->message_id, br->major, br->minor);
		sk_strbuf_addch(out, '\n');
	}
	sk_strbuf_adds(out, "Possible dependencies:\n\n");
	for (i = 0; i < p->rev->nr_patches && p->rev->patches[i].nr < w->sp->nr; i++)
		sk_strbuf_addf(out, "%s (\"%s\")\n", p->rev->patches[i].message_id,
			       p->rev->patches[i].subject);
	if (!i)
		sk_strbuf_adds(out, "none earlier in the series\n");
	prerequisites(out, p, w);
	w->item->blocked_at = out->len;
	sk_strbuf_adds(out, "\nWhat was tried:\n\n");
	sk_strbuf_add(out, w->tried.buf, w->tried.len);
	sk_strbuf_adds(out, "\nThe hunks that do not apply, and what this tree has instead:\n");
	for (k = 0; k < w->nr; k++)
		for (i = 0; i < w->reps[k].nr; i++)
			if (!w->reps[k].hunks[i].applied)
				failed_hunk(out, p, w->keys[k], w->diffs[k],
					    &w->reps[k].hunks[i]);
	sk_strbuf_addf(out, "\n------------------ original patch ------------------\n");
}


/* ---- the FAILED mail of a patch the compile check refused ---- */

/* The hunk of file whose new lines are nearest to line, or NULL. */
static const struct sk_diff_hunk *hunk_near(const struct sk_diff *d, const char *file,
					    long line)
{
	const struct sk_diff_hunk *best = NULL;
	long best_d = 0;
	size_t f, k;

	for (f = 0; f < d->nr; f++) {
		if (!d->files[f].new_path || strcmp(d->files[f].new_path, file))
			continue;
		for (k = 0; k < d->files[f].nr_hunks; k++) {
			const struct sk_diff_hunk *h = &d->files[f].hunks[k];
			long dist = line < h->new_start ? h->new_start - line :
				    line >= h->new_start + h->new_count ?
				    line - (h->new_start + h->new_count) + 1 : 0;

			if (!best || dist < best_d) {
				best = h;
				best_d = dist;
			}
		}
	}
	return best;
}

/* One "file:line:col: error: msg" line, at the hunk nearest to it. */
static void error_at_hunk(struct sk_strbuf *out, const struct sk_diff *d,
			  const char *diff, const char *err)
{
	char *file = sk_xstrndup(err, strcspn(err, ":"));
	long line = strtol(err + strlen(file) + (err[strlen(file)] ? 1 : 0), NULL, 10);
	const struct sk_diff_hunk *h = hunk_near(d, file, line);

	sk_strbuf_addf(out, "\n  %s\n", err);
	if (h) {
		sk_strbuf_addf(out, "  at this hunk of the patch (%s, new lines %ld-%ld):\n\n",
			       file, h->new_start, h->new_start + h->new_count - 1);
		sk_strbuf_add(out, diff + h->begin, h->end - h->begin);
	} else {
		sk_strbuf_addf(out, "  (the patch does not change %s: what it changes breaks "
			       "code that uses it)\n", file);
	}
	free(file);
}

void sk_port_compile_mail(struct sk_strbuf *out, struct port *p,
			  const struct sk_series_patch *sp, struct sk_port_item *it,
			  const char *patch_text)
{
	const struct sk_branch *br = p->tb->br;
	struct work w = { 0 };
	struct sk_diff d;
	const char *diff = strstr(patch_text, "\ndiff --git ");
	const char *e;

	w.sp = sp;
	w.item = it;
	address(out, p, &w);
	offline_commands(out, p);
	if (br->kind != SK_BRANCH_DOWNSTREAM) {
		sk_strbuf_adds(out, "To reproduce the conflict and resubmit, you may use the following commands:\n\n");
		sk_port_failed_commands(out, p->tb->tip, it->upstream, sp->message_id,
					br->major, br->minor);
		sk_strbuf_addch(out, '\n');
	}
	it->blocked_at = out->len;
	sk_strbuf_addf(out, "\nWhat was tried:\n\nthe patch applies (%s) and the queue pushes with "
		       "quilt, but the queue does not compile with it (compile check: %s).\n",
		       sk_port_method_name(it->method),
		       p->compile_what ? p->compile_what : "x86_64");
	sk_strbuf_adds(out, "\nThe compiler's messages, each at the hunk nearest to it:\n");
	diff = diff ? diff + 1 : patch_text;
	if (sk_diff_parse(&d, diff, strlen(diff), "the queued patch", 1, 0)) {
		sk_error_clear();
		memset(&d, 0, sizeof(d));
	}
	for (e = p->compile_errors.buf; e && *e;) {
		const char *nl = strchr(e, '\n');
		char *one = sk_xstrndup(e, nl ? (size_t)(nl - e) : strlen(e));
		char *t = one + strspn(one, " ");

		if (*t)
			error_at_hunk(out, &d, diff, t);
		free(one);
		e = nl ? nl + 1 : NULL;
	}
	sk_diff_release(&d);
	sk_strbuf_addf(out, "\n------------------ original patch ------------------\n");
}

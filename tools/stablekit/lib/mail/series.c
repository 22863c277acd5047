#include "mail/series.h"
#include "core/confwriter.h"
#include "core/error.h"
#include "core/gitconfig.h"
#include "core/fsutil.h"
#include "mail/mbox.h"
#include "core/names.h"
#include "mail/patch.h"
#include "mail/trailers.h"
#include "core/strvec.h"
#include "core/utf8.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define CONF_NAME "series.conf"

int sk_series_names(char ***out, size_t *nr, const char *top)
{
	char *root = sk_path_join(top, "series");
	size_t alloc = 0;
	struct dirent *e;
	DIR *d;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	d = opendir(root);
	if (!d) {
		ret = errno == ENOENT ? 0 : sk_error_errno(root);
		free(root);
		return ret;
	}
	while (!ret && (e = readdir(d))) {
		char *dir, *conf;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    !strncmp(e->d_name, ".pull-", 6))
			continue;	/* a pull in progress, or killed */
		dir = sk_path_join(root, e->d_name);
		conf = sk_path_join(dir, CONF_NAME);
		if (sk_path_exists(conf)) {
			ret = sk_name_check("series", e->d_name);
			if (ret)
				ret = sk_error_prefix(ret, "%s", dir);
			else
				*SK_ARRAY_PUSH(*out, *nr, alloc) = sk_xstrdup(e->d_name);
		}
		free(conf);
		free(dir);
	}
	closedir(d);
	free(root);
	if (ret) {
		sk_series_names_free(*out, *nr);
		*out = NULL;
		*nr = 0;
		return ret;
	}
	if (*nr > 1)
		qsort(*out, *nr, sizeof(**out), sk_str_cmp);
	return 0;
}

int sk_series_resolve(char **out, const char *top, const char *name)
{
	struct sk_strbuf list = SK_STRBUF_INIT;
	char **names;
	size_t nr, i, hits = 0, len = strlen(name);
	const char *hit = NULL;
	int ret;

	*out = NULL;
	ret = sk_name_check("series", name);
	if (!ret)
		ret = sk_series_names(&names, &nr, top);
	if (ret)
		return ret;
	for (i = 0; i < nr; i++) {
		if (!strcmp(names[i], name)) {
			hit = names[i];
			hits = 1;
			break;
		}
		if (len && !strncmp(names[i], name, len)) {
			hit = names[i];
			sk_strbuf_addf(&list, "%s%s", hits++ ? ", " : "", names[i]);
		}
	}
	if (hits == 1) {
		*out = sk_xstrdup(hit);
	} else if (hits) {
		ret = sk_error_set(SK_ENOTFOUND, "'%s' is the start of %zu "
				   "series' names: %s; give more of the name",
				   name, hits, list.buf);
	} else {
		for (i = 0; i < nr; i++)
			sk_strbuf_addf(&list, "%s%s", i ? ", " : "", names[i]);
		ret = sk_error_set(SK_ENOTFOUND, "no series '%s' under series/ "
				   "(%s%s)", name, nr ? "there are: " :
				   "there is none; stablekit pull stores one",
				   list.buf);
	}
	sk_strbuf_release(&list);
	sk_series_names_free(names, nr);
	return ret;
}

void sk_series_names_free(char **names, size_t nr)
{
	while (nr--)
		free(names[nr]);
	free(names);
}

static struct sk_revision *get_rev(struct sk_series *s, int version,
				   size_t *alloc)
{
	struct sk_revision *r;
	size_t i;

	for (i = 0; i < s->nr_revs; i++)
		if (s->revs[i].version == version)
			return &s->revs[i];
	r = SK_ARRAY_PUSH(s->revs, s->nr_revs, *alloc);
	memset(r, 0, sizeof(*r));
	r->version = version;
	return r;
}

static struct sk_series_patch *get_patch(struct sk_revision *r, int nr)
{
	size_t i;

	for (i = 0; i < r->nr_patches; i++)
		if (r->patches[i].nr == nr)
			return &r->patches[i];
	r->patches = sk_xrealloc(r->patches, (r->nr_patches + 1) * sizeof(*r->patches));
	memset(&r->patches[r->nr_patches], 0, sizeof(*r->patches));
	r->patches[r->nr_patches].nr = nr;
	return &r->patches[r->nr_patches++];
}

static struct sk_fixlet *get_fixlet(struct sk_series_patch *p, int nr)
{
	size_t i;

	for (i = 0; i < p->nr_fixlets; i++)
		if (p->fixlets[i].nr == nr)
			return &p->fixlets[i];
	p->fixlets = sk_xrealloc(p->fixlets, (p->nr_fixlets + 1) * sizeof(*p->fixlets));
	memset(&p->fixlets[p->nr_fixlets], 0, sizeof(*p->fixlets));
	p->fixlets[p->nr_fixlets].nr = nr;
	return &p->fixlets[p->nr_fixlets++];
}

static void set_str(char **slot, const char *value)
{
	free(*slot);
	*slot = sk_xstrdup(value);
}

static void push_str(char ***arr, size_t *nr, const char *value)
{
	*arr = sk_xrealloc(*arr, (*nr + 1) * sizeof(**arr));
	(*arr)[(*nr)++] = sk_xstrdup(value);
}

/* Keys with a trailer's spelling; anything else is stored lowercased. */
static const char *const trailer_names[] = {
	"Fixes", "Cc", "Acked-by", "Reviewed-by", "Tested-by", "Reported-by",
	"Suggested-by", "Signed-off-by", "Link", "Closes", "Co-developed-by",
	"Stable-dep-of", NULL
};

static char *trailer_key(const char *lower)
{
	size_t i;
	char *k;

	for (i = 0; trailer_names[i]; i++)
		if (!strcasecmp(trailer_names[i], lower))
			return sk_xstrdup(trailer_names[i]);
	k = sk_xstrdup(lower);
	k[0] = (char)(k[0] >= 'a' && k[0] <= 'z' ? k[0] - 32 : k[0]);
	return k;
}

static int is_patch_field(const char *key)
{
	static const char *const fields[] = {
		"subject", "author", "date", "message-id", "patch-id",
		"message-hash", "file", "upstream", NULL
	};
	size_t i;

	for (i = 0; fields[i]; i++)
		if (!strcmp(fields[i], key))
			return 1;
	return 0;
}

static int load_patch_key(struct sk_series_patch *p, const char *key,
			  const char *value)
{
	if (!strcmp(key, "subject"))
		set_str(&p->subject, value);
	else if (!strcmp(key, "author"))
		set_str(&p->author, value);
	else if (!strcmp(key, "date"))
		set_str(&p->date, value);
	else if (!strcmp(key, "message-id"))
		set_str(&p->message_id, value);
	else if (!strcmp(key, "patch-id"))
		snprintf(p->patch_id, sizeof(p->patch_id), "%s", value);
	else if (!strcmp(key, "message-hash"))
		snprintf(p->message_hash, sizeof(p->message_hash), "%s", value);
	else if (!strcmp(key, "file"))
		push_str(&p->files, &p->nr_files, value);
	else if (!strcmp(key, "upstream"))
		set_str(&p->upstream, value);
	else if (!sk_trailer_key_valid(key, strlen(key)))
		return -1;	/* libgit2 reads "1st-by", git does not */
	else {
		struct sk_trailer *t;

		p->trailers = sk_xrealloc(p->trailers,
					  (p->nr_trailers + 1) * sizeof(*p->trailers));
		t = &p->trailers[p->nr_trailers++];
		t->key = trailer_key(key);
		t->value = sk_xstrdup(value);
	}
	return 0;
}

static int load_fixlet_key(struct sk_fixlet *f, const char *key,
			   const char *value)
{
	if (!strcmp(key, "subject"))
		set_str(&f->subject, value);
	else if (!strcmp(key, "author"))
		set_str(&f->author, value);
	else if (!strcmp(key, "date"))
		set_str(&f->date, value);
	else if (!strcmp(key, "message-id"))
		set_str(&f->message_id, value);
	else if (!strcmp(key, "in-reply-to"))
		set_str(&f->in_reply_to, value);
	else if (!strcmp(key, "patch-id"))
		snprintf(f->patch_id, sizeof(f->patch_id), "%s", value);
	else if (!strcmp(key, "file"))
		push_str(&f->files, &f->nr_files, value);
	else
		return -1;
	return 0;
}

static int load_series_key(struct sk_series *s, const char *key,
			   const char *value)
{
	if (!strcmp(key, "slug"))
		set_str(&s->slug, value);
	else if (!strcmp(key, "subject"))
		set_str(&s->subject, value);
	else if (!strcmp(key, "author"))
		set_str(&s->author, value);
	else if (!strcmp(key, "change-id"))
		set_str(&s->change_id, value);
	else if (!strcmp(key, "kind"))
		set_str(&s->kind, value);
	else if (!strcmp(key, "failed-on"))
		set_str(&s->failed_on, value);
	else if (!strcmp(key, "picked"))
		set_str(&s->picked, value);
	else
		return -1;
	return 0;
}

static int load_revision_key(struct sk_revision *r, const char *key,
			     const char *value)
{
	if (!strcmp(key, "message-id"))
		set_str(&r->message_id, value);
	else if (!strcmp(key, "label"))
		set_str(&r->label, value);
	else if (!strcmp(key, "sender"))
		set_str(&r->sender, value);
	else if (!strcmp(key, "date"))
		set_str(&r->date, value);
	else if (!strcmp(key, "mbox"))
		set_str(&r->mbox, value);
	else if (!strcmp(key, "base-commit"))
		set_str(&r->base_commit, value);
	else if (strcmp(key, "patches"))	/* written for readers, derived */
		return -1;
	return 0;
}

/* One series.conf being read: the text is read only to place an error. */
struct conf_load {
	struct sk_series *s;
	size_t rev_alloc;
	const char *path;
	char *text;
};

/* Section prefix of a "[section "sub"]" line: "section.sub." */
static const char *section_prefix(struct sk_strbuf *sect, const char *q)
{
	sk_strbuf_reset(sect);
	for (q++; isalnum((unsigned char)*q) || *q == '-' || *q == '.'; q++)
		sk_strbuf_addch(sect, tolower((unsigned char)*q));
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q == '"') {
		sk_strbuf_addch(sect, '.');
		for (q++; *q && *q != '"' && *q != '\n'; q++) {
			if (*q == '\\' && q[1] && q[1] != '\n')
				q++;
			sk_strbuf_addch(sect, *q);
		}
		if (*q == '"')
			q++;
	}
	sk_strbuf_addch(sect, '.');
	while (*q && *q != ']' && *q != '\n')
		q++;
	return *q == ']' ? q + 1 : q;
}

/* Does the key at q spell name (after the section prefix)? */
static int key_matches(const char *q, const struct sk_strbuf *sect,
		       const char *name, int bare)
{
	size_t n = sect->len;

	if (strncmp(name, sect->buf, n))
		return 0;
	for (name += n; isalnum((unsigned char)*q) || *q == '-'; q++, name++)
		if (tolower((unsigned char)*q) != *name)
			return 0;
	if (*name)
		return 0;
	while (*q == ' ' || *q == '\t')
		q++;
	return !bare || !*q || *q == '\n' || *q == '#' || *q == ';';
}

/* The line of the entry name in the file (a bare one if bare), or 0. */
static size_t entry_line(struct conf_load *ld, const char *name, int bare)
{
	struct sk_strbuf sb = SK_STRBUF_INIT, sect = SK_STRBUF_INIT;
	const char *p;
	size_t line = 0, found = 0;

	if (!ld->text) {
		if (sk_read_file(&sb, ld->path))
			return 0;
		ld->text = sk_strbuf_detach(&sb);
	}
	for (p = ld->text; *p && !found;) {
		const char *q = p + strspn(p, " \t"), *nl = strchr(p, '\n');

		line++;
		if (*q == '[')
			q = section_prefix(&sect, q);
		q += strspn(q, " \t");
		if (sect.len && key_matches(q, &sect, name, bare))
			found = line;
		p = nl ? nl + 1 : p + strlen(p);
	}
	sk_strbuf_release(&sect);
	return found;
}

static int conf_error(struct conf_load *ld, const char *name, int bare,
		      const char *what)
{
	size_t line = entry_line(ld, name, bare);

	if (line)
		return sk_error_set(SK_EINVALID, "%s:%zu: %s '%s'", ld->path,
				    line, what, name);
	return sk_error_set(SK_EINVALID, "%s: %s '%s'", ld->path, what, name);
}

/* "2", "2.1" or "2.1.3": exactly n numbers 0..999999, dot-separated. */
static int parse_numbers(const char *sub, int n, int *out)
{
	int i;

	for (i = 0; i < n; i++) {
		int v = 0, digits = 0;

		while (isdigit((unsigned char)*sub) && digits < 7) {
			v = v * 10 + (*sub++ - '0');
			digits++;
		}
		if (!digits || digits > 6)
			return -1;
		out[i] = v;
		if (*sub != (i + 1 < n ? '.' : '\0'))
			return -1;
		if (i + 1 < n)
			sub++;
	}
	return 0;
}

static int load_keyed(struct conf_load *ld, const char *section,
		      const char *sub, const char *key, const char *value)
{
	struct sk_series *s = ld->s;
	int n[3];

	if (!strcmp(section, "series") && !sub)
		return load_series_key(s, key, value);
	if (!strcmp(section, "revision") && sub && !parse_numbers(sub, 1, n))
		return load_revision_key(get_rev(s, n[0], &ld->rev_alloc), key,
					 value);
	if (!strcmp(section, "patch") && sub && !parse_numbers(sub, 2, n))
		return load_patch_key(get_patch(get_rev(s, n[0], &ld->rev_alloc),
						n[1]), key, value);
	if (!strcmp(section, "fixlet") && sub && !parse_numbers(sub, 3, n))
		return load_fixlet_key(get_fixlet(get_patch(get_rev(s, n[0],
				&ld->rev_alloc), n[1]), n[2]), key, value);
	return -2;
}

/*
 * Every entry must be one we write: a bare key (no '='; valid git-config,
 * a NULL value in libgit2), a key or section we do not know, or a section
 * name that is not the numbers it should be, is an error at its line.
 * Under [patch], any other key is a trailer, if git can read it back.
 */
static int load_entry(struct conf_load *ld, const char *name,
		      const char *value)
{
	const char *dot1 = strchr(name, '.'), *dot2 = strrchr(name, '.');
	char *section, *sub = NULL;
	int ret;

	if (!dot1)
		return conf_error(ld, name, 0, "malformed entry");
	if (!value)
		return conf_error(ld, name, 1, "no value (a bare key) for");
	/* each value is one line: it goes into mail headers and report.txt */
	if (value[sk_utf8_line_break(value, strlen(value))])
		return conf_error(ld, name, 0, "a line break or control "
				  "character (a value is one line: it goes "
				  "into mail headers and report.txt) in the "
				  "value of");
	section = sk_xstrndup(name, (size_t)(dot1 - name));
	if (dot2 > dot1)
		sub = sk_xstrndup(dot1 + 1, (size_t)(dot2 - dot1 - 1));
	ret = load_keyed(ld, section, sub, dot2 + 1, value);
	if (ret == -1)
		ret = conf_error(ld, name, 0, "unknown key");
	else if (ret == -2 && (!strcmp(section, "series") ||
			       !strcmp(section, "revision") ||
			       !strcmp(section, "patch") ||
			       !strcmp(section, "fixlet")))
		ret = conf_error(ld, name, 0, "malformed section name in");
	else if (ret == -2)
		ret = conf_error(ld, name, 0, "unknown section in");
	free(section);
	free(sub);
	return ret;
}

/* Seconds since the epoch of an RFC 2822 date, 0 if it is not one. */
static long long mail_time(const char *date)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	char mon[4] = "";
	int d, y, hh, mm, ss = 0, n = 0;
	long long t, days;
	const char *p = date ? strchr(date, ',') : NULL, *m;
	char sign = '+';
	int zone = 0;

	p = p ? p + 1 : date;
	if (!p || sscanf(p, " %d %3s %d %d:%d%n", &d, mon, &y, &hh, &mm, &n) < 5)
		return 0;
	p += n;
	if (*p == ':')
		sscanf(p, ":%d%n", &ss, &n), p += n;
	sscanf(p, " %c%4d", &sign, &zone);
	m = strstr(months, mon);
	if (!m || !*mon || (m - months) % 3)
		return 0;
	/* days from civil (Howard Hinnant's algorithm) */
	{
		int mo = (int)(m - months) / 3 + 1, yy = y - (mo <= 2);
		int era = (yy >= 0 ? yy : yy - 399) / 400;
		int yoe = yy - era * 400;
		int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
		int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

		days = (long long)era * 146097 + doe - 719468;
	}
	t = days * 86400 + hh * 3600 + mm * 60 + ss;
	zone = zone / 100 * 3600 + zone % 100 * 60;
	return sign == '-' ? t + zone : t - zone;
}

void sk_revision_set_label(struct sk_revision *r, const char *label)
{
	char *old = r->label;
	const char *v;

	r->label = label ? sk_xstrdup(label) : sk_xstrfmt("v%d", r->version);
	free(old);
	r->rfc = !strncasecmp(r->label, "RFC", 3);
	v = strchr(r->label, 'v');
	r->posted = v && isdigit((unsigned char)v[1]) ? atoi(v + 1) : 1;
}

int sk_revision_posted(const struct sk_revision *r)
{
	return r->label ? r->posted : r->version;
}

int sk_revision_cmp(const struct sk_revision *a, const struct sk_revision *b)
{
	int pa = sk_revision_posted(a), pb = sk_revision_posted(b);
	long long ta, tb;

	if (a->rfc != b->rfc)
		return a->rfc ? -1 : 1;
	if (pa != pb)
		return pa < pb ? -1 : 1;
	ta = mail_time(a->date);
	tb = mail_time(b->date);
	if (ta != tb)
		return ta < tb ? -1 : 1;
	return a->version - b->version;
}

static int cmp_rev(const void *a, const void *b)
{
	return sk_revision_cmp(a, b);
}

void sk_series_sort(struct sk_series *s)
{
	if (s->nr_revs > 1)
		qsort(s->revs, s->nr_revs, sizeof(*s->revs), cmp_rev);
}

char *sk_revision_fixlets_file(const struct sk_revision *r)
{
	const char *mbox = r->mbox ? r->mbox : "";
	size_t n = strlen(mbox);

	if (n > 4 && !strcmp(mbox + n - 4, ".mbx"))
		n -= 4;
	if (!n)
		return sk_xstrfmt("v%d.fixlets.mbx", r->version);
	return sk_xstrfmt("%.*s.fixlets.mbx", (int)n, mbox);
}

static int cmp_patch(const void *a, const void *b)
{
	return ((const struct sk_series_patch *)a)->nr -
	       ((const struct sk_series_patch *)b)->nr;
}

int sk_series_load_dir(struct sk_series **out, const char *dir)
{
	struct sk_series *s = sk_xcalloc(1, sizeof(*s));
	char *path = sk_path_join(dir, CONF_NAME);
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *e;
	struct conf_load ld = { s, 0, path, NULL };
	size_t i;
	int ret = 0, err;

	s->dir = sk_xstrdup(dir);
	if (!sk_path_exists(path)) {
		ret = sk_error_set(SK_ENOTFOUND, "no series at '%s' (no %s)", dir, CONF_NAME);
		goto out;
	}
	ret = sk_gitconfig_check(path);
	if (ret)
		goto out;
	if (git_config_open_ondisk(&cfg, path) ||
	    git_config_iterator_new(&it, cfg)) {
		ret = sk_error_git(SK_EINVALID, path);
		goto out;
	}
	while (!ret && !(err = git_config_next(&e, it)))
		ret = load_entry(&ld, e->name, e->value);
	if (!ret && err != GIT_ITEROVER)
		ret = sk_error_git(SK_EINVALID, path);
	if (ret)
		goto out;
	for (i = 0; i < s->nr_revs; i++)
		if (!s->revs[i].label)
			sk_revision_set_label(&s->revs[i], NULL);
		else
			sk_revision_set_label(&s->revs[i], s->revs[i].label);
	sk_series_sort(s);
	for (i = 0; i < s->nr_revs; i++)
		if (s->revs[i].nr_patches > 1)
			qsort(s->revs[i].patches, s->revs[i].nr_patches,
			      sizeof(*s->revs[i].patches), cmp_patch);
	if (!s->slug) {
		const char *base = strrchr(dir, '/');

		s->slug = sk_xstrdup(base ? base + 1 : dir);
	}
out:
	git_config_iterator_free(it);
	git_config_free(cfg);
	free(ld.text);
	free(path);
	if (ret) {
		sk_series_free(s);
		s = NULL;
	}
	*out = s;
	return ret;
}

int sk_series_load(struct sk_series **out, const char *top, const char *slug)
{
	char *root = sk_path_join(top, "series");
	char *dir;
	int ret;

	if (sk_name_check("series", slug)) {
		free(root);
		return SK_EINVALID;
	}
	dir = sk_path_join(root, slug);
	ret = sk_series_load_dir(out, dir);
	free(dir);
	free(root);
	return ret;
}

static void free_patch(struct sk_series_patch *p)
{
	size_t i;

	free(p->subject);
	free(p->author);
	free(p->date);
	free(p->message_id);
	free(p->upstream);
	for (i = 0; i < p->nr_trailers; i++) {
		free(p->trailers[i].key);
		free(p->trailers[i].value);
	}
	free(p->trailers);
	sk_strvec_free_array(p->files, p->nr_files);
	for (i = 0; i < p->nr_fixlets; i++) {
		struct sk_fixlet *f = &p->fixlets[i];

		free(f->subject);
		free(f->author);
		free(f->date);
		free(f->message_id);
		free(f->in_reply_to);
		sk_strvec_free_array(f->files, f->nr_files);
	}
	free(p->fixlets);
}

void sk_revision_release(struct sk_revision *r)
{
	size_t j;

	for (j = 0; j < r->nr_patches; j++)
		free_patch(&r->patches[j]);
	free(r->patches);
	free(r->message_id);
	free(r->sender);
	free(r->label);
	free(r->date);
	free(r->mbox);
	free(r->base_commit);
	memset(r, 0, sizeof(*r));
}

void sk_series_free(struct sk_series *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_revs; i++)
		sk_revision_release(&s->revs[i]);
	free(s->revs);
	free(s->slug);
	free(s->dir);
	free(s->subject);
	free(s->author);
	free(s->change_id);
	free(s->kind);
	free(s->failed_on);
	free(s->picked);
	free(s);
}

static int save_patch(struct sk_confwriter *w, int ver,
		       const struct sk_series_patch *p)
{
	char *sub = sk_xstrfmt("%d.%d", ver, p->nr);
	size_t i;

	sk_confwriter_add(w, "patch", sub, "subject", p->subject);
	sk_confwriter_add(w, "patch", sub, "author", p->author);
	sk_confwriter_add(w, "patch", sub, "date", p->date);
	sk_confwriter_add(w, "patch", sub, "message-id", p->message_id);
	sk_confwriter_add(w, "patch", sub, "patch-id", p->patch_id);
	sk_confwriter_add(w, "patch", sub, "message-hash", p->message_hash);
	sk_confwriter_add(w, "patch", sub, "upstream", p->upstream);
	for (i = 0; i < p->nr_files; i++)
		sk_confwriter_add(w, "patch", sub, "file", p->files[i]);
	for (i = 0; i < p->nr_trailers; i++) {
		char *lower = sk_xstrdup(p->trailers[i].key), *c;

		if (!sk_trailer_key_valid(lower, strlen(lower))) {
			free(lower);
			free(sub);
			return sk_error_set(SK_EINVALID,
				"patch %d.%d: trailer key '%s' is not a git-config key",
				ver, p->nr, p->trailers[i].key);
		}
		for (c = lower; *c; c++)
			*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
		/* a trailer named like a field would be read back as the field */
		if (!is_patch_field(lower))
			sk_confwriter_add(w, "patch", sub, lower, p->trailers[i].value);
		free(lower);
	}
	free(sub);
	for (i = 0; i < p->nr_fixlets; i++) {
		const struct sk_fixlet *f = &p->fixlets[i];
		size_t j;

		sub = sk_xstrfmt("%d.%d.%d", ver, p->nr, f->nr);
		sk_confwriter_add(w, "fixlet", sub, "subject", f->subject);
		sk_confwriter_add(w, "fixlet", sub, "author", f->author);
		sk_confwriter_add(w, "fixlet", sub, "date", f->date);
		sk_confwriter_add(w, "fixlet", sub, "message-id", f->message_id);
		sk_confwriter_add(w, "fixlet", sub, "in-reply-to", f->in_reply_to);
		sk_confwriter_add(w, "fixlet", sub, "patch-id", f->patch_id);
		for (j = 0; j < f->nr_files; j++)
			sk_confwriter_add(w, "fixlet", sub, "file", f->files[j]);
		free(sub);
	}
	return 0;
}

static int save_revision(struct sk_confwriter *w, const struct sk_revision *r)
{
	char *sub = sk_xstrfmt("%d", r->version);
	char *n = sk_xstrfmt("%zu", r->nr_patches);
	char *plain = sk_xstrfmt("v%d", r->version);
	size_t j;

	if (r->label && strcmp(r->label, plain))
		sk_confwriter_add(w, "revision", sub, "label", r->label);
	free(plain);
	sk_confwriter_add(w, "revision", sub, "message-id", r->message_id);
	sk_confwriter_add(w, "revision", sub, "sender", r->sender);
	sk_confwriter_add(w, "revision", sub, "date", r->date);
	sk_confwriter_add(w, "revision", sub, "mbox", r->mbox);
	sk_confwriter_add(w, "revision", sub, "base-commit", r->base_commit);
	sk_confwriter_add(w, "revision", sub, "patches", n);
	free(n);
	free(sub);
	for (j = 0; j < r->nr_patches; j++)
		if (save_patch(w, r->version, &r->patches[j]))
			return SK_EINVALID;
	return 0;
}

int sk_series_save(const struct sk_series *s)
{
	struct sk_confwriter w = SK_CONFWRITER_INIT;
	char *path = sk_path_join(s->dir, CONF_NAME);
	size_t i;
	int ret = 0;

	sk_confwriter_add(&w, "series", NULL, "slug", s->slug);
	sk_confwriter_add(&w, "series", NULL, "subject", s->subject);
	sk_confwriter_add(&w, "series", NULL, "author", s->author);
	sk_confwriter_add(&w, "series", NULL, "change-id", s->change_id);
	if (s->kind && strcmp(s->kind, "series"))
		sk_confwriter_add(&w, "series", NULL, "kind", s->kind);
	if (s->failed_on)
		sk_confwriter_add(&w, "series", NULL, "failed-on", s->failed_on);
	if (s->picked)
		sk_confwriter_add(&w, "series", NULL, "picked", s->picked);
	for (i = 0; !ret && i < s->nr_revs; i++)
		ret = save_revision(&w, &s->revs[i]);
	if (!ret)
		ret = sk_confwriter_write(&w, path);
	sk_confwriter_release(&w);
	free(path);
	return ret;
}

const struct sk_revision *sk_series_latest(const struct sk_series *s)
{
	return s->nr_revs ? &s->revs[s->nr_revs - 1] : NULL;
}

const struct sk_revision *sk_series_revision(const struct sk_series *s,
					     int version)
{
	size_t i;

	for (i = 0; i < s->nr_revs; i++)
		if (s->revs[i].version == version)
			return &s->revs[i];
	return NULL;
}

const char *sk_series_patch_trailer(const struct sk_series_patch *p, const char *key,
			     size_t nth)
{
	size_t i;

	for (i = 0; i < p->nr_trailers; i++)
		if (!strcasecmp(p->trailers[i].key, key) && !nth--)
			return p->trailers[i].value;
	return NULL;
}

/* The mail in an mbox whose Message-Id is msgid. */
static int mail_by_id(struct sk_strbuf *out_mail, struct sk_strbuf *out_diff,
		      const char *path, const char *msgid)
{
	struct sk_mbox mb = SK_MBOX_INIT;
	size_t i;
	int ret = sk_mbox_parse_file(&mb, path);

	if (ret)
		return ret;
	ret = sk_error_set(SK_ENOTFOUND, "%s: no mail with Message-Id <%s>", path, msgid);
	for (i = 0; i < mb.nr; i++) {
		struct sk_patch p;
		char *id = sk_msgid_strip(mb.mails[i].message_id);
		int match = !strcmp(id, msgid);

		free(id);
		if (!match)
			continue;
		ret = sk_patch_parse(&p, &mb.mails[i]);
		if (!ret && out_diff)
			sk_strbuf_adds(out_diff, p.diff);
		if (!ret && out_mail)
			sk_patch_format(out_mail, &p, NULL);
		sk_patch_release(&p);
		break;
	}
	sk_mbox_release(&mb);
	return ret;
}

static const struct sk_series_patch *find_patch(const struct sk_revision *r,
						int nr)
{
	size_t i;

	for (i = 0; i < r->nr_patches; i++)
		if (r->patches[i].nr == nr)
			return &r->patches[i];
	return NULL;
}

static int read_patch(struct sk_strbuf *mail, struct sk_strbuf *diff,
		      const struct sk_series *s, const struct sk_revision *r,
		      int nr, int fixlet)
{
	const struct sk_series_patch *p = find_patch(r, nr);
	const char *msgid;
	char *file, *path;
	int ret;

	if (!p)
		return sk_error_set(SK_ENOTFOUND, "%s v%d has no patch %d",
				    s->slug, r->version, nr);
	if (fixlet) {
		size_t i;

		for (i = 0; i < p->nr_fixlets && p->fixlets[i].nr != fixlet; i++)
			;
		if (i == p->nr_fixlets)
			return sk_error_set(SK_ENOTFOUND, "%s v%d patch %d has no fixlet %d",
					    s->slug, r->version, nr, fixlet);
		msgid = p->fixlets[i].message_id;
		file = sk_revision_fixlets_file(r);
	} else {
		msgid = p->message_id;
		file = sk_xstrdup(r->mbox ? r->mbox : "");
	}
	path = sk_path_join(s->dir, file);
	ret = mail_by_id(mail, diff, path, msgid ? msgid : "");
	free(path);
	free(file);
	return ret;
}

int sk_series_patch_mail(struct sk_strbuf *out, const struct sk_series *s,
			 const struct sk_revision *r, int nr)
{
	return read_patch(out, NULL, s, r, nr, 0);
}

int sk_series_patch_diff(struct sk_strbuf *out, const struct sk_series *s,
			 const struct sk_revision *r, int nr)
{
	return read_patch(NULL, out, s, r, nr, 0);
}

int sk_series_fixlet_mail(struct sk_strbuf *out, const struct sk_series *s,
			  const struct sk_revision *r, int nr, int fixlet)
{
	return read_patch(out, NULL, s, r, nr, fixlet);
}

int sk_series_fixlet_diff(struct sk_strbuf *out, const struct sk_series *s,
			  const struct sk_revision *r, int nr, int fixlet)
{
	return read_patch(NULL, out, s, r, nr, fixlet);
}

#include "core/patchid.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/treediff.h"

#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- SHA-1: git patch-id hashes with it, libgit2 does not export one ---- */

struct sha1 {
	uint32_t h[5];
	uint64_t len;
	unsigned char buf[64];
	size_t nbuf;
};

static uint32_t rol(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

static void sha1_init(struct sha1 *s)
{
	static const uint32_t h0[5] = { 0x67452301, 0xEFCDAB89, 0x98BADCFE,
					0x10325476, 0xC3D2E1F0 };

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
	s->nbuf = 0;
}

static void sha1_block(struct sha1 *s, const unsigned char *p)
{
	uint32_t w[80], a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3],
		 e = s->h[4], f, k, t;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	for (i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5A827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ED9EBA1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8F1BBCDC;
		} else {
			f = b ^ c ^ d;
			k = 0xCA62C1D6;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = t;
	}
	s->h[0] += a;
	s->h[1] += b;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
}

static void sha1_update(struct sha1 *s, const void *data, size_t len)
{
	const unsigned char *p = data;

	s->len += len;
	while (len) {
		size_t n = 64 - s->nbuf;

		if (n > len)
			n = len;
		memcpy(s->buf + s->nbuf, p, n);
		s->nbuf += n;
		p += n;
		len -= n;
		if (s->nbuf == 64) {
			sha1_block(s, s->buf);
			s->nbuf = 0;
		}
	}
}

static void sha1_final(unsigned char out[20], struct sha1 *s)
{
	uint64_t bits = s->len * 8;
	unsigned char pad = 0x80, len[8];
	int i;

	sha1_update(s, &pad, 1);
	pad = 0;
	while (s->nbuf != 56)
		sha1_update(s, &pad, 1);
	for (i = 0; i < 8; i++)
		len[i] = bits >> (56 - 8 * i);
	sha1_update(s, len, 8);
	for (i = 0; i < 20; i++)
		out[i] = s->h[i / 4] >> (24 - 8 * (i % 4));
}

/* ---- git patch-id --stable, over the text ---- */

struct pid {
	struct sha1 ctx;
	unsigned char result[20];
	size_t patchlen;
	struct sk_strbuf line;
};

/* Each file's hash is added to the result: the order of files is free. */
static void flush_one_hunk(struct pid *p)
{
	unsigned char hash[20];
	unsigned int carry = 0;
	int i;

	sha1_final(hash, &p->ctx);
	sha1_init(&p->ctx);
	for (i = 0; i < 20; i++) {
		carry += p->result[i] + hash[i];
		p->result[i] = carry;
		carry >>= 8;
	}
}

/* git's isspace: not the C library's, which takes \f and \v too */
static int git_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The line without whitespace (and its newline), hashed. */
static void hash_line(struct pid *p, const char *l, size_t len)
{
	size_t i;

	sk_strbuf_reset(&p->line);
	for (i = 0; i < len; i++)
		if (!git_space(l[i]))
			sk_strbuf_addch(&p->line, l[i]);
	p->patchlen += p->line.len;
	sha1_update(&p->ctx, p->line.buf, p->line.len);
}

static int starts(const char *l, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && !memcmp(l, prefix, n);
}

/* "@@ -a[,b] +c[,d] @@": the counts, 1 when left out. */
static void scan_hunk_header(const char *l, size_t len, int *before,
			     int *after)
{
	const char *end = l + len, *q = l + 4;

	*before = *after = 1;
	while (q < end && isdigit((unsigned char)*q))
		q++;
	if (q < end && *q == ',')
		*before = atoi(++q);
	while (q < end && isdigit((unsigned char)*q))
		q++;
	if (end - q < 2 || q[0] != ' ' || q[1] != '+')
		return;
	q += 2;
	while (q < end && isdigit((unsigned char)*q))
		q++;
	if (q < end && *q == ',')
		*after = atoi(q + 1);
}

/* The oids of an "index a..b[ mode]" line, for a binary file's id. */
static void index_oids(char pre[41], char post[41], const char *l,
		       size_t len)
{
	const char *dots = memmem(l, len, "..", 2), *sp;
	size_t n;

	if (!dots)
		return;
	sp = memchr(dots, ' ', l + len - dots);
	if (!sp)
		sp = l + len - 1;	/* git drops the last character */
	n = dots - (l + 6);
	snprintf(pre, 41, "%.*s", (int)(n < 40 ? n : 40), l + 6);
	n = sp > dots + 2 ? (size_t)(sp - dots - 2) : 0;
	snprintf(post, 41, "%.*s", (int)(n < 40 ? n : 40), dots + 2);
}

int sk_patchid_text(char out[41], const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	char pre[41] = "", post[41] = "";
	int before = -1, after = -1, binary = 0;
	struct pid st;
	int i;

	memset(&st, 0, sizeof(st));
	sha1_init(&st.ctx);
	sk_strbuf_init(&st.line);
	while (p < end) {
		const char *eol = memchr(p, '\n', end - p);
		const char *l = p;
		size_t n = eol ? (size_t)(eol + 1 - p) : (size_t)(end - p);

		p += n;
		/* what comes before the first "diff " is the message */
		if (!st.patchlen && !starts(l, n, "diff "))
			continue;
		if (before == -1) {
			if (starts(l, n, "GIT binary patch") ||
			    starts(l, n, "Binary files")) {
				binary = 1;
				before = 0;
				sha1_update(&st.ctx, pre, strlen(pre));
				sha1_update(&st.ctx, post, strlen(post));
				flush_one_hunk(&st);
				continue;
			} else if (starts(l, n, "index ")) {
				index_oids(pre, post, l, n);
				continue;
			} else if (starts(l, n, "--- ")) {
				before = after = 1;
			} else if (!isalpha((unsigned char)l[0])) {
				break;
			}
		}
		/* "\ No newline at end of file" */
		if (starts(l, n, "\\ ") && n > 12)
			continue;
		if (binary) {
			if (starts(l, n, "diff ")) {
				binary = 0;
				before = -1;
			}
			continue;
		}
		if (before == 0 && after == 0) {
			if (starts(l, n, "@@ -")) {
				scan_hunk_header(l, n, &before, &after);
				continue;
			}
			if (!starts(l, n, "diff "))
				break;
			flush_one_hunk(&st);
			before = after = -1;
		}
		if (l[0] == '-' || l[0] == ' ')
			before--;
		if (l[0] == '+' || l[0] == ' ')
			after--;
		hash_line(&st, l, n);
	}
	flush_one_hunk(&st);
	sk_strbuf_release(&st.line);
	out[0] = '\0';
	if (!st.patchlen)
		return 0;
	for (i = 0; i < 20; i++)
		snprintf(out + 2 * i, 3, "%02x", st.result[i]);
	return 0;
}

int sk_patchid_buffer(char out[41], const char *diff, size_t len)
{
	return sk_patchid_text(out, diff, len);
}

/*
 * libgit2 writes "--- a/x" and "+++ b/x" for a file without hunks (an
 * empty new file, a mode change); git writes them with the first hunk
 * only, and they are part of the id.
 */
static void drop_bare_headers(struct sk_strbuf *out, const char *p,
			      size_t len)
{
	const char *end = p + len;

	while (p < end) {
		const char *eol = memchr(p, '\n', end - p);
		size_t n = eol ? (size_t)(eol + 1 - p) : (size_t)(end - p);
		const char *next = p + n, *eol2, *third;

		if (n >= 4 && !memcmp(p, "--- ", 4) && next < end &&
		    !strncmp(next, "+++ ", 4 < end - next ? 4 : end - next)) {
			eol2 = memchr(next, '\n', end - next);
			third = eol2 ? eol2 + 1 : end;
			if (third >= end || strncmp(third, "@@ -",
			    4 < end - third ? 4 : end - third) ||
			    end - third < 4) {
				p = third;
				continue;
			}
		}
		sk_strbuf_add(out, p, n);
		p = next;
	}
}

int sk_patchid_diff(char out[41], git_diff *diff)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	git_buf buf = GIT_BUF_INIT;
	int ret;

	if (git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH))
		return sk_error_git(SK_ERROR, "patch-id");
	drop_bare_headers(&sb, buf.ptr, buf.size);
	git_buf_dispose(&buf);
	ret = sk_patchid_text(out, sb.buf ? sb.buf : "", sb.len);
	sk_strbuf_release(&sb);
	return ret;
}

/* ---- git's rename similarity (diffcore-delta.c) ---- */

#define HASHBASE 107927

struct span {
	unsigned int hashval, cnt;
};

struct spans {
	struct span *items;
	size_t nr, alloc;
	size_t size;		/* of the blob */
};

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->hashval < y->hashval ? -1 : x->hashval > y->hashval;
}

static void span_add(struct spans *s, unsigned int hashval, unsigned int n)
{
	struct span *sp = SK_ARRAY_PUSH(s->items, s->nr, s->alloc);

	sp->hashval = hashval;
	sp->cnt = n;
}

/* The spans of a blob, sorted, one entry per hash with its bytes. */
static void hash_chars(struct spans *s, const char *data, size_t size)
{
	const unsigned char *buf = (const unsigned char *)data;
	unsigned int accum1 = 0, accum2 = 0, n = 0;
	size_t sz = size, i, j;
	int is_text = !memchr(data, 0, size < 8000 ? size : 8000);

	memset(s, 0, sizeof(*s));
	s->size = size;
	while (sz) {
		unsigned int c = *buf++, old_1 = accum1;

		sz--;
		if (is_text && c == '\r' && sz && *buf == '\n')
			continue;
		accum1 = (accum1 << 7) ^ (accum2 >> 25);
		accum2 = (accum2 << 7) ^ (old_1 >> 25);
		accum1 += c;
		if (++n < 64 && c != '\n')
			continue;
		span_add(s, (accum1 + accum2 * 0x61) % HASHBASE, n);
		n = 0;
		accum1 = accum2 = 0;
	}
	/* git counts no span for the bytes after the last newline */
	if (!s->nr)
		return;
	qsort(s->items, s->nr, sizeof(*s->items), span_cmp);
	for (i = 1, j = 0; i < s->nr; i++) {
		if (s->items[i].hashval == s->items[j].hashval)
			s->items[j].cnt += s->items[i].cnt;
		else
			s->items[++j] = s->items[i];
	}
	s->nr = j + 1;
}

/* The bytes of src found in dst: git's src_copied. */
static size_t spans_copied(const struct spans *src, const struct spans *dst)
{
	size_t i = 0, j = 0, sc = 0;

	while (i < src->nr) {
		while (j < dst->nr && dst->items[j].hashval <
		       src->items[i].hashval)
			j++;
		if (j < dst->nr && dst->items[j].hashval ==
		    src->items[i].hashval) {
			unsigned int a = src->items[i].cnt,
				     b = dst->items[j].cnt;

			sc += a < b ? a : b;
			j++;
		}
		i++;
	}
	return sc;
}

static int spans_score(const struct spans *a, const struct spans *b)
{
	size_t max = a->size > b->size ? a->size : b->size;

	if (!b->size || !max)
		return 0;
	return (int)((unsigned long long)spans_copied(a, b) * 100 / max);
}

int sk_patchid_similarity(const char *a, size_t alen, const char *b,
			  size_t blen)
{
	struct spans sa, sb;
	int score;

	hash_chars(&sa, a, alen);
	hash_chars(&sb, b, blen);
	score = spans_score(&sa, &sb);
	free(sa.items);
	free(sb.items);
	return score;
}

/* ---- the metric libgit2's rename detection asks ---- */

static int metric_buffer(void **out, const git_diff_file *file,
			 const char *buf, size_t len, void *payload)
{
	struct spans *s = sk_xcalloc(1, sizeof(*s));

	(void)file;
	(void)payload;
	hash_chars(s, buf, len);
	*out = s;
	return 0;
}

static int metric_file(void **out, const git_diff_file *file,
		       const char *path, void *payload)
{
	struct sk_strbuf sb = SK_STRBUF_INIT;
	FILE *f = fopen(path, "rb");
	char chunk[8192];
	size_t n;
	int ret;

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		sk_strbuf_add(&sb, chunk, n);
	fclose(f);
	ret = metric_buffer(out, file, sb.buf ? sb.buf : "", sb.len, payload);
	sk_strbuf_release(&sb);
	return ret;
}

static void metric_free(void *sig, void *payload)
{
	struct spans *s = sig;

	(void)payload;
	if (s)
		free(s->items);
	free(s);
}

/* libgit2 asks with the old file first, as git's estimate_similarity. */
static int metric_similarity(int *score, void *a, void *b, void *payload)
{
	(void)payload;
	*score = spans_score(a, b);
	return 0;
}

static git_diff_similarity_metric git_metric = {
	metric_file, metric_buffer, metric_free, metric_similarity, NULL
};

/* git's diff.renameLimit: more pairs than its square, exact renames only. */
#define GIT_RENAME_LIMIT 1000

static int find_renames(git_diff *diff, git_repository *repo)
{
	git_diff_find_options fo;
	git_config *cfg = NULL;
	size_t i, n = git_diff_num_deltas(diff), added = 0, deleted = 0;
	int32_t limit = GIT_RENAME_LIMIT;

	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);

		added += d->status == GIT_DELTA_ADDED;
		deleted += d->status == GIT_DELTA_DELETED;
	}
	if (!added || !deleted)
		return 0;
	if (!git_repository_config_snapshot(&cfg, repo)) {
		if (git_config_get_int32(&limit, cfg, "diff.renamelimit") ||
		    limit <= 0)
			limit = GIT_RENAME_LIMIT;
		git_config_free(cfg);
	}
	git_error_clear();
	git_diff_find_options_init(&fo, GIT_DIFF_FIND_OPTIONS_VERSION);
	fo.flags = GIT_DIFF_FIND_RENAMES;
	if ((unsigned long long)added * deleted >
	    (unsigned long long)limit * limit)
		fo.flags |= GIT_DIFF_FIND_EXACT_MATCH_ONLY;
	fo.rename_threshold = 50;
	fo.rename_limit = deleted + 1;
	fo.metric = &git_metric;
	return git_diff_find_similar(diff, &fo);
}

/* The objects of a pack, from its .idx (version 2 or 1): fanout[255]. */
static unsigned long idx_objects(const char *path)
{
	unsigned char head[8 + 256 * 4];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(head, 1, sizeof(head), f) : 0;
	const unsigned char *last;

	if (f)
		fclose(f);
	if (n >= 8 && !memcmp(head, "\377tOc", 4))
		last = head + 8 + 255 * 4;
	else
		last = head + 255 * 4;
	if (n < (size_t)(last - head) + 4)
		return 0;
	return (unsigned long)last[0] << 24 | last[1] << 16 | last[2] << 8 |
	       last[3];
}

/*
 * The length git abbreviates object ids to by default: half the bits of
 * the packed objects' count, rounded up, in hex digits, at least 7.  A
 * binary file's id is made of its "index" line, so it matters there.
 * Kept per repository: counting reads every pack's index.
 */
static int git_abbrev(git_repository *repo)
{
	/* per thread: diffs are made on several at once */
	static _Thread_local char last_dir[4096];
	static _Thread_local int last_len;
	const char *dir = git_repository_commondir(repo);
	struct sk_strbuf path = SK_STRBUF_INIT;
	unsigned long count = 0;
	git_config *cfg = NULL;
	int32_t configured = 0;
	struct dirent *de;
	DIR *d;
	int bits = 0, len;

	if (dir && !strcmp(dir, last_dir))
		return last_len;
	if (!git_repository_config_snapshot(&cfg, repo)) {
		if (git_config_get_int32(&configured, cfg, "core.abbrev"))
			configured = 0;
		git_config_free(cfg);
	}
	git_error_clear();
	if (configured >= 4 && configured <= 40) {
		len = configured;
		goto keep;
	}
	sk_strbuf_addf(&path, "%sobjects/pack", dir ? dir : "");
	d = opendir(path.buf);
	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		struct sk_strbuf f = SK_STRBUF_INIT;

		if (n < 5 || strcmp(de->d_name + n - 4, ".idx"))
			continue;
		sk_strbuf_addf(&f, "%s/%s", path.buf, de->d_name);
		count += idx_objects(f.buf);
		sk_strbuf_release(&f);
	}
	if (d)
		closedir(d);
	sk_strbuf_release(&path);
	while (count >> bits)
		bits++;
	len = (bits + 1) / 2;
	if (len < 7)
		len = 7;
keep:
	if (dir && strlen(dir) < sizeof(last_dir)) {
		snprintf(last_dir, sizeof(last_dir), "%s", dir);
		last_len = len;
	}
	return len;
}

int sk_patchid_commit_diff(git_diff **out, git_repository *repo,
			   const git_commit *c)
{
	git_tree *tree = NULL, *ptree = NULL;
	git_commit *parent = NULL;
	git_diff_options o;
	int ret = 0;

	*out = NULL;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	o.flags = GIT_DIFF_INDENT_HEURISTIC;
	o.id_abbrev = git_abbrev(repo);
	if (git_commit_tree(&tree, c) ||
	    (git_commit_parentcount(c) &&
	     (git_commit_parent(&parent, c, 0) ||
	      git_commit_tree(&ptree, parent))))
		ret = sk_error_git(SK_ERROR, "diff of commit");
	if (!ret)
		ret = sk_tree_diff(out, repo, ptree, tree, &o);
	if (!ret && find_renames(*out, repo))
		ret = sk_error_git(SK_ERROR, "diff of commit");
	if (ret) {
		git_diff_free(*out);
		*out = NULL;
	}
	git_tree_free(ptree);
	git_tree_free(tree);
	git_commit_free(parent);
	return ret;
}

int sk_patchid_commit(char out[41], git_repository *repo, const git_commit *c)
{
	git_diff *diff = NULL;
	int ret = sk_patchid_commit_diff(&diff, repo, c);

	if (!ret)
		ret = sk_patchid_diff(out, diff);
	git_diff_free(diff);
	return ret;
}

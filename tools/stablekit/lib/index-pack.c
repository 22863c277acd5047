/*
 * Reading commits straight from the repository's pack files, for the range
 * walk: the object found in the mapped .idx by interpolation search, and
 * inflated from the mapped .pack (libdeflate) into one buffer that is
 * reused.  A cold walk reads every
 * commit of the range once and libgit2's reader costs about as much again
 * as the inflating itself (a lookup through its window cache, a lock, an
 * allocation and a copy per object).  Only whole (undeltified) commits are
 * read here, as git packs nearly all; anything else (a delta, a loose
 * object, an object in no pack, a pack this reader does not know) is left
 * to git_odb_read, which answers for all of them.
 */
#include "index-internal.h"
#include "error.h"
#include "strbuf.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>

struct pack {
	const unsigned char *idx, *pack;
	size_t idx_size, pack_size;
	uint32_t nr;
	const unsigned char *fanout, *oids, *offs, *offs64;
	size_t nr_offs64;
};

struct sk_packs {
	struct pack *p;
	size_t nr, alloc;
	struct libdeflate_decompressor *inflater;
	unsigned char *buf;
	size_t buf_alloc;
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		(uint32_t)p[2] << 8 | p[3];
}

static void *map_file(size_t *size, const char *path)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return NULL;
	}
	m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return NULL;
	*size = st.st_size;
	return m;
}

/* A version 2 .idx and its .pack, checked for what the reader relies on. */
static int pack_open(struct pack *p, const char *idx_path)
{
	struct sk_strbuf pack_path = SK_STRBUF_INIT;
	size_t n = strlen(idx_path), i;
	uint32_t prev = 0;

	memset(p, 0, sizeof(*p));
	p->idx = map_file(&p->idx_size, idx_path);
	if (!p->idx || p->idx_size < 8 + 1024 ||
	    memcmp(p->idx, "\377tOc\0\0\0\2", 8))
		goto fail;
	p->fanout = p->idx + 8;
	for (i = 0; i < 256; i++) {
		uint32_t f = be32(p->fanout + 4 * i);

		if (f < prev)
			goto fail;
		prev = f;
	}
	p->nr = prev;
	if (p->idx_size < 8 + 1024 + (size_t)p->nr * 28 + 40)
		goto fail;
	p->oids = p->fanout + 1024;
	p->offs = p->oids + (size_t)p->nr * 24;	/* past the CRCs */
	p->offs64 = p->offs + (size_t)p->nr * 4;
	p->nr_offs64 = (p->idx_size - 40 - (p->offs64 - p->idx)) / 8;
	sk_strbuf_add(&pack_path, idx_path, n - 4);
	sk_strbuf_adds(&pack_path, ".pack");
	p->pack = map_file(&p->pack_size, pack_path.buf);
	sk_strbuf_release(&pack_path);
	if (!p->pack || p->pack_size < 12 + 20 || memcmp(p->pack, "PACK", 4) ||
	    be32(p->pack + 8) != p->nr)
		goto fail;
	return 0;
fail:
	if (p->idx)
		munmap((void *)p->idx, p->idx_size);
	if (p->pack)
		munmap((void *)p->pack, p->pack_size);
	memset(p, 0, sizeof(*p));
	return -1;
}

/* The packs of the repository's object directory; none is not an error. */
struct sk_packs *sk_index__packs_open(git_repository *repo)
{
	struct sk_packs *ps = sk_xcalloc(1, sizeof(*ps));
	struct sk_strbuf dir = SK_STRBUF_INIT, path = SK_STRBUF_INIT;
	struct dirent *de;
	DIR *d;

	sk_strbuf_addf(&dir, "%sobjects/pack", git_repository_commondir(repo));
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		struct pack p;

		if (n < 5 || strcmp(de->d_name + n - 4, ".idx"))
			continue;
		sk_strbuf_reset(&path);
		sk_strbuf_addf(&path, "%s/%s", dir.buf, de->d_name);
		if (!pack_open(&p, path.buf))
			*SK_ARRAY_PUSH(ps->p, ps->nr, ps->alloc) = p;
	}
	if (d)
		closedir(d);
	sk_strbuf_release(&dir);
	sk_strbuf_release(&path);
	return ps;
}

void sk_index__packs_close(struct sk_packs *ps)
{
	size_t i;

	if (!ps)
		return;
	for (i = 0; i < ps->nr; i++) {
		munmap((void *)ps->p[i].idx, ps->p[i].idx_size);
		munmap((void *)ps->p[i].pack, ps->p[i].pack_size);
	}
	if (ps->inflater)
		libdeflate_free_decompressor(ps->inflater);
	free(ps->p);
	free(ps->buf);
	free(ps);
}

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static uint64_t entry_offset(const struct pack *p, uint32_t i)
{
	uint32_t off = be32(p->offs + (size_t)i * 4);

	if (!(off & 0x80000000u))
		return off;
	off &= 0x7fffffffu;
	return off < p->nr_offs64 ? be64(p->offs64 + (size_t)off * 8) : 0;
}

/*
 * The object's offset in the pack, or 0.  Object ids are uniform, so the
 * position is guessed from the first 8 bytes (interpolation search): a
 * few probes where a binary search over a large .idx makes one cache miss
 * per step; halving takes over if guessing does not narrow fast enough.
 */
static uint64_t find_offset(const struct pack *p, const git_oid *oid)
{
	unsigned int b = oid->id[0], probes = 0;
	uint32_t lo = b ? be32(p->fanout + 4 * (b - 1)) : 0;
	uint32_t hi = be32(p->fanout + 4 * b), mid;
	uint64_t key = be64(oid->id), klo, khi;
	int c;

	while (lo < hi) {
		klo = be64(p->oids + (size_t)lo * 20);
		khi = be64(p->oids + (size_t)(hi - 1) * 20);
		if (key < klo || key > khi)
			return 0;
		if (probes++ < 4 && khi > klo)
			mid = lo + (uint32_t)((unsigned __int128)(key - klo) *
					      (hi - 1 - lo) / (khi - klo));
		else
			mid = lo + (hi - lo) / 2;
		c = memcmp(p->oids + (size_t)mid * 20, oid->id, 20);
		if (!c)
			return entry_offset(p, mid);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/*
 * Inflates exactly size bytes of a zlib stream into ps->buf; 0 or -1.
 * libdeflate: the whole object is in memory and its size known, where it
 * is about twice as fast as zlib's inflate on objects this small.
 */
static int inflate_object(struct sk_packs *ps, const unsigned char *in,
			  size_t in_len, size_t size)
{
	size_t out_len;

	/* the zlib header, then raw deflate (git checks no Adler-32 here) */
	if (in_len < 2 || (in[0] & 0x0f) != 8 || (in[0] << 8 | in[1]) % 31 ||
	    (in[1] & 0x20))
		return -1;
	if (!ps->inflater && !(ps->inflater = libdeflate_alloc_decompressor()))
		return -1;
	if (ps->buf_alloc < size + 1) {
		ps->buf_alloc = size + 1 > 2 * ps->buf_alloc ? size + 1 :
			2 * ps->buf_alloc;
		free(ps->buf);
		ps->buf = sk_xmalloc(ps->buf_alloc);
	}
	if (libdeflate_deflate_decompress_ex(ps->inflater, in + 2, in_len - 2,
					    ps->buf, size, NULL, &out_len) !=
	    LIBDEFLATE_SUCCESS || out_len != size)
		return -1;
	ps->buf[size] = '\0';
	return 0;
}

/*
 * A whole commit object from a pack: 1 with *data and *len (valid until
 * the next call), 0 when the packs cannot give it this way.
 */
int sk_index__packs_read_commit(const char **data, size_t *len,
				struct sk_packs *ps, const git_oid *oid)
{
	size_t i;

	for (i = 0; ps && i < ps->nr; i++) {
		const struct pack *p = &ps->p[i];
		uint64_t off = find_offset(p, oid), size;
		const unsigned char *h, *end = p->pack + p->pack_size - 20;
		unsigned int shift = 4;

		if (!off)
			continue;
		if (off < 12 || off >= (uint64_t)(end - p->pack))
			return 0;
		h = p->pack + off;
		if (((*h >> 4) & 7) != GIT_OBJECT_COMMIT)
			return 0;	/* a delta: libgit2's */
		size = *h & 15;
		while (*h & 0x80) {
			if (++h >= end || shift > 57)
				return 0;
			size |= (uint64_t)(*h & 0x7f) << shift;
			shift += 7;
		}
		h++;
		if (h >= end || size > SIZE_MAX / 2 ||
		    inflate_object(ps, h, end - h, size))
			return 0;
		*data = (const char *)ps->buf;
		*len = size;
		return 1;
	}
	return 0;
}

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
 *
 * In a cold walk a second thread reads ahead: git writes the commits of a
 * pack first, newest first (the order of the walk from the tips), so it
 * inflates them in pack order while the walk looks them up by offset and
 * finds most already inflated.  What it has not reached yet the walk
 * inflates itself, so the read-ahead only ever saves time; it stops at the
 * first tree or blob, or when the walk ends, and holds what it read in a
 * ring of fixed size that the walk frees as it goes.  When the walk
 * catches up with it, it leaps ahead and leaves the commits in between to
 * the walk: the two cores share the inflating, each its own commits.
 */
#include "track/index-internal.h"
#include "core/error.h"
#include "core/strbuf.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
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

/* A commit the read-ahead inflated, in pack order; its text in the ring. */
struct ahead_slot {
	uint64_t off;
	uint64_t at;		/* where in the ring (bytes ever written) */
	size_t len;
};

/* Commits the read-ahead reads at most. */
#define AHEAD_MAX_COMMITS (1u << 20)
/*
 * The inflated texts go round a ring this size: reused memory, where fresh
 * memory cost a page fault per 4 KiB, and the read-ahead's lead is bounded.
 */
#define AHEAD_RING ((size_t)2 << 20)
/* How far ahead of the read-ahead the walk waits for it (pack bytes). */
#define AHEAD_WAIT_BYTES ((uint64_t)1 << 20)
/*
 * The walk goes on in pack order while each commit is at most this many
 * pack bytes after the one before; only such a commit moves the
 * read-ahead on (a skip, a leap, text freed in the ring).
 */
#define AHEAD_STEP_BYTES ((uint64_t)64 << 10)
/*
 * When the walk comes this close behind the read-ahead, the read-ahead
 * leaps this far ahead and the walk inflates the commits in between
 * itself: where the walk would wait, the two cores share the inflating,
 * each its own commits.
 */
#define AHEAD_NEAR_BYTES ((uint64_t)64 << 10)
#define AHEAD_LEAP_BYTES ((uint64_t)256 << 10)
/* Where objects start is kept per segment of the pack this size. */
#define AHEAD_SEG_BYTES ((uint64_t)64 << 10)
/* The walk tells where it is when it has gone on this far. */
#define WALK_TELL_BYTES ((uint64_t)16 << 10)
/*
 * A walk that has to wait sleeps until the read-ahead is this far past
 * what it wants: woken once for a few hundred commits, not once for each.
 */
#define AHEAD_WAKE_BYTES ((uint64_t)64 << 10)

struct ahead {
	pthread_t thread;
	_Atomic uint64_t walk_pos;	/* where the walk reads in pack order */
	atomic_int stop;
	_Atomic uint64_t walk_end;	/* past the last commit the walk inflated */
	_Atomic uint64_t pos;		/* every object before it is read */
	atomic_int done;		/* the read-ahead has stopped */
	struct ahead_slot *slots;	/* pack 0's, by offset */
	_Atomic size_t nr;		/* slots published (release) */
	size_t cursor;			/* the walk's last hit */
	char *ring;
	uint64_t written;		/* the read-ahead's, in the ring */
	_Atomic uint64_t freed;		/* the walk's: text before it is dead */
	atomic_int blocked;		/* the ring is full of unread text */
	_Atomic uint64_t want;		/* the walk sleeps until pos passes it */
	/* the read-ahead sleeps until freed reaches it (0: it does not) */
	_Atomic uint64_t room_want;
	pthread_mutex_t lock;
	pthread_cond_t moved, room;
	struct libdeflate_decompressor *inflater;
	unsigned char *scratch;
	size_t scratch_alloc;
	/* the first object starting in each segment (UINT64_MAX: none) */
	uint64_t *seg_first;
	size_t nr_segs;
};

struct sk_packs {
	struct pack *p;
	size_t nr, alloc;
	struct libdeflate_decompressor *inflater;
	unsigned char *buf;
	size_t buf_alloc;
	struct ahead *ahead;
	/* with a read-ahead: the walk's last commit in pack 0, and the
	 * walk_pos it last told */
	uint64_t last_off, told;
};

static uint64_t entry_offset(const struct pack *p, uint32_t i);

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

/* ---- the read-ahead of a cold walk ---- */

/* Wakes a walk waiting for the read-ahead, if it waits (or always). */
static void ahead_wake(struct ahead *a, uint64_t pos, int always)
{
	uint64_t want = atomic_load(&a->want);

	if (!want || (!always && pos <= want))
		return;
	pthread_mutex_lock(&a->lock);
	atomic_store(&a->want, 0);
	pthread_cond_signal(&a->moved);
	pthread_mutex_unlock(&a->lock);
}

/* Wakes the read-ahead if it sleeps for room the walk has now freed. */
static void ahead_room(struct ahead *a, uint64_t freed)
{
	uint64_t want = atomic_load(&a->room_want);

	if (!want || freed < want)
		return;
	pthread_mutex_lock(&a->lock);
	atomic_store(&a->room_want, 0);
	pthread_cond_signal(&a->room);
	pthread_mutex_unlock(&a->lock);
}

/*
 * Room for size bytes in the ring (contiguous), once the walk has passed
 * what it would overwrite; NULL when stopped.  A read-ahead a ring ahead
 * of the walk sleeps, where it spun: the walk and the store thread are
 * what the walk waits for then, and they can have its core.
 */
static char *ahead_alloc(struct ahead *a, size_t size, uint64_t *at)
{
	uint64_t pos = a->written, need;

	if (pos % AHEAD_RING + size > AHEAD_RING)
		pos += AHEAD_RING - pos % AHEAD_RING;
	need = pos + size - AHEAD_RING;
	while (pos + size > atomic_load(&a->freed) + AHEAD_RING) {
		if (atomic_load_explicit(&a->stop, memory_order_relaxed))
			return NULL;
		if (!atomic_load_explicit(&a->blocked, memory_order_relaxed)) {
			atomic_store(&a->blocked, 1);
			ahead_wake(a, 0, 1);
		}
		/* woken when a sixteenth of the ring is free again */
		pthread_mutex_lock(&a->lock);
		atomic_store(&a->room_want, need + AHEAD_RING / 16);
		if (!atomic_load(&a->stop) &&
		    pos + size > atomic_load(&a->freed) + AHEAD_RING)
			pthread_cond_wait(&a->room, &a->lock);
		atomic_store(&a->room_want, 0);
		pthread_mutex_unlock(&a->lock);
	}
	atomic_store_explicit(&a->blocked, 0, memory_order_relaxed);
	a->written = pos + size;
	*at = pos;
	return a->ring + pos % AHEAD_RING;
}

static void ahead_publish(struct ahead *a, uint64_t off, uint64_t at,
			  size_t len)
{
	size_t nr = atomic_load_explicit(&a->nr, memory_order_relaxed);

	a->slots[nr].off = off;
	a->slots[nr].at = at;
	a->slots[nr].len = len;
	atomic_store_explicit(&a->nr, nr + 1, memory_order_release);
}

/*
 * Inflates the zlib stream of an object at in (exactly size bytes) into
 * out: the bytes of the stream (header and Adler-32 included), or 0.  Raw
 * deflate past the zlib header: git checks no Adler-32 here either, and
 * libdeflate, with the whole object in memory and its size known, is about
 * twice as fast as zlib's inflate on objects this small.
 */
static size_t zlib_inflate(struct libdeflate_decompressor *d,
			   const unsigned char *in, size_t in_len, void *out,
			   size_t size)
{
	size_t used, got;

	if (in_len < 2 + 4 || (in[0] & 0x0f) != 8 ||
	    (in[0] << 8 | in[1]) % 31 || (in[1] & 0x20))
		return 0;
	if (libdeflate_deflate_decompress_ex(d, in + 2, in_len - 2, out, size,
					    &used, &got) !=
	    LIBDEFLATE_SUCCESS || got != size)
		return 0;
	return 2 + used + 4;
}

/*
 * The first object starting at off or after it, from the .idx (read once,
 * at the first leap), or 0.
 */
static uint64_t ahead_boundary(struct ahead *a, const struct pack *p,
			       uint64_t off)
{
	size_t k;
	uint32_t i;

	if (!a->seg_first) {
		a->nr_segs = p->pack_size / AHEAD_SEG_BYTES + 1;
		a->seg_first = sk_xmalloc(a->nr_segs * sizeof(*a->seg_first));
		memset(a->seg_first, 0xff, a->nr_segs * sizeof(*a->seg_first));
		for (i = 0; i < p->nr; i++) {
			uint64_t o = entry_offset(p, i);

			k = o / AHEAD_SEG_BYTES;
			if (o && k < a->nr_segs && o < a->seg_first[k])
				a->seg_first[k] = o;
		}
	}
	for (k = (off + AHEAD_SEG_BYTES - 1) / AHEAD_SEG_BYTES;
	     k < a->nr_segs; k++)
		if (a->seg_first[k] != UINT64_MAX)
			return a->seg_first[k];
	return 0;
}

/* The pack's objects in order, the commits inflated, until the first tree. */
static void *ahead_main(void *arg)
{
	struct sk_packs *ps = arg;
	struct ahead *a = ps->ahead;
	const struct pack *p = &ps->p[0];
	const unsigned char *h = p->pack + 12, *end = p->pack + p->pack_size - 20;
	uint32_t n;

	for (n = 0; n < p->nr && h < end; n++) {
		uint64_t w = atomic_load_explicit(&a->walk_end,
						  memory_order_relaxed);
		unsigned int type, shift = 4;
		uint64_t off, size, at = 0;
		size_t used;
		void *out;

		if (w > (uint64_t)(h - p->pack) && w < p->pack_size - 20)
			h = p->pack + w;
		w = atomic_load_explicit(&a->walk_pos, memory_order_relaxed);
		off = h - p->pack;
		if (w && w <= off && off - w < AHEAD_NEAR_BYTES) {
			uint64_t to = ahead_boundary(a, p,
						     off + AHEAD_LEAP_BYTES);

			if (to > off && to < p->pack_size - 20)
				h = p->pack + to;
		}
		type = (*h >> 4) & 7;
		off = h - p->pack;
		size = *h & 15;

		if (atomic_load_explicit(&a->stop, memory_order_relaxed) ||
		    atomic_load_explicit(&a->nr, memory_order_relaxed) >=
		    AHEAD_MAX_COMMITS ||
		    type == GIT_OBJECT_TREE || type == GIT_OBJECT_BLOB)
			break;
		while (*h & 0x80 && h + 1 < end && shift <= 57) {
			h++;
			size |= (uint64_t)(*h & 0x7f) << shift;
			shift += 7;
		}
		if (*h & 0x80)
			break;
		h++;
		if (type == GIT_OBJECT_OFS_DELTA) {
			while (h < end && (*h & 0x80))
				h++;
			h++;
		} else if (type == GIT_OBJECT_REF_DELTA) {
			h += GIT_OID_RAWSZ;
		} else if (type != GIT_OBJECT_COMMIT &&
			   type != GIT_OBJECT_TAG) {
			break;
		}
		if (h >= end || size >= AHEAD_RING / 2)
			break;
		if (type == GIT_OBJECT_COMMIT) {
			out = ahead_alloc(a, size + 1, &at);
			if (!out)
				break;
		} else {
			if (a->scratch_alloc < size + 1) {
				free(a->scratch);
				a->scratch_alloc = size + 1;
				a->scratch = sk_xmalloc(a->scratch_alloc);
			}
			out = a->scratch;
		}
		used = zlib_inflate(a->inflater, h, end - h, out, size);
		if (!used)
			break;
		if (type == GIT_OBJECT_COMMIT) {
			((char *)out)[size] = '\0';
			ahead_publish(a, off, at, size);
		}
		h += used;
		atomic_store(&a->pos, (uint64_t)(h - p->pack));
		ahead_wake(a, (uint64_t)(h - p->pack), 0);
	}
	atomic_store(&a->done, 1);
	ahead_wake(a, 0, 1);
	return NULL;
}

/*
 * Starts reading the commits of the largest pack ahead of the walk; any
 * failure to start only means there is no read-ahead.
 */
void sk_index__packs_read_ahead(struct sk_packs *ps)
{
	struct ahead *a;
	size_t i;

	if (!ps || !ps->nr || ps->ahead)
		return;
	for (i = 1; i < ps->nr; i++)
		if (ps->p[i].nr > ps->p[0].nr) {
			struct pack t = ps->p[0];

			ps->p[0] = ps->p[i];
			ps->p[i] = t;
		}
	a = sk_xcalloc(1, sizeof(*a));
	/* only what is written is touched: the pages come as it goes */
	a->slots = sk_xmalloc(AHEAD_MAX_COMMITS * sizeof(*a->slots));
	a->ring = sk_xmalloc(AHEAD_RING);
	a->inflater = libdeflate_alloc_decompressor();
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->moved, NULL);
	pthread_cond_init(&a->room, NULL);
	ps->ahead = a;
	if (!a->inflater || pthread_create(&a->thread, NULL, ahead_main, ps)) {
		if (a->inflater)
			libdeflate_free_decompressor(a->inflater);
		pthread_cond_destroy(&a->moved);
		pthread_cond_destroy(&a->room);
		pthread_mutex_destroy(&a->lock);
		free(a->ring);
		free(a->slots);
		free(a);
		ps->ahead = NULL;
	}
}

void sk_index__packs_stop_ahead(struct sk_packs *ps)
{
	struct ahead *a = ps ? ps->ahead : NULL;

	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	atomic_store(&a->stop, 1);
	pthread_cond_signal(&a->room);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	libdeflate_free_decompressor(a->inflater);
	pthread_cond_destroy(&a->moved);
	pthread_cond_destroy(&a->room);
	pthread_mutex_destroy(&a->lock);
	free(a->ring);
	free(a->scratch);
	free(a->seg_first);
	free(a->slots);
	free(a);
	ps->ahead = NULL;
}

/*
 * The commit at off in pack 0 if the read-ahead has inflated it: the walk
 * goes nearly in pack order, so the slot after its last hit is tried
 * first, then a binary search.  A hit in pack order frees the ring
 * before it (the text the walk had is copied by then); a text before that
 * may be overwritten already and is a miss.
 */
static int ahead_lookup(struct sk_packs *ps, uint64_t off, int in_order,
			const char **data, size_t *len)
{
	struct ahead *a = ps->ahead;
	size_t nr = atomic_load_explicit(&a->nr, memory_order_acquire);
	size_t lo = 0, hi = nr, i = a->cursor;

	if (!nr || off > a->slots[nr - 1].off)
		return 0;
	if (i < nr && a->slots[i].off == off)
		goto found;
	if (++i < nr && a->slots[i].off == off)
		goto found;
	while (lo < hi) {
		i = lo + (hi - lo) / 2;
		if (a->slots[i].off == off)
			goto found;
		if (a->slots[i].off < off)
			lo = i + 1;
		else
			hi = i;
	}
	return 0;
found:
	if (a->slots[i].at < atomic_load_explicit(&a->freed,
						  memory_order_relaxed))
		return 0;
	/* a commit out of order frees nothing: the walk comes back */
	if (in_order) {
		/* seq_cst, as room_want's store and freed's load there */
		atomic_store(&a->freed, a->slots[i].at);
		ahead_room(a, a->slots[i].at);
	}
	a->cursor = i + 1;
	*data = a->ring + a->slots[i].at % AHEAD_RING;
	*len = a->slots[i].len;
	return 1;
}

/*
 * The commit at off from the read-ahead: when it is close ahead of where
 * the read-ahead is, the walk waits for it rather than inflate it too.
 */
static int ahead_find(struct sk_packs *ps, uint64_t off, int in_order,
		      const char **data, size_t *len)
{
	struct ahead *a = ps->ahead;
	uint64_t pos;
	unsigned int spins = 0;

	if (ahead_lookup(ps, off, in_order, data, len))
		return 1;
	for (;;) {
		pos = atomic_load(&a->pos);
		if (pos > off || off - pos > AHEAD_WAIT_BYTES ||
		    atomic_load(&a->done) || atomic_load(&a->blocked))
			break;
		if (++spins < 64)
			continue;
		/* the read-ahead checks want after each pos it stores */
		pthread_mutex_lock(&a->lock);
		atomic_store(&a->want, off + AHEAD_WAKE_BYTES);
		pos = atomic_load(&a->pos);
		if (pos <= off && !atomic_load(&a->done) &&
		    !atomic_load(&a->blocked))
			pthread_cond_wait(&a->moved, &a->lock);
		atomic_store(&a->want, 0);
		pthread_mutex_unlock(&a->lock);
	}
	return pos > off && ahead_lookup(ps, off, in_order, data, len);
}

void sk_index__packs_close(struct sk_packs *ps)
{
	size_t i;

	if (!ps)
		return;
	sk_index__packs_stop_ahead(ps);
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
 * Brings the .idx entries of a commit the walk will read soon into the
 * cache: its first guessed position, where the search nearly always ends
 * (the lookups miss the cache otherwise; a tenth of a cold walk).
 */
void sk_index__packs_prefetch(const struct sk_packs *ps, const git_oid *oid)
{
	const struct pack *p;
	unsigned int b = oid->id[0];
	uint32_t lo, hi, mid;
	uint64_t key = be64(oid->id), klo, khi;

	if (!ps || !ps->nr)
		return;
	p = &ps->p[0];
	lo = b ? be32(p->fanout + 4 * (b - 1)) : 0;
	hi = be32(p->fanout + 4 * b);
	if (lo >= hi)
		return;
	klo = be64(p->oids + (size_t)lo * 20);
	khi = be64(p->oids + (size_t)(hi - 1) * 20);
	if (key < klo || key > khi || khi == klo)
		return;
	mid = lo + (uint32_t)((unsigned __int128)(key - klo) * (hi - 1 - lo) /
			      (khi - klo));
	__builtin_prefetch(p->oids + (size_t)mid * 20);
	__builtin_prefetch(p->offs + (size_t)mid * 4);
}

/* The object at in into ps->buf; the bytes of its stream, or 0. */
static size_t inflate_object(struct sk_packs *ps, const unsigned char *in,
			     size_t in_len, size_t size)
{
	size_t used;

	if (!ps->inflater && !(ps->inflater = libdeflate_alloc_decompressor()))
		return 0;
	if (ps->buf_alloc < size + 1) {
		ps->buf_alloc = size + 1 > 2 * ps->buf_alloc ? size + 1 :
			2 * ps->buf_alloc;
		free(ps->buf);
		ps->buf = sk_xmalloc(ps->buf_alloc);
	}
	used = zlib_inflate(ps->inflater, in, in_len, ps->buf, size);
	if (used)
		ps->buf[size] = '\0';
	return used;
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
		int in_order = 0;
		size_t used;
		const unsigned char *h, *end = p->pack + p->pack_size - 20;
		unsigned int shift = 4;

		if (!off)
			continue;
		if (off < 12 || off >= (uint64_t)(end - p->pack))
			return 0;
		if (i == 0 && ps->ahead) {
			in_order = off > ps->last_off &&
				off - ps->last_off <= AHEAD_STEP_BYTES;
			ps->last_off = off;
			if (in_order && off - ps->told >= WALK_TELL_BYTES) {
				ps->told = off;
				atomic_store_explicit(&ps->ahead->walk_pos,
						      off,
						      memory_order_relaxed);
			}
			if (ahead_find(ps, off, in_order, data, len))
				return 1;
		}
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
		    !(used = inflate_object(ps, h, end - h, size)))
			return 0;
		/*
		 * The read-ahead goes on past what the walk read itself, when
		 * the walk goes on in pack order.  Not past a commit out of
		 * that order: git writes tagged commits (a range's base) near
		 * the front of the pack, and skipping to one left the
		 * read-ahead past thousands of commits the walk still wanted.
		 */
		if (in_order)
			atomic_store_explicit(&ps->ahead->walk_end,
					      (uint64_t)(h + used - p->pack),
					      memory_order_relaxed);
		*data = (const char *)ps->buf;
		*len = size;
		return 1;
	}
	return 0;
}

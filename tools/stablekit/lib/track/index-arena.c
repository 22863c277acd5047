/*
 * Memory for many small things freed together, in few large allocations:
 * the nodes and parent lists of the commit graph, and the texts of the
 * lookup rows a cold fill keeps back: hundreds of thousands of each on a
 * kernel tree, none freed before the rest.
 */
#include "track/index-internal.h"

#include <stdlib.h>
#include <string.h>

/* Few, large allocations. */
struct arena_block {
	struct arena_block *prev;
	size_t used, size;
	char data[];
};

#define ARENA_BLOCK (1 << 20)

void *sk_index__arena_alloc(struct arena_block **arena, size_t size)
{
	struct arena_block *b = *arena;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (!b || b->size - b->used < size) {
		size_t bs = size > ARENA_BLOCK ? size : ARENA_BLOCK;

		b = sk_xmalloc(sizeof(*b) + bs);
		b->prev = *arena;
		b->used = 0;
		b->size = bs;
		*arena = b;
	}
	p = b->data + b->used;
	b->used += size;
	return p;
}

char *sk_index__arena_strdup(struct arena_block **arena, const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(sk_index__arena_alloc(arena, len), s, len);
}

void sk_index__arena_free(struct arena_block **arena)
{
	while (*arena) {
		struct arena_block *b = *arena;

		*arena = b->prev;
		free(b);
	}
}


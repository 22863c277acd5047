#include "gate/batch.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct batch_item {
	sk_batch_fn fn;
	void *data;
	size_t i;
};

static void *batch_thread(void *arg)
{
	struct batch_item *it = arg;

	it->fn(it->data, it->i);
	return NULL;
}

/* One batch; an item whose thread cannot start runs here instead. */
static void run_batch(size_t first, size_t count, sk_batch_fn fn, void *data)
{
	struct batch_item items[64];
	pthread_t threads[64];
	int started[64] = { 0 };
	size_t k;

	for (k = 1; k < count; k++) {
		items[k] = (struct batch_item){ fn, data, first + k };
		started[k] = !pthread_create(&threads[k], NULL, batch_thread,
					     &items[k]);
	}
	fn(data, first);
	for (k = 1; k < count; k++) {
		if (started[k])
			pthread_join(threads[k], NULL);
		else
			fn(data, first + k);
	}
}

void sk_batch_run(size_t nr, unsigned int slots, sk_batch_fn fn,
		  sk_batch_done_fn done, void *data)
{
	size_t first, count;

	if (slots < 1)
		slots = 1;
	if (slots > 64)
		slots = 64;
	for (first = 0; first < nr; first += count) {
		count = nr - first < slots ? nr - first : slots;
		run_batch(first, count, fn, data);
		if (done)
			done(data, first, count);
	}
}

unsigned int sk_batch_guest_slots(void)
{
	const char *env = getenv("SK_GUESTS");
	long n = env ? strtol(env, NULL, 10) : 0;

	if (n <= 0)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned int)n : 1;
}

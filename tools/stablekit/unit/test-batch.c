#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "gate/batch.h"

#define MAX_ITEMS 16

struct record {
	size_t slots, nr;
	atomic_int runs[MAX_ITEMS];
	atomic_int finished[MAX_ITEMS];
	atomic_int arrived[MAX_ITEMS];	/* per batch */
	int met_peers[MAX_ITEMS];	/* saw every item of its batch running */
	size_t done_first[MAX_ITEMS], done_count[MAX_ITEMS], nr_done;
	int done_saw_unfinished, done_saw_later;
};

static size_t batch_size(const struct record *r, size_t batch)
{
	size_t first = batch * r->slots;

	return r->nr - first < r->slots ? r->nr - first : r->slots;
}

/* Wait (2 s at most) for the rest of the batch: only together can all arrive. */
static void record_item(void *data, size_t i)
{
	struct record *r = data;
	size_t batch = i / r->slots, want = batch_size(r, batch);
	struct timespec pause = { 0, 1000000 };
	int waited;

	atomic_fetch_add(&r->runs[i], 1);
	atomic_fetch_add(&r->arrived[batch], 1);
	for (waited = 0; waited < 2000; waited++) {
		if ((size_t)atomic_load(&r->arrived[batch]) >= want)
			break;
		nanosleep(&pause, NULL);
	}
	r->met_peers[i] = (size_t)atomic_load(&r->arrived[batch]) >= want;
	atomic_store(&r->finished[i], 1);
}

static void record_done(void *data, size_t first, size_t count)
{
	struct record *r = data;
	size_t i;

	r->done_first[r->nr_done] = first;
	r->done_count[r->nr_done++] = count;
	for (i = first; i < first + count; i++)
		if (!atomic_load(&r->finished[i]))
			r->done_saw_unfinished = 1;
	for (i = first + count; i < r->nr; i++)
		if (atomic_load(&r->runs[i]))
			r->done_saw_later = 1;
}

static void run_recorded(struct record *r, size_t nr, unsigned int slots)
{
	memset(r, 0, sizeof(*r));
	r->nr = nr;
	r->slots = slots ? slots : 1;
	sk_batch_run(nr, slots, record_item, record_done, r);
}

static void test_batches_in_order(void **state)
{
	struct record r;
	size_t i;

	(void)state;
	run_recorded(&r, 5, 2);
	for (i = 0; i < 5; i++) {
		assert_int_equal(atomic_load(&r.runs[i]), 1);
		assert_true(r.met_peers[i]);
	}
	assert_int_equal(r.nr_done, 3);
	assert_int_equal(r.done_first[0], 0);
	assert_int_equal(r.done_count[0], 2);
	assert_int_equal(r.done_first[1], 2);
	assert_int_equal(r.done_count[1], 2);
	assert_int_equal(r.done_first[2], 4);
	assert_int_equal(r.done_count[2], 1);
	assert_false(r.done_saw_unfinished);
	assert_false(r.done_saw_later);
}

static void test_one_slot_is_serial(void **state)
{
	struct record r;
	size_t i;

	(void)state;
	run_recorded(&r, 3, 0);
	assert_int_equal(r.nr_done, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(atomic_load(&r.runs[i]), 1);
		assert_int_equal(r.done_first[i], i);
		assert_int_equal(r.done_count[i], 1);
	}
	assert_false(r.done_saw_later);
}

static void test_nothing_to_run(void **state)
{
	struct record r;

	(void)state;
	run_recorded(&r, 0, 2);
	assert_int_equal(r.nr_done, 0);
	sk_batch_run(0, 2, record_item, NULL, &r);
}

static void test_guest_slots(void **state)
{
	(void)state;
	setenv("SK_GUESTS", "3", 1);
	assert_int_equal(sk_batch_guest_slots(), 3);
	setenv("SK_GUESTS", "0", 1);
	assert_true(sk_batch_guest_slots() >= 1);
	setenv("SK_GUESTS", "junk", 1);
	assert_true(sk_batch_guest_slots() >= 1);
	unsetenv("SK_GUESTS");
	assert_true(sk_batch_guest_slots() >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batches_in_order),
		cmocka_unit_test(test_one_slot_is_serial),
		cmocka_unit_test(test_nothing_to_run),
		cmocka_unit_test(test_guest_slots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

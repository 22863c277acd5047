#ifndef SK_BATCH_H
#define SK_BATCH_H

#include <stddef.h>

/*
 * Run fn(data, 0) .. fn(data, nr - 1), at most slots at a time, in batches
 * of slots in index order: batch k starts when batch k - 1 has ended, and
 * after each batch done(data, first, count) runs in the calling thread.
 * The guests of a gate are single threaded (TCG), so two of them fill two
 * cores; batches keep a baseline run and its patched run side by side.
 * fn runs in its own thread for every item of a batch but the first.
 */
typedef void (*sk_batch_fn)(void *data, size_t i);
typedef void (*sk_batch_done_fn)(void *data, size_t first, size_t count);

void sk_batch_run(size_t nr, unsigned int slots, sk_batch_fn fn,
		  sk_batch_done_fn done, void *data);

/* Guests to run side by side: $SK_GUESTS when above 0, else the online CPUs. */
unsigned int sk_batch_guest_slots(void);

#endif

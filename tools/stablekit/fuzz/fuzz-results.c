/*
 * The readers of build.json, gate.json and the status JSON
 * (build/build-results, gate/gate-results, track/status-results) over
 * any JSON.  Invariants: a reader either fails
 * with SK_EINVALID or fills a struct; what the writer makes of that
 * struct reads back to the same JSON.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "build/build-results.h"
#include "core/error.h"
#include "gate/gate-results.h"
#include "track/status-results.h"

static void build_round(json_t *o)
{
	struct sk_build_results a, b;
	json_t *first, *second;
	int ret = sk_build_results_from_json(&a, o, "fuzz");

	if (ret && ret != SK_EINVALID)
		abort();
	if (ret)
		return;
	first = sk_build_results_to_json(&a);
	if (sk_build_results_from_json(&b, first, "fuzz"))
		abort();
	second = sk_build_results_to_json(&b);
	if (!json_equal(first, second))
		abort();
	json_decref(first);
	json_decref(second);
	sk_build_results_release(&a);
	sk_build_results_release(&b);
}

static void gate_round(json_t *o)
{
	struct sk_gate_results a, b;
	json_t *first, *second;
	int ret = sk_gate_results_from_json(&a, o, "fuzz");

	if (ret && ret != SK_EINVALID)
		abort();
	if (ret)
		return;
	first = sk_gate_results_to_json(&a);
	if (sk_gate_results_from_json(&b, first, "fuzz"))
		abort();
	second = sk_gate_results_to_json(&b);
	if (!json_equal(first, second))
		abort();
	json_decref(first);
	json_decref(second);
	sk_gate_results_release(&a);
	sk_gate_results_release(&b);
}

static void status_round(json_t *o)
{
	struct sk_status_results a, b;
	json_t *first, *second;
	int ret = sk_status_results_from_json(&a, o, "fuzz");

	if (ret && ret != SK_EINVALID)
		abort();
	if (ret) {
		sk_status_results_release(&a);
		return;
	}
	first = sk_status_results_to_json(&a);
	if (sk_status_results_from_json(&b, first, "fuzz"))
		abort();
	second = sk_status_results_to_json(&b);
	if (!json_equal(first, second))
		abort();
	json_decref(first);
	json_decref(second);
	sk_status_results_release(&a);
	sk_status_results_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *o = json_loadb((const char *)data, size, 0, NULL);

	if (!o)
		return 0;
	build_round(o);
	gate_round(o);
	status_round(o);
	sk_error_clear();
	json_decref(o);
	return 0;
}

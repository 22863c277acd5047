#ifndef SK_DATADIR_H
#define SK_DATADIR_H

/*
 * stablekit's shipped files: the manual pages, the report's schema, the
 * default kconfig fragments, the guest's init and benchmark, the gate's
 * thresholds, the pinned trees and the benchmark helpers' sources.  They
 * live in one data directory, laid out as `make install` writes it
 * ($(PREFIX)/share/stablekit):
 *
 *   ci/kconfig/<name>.config  ci/guest/...  ci/gate.conf  ci/trees.conf
 *   Documentation/stablekit-<command>.txt  Documentation/report-schema.json
 *   helpers/<name>.c  MAINTAINERS (what stablekit init copies)
 *
 * Which directory, first that holds:
 *
 *   1. $SK_DATADIR, when set and not empty (as it is, checked by nobody);
 *   2. <bindir>/../share/stablekit, bindir the running binary's directory
 *      (/proc/self/exe), when it exists: an installed stablekit, wherever
 *      its tree was copied to (a DESTDIR, a package's root);
 *   3. the source checkout the binary was built in, when it runs from it
 *      (<checkout>/build/<dir>/stablekit beside <checkout>/tools/stablekit):
 *      the checkout's own files, Documentation/ and helpers/ read from
 *      tools/stablekit/;
 *   4. the install prefix baked in at build time (SK_PREFIX, `make
 *      PREFIX=...`, default /usr/local) + /share/stablekit.
 *
 * No build path is compiled in: 3 is found from the binary's place.
 */

/* The data directory (caller frees); never NULL. */
char *sk_datadir(void);

/* How sk_datadir() chose: "SK_DATADIR", "installed", "checkout" or "prefix". */
const char *sk_datadir_source(void);

/*
 * <datadir>/<rel>, rel in the installed layout ("ci/kconfig",
 * "Documentation/stablekit-port.txt", "helpers/usemem.c"); in a checkout
 * Documentation/ and helpers/ are under tools/stablekit/.  Caller frees.
 */
char *sk_datadir_path(const char *rel);

/*
 * A project's own file first: <top>/<rel> when it exists, else the shipped
 * one (sk_datadir_path); *shipped, when not NULL, says which.  For the
 * files a project may override: ci/kconfig, ci/kconfig/gate-*.config,
 * ci/guest/init, ci/guest/bench.sh, ci/gate.conf, ci/trees.conf.
 */
char *sk_datadir_find(const char *top, const char *rel, int *shipped);

#endif

#ifndef SK_KCONFIG_H
#define SK_KCONFIG_H

#include <stddef.h>
#include <git2.h>

/*
 * What each Kconfig symbol of a tree depends on: the plain symbols its
 * "depends on" lines require, and those of the "if" blocks, menus and
 * choices around it.  olddefconfig drops a symbol whose dependencies are
 * unmet (DAMON_VADDR_KUNIT_TEST without KUNIT=y), so enabling a symbol
 * for the compile check means enabling these too.
 *
 * Only what must hold is kept: the symbols of an "A && B" chain, "A=y",
 * "A=m" and "A!=n"; a term with "||", a negation or a comparison with
 * anything else requires no one symbol and is left out.  The
 * architectures other than x86 are not read.
 */
struct sk_kconfig;

/* Every Kconfig file of tree (Kconfig, Kconfig.*), parsed. */
int sk_kconfig_load(struct sk_kconfig **out, git_repository *repo,
		    const git_oid *tree);
/* One file's text into k (k from sk_kconfig_new); for tests. */
struct sk_kconfig *sk_kconfig_new(void);
void sk_kconfig_parse(struct sk_kconfig *k, const char *text, size_t len);
/*
 * The symbols sym (no CONFIG_ prefix) depends on, from every definition
 * of it; *nr is 0 for a symbol no file defines.
 */
char *const *sk_kconfig_depends(struct sk_kconfig *k, const char *sym,
				size_t *nr);
/* 1 if some Kconfig file defines sym. */
int sk_kconfig_defines(struct sk_kconfig *k, const char *sym);
void sk_kconfig_free(struct sk_kconfig *k);

#endif

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/diff.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "port/preimage.h"

/* A hunk of mainline's __folio_split(), the function 6.12 lacks. */
static const char diff_text[] =
	"diff --git a/mm/huge_memory.c b/mm/huge_memory.c\n"
	"--- a/mm/huge_memory.c\n"
	"+++ b/mm/huge_memory.c\n"
	"@@ -3619,6 +3619,9 @@ static int __folio_split(struct folio *folio, unsigned int new_order,\n"
	" \tif (!folio_test_anon(folio) && !folio->mapping)\n"
	" \t\treturn -EBUSY;\n"
	" \n"
	"+\tif (folio_test_writeback(folio))\n"
	"+\t\treturn -EBUSY;\n"
	"+\n"
	" \tanon_vma = folio_get_anon_vma(folio);\n"
	" \tif (!anon_vma)\n"
	" \t\tgoto out;\n";

/* The same code inside the function the branch has, more indented. */
static const char branch_text[] =
	"#include <linux/mm.h>\n"
	"\n"
	"int split_huge_page_to_list_to_order(struct page *page,\n"
	"\t\tstruct list_head *list, unsigned int new_order)\n"
	"{\n"
	"\tstruct folio *folio = page_folio(page);\n"
	"\n"
	"\tif (new_order) {\n"
	"\t\tif (!folio_test_anon(folio) && !folio->mapping)\n"
	"\t\t\treturn -EBUSY;\n"
	"\t}\n"
	"\n"
	"\tanon_vma = folio_get_anon_vma(folio);\n"
	"\tif (!anon_vma)\n"
	"\t\tgoto out;\n"
	"out:\n"
	"\treturn 0;\n"
	"}\n";

struct fixture {
	struct sk_diff diff;
	char *dir;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || sk_diff_parse(&f->diff, diff_text, strlen(diff_text), "t", 1, 0) ||
	    sk_mkdtemp_in(&f->dir, sk_tmp_dir(), "sk-test-preimage"))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	sk_diff_release(&f->diff);
	sk_rmrf(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static const struct sk_diff_hunk *hunk(void **state)
{
	return &((struct fixture *)*state)->diff.files[0].hunks[0];
}

static void put(void **state, const char *path, const char *text)
{
	struct fixture *f = *state;
	char *full = sk_path_join(f->dir, path), *slash = strrchr(full, '/');

	*slash = '\0';
	assert_int_equal(sk_mkdir_p(full, 0755), 0);
	*slash = '/';
	assert_int_equal(sk_write_file_atomic(full, text, strlen(text)), 0);
	free(full);
}

/* The lines, indented otherwise, in the function the branch has them in. */
static void test_lines_in_the_folded_function(void **state)
{
	struct sk_preimage_place p;

	assert_int_equal(sk_preimage_find_text(&p, "mm/huge_memory.c", branch_text,
					       hunk(state)), 1);
	assert_string_equal(p.def, "split_huge_page_to_list_to_order");
	assert_int_equal(p.def_line, 3);
	assert_int_equal(p.line, 9);
	/* the blank line does not count */
	assert_int_equal(p.distinctive, 5);
	assert_int_equal(p.matched, 5);
	sk_preimage_place_release(&p);
}

/*
 * One line in common is no place, nor are short common lines together
 * ("return -EBUSY;" and "goto out;" are in every other function).
 */
static void test_one_line_is_not_a_place(void **state)
{
	struct sk_preimage_place p;

	assert_int_equal(sk_preimage_find_text(&p, "x.c",
		"void f(void)\n{\n\tanon_vma = folio_get_anon_vma(folio);\n}\n",
		hunk(state)), 0);
	assert_null(p.path);
	assert_int_equal(sk_preimage_find_text(&p, "x.c",
		"int g(int x)\n{\n\tif (!anon_vma)\n\t\treturn -EBUSY;\n"
		"\tif (x)\n\t\tgoto out;\nout:\n\treturn 0;\n}\n",
		hunk(state)), 0);
}

/* A file the branch lacks: the file beside it that has the lines. */
static void test_absent_file_searches_its_folder(void **state)
{
	struct fixture *f = *state;
	struct sk_preimage_place p;

	put(state, "mm/compaction.c", "int other(void)\n{\n\treturn 0;\n}\n");
	put(state, "mm/migrate.c", branch_text);
	put(state, "mm/migrate.h", branch_text);
	/* as good a place: the first path, whatever order the folder lists */
	put(state, "mm/zswap.c", branch_text);
	assert_int_equal(sk_preimage_find(&p, f->dir, "mm/huge_memory.c",
					  hunk(state)), 1);
	assert_string_equal(p.path, "mm/migrate.c");
	assert_string_equal(p.def, "split_huge_page_to_list_to_order");
	sk_preimage_place_release(&p);
	/* nothing like it in the folder */
	assert_int_equal(sk_preimage_find(&p, f->dir, "kernel/fork.c",
					  hunk(state)), 0);
}

static void test_defines(void **state)
{
	struct fixture *f = *state;

	put(state, "mm/huge_memory.c", branch_text);
	assert_true(sk_preimage_defines(f->dir, "mm/huge_memory.c",
					"split_huge_page_to_list_to_order"));
	assert_false(sk_preimage_defines(f->dir, "mm/huge_memory.c",
					 "__folio_split"));
	assert_false(sk_preimage_defines(f->dir, "mm/absent.c", "x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lines_in_the_folded_function, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_line_is_not_a_place, setup, teardown),
		cmocka_unit_test_setup_teardown(test_absent_file_searches_its_folder, setup, teardown),
		cmocka_unit_test_setup_teardown(test_defines, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

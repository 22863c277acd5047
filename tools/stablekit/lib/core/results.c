#include "core/results.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/strbuf.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>

char *sk_work_dir(const char *top)
{
	const char *w = getenv("SK_WORK");

	if (w && *w)
		return sk_xstrdup(w);
	return sk_path_join(top ? top : ".", "work");
}

char *sk_results_dir(const char *top)
{
	char *work = sk_work_dir(top), *out = sk_path_join(work, "results");

	free(work);
	return out;
}

json_t *sk_results_load(const char *path, char **why)
{
	json_error_t jerr;
	json_t *o;

	*why = NULL;
	if (!sk_path_exists(path)) {
		*why = sk_xstrfmt("not run: no %s", path);
		return NULL;
	}
	o = json_load_file(path, 0, &jerr);
	if (!o)
		*why = sk_xstrfmt("unreadable: %s:%d: %s", path, jerr.line,
				  jerr.text);
	return o;
}

int sk_results_read_json(json_t **out, const char *path)
{
	char *why = NULL;
	int ret = 0;

	*out = sk_results_load(path, &why);
	if (!*out)
		ret = sk_error_set(strncmp(why, "unreadable:", 11) ?
				   SK_ENOTFOUND : SK_EINVALID, "%s", why);
	free(why);
	return ret;
}

int sk_results_save(const char *path, json_t *o)
{
	char *copy = sk_xstrdup(path), *dump, *text;
	int ret = sk_mkdir_p(dirname(copy), 0755);

	free(copy);
	if (ret)
		return ret;
	dump = json_dumps(o, JSON_INDENT(2) | JSON_SORT_KEYS);
	if (!dump)
		return sk_error_set(SK_ERROR, "%s: cannot encode JSON", path);
	text = sk_xstrfmt("%s\n", dump);
	free(dump);
	ret = sk_write_file_atomic(path, text, strlen(text));
	free(text);
	return ret;
}

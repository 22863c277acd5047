#include "core/identity.h"
#include "core/gitconfig.h"
#include "core/strbuf.h"
#include "core/utf8.h"

#include <git2.h>
#include <stdlib.h>
#include <string.h>

char *sk_identity(const char *top)
{
	char *conf = sk_xstrfmt("%s/stable/branches.conf", top), *out = NULL;
	git_config *cfg = NULL, *def = NULL;
	git_buf a = { 0 }, b = { 0 };

	if (!sk_gitconfig_check(conf) &&
	    !git_config_open_ondisk(&cfg, conf) &&
	    !git_config_get_string_buf(&a, cfg, "stablekit.signoff"))
		out = sk_xstrdup(a.ptr);
	if (!out && !git_config_open_default(&def) &&
	    !git_config_get_string_buf(&a, def, "user.name") &&
	    !git_config_get_string_buf(&b, def, "user.email"))
		out = sk_xstrfmt("%s <%s>", a.ptr, b.ptr);
	/* it signs patches and addresses mail: one line, whatever the config */
	if (out)
		sk_utf8_one_line(out, strlen(out));
	git_buf_dispose(&a);
	git_buf_dispose(&b);
	git_config_free(cfg);
	git_config_free(def);
	free(conf);
	git_error_clear();
	return out;
}

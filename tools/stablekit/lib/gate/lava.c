#include "gate/lava.h"
#include "core/arch.h"
#include "core/error.h"
#include "core/gitconfig.h"
#include "core/fsutil.h"
#include "core/http.h"
#include "core/run.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* --- config --- */

static int get_string(char **out, git_config *cfg, const char *path,
		      const char *key, const char *def)
{
	git_config_entry *e = NULL;
	int err = git_config_get_entry(&e, cfg, key);

	if (err == GIT_ENOTFOUND) {
		if (!def)
			return sk_error_set(SK_EINVALID, "%s: %s is not set",
					    path, key);
		*out = sk_xstrdup(def);
		return 0;
	}
	if (err < 0)
		return sk_error_git(SK_EINVALID, path);
	if (!e->value || !*e->value) {
		git_config_entry_free(e);
		return sk_error_set(SK_EINVALID, "%s: %s is empty", path, key);
	}
	*out = sk_xstrdup(e->value);
	git_config_entry_free(e);
	return 0;
}

static int get_uint(unsigned int *out, git_config *cfg, const char *path,
		    const char *key, unsigned int def, unsigned int min)
{
	int32_t v;
	int err = git_config_get_int32(&v, cfg, key);

	if (err == GIT_ENOTFOUND) {
		*out = def;
		return 0;
	}
	if (err < 0 || v < (int32_t)min)
		return sk_error_set(SK_EINVALID, "%s: %s: want a number of at "
				    "least %u", path, key, min);
	*out = (unsigned int)v;
	return 0;
}

static int has_scheme(const char *url, const char *const *schemes)
{
	for (; *schemes; schemes++)
		if (!strncmp(url, *schemes, strlen(*schemes)) &&
		    url[strlen(*schemes)])
			return 1;
	return 0;
}

/* Nothing that could break out of the job's YAML or the worker's shell. */
static int plain_url(const char *url)
{
	for (; *url; url++)
		if (*url <= ' ' || *url == '"' || *url == '\'' || *url == '\\' ||
		    *url == '`' || *url == '$' || *url >= 127)
			return 0;
	return 1;
}

static int check_config(struct sk_lava *l)
{
	static const char *const web[] = { "http://", "https://", NULL };
	static const char *const art[] = { "http://", "https://", "file:///",
					   NULL };
	size_t n;

	if (!has_scheme(l->url, web) || !plain_url(l->url))
		return sk_error_set(SK_EINVALID, "%s: lava.url: '%s' is not an "
				    "http:// or https:// URL", l->path, l->url);
	if (!has_scheme(l->artifacts_url, art) || !plain_url(l->artifacts_url))
		return sk_error_set(SK_EINVALID, "%s: lava.artifacts-url: '%s' "
				    "is not an http://, https:// or file:/// URL",
				    l->path, l->artifacts_url);
	if (l->artifacts_dir[0] != '/')
		return sk_error_set(SK_EINVALID, "%s: lava.artifacts-dir: '%s' "
				    "is not an absolute path", l->path,
				    l->artifacts_dir);
	if (strchr(l->token, '\n') || strchr(l->token, '\r'))
		return sk_error_set(SK_EINVALID, "%s: lava.token: more than "
				    "one line", l->path);
	{
		/* user:pass@ never reaches results or messages */
		char *host = strstr(l->url, "://") + 3;
		char *at = strchr(host, '@'), *slash = strchr(host, '/');

		if (at && (!slash || at < slash)) {
			char *u = sk_xstrfmt("%.*s%s", (int)(host - l->url),
					     l->url, at + 1);

			l->userinfo = sk_xstrndup(host, (size_t)(at - host));
			free(l->url);
			l->url = u;
		}
	}
	n = strlen(l->url);
	if (l->url[n - 1] != '/') {
		char *u = sk_xstrfmt("%s/", l->url);

		free(l->url);
		l->url = u;
	}
	n = strlen(l->artifacts_url);
	while (n > 1 && l->artifacts_url[n - 1] == '/')
		l->artifacts_url[--n] = '\0';
	return 0;
}

int sk_lava_config(struct sk_lava *out, const char *path)
{
	git_config *cfg = NULL;
	int err;

	memset(out, 0, sizeof(*out));
	if (!sk_path_exists(path))
		return sk_error_set(SK_ENOTFOUND, "%s: no LAVA config (ci/lava/up "
				    "writes one)", path);
	if (sk_gitconfig_check(path))
		return SK_EINVALID;
	if (git_config_open_ondisk(&cfg, path) < 0)
		return sk_error_git(SK_EINVALID, path);
	out->path = sk_xstrdup(path);
	err = get_string(&out->url, cfg, path, "lava.url", NULL);
	if (!err)
		err = get_string(&out->token, cfg, path, "lava.token", NULL);
	if (!err)
		err = get_string(&out->user, cfg, path, "lava.user", "");
	if (!err)
		err = get_string(&out->device_type, cfg, path,
				 "lava.device-type", "qemu");
	if (!err)
		err = get_string(&out->artifacts_dir, cfg, path,
				 "lava.artifacts-dir", NULL);
	if (!err)
		err = get_string(&out->artifacts_url, cfg, path,
				 "lava.artifacts-url", NULL);
	if (!err)
		err = get_uint(&out->queue_timeout_s, cfg, path,
			       "lava.queue-timeout", 3600, 1);
	if (!err)
		err = get_uint(&out->poll_ms, cfg, path, "lava.poll-interval-ms",
			       1000, 50);
	if (!err)
		err = check_config(out);
	git_config_free(cfg);
	if (err)
		sk_lava_release(out);
	return err;
}

void sk_lava_release(struct sk_lava *l)
{
	if (!l)
		return;
	free(l->path);
	free(l->url);
	free(l->userinfo);
	free(l->user);
	free(l->token);
	free(l->device_type);
	free(l->artifacts_dir);
	free(l->artifacts_url);
	memset(l, 0, sizeof(*l));
}

void sk_lava_job_release(struct sk_lava_job *j)
{
	if (!j)
		return;
	free(j->url);
	free(j->device);
	free(j->health);
	free(j->error_type);
	free(j->error_msg);
	memset(j, 0, sizeof(*j));
}

json_t *sk_lava_job_json(const struct sk_lava_job *j)
{
	return json_pack("{s:I, s:s?, s:s?, s:s?, s:s?, s:s?, s:i, s:f}",
			 "job", (json_int_t)j->id, "url", j->url,
			 "device", j->device, "health", j->health,
			 "error_type", j->error_type, "error_msg", j->error_msg,
			 "tries", (int)j->tries, "queued_s", j->queued_s);
}

/* --- the job definition --- */

/* The kernel command line travels in double quotes through a shell. */
static int plain_append(const char *s)
{
	for (; *s; s++)
		if (!(*s == ' ' || *s == '_' || *s == '.' || *s == ',' ||
		      *s == '=' || *s == ':' || *s == '/' || *s == '+' ||
		      *s == '-' || (*s >= '0' && *s <= '9') ||
		      (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
			return 0;
	return 1;
}

/*
 * A KTAP result line, as LAVA's monitor wants it: the name up to a '#'
 * or the end of the line, ended by \s so that a line LAVA has only partly
 * read is not taken with a cut name.
 */
#define KTAP_PATTERN \
	"(?P<result>(not )?ok) [0-9]+ (?P<test_case_id>[^#\\r\\n]+)\\s"

/*
 * The monitor's end, a regex: the whole done line, so that the test
 * action does not end (and the rest of the line go to another level of
 * the log) before its rc has been read.
 */
#define DONE_PATTERN SK_BOOT_MARK_DONE " rc=[0-9]+\\s"

int sk_lava_job_definition(json_t **out, const struct sk_qemu_opts *o,
			   const char *device_type, const char *kernel_url,
			   const char *initrd_url, const char *name)
{
	unsigned int t = o->timeout_s ? o->timeout_s : 600;
	const char *arch = o->arch ? o->arch : "x86_64";
	const struct sk_arch *a;
	json_t *context, *images, *actions;
	char *append, *karg, *smp;

	*out = NULL;
	a = sk_arch_find(!strcmp(arch, "aarch64") ? "arm64" : arch);
	if (!a || !a->qemu_binary)
		return sk_error_set(SK_EINVALID, "lava: no qemu arch for '%s'",
				    arch);
	if (o->append && !plain_append(o->append))
		return sk_error_set(SK_EINVALID, "lava: kernel command line "
				    "'%s' has characters the worker's shell "
				    "would read", o->append);
	/*
	 * panic=0: the panicked guest stays up for LAVA to see the panic (a
	 * job error); with panic=-1 QEMU goes away first and LAVA reports
	 * an infrastructure error instead.
	 */
	append = sk_xstrfmt("console=%s panic=0 printk.time=1%s%s",
			    a->console, o->append ? " " : "",
			    o->append ? o->append : "");
	karg = sk_xstrfmt("-kernel {kernel} -append \"%s\"", append);
	smp = sk_xstrfmt("-smp %u", o->cpus ? o->cpus : 2);
	context = json_pack("{s:s, s:b, s:i, s:[s]}", "arch",
			    a->debian, "no_kvm", 1, "memory",
			    (int)(o->memory_mb ? o->memory_mb : 1024),
			    "extra_options", smp);
	images = json_pack("{s:{s:s, s:s}}", "kernel", "image_arg", karg,
			   "url", kernel_url);
	if (initrd_url)
		json_object_set_new(images, "initrd", json_pack("{s:s, s:s}",
				    "image_arg", "-initrd {initrd}", "url",
				    initrd_url));
	actions = json_pack(
		"[{s:{s:s, s:{s:i}, s:o}},"
		" {s:{s:s, s:s, s:{s:i}, s:[s]}},"
		" {s:{s:{s:i}, s:[{s:s, s:s, s:s, s:s, s:{s:s, s:s}}]}}]",
		"deploy", "to", "tmpfs", "timeout", "minutes", 10,
		"images", images,
		"boot", "method", "qemu", "media", "tmpfs", "timeout",
		"seconds", (int)t, "prompts", "Run /init as init process",
		"test", "timeout", "seconds", (int)t, "monitors", "name",
		"stablekit-guest", "start", SK_BOOT_MARK_START, "end",
		DONE_PATTERN, "pattern", KTAP_PATTERN, "fixupdict",
		"ok", "pass", "not ok", "fail");
	*out = json_pack("{s:s, s:s, s:s, s:s, s:{s:{s:i}, s:{s:i}}, s:o, s:o}",
			 "device_type", device_type, "job_name", name,
			 "priority", "medium", "visibility", "public",
			 "timeouts", "job", "seconds", (int)(2 * t + 900),
			 "connection", "seconds", (int)t,
			 "context", context, "actions", actions);
	free(append);
	free(karg);
	free(smp);
	if (!*out)
		return sk_error_set(SK_ERROR, "lava: cannot build the job "
				    "definition");
	return 0;
}

/* --- the job log --- */

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void add_utf8(struct sk_strbuf *sb, unsigned long cp)
{
	if (cp < 0x80) {
		sk_strbuf_addch(sb, (int)cp);
	} else if (cp < 0x800) {
		sk_strbuf_addch(sb, (int)(0xc0 | (cp >> 6)));
		sk_strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		sk_strbuf_addch(sb, (int)(0xe0 | (cp >> 12)));
		sk_strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		sk_strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	} else {
		sk_strbuf_addch(sb, (int)(0xf0 | (cp >> 18)));
		sk_strbuf_addch(sb, (int)(0x80 | ((cp >> 12) & 0x3f)));
		sk_strbuf_addch(sb, (int)(0x80 | ((cp >> 6) & 0x3f)));
		sk_strbuf_addch(sb, (int)(0x80 | (cp & 0x3f)));
	}
}

/*
 * A YAML double-quoted scalar from p (just past the opening quote) to
 * end: the escapes PyYAML writes.  Returns the byte after the closing
 * quote, or NULL when the string is cut or an escape is unknown.
 */
static const char *yaml_dquoted(struct sk_strbuf *sb, const char *p,
				const char *end)
{
	static const char simple[] = "0\0a\ab\bt\tn\nv\vf\fr\re\033\"\"//\\\\ "
				     " ";
	size_t i;

	while (p < end && *p != '"') {
		int digits = 0;
		unsigned long cp = 0;

		if (*p != '\\') {
			sk_strbuf_addch(sb, *p++);
			continue;
		}
		if (++p >= end)
			return NULL;
		for (i = 0; i + 1 < sizeof(simple); i += 2)
			if (simple[i] == *p)
				break;
		if (i + 1 < sizeof(simple)) {
			sk_strbuf_addch(sb, simple[i + 1]);
			p++;
			continue;
		}
		switch (*p) {
		case 'x': digits = 2; break;
		case 'u': digits = 4; break;
		case 'U': digits = 8; break;
		case 'N': add_utf8(sb, 0x85); p++; continue;
		case '_': add_utf8(sb, 0xa0); p++; continue;
		case 'L': add_utf8(sb, 0x2028); p++; continue;
		case 'P': add_utf8(sb, 0x2029); p++; continue;
		default: return NULL;
		}
		if (end - p <= digits)
			return NULL;
		for (i = 1; i <= (size_t)digits; i++) {
			int v = hexval(p[i]);

			if (v < 0)
				return NULL;
			cp = cp * 16 + (unsigned long)v;
		}
		add_utf8(sb, cp);	/* \xE9 is U+00E9, not a byte */
		p += digits + 1;
	}
	return p < end ? p + 1 : NULL;
}

/* The value of "key": "..." in one log line, decoded; 0 when found. */
static int line_field(struct sk_strbuf *val, const char *line,
		      const char *end, const char *key)
{
	char *pat = sk_xstrfmt("\"%s\": \"", key);
	size_t n = strlen(pat);
	const char *p;

	for (p = line; p + n <= end; p++) {
		if (memcmp(p, pat, n))
			continue;
		/* a key, not text inside an earlier value: after { or , */
		if (p > line && p[-1] != '{' && p[-1] != ' ')
			continue;
		sk_strbuf_reset(val);
		free(pat);
		return yaml_dquoted(val, p + n, end) ? 0 : -1;
	}
	free(pat);
	return 1;
}

/*
 * LAVA's logger puts a backslash before each '"' the guest printed (a
 * guest's \" arrives as \\"): undone, the text is the console's.
 */
static void add_console_line(struct sk_strbuf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n && s[i + 1] == '"')
			i++;
		sk_strbuf_addch(out, s[i]);
	}
	sk_strbuf_addch(out, '\n');
}

/*
 * The console is "target" while an action reads it and "feedback" once
 * none does (the end of the done line can arrive then); other levels
 * are LAVA's own words.
 */
static int console_level(const char *lvl)
{
	return !strcmp(lvl, "target") || !strcmp(lvl, "feedback");
}

/*
 * After the guest's done marker it reboots, and LAVA's QEMU boots it
 * again until the job ends: the first line of that second boot ends the
 * console, as QEMU's -no-reboot ends it here.
 */
static int second_boot(const char *msg)
{
	return strstr(msg, SK_BOOT_MARK_START) ||
	       (strstr(msg, "] Linux version ") && strstr(msg, "[    0.000000]"));
}

int sk_lava_log_console(struct sk_strbuf *out, const char *log, size_t len)
{
	struct sk_strbuf lvl = SK_STRBUF_INIT, msg = SK_STRBUF_INIT;
	const char *p = log, *end = log + len;
	unsigned int lineno = 0;
	int err = 0, done = 0;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *stop = eol ? eol : end;

		lineno++;
		if (stop - p < 3 || memcmp(p, "- {", 3)) {
			if (stop > p) {
				err = sk_error_set(SK_EINVALID, "lava log: line "
						   "%u is not a '- {...}' entry",
						   lineno);
				break;
			}
		} else if (!line_field(&lvl, p, stop, "lvl") &&
			   console_level(lvl.buf)) {
			if (line_field(&msg, p, stop, "msg")) {
				err = sk_error_set(SK_EINVALID, "lava log: line "
						   "%u: no readable msg", lineno);
				break;
			}
			/*
			 * Not the first done marker: a guest line may print its
			 * text, and what follows it is still the guest's
			 */
			if (done && second_boot(msg.buf))
				break;
			add_console_line(out, msg.buf, msg.len);
			done |= !!strstr(msg.buf, SK_BOOT_MARK_DONE " rc=");
		}
		p = eol ? eol + 1 : end;
	}
	sk_strbuf_release(&lvl);
	sk_strbuf_release(&msg);
	return err;
}

/* --- talking to the server --- */

static int api(struct sk_strbuf *body, long *status, const struct sk_lava *l,
	       const char *method, const char *path, const char *data)
{
	char *auth = sk_xstrfmt("Authorization: Token %s", l->token);
	const char *host = strstr(l->url, "://") + 3;
	char *url = l->userinfo ?
		sk_xstrfmt("%.*s%s@%s%s", (int)(host - l->url), l->url,
			   l->userinfo, host, path) :
		sk_xstrfmt("%s%s", l->url, path);
	const char *headers[] = { auth, "Accept: application/json", NULL };
	struct sk_http_request req = { method, url, headers, data, NULL, 60, 0 };
	int err;

	sk_strbuf_reset(body);
	err = sk_http(body, status, &req);
	free(auth);
	free(url);
	return err;
}

static json_t *api_json(const struct sk_lava *l, const char *path)
{
	struct sk_strbuf body = SK_STRBUF_INIT;
	json_t *o = NULL;
	long status;

	if (api(&body, &status, l, "GET", path, NULL))
		goto out;
	if (status != 200) {
		sk_error_set(SK_ERROR, "lava: %s%s: HTTP %ld: %.200s", l->url,
			     path, status, body.buf ? body.buf : "");
		goto out;
	}
	o = json_loadb(body.buf, body.len, 0, NULL);
	if (!o)
		sk_error_set(SK_ERROR, "lava: %s%s: the reply is not JSON",
			     l->url, path);
out:
	sk_strbuf_release(&body);
	return o;
}

static int submit(long *id, const struct sk_lava *l, const char *definition)
{
	struct sk_strbuf body = SK_STRBUF_INIT;
	json_t *req = json_pack("{s:s}", "definition", definition), *rep = NULL;
	char *data = json_dumps(req, JSON_COMPACT);
	long status;
	int err;

	err = api(&body, &status, l, "POST", "api/v0.2/jobs/", data);
	if (err)
		goto out;
	rep = json_loadb(body.buf ? body.buf : "", body.len, 0, NULL);
	*id = json_integer_value(json_array_get(json_object_get(rep, "job_ids"),
						0));
	if (status != 201 || *id <= 0) {
		const char *m = json_string_value(json_object_get(rep, "message"));

		err = sk_error_set(status == 401 || status == 403 ? SK_EINVALID :
				   SK_ERROR, "lava: %s: submit: HTTP %ld: %.300s",
				   l->url, status, m ? m : body.buf ? body.buf :
				   "no reply");
	}
out:
	json_decref(req);
	json_decref(rep);
	free(data);
	sk_strbuf_release(&body);
	return err;
}

static char *str_of(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? sk_xstrdup(s) : NULL;
}

/* error_type and error_msg: the metadata (YAML) of the lava/job case. */
static void job_error(struct sk_lava_job *j, const struct sk_lava *l)
{
	char *path = sk_xstrfmt("api/v0.2/jobs/%ld/tests/?suite__name=lava"
				"&name=job", j->id);
	json_t *o = api_json(l, path);
	const char *md = json_string_value(json_object_get(json_array_get(
		json_object_get(o, "results"), 0), "metadata"));
	const char *keys[] = { "error_type: ", "error_msg: " };
	char **vals[] = { &j->error_type, &j->error_msg };
	size_t i;

	sk_error_clear();
	for (i = 0; md && i < 2; i++) {
		const char *p = strstr(md, keys[i]), *e;

		if (!p || (p > md && p[-1] != '\n' && p[-1] != ' ' &&
			   p[-1] != '{'))
			continue;
		p += strlen(keys[i]);
		e = p + strcspn(p, "\n,}");
		if (*p == '\'' || *p == '"') {
			p++;
			if (e > p && (e[-1] == '\'' || e[-1] == '"'))
				e--;
		}
		free(*vals[i]);
		*vals[i] = sk_xstrndup(p, (size_t)(e - p));
	}
	json_decref(o);
	free(path);
}

static void cancel(const struct sk_lava *l, long id)
{
	struct sk_strbuf body = SK_STRBUF_INIT;
	char *path = sk_xstrfmt("api/v0.2/jobs/%ld/cancel/", id);
	long status;

	if (api(&body, &status, l, "GET", path, NULL))
		sk_error_clear();
	sk_strbuf_release(&body);
	free(path);
}

/*
 * Until the job is Finished: 0, SK_ETIMEOUT when it did not start within
 * the queue limit or outran its own timeouts (it is then canceled).
 */
static int wait_job(struct sk_lava_job *j, const struct sk_lava *l,
		    unsigned int run_limit_s, double *ran_s)
{
	char *path = sk_xstrfmt("api/v0.2/jobs/%ld/", j->id);
	double t0 = sk_now(), started = 0, t;
	int err = 0, misses = 0;

	*ran_s = 0;
	for (;;) {
		json_t *o = api_json(l, path);
		const char *state = json_string_value(json_object_get(o, "state"));

		t = sk_now();
		if (!o) {
			/* the server restarting is no verdict: a few tries */
			if (++misses > 10) {
				err = sk_error_prefix(SK_ERROR, "lava: job %ld: no "
						      "state after %d tries", j->id,
						      misses);
				break;
			}
			sk_error_clear();
		} else {
			misses = 0;
		}
		if (state && !started && (!strcmp(state, "Running") ||
					  !strcmp(state, "Finished") ||
					  !strcmp(state, "Canceling")))
			started = t;
		if (state && !strcmp(state, "Finished")) {
			free(j->health);
			free(j->device);
			j->health = str_of(o, "health");
			j->device = str_of(o, "actual_device");
			json_decref(o);
			break;
		}
		json_decref(o);
		if ((!started && t - t0 > l->queue_timeout_s) ||
		    (started && t - started > run_limit_s)) {
			cancel(l, j->id);
			err = sk_error_set(SK_ETIMEOUT, "lava: job %ld %s in %.0f s",
					   j->id, started ? "did not finish" :
					   "did not start", started ? t - started :
					   t - t0);
			break;
		}
		usleep(l->poll_ms * 1000);
	}
	j->queued_s += (started ? started : t) - t0;
	*ran_s = started ? t - started : 0;
	free(path);
	return err;
}

static int fetch_console(const struct sk_lava *l, long id, const char *to)
{
	struct sk_strbuf body = SK_STRBUF_INIT, console = SK_STRBUF_INIT;
	char *path = sk_xstrfmt("api/v0.2/jobs/%ld/logs/", id);
	long status;
	int err = api(&body, &status, l, "GET", path, NULL);

	if (!err && status != 200)
		err = sk_error_set(SK_ERROR, "lava: job %ld: log: HTTP %ld", id,
				   status);
	if (!err)
		err = sk_lava_log_console(&console, body.buf ? body.buf : "",
					  body.len);
	if (err)
		err = sk_error_prefix(err, "lava: job %ld", id);
	else
		err = sk_write_file_atomic(to, console.buf ? console.buf : "",
					   console.len);
	sk_strbuf_release(&body);
	sk_strbuf_release(&console);
	free(path);
	return err;
}

/* --- artifacts --- */

/*
 * file, copied to <artifacts-dir>/<blob id>/<as> (once: the same image
 * for many jobs is one copy), and the URL a worker fetches it by.
 */
static int publish(char **url, const struct sk_lava *l, const char *file,
		   const char *as)
{
	char hex[GIT_OID_HEXSZ + 1], *dir = NULL, *dest = NULL;
	git_oid oid;
	int err;

	*url = NULL;
	if (git_odb_hashfile(&oid, file, GIT_OBJECT_BLOB) < 0)
		return sk_error_git(SK_ERROR, file);
	git_oid_tostr(hex, sizeof(hex), &oid);
	dir = sk_xstrfmt("%s/%s", l->artifacts_dir, hex);
	dest = sk_xstrfmt("%s/%s", dir, as);
	err = sk_mkdir_p(dir, 0755);
	if (!err && !sk_path_exists(dest))
		err = sk_copy_file(file, dest);
	if (!err)
		*url = sk_xstrfmt("%s/%s/%s", l->artifacts_url, hex, as);
	free(dir);
	free(dest);
	return err;
}

/* --- a boot --- */

static int infrastructure(const struct sk_lava_job *j)
{
	return j->error_type && (!strcmp(j->error_type, "Infrastructure") ||
				 !strcmp(j->error_type, "Bug"));
}

/* One try: submitted, waited for, its console read back. */
static int run_once(struct sk_lava_job *j, double *ran_s,
		    const struct sk_lava *l, const char *definition,
		    unsigned int run_limit_s, const char *log_path)
{
	int err;

	free(j->health);
	free(j->error_type);
	free(j->error_msg);
	free(j->url);
	j->health = j->error_type = j->error_msg = j->url = NULL;
	j->tries++;
	err = submit(&j->id, l, definition);
	if (err)
		return err;
	j->url = sk_xstrfmt("%sscheduler/job/%ld", l->url, j->id);
	err = wait_job(j, l, run_limit_s, ran_s);
	if (err)
		return err;
	if (j->health && strcmp(j->health, "Complete"))
		job_error(j, l);
	if (j->health && !strcmp(j->health, "Canceled"))
		return sk_error_set(SK_ERROR, "lava: job %ld was canceled",
				    j->id);
	if (infrastructure(j))
		return sk_error_set(SK_ETOOL, "lava: job %ld: %s error: %s",
				    j->id, j->error_type, j->error_msg ?
				    j->error_msg : "no message");
	return fetch_console(l, j->id, log_path);
}

static void incomplete_verdict(struct sk_boot_result *out,
			       const struct sk_lava_job *j)
{
	char *why = sk_xstrfmt("LAVA job %ld %s: %s: %s", j->id,
			       j->health ? j->health : "unfinished",
			       j->error_type ? j->error_type : "no error type",
			       j->error_msg ? j->error_msg : "no message");

	/* a splat or a timeout says more than LAVA's summary */
	if (out->status == SK_BOOT_OK || out->status == SK_BOOT_GUEST_FAIL ||
	    out->status == SK_BOOT_NO_MARKER) {
		out->status = SK_BOOT_ERROR;
		free(out->reason);
		out->reason = why;
		return;
	}
	free(why);
}

int sk_lava_boot(struct sk_boot_result *out, struct sk_lava_job *job,
		 const struct sk_lava *l, const struct sk_qemu_opts *o,
		 const char *name)
{
	struct sk_lava_job local = { 0 };
	struct sk_lava_job *j = job ? job : &local;
	struct sk_strbuf log = SK_STRBUF_INIT;
	char *kurl = NULL, *iurl = NULL, *def_text = NULL;
	unsigned int t = o->timeout_s ? o->timeout_s : 600;
	json_t *def = NULL;
	double ran = 0;
	int err;

	memset(out, 0, sizeof(*out));
	out->guest_rc = -1;
	out->status = SK_BOOT_ERROR;
	out->accel = SK_BOOT_TCG;
	if (!o->kernel || !o->log_path) {
		err = sk_error_set(SK_EINVALID, "lava: a boot needs a kernel "
				   "and a console log path");
		goto out;
	}
	err = publish(&kurl, l, o->kernel, "kernel");
	if (!err && o->initrd)
		err = publish(&iurl, l, o->initrd, "initramfs.cpio");
	if (!err)
		err = sk_lava_job_definition(&def, o, l->device_type, kurl, iurl,
					     name);
	if (err)
		goto out;
	def_text = json_dumps(def, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	err = run_once(j, &ran, l, def_text, 2 * t + 960, o->log_path);
	if (err == SK_ETOOL && j->tries < 2) {
		/* an infrastructure error is the lab's, not the kernel's */
		sk_error_clear();
		err = run_once(j, &ran, l, def_text, 2 * t + 960, o->log_path);
	}
	out->seconds = ran;
	if (err)
		goto out;
	err = sk_read_file(&log, o->log_path);
	if (err)
		goto out;
	if (!log.len && (!j->health || strcmp(j->health, "Complete"))) {
		/* nothing of the guest seen: the job never got to boot it */
		err = sk_error_set(SK_ETOOL, "lava: job %ld %s before the "
				   "guest's first line: %s: %s", j->id,
				   j->health ? j->health : "ended",
				   j->error_type ? j->error_type : "no error type",
				   j->error_msg ? j->error_msg : "no message");
		goto out;
	}
	sk_boot_verdict(out, log.buf, log.len,
			j->error_type && !strcmp(j->error_type, "LAVATimeout"),
			t, 0, NULL, o->expect_rc);
	if (!j->health || strcmp(j->health, "Complete"))
		incomplete_verdict(out, j);
out:
	if (err < 0) {
		free(out->reason);
		out->reason = sk_xstrdup(sk_error_last());
	}
	sk_strbuf_release(&log);
	json_decref(def);
	free(def_text);
	free(kurl);
	free(iurl);
	sk_lava_job_release(&local);
	return err;
}

/* --- choosing the runner --- */

int sk_lava_check_runner(const char *runner, const char *config)
{
	if (runner && strcmp(runner, "local") && strcmp(runner, "lava"))
		return sk_error_set(SK_EINVALID, "--runner: unknown runner '%s' "
				    "(local, lava)", runner);
	if (config && (!runner || strcmp(runner, "lava")))
		return sk_error_set(SK_EINVALID, "--lava-config: only with "
				    "--runner lava");
	return 0;
}

int sk_lava_runner(struct sk_lava *out, int *use, const char *runner,
		   const char *config, const char *work)
{
	const char *env = getenv("SK_LAVA_CONFIG");
	char *path;
	int err;

	*use = 0;
	memset(out, 0, sizeof(*out));
	err = sk_lava_check_runner(runner, config);
	if (err || !runner || !strcmp(runner, "local"))
		return err;
	path = config ? sk_xstrdup(config) : env && *env ? sk_xstrdup(env) :
	       sk_path_join(work, "lava/lava.conf");
	err = sk_lava_config(out, path);
	free(path);
	if (!err)
		*use = 1;
	return err;
}

#include "gate/guestland.h"
#include "core/arch.h"
#include "core/error.h"
#include "core/fsutil.h"
#include "core/run.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define APT_TIMEOUT_MS (300 * 1000)

/* An arch with a guest: one QEMU boots. */
static const struct sk_arch *find_arch(const char *arch)
{
	const struct sk_arch *a = sk_arch_find(arch);

	return a && a->qemu_binary ? a : NULL;
}

const char *sk_guestland_debian_arch(const char *arch)
{
	const struct sk_arch *a = find_arch(arch);

	return a ? a->debian : NULL;
}

int sk_guestland_check_elf(const char *path, const char *arch)
{
	const struct sk_arch *a = find_arch(arch);
	unsigned char h[20];
	unsigned int machine;
	ssize_t n;
	int fd;

	if (!a)
		return sk_error_set(SK_EINVALID, "no guest userland for arch '%s'",
				    arch ? arch : "(none)");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sk_error_errno(path);
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4))
		return sk_error_set(SK_EINVALID, "%s: not an ELF file", path);
	machine = h[18] | (unsigned int)h[19] << 8;
	if (machine != a->elf_machine || (h[4] == 2) != a->elf64)
		return sk_error_set(SK_EINVALID, "%s: ELF for machine %u (%d-bit), "
				    "not %s", path, machine, h[4] == 2 ? 64 : 32,
				    arch);
	return 0;
}

/* The value of "key:" in the deb822 stanza at s, up to end; NULL if absent. */
static char *stanza_field(const char *s, const char *end, const char *key)
{
	size_t klen = strlen(key);

	while (s < end) {
		const char *eol = memchr(s, '\n', end - s);

		if (!eol)
			eol = end;
		if (!strncasecmp(s, key, klen) && s[klen] == ':') {
			const char *v = s + klen + 1;

			while (v < eol && (*v == ' ' || *v == '\t'))
				v++;
			return sk_xstrndup(v, eol - v);
		}
		s = eol + 1;
	}
	return NULL;
}

char *sk_guestland_sources(const char *system)
{
	const char *end = system ? strstr(system, "\n\n") : NULL;
	char *uri = NULL, *suites = NULL, *key = NULL, *out;

	if (system && !end)
		end = system + strlen(system);
	if (system) {
		uri = stanza_field(system, end, "URIs");
		suites = stanza_field(system, end, "Suites");
		key = stanza_field(system, end, "Signed-By");
	}
	if (uri)
		uri[strcspn(uri, " \t")] = '\0';
	if (suites)
		suites[strcspn(suites, " \t")] = '\0';
	out = sk_xstrfmt("Types: deb\nURIs: %s\nSuites: %s\nComponents: main\n"
			 "Signed-By: %s\n",
			 uri && *uri ? uri : "http://deb.debian.org/debian",
			 suites && *suites ? suites : "bookworm",
			 key && *key ? key :
			 "/usr/share/keyrings/debian-archive-keyring.gpg");
	free(uri);
	free(suites);
	free(key);
	return out;
}

/*
 * Only the release's own suite: busybox-static is there, and a suite we do
 * not need (-security, -updates) caught mid-sync must not fail the guest.
 */
static int write_sources(const char *dir)
{
	struct sk_strbuf system = SK_STRBUF_INIT;
	char *path = sk_path_join(dir, "debian.sources");
	char *text;
	int err;

	if (sk_read_file(&system, "/etc/apt/sources.list.d/debian.sources"))
		sk_error_clear();
	text = sk_guestland_sources(system.len ? system.buf : NULL);
	err = sk_write_file_atomic(path, text, strlen(text));
	free(text);
	free(path);
	sk_strbuf_release(&system);
	return err;
}

/* apt-get with everything it reads or writes under tmp, for one arch. */
static int apt(const char *tmp, const char *debian, const char *what,
	       const char *pkg)
{
	char *o[9];
	const char *argv[24];
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	size_t i, n = 0;
	int err;

	o[0] = sk_xstrfmt("Dir::Etc::SourceParts=%s/sources", tmp);
	o[1] = sk_xstrfmt("Dir::State=%s/state", tmp);
	o[2] = sk_xstrfmt("Dir::State::Lists=%s/lists", tmp);
	o[3] = sk_xstrfmt("Dir::State::status=%s/state/status", tmp);
	o[4] = sk_xstrfmt("Dir::Cache=%s/cache", tmp);
	o[5] = sk_xstrfmt("APT::Architecture=%s", debian);
	o[6] = sk_xstrfmt("APT::Architectures::=%s", debian);
	o[7] = sk_xstrdup("Dir::Etc::SourceList=/dev/null");
	o[8] = sk_xstrdup("APT::Sandbox::User=root");
	argv[n++] = "apt-get";
	argv[n++] = "-q";
	for (i = 0; i < 9; i++) {
		argv[n++] = "-o";
		argv[n++] = o[i];
	}
	argv[n++] = what;
	if (pkg)
		argv[n++] = pkg;
	argv[n] = NULL;
	ro.argv = argv;
	ro.cwd = tmp;
	ro.timeout_ms = APT_TIMEOUT_MS;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_MERGE_ERR;
	err = sk_run(&res, &ro);
	if (!err && res.exit_code) {
		sk_strbuf_rtrim(&res.out);
		err = sk_error_set(SK_ETOOL, "apt-get %s%s%s (arch %s) exited %d: %s",
				   what, pkg ? " " : "", pkg ? pkg : "", debian,
				   res.exit_code, res.out.buf);
	}
	sk_run_result_release(&res);
	for (i = 0; i < 9; i++)
		free(o[i]);
	return err;
}

static int make_dirs(const char *tmp)
{
	static const char *const sub[] = { "sources", "state", "lists/partial",
					   "cache/archives/partial" };
	size_t i;
	int err = 0;

	for (i = 0; !err && i < sizeof(sub) / sizeof(*sub); i++) {
		char *d = sk_path_join(tmp, sub[i]);

		err = sk_mkdir_p(d, 0755);
		free(d);
	}
	if (!err) {
		char *status = sk_xstrfmt("%s/state/status", tmp);

		err = sk_write_file_atomic(status, "", 0);
		free(status);
	}
	if (!err) {
		char *d = sk_path_join(tmp, "sources");

		err = write_sources(d);
		free(d);
	}
	return err;
}

/* The .deb apt-get download left in dir. */
static char *find_deb(const char *dir, const char *debian)
{
	char *suffix = sk_xstrfmt("_%s.deb", debian), *found = NULL;
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t sl = strlen(suffix);

	while (d && !found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (!strncmp(e->d_name, "busybox-static_", 15) && n > sl &&
		    !strcmp(e->d_name + n - sl, suffix))
			found = sk_path_join(dir, e->d_name);
	}
	if (d)
		closedir(d);
	free(suffix);
	return found;
}

static int unpack(const char *deb, const char *root)
{
	const char *argv[] = { "dpkg-deb", "-x", deb, root, NULL };
	struct sk_run_result res = SK_RUN_RESULT_INIT;
	struct sk_run_opts ro = { 0 };
	int err;

	ro.argv = argv;
	ro.timeout_ms = 60 * 1000;
	ro.flags = SK_RUN_CAPTURE_OUT | SK_RUN_MERGE_ERR;
	err = sk_run(&res, &ro);
	if (!err && res.exit_code)
		err = sk_error_set(SK_ETOOL, "dpkg-deb -x %s exited %d: %s", deb,
				   res.exit_code, res.out.buf);
	sk_run_result_release(&res);
	return err;
}

static int fetch(const char *dir, const char *arch, const char *final)
{
	const char *debian = sk_guestland_debian_arch(arch);
	char *tmp = NULL, *pkg = NULL, *deb = NULL, *root = NULL, *bin = NULL;
	int err;

	err = sk_mkdtemp_in(&tmp, dir, "apt");
	if (err)
		return err;
	err = make_dirs(tmp);
	/* a mirror caught mid-sync answers with a hash mismatch: once more */
	if (!err && apt(tmp, debian, "update", NULL)) {
		sk_error_clear();
		err = apt(tmp, debian, "update", NULL);
	}
	pkg = sk_xstrfmt("busybox-static:%s", debian);
	if (!err)
		err = apt(tmp, debian, "download", pkg);
	if (!err && !(deb = find_deb(tmp, debian)))
		err = sk_error_set(SK_ETOOL, "apt-get download %s left no .deb in %s",
				   pkg, tmp);
	root = sk_path_join(tmp, "root");
	bin = sk_path_join(root, "bin/busybox");
	if (!err)
		err = unpack(deb, root);
	if (!err)
		err = sk_guestland_check_elf(bin, arch);
	if (!err && rename(bin, final) < 0)
		err = sk_error_errno(final);
	sk_rmrf(tmp);
	free(bin);
	free(root);
	free(deb);
	free(pkg);
	free(tmp);
	return err;
}

int sk_guestland_busybox(char **out, const char *work, const char *arch)
{
	char *dir, *final;
	int err;

	*out = NULL;
	if (!sk_guestland_debian_arch(arch))
		return sk_error_set(SK_EINVALID, "no guest userland for arch '%s'",
				    arch ? arch : "(none)");
	dir = sk_path_join(work, "guest");
	final = sk_xstrfmt("%s/busybox-%s", dir, arch);
	if (sk_path_exists(final) && !sk_guestland_check_elf(final, arch)) {
		*out = final;
		free(dir);
		return 0;
	}
	sk_error_clear();
	err = sk_mkdir_p(dir, 0755);
	if (!err)
		err = fetch(dir, arch, final);
	if (err) {
		sk_error_prefix(err, "static busybox for %s", arch);
		free(final);
	} else {
		*out = final;
	}
	free(dir);
	return err;
}

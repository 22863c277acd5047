#ifndef SK_DISTCC_H
#define SK_DISTCC_H

/*
 * Builds over distcc: "[build] distcc-hosts" in stable/branches.conf is
 * distcc's own host list (DISTCC_HOSTS), and kbuild compiles through
 * distcc behind ccache (CCACHE_PREFIX=distcc), with as many make jobs as
 * the hosts take.
 *
 * A host is HOST, HOST:PORT or HOST/LIMIT (with :PORT first), HOST a name
 * or an address of [A-Za-z0-9.-] ("localhost" compiles here); ",lzo" may
 * follow.  ssh (@HOST), zeroconf and options are not taken: stablekit
 * passes the list on and says what it could not check.
 */

/*
 * 0 with *slots, the jobs the hosts take (LIMIT, else distcc's default of
 * 4, 2 for localhost); SK_EINVALID naming the host otherwise.  The list is
 * at most SK_DISTCC_MAX_LEN bytes and SK_DISTCC_MAX_HOSTS hosts (each
 * LIMIT at most 1024), so the sum fits an int; longer is SK_EINVALID.
 */
#define SK_DISTCC_MAX_LEN 65536
#define SK_DISTCC_MAX_HOSTS 1024
int sk_distcc_hosts_parse(const char *spec, int *slots);

#endif

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/error.h"
#include "core/http.h"
#include "core/strbuf.h"

/*
 * A server on 127.0.0.1 that answers one request with a body that does
 * not end (up to 256 MiB, so the test always ends).
 */
static void *endless(void *arg)
{
	int lfd = *(int *)arg, fd;
	static char chunk[65536];
	const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
			    "Connection: close\r\n\r\n";
	char req[4096];
	size_t sent = 0;

	fd = accept(lfd, NULL, NULL);
	if (fd < 0)
		return NULL;
	if (read(fd, req, sizeof(req)) <= 0 ||
	    write(fd, head, sizeof(head) - 1) < 0)
		goto out;
	memset(chunk, 'x', sizeof(chunk));
	while (sent < (256u << 20) && write(fd, chunk, sizeof(chunk)) > 0)
		sent += sizeof(chunk);
out:
	close(fd);
	return NULL;
}

static void test_reply_size_limit(void **state)
{
	struct sockaddr_in a = { 0 };
	socklen_t len = sizeof(a);
	struct sk_strbuf body = SK_STRBUF_INIT;
	struct sk_http_request req = { 0 };
	pthread_t t;
	long status;
	char *url;
	int lfd;

	(void)state;
	signal(SIGPIPE, SIG_IGN);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(lfd >= 0);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(lfd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(lfd, 1), 0);
	assert_int_equal(getsockname(lfd, (struct sockaddr *)&a, &len), 0);
	assert_int_equal(pthread_create(&t, NULL, endless, &lfd), 0);
	url = sk_xstrfmt("http://127.0.0.1:%d/log", ntohs(a.sin_port));
	req.url = url;
	req.timeout_s = 60;
	req.max_bytes = 1 << 20;
	assert_int_equal(sk_http(&body, &status, &req), SK_ERROR);
	assert_non_null(strstr(sk_error_last(), "larger than 1048576 bytes"));
	assert_true(body.len <= 1 << 20);
	pthread_join(t, NULL);
	close(lfd);
	sk_strbuf_release(&body);
	free(url);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reply_size_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

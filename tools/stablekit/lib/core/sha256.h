#ifndef SK_SHA256_H
#define SK_SHA256_H

#include <stddef.h>

/* SHA-256 (libcrypto), as 64 lowercase hex digits and a NUL. */
#define SK_SHA256_HEX 65

int sk_sha256_file(char out[SK_SHA256_HEX], const char *path);
void sk_sha256_buf(char out[SK_SHA256_HEX], const void *data, size_t len);

#endif

/*
 * digest.h - SHA-256 (nettle) for every key the grader stores: the problem
 * file's digest, the reference cache's file names, batch fingerprints and
 * the --resume keys, and the default seed of a generated case.
 *
 * Feed pieces with digest_add(); digest_add_str() adds a string with its
 * terminating NUL, so that ("ab", "c") and ("a", "bc") differ.  No
 * allocation: a struct digest lives on the caller's stack.
 */
#ifndef GRADER_DIGEST_H
#define GRADER_DIGEST_H

#include <nettle/sha2.h>
#include <stddef.h>
#include <stdint.h>

#define DIGEST_HEX_SIZE (2 * SHA256_DIGEST_SIZE + 1) /* 64 hex digits and a NUL */

struct digest {
	struct sha256_ctx ctx;
};

void digest_init(struct digest *d);
void digest_add(struct digest *d, const void *data, size_t len);
void digest_add_str(struct digest *d, const char *s);
/* The digest as lower-case hex into out; d is spent (start again with digest_init). */
void digest_hex(struct digest *d, char out[DIGEST_HEX_SIZE]);
/* The first 8 bytes of the digest as an integer (big-endian); d is spent. */
uint64_t digest_u64(struct digest *d);

#endif

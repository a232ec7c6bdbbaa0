/* digest.c - see digest.h */
#include "base/digest.h"

#include <string.h>

void digest_init(struct digest *d)
{
	sha256_init(&d->ctx);
}

void digest_add(struct digest *d, const void *data, size_t len)
{
	sha256_update(&d->ctx, len, data);
}

void digest_add_str(struct digest *d, const char *s)
{
	digest_add(d, s, strlen(s) + 1);
}

void digest_hex(struct digest *d, char out[DIGEST_HEX_SIZE])
{
	static const char hex[] = "0123456789abcdef";
	uint8_t raw[SHA256_DIGEST_SIZE];
	sha256_digest(&d->ctx, sizeof(raw), raw);
	for (size_t i = 0; i < sizeof(raw); i++) {
		out[2 * i] = hex[raw[i] >> 4];
		out[2 * i + 1] = hex[raw[i] & 15];
	}
	out[2 * sizeof(raw)] = '\0';
}

uint64_t digest_u64(struct digest *d)
{
	uint8_t raw[SHA256_DIGEST_SIZE];
	uint64_t v = 0;
	sha256_digest(&d->ctx, sizeof(raw), raw);
	for (int i = 0; i < 8; i++)
		v = v << 8 | raw[i];
	return v;
}

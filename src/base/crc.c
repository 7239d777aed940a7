/* Table-driven CRCs eight bytes at a time ("slicing by 8"): t[k][b] is the CRC of byte b followed
 * by k zero bytes, so eight lookups advance the CRC over eight input bytes. Each polynomial's
 * tables are built once, on first use. */
#include "base/crc.h"

#include <pthread.h>

typedef struct crc_tables {
  uint32_t t[8][256];
} crc_tables;

static void build(crc_tables *c, uint32_t poly) {
  for (uint32_t b = 0; b < 256; b++) {
    uint32_t x = b;
    for (int k = 0; k < 8; k++) x = (x >> 1) ^ (poly & (0u - (x & 1u)));
    c->t[0][b] = x;
  }
  for (int k = 1; k < 8; k++)
    for (int b = 0; b < 256; b++) c->t[k][b] = (c->t[k - 1][b] >> 8) ^ c->t[0][c->t[k - 1][b] & 0xFFu];
}

static uint32_t load_le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t update(const crc_tables *c, uint32_t crc, const void *data, size_t len) {
  const unsigned char *p = data;
  uint32_t x = ~crc;
  for (; len >= 8; p += 8, len -= 8) {
    uint32_t lo = load_le32(p) ^ x, hi = load_le32(p + 4);
    x = c->t[7][lo & 0xFFu] ^ c->t[6][(lo >> 8) & 0xFFu] ^ c->t[5][(lo >> 16) & 0xFFu] ^ c->t[4][lo >> 24] ^
        c->t[3][hi & 0xFFu] ^ c->t[2][(hi >> 8) & 0xFFu] ^ c->t[1][(hi >> 16) & 0xFFu] ^ c->t[0][hi >> 24];
  }
  for (; len; p++, len--) x = c->t[0][(x ^ *p) & 0xFFu] ^ (x >> 8);
  return ~x;
}

static crc_tables crc32_tables, crc32c_tables;
static pthread_once_t crc32_once = PTHREAD_ONCE_INIT, crc32c_once = PTHREAD_ONCE_INIT;
static void build_crc32(void) { build(&crc32_tables, 0xEDB88320u); }
static void build_crc32c(void) { build(&crc32c_tables, 0x82F63B78u); }

uint32_t hr_crc32(uint32_t crc, const void *data, size_t len) {
  pthread_once(&crc32_once, build_crc32);
  return update(&crc32_tables, crc, data, len);
}

uint32_t hr_crc32c(uint32_t crc, const void *data, size_t len) {
  pthread_once(&crc32c_once, build_crc32c);
  return update(&crc32c_tables, crc, data, len);
}

/* Tests for the zarr reader and writer (src/formats/orbax/zarr.c, zarr_read.c), over an in-memory
 * key-value store: arrays are encoded here by a small independent encoder (chunks cut from a
 * reference array, padded at the edges, transposed, byte-swapped, compressed, sharded) and must
 * read back to exactly the reference: zarr v2 with several chunks and edge chunks, order F,
 * big-endian types, missing chunks (fill values), each compressor, bool, bfloat16, int4, rank 0;
 * zarr v3 with bytes + zstd, transposes, gzip + crc32c, sharding_indexed with the index at either
 * end, missing inner chunks and whole shards, nested shards and a transpose around a shard;
 * hr_zarr_encode_v2 round trips and writes the .zarray tensorstore writes. Hostile metadata and
 * chunks (negative and huge shapes, chunks of 0, chunks that decode larger or shorter, damaged
 * shard indexes and checksums, rank above HR_MAX_RANK, unsupported features) fail with a clear
 * message naming the file and field, and allocate nothing large (an allocator counts). */
#include <math.h>
#include <stdint.h>
#include <zlib.h>
#include <zstd.h>

#include "base/crc.h"
#include "formats/orbax/kvstore.h"
#include "formats/orbax/zarr.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------------- */
/* An in-memory store and a counting allocator                                                     */
/* ---------------------------------------------------------------------------------------------- */

enum { MEM_KEYS = 512 };

typedef struct mem_store {
  hr_kvstore base;
  int n;
  char *keys[MEM_KEYS];
  unsigned char *values[MEM_KEYS];
  size_t lens[MEM_KEYS];
} mem_store;

static int mem_find(const mem_store *m, const char *key) {
  for (int i = 0; i < m->n; i++)
    if (strcmp(m->keys[i], key) == 0) return i;
  return -1;
}

static hr_status mem_read(hr_kvstore *kv, const char *key, const hr_allocator *a, size_t max_bytes,
                          unsigned char **data, size_t *len) {
  mem_store *m = (mem_store *)kv;
  int i = mem_find(m, key);
  if (i < 0) return hr_error(HR_NOT_FOUND, "%s/%s: not found", kv->name, key);
  if (m->lens[i] > max_bytes)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s/%s: %zu bytes exceed the limit of %zu bytes", kv->name, key, m->lens[i],
                    max_bytes);
  *data = a->alloc(a->ctx, m->lens[i] ? m->lens[i] : 1, 16);
  if (m->lens[i]) memcpy(*data, m->values[i], m->lens[i]);
  *len = m->lens[i];
  return NULL;
}

static hr_status mem_list(hr_kvstore *kv, const char *prefix, hr_kvstore_key_fn fn, void *ctx) {
  mem_store *m = (mem_store *)kv;
  for (int i = 0; i < m->n; i++)
    if (strncmp(m->keys[i], prefix, strlen(prefix)) == 0) HR_TRY(fn(ctx, m->keys[i], m->lens[i]));
  return NULL;
}

static void mem_clear(mem_store *m) {
  for (int i = 0; i < m->n; i++) free(m->keys[i]), free(m->values[i]);
  m->n = 0;
}

static void mem_close(hr_kvstore *kv) { mem_clear((mem_store *)kv); }

static const hr_kvstore_ops mem_ops = {.read = mem_read, .list = mem_list, .close = mem_close};

static mem_store mem = {.base = {&mem_ops, "mem"}};

/* Stores a copy of data[0..len) under `key` (replacing a value there). */
static void put(const char *key, const void *data, size_t len) {
  int i = mem_find(&mem, key);
  if (i < 0) {
    CHECK(mem.n < MEM_KEYS);
    if (mem.n == MEM_KEYS) return;
    i = mem.n++;
    mem.keys[i] = strdup(key);
  } else {
    free(mem.values[i]);
  }
  mem.values[i] = malloc(len ? len : 1);
  if (len) memcpy(mem.values[i], data, len);
  mem.lens[i] = len;
}

static void put_text(const char *key, const char *text) { put(key, text, strlen(text)); }

/* An allocator that records the largest single request and what is still held. */
static size_t largest_alloc, live_allocs;

static void *count_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  if (size > largest_alloc) largest_alloc = size;
  void *p = NULL;
  if (size > ((size_t)1 << 32) || posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size))
    return NULL;
  live_allocs++;
  return p;
}

static void count_free(void *ctx, void *p) {
  (void)ctx;
  if (p) live_allocs--;
  free(p);
}

static const hr_allocator counting = {count_alloc, count_free, NULL};

/* Reads array "x" with the counting allocator; checks nothing leaks. */
static hr_status read_x(size_t max_bytes, hr_tensor **t) {
  largest_alloc = 0;
  hr_status s = hr_zarr_read_array(&mem.base, "x", &counting, max_bytes, t);
  CHECK_EQ_INT(live_allocs, *t ? 2 : 0); /* the tensor and its data */
  return s;
}

/* Reads "x", which must fail with `code` and a message holding each of `needles` (up to 2),
 * allocating less than 1 MiB on the way. */
static void expect_refused(hr_code code, const char *needle, const char *needle2) {
  hr_tensor *t = NULL;
  hr_status s = read_x(0, &t);
  CHECK(s != NULL && t == NULL);
  if (s) {
    CHECK_EQ_INT(hr_status_code(s), code);
    CHECK_STR_CONTAINS(hr_status_message(s), needle);
    if (needle2) CHECK_STR_CONTAINS(hr_status_message(s), needle2);
  }
  CHECK(largest_alloc < ((size_t)1 << 20));
  hr_status_free(s);
  hr_tensor_free(t);
}

/* ---------------------------------------------------------------------------------------------- */
/* An independent encoder                                                                          */
/* ---------------------------------------------------------------------------------------------- */

enum { Z_NONE, Z_ZSTD, Z_ZLIB, Z_GZIP };

typedef struct bytes {
  unsigned char *p;
  size_t n;
} bytes;

static void append(bytes *b, const void *p, size_t n) {
  b->p = realloc(b->p, b->n + n + 1);
  if (n) memcpy(b->p + b->n, p, n);
  b->n += n;
}

/* One level of encoding, as zr_level describes it. */
typedef struct level_spec {
  const int *perm;      /* a transpose before the array-to-bytes codec (NULL: none) */
  const int64_t *inner; /* sharding_indexed's chunk shape (NULL: plain elements) */
  bool big_endian;      /* elements (or the shard index) big-endian */
  int compress;         /* Z_NONE, Z_ZSTD, Z_ZLIB or Z_GZIP */
  bool crc;             /* a crc32c after the compressor */
  bool index_start;     /* the shard index before the chunks */
  bool index_crc;       /* the shard index followed by its CRC-32C */
  uint64_t skip;        /* inner chunks left out of the shard (bit i: chunk i) */
} level_spec;

/* An array to encode: its reference data (row-major) and how its chunks are stored. */
typedef struct array_spec {
  int rank;
  int64_t shape[HR_MAX_RANK], chunks[HR_MAX_RANK];
  size_t elsize, swap_unit; /* bytes of an element and of what a big-endian store swaps */
  const unsigned char *ref;
  const level_spec *levels;
} array_spec;

static int64_t count(int rank, const int64_t *dims) {
  int64_t n = 1;
  for (int j = 0; j < rank; j++) n *= dims[j];
  return n;
}

/* The block at `cell` (dims `block`) of `src` (dims `dims`), in the order of `perm` (encoded
 * dimension j is dimension perm[j]; NULL: C order); elements outside `dims` are 0xAB bytes. */
static unsigned char *cut(const unsigned char *src, int rank, const int64_t *dims, const int64_t *block,
                          const int64_t *cell, const int *perm, size_t elsize) {
  int64_t n = count(rank, block), e[HR_MAX_RANK] = {0};
  unsigned char *out = malloc((size_t)n * elsize);
  for (int64_t i = 0; i < n; i++) {
    int64_t off = 0;
    bool inside = true;
    int64_t idx[HR_MAX_RANK];
    for (int j = 0; j < rank; j++) idx[perm ? perm[j] : j] = e[j];
    for (int j = 0; j < rank; j++) {
      int64_t g = cell[j] * block[j] + idx[j];
      inside &= g < dims[j];
      off = off * dims[j] + g;
    }
    if (inside)
      memcpy(out + i * elsize, src + off * (int64_t)elsize, elsize);
    else
      memset(out + i * elsize, 0xAB, elsize);
    for (int j = rank - 1; j >= 0; j--) { /* next encoded index, C order */
      if (++e[j] < block[perm ? perm[j] : j]) break;
      e[j] = 0;
    }
  }
  return out;
}

/* Compresses p[0..n) with `kind`. */
static bytes squeeze(int kind, const unsigned char *p, size_t n) {
  bytes b = {0};
  if (kind == Z_NONE) {
    append(&b, p, n);
    return b;
  }
  size_t cap = ZSTD_compressBound(n) + compressBound((uLong)n) + 64;
  b.p = malloc(cap);
  if (kind == Z_ZSTD) {
    b.n = ZSTD_compress(b.p, cap, p, n, 3);
    CHECK(!ZSTD_isError(b.n));
  } else {
    z_stream zs = {0};
    CHECK(deflateInit2(&zs, 6, Z_DEFLATED, kind == Z_GZIP ? 31 : 15, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    zs.next_in = (Bytef *)p;
    zs.avail_in = (uInt)n;
    zs.next_out = b.p;
    zs.avail_out = (uInt)cap;
    CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END);
    b.n = zs.total_out;
    deflateEnd(&zs);
  }
  return b;
}

static void put_le(unsigned char *p, uint64_t v, int n, bool big_endian) {
  for (int i = 0; i < n; i++) p[big_endian ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* Encodes `block` (dims `dims`, C order) as level `l` of `a` stores it. */
static bytes encode_level(const array_spec *a, int l, const unsigned char *block, const int64_t *dims) {
  const level_spec *ls = &a->levels[l];
  int64_t zero[HR_MAX_RANK] = {0}, edims[HR_MAX_RANK];
  for (int j = 0; j < a->rank; j++) edims[j] = dims[ls->perm ? ls->perm[j] : j];
  unsigned char *enc = cut(block, a->rank, dims, dims, zero, ls->perm, a->elsize);
  size_t n = (size_t)count(a->rank, dims) * a->elsize;
  bytes raw = {0};
  if (ls->inner) {
    int64_t grid[HR_MAX_RANK], cell[HR_MAX_RANK] = {0}, cells = 1;
    for (int j = 0; j < a->rank; j++) grid[j] = edims[j] / ls->inner[j], cells *= grid[j];
    size_t ib = (size_t)cells * 16 + (ls->index_crc ? 4 : 0);
    unsigned char *index = calloc(1, ib);
    bytes chunks = {0};
    for (int64_t i = 0; i < cells; i++) {
      if (ls->skip >> i & 1) {
        put_le(index + 16 * i, UINT64_MAX, 8, false), put_le(index + 16 * i + 8, UINT64_MAX, 8, false);
      } else {
        unsigned char *sub = cut(enc, a->rank, edims, ls->inner, cell, NULL, a->elsize);
        bytes c = encode_level(a, l + 1, sub, ls->inner);
        put_le(index + 16 * i, (ls->index_start ? ib : 0) + chunks.n, 8, ls->big_endian);
        put_le(index + 16 * i + 8, c.n, 8, ls->big_endian);
        append(&chunks, c.p, c.n);
        free(c.p), free(sub);
      }
      for (int j = a->rank - 1; j >= 0 && ++cell[j] == grid[j]; j--) cell[j] = 0;
    }
    if (ls->index_crc) put_le(index + ib - 4, hr_crc32c(0, index, ib - 4), 4, false);
    if (ls->index_start) append(&raw, index, ib);
    append(&raw, chunks.p, chunks.n);
    if (!ls->index_start) append(&raw, index, ib);
    free(index), free(chunks.p);
  } else {
    if (ls->big_endian)
      for (size_t i = 0; i < n; i += a->swap_unit)
        for (size_t x = i, y = i + a->swap_unit - 1; x < y; x++, y--) {
          unsigned char t = enc[x];
          enc[x] = enc[y], enc[y] = t;
        }
    append(&raw, enc, n);
  }
  free(enc);
  bytes out = squeeze(ls->compress, raw.p, raw.n);
  free(raw.p);
  if (ls->crc) {
    unsigned char c[4];
    put_le(c, hr_crc32c(0, out.p, out.n), 4, false);
    append(&out, c, 4);
  }
  return out;
}

/* The key of grid cell `cell` of "x": "x/" + `lead` + indices joined by `sep` (rank 0: `lead`
 * alone, or "0"). */
static void cell_key(const array_spec *a, const int64_t *cell, const char *lead, char sep, char *key, size_t cap) {
  int n = snprintf(key, cap, "x/%s", lead);
  for (int j = 0; j < a->rank; j++)
    n += snprintf(key + n, cap - (size_t)n, "%s%lld", j || lead[0] ? (sep == '/' ? "/" : ".") : "", (long long)cell[j]);
  if (a->rank == 0 && !lead[0]) snprintf(key + n, cap - (size_t)n, "0");
}

/* Stores every chunk of `a` under "x/" (keys as cell_key makes them) but those with bit i of
 * `skip` (i: the cell's C-order number). */
static void store_chunks(const array_spec *a, const char *lead, char sep, uint64_t skip) {
  int64_t grid[HR_MAX_RANK], cell[HR_MAX_RANK] = {0}, cells = 1;
  for (int j = 0; j < a->rank; j++) grid[j] = (a->shape[j] + a->chunks[j] - 1) / a->chunks[j], cells *= grid[j];
  for (int64_t i = 0; i < cells; i++) {
    if (!(skip >> i & 1)) {
      unsigned char *block = cut(a->ref, a->rank, a->shape, a->chunks, cell, NULL, a->elsize);
      bytes b = encode_level(a, 0, block, a->chunks);
      char key[256];
      cell_key(a, cell, lead, sep, key, sizeof key);
      put(key, b.p, b.n);
      free(b.p), free(block);
    }
    for (int j = a->rank - 1; j >= 0 && ++cell[j] == grid[j]; j--) cell[j] = 0;
  }
}

/* A reference array of `n` elements of `elsize` bytes: distinct, varied bytes. */
static unsigned char *reference(size_t n, size_t elsize) {
  unsigned char *p = malloc(n * elsize + 1);
  for (size_t i = 0; i < n * elsize; i++) p[i] = (unsigned char)(i * 7 + i / 5 + 1);
  return p;
}

/* Reads "x" and checks its type, shape and bytes against `want`. */
static void expect_array(hr_dtype dtype, int rank, const int64_t *shape, const unsigned char *want) {
  hr_tensor *t = NULL;
  hr_status s = read_x(0, &t);
  if (s) fprintf(stderr, "  %s\n", hr_status_message(s));
  CHECK(s == NULL && t != NULL);
  hr_status_free(s);
  if (!t) return;
  CHECK_EQ_INT(t->dtype, dtype);
  CHECK_EQ_INT(t->shape.rank, rank);
  for (int j = 0; j < rank && j < t->shape.rank; j++) CHECK_EQ_INT(t->shape.dims[j], shape[j]);
  CHECK_EQ_INT(t->nbytes, (size_t)count(rank, shape) * hr_dtype_size(dtype));
  if (t->nbytes == (size_t)count(rank, shape) * hr_dtype_size(dtype))
    CHECK(t->nbytes == 0 || memcmp(t->data, want, t->nbytes) == 0);
  hr_tensor_free(t);
}

/* The .zarray of "x": the given shape, chunks, dtype, compressor, order, fill value, separator. */
static void put_zarray(const char *shape, const char *chunks, const char *dtype, const char *compressor,
                       const char *order, const char *fill, const char *sep) {
  char text[1024];
  snprintf(text, sizeof text,
           "{\"zarr_format\": 2, \"shape\": %s, \"chunks\": %s, \"dtype\": \"%s\", \"compressor\": %s, \"order\": "
           "\"%s\", \"fill_value\": %s, \"filters\": null, \"dimension_separator\": \"%s\"}",
           shape, chunks, dtype, compressor, order, fill, sep);
  put_text("x/.zarray", text);
}

static const char *compressor_json(int kind) {
  return kind == Z_ZSTD   ? "{\"id\": \"zstd\", \"level\": 1}"
         : kind == Z_ZLIB ? "{\"id\": \"zlib\", \"level\": 1}"
         : kind == Z_GZIP ? "{\"id\": \"gzip\", \"level\": 1}"
                          : "null";
}

/* ---------------------------------------------------------------------------------------------- */
/* zarr v2                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

TEST(v2_chunk_grid_edges_and_compressors) {
  unsigned char *ref = reference(35, 4);
  for (int kind = Z_NONE; kind <= Z_GZIP; kind++)
    for (int slash = 0; slash < 2; slash++) {
      mem_clear(&mem);
      level_spec lv = {.compress = kind};
      array_spec a = {2, {5, 7}, {2, 3}, 4, 4, ref, &lv};
      put_zarray("[5, 7]", "[2, 3]", "<f4", compressor_json(kind), "C", "null", slash ? "/" : ".");
      store_chunks(&a, "", slash ? '/' : '.', 0);
      CHECK_EQ_INT(mem.n, 1 + 9); /* 3 x 3 chunks, the last row and column cut by the edges */
      expect_array(HR_F32, 2, a.shape, ref);
    }
  /* rank 3, an edge in every dimension, chunks larger than the array in one */
  mem_clear(&mem);
  unsigned char *ref3 = reference(3 * 1 * 4, 2);
  level_spec lv = {.compress = Z_ZSTD};
  array_spec a = {3, {3, 1, 4}, {2, 5, 3}, 2, 2, ref3, &lv};
  put_zarray("[3, 1, 4]", "[2, 5, 3]", "<u2", compressor_json(Z_ZSTD), "C", "null", ".");
  store_chunks(&a, "", '.', 0);
  expect_array(HR_U16, 3, a.shape, ref3);
  free(ref), free(ref3);
}

TEST(v2_order_f_and_big_endian) {
  const int reverse[] = {1, 0};
  struct {
    const char *dtype;
    hr_dtype want;
    size_t elsize, unit;
    bool fortran, big;
  } cases[] = {
      {"<i4", HR_I32, 4, 4, true, false},    {">i8", HR_I64, 8, 8, false, true}, {">f8", HR_F64, 8, 8, true, true},
      {">c8", HR_C64, 8, 4, false, true},    {">u2", HR_U16, 2, 2, false, true}, {"|u1", HR_U8, 1, 1, true, false},
      {"<c16", HR_C128, 16, 8, true, false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mem_clear(&mem);
    unsigned char *r = reference(35, cases[i].elsize);
    level_spec lv = {.perm = cases[i].fortran ? reverse : NULL, .big_endian = cases[i].big, .compress = Z_ZSTD};
    array_spec a = {2, {5, 7}, {2, 3}, cases[i].elsize, cases[i].unit, r, &lv};
    put_zarray("[5, 7]", "[2, 3]", cases[i].dtype, compressor_json(Z_ZSTD), cases[i].fortran ? "F" : "C", "null", ".");
    store_chunks(&a, "", '.', 0);
    expect_array(cases[i].want, 2, a.shape, r);
    free(r);
  }
  /* order F in three dimensions */
  mem_clear(&mem);
  const int rev3[] = {2, 1, 0};
  level_spec lv = {.perm = rev3};
  unsigned char *r3 = reference(60, 8);
  array_spec a = {3, {3, 4, 5}, {2, 3, 2}, 8, 8, r3, &lv};
  put_zarray("[3, 4, 5]", "[2, 3, 2]", "<f8", "null", "F", "null", ".");
  store_chunks(&a, "", '.', 0);
  expect_array(HR_F64, 3, a.shape, r3);
  free(r3);
}

TEST(v2_missing_chunks_take_the_fill_value) {
  struct {
    const char *dtype, *fill;
    hr_dtype want;
    size_t elsize;
    uint64_t bits; /* the fill element */
  } cases[] = {
      {"<f4", "\"NaN\"", HR_F32, 4, 0x7fc00000},
      {"<f8", "\"-Infinity\"", HR_F64, 8, 0xfff0000000000000},
      {"<f4", "1.5", HR_F32, 4, 0x3fc00000},
      {"<i2", "-3", HR_I16, 2, 0xfffd},
      {"<u4", "null", HR_U32, 4, 0},
      {"<f2", "\"Infinity\"", HR_F16, 2, 0x7c00},
      {"bfloat16", "-2", HR_BF16, 2, 0xc000},
      {"<c8", "[1.0, \"NaN\"]", HR_C64, 8, 0x7fc000003f800000},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mem_clear(&mem);
    size_t es = cases[i].elsize;
    unsigned char *ref = reference(35, es);
    level_spec lv = {.compress = Z_ZLIB};
    array_spec a = {2, {5, 7}, {2, 3}, es, es, ref, &lv};
    put_zarray("[5, 7]", "[2, 3]", cases[i].dtype, compressor_json(Z_ZLIB), "C", cases[i].fill, ".");
    uint64_t skip = 1u << 1 | 1u << 3 | 1u << 8; /* cells (0,1), (1,0) and (2,2) */
    store_chunks(&a, "", '.', skip);
    for (int r = 0; r < 5; r++)
      for (int c = 0; c < 7; c++) {
        int cellno = r / 2 * 3 + c / 3;
        if (skip >> cellno & 1) memcpy(ref + (r * 7 + c) * es, &cases[i].bits, es);
      }
    expect_array(cases[i].want, 2, a.shape, ref);
    free(ref);
  }
  /* no chunk at all */
  mem_clear(&mem);
  put_zarray("[2, 2]", "[1, 1]", "<i4", "null", "C", "7", ".");
  int32_t sevens[4] = {7, 7, 7, 7};
  expect_array(HR_I32, 2, (const int64_t[]){2, 2}, (const unsigned char *)sevens);
}

TEST(v2_bool_bfloat16_int4_and_rank_0) {
  /* bool bytes other than 0 and 1 become 1; the second chunk's padding is dropped */
  mem_clear(&mem);
  put_zarray("[4]", "[3]", "|b1", "null", "C", "false", ".");
  put("x/0", "\x00\x02\x01", 3);
  put("x/1", "\xff\x00\x00", 3);
  expect_array(HR_I1, 1, (const int64_t[]){4}, (const unsigned char *)"\x00\x01\x01\x01");
  /* int4 bytes are sign-extended from their low 4 bits */
  mem_clear(&mem);
  put_zarray("[3]", "[3]", "int4", "null", "C", "null", ".");
  put("x/0", "\x0f\x07\x18", 3);
  expect_array(HR_I4, 1, (const int64_t[]){3}, (const unsigned char *)"\xff\x07\xf8");
  /* bfloat16 */
  mem_clear(&mem);
  uint16_t bf[3] = {0x3f80, 0xc000, 0x7fc0};
  bytes z = squeeze(Z_ZSTD, (const unsigned char *)bf, sizeof bf);
  put_zarray("[3]", "[3]", "bfloat16", compressor_json(Z_ZSTD), "C", "0", ".");
  put("x/0", z.p, z.n);
  free(z.p);
  expect_array(HR_BF16, 1, (const int64_t[]){3}, (const unsigned char *)bf);
  /* rank 0: the chunk key is "0"; missing, the fill value */
  mem_clear(&mem);
  double pi = 3.25, fill = 2.5;
  put_zarray("[]", "[]", "<f8", "null", "C", "2.5", ".");
  expect_array(HR_F64, 0, NULL, (const unsigned char *)&fill);
  put("x/0", &pi, 8);
  expect_array(HR_F64, 0, NULL, (const unsigned char *)&pi);
  /* an empty array reads no chunk */
  mem_clear(&mem);
  put_zarray("[0, 4]", "[1, 4]", "<f4", "null", "C", "null", ".");
  expect_array(HR_F32, 2, (const int64_t[]){0, 4}, NULL);
  /* hr_zarr_read_info reads the metadata alone */
  hr_dtype dt = HR_DTYPE_INVALID;
  hr_shape shape = {0};
  CHECK_OK(hr_zarr_read_info(&mem.base, "x", &dt, &shape));
  CHECK(dt == HR_F32 && shape.rank == 2 && shape.dims[0] == 0 && shape.dims[1] == 4);
}

/* ---------------------------------------------------------------------------------------------- */
/* zarr v3                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* The zarr.json of "x": shape, data type, chunk shape, fill value, key encoding and codecs. */
static void put_zarr_json(const char *shape, const char *type, const char *chunks, const char *fill, const char *keys,
                          const char *codecs) {
  char text[4096];
  snprintf(text, sizeof text,
           "{\"zarr_format\": 3, \"node_type\": \"array\", \"shape\": %s, \"data_type\": \"%s\", \"chunk_grid\": "
           "{\"name\": \"regular\", \"configuration\": {\"chunk_shape\": %s}}, \"chunk_key_encoding\": %s, "
           "\"fill_value\": %s, \"codecs\": %s, \"attributes\": {}}",
           shape, type, chunks, keys, fill, codecs);
  put_text("x/zarr.json", text);
}

static const char *default_keys = "{\"name\": \"default\"}";

TEST(v3_bytes_zstd_transpose_and_keys) {
  unsigned char *ref = reference(35, 4);
  const int swap[] = {1, 0};
  /* bytes + zstd, default keys c/i/j */
  mem_clear(&mem);
  level_spec lv = {.compress = Z_ZSTD};
  array_spec a = {2, {5, 7}, {2, 3}, 4, 4, ref, &lv};
  put_zarr_json("[5, 7]", "int32", "[2, 3]", "0", default_keys,
                "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, {\"name\": \"zstd\", "
                "\"configuration\": {\"level\": 3, \"checksum\": false}}]");
  store_chunks(&a, "c", '/', 0);
  expect_array(HR_I32, 2, a.shape, ref);
  /* a transpose, big-endian bytes, gzip then crc32c; "v2" keys with '.'; missing chunks: a
   * float's bit pattern as the fill value */
  mem_clear(&mem);
  level_spec lv2 = {.perm = swap, .big_endian = true, .compress = Z_GZIP, .crc = true};
  array_spec b = {2, {5, 7}, {2, 3}, 4, 4, ref, &lv2};
  put_zarr_json("[5, 7]", "float32", "[2, 3]", "\"0x7fc00001\"", "{\"name\": \"v2\"}",
                "[{\"name\": \"transpose\", \"configuration\": {\"order\": [1, 0]}}, {\"name\": \"bytes\", "
                "\"configuration\": {\"endian\": \"big\"}}, {\"name\": \"gzip\", \"configuration\": {\"level\": 5}}, "
                "{\"name\": \"crc32c\"}]");
  store_chunks(&b, "", '.', 1u << 4);
  unsigned char *want = malloc(35 * 4);
  memcpy(want, ref, 35 * 4);
  uint32_t fill = 0x7fc00001;
  for (int r = 2; r < 4; r++)
    for (int c = 3; c < 6; c++) memcpy(want + (r * 7 + c) * 4, &fill, 4);
  expect_array(HR_F32, 2, b.shape, want);
  /* a damaged chunk fails its checksum */
  int i = mem_find(&mem, "x/0.0");
  CHECK(i >= 0);
  if (i >= 0) mem.values[i][0] ^= 1;
  expect_refused(HR_PARSE_ERROR, "x/0.0", "crc32c: checksum mismatch");
  /* rank 0: key "c" */
  mem_clear(&mem);
  put_zarr_json("[]", "uint16", "[]", "5", default_keys,
                "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]");
  uint16_t five = 5, nine = 9;
  expect_array(HR_U16, 0, NULL, (const unsigned char *)&five);
  put("x/c", &nine, 2);
  expect_array(HR_U16, 0, NULL, (const unsigned char *)&nine);
  free(ref), free(want);
}

/* The codecs JSON of a sharded array: `pre` (array-to-array codecs), sharding_indexed with inner
 * chunk shape `inner`, inner codecs `codecs`, index codecs bytes (+ crc32c), `location`. */
static void sharding_json(char *out, size_t cap, const char *pre, const char *inner, const char *codecs, bool crc,
                          const char *location) {
  snprintf(out, cap,
           "[%s{\"name\": \"sharding_indexed\", \"configuration\": {\"chunk_shape\": %s, \"codecs\": %s, "
           "\"index_codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}%s], "
           "\"index_location\": \"%s\"}}]",
           pre, inner, codecs, crc ? ", {\"name\": \"crc32c\"}" : "", location);
}

static const char *bytes_zstd =
    "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, {\"name\": "
    "\"zstd\", \"configuration\": {\"level\": 3, \"checksum\": false}}]";

TEST(v3_sharding) {
  /* int16 [6, 8] in shards of [4, 4] (edge shards at the bottom), inner chunks [2, 2] */
  unsigned char *ref = reference(48, 2);
  const int64_t inner[] = {2, 2};
  char codecs[2048];
  for (int start = 0; start < 2; start++) {
    mem_clear(&mem);
    level_spec lv[] = {{.inner = inner, .index_start = start, .index_crc = true}, {.compress = Z_ZSTD}};
    array_spec a = {2, {6, 8}, {4, 4}, 2, 2, ref, lv};
    sharding_json(codecs, sizeof codecs, "", "[2, 2]", bytes_zstd, true, start ? "start" : "end");
    put_zarr_json("[6, 8]", "int16", "[4, 4]", "0", default_keys, codecs);
    store_chunks(&a, "c", '/', 0);
    expect_array(HR_I16, 2, a.shape, ref);
  }
  /* missing inner chunks (1 and 2 of shard (0, 1)) and a missing shard (1, 0) take the fill value */
  mem_clear(&mem);
  level_spec lv[] = {{.inner = inner, .index_crc = true, .skip = 1u << 1 | 1u << 2}, {.compress = Z_ZSTD}};
  array_spec a = {2, {6, 8}, {4, 4}, 2, 2, ref, lv};
  sharding_json(codecs, sizeof codecs, "", "[2, 2]", bytes_zstd, true, "end");
  put_zarr_json("[6, 8]", "int16", "[4, 4]", "-1", default_keys, codecs);
  store_chunks(&a, "c", '/', 1u << 2);
  unsigned char *want = malloc(48 * 2);
  memcpy(want, ref, 48 * 2);
  for (int r = 0; r < 6; r++)
    for (int c = 0; c < 8; c++) {
      int shard = r / 4 * 2 + c / 4, in = r % 4 / 2 * 2 + c % 4 / 2;
      if (shard == 2 || ((shard == 0 || shard == 1 || shard == 3) && (in == 1 || in == 2)))
        memset(want + (r * 8 + c) * 2, 0xff, 2);
    }
  expect_array(HR_I16, 2, a.shape, want);
  /* a damaged index fails its CRC-32C; a shard too short for its index is refused */
  int i = mem_find(&mem, "x/c/0/0");
  CHECK(i >= 0);
  if (i < 0) return;
  mem.values[i][mem.lens[i] - 10] ^= 0x40;
  expect_refused(HR_PARSE_ERROR, "x/c/0/0", "CRC-32C does not match");
  mem.lens[i] = 40;
  expect_refused(HR_PARSE_ERROR, "x/c/0/0", "fewer than its index's 68");
  /* an index entry pointing outside the shard */
  mem_clear(&mem);
  level_spec plain[] = {{.inner = inner}, {.compress = Z_NONE}};
  array_spec p = {2, {6, 8}, {4, 4}, 2, 2, ref, plain};
  sharding_json(codecs, sizeof codecs, "", "[2, 2]",
                "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]", false, "end");
  put_zarr_json("[6, 8]", "int16", "[4, 4]", "0", default_keys, codecs);
  store_chunks(&p, "c", '/', 0);
  expect_array(HR_I16, 2, p.shape, ref);
  i = mem_find(&mem, "x/c/1/1");
  if (i >= 0) mem.values[i][mem.lens[i] - 64] = 0x70;
  expect_refused(HR_PARSE_ERROR, "x/c/1/1", "shard index entry 0");
  free(ref), free(want);
}

TEST(v3_nested_shards_and_transposes) {
  /* float64 [8, 6]: transpose, shards of [4, 6] (encoded: [6, 4]), inner shards of [3, 2] with
   * a transpose of their own, innermost chunks of [1, 3] with gzip */
  unsigned char *ref = reference(48, 8);
  const int swap[] = {1, 0};
  const int64_t mid[] = {3, 2}, leaf[] = {1, 3};
  level_spec lv[] = {{.perm = swap, .inner = mid, .index_crc = true, .index_start = true},
                     {.perm = swap, .inner = leaf, .big_endian = true, .skip = 1u},
                     {.big_endian = true, .compress = Z_GZIP, .crc = true}};
  array_spec a = {2, {8, 6}, {4, 6}, 8, 8, ref, lv};
  char inner[1024], codecs[4096];
  snprintf(inner, sizeof inner,
           "[{\"name\": \"transpose\", \"configuration\": {\"order\": \"F\"}}, {\"name\": \"sharding_indexed\", "
           "\"configuration\": {\"chunk_shape\": [1, 3], \"codecs\": [{\"name\": \"bytes\", \"configuration\": "
           "{\"endian\": \"big\"}}, {\"name\": \"gzip\", \"configuration\": {\"level\": 1}}, \"crc32c\"], "
           "\"index_codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}]}}]");
  sharding_json(codecs, sizeof codecs, "{\"name\": \"transpose\", \"configuration\": {\"order\": [1, 0]}}, ", "[3, 2]",
                inner, true, "start");
  put_zarr_json("[8, 6]", "float64", "[4, 6]", "\"NaN\"", default_keys, codecs);
  store_chunks(&a, "c", '/', 0);
  /* the first innermost chunk of every middle shard is missing: NaN. A middle shard [3, 2] covers
   * array rows 2k..2k+1 (its encoded dims are the array's), columns 3m..3m+2 of its outer shard
   * (encoded [6, 4]: array columns, rows); its encoded [2, 3] grid's first chunk is array row 2k. */
  unsigned char *want = malloc(48 * 8);
  memcpy(want, ref, 48 * 8);
  double nan = NAN;
  for (int r = 0; r < 8; r += 2)
    for (int c = 0; c < 6; c++) memcpy(want + (r * 6 + c) * 8, &nan, 8);
  expect_array(HR_F64, 2, a.shape, want);
  free(ref), free(want);
}

/* ---------------------------------------------------------------------------------------------- */
/* hr_zarr_encode_v2                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Encodes `t` with hr_zarr_encode_v2 as array "x" and reads it back. */
static void round_trip(const hr_tensor *t) {
  mem_clear(&mem);
  char *zarray = NULL;
  unsigned char *chunk = NULL;
  size_t len = 0;
  CHECK_OK(hr_zarr_encode_v2(t, 1, &zarray, &chunk, &len, &counting));
  if (!zarray) return;
  put_text("x/.zarray", zarray);
  char key[64] = "x/0";
  for (int i = 1; i < t->shape.rank; i++) strcat(key, ".0");
  put(key, chunk, len);
  counting.free(NULL, zarray);
  counting.free(NULL, chunk);
  expect_array(t->dtype, t->shape.rank, t->shape.dims, t->data);
}

TEST(encode_v2_round_trips) {
  const hr_dtype types[] = {HR_I1,  HR_I4,   HR_I8,  HR_U8,  HR_I16, HR_I32,  HR_I64, HR_U16, HR_U32, HR_U64,
                            HR_F16, HR_BF16, HR_F32, HR_F64, HR_C64, HR_C128, HR_U4,  HR_I2,  HR_U2};
  hr_shape shapes[] = {{2, {3, 5}}, {0, {0}}, {3, {2, 1, 4}}, {2, {0, 3}}};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
      hr_tensor *t = NULL;
      CHECK_OK(hr_tensor_create(NULL, types[i], &shapes[k], 0, &t));
      if (!t) continue;
      unsigned char *p = t->data;
      for (size_t b = 0; b < t->nbytes; b++) p[b] = (unsigned char)(b * 13 + 5);
      if (types[i] == HR_I1 || types[i] == HR_I4 || types[i] == HR_U4 || types[i] == HR_I2 || types[i] == HR_U2)
        for (size_t b = 0; b < t->nbytes; b++) p[b] = (unsigned char)(b % 2); /* valid in every narrow type */
      round_trip(t);
      hr_tensor_free(t);
    }
  /* the .zarray text is what tensorstore writes for Orbax (the real checkpoints' a/.zarray) */
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_I32, &(hr_shape){1, {8}}, 0, &t));
  char *zarray = NULL;
  unsigned char *chunk = NULL;
  size_t len = 0;
  CHECK_OK(hr_zarr_encode_v2(t, 1, &zarray, &chunk, &len, NULL));
  CHECK(zarray && strcmp(zarray,
                         "{\"chunks\":[8],\"compressor\":{\"id\":\"zstd\",\"level\":1},\"dimension_separator\":"
                         "\".\",\"dtype\":\"<i4\",\"fill_value\":null,\"filters\":null,\"order\":\"C\","
                         "\"shape\":[8],\"zarr_format\":2}") == 0);
  CHECK(chunk && ZSTD_getFrameContentSize(chunk, len) == 32);
  hr_default_allocator()->free(NULL, zarray);
  hr_default_allocator()->free(NULL, chunk);
  hr_tensor_free(t);
  /* types the reader cannot hold are refused */
  CHECK_OK(hr_tensor_create(NULL, HR_F8E4M3FN, &(hr_shape){1, {2}}, 0, &t));
  hr_status s = hr_zarr_encode_v2(t, 1, &zarray, &chunk, &len, NULL);
  CHECK(s && hr_status_code(s) == HR_UNIMPLEMENTED && !zarray && !chunk);
  hr_status_free(s);
  hr_tensor_free(t);
}

/* ---------------------------------------------------------------------------------------------- */
/* Hostile metadata and chunks                                                                     */
/* ---------------------------------------------------------------------------------------------- */

TEST(hostile_v2_metadata) {
  const struct {
    const char *zarray;
    hr_code code;
    const char *needle;
  } cases[] = {
      {"{\"zarr_format\": 2, \"shape\": [-4], \"chunks\": [2], \"dtype\": \"<f4\"}", HR_PARSE_ERROR,
       "'shape': dimension 0"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [0], \"dtype\": \"<f4\"}", HR_PARSE_ERROR,
       "'chunks': dimension 0"},
      {"{\"zarr_format\": 2, \"shape\": [4, 4], \"chunks\": [2], \"dtype\": \"<f4\"}", HR_PARSE_ERROR,
       "rank 1 differs"},
      {"{\"zarr_format\": 2, \"shape\": [4294967296, 4294967296], \"chunks\": [1, 1], \"dtype\": \"<f4\"}",
       HR_RESOURCE_EXHAUSTED, "element count overflows"},
      {"{\"zarr_format\": 2, \"shape\": [1099511627776], \"chunks\": [1099511627776], \"dtype\": \"<f4\"}",
       HR_RESOURCE_EXHAUSTED, "exceeds the limit"},
      {"{\"zarr_format\": 2, \"shape\": [2], \"chunks\": [1099511627776], \"dtype\": \"<f4\"}", HR_RESOURCE_EXHAUSTED,
       "a chunk of 4398046511104 bytes"},
      {"{\"zarr_format\": 2, \"shape\": [4611686018427387904], \"chunks\": [4611686018427387904], \"dtype\": \"<f8\"}",
       HR_RESOURCE_EXHAUSTED, "overflows"},
      {"{\"zarr_format\": 2, \"shape\": [2097152], \"chunks\": [1], \"dtype\": \"|u1\"}", HR_RESOURCE_EXHAUSTED,
       "more than 1048576 chunks"},
      {"{\"zarr_format\": 2, \"shape\": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1], \"chunks\": [1], \"dtype\": \"<f4\"}",
       HR_UNIMPLEMENTED, "rank 17 exceeds"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"<f4\", \"compressor\": {\"id\": \"blosc\", "
       "\"cname\": \"lz4\"}}",
       HR_UNIMPLEMENTED, "the compressor 'blosc' is not supported"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"<f4\", \"filters\": [{\"id\": \"delta\"}]}",
       HR_UNIMPLEMENTED, "'filters'"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"float8_e4m3fn\"}", HR_UNIMPLEMENTED,
       "'float8_e4m3fn' is not supported"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"<M8[ns]\"}", HR_UNIMPLEMENTED, "'<M8[ns]'"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"pineapple\"}", HR_PARSE_ERROR,
       "unknown element type"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": [[\"a\", \"<f4\"]]}", HR_UNIMPLEMENTED,
       "structured"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"<f4\", \"order\": \"K\"}", HR_PARSE_ERROR,
       "'order'"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"<i1\", \"fill_value\": 300}", HR_PARSE_ERROR,
       "300 is out of the range"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"<f4\", \"fill_value\": \"nan\"}",
       HR_PARSE_ERROR, "'fill_value'"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"<f4\", \"dimension_separator\": \"-\"}",
       HR_PARSE_ERROR, "'dimension_separator'"},
      {"{\"zarr_format\": 2, \"shape\": \"4\", \"chunks\": [4], \"dtype\": \"<f4\"}", HR_PARSE_ERROR,
       "'shape': not a list"},
      {"{\"zarr_format\": 2, \"shape\": [4.5], \"chunks\": [4], \"dtype\": \"<f4\"}", HR_PARSE_ERROR, "'shape'"},
      {"{\"zarr_format\": 3, \"shape\": [4], \"chunks\": [4], \"dtype\": \"<f4\"}", HR_PARSE_ERROR,
       "'zarr_format': not 2"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"<f4\", \"compressor\": {\"level\": 1}}",
       HR_PARSE_ERROR, "'compressor.id': missing"},
      {"[1, 2]", HR_PARSE_ERROR, "not a JSON object"},
      {"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [4], \"dtype\": \"<f4\", \"shape\": [5]}", HR_PARSE_ERROR,
       "not a JSON object"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mem_clear(&mem);
    put_text("x/.zarray", cases[i].zarray);
    expect_refused(cases[i].code, "mem/x/.zarray", cases[i].needle);
  }
  mem_clear(&mem);
  expect_refused(HR_NOT_FOUND, "mem/x", "no .zarray or zarr.json");
}

TEST(hostile_chunks) {
  /* a chunk that decodes larger than its 16 bytes, or shorter: each compressor */
  unsigned char big[32] = {1, 2, 3};
  for (int kind = Z_ZSTD; kind <= Z_GZIP; kind++) {
    mem_clear(&mem);
    put_zarray("[4]", "[4]", "<i4", compressor_json(kind), "C", "null", ".");
    bytes z = squeeze(kind, big, sizeof big);
    put("x/0", z.p, z.n);
    free(z.p);
    expect_refused(HR_PARSE_ERROR, "mem/x/0", "decodes to more than the 16 bytes");
    z = squeeze(kind, big, 8);
    put("x/0", z.p, z.n);
    expect_refused(HR_PARSE_ERROR, "mem/x/0", "decodes to 8 bytes, not the 16 expected");
    /* cut short, and garbage */
    put("x/0", z.p, z.n - 3);
    expect_refused(HR_PARSE_ERROR, "mem/x/0", kind == Z_ZSTD ? "zstd" : kind == Z_ZLIB ? "zlib" : "gzip");
    free(z.p);
    put("x/0", "garbage!garbage!", 16);
    expect_refused(HR_PARSE_ERROR, "mem/x/0", kind == Z_ZSTD ? "zstd" : kind == Z_ZLIB ? "zlib" : "gzip");
  }
  /* an uncompressed chunk of the wrong size; a stored chunk far above its bound, refused unread */
  mem_clear(&mem);
  put_zarray("[4]", "[4]", "<i4", "null", "C", "null", ".");
  put("x/0", big, 12);
  expect_refused(HR_PARSE_ERROR, "mem/x/0", "holds 12 bytes, not its 16");
  unsigned char *huge = calloc(1, 1 << 16);
  put("x/0", huge, 1 << 16);
  free(huge);
  expect_refused(HR_RESOURCE_EXHAUSTED, "may be stored in at most 4112", "65536 bytes exceed");
  /* a zstd frame that declares a huge size */
  mem_clear(&mem);
  put_zarray("[4]", "[4]", "<i4", compressor_json(Z_ZSTD), "C", "null", ".");
  put("x/0", "\x28\xb5\x2f\xfd\xa4\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00", 16);
  expect_refused(HR_PARSE_ERROR, "mem/x/0", "zstd");
  /* max_bytes bounds the array before anything is allocated */
  mem_clear(&mem);
  put_zarray("[1000]", "[10]", "<f8", "null", "C", "null", ".");
  hr_tensor *t = NULL;
  hr_status s = read_x(7999, &t);
  CHECK(s && hr_status_code(s) == HR_RESOURCE_EXHAUSTED && largest_alloc < 4096);
  hr_status_free(s);
  CHECK_OK(read_x(8000, &t));
  hr_tensor_free(t);
}

TEST(hostile_v3_metadata) {
  char codecs[2048];
  const char *bytes_le = "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]";
  const struct {
    const char *shape, *type, *chunks, *fill, *keys, *codecs;
    hr_code code;
    const char *needle;
  } cases[] = {
      {"[4]", "float8_e5m2", "[4]", "0", NULL, NULL, HR_UNIMPLEMENTED, "'float8_e5m2' is not supported"},
      {"[4]", "r16", "[4]", "0", NULL, NULL, HR_UNIMPLEMENTED, "'r16'"},
      {"[4]", "string", "[4]", "0", NULL, NULL, HR_PARSE_ERROR, "unknown element type 'string'"},
      {"[4]", "int32", "[4]", "0", NULL, "[{\"name\": \"zstd\"}, {\"name\": \"bytes\"}]", HR_PARSE_ERROR,
       "'zstd' before the array-to-bytes codec"},
      {"[4]", "int32", "[4]", "0", NULL, "[{\"name\": \"transpose\", \"configuration\": {\"order\": [0]}}]",
       HR_PARSE_ERROR, "no array-to-bytes codec"},
      {"[4]", "int32", "[4]", "0", NULL, "[{\"name\": \"bytes\"}]", HR_PARSE_ERROR,
       "'codecs[0].configuration.endian': missing"},
      {"[4, 4]", "int32", "[4, 4]", "0", NULL,
       "[{\"name\": \"transpose\", \"configuration\": {\"order\": [1, 1]}}, {\"name\": \"bytes\", \"configuration\": "
       "{\"endian\": \"little\"}}]",
       HR_PARSE_ERROR, "not a permutation"},
      {"[4]", "int32", "[4]", "0", NULL,
       "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, {\"name\": \"blosc\"}]", HR_UNIMPLEMENTED,
       "the codec 'blosc' is not supported"},
      {"[4]", "int32", "[4]", "0", "{\"name\": \"weird\"}", NULL, HR_UNIMPLEMENTED, "'chunk_key_encoding.name'"},
      {"[4]", "int32", "[4]", "\"x\"", NULL, NULL, HR_PARSE_ERROR, "'fill_value': not an integer"},
      {"[4]", "float32", "[4]", "\"0x7fc0\"", NULL, NULL, HR_PARSE_ERROR, "'fill_value'"},
      {"[4]", "int32", "[4]", "0", NULL, "[]", HR_PARSE_ERROR, "'codecs': not a non-empty list"},
      {"[4]", "int32", "[4]", "0", NULL, "[{\"configuration\": {}}]", HR_PARSE_ERROR, "'codecs[0].name': missing"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    mem_clear(&mem);
    put_zarr_json(cases[i].shape, cases[i].type, cases[i].chunks, cases[i].fill,
                  cases[i].keys ? cases[i].keys : default_keys, cases[i].codecs ? cases[i].codecs : bytes_le);
    expect_refused(cases[i].code, "mem/x/zarr.json", cases[i].needle);
  }
  /* sharding: chunk shapes that do not divide, too many inner chunks, nesting beyond the limit,
   * other index codecs */
  mem_clear(&mem);
  sharding_json(codecs, sizeof codecs, "", "[3]", bytes_le, true, "end");
  put_zarr_json("[8]", "int32", "[8]", "0", default_keys, codecs);
  expect_refused(HR_PARSE_ERROR, "codecs[0].configuration.chunk_shape", "does not divide the shard's 8");
  sharding_json(codecs, sizeof codecs, "", "[1]", bytes_le, true, "end");
  put_zarr_json("[4194304]", "uint8", "[4194304]", "0", default_keys, codecs);
  expect_refused(HR_RESOURCE_EXHAUSTED, "codecs[0].configuration.chunk_shape", "more than 1048576 chunks");
  char nested[2048] = "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]", outer[2048];
  for (int depth = 0; depth < 5; depth++) {
    sharding_json(outer, sizeof outer, "", "[4]", nested, false, "end");
    memcpy(nested, outer, sizeof nested);
  }
  put_zarr_json("[4]", "int32", "[4]", "0", default_keys, nested);
  expect_refused(HR_RESOURCE_EXHAUSTED, "mem/x/zarr.json", "nested more than 4 deep");
  snprintf(
      codecs, sizeof codecs,
      "[{\"name\": \"sharding_indexed\", \"configuration\": {\"chunk_shape\": [2], \"codecs\": %s, "
      "\"index_codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, {\"name\": \"zstd\"}]}}]",
      bytes_le);
  put_zarr_json("[4]", "int32", "[4]", "0", default_keys, codecs);
  expect_refused(HR_UNIMPLEMENTED, "index_codecs[1]", "the index codec 'zstd'");
  /* a group, not an array */
  mem_clear(&mem);
  put_text("x/zarr.json", "{\"zarr_format\": 3, \"node_type\": \"group\"}");
  expect_refused(HR_PARSE_ERROR, "'node_type'", "not an array");
}

int main(void) {
  RUN(v2_chunk_grid_edges_and_compressors);
  RUN(v2_order_f_and_big_endian);
  RUN(v2_missing_chunks_take_the_fill_value);
  RUN(v2_bool_bfloat16_int4_and_rank_0);
  RUN(v3_bytes_zstd_transpose_and_keys);
  RUN(v3_sharding);
  RUN(v3_nested_shards_and_transposes);
  RUN(encode_v2_round_trips);
  RUN(hostile_v2_metadata);
  RUN(hostile_chunks);
  RUN(hostile_v3_metadata);
  mem_clear(&mem);
  TEST_MAIN_END();
}

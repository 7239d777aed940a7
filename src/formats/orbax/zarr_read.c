/* hr_zarr_read_array: a zarr array assembled into one dense row-major tensor, from its metadata
 * (zarr.c, zarr_internal.h) and its chunks in a key-value store.
 *
 * For each cell of the chunk grid its key is read ("0.1", "c/0/1"; a missing key leaves the fill
 * value). A stored chunk is decoded level by level: its bytes-to-bytes codecs undone last first
 * (crc32c checked and dropped; zstd, zlib and gzip inflated to exactly the chunk's decoded size,
 * a frame that decodes larger refused), then either the chunk's elements (byte-swapped when stored
 * big-endian) or, for sharding_indexed, a shard: its index of (offset, length) pairs read and
 * checked, each inner chunk decoded the same way one level down and placed (all-ones entries are
 * missing chunks: fill value). Transposes (zarr v2's order F among them) are undone last, and the
 * chunk's in-bounds part is copied into the tensor (edge chunks are stored at full size).
 *
 * Nothing is allocated before the array and its chunks are known to fit `max_bytes`, and a stored
 * chunk larger than its decoded size allows (HR_LIMIT_ZARR_CHUNK_SLACK_BYTES) is refused before it
 * is read. An array saved by several processes is one array whose chunks each process wrote: its
 * store holds them all, so nothing here needs to know. */
#include <limits.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "base/crc.h"
#include "formats/orbax/dtypes_internal.h"
#include "formats/orbax/zarr.h"
#include "formats/orbax/zarr_internal.h"

enum { MAX_LEVELS = HR_LIMIT_ZARR_SHARD_DEPTH + 1 };

/* One array being read: its metadata, bounds per level and the buffers chunks are decoded in. */
typedef struct zr_reader {
  hr_kvstore *kv;
  const hr_allocator *a;
  const zr_array *z;
  size_t elsize;
  size_t payload[MAX_LEVELS];       /* the most bytes a chunk holds under its bytes-to-bytes codecs */
  size_t bound[MAX_LEVELS];         /* the most bytes one stored chunk may take */
  unsigned char *enc[MAX_LEVELS];   /* a transposed level's chunk in its encoded order (else NULL) */
  unsigned char *inner[MAX_LEVELS]; /* levels >= 1: one chunk, decoded */
  unsigned char *chunk;             /* level 0: one chunk, decoded (NULL: straight into the tensor) */
} zr_reader;

/* ---------------------------------------------------------------------------------------------- */
/* Small helpers                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

static size_t sat_add(size_t x, size_t y) {
  size_t r;
  return __builtin_add_overflow(x, y, &r) ? SIZE_MAX : r;
}

static size_t sat_mul(size_t x, size_t y) {
  size_t r;
  return __builtin_mul_overflow(x, y, &r) ? SIZE_MAX : r;
}

static const char *codec_name(zr_codec c) {
  return c == ZR_ZSTD ? "zstd" : c == ZR_ZLIB ? "zlib" : c == ZR_GZIP ? "gzip" : "crc32c";
}

static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t u64_at(const unsigned char *p, bool big_endian) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | p[big_endian ? i : 7 - i];
  return v;
}

/* Sets `n` elements of `elsize` bytes at `dst` to `value` (doubling copies). */
static void fill_elements(unsigned char *dst, size_t n, const unsigned char *value, size_t elsize) {
  size_t total = n * elsize, done = elsize;
  if (n == 0) return;
  memcpy(dst, value, elsize);
  for (; done < total; done *= 2) memcpy(dst + done, dst, done < total - done ? done : total - done);
}

/* Reverses the bytes of each `unit`-byte value of buf[0..n). */
static void swap_bytes(unsigned char *buf, size_t n, size_t unit) {
  for (size_t i = 0; i + unit <= n; i += unit)
    for (size_t a = i, b = i + unit - 1; a < b; a++, b--) {
      unsigned char t = buf[a];
      buf[a] = buf[b];
      buf[b] = t;
    }
}

static bool is_identity(const zr_level *lv, int rank) {
  for (int j = 0; j < rank; j++)
    if (lv->perm[j] != j) return false;
  return true;
}

/* Copies the part of block `src` (dims `bdims`, C order) placed at `origin` in `dst` (dims `ddims`,
 * C order) that lies inside `dst`: a chunk's in-bounds part, or an inner chunk into its shard. */
static void copy_block(unsigned char *dst, const int64_t *ddims, const unsigned char *src, const int64_t *bdims,
                       const int64_t *origin, int rank, size_t elsize) {
  if (rank == 0) {
    memcpy(dst, src, elsize);
    return;
  }
  size_t dstride[HR_MAX_RANK], sstride[HR_MAX_RANK], doff = 0, soff = 0;
  int64_t ext[HR_MAX_RANK], idx[HR_MAX_RANK] = {0};
  for (int j = rank - 1; j >= 0; j--) {
    dstride[j] = j == rank - 1 ? elsize : dstride[j + 1] * (size_t)ddims[j + 1];
    sstride[j] = j == rank - 1 ? elsize : sstride[j + 1] * (size_t)bdims[j + 1];
    ext[j] = bdims[j] < ddims[j] - origin[j] ? bdims[j] : ddims[j] - origin[j];
    if (ext[j] <= 0) return;
    doff += (size_t)origin[j] * dstride[j];
  }
  size_t row = (size_t)ext[rank - 1] * elsize;
  for (;;) {
    memcpy(dst + doff, src + soff, row);
    int j = rank - 2;
    for (; j >= 0; j--) {
      doff += dstride[j], soff += sstride[j];
      if (++idx[j] < ext[j]) break;
      doff -= (size_t)ext[j] * dstride[j], soff -= (size_t)ext[j] * sstride[j];
      idx[j] = 0;
    }
    if (j < 0) return;
  }
}

/* Reorders a chunk of level `lv` from its encoded order (`src`: dims eshape, C order; encoded
 * dimension j is input dimension perm[j]) into its input order (`dst`: dims shape, C order). */
static void untranspose(const zr_level *lv, int rank, size_t elsize, const unsigned char *src, unsigned char *dst) {
  size_t istride[HR_MAX_RANK], estride[HR_MAX_RANK], off = 0, n = lv->bytes / elsize;
  int64_t idx[HR_MAX_RANK] = {0};
  for (int j = rank - 1; j >= 0; j--) istride[j] = j == rank - 1 ? elsize : istride[j + 1] * (size_t)lv->shape[j + 1];
  for (int j = 0; j < rank; j++) estride[j] = istride[lv->perm[j]];
  for (size_t i = 0; i < n; i++) {
    memcpy(dst + off, src + i * elsize, elsize);
    for (int j = rank - 1; j >= 0; j--) {
      off += estride[j];
      if (++idx[j] < lv->eshape[j]) break;
      off -= (size_t)lv->eshape[j] * estride[j];
      idx[j] = 0;
    }
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Bytes-to-bytes codecs                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* zstd frames into out[0..cap): *got bytes; more than `cap` is refused. */
static hr_status unzstd(const unsigned char *in, size_t n, unsigned char *out, size_t cap, size_t *got) {
  size_t r = ZSTD_decompress(out, cap, in, n);
  if (ZSTD_isError(r) && ZSTD_getErrorCode(r) == ZSTD_error_dstSize_tooSmall)
    return hr_error(HR_PARSE_ERROR, "zstd: the data decodes to more than the %zu bytes it may hold", cap);
  if (ZSTD_isError(r)) return hr_error(HR_PARSE_ERROR, "zstd: %s", ZSTD_getErrorName(r));
  *got = r;
  return NULL;
}

/* One zlib or gzip stream into out[0..cap): *got bytes; more than `cap`, a cut stream and bytes
 * after its end are refused. Fed in pieces: zlib counts in 32 bits. */
static hr_status unzlib(zr_codec c, const unsigned char *in, size_t n, unsigned char *out, size_t cap, size_t *got) {
  z_stream zs = {0};
  if (inflateInit2(&zs, c == ZR_GZIP ? 16 + MAX_WBITS : MAX_WBITS) != Z_OK)
    return hr_error(HR_OUT_OF_MEMORY, "%s: cannot start inflating", codec_name(c));
  size_t in_left = n, out_left = cap;
  unsigned char spare; /* the output's one byte beyond `cap`: written only by a stream too long */
  bool spare_given = false;
  zs.next_in = (Bytef *)in;
  zs.next_out = out;
  hr_status s = NULL;
  for (;;) {
    if (zs.avail_in == 0 && in_left) in_left -= zs.avail_in = in_left < UINT_MAX ? (uInt)in_left : UINT_MAX;
    if (zs.avail_out == 0 && out_left)
      out_left -= zs.avail_out = out_left < UINT_MAX ? (uInt)out_left : UINT_MAX;
    else if (zs.avail_out == 0)
      zs.next_out = &spare, zs.avail_out = 1, spare_given = true;
    int rc = inflate(&zs, Z_NO_FLUSH);
    if (spare_given && zs.avail_out == 0)
      s = hr_error(HR_PARSE_ERROR, "%s: the data decodes to more than the %zu bytes it may hold", codec_name(c), cap);
    else if (rc == Z_STREAM_END && (zs.avail_in || in_left))
      s = hr_error(HR_PARSE_ERROR, "%s: %zu bytes after the end of the stream", codec_name(c), zs.avail_in + in_left);
    else if (rc == Z_BUF_ERROR && zs.avail_in == 0 && !in_left)
      s = hr_error(HR_PARSE_ERROR, "%s: the stream is cut short", codec_name(c));
    else if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
      s = hr_error(HR_PARSE_ERROR, "%s: %s", codec_name(c), zs.msg ? zs.msg : "corrupt stream");
    if (s || rc == Z_STREAM_END) break;
  }
  *got = cap - out_left - (spare_given ? 0 : zs.avail_out);
  inflateEnd(&zs);
  return s;
}

/* Checks and drops the CRC-32C a crc32c codec appended (little-endian) to p[0..*n). */
static hr_status check_crc32c(const unsigned char *p, size_t *n) {
  if (*n < 4) return hr_error(HR_PARSE_ERROR, "crc32c: %zu bytes hold no checksum", *n);
  *n -= 4;
  if (hr_crc32c(0, p, *n) != le32(p + *n))
    return hr_error(HR_PARSE_ERROR, "crc32c: checksum mismatch (the data is damaged)");
  return NULL;
}

/* Undoes the bytes-to-bytes codecs of level `l`, last first, on data[0..len): *out, *out_len the
 * array-to-bytes codec's bytes. A decompression yields exactly the chunk's bytes (and the
 * checksums of codecs before it), or for a shard at most its payload bound. The one that yields
 * the chunk's elements writes them into `target`; others write into a buffer left in *owned (the
 * caller frees it, also on error). */
static hr_status undo_codecs(zr_reader *r, int l, const unsigned char *data, size_t len, unsigned char *target,
                             const unsigned char **out, size_t *out_len, unsigned char **owned) {
  const zr_level *lv = &r->z->levels[l];
  *out = data;
  *out_len = len;
  *owned = NULL;
  for (int i = lv->n_codecs - 1; i >= 0; i--) {
    if (lv->codecs[i] == ZR_CRC32C) {
      HR_TRY(check_crc32c(*out, out_len));
      continue;
    }
    size_t crcs = 0;
    bool inner_compressor = false;
    for (int k = 0; k < i; k++) crcs += lv->codecs[k] == ZR_CRC32C, inner_compressor |= lv->codecs[k] != ZR_CRC32C;
    size_t want = sat_add(lv->sharded ? r->payload[l] : lv->bytes, 4 * crcs), got = 0;
    bool into_target = !lv->sharded && !inner_compressor && crcs == 0;
    unsigned char *buf = into_target ? target : r->a->alloc(r->a->ctx, want, 64);
    if (!buf)
      return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory for %zu decoded bytes", codec_name(lv->codecs[i]), want);
    hr_status s = lv->codecs[i] == ZR_ZSTD ? unzstd(*out, *out_len, buf, want, &got)
                                           : unzlib(lv->codecs[i], *out, *out_len, buf, want, &got);
    if (!s && !lv->sharded && got != want)
      s = hr_error(HR_PARSE_ERROR, "%s: the data decodes to %zu bytes, not the %zu expected", codec_name(lv->codecs[i]),
                   got, want);
    if (*owned) r->a->free(r->a->ctx, *owned);
    *owned = into_target ? NULL : buf;
    *out = buf;
    *out_len = got;
    if (s) return s;
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Chunks and shards                                                                               */
/* ---------------------------------------------------------------------------------------------- */

static hr_status decode_chunk(zr_reader *r, int l, const unsigned char *data, size_t len, unsigned char *dst);

/* A plain chunk's elements p[0..n) into `target` (encoded order), in host byte order. */
static hr_status place_elements(zr_reader *r, const zr_level *lv, const unsigned char *p, size_t n,
                                unsigned char *target) {
  if (n != lv->bytes) return hr_error(HR_PARSE_ERROR, "the chunk holds %zu bytes, not its %zu", n, lv->bytes);
  if (p != target) memcpy(target, p, n);
  if (lv->big_endian) swap_bytes(target, n, hr_dtype_is_complex(r->z->dtype) ? r->elsize / 2 : r->elsize);
  return NULL;
}

/* The bytes of a shard's index (16 per inner chunk, and its checksum). */
static size_t index_bytes(const zr_level *lv) { return (size_t)lv->n_inner * 16 + (lv->index_crc ? 4 : 0); }

/* A shard of level `l` (p[0..n)): each inner chunk its index names decoded and placed into
 * `target` (the shard in level l's encoded order); missing ones take the fill value. */
static hr_status decode_shard(zr_reader *r, int l, const unsigned char *p, size_t n, unsigned char *target) {
  const zr_level *lv = &r->z->levels[l], *in = &r->z->levels[l + 1];
  size_t ib = index_bytes(lv);
  if (n < ib) return hr_error(HR_PARSE_ERROR, "the shard holds %zu bytes, fewer than its index's %zu", n, ib);
  const unsigned char *index = lv->index_at_start ? p : p + n - ib;
  size_t lo = lv->index_at_start ? ib : 0, hi = lv->index_at_start ? n : n - ib; /* where chunks may lie */
  if (lv->index_crc && hr_crc32c(0, index, ib - 4) != le32(index + ib - 4))
    return hr_error(HR_PARSE_ERROR, "the shard index's CRC-32C does not match (the index is damaged)");
  int rank = r->z->shape.rank;
  int64_t cell[HR_MAX_RANK] = {0}, origin[HR_MAX_RANK];
  for (int64_t i = 0; i < lv->n_inner; i++) {
    uint64_t off = u64_at(index + 16 * i, lv->index_big_endian), len = u64_at(index + 16 * i + 8, lv->index_big_endian);
    if (off == UINT64_MAX && len == UINT64_MAX) {
      fill_elements(r->inner[l + 1], in->bytes / r->elsize, r->z->fill, r->elsize);
    } else if (off < lo || off > hi || len > hi - off || len > r->bound[l + 1]) {
      return hr_error(HR_PARSE_ERROR,
                      "shard index entry %lld: %llu bytes at offset %llu are not within the shard's chunk bytes "
                      "[%zu, %zu) or exceed the %zu an inner chunk may take",
                      (long long)i, (unsigned long long)len, (unsigned long long)off, lo, hi, r->bound[l + 1]);
    } else {
      hr_status s = decode_chunk(r, l + 1, p + off, (size_t)len, r->inner[l + 1]);
      if (s) return hr_status_wrap(s, "inner chunk %lld", (long long)i);
    }
    for (int j = 0; j < rank; j++) origin[j] = cell[j] * in->shape[j];
    copy_block(target, lv->eshape, r->inner[l + 1], in->shape, origin, rank, r->elsize);
    for (int j = rank - 1; j >= 0 && ++cell[j] == lv->grid[j]; j--) cell[j] = 0;
  }
  return NULL;
}

/* Decodes one stored chunk of level `l` (data[0..len)) into `dst`: its level->bytes in its input
 * coordinates, C order. */
static hr_status decode_chunk(zr_reader *r, int l, const unsigned char *data, size_t len, unsigned char *dst) {
  const zr_level *lv = &r->z->levels[l];
  unsigned char *target = r->enc[l] ? r->enc[l] : dst, *owned = NULL;
  const unsigned char *p;
  size_t n;
  hr_status s = undo_codecs(r, l, data, len, target, &p, &n, &owned);
  if (!s) s = lv->sharded ? decode_shard(r, l, p, n, target) : place_elements(r, lv, p, n, target);
  if (owned) r->a->free(r->a->ctx, owned);
  if (!s && r->enc[l]) untranspose(lv, r->z->shape.rank, r->elsize, target, dst);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* The chunk grid                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* The key of grid cell `cell` under `prefix`: "0.1" (v2 and v3's "v2" keys; "0" for rank 0) or
 * "c/0/1" (v3's default keys; "c" for rank 0), with the array's separator. */
static hr_status chunk_key(const zr_array *z, const char *prefix, const int64_t *cell, char *key, size_t cap) {
  int n = snprintf(key, cap, "%s%s%s", prefix, prefix[0] ? "/" : "", z->key_prefix_c ? "c" : z->shape.rank ? "" : "0");
  for (int j = 0; n >= 0 && (size_t)n < cap && j < z->shape.rank; j++) {
    int m = snprintf(key + n, cap - (size_t)n, "%s%lld", j || z->key_prefix_c ? (z->separator == '/' ? "/" : ".") : "",
                     (long long)cell[j]);
    n = m < 0 ? m : n + m;
  }
  if (n < 0 || (size_t)n >= cap)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: a chunk key is longer than %zu bytes", z->where, cap - 1);
  return NULL;
}

/* The stored-size bound and payload of every level, innermost first: a plain chunk holds its
 * bytes, a shard its index and inner chunks at their bound; what is stored may add 1/64 and the
 * slack of limits.h. */
static void compute_bounds(zr_reader *r) {
  for (int l = r->z->n_levels - 1; l >= 0; l--) {
    const zr_level *lv = &r->z->levels[l];
    size_t p = lv->sharded ? sat_add(index_bytes(lv), sat_mul((size_t)lv->n_inner, r->bound[l + 1])) : lv->bytes;
    r->payload[l] = p;
    r->bound[l] =
        sat_add(sat_add(p, p / 64), l ? HR_LIMIT_ZARR_INNER_CHUNK_SLACK_BYTES : HR_LIMIT_ZARR_CHUNK_SLACK_BYTES);
  }
}

static hr_status alloc_buffer(zr_reader *r, size_t n, unsigned char **out) {
  *out = r->a->alloc(r->a->ctx, n, 64);
  return *out ? NULL : hr_error(HR_OUT_OF_MEMORY, "%s: out of memory for a chunk of %zu bytes", r->z->where, n);
}

/* The decoding buffers: each transposed level's encoded chunk, each inner level's chunk, and
 * level 0's chunk unless chunks go straight into the tensor (`direct`). */
static hr_status reader_init(zr_reader *r, bool direct) {
  compute_bounds(r);
  for (int l = 0; l < r->z->n_levels; l++) {
    const zr_level *lv = &r->z->levels[l];
    if (!is_identity(lv, r->z->shape.rank)) HR_TRY(alloc_buffer(r, lv->bytes, &r->enc[l]));
    if (l) HR_TRY(alloc_buffer(r, lv->bytes, &r->inner[l]));
  }
  return direct ? NULL : alloc_buffer(r, r->z->levels[0].bytes, &r->chunk);
}

static void reader_free(zr_reader *r) {
  for (int l = 0; l < MAX_LEVELS; l++) {
    if (r->enc[l]) r->a->free(r->a->ctx, r->enc[l]);
    if (r->inner[l]) r->a->free(r->a->ctx, r->inner[l]);
  }
  if (r->chunk) r->a->free(r->a->ctx, r->chunk);
}

/* One stored chunk being decoded where the store holds it (hr_kvstore_visit). */
typedef struct zr_visit {
  zr_reader *r;
  unsigned char *dst;
} zr_visit;

static hr_status decode_visited(void *ctx, const unsigned char *data, size_t len) {
  zr_visit *v = ctx;
  return decode_chunk(v->r, 0, data, len, v->dst);
}

/* Decodes the stored chunk `key` into `dst`, refusing one larger than its bound; *present false
 * when it is missing. */
static hr_status read_stored(zr_reader *r, const char *key, unsigned char *dst, bool *present) {
  zr_visit v = {r, dst};
  hr_status s = hr_kvstore_visit(r->kv, key, r->bound[0], decode_visited, &v);
  *present = !s || hr_status_code(s) != HR_NOT_FOUND;
  if (s && hr_status_code(s) == HR_NOT_FOUND) {
    hr_status_free(s);
    return NULL;
  }
  if (s && hr_status_code(s) == HR_RESOURCE_EXHAUSTED)
    return hr_status_wrap(s, "%s: a chunk of %zu decoded bytes may be stored in at most %zu", r->z->where,
                          r->z->levels[0].bytes, r->bound[0]);
  return s ? hr_status_wrap(s, "%s/%s", r->kv->name, key) : NULL;
}

/* Reads every chunk of the grid into tensor `t` (already holding the fill value). */
static hr_status read_chunks(zr_reader *r, const char *prefix, hr_tensor *t) {
  const zr_array *z = r->z;
  int rank = z->shape.rank;
  int64_t cell[HR_MAX_RANK] = {0}, origin[HR_MAX_RANK];
  for (int64_t i = 0; i < z->n_chunks; i++) {
    char key[HR_LIMIT_ORBAX_PATH_BYTES];
    bool present;
    HR_TRY(chunk_key(z, prefix, cell, key, sizeof key));
    HR_TRY(read_stored(r, key, r->chunk ? r->chunk : t->data, &present));
    if (present) {
      for (int j = 0; j < rank; j++) origin[j] = cell[j] * z->chunks[j];
      if (r->chunk) copy_block(t->data, z->shape.dims, r->chunk, z->chunks, origin, rank, r->elsize);
    }
    for (int j = rank - 1; j >= 0; j--) { /* the next cell, C order */
      if (++cell[j] * z->chunks[j] < z->shape.dims[j]) break;
      cell[j] = 0;
    }
  }
  return NULL;
}

/* The elements of array `z` (checked against `max_bytes`), and its bytes. */
static hr_status array_size(const zr_array *z, size_t max_bytes, size_t *n, size_t *bytes) {
  size_t elsize = hr_dtype_size(z->dtype);
  *n = 1;
  for (int j = 0; j < z->shape.rank; j++) *n *= (size_t)z->shape.dims[j]; /* zarr.c checked it for overflow */
  if (*n > max_bytes / elsize)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: the array of %zu elements of %zu bytes exceeds the limit of %zu bytes",
                    z->where, *n, elsize, max_bytes);
  if (z->n_chunks && z->levels[0].bytes > max_bytes)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: a chunk of %zu bytes exceeds the limit of %zu bytes", z->where,
                    z->levels[0].bytes, max_bytes);
  *bytes = *n * elsize;
  return NULL;
}

/* Decodes array `z` into `dst` (n elements); `zeroed` as hr_zarr_read_into's. */
static hr_status read_array(hr_kvstore *kv, const char *prefix, const hr_allocator *a, const zr_array *z, size_t n,
                            unsigned char *dst, bool zeroed) {
  size_t elsize = hr_dtype_size(z->dtype);
  /* one chunk exactly the array's shape (how Orbax writes zarr v2) is decoded in place */
  bool direct = z->n_chunks == 1;
  for (int j = 0; j < z->shape.rank; j++) direct &= z->chunks[j] == z->shape.dims[j];
  if (z->fill_nonzero) fill_elements(dst, n, z->fill, elsize);
  else if (!zeroed) memset(dst, 0, n * elsize); /* the fill of chunks that are missing */
  zr_reader r = {.kv = kv, .a = a, .z = z, .elsize = elsize};
  hr_tensor t = {.dtype = z->dtype, .shape = z->shape, .data = dst, .nbytes = n * elsize};
  hr_status s = z->n_chunks ? reader_init(&r, direct) : NULL;
  if (!s) s = read_chunks(&r, prefix, &t);
  reader_free(&r);
  if (!s) ob_normalize(z->dtype, dst, n);
  return s;
}

hr_status hr_zarr_read_into(hr_kvstore *kv, const char *prefix, const hr_allocator *a, void *dst, size_t nbytes,
                            bool zeroed) {
  if (!kv || !prefix || (!dst && nbytes)) return hr_error(HR_INVALID_ARGUMENT, "hr_zarr_read_into: NULL argument");
  a = a ? a : hr_default_allocator();
  zr_array z;
  HR_TRY(zr_read_metadata(kv, prefix, a, &z));
  size_t n, bytes;
  HR_TRY(array_size(&z, nbytes, &n, &bytes));
  if (bytes != nbytes)
    return hr_error(HR_INVALID_ARGUMENT, "%s: the array holds %zu bytes, not the %zu given", z.where, bytes, nbytes);
  return read_array(kv, prefix, a, &z, n, dst, zeroed);
}

hr_status hr_zarr_read_array(hr_kvstore *kv, const char *prefix, const hr_allocator *a, size_t max_bytes,
                             hr_tensor **out) {
  if (!out) return hr_error(HR_INVALID_ARGUMENT, "hr_zarr_read_array: `out` is NULL");
  *out = NULL;
  if (!kv || !prefix) return hr_error(HR_INVALID_ARGUMENT, "hr_zarr_read_array: NULL argument");
  a = a ? a : hr_default_allocator();
  max_bytes = max_bytes ? max_bytes : HR_LIMIT_ORBAX_BYTES;
  zr_array z;
  HR_TRY(zr_read_metadata(kv, prefix, a, &z));
  size_t n, bytes;
  HR_TRY(array_size(&z, max_bytes, &n, &bytes));
  hr_tensor *t;
  HR_TRY(hr_tensor_create(a, z.dtype, &z.shape, 0, &t)); /* zeroed */
  hr_status s = read_array(kv, prefix, a, &z, n, t->data, true);
  if (s) {
    hr_tensor_free(t);
    return s;
  }
  *out = t;
  return NULL;
}

/* XLA's HloSharding strings (the `mhlo.sharding` of GSPMD's custom calls) read into the struct of
 * gspmd_internal.h, and the Shardy mesh that expresses them (gspmd_import.c writes it):
 *   {replicated}  {manual}  {devices=[t0,t1,...]d0,d1,...}  (V1: the devices of the tiles, row-major)
 *   {devices=[t0,...]<=[r0,r1,...]T(p0,p1,...)}  (V2: iota over the product, reshaped to the r's,
 *                                                 transposed by the p's, reshaped to the t's)
 * followed by ` last_tile_dim_replicate` (the last tile dimension holds copies, not pieces) or
 * ` last_tile_dims={replicated}`; ` shard_as N`, ` shard_like N` and ` metadata={...}` only guide
 * XLA's propagation and are skipped. What has no Shardy form here is refused naming the op and the
 * string: {maximal device=N}, {unknown}, {unreduced}, tuples, partly manual shardings
 * (last_tile_dims={manual}).
 * A tiled sharding is expressed on a mesh whose axes are the prime factors of the device count:
 * along each tile dimension, the step between the devices of consecutive tiles names the axis (the
 * one whose stride it is), minor axis first, until the axes' sizes make the dimension's tile count;
 * the whole device list is then recomputed from the axes found and compared. */
#include <ctype.h>
#include <string.h>

#include "base/limits.h"
#include "ir/gspmd_internal.h"
#include "ir/sdy_round_trip_internal.h"

/* A read position in a sharding string; errors name `op` and quote the string. */
typedef struct cursor {
  const hr_module *m;
  const hr_op *op;
  const char *key;
  const char *text, *p, *end;
} cursor;

/* An INVALID_ARGUMENT error naming the op, the attribute and its string: `why`. */
static hr_status bad(const cursor *c, const char *why) {
  int shown = (int)(c->end - c->text > 120 ? 120 : c->end - c->text);
  return hr_sdyrt_error(c->m, c->op, "%s \"%.*s\": %s at offset %d", c->key, shown, c->text, why,
                        (int)(c->p - c->text));
}

static void skip_space(cursor *c) { hr_sdy_skip_space(&c->p, c->end); }
static bool accept(cursor *c, const char *s) { return hr_sdy_accept(&c->p, c->end, s); }

static hr_status expect(cursor *c, const char *s) {
  if (accept(c, s)) return NULL;
  char why[64];
  snprintf(why, sizeof why, "expected '%s'", s);
  return bad(c, why);
}

/* A decimal integer from 0 to `max` (at most 9 digits: no overflow). */
static hr_status integer(cursor *c, int64_t max, int64_t *out) {
  skip_space(c);
  int64_t v = 0;
  int digits = 0;
  for (; c->p < c->end && isdigit((unsigned char)*c->p) && digits < 9; digits++) v = v * 10 + (*c->p++ - '0');
  if (!digits || (c->p < c->end && isdigit((unsigned char)*c->p)) || v > max) {
    char why[64];
    snprintf(why, sizeof why, "expected an integer from 0 to %lld", (long long)max);
    return bad(c, why);
  }
  *out = v;
  return NULL;
}

/* `[n0,n1,...]`: at most `cap` integers from 1 to HR_LIMIT_GSPMD_DEVICES whose product stays within
 * it (*product). */
static hr_status dim_list(cursor *c, int cap, int64_t *dims, int *n, int64_t *product) {
  HR_TRY(expect(c, "["));
  *n = 0;
  *product = 1;
  do {
    if (*n == cap) return bad(c, "too many dimensions");
    HR_TRY(integer(c, HR_LIMIT_GSPMD_DEVICES, &dims[*n]));
    if (dims[*n] < 1 || *product * dims[*n] > HR_LIMIT_GSPMD_DEVICES)
      return bad(c, "a dimension below 1, or more devices than hlorun reads");
    *product *= dims[(*n)++];
  } while (accept(c, ","));
  return expect(c, "]");
}

/* The devices of V2's `<=[r...]T(p...)` over `n` devices: iota(n) reshaped to r, transposed by p. */
static hr_status iota_devices(cursor *c, int64_t n, int64_t *devices) {
  int64_t r[HR_MAX_RANK + 1], product;
  int nr, perm[HR_MAX_RANK + 1];
  HR_TRY(dim_list(c, HR_MAX_RANK + 1, r, &nr, &product));
  if (product != n) return bad(c, "the iota's dimensions do not multiply to the tiles' device count");
  for (int i = 0; i < nr; i++) perm[i] = i;
  if (accept(c, "T")) {
    bool used[HR_MAX_RANK + 1] = {false};
    HR_TRY(expect(c, "("));
    for (int i = 0; i < nr; i++) {
      int64_t p;
      if (i) HR_TRY(expect(c, ","));
      HR_TRY(integer(c, nr - 1, &p));
      if (used[p]) return bad(c, "the transpose is no permutation");
      used[p] = true;
      perm[i] = (int)p;
    }
    HR_TRY(expect(c, ")"));
  }
  /* Position q of the transposed array holds the iota at the index its coordinates give in r. */
  for (int64_t q = 0; q < n; q++) {
    int64_t rest = q, index[HR_MAX_RANK + 1];
    for (int i = nr - 1; i >= 0; i--) {
      index[perm[i]] = rest % r[perm[i]];
      rest /= r[perm[i]];
    }
    int64_t d = 0;
    for (int i = 0; i < nr; i++) d = d * r[i] + index[i];
    devices[q] = d;
  }
  return NULL;
}

/* `devices=[t...]` and its device list (V1 or V2) into `s`; the tile dimensions are all in
 * s->tiles (s->rank of them) until the trailing attributes say which one replicates. */
static hr_status tiled(cursor *c, hr_arena *scratch, hr_gspmd_sharding *s) {
  int n = 0;
  HR_TRY(expect(c, "="));
  HR_TRY(dim_list(c, HR_MAX_RANK + 1, s->tiles, &n, &s->n_devices));
  s->rank = n;
  s->devices = HR_ARENA_ARRAY(scratch, int64_t, (size_t)s->n_devices);
  if (!s->devices) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading a sharding");
  if (accept(c, "<=")) return iota_devices(c, s->n_devices, s->devices);
  for (int64_t i = 0; i < s->n_devices; i++) {
    if (i) HR_TRY(expect(c, ","));
    HR_TRY(integer(c, s->n_devices - 1, &s->devices[i]));
  }
  return NULL;
}

/* Skips a quoted string after its opening quote (escaped characters too). */
static void skip_string(cursor *c) {
  while (c->p < c->end && *c->p != '"') c->p += *c->p == '\\' && c->end - c->p > 1 ? 2 : 1;
  if (c->p < c->end) c->p++;
}

/* Skips `{...}` (braces balanced, quoted strings skipped). */
static hr_status skip_braces(cursor *c) {
  HR_TRY(expect(c, "{"));
  int depth = 1;
  while (c->p < c->end && depth > 0) {
    char ch = *c->p++;
    if (ch == '{') depth++;
    else if (ch == '}') depth--;
    else if (ch == '"') skip_string(c);
  }
  return depth ? bad(c, "unbalanced braces") : NULL;
}

/* ` last_tile_dims={...}`: a replicated subgroup is what last_tile_dim_replicate says (*replicate);
 * any other kind has no Shardy form here. */
static hr_status last_tile_dims(cursor *c, bool *replicate) {
  HR_TRY(expect(c, "="));
  HR_TRY(expect(c, "{"));
  do {
    if (accept(c, "manual")) return bad(c, "a partly manual sharding (auto axes in a shard_map) is not supported");
    if (!accept(c, "replicated")) return bad(c, "a subgroup kind other than manual or replicated");
    if (*replicate) return bad(c, "a second replicated tile dimension");
    *replicate = true;
  } while (accept(c, ","));
  return expect(c, "}");
}

/* The attributes after the tile assignment (or the kind), up to the closing brace. */
static hr_status trailing(cursor *c, bool *replicate) {
  for (;;) {
    skip_space(c);
    if (c->p < c->end && *c->p == '}') return NULL;
    int64_t ignored;
    if (accept(c, "last_tile_dim_replicate")) {
      if (*replicate) return bad(c, "a second replicated tile dimension");
      *replicate = true;
    } else if (accept(c, "last_tile_dims")) {
      HR_TRY(last_tile_dims(c, replicate));
    } else if (accept(c, "shard_as") || accept(c, "shard_like")) {
      HR_TRY(integer(c, INT32_MAX, &ignored));
    } else if (accept(c, "metadata")) {
      HR_TRY(expect(c, "="));
      HR_TRY(skip_braces(c));
    } else {
      return bad(c, "expected last_tile_dim_replicate, last_tile_dims, shard_as, shard_like, metadata or '}'");
    }
  }
}

/* The whole string. */
static hr_status sharding(cursor *c, hr_arena *scratch, hr_gspmd_sharding *s) {
  bool replicate = false;
  HR_TRY(expect(c, "{"));
  if (accept(c, "replicated")) {
    s->kind = HR_GSPMD_REPLICATED;
  } else if (accept(c, "manual")) {
    s->kind = HR_GSPMD_MANUAL;
  } else if (accept(c, "devices")) {
    s->kind = HR_GSPMD_TILED;
    HR_TRY(tiled(c, scratch, s));
  } else if (accept(c, "maximal")) {
    return bad(c, "a value on one device ({maximal}) is not supported");
  } else {
    return bad(c, "expected replicated, manual or devices= (unknown, unreduced and tuple shardings are not supported)");
  }
  HR_TRY(trailing(c, &replicate));
  HR_TRY(expect(c, "}"));
  skip_space(c);
  if (c->p != c->end) return bad(c, "unexpected text after the sharding");
  if (replicate && s->kind != HR_GSPMD_TILED) return bad(c, "a replicated tile dimension without tiles");
  if (replicate) s->replicas = s->tiles[--s->rank];
  if (s->rank > HR_MAX_RANK) return bad(c, "more tile dimensions than a value has");
  return NULL;
}

hr_status hr_gspmd_read(const hr_module *m, hr_arena *scratch, const hr_op *op, const char *key,
                        hr_gspmd_sharding *out) {
  memset(out, 0, sizeof *out);
  out->replicas = 1;
  out->n_devices = 1;
  const hr_attr *a = hr_op_attr(op, key);
  if (!a || a->kind != HR_ATTR_STRING || !a->u.str.data) return hr_sdyrt_error(m, op, "no string attribute %s", key);
  if (a->u.str.len > HR_LIMIT_SDY_TEXT_BYTES)
    return hr_sdyrt_error(m, op, "%s is longer than %d bytes", key, HR_LIMIT_SDY_TEXT_BYTES);
  cursor c = {m, op, key, a->u.str.data, a->u.str.data, a->u.str.data + a->u.str.len};
  return sharding(&c, scratch, out);
}

hr_status hr_gspmd_check_shapes(const hr_module *m, const hr_op *op, const char *key, const hr_gspmd_sharding *s,
                                const hr_type *global, const hr_type *local, int64_t n_devices) {
  const hr_attr *a = hr_op_attr(op, key);
  const char *text = a ? a->u.str.data : "";
  if (global->kind != HR_TYPE_TENSOR || local->kind != HR_TYPE_TENSOR || global->dtype != local->dtype ||
      global->shape.rank != local->shape.rank || !hr_type_is_static(global) || !hr_type_is_static(local))
    return hr_sdyrt_error(m, op, "the global and per-device values are not static tensors of one element type and "
                                 "rank");
  if (s->kind == HR_GSPMD_TILED && s->rank != global->shape.rank)
    return hr_sdyrt_error(m, op, "%s \"%s\" cuts %d dimensions of a value of rank %d", key, text, s->rank,
                          global->shape.rank);
  if (s->kind == HR_GSPMD_TILED && s->n_devices != n_devices)
    return hr_sdyrt_error(m, op, "%s \"%s\" spans %lld devices; the module's manual computations span %lld", key, text,
                          (long long)s->n_devices, (long long)n_devices);
  for (int d = 0; d < global->shape.rank; d++) {
    int64_t tiles = s->kind == HR_GSPMD_TILED ? s->tiles[d] : 1;
    if (local->shape.dims[d] * tiles != global->shape.dims[d])
      return hr_sdyrt_error(m, op, "%s \"%s\": dimension %d of size %lld is not %lld pieces of size %lld", key, text, d,
                            (long long)global->shape.dims[d], (long long)tiles, (long long)local->shape.dims[d]);
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* The mesh                                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/* Rearranges p[0 .. n-1] into the next permutation in lexicographic order; false after the last. */
static bool next_permutation(int64_t *p, int n) {
  int i = n - 2;
  while (i >= 0 && p[i] >= p[i + 1]) i--;
  if (i < 0) return false;
  int j = n - 1;
  while (p[j] <= p[i]) j--;
  int64_t t = p[i];
  p[i] = p[j];
  p[j] = t;
  for (int a = i + 1, b = n - 1; a < b; a++, b--) t = p[a], p[a] = p[b], p[b] = t;
  return true;
}

bool hr_gspmd_mesh_order(int64_t n_devices, int order, hr_gspmd_mesh *out) {
  memset(out, 0, sizeof *out);
  out->n_devices = n_devices;
  int64_t rest = n_devices;
  for (int64_t f = 2; f * f <= rest; f++)
    while (rest % f == 0 && out->n_axes < HR_LIMIT_SDY_AXES) out->sizes[out->n_axes++] = f, rest /= f;
  if (rest > 1 && out->n_axes < HR_LIMIT_SDY_AXES) out->sizes[out->n_axes++] = rest;
  for (int i = 0; i < order; i++)
    if (!next_permutation(out->sizes, out->n_axes)) return false;
  int64_t stride = 1;
  for (int a = out->n_axes - 1; a >= 0; a--) out->strides[a] = stride, stride *= out->sizes[a];
  return true;
}

/* The unused axis of `mesh` whose stride is `step`, or -1. */
static int axis_of_step(const hr_gspmd_mesh *mesh, const bool *used, int64_t step) {
  for (int a = 0; a < mesh->n_axes; a++)
    if (!used[a] && mesh->strides[a] == step) return a;
  return -1;
}

/* The axes cutting each tile dimension of `s`, found from the device steps between its first
 * tiles; false when a step is no unused axis's stride or the sizes miss the tile count. */
static bool find_axes(const hr_gspmd_mesh *mesh, const hr_gspmd_sharding *s, hr_gspmd_axes *out) {
  bool used[HR_LIMIT_SDY_AXES] = {false};
  int64_t step = s->replicas; /* positions between consecutive tiles along dimension d */
  out->rank = s->rank;
  for (int d = s->rank - 1; d >= 0; d--) {
    int minor_first[HR_LIMIT_SDY_AXES], n = 0;
    for (int64_t covered = 1; covered < s->tiles[d]; n++) {
      int a = axis_of_step(mesh, used, s->devices[covered * step] - s->devices[0]);
      if (a < 0 || s->tiles[d] % (covered * mesh->sizes[a]) != 0) return false;
      used[a] = true;
      minor_first[n] = a;
      covered *= mesh->sizes[a];
    }
    out->n[d] = n;
    for (int i = 0; i < n; i++) out->axis[d][i] = minor_first[n - 1 - i];
    step *= s->tiles[d];
  }
  return true;
}

/* Whether every position of the device list holds a distinct device whose coordinates along the
 * axes of `axes` give that position's tile index. */
static bool devices_match(const hr_gspmd_mesh *mesh, const hr_gspmd_sharding *s, const hr_gspmd_axes *axes,
                          bool *seen) {
  memset(seen, 0, (size_t)mesh->n_devices * sizeof *seen);
  for (int64_t q = 0; q < s->n_devices; q++) {
    int64_t dev = s->devices[q], rest = q / s->replicas;
    if (dev < 0 || dev >= mesh->n_devices || seen[dev]) return false;
    seen[dev] = true;
    for (int d = s->rank - 1; d >= 0; d--) {
      int64_t index = 0;
      for (int i = 0; i < axes->n[d]; i++) {
        int a = axes->axis[d][i];
        index = index * mesh->sizes[a] + dev / mesh->strides[a] % mesh->sizes[a];
      }
      if (index != rest % s->tiles[d]) return false;
      rest /= s->tiles[d];
    }
  }
  return true;
}

bool hr_gspmd_fit(const hr_gspmd_mesh *mesh, const hr_gspmd_sharding *s, bool *seen, hr_gspmd_axes *out) {
  hr_gspmd_axes axes;
  if (s->n_devices != mesh->n_devices || !find_axes(mesh, s, &axes) || !devices_match(mesh, s, &axes, seen))
    return false;
  if (out) *out = axes;
  return true;
}

void hr_gspmd_print_mesh(hr_strbuf *sb, const hr_gspmd_mesh *mesh) {
  hr_strbuf_puts(sb, "sdy.mesh<[");
  for (int a = 0; a < mesh->n_axes; a++)
    hr_strbuf_printf(sb, "%s\"%c\"=%lld", a ? ", " : "", 'a' + a, (long long)mesh->sizes[a]);
  hr_strbuf_puts(sb, "]>");
}

void hr_gspmd_print_sharding(hr_strbuf *sb, const char *mesh_name, const hr_gspmd_axes *axes) {
  hr_strbuf_printf(sb, "<@%s, [", mesh_name);
  for (int d = 0; d < axes->rank; d++) {
    hr_strbuf_puts(sb, d ? ", {" : "{");
    for (int i = 0; i < axes->n[d]; i++) hr_strbuf_printf(sb, "%s\"%c\"", i ? ", " : "", 'a' + axes->axis[d][i]);
    hr_strbuf_putc(sb, '}');
  }
  hr_strbuf_puts(sb, "]>");
}

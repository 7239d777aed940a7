/* xla.OpSharding, the HloSharding proto (xla/xla_data.proto) that jax.export files before 3/2026
 * carry per input and output: a minimal bounded protobuf decoder for the fields that place data
 * (type, tile_assignment_dimensions/devices, tuple_shardings, replicate_on_last_tile_dim,
 * last_tile_dims, iota_reshape_dims/transpose_perm; others are skipped), XLA's text form of an
 * HloSharding, and the HloSharding JAX derives from a NamedSharding. */
#include <string.h>

#include "formats/jaxexport/jaxexport_internal.h"

/* OpSharding field numbers. */
enum {
  OS_TYPE = 1,
  OS_TILE_ASSIGNMENT_DIMENSIONS = 3,
  OS_TILE_ASSIGNMENT_DEVICES = 4,
  OS_TUPLE_SHARDINGS = 5,
  OS_REPLICATE_ON_LAST_TILE_DIM = 6,
  OS_LAST_TILE_DIMS = 8,
  OS_IOTA_RESHAPE_DIMS = 9,
  OS_IOTA_TRANSPOSE_PERM = 10,
};
/* Protobuf wire types. */
enum { WIRE_VARINT = 0, WIRE_FIXED64 = 1, WIRE_LEN = 2, WIRE_FIXED32 = 5 };

/* A cursor over proto bytes; `pos0` is the file offset of `start`, for messages. */
typedef struct pb_cursor {
  const uint8_t *start, *p, *end;
  size_t pos0;
} pb_cursor;

/* Element counts of the repeated fields of one message (the first pass), or fill positions (the
 * second). */
typedef struct os_counts {
  int tile_dims, devices, tuple, last_tile_dims, iota_dims, iota_perm;
} os_counts;

/* A parse error at the cursor. */
static hr_status pb_error(jx_reader *r, const pb_cursor *c, const char *what, const char *problem) {
  return hr_error(HR_PARSE_ERROR, "%s: offset %zu: %s: OpSharding: %s", r->fb.filename,
                  c->pos0 + (size_t)(c->p - c->start), what, problem);
}

/* Reads a base-128 varint (at most 10 bytes). */
static bool pb_varint(pb_cursor *c, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (c->p >= c->end) return false;
    uint8_t b = *c->p++;
    if (shift == 63 && b > 1) return false;
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

/* Reads a length-delimited payload: a sub-cursor over its bytes. */
static bool pb_len(pb_cursor *c, pb_cursor *sub) {
  uint64_t n;
  if (!pb_varint(c, &n) || n > (uint64_t)(c->end - c->p)) return false;
  *sub = (pb_cursor){.start = c->start, .p = c->p, .end = c->p + n, .pos0 = c->pos0};
  c->p += n;
  return true;
}

/* Skips a field of an unread kind. */
static bool pb_skip(pb_cursor *c, int wire) {
  uint64_t v;
  pb_cursor sub;
  switch (wire) {
    case WIRE_VARINT: return pb_varint(c, &v);
    case WIRE_FIXED64:
      if (c->end - c->p < 8) return false;
      c->p += 8;
      return true;
    case WIRE_LEN: return pb_len(c, &sub);
    case WIRE_FIXED32:
      if (c->end - c->p < 4) return false;
      c->p += 4;
      return true;
    default: return false; /* groups (3, 4) and invalid wire types */
  }
}

/* One element of a repeated integer field: counted (first pass) or stored (second). */
static void put_int(hr_jaxexport_hlo_sharding *s, int field, uint64_t v, os_counts *n, bool fill) {
  switch (field) {
    case OS_TILE_ASSIGNMENT_DIMENSIONS:
      if (fill) s->tile_dims[n->tile_dims] = (int64_t)v;
      n->tile_dims++;
      break;
    case OS_TILE_ASSIGNMENT_DEVICES:
      if (fill) s->devices[n->devices] = (int64_t)v;
      n->devices++;
      break;
    case OS_IOTA_RESHAPE_DIMS:
      if (fill) s->iota_dims[n->iota_dims] = (int64_t)v;
      n->iota_dims++;
      break;
    case OS_IOTA_TRANSPOSE_PERM:
      if (fill) s->iota_perm[n->iota_perm] = (int32_t)v;
      n->iota_perm++;
      break;
    default: /* OS_LAST_TILE_DIMS */
      if (fill) s->last_tile_dims[n->last_tile_dims] = (int)(int32_t)v;
      n->last_tile_dims++;
      break;
  }
}

/* Whether `field` is one of the repeated integer fields read. */
static bool is_repeated_int(int field) {
  return field == OS_TILE_ASSIGNMENT_DIMENSIONS || field == OS_TILE_ASSIGNMENT_DEVICES ||
         field == OS_LAST_TILE_DIMS || field == OS_IOTA_RESHAPE_DIMS || field == OS_IOTA_TRANSPOSE_PERM;
}

static hr_status decode_message(jx_reader *r, pb_cursor c, int depth, const char *what,
                                hr_jaxexport_hlo_sharding *out);

/* One pass over a message: counts the repeated fields' elements, or (fill) stores them, the
 * scalars and the decoded tuple elements. */
static hr_status scan_message(jx_reader *r, pb_cursor c, int depth, const char *what, hr_jaxexport_hlo_sharding *s,
                              os_counts *n, bool fill) {
  *n = (os_counts){0};
  while (c.p < c.end) {
    uint64_t key, v;
    if (!pb_varint(&c, &key) || key >> 3 == 0 || key >> 3 > INT32_MAX)
      return pb_error(r, &c, what, "bad field key");
    int field = (int)(key >> 3), wire = (int)(key & 7);
    if (is_repeated_int(field) && wire == WIRE_LEN) {
      pb_cursor sub;
      if (!pb_len(&c, &sub)) return pb_error(r, &c, what, "packed field runs past its end");
      while (sub.p < sub.end) {
        if (!pb_varint(&sub, &v)) return pb_error(r, &sub, what, "bad packed varint");
        put_int(s, field, v, n, fill);
      }
    } else if ((is_repeated_int(field) || field == OS_TYPE || field == OS_REPLICATE_ON_LAST_TILE_DIM) &&
               wire == WIRE_VARINT) {
      if (!pb_varint(&c, &v)) return pb_error(r, &c, what, "bad varint");
      if (field == OS_TYPE) s->type = (int)(int32_t)v;
      else if (field == OS_REPLICATE_ON_LAST_TILE_DIM) s->replicate_on_last_tile_dim = v != 0;
      else put_int(s, field, v, n, fill);
    } else if (field == OS_TUPLE_SHARDINGS && wire == WIRE_LEN) {
      pb_cursor sub;
      if (!pb_len(&c, &sub)) return pb_error(r, &c, what, "tuple element runs past its end");
      if (fill) HR_TRY(decode_message(r, sub, depth + 1, what, &s->tuple[n->tuple]));
      n->tuple++;
    } else if (!pb_skip(&c, wire)) {
      return pb_error(r, &c, what, "field runs past its end or has a bad wire type");
    }
  }
  return NULL;
}

/* Decodes one OpSharding message: counts, allocates, fills. */
static hr_status decode_message(jx_reader *r, pb_cursor c, int depth, const char *what,
                                hr_jaxexport_hlo_sharding *out) {
  if (depth > HR_LIMIT_SHARDING_DEPTH)
    return pb_error(r, &c, what, "tuple shardings nested too deeply");
  os_counts n, filled;
  *out = (hr_jaxexport_hlo_sharding){0};
  HR_TRY(scan_message(r, c, depth, what, out, &n, false));
  HR_TRY(jx_array(r, (size_t)n.tile_dims, sizeof(int64_t), _Alignof(int64_t), what, (void **)&out->tile_dims));
  HR_TRY(jx_array(r, (size_t)n.devices, sizeof(int64_t), _Alignof(int64_t), what, (void **)&out->devices));
  HR_TRY(jx_array(r, (size_t)n.iota_dims, sizeof(int64_t), _Alignof(int64_t), what, (void **)&out->iota_dims));
  HR_TRY(jx_array(r, (size_t)n.iota_perm, sizeof(int32_t), _Alignof(int32_t), what, (void **)&out->iota_perm));
  HR_TRY(jx_array(r, (size_t)n.last_tile_dims, sizeof(int), _Alignof(int), what, (void **)&out->last_tile_dims));
  HR_TRY(jx_array(r, (size_t)n.tuple, sizeof *out->tuple, _Alignof(hr_jaxexport_hlo_sharding), what,
                  (void **)&out->tuple));
  HR_TRY(scan_message(r, c, depth, what, out, &filled, true));
  out->num_tile_dims = n.tile_dims;
  out->num_devices = n.devices;
  out->num_iota_dims = n.iota_dims;
  out->num_iota_perm = n.iota_perm;
  out->num_last_tile_dims = n.last_tile_dims;
  out->num_tuple = n.tuple;
  return NULL;
}

hr_status jx_decode_op_sharding(jx_reader *r, const uint8_t *p, size_t size, size_t pos, const char *what,
                                hr_jaxexport_hlo_sharding *out) {
  pb_cursor c = {.start = p, .p = p, .end = p + size, .pos0 = pos};
  return decode_message(r, c, 0, what, out);
}

/* ---- XLA's text ------------------------------------------------------------------------------ */

/* "a,b,c" */
static void print_ints(hr_strbuf *sb, const int64_t *v, int n) {
  for (int i = 0; i < n; i++) hr_strbuf_printf(sb, "%s%lld", i ? "," : "", (long long)v[i]);
}

/* OpSharding.Type as XLA spells a subgroup type in last_tile_dims. */
static const char *type_name(int type) {
  static const char *const names[] = {"replicated", "maximal", "tuple", "other", "manual", "unknown", "unreduced"};
  return type >= 0 && type < (int)(sizeof names / sizeof names[0]) ? names[type] : "?";
}

/* The tiled form: "{devices=[2,1]<=[2]}" (iota), "{devices=[2,2]0,2,1,3}" (explicit), with
 * " last_tile_dim_replicate" or " last_tile_dims={manual}". */
static void print_tiled(const hr_jaxexport_hlo_sharding *s, hr_strbuf *sb) {
  hr_strbuf_puts(sb, "{devices=[");
  print_ints(sb, s->tile_dims, s->num_tile_dims);
  hr_strbuf_putc(sb, ']');
  if (s->num_iota_dims) {
    hr_strbuf_puts(sb, "<=[");
    print_ints(sb, s->iota_dims, s->num_iota_dims);
    hr_strbuf_putc(sb, ']');
    bool identity = true;
    for (int i = 0; i < s->num_iota_perm; i++) identity = identity && s->iota_perm[i] == i;
    if (!identity) {
      hr_strbuf_puts(sb, "T(");
      for (int i = 0; i < s->num_iota_perm; i++) hr_strbuf_printf(sb, "%s%d", i ? "," : "", (int)s->iota_perm[i]);
      hr_strbuf_putc(sb, ')');
    }
  } else {
    print_ints(sb, s->devices, s->num_devices);
  }
  if (s->replicate_on_last_tile_dim) hr_strbuf_puts(sb, " last_tile_dim_replicate");
  if (s->num_last_tile_dims) {
    hr_strbuf_puts(sb, " last_tile_dims={");
    for (int i = 0; i < s->num_last_tile_dims; i++)
      hr_strbuf_printf(sb, "%s%s", i ? ", " : "", type_name(s->last_tile_dims[i]));
    hr_strbuf_putc(sb, '}');
  }
  hr_strbuf_putc(sb, '}');
}

void jx_print_hlo_sharding(const hr_jaxexport_hlo_sharding *s, hr_strbuf *sb) {
  switch (s->type) {
    case HR_JAXEXPORT_HLO_REPLICATED: hr_strbuf_puts(sb, "{replicated}"); return;
    case HR_JAXEXPORT_HLO_MANUAL: hr_strbuf_puts(sb, "{manual}"); return;
    case HR_JAXEXPORT_HLO_UNKNOWN: hr_strbuf_puts(sb, "{unknown}"); return;
    case HR_JAXEXPORT_HLO_UNREDUCED: hr_strbuf_puts(sb, "{unreduced}"); return;
    case HR_JAXEXPORT_HLO_MAXIMAL:
      if (s->num_devices) hr_strbuf_printf(sb, "{maximal device=%lld}", (long long)s->devices[0]);
      else hr_strbuf_puts(sb, "{maximal}");
      return;
    case HR_JAXEXPORT_HLO_TUPLE:
      hr_strbuf_putc(sb, '{');
      for (int i = 0; i < s->num_tuple; i++) {
        if (i) hr_strbuf_puts(sb, ", ");
        jx_print_hlo_sharding(&s->tuple[i], sb);
      }
      hr_strbuf_putc(sb, '}');
      return;
    case HR_JAXEXPORT_HLO_OTHER: print_tiled(s, sb); return;
    default: hr_strbuf_printf(sb, "{type=%d}", s->type); return;
  }
}

/* ---- NamedSharding -> HloSharding ---------------------------------------------------------- */

/* Mesh axes handled when deriving (a bound for the local arrays below). */
enum { NAMED_MAX_AXES = 64 };
/* Devices of a mesh handled when deriving (tile products stay far inside int64). */
#define NAMED_MAX_DEVICES ((int64_t)1 << 31)

/* The index of mesh axis `name`, -1 when the mesh has none. */
static int mesh_axis(const hr_jaxexport_mesh *m, const char *name) {
  for (int i = 0; i < m->num_axes; i++)
    if (m->axis_names[i] && strcmp(m->axis_names[i], name) == 0) return i;
  return -1;
}

/* XLA's canonical iota: size-1 axes dropped, and axes adjacent both in the mesh and in the
 * transpose order merged, until none are. `dims` (k mesh sizes) and `perm` (k axis indices) are
 * rewritten in place; returns the new k. */
static int canonical_iota(int64_t *dims, int *perm, int k) {
  int map[NAMED_MAX_AXES], n = 0;
  for (int i = 0; i < k; i++) map[i] = dims[i] == 1 ? -1 : n++;
  int64_t d2[NAMED_MAX_AXES];
  int p2[NAMED_MAX_AXES], m = 0;
  for (int i = 0; i < k; i++)
    if (map[i] >= 0) d2[map[i]] = dims[i];
  for (int i = 0; i < k; i++)
    if (map[perm[i]] >= 0) p2[m++] = map[perm[i]];
  for (bool merged = true; merged;) {
    merged = false;
    for (int i = 0; i + 1 < m && !merged; i++) {
      if (p2[i + 1] != p2[i] + 1) continue;
      int a = p2[i];
      d2[a] *= d2[a + 1];
      for (int j = a + 1; j + 1 < n; j++) d2[j] = d2[j + 1];
      n--;
      for (int j = i + 1; j + 1 < m; j++) p2[j] = p2[j + 1];
      m--;
      for (int j = 0; j < m; j++)
        if (p2[j] > a) p2[j]--;
      merged = true;
    }
  }
  for (int i = 0; i < n; i++) dims[i] = d2[i];
  for (int i = 0; i < m; i++) perm[i] = p2[i];
  return n;
}

/* The tile dimensions and transpose order a NamedSharding gives, false when not derivable. */
static bool named_layout(const hr_jaxexport_named_sharding *ns, int rank, int64_t *tile, int *perm, int64_t *rep) {
  const hr_jaxexport_mesh *m = ns->mesh;
  bool used[NAMED_MAX_AXES] = {false};
  int np = 0;
  int64_t total = 1;
  for (int i = 0; i < m->num_axes; i++) {
    if (m->axis_types[i] == 3 || m->axis_sizes[i] == 0 || total > NAMED_MAX_DEVICES / m->axis_sizes[i]) return false;
    total *= m->axis_sizes[i];
  }
  for (int j = 0; j < rank; j++) tile[j] = 1;
  for (int j = 0; j < ns->num_partitions; j++) {
    for (int a = 0; a < ns->partitions[j].num_axes; a++) {
      int i = ns->partitions[j].axes[a] ? mesh_axis(m, ns->partitions[j].axes[a]) : -1;
      if (i < 0 || used[i]) return false;
      used[i] = true;
      perm[np++] = i;
      tile[j] *= m->axis_sizes[i];
    }
  }
  *rep = 1;
  for (int i = 0; i < m->num_axes; i++) {
    if (used[i]) continue;
    perm[np++] = i;
    *rep *= m->axis_sizes[i];
  }
  return true;
}

hr_status jx_named_to_hlo(jx_reader *r, const hr_jaxexport_named_sharding *ns, int rank, const char *what,
                          hr_jaxexport_hlo_sharding **out) {
  *out = NULL;
  const hr_jaxexport_mesh *m = ns->mesh;
  if (rank < 0) rank = ns->num_partitions;
  if (ns->num_reduced || ns->num_unreduced || m->num_axes > NAMED_MAX_AXES || ns->num_partitions > rank ||
      rank > HR_LIMIT_JAXEXPORT_RANK)
    return NULL;
  int64_t tile[HR_LIMIT_JAXEXPORT_RANK + 1], rep, dims[NAMED_MAX_AXES];
  int perm[NAMED_MAX_AXES];
  if (!named_layout(ns, rank, tile, perm, &rep)) return NULL;
  hr_jaxexport_hlo_sharding *s;
  HR_TRY(jx_array(r, 1, sizeof *s, _Alignof(hr_jaxexport_hlo_sharding), what, (void **)&s));
  bool tiled = false;
  for (int j = 0; j < rank; j++) tiled = tiled || tile[j] > 1;
  *out = s;
  if (!tiled) return NULL; /* s->type 0: {replicated} */
  s->type = HR_JAXEXPORT_HLO_OTHER;
  s->replicate_on_last_tile_dim = rep > 1;
  s->num_tile_dims = rank + (rep > 1);
  if (rep > 1) tile[rank] = rep;
  HR_TRY(jx_array(r, (size_t)s->num_tile_dims, sizeof(int64_t), _Alignof(int64_t), what, (void **)&s->tile_dims));
  memcpy(s->tile_dims, tile, (size_t)s->num_tile_dims * sizeof(int64_t));
  for (int i = 0; i < m->num_axes; i++) dims[i] = m->axis_sizes[i];
  int k = canonical_iota(dims, perm, m->num_axes);
  HR_TRY(jx_array(r, (size_t)k, sizeof(int64_t), _Alignof(int64_t), what, (void **)&s->iota_dims));
  HR_TRY(jx_array(r, (size_t)k, sizeof(int32_t), _Alignof(int32_t), what, (void **)&s->iota_perm));
  for (int i = 0; i < k; i++) {
    s->iota_dims[i] = dims[i];
    s->iota_perm[i] = perm[i];
  }
  s->num_iota_dims = s->num_iota_perm = k;
  return NULL;
}

/* The jax.export reader's sub-tables: AbstractValue (avals and their dtypes), PyTreeDef,
 * AbstractMesh and AbstractDevice, PartitionSpec, NamedSharding and Sharding. */
#include <string.h>

#include "formats/jaxexport/jaxexport_internal.h"

/* The schema's DType enum: JAX's name, hlorun's type, and the serialization version that added it. */
static const struct {
  const char *name;
  hr_dtype dtype;
  int version;
} jax_dtypes[] = {
    [0] = {"bool", HR_I1, 1},
    [1] = {"int8", HR_I8, 1},
    [2] = {"int16", HR_I16, 1},
    [3] = {"int32", HR_I32, 1},
    [4] = {"int64", HR_I64, 1},
    [5] = {"uint8", HR_U8, 1},
    [6] = {"uint16", HR_U16, 1},
    [7] = {"uint32", HR_U32, 1},
    [8] = {"uint64", HR_U64, 1},
    [9] = {"float16", HR_F16, 1},
    [10] = {"float32", HR_F32, 1},
    [11] = {"float64", HR_F64, 1},
    [12] = {"complex64", HR_C64, 1},
    [13] = {"complex128", HR_C128, 1},
    [14] = {"bfloat16", HR_BF16, 1},
    [15] = {"int4", HR_I4, 1},
    [16] = {"uint4", HR_U4, 1},
    [17] = {"float8_e4m3b11fnuz", HR_DTYPE_INVALID, 1},
    [18] = {"float8_e4m3fn", HR_DTYPE_INVALID, 1},
    [19] = {"float8_e4m3fnuz", HR_DTYPE_INVALID, 1},
    [20] = {"float8_e5m2", HR_DTYPE_INVALID, 1},
    [21] = {"float8_e5m2fnuz", HR_DTYPE_INVALID, 1},
    [22] = {"float0", HR_DTYPE_INVALID, 2},
    [23] = {"float8_e4m3", HR_DTYPE_INVALID, 1},
    [24] = {"float8_e3m4", HR_DTYPE_INVALID, 1},
    [25] = {"float8_e8m0fnu", HR_DTYPE_INVALID, 1},
    [26] = {"float4_e2m1fn", HR_DTYPE_INVALID, 1},
    [27] = {"key<fry>", HR_DTYPE_INVALID, 4},
    [28] = {"key<rbg>", HR_DTYPE_INVALID, 4},
    [29] = {"key<unsafe_rbg>", HR_DTYPE_INVALID, 4},
};

int jx_dtype_code(hr_dtype t) {
  for (size_t i = 0; i < sizeof jax_dtypes / sizeof jax_dtypes[0]; i++)
    if (jax_dtypes[i].dtype == t && t != HR_DTYPE_INVALID) return (int)i;
  return -1;
}

/* Parses a dimension's text: a decimal constant (str(int)) or else a symbolic expression. */
static void parse_dim(hr_jaxexport_dim *d) {
  const char *s = d->text;
  int64_t v = 0;
  d->is_constant = false;
  d->value = HR_DYNAMIC;
  if (!*s) return;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' || v > (INT64_MAX - (*s - '0')) / 10) return;
    v = v * 10 + (*s - '0');
  }
  d->is_constant = true;
  d->value = v;
}

hr_status jx_read_aval(jx_reader *r, const hr_fb_table *t, const char *what, hr_jaxexport_aval *out) {
  uint8_t kind, dtype, mem;
  HR_TRY(hr_fb_u8(&r->fb, t, AVAL_KIND, what, 0, &kind));
  HR_TRY(hr_fb_u8(&r->fb, t, AVAL_DTYPE, what, 0, &dtype));
  HR_TRY(hr_fb_u8(&r->fb, t, AVAL_MEMORY_SPACE, what, 0, &mem));
  if (hr_fb_has(&r->fb, t, AVAL_MEMORY_SPACE)) jx_saw_version(r, 5);
  char name[JX_NAME];
  jx_name(name, "%s.shape", what);
  int rank;
  const char **dims;
  HR_TRY(jx_string_vector(r, t, AVAL_SHAPE, name, &rank, &dims));
  if (rank > HR_LIMIT_JAXEXPORT_RANK)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: offset %zu: %s: rank %d is above %d", r->fb.filename, t->pos, name,
                    rank, HR_LIMIT_JAXEXPORT_RANK);
  *out = (hr_jaxexport_aval){
      .kind = (int8_t)kind, .rank = rank, .jax_dtype = (int8_t)dtype, .memory_space = (int8_t)mem};
  HR_TRY(jx_array(r, (size_t)rank, sizeof *out->dims, _Alignof(hr_jaxexport_dim), name, (void **)&out->dims));
  for (int i = 0; i < rank; i++) {
    out->dims[i].text = dims[i];
    parse_dim(&out->dims[i]);
  }
  if ((int8_t)dtype >= 0 && dtype < sizeof jax_dtypes / sizeof jax_dtypes[0]) {
    out->jax_dtype_name = jax_dtypes[dtype].name;
    out->dtype = jax_dtypes[dtype].dtype;
    jx_saw_version(r, jax_dtypes[dtype].version);
  }
  return NULL;
}

hr_status jx_read_avals(jx_reader *r, const hr_fb_table *t, int slot, const char *what, int *n,
                        hr_jaxexport_aval **out) {
  hr_fb_vector v;
  *n = 0;
  HR_TRY(hr_fb_vector_field(&r->fb, t, slot, what, 4, &v));
  HR_TRY(jx_array(r, v.count, sizeof **out, _Alignof(hr_jaxexport_aval), what, (void **)out));
  for (uint32_t i = 0; i < v.count; i++) {
    char name[JX_NAME];
    jx_name(name, "%s[%u]", what, (unsigned)i);
    hr_fb_table a;
    HR_TRY(hr_fb_vector_table(&r->fb, &v, i, name, &a));
    HR_TRY(jx_read_aval(r, &a, name, &(*out)[i]));
  }
  *n = (int)v.count;
  return NULL;
}

/* Checks the children of a pytree node against its kind and counts its leaves. */
static hr_status check_pytree_node(jx_reader *r, const hr_fb_table *t, const char *what, hr_jaxexport_pytree *out,
                                   int num_names) {
  const char *problem = NULL;
  char msg[96];
  switch (out->kind) {
    case HR_JAXEXPORT_TREE_LEAF:
    case HR_JAXEXPORT_TREE_NONE:
      if (out->num_children) problem = "a leaf or None node with children";
      break;
    case HR_JAXEXPORT_TREE_TUPLE:
    case HR_JAXEXPORT_TREE_LIST: break;
    case HR_JAXEXPORT_TREE_DICT:
      if (num_names != out->num_children) {
        snprintf(msg, sizeof msg, "a dict with %d keys for %d children", num_names, out->num_children);
        problem = msg;
      }
      break;
    case HR_JAXEXPORT_TREE_CUSTOM:
      if (!out->custom_name) problem = "a custom node without its custom_name";
      jx_saw_version(r, 3);
      break;
    default:
      snprintf(msg, sizeof msg, "unknown PyTreeDef kind %d", out->kind);
      problem = msg;
  }
  if (problem) return hr_error(HR_PARSE_ERROR, "%s: offset %zu: %s: %s", r->fb.filename, t->pos, what, problem);
  out->num_leaves = out->kind == HR_JAXEXPORT_TREE_LEAF ? 1 : 0;
  for (int i = 0; i < out->num_children; i++) out->num_leaves += out->children[i].num_leaves;
  return NULL;
}

hr_status jx_read_pytree(jx_reader *r, const hr_fb_table *t, const char *what, hr_jaxexport_pytree *out) {
  uint8_t kind;
  *out = (hr_jaxexport_pytree){0};
  HR_TRY(hr_fb_u8(&r->fb, t, TREE_KIND, what, 0, &kind));
  out->kind = (int8_t)kind;
  hr_fb_vector v;
  HR_TRY(hr_fb_vector_field(&r->fb, t, TREE_CHILDREN, what, 4, &v));
  HR_TRY(jx_array(r, v.count, sizeof *out->children, _Alignof(hr_jaxexport_pytree), what, (void **)&out->children));
  for (uint32_t i = 0; i < v.count; i++) {
    char name[JX_NAME];
    jx_name(name, "%s.children[%u]", what, (unsigned)i);
    hr_fb_table c;
    HR_TRY(hr_fb_vector_table(&r->fb, &v, i, name, &c));
    HR_TRY(jx_read_pytree(r, &c, name, &out->children[i]));
  }
  out->num_children = (int)v.count;
  int num_names = 0;
  const char **names;
  HR_TRY(jx_string_vector(r, t, TREE_CHILDREN_NAMES, what, &num_names, &names));
  if (out->kind == HR_JAXEXPORT_TREE_DICT) out->children_names = names;
  HR_TRY(jx_string_field(r, t, TREE_CUSTOM_NAME, what, &out->custom_name));
  HR_TRY(jx_byte_vector(r, t, TREE_CUSTOM_AUXDATA, what, &out->custom_auxdata, &out->custom_auxdata_size));
  return check_pytree_node(r, t, what, out, num_names);
}

/* The optional AbstractDevice of a mesh (v8; its platform v11). */
static hr_status read_device(jx_reader *r, const hr_fb_table *t, const char *what, hr_jaxexport_mesh *out) {
  hr_fb_table d;
  char name[JX_NAME];
  jx_name(name, "%s.abstract_device", what);
  HR_TRY(hr_fb_table_field(&r->fb, t, MESH_ABSTRACT_DEVICE, name, &d, &out->has_device));
  if (!out->has_device) return NULL;
  jx_saw_version(r, 8);
  HR_TRY(jx_string_field(r, &d, DEVICE_KIND, name, &out->device_kind));
  HR_TRY(hr_fb_u32(&r->fb, &d, DEVICE_NUM_CORES, name, 0, &out->num_cores));
  out->has_num_cores = hr_fb_has(&r->fb, &d, DEVICE_NUM_CORES);
  HR_TRY(jx_string_field(r, &d, DEVICE_PLATFORM, name, &out->device_platform));
  if (out->device_platform) jx_saw_version(r, 11);
  return NULL;
}

hr_status jx_read_mesh(jx_reader *r, const hr_fb_table *t, const char *what, hr_jaxexport_mesh *out) {
  *out = (hr_jaxexport_mesh){0};
  int num_sizes, num_types;
  uint32_t *sizes;
  size_t at;
  char name[JX_NAME];
  jx_name(name, "%s.axis_sizes", what);
  HR_TRY(jx_u32_vector(r, t, MESH_AXIS_SIZES, name, &num_sizes, &sizes, &at));
  jx_name(name, "%s.axis_names", what);
  HR_TRY(jx_string_vector(r, t, MESH_AXIS_NAMES, name, &out->num_axes, &out->axis_names));
  hr_fb_vector types;
  jx_name(name, "%s.axis_types", what);
  HR_TRY(hr_fb_vector_field(&r->fb, t, MESH_AXIS_TYPES, name, 1, &types));
  num_types = (int)types.count;
  if (num_sizes != out->num_axes || (num_types && num_types != out->num_axes))
    return hr_error(HR_PARSE_ERROR, "%s: offset %zu: %s: %d axis names, %d sizes and %d types", r->fb.filename,
                    t->pos, what, out->num_axes, num_sizes, num_types);
  out->axis_sizes = sizes;
  HR_TRY(jx_array(r, (size_t)out->num_axes, sizeof *out->axis_types, _Alignof(int), name, (void **)&out->axis_types));
  for (int i = 0; i < num_types; i++) out->axis_types[i] = (int8_t)hr_fb_vector_u8(&r->fb, &types, (uint32_t)i);
  return read_device(r, t, what, out);
}

/* The partition spec of a NamedSharding (absent: no partitions). */
static hr_status read_spec(jx_reader *r, const hr_fb_table *t, const char *what, hr_jaxexport_named_sharding *out) {
  hr_fb_table spec;
  bool present;
  char name[JX_NAME];
  jx_name(name, "%s.spec", what);
  HR_TRY(hr_fb_table_field(&r->fb, t, NAMED_SPEC, name, &spec, &present));
  if (!present) return NULL;
  hr_fb_vector v;
  HR_TRY(hr_fb_vector_field(&r->fb, &spec, SPEC_PARTITIONS, name, 4, &v));
  HR_TRY(jx_array(r, v.count, sizeof *out->partitions, _Alignof(hr_jaxexport_partition), name,
                  (void **)&out->partitions));
  for (uint32_t i = 0; i < v.count; i++) {
    char pname[JX_NAME];
    jx_name(pname, "%s.partitions[%u]", name, (unsigned)i);
    hr_fb_table p;
    HR_TRY(hr_fb_vector_table(&r->fb, &v, i, pname, &p));
    HR_TRY(jx_string_vector(r, &p, ONE_AXIS_AXES, pname, &out->partitions[i].num_axes, &out->partitions[i].axes));
  }
  out->num_partitions = (int)v.count;
  jx_name(name, "%s.spec.reduced", what);
  HR_TRY(jx_string_vector(r, &spec, SPEC_REDUCED, name, &out->num_reduced, &out->reduced));
  jx_name(name, "%s.spec.unreduced", what);
  return jx_string_vector(r, &spec, SPEC_UNREDUCED, name, &out->num_unreduced, &out->unreduced);
}

hr_status jx_read_named_sharding(jx_reader *r, const hr_fb_table *t, const char *what,
                                 hr_jaxexport_named_sharding *out) {
  static const hr_jaxexport_mesh empty_mesh = {0};
  *out = (hr_jaxexport_named_sharding){.mesh = &empty_mesh};
  jx_saw_version(r, 6);
  char name[JX_NAME];
  jx_name(name, "%s.abstract_mesh_idx", what);
  HR_TRY(hr_fb_u32(&r->fb, t, NAMED_ABSTRACT_MESH_IDX, name, 0, &out->abstract_mesh_idx));
  if (hr_fb_has(&r->fb, t, NAMED_ABSTRACT_MESH_IDX)) jx_saw_version(r, 10);
  if (r->e->num_unique_meshes > 0) {
    /* As JAX reads it: the index wins when the file has the unique table. */
    if (out->abstract_mesh_idx >= (uint32_t)r->e->num_unique_meshes)
      return hr_error(HR_PARSE_ERROR, "%s: offset %zu: %s: %u, but there are %d unique_abstract_meshes",
                      r->fb.filename, t->pos, name, (unsigned)out->abstract_mesh_idx, r->e->num_unique_meshes);
    out->mesh = &r->e->unique_meshes[out->abstract_mesh_idx];
  } else {
    hr_fb_table m;
    bool present;
    jx_name(name, "%s.mesh", what);
    HR_TRY(hr_fb_table_field(&r->fb, t, NAMED_MESH, name, &m, &present));
    if (present) {
      hr_jaxexport_mesh *mesh;
      HR_TRY(jx_array(r, 1, sizeof *mesh, _Alignof(hr_jaxexport_mesh), name, (void **)&mesh));
      HR_TRY(jx_read_mesh(r, &m, name, mesh));
      out->mesh = mesh;
    }
  }
  HR_TRY(read_spec(r, t, what, out));
  jx_name(name, "%s.memory_kind", what);
  return jx_string_field(r, t, NAMED_MEMORY_KIND, name, &out->memory_kind);
}

hr_status jx_read_sharding(jx_reader *r, const hr_fb_table *t, int rank, const char *what,
                           hr_jaxexport_sharding *out) {
  uint8_t kind;
  *out = (hr_jaxexport_sharding){0};
  HR_TRY(hr_fb_u8(&r->fb, t, SHARDING_KIND, what, 0, &kind));
  out->kind = (int8_t)kind;
  char name[JX_NAME];
  jx_name(name, "%s.hlo_sharding_proto", what);
  hr_fb_vector proto;
  HR_TRY(hr_fb_vector_field(&r->fb, t, SHARDING_HLO_PROTO, name, 1, &proto));
  HR_TRY(jx_byte_vector(r, t, SHARDING_HLO_PROTO, name, &out->hlo_proto, &out->hlo_proto_size));
  if (out->hlo_proto) {
    hr_jaxexport_hlo_sharding *hlo;
    HR_TRY(jx_array(r, 1, sizeof *hlo, _Alignof(hr_jaxexport_hlo_sharding), name, (void **)&hlo));
    HR_TRY(jx_decode_op_sharding(r, out->hlo_proto, out->hlo_proto_size, proto.pos, name, hlo));
    out->hlo = hlo;
  }
  hr_fb_table n;
  bool present;
  jx_name(name, "%s.named_sharding", what);
  HR_TRY(hr_fb_table_field(&r->fb, t, SHARDING_NAMED, name, &n, &present));
  if (present) {
    hr_jaxexport_named_sharding *named;
    HR_TRY(jx_array(r, 1, sizeof *named, _Alignof(hr_jaxexport_named_sharding), name, (void **)&named));
    HR_TRY(jx_read_named_sharding(r, &n, name, named));
    out->named = named;
  }
  out->specified = out->hlo || out->named;
  return jx_finish_sharding(r, out, rank, what);
}

hr_status jx_finish_sharding(jx_reader *r, hr_jaxexport_sharding *s, int rank, const char *what) {
  const hr_jaxexport_hlo_sharding *hlo = s->hlo;
  if (!hlo && s->named) {
    hr_jaxexport_hlo_sharding *derived;
    HR_TRY(jx_named_to_hlo(r, s->named, rank, what, &derived));
    hlo = derived;
  }
  if (!hlo) return NULL;
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  jx_print_hlo_sharding(hlo, &sb);
  hr_status st = jx_keep_text(r, &sb, what, &s->hlo_text);
  hr_strbuf_free(&sb);
  return st;
}

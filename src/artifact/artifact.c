/* Artifact files: one file holding a program (hr_artifact_write/open) or an executable
 * (hr_executable_write/open). A fixed header locates three sections — JSON metadata, StableHLO
 * text, and the weights, each tensor 64-byte aligned so it is used in place from a read-only
 * mapping or from an owned copy of the file — and a CRC-32 of everything before it closes the
 * file. The byte layout and the metadata schema are specified in docs/artifact-format.md; every
 * rule stated there is checked here before anything is built from the file, and the header
 * before the rest of the file is even mapped or read. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifact/artifact_internal.h"
#include "base/crc.h"
#include "base/limits.h"
#include "base/mapping.h"
#include "base/strbuf.h"
#include "base/weights.h"
#include "hlorun/hlorun.h"
#include "ir/ir.h"
#include "runtime/executable.h"

static const char MAGIC[8] = {'H', 'L', 'O', 'R', 'U', 'N', 'A', 'F'};
static const char FORMAT_NAME[] = "hlorun-artifact";

/* What a file may hold is bounded in base/limits.h (HR_LIMIT_ARTIFACT_*, HR_LIMIT_NAME_BYTES,
 * HR_LIMIT_WEIGHT_NAME_BYTES, HR_LIMIT_BATCH_CHUNKS). */

/* ---------------------------------------------------------------------------------------------- */
/* Little-endian integers                                                                          */
/* ---------------------------------------------------------------------------------------------- */

static uint32_t load_le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t load_le64(const unsigned char *p) { return (uint64_t)load_le32(p) | (uint64_t)load_le32(p + 4) << 32; }

static void store_le32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static void store_le64(unsigned char *p, uint64_t v) {
  store_le32(p, (uint32_t)v);
  store_le32(p + 4, (uint32_t)(v >> 32));
}

/* ---------------------------------------------------------------------------------------------- */
/* Shared helpers: names, dtypes, specs                                                            */
/* ---------------------------------------------------------------------------------------------- */

static uint64_t align_up(uint64_t x) { return (x + (HR_ARTIFACT_ALIGN - 1)) & ~(uint64_t)(HR_ARTIFACT_ALIGN - 1); }

static const char *kind_name(uint64_t kind) { return kind == HR_ARTIFACT_KIND_PROGRAM ? "program" : "executable"; }

/* The dtype whose MLIR spelling is `name`, or HR_DTYPE_INVALID. */
static hr_dtype dtype_from_name(const char *name) {
  for (int t = HR_DTYPE_INVALID + 1; t < HR_DTYPE_COUNT; t++)
    if (strcmp(hr_dtype_name((hr_dtype)t), name) == 0) return (hr_dtype)t;
  return HR_DTYPE_INVALID;
}

/* The string attribute `key` in entry `i` of a function's parameter or result attributes. */
static const char *string_attr(hr_attr *const *attrs, int i, const char *key) {
  const hr_attr *v = attrs ? hr_attr_field(attrs[i], key) : NULL;
  return v && v->kind == HR_ATTR_STRING ? v->u.str.data : NULL;
}

/* The weight name of parameter `p`: its jax.arg_info key path in dotted form, else "argP". */
static const char *weight_name(const hr_func *fn, int p, char *buf, size_t cap) {
  const char *info = string_attr(fn->arg_attrs, p, "jax.arg_info");
  if (!info || !hr_keypath_to_dotted(info, buf, cap)) snprintf(buf, cap, "arg%d", p);
  return buf;
}

/* The name of an executable's runtime input at parameter `p`: its jax.arg_info, else "argP". */
static const char *param_name(const hr_func *fn, int p, char *buf, size_t cap) {
  const char *info = string_attr(fn->arg_attrs, p, "jax.arg_info");
  if (info) return info;
  snprintf(buf, cap, "arg%d", p);
  return buf;
}

/* The name of output `i`: a non-empty jax.result_info, else "outI". */
static const char *output_name(const hr_func *fn, int i, char *buf, size_t cap) {
  const char *info = i < fn->n_results ? string_attr(fn->result_attrs, i, "jax.result_info") : NULL;
  if (info && *info) return info;
  snprintf(buf, cap, "out%d", i);
  return buf;
}

/* The byte size of a static spec, failing when it overflows. */
static hr_status spec_bytes(const hr_tensor_spec *s, uint64_t *out) {
  *out = 0;
  int64_t count = 0;
  HR_TRY(hr_shape_num_elements(&s->shape, &count));
  uint64_t esize = hr_dtype_size(s->dtype);
  if (esize == 0 || (uint64_t)count > (uint64_t)INT64_MAX / esize)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%lld elements of %s exceed 2^63 bytes", (long long)count,
                    hr_dtype_name(s->dtype));
  *out = (uint64_t)count * esize;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Writing: metadata                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* One tensor stored in the weights section, and the metadata entry describing it. */
typedef struct af_blob {
  const char *name; /* the entry's "name" string */
  const hr_tensor *t;
  uint64_t offset; /* from the start of the weights section */
  json_t *params;  /* the entry's "parameters" array (borrowed from the metadata) */
} af_blob;

/* Everything a writer lays out before it writes a byte. */
typedef struct af_plan {
  const char *path;
  uint64_t kind;
  json_t *meta;                       /* the metadata object */
  json_t *inputs, *outputs, *weights; /* its arrays (borrowed) */
  af_blob *blobs;
  int n_blobs;
  uint64_t weights_size; /* end of the last tensor */
} af_plan;

static hr_status plan_oom(const af_plan *pl) {
  return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory writing the metadata", pl->path);
}

/* Appends `v` (a new reference, possibly NULL) to a JSON array; false when out of memory. */
static bool append_new(json_t *array, json_t *v) { return v && json_array_append_new(array, v) == 0; }

/* A JSON array holding the dims of a shape. */
static json_t *shape_json(const hr_shape *s) {
  json_t *dims = json_array();
  for (int i = 0; dims && i < s->rank; i++)
    if (!append_new(dims, json_integer(s->dims[i]))) {
      json_decref(dims);
      return NULL;
    }
  return dims;
}

/* Appends {"name", "dtype", "shape"} to `list` (inputs or outputs). */
static hr_status add_spec(af_plan *pl, json_t *list, const char *name, const hr_tensor_spec *s) {
  if (json_array_size(list) == HR_LIMIT_ARTIFACT_ENTRIES)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: more than %d inputs or outputs", pl->path,
                    HR_LIMIT_ARTIFACT_ENTRIES);
  if (strlen(name) > HR_LIMIT_NAME_BYTES)
    return hr_error(HR_INVALID_ARGUMENT, "%s: name '%.40s...' is longer than %d bytes", pl->path, name,
                    HR_LIMIT_NAME_BYTES);
  json_t *o =
      json_pack("{s:s, s:s, s:o}", "name", name, "dtype", hr_dtype_name(s->dtype), "shape", shape_json(&s->shape));
  return append_new(list, o) ? NULL : plan_oom(pl);
}

/* Starts the metadata object with the fields every artifact has; `max_blobs` is the entry
 * function's parameter count (each stored tensor is bound to at least one parameter). */
static hr_status plan_init(af_plan *pl, const char *path, uint64_t kind, const char *entry, int max_blobs) {
  *pl = (af_plan){.path = path, .kind = kind};
  const hr_allocator *a = hr_default_allocator();
  pl->blobs = a->alloc(a->ctx, sizeof *pl->blobs * (size_t)(max_blobs > 0 ? max_blobs : 1), _Alignof(af_blob));
  pl->meta =
      json_pack("{s:s, s:i, s:s, s:s, s:s, s:[s], s:s, s:[], s:[], s:[]}", "format", FORMAT_NAME, "format_version",
                HR_ARTIFACT_VERSION, "kind", kind_name(kind), "producer", "hlorun", "producer_version",
                HLORUN_VERSION_STRING, "platforms", "cpu", "entry", entry, "inputs", "outputs", "weights");
  if (!pl->blobs || !pl->meta) return plan_oom(pl);
  pl->inputs = json_object_get(pl->meta, "inputs");
  pl->outputs = json_object_get(pl->meta, "outputs");
  pl->weights = json_object_get(pl->meta, "weights");
  return NULL;
}

static void plan_free(af_plan *pl) {
  if (pl->blobs) hr_default_allocator()->free(NULL, pl->blobs);
  json_decref(pl->meta);
}

/* Records that parameter `p` of `fn` is bound to `t`: a new weights entry placed after the
 * previous tensor, or one more parameter of an entry already stored under the same name. */
static hr_status add_bound(af_plan *pl, const hr_func *fn, int p, const hr_tensor *t) {
  char buf[HR_LIMIT_WEIGHT_NAME_BYTES];
  const char *name = weight_name(fn, p, buf, sizeof buf);
  for (int i = 0; i < pl->n_blobs; i++) {
    if (strcmp(pl->blobs[i].name, name) != 0) continue;
    if (pl->blobs[i].t->data != t->data)
      return hr_error(HR_INVALID_ARGUMENT, "%s: parameters named '%s' are bound to different tensors", pl->path, name);
    return append_new(pl->blobs[i].params, json_integer(p)) ? NULL : plan_oom(pl);
  }
  hr_tensor_spec s = {t->dtype, t->shape};
  uint64_t nbytes = 0;
  hr_status st = spec_bytes(&s, &nbytes);
  if (st) return hr_status_wrap(st, "%s: weight '%s'", pl->path, name);
  if (nbytes != t->nbytes)
    return hr_error(HR_INVALID_ARGUMENT, "%s: weight '%s': %zu data bytes do not match its shape", pl->path, name,
                    t->nbytes);
  uint64_t offset = align_up(pl->weights_size);
  if (pl->n_blobs == HR_LIMIT_ARTIFACT_ENTRIES)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: more than %d weights", pl->path, HR_LIMIT_ARTIFACT_ENTRIES);
  if (nbytes > (uint64_t)INT64_MAX - offset)
    return hr_error(HR_INTERNAL, "%s: weight '%s' does not fit the weights section", pl->path, name);
  json_t *params = json_pack("[i]", p);
  json_t *e =
      json_pack("{s:s, s:s, s:o, s:I, s:I, s:o}", "name", name, "dtype", hr_dtype_name(t->dtype), "shape",
                shape_json(&t->shape), "offset", (json_int_t)offset, "size", (json_int_t)nbytes, "parameters", params);
  if (!append_new(pl->weights, e)) return plan_oom(pl);
  pl->blobs[pl->n_blobs++] = (af_blob){json_string_value(json_object_get(e, "name")), t, offset, params};
  pl->weights_size = offset + nbytes;
  return NULL;
}

/* Records a program's bound parameter, checking that its weight name finds the bound tensor in
 * the program's weight set, as hr_program_create will when the file is opened. */
static hr_status add_program_weight(af_plan *pl, const hr_program *p, const hr_func *fn, int param,
                                    const hr_tensor *t) {
  char buf[HR_LIMIT_WEIGHT_NAME_BYTES];
  const char *name = weight_name(fn, param, buf, sizeof buf);
  const hr_weights *set = hr_program_weights(p);
  const hr_tensor *found = set ? hr_weights_find(set, name) : NULL;
  if (!found || found->data != t->data)
    return hr_error(HR_INTERNAL, "%s: parameter %d is bound to a tensor that its weight name '%s' does not find",
                    pl->path, param, name);
  return add_bound(pl, fn, param, t);
}

/* ---------------------------------------------------------------------------------------------- */
/* Writing: the file                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* A file being written, with the CRC of everything written so far. */
typedef struct af_out {
  FILE *f;
  uint32_t crc;
} af_out;

static bool out_bytes(af_out *o, const void *data, size_t len) {
  if (!len) return true;
  o->crc = hr_crc32(o->crc, data, len);
  return fwrite(data, 1, len, o->f) == len;
}

/* Writes `n` (< HR_ARTIFACT_ALIGN) zero bytes of padding. */
static bool out_padding(af_out *o, uint64_t n) {
  static const unsigned char zeros[HR_ARTIFACT_ALIGN] = {0};
  return out_bytes(o, zeros, (size_t)n);
}

/* Creates a new file "<path>.tmp.<pid>.<n>" next to `path` (so that renaming it is atomic). */
static hr_status create_temp(const char *path, char **tmp, FILE **f) {
  *tmp = NULL;
  *f = NULL;
  const hr_allocator *a = hr_default_allocator();
  size_t cap = strlen(path) + 48;
  char *name = a->alloc(a->ctx, cap, 1);
  if (!name) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", path);
  int fd = -1;
  for (int n = 0; fd < 0 && n < 100; n++) {
    snprintf(name, cap, "%s.tmp.%ld.%d", path, (long)getpid(), n);
    fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  FILE *file = fd >= 0 ? fdopen(fd, "wb") : NULL;
  if (!file) {
    hr_status s = hr_error(HR_IO_ERROR, "%s: cannot create a temporary file: %s", path, strerror(errno));
    if (fd >= 0) {
      close(fd);
      unlink(name);
    }
    a->free(a->ctx, name);
    return s;
  }
  *tmp = name;
  *f = file;
  return NULL;
}

/* Writes header, sections and checksum to `o`; `text` is the program section. */
static bool write_sections(af_out *o, const af_plan *pl, const char *meta, size_t meta_len, const hr_strbuf *text) {
  uint64_t program_off = HR_ARTIFACT_HEADER_SIZE + (uint64_t)meta_len;
  uint64_t program_end = program_off + text->len;
  uint64_t weights_off = align_up(program_end);
  unsigned char h[HR_ARTIFACT_HEADER_SIZE] = {0};
  memcpy(h, MAGIC, sizeof MAGIC);
  store_le64(h + HR_AF_VERSION, HR_ARTIFACT_VERSION);
  store_le64(h + HR_AF_KIND, pl->kind);
  store_le64(h + HR_AF_FILE_SIZE, weights_off + pl->weights_size + HR_ARTIFACT_TRAILER_SIZE);
  store_le64(h + HR_AF_METADATA_OFFSET, HR_ARTIFACT_HEADER_SIZE);
  store_le64(h + HR_AF_METADATA_SIZE, meta_len);
  store_le64(h + HR_AF_PROGRAM_OFFSET, program_off);
  store_le64(h + HR_AF_PROGRAM_SIZE, text->len);
  store_le64(h + HR_AF_WEIGHTS_OFFSET, weights_off);
  store_le64(h + HR_AF_WEIGHTS_SIZE, pl->weights_size);
  bool ok = out_bytes(o, h, sizeof h) && out_bytes(o, meta, meta_len) && out_bytes(o, text->data, text->len) &&
            out_padding(o, weights_off - program_end);
  uint64_t pos = 0; /* within the weights section */
  for (int i = 0; ok && i < pl->n_blobs; i++) {
    const af_blob *b = &pl->blobs[i];
    ok = out_padding(o, b->offset - pos) && out_bytes(o, b->t->data, b->t->nbytes);
    pos = b->offset + b->t->nbytes;
  }
  unsigned char trailer[HR_ARTIFACT_TRAILER_SIZE];
  store_le32(trailer, o->crc);
  return ok && fwrite(trailer, 1, sizeof trailer, o->f) == sizeof trailer;
}

/* Writes the file through `f`, closes it and renames `tmp` over the destination; on failure the
 * temporary file is removed. */
static hr_status finish_file(const af_plan *pl, FILE *f, const char *tmp, const char *meta, const hr_strbuf *text) {
  af_out o = {.f = f};
  bool ok = write_sections(&o, pl, meta, strlen(meta), text) && fflush(f) == 0 && fsync(fileno(f)) == 0;
  int err = errno;
  if (fclose(f) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && rename(tmp, pl->path) != 0) {
    ok = false;
    err = errno;
  }
  if (ok) return NULL;
  unlink(tmp);
  return hr_error(HR_IO_ERROR, "%s: write failed: %s", pl->path, strerror(err));
}

/* Prints the program and the metadata and writes the whole file atomically: a temporary file in
 * the same directory, flushed to disk, then renamed over `path`. Tensors are written straight
 * from their buffers (no copy). */
static hr_status write_artifact(const af_plan *pl, const hr_module *m) {
  hr_strbuf text;
  hr_strbuf_init(&text, NULL);
  hr_status s = hr_module_print_to(m, &text);
  char *meta = s ? NULL : json_dumps(pl->meta, JSON_COMPACT | JSON_PRESERVE_ORDER);
  if (!s && !meta) s = plan_oom(pl);
  char *tmp = NULL;
  FILE *f = NULL;
  if (!s) s = create_temp(pl->path, &tmp, &f);
  if (!s) s = finish_file(pl, f, tmp, meta, &text);
  if (tmp) hr_default_allocator()->free(NULL, tmp);
  free(meta);
  hr_strbuf_free(&text);
  return s;
}

hr_status hr_artifact_write(const hr_program *p, const char *path) {
  if (!p || !path) return hr_error(HR_INVALID_ARGUMENT, "hr_artifact_write: NULL argument");
  const hr_module *m = hr_program_module(p);
  const hr_func *fn = hr_module_find_func(m, hr_program_function(p));
  af_plan pl;
  hr_status s = plan_init(&pl, path, HR_ARTIFACT_KIND_PROGRAM, hr_program_function(p), fn->n_args);
  for (int i = 0; !s && i < hr_program_num_inputs(p); i++) {
    hr_tensor_spec spec = hr_program_input_spec(p, i);
    s = add_spec(&pl, pl.inputs, hr_program_input_name(p, i), &spec);
  }
  for (int i = 0; !s && i < hr_program_num_outputs(p); i++) {
    char buf[32];
    hr_tensor_spec spec = hr_program_output_spec(p, i);
    s = add_spec(&pl, pl.outputs, output_name(fn, i, buf, sizeof buf), &spec);
  }
  for (int i = 0; !s && i < fn->n_args; i++) {
    const hr_tensor *t = hr_program_bound(p, i);
    if (t) s = add_program_weight(&pl, p, fn, i, t);
  }
  if (!s) s = write_artifact(&pl, m);
  plan_free(&pl);
  return s;
}

hr_status hr_executable_write(const hr_executable *e, const char *path) {
  if (!e || !path) return hr_error(HR_INVALID_ARGUMENT, "hr_executable_write: NULL argument");
  const hr_module *m = hr_executable_module(e);
  const hr_func *fn = hr_module_find_func(m, "main"); /* a specialized module's only function */
  af_plan pl;
  const int64_t chunks = hr_executable_chunks(e);
  hr_status s = plan_init(&pl, path, HR_ARTIFACT_KIND_EXECUTABLE, "main", fn->n_args);
  if (!s && chunks > 1 && json_object_set_new(pl.meta, "batch_chunks", json_integer(chunks)) != 0) s = plan_oom(&pl);
  for (int i = 0, k = 0; !s && i < fn->n_args; i++) {
    const hr_tensor *t = hr_executable_bound(e, i);
    char buf[32];
    hr_tensor_spec spec = hr_executable_input_spec(e, k); /* static, the whole batch's */
    s = t ? add_bound(&pl, fn, i, t) : add_spec(&pl, pl.inputs, param_name(fn, i, buf, sizeof buf), &spec);
    k += !t;
  }
  for (int i = 0; !s && i < hr_executable_num_outputs(e); i++) {
    char buf[32];
    hr_tensor_spec spec = hr_executable_output_spec(e, i);
    s = add_spec(&pl, pl.outputs, output_name(fn, i, buf, sizeof buf), &spec);
  }
  if (!s) s = write_artifact(&pl, m);
  plan_free(&pl);
  return s;
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading: header and checksum                                                                    */
/* ---------------------------------------------------------------------------------------------- */

typedef struct af_section {
  uint64_t offset, size;
} af_section;

/* A named tensor spec from the metadata (strings point into the metadata JSON). */
typedef struct af_spec {
  const char *name;
  hr_tensor_spec spec;
} af_spec;

/* A weights entry from the metadata. */
typedef struct af_weight {
  const char *name;
  hr_tensor_spec spec;
  uint64_t offset, size; /* within the weights section */
  json_t *params;        /* the "parameters" array: entry parameter indices */
} af_weight;

/* An artifact file being opened: its descriptor (until the bytes are in), the bytes (a mapping or
 * an owned copy, until a weight set takes them over), the header, the parsed metadata, the module
 * and the weight set, each released by af_close unless handed on. */
typedef struct af_file {
  const char *path;
  const hr_allocator *a;
  int fd;
  struct stat st; /* when the file was opened */
  unsigned char header[HR_ARTIFACT_HEADER_SIZE];
  uint64_t kind;
  const unsigned char *map;      /* the whole file */
  size_t len;
  hr_backing_release_fn release; /* of `map`: hr_unmap_file or release_copy */
  af_section metadata, program, weights_sec;
  json_t *root;
  const char *entry;
  af_spec *inputs, *outputs;
  int n_inputs, n_outputs;
  int64_t chunks; /* an executable's batch split (1: none) */
  af_weight *weights;
  int n_weights;
  hr_module *module;
  hr_weights *set;
} af_file;

static void close_fd(af_file *f) {
  if (f->fd >= 0) close(f->fd);
  f->fd = -1;
}

static void af_close(af_file *f) {
  close_fd(f);
  if (f->map) f->release((void *)f->map, f->len);
  json_decref(f->root);
  if (f->inputs) f->a->free(f->a->ctx, f->inputs);
  if (f->outputs) f->a->free(f->a->ctx, f->outputs);
  if (f->weights) f->a->free(f->a->ctx, f->weights);
  hr_module_free(f->module);
  hr_weights_free(f->set);
}

/* Checks that a section lies in [lo, hi] and starts at a multiple of `align`. */
static hr_status check_section(const af_file *f, const char *what, af_section s, uint64_t lo, uint64_t hi,
                               uint64_t align) {
  if (s.offset < lo || s.offset > hi || s.size > hi - s.offset)
    return hr_error(HR_PARSE_ERROR, "%s: %s section (offset %llu, size %llu) is outside [%llu, %llu] of the file",
                    f->path, what, (unsigned long long)s.offset, (unsigned long long)s.size, (unsigned long long)lo,
                    (unsigned long long)hi);
  if (s.offset % align != 0)
    return hr_error(HR_PARSE_ERROR, "%s: %s section offset %llu is not a multiple of %llu", f->path, what,
                    (unsigned long long)s.offset, (unsigned long long)align);
  return NULL;
}

/* The error for a file whose bytes changed while it was being opened. */
static hr_status changed_error(const af_file *f, const char *how) {
  return hr_error(HR_IO_ERROR, "%s: the file changed while being read (%s)", f->path, how);
}

/* Reads `len` bytes at `offset` (a bounded pread loop); a file that ends sooner has changed since
 * it was opened, because every read stays within the size it had then. */
static hr_status read_at(const af_file *f, unsigned char *buf, size_t len, uint64_t offset) {
  while (len) {
    ssize_t n = pread(f->fd, buf, len, (off_t)offset);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return hr_error(HR_IO_ERROR, "%s: read failed at offset %llu: %s", f->path, (unsigned long long)offset,
                      strerror(errno));
    if (n == 0) return changed_error(f, "it became shorter");
    buf += n;
    len -= (size_t)n;
    offset += (uint64_t)n;
  }
  return NULL;
}

/* Reads the fixed header (and nothing else of the file) and validates it: magic, version, kind,
 * file size, and that the sections follow one another (metadata, program, weights) between the
 * header and the trailer. */
static hr_status read_header(af_file *f, uint64_t want_kind) {
  const unsigned char *b = f->header;
  if (f->len < HR_ARTIFACT_HEADER_SIZE + HR_ARTIFACT_TRAILER_SIZE)
    return hr_error(HR_PARSE_ERROR, "%s: %zu bytes is too short for an hlorun artifact", f->path, f->len);
  HR_TRY(read_at(f, f->header, sizeof f->header, 0));
  if (memcmp(b, MAGIC, sizeof MAGIC) != 0)
    return hr_error(HR_PARSE_ERROR, "%s: not an hlorun artifact (bad magic)", f->path);
  uint64_t version = load_le64(b + HR_AF_VERSION);
  if (version != HR_ARTIFACT_VERSION)
    return hr_error(HR_UNIMPLEMENTED, "%s: format version %llu is not supported (this build reads version %d)", f->path,
                    (unsigned long long)version, HR_ARTIFACT_VERSION);
  f->kind = load_le64(b + HR_AF_KIND);
  if (f->kind != HR_ARTIFACT_KIND_PROGRAM && f->kind != HR_ARTIFACT_KIND_EXECUTABLE)
    return hr_error(HR_PARSE_ERROR, "%s: unknown artifact kind %llu", f->path, (unsigned long long)f->kind);
  if (f->kind != want_kind)
    return hr_error(HR_INVALID_ARGUMENT, "%s: this is %s, not %s (open it with %s)", f->path,
                    f->kind == HR_ARTIFACT_KIND_PROGRAM ? "a program artifact" : "an executable file",
                    want_kind == HR_ARTIFACT_KIND_PROGRAM ? "a program artifact" : "an executable file",
                    f->kind == HR_ARTIFACT_KIND_PROGRAM ? "hr_artifact_open" : "hr_executable_open");
  uint64_t size = load_le64(b + HR_AF_FILE_SIZE);
  if (size != f->len)
    return hr_error(HR_PARSE_ERROR, "%s: the header describes %llu bytes but the file has %zu (%s)", f->path,
                    (unsigned long long)size, f->len, size > f->len ? "truncated" : "trailing data");
  f->metadata = (af_section){load_le64(b + HR_AF_METADATA_OFFSET), load_le64(b + HR_AF_METADATA_SIZE)};
  f->program = (af_section){load_le64(b + HR_AF_PROGRAM_OFFSET), load_le64(b + HR_AF_PROGRAM_SIZE)};
  f->weights_sec = (af_section){load_le64(b + HR_AF_WEIGHTS_OFFSET), load_le64(b + HR_AF_WEIGHTS_SIZE)};
  uint64_t end = f->len - HR_ARTIFACT_TRAILER_SIZE;
  HR_TRY(check_section(f, "metadata", f->metadata, HR_ARTIFACT_HEADER_SIZE, end, 1));
  HR_TRY(check_section(f, "program", f->program, f->metadata.offset + f->metadata.size, end, 1));
  HR_TRY(check_section(f, "weights", f->weights_sec, f->program.offset + f->program.size, end, HR_ARTIFACT_ALIGN));
  if (f->metadata.size > HR_LIMIT_ARTIFACT_METADATA_BYTES)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: metadata section of %llu bytes exceeds the limit of %llu", f->path,
                    (unsigned long long)f->metadata.size, (unsigned long long)HR_LIMIT_ARTIFACT_METADATA_BYTES);
  return NULL;
}

/* Compares the trailing CRC-32 with that of everything before it. */
static hr_status verify_checksum(const af_file *f) {
  size_t body = f->len - HR_ARTIFACT_TRAILER_SIZE;
  uint32_t stored = load_le32(f->map + body), computed = hr_crc32(0, f->map, body);
  if (stored != computed)
    return hr_error(HR_PARSE_ERROR, "%s: checksum mismatch (stored %08x, computed %08x): the file is corrupt", f->path,
                    (unsigned)stored, (unsigned)computed);
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading: the bulk of the file, mapped or copied                                                 */
/* ---------------------------------------------------------------------------------------------- */

enum { COPY_CHUNK = 8 << 20 }; /* bytes read between polls of hr_artifact_options.cancelled */

/* Maps the whole file (mapping mode); its pages are read in as the checksum pass touches them. */
static hr_status map_file(af_file *f) {
  void *map;
  HR_TRY(hr_map_fd(f->fd, f->path, f->len, &map));
  f->map = map;
  f->release = hr_unmap_file;
  return NULL;
}

/* Frees a copy made by copy_file, whose allocator is stored in the HR_ARTIFACT_ALIGN bytes before
 * the data (matches hr_backing_release_fn). */
static void release_copy(void *data, size_t len) {
  unsigned char *block = (unsigned char *)data - HR_ARTIFACT_ALIGN;
  const hr_allocator *a;
  memcpy(&a, block, sizeof a);
  a->free(a->ctx, block);
}

/* Whether the file's size, modification or status-change time differ between two fstats. */
static bool stat_changed(const struct stat *a, const struct stat *b) {
  return a->st_size != b->st_size || a->st_mtim.tv_sec != b->st_mtim.tv_sec ||
         a->st_mtim.tv_nsec != b->st_mtim.tv_nsec || a->st_ctim.tv_sec != b->st_ctim.tv_sec ||
         a->st_ctim.tv_nsec != b->st_ctim.tv_nsec;
}

/* Reads the whole file into memory of its own, 64-byte aligned (copy mode), COPY_CHUNK bytes at a
 * time, polling `ao->cancelled` before each chunk; then checks that the file did not change
 * meanwhile. (The descriptor keeps the inode it opened: a file replaced by a rename is read whole,
 * as it was.) */
static hr_status copy_file(af_file *f, const hr_artifact_options *ao) {
  unsigned char *block = f->a->alloc(f->a->ctx, HR_ARTIFACT_ALIGN + f->len, HR_ARTIFACT_ALIGN);
  if (!block) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory for a copy of %zu bytes", f->path, f->len);
  memcpy(block, &f->a, sizeof f->a);
  unsigned char *data = block + HR_ARTIFACT_ALIGN;
  f->map = data;
  f->release = release_copy;
  for (size_t pos = 0; pos < f->len; pos += COPY_CHUNK) {
    if (ao->cancelled && ao->cancelled(ao->cancel_ctx))
      return hr_error(HR_CANCELLED, "%s: reading the file was cancelled after %zu of %zu bytes", f->path, pos,
                      f->len);
    HR_TRY(read_at(f, data + pos, f->len - pos < COPY_CHUNK ? f->len - pos : COPY_CHUNK, pos));
  }
  struct stat now;
  if (fstat(f->fd, &now) != 0) return hr_error(HR_IO_ERROR, "%s: fstat failed: %s", f->path, strerror(errno));
  return stat_changed(&f->st, &now) ? changed_error(f, "its size or times differ from when it was opened") : NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading: metadata                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* A metadata schema error: "<path>: metadata: <where>: <message>". */
static hr_status meta_error(const af_file *f, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static hr_status meta_error(const af_file *f, const char *where, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_error(HR_PARSE_ERROR, "%s: metadata: %s: %s", f->path, where, msg);
}

/* Member `key` of `obj` as a string of at least `min_len` and at most HR_LIMIT_NAME_BYTES bytes. */
static hr_status get_string(const af_file *f, const char *where, const json_t *obj, const char *key, size_t min_len,
                            const char **out) {
  *out = NULL;
  json_t *v = json_object_get(obj, key);
  if (!json_is_string(v)) return meta_error(f, where, "'%s' must be a string", key);
  size_t len = json_string_length(v);
  if (len < min_len || len > HR_LIMIT_NAME_BYTES)
    return meta_error(f, where, "'%s' must have %zu to %d bytes (it has %zu)", key, min_len, HR_LIMIT_NAME_BYTES,
                      len);
  *out = json_string_value(v);
  return NULL;
}

/* Member `key` of `obj` as an integer in [lo, hi]. */
static hr_status get_int(const af_file *f, const char *where, const json_t *obj, const char *key, int64_t lo,
                         int64_t hi, int64_t *out) {
  *out = 0;
  json_t *v = json_object_get(obj, key);
  if (!json_is_integer(v)) return meta_error(f, where, "'%s' must be an integer", key);
  json_int_t x = json_integer_value(v);
  if (x < lo || x > hi)
    return meta_error(f, where, "'%s' is %lld, outside [%lld, %lld]", key, (long long)x, (long long)lo, (long long)hi);
  *out = x;
  return NULL;
}

/* Member `key` of `obj` as an array of at most `max` elements. */
static hr_status get_array(const af_file *f, const char *where, const json_t *obj, const char *key, size_t max,
                           json_t **out) {
  *out = json_object_get(obj, key);
  if (!json_is_array(*out)) return meta_error(f, where, "'%s' must be an array", key);
  if (json_array_size(*out) > max) return meta_error(f, where, "'%s' has more than %zu elements", key, max);
  return NULL;
}

/* Reads {"name", "dtype", "shape"} (shape dims >= 0, or -1 when `allow_dynamic`). */
static hr_status read_spec(const af_file *f, const char *where, const json_t *o, size_t min_name, bool allow_dynamic,
                           const char **name, hr_tensor_spec *spec) {
  *spec = (hr_tensor_spec){0};
  if (!json_is_object(o)) return meta_error(f, where, "must be an object");
  const char *dtype;
  json_t *dims;
  HR_TRY(get_string(f, where, o, "name", min_name, name));
  HR_TRY(get_string(f, where, o, "dtype", 1, &dtype));
  HR_TRY(get_array(f, where, o, "shape", HR_MAX_RANK, &dims));
  spec->dtype = dtype_from_name(dtype);
  if (spec->dtype == HR_DTYPE_INVALID) return meta_error(f, where, "unknown dtype '%s'", dtype);
  spec->shape.rank = (int)json_array_size(dims);
  for (int i = 0; i < spec->shape.rank; i++) {
    json_t *d = json_array_get(dims, (size_t)i);
    if (!json_is_integer(d) || json_integer_value(d) < (allow_dynamic ? -1 : 0))
      return meta_error(f, where, "shape[%d] must be an integer >= %d", i, allow_dynamic ? -1 : 0);
    spec->shape.dims[i] = json_integer_value(d);
  }
  return NULL;
}

/* Reads the "inputs" or "outputs" list. */
static hr_status read_specs(af_file *f, const char *key, af_spec **out, int *n) {
  json_t *list;
  HR_TRY(get_array(f, "top level", f->root, key, HR_LIMIT_ARTIFACT_ENTRIES, &list));
  *n = (int)json_array_size(list);
  *out = f->a->alloc(f->a->ctx, sizeof **out * (size_t)(*n ? *n : 1), _Alignof(af_spec));
  if (!*out) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", f->path);
  for (int i = 0; i < *n; i++) {
    char where[32];
    snprintf(where, sizeof where, "%s[%d]", key, i);
    af_spec *s = &(*out)[i];
    HR_TRY(read_spec(f, where, json_array_get(list, (size_t)i), 0, f->kind == HR_ARTIFACT_KIND_PROGRAM, &s->name,
                     &s->spec));
  }
  return NULL;
}

/* Checks a weights entry's placement: aligned, inside the weights section, sized by its spec. */
static hr_status check_weight_bounds(const af_file *f, const af_weight *w) {
  uint64_t expected = 0;
  hr_status s = spec_bytes(&w->spec, &expected);
  if (s) return hr_status_wrap(s, "%s: weights section: tensor '%s'", f->path, w->name);
  if (w->offset % HR_ARTIFACT_ALIGN != 0)
    return hr_error(HR_PARSE_ERROR, "%s: weights section: tensor '%s' at offset %llu is not %d-byte aligned", f->path,
                    w->name, (unsigned long long)w->offset, HR_ARTIFACT_ALIGN);
  if (w->offset > f->weights_sec.size || w->size > f->weights_sec.size - w->offset)
    return hr_error(HR_PARSE_ERROR,
                    "%s: weights section: tensor '%s' (offset %llu, size %llu) extends past the end of the section "
                    "(%llu bytes)",
                    f->path, w->name, (unsigned long long)w->offset, (unsigned long long)w->size,
                    (unsigned long long)f->weights_sec.size);
  if (w->size != expected)
    return hr_error(HR_PARSE_ERROR, "%s: weights section: tensor '%s' has %llu bytes but %s needs %llu", f->path,
                    w->name, (unsigned long long)w->size, hr_dtype_name(w->spec.dtype), (unsigned long long)expected);
  return NULL;
}

/* Orders weights entries by offset for the overlap check. */
static int by_offset(const void *a, const void *b) {
  const af_weight *x = *(const af_weight *const *)a, *y = *(const af_weight *const *)b;
  return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Checks that no two tensors share bytes (empty tensors share none). */
static hr_status check_no_overlap(const af_file *f) {
  const af_weight **order =
      f->a->alloc(f->a->ctx, sizeof *order * (size_t)(f->n_weights ? f->n_weights : 1), _Alignof(af_weight *));
  if (!order) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", f->path);
  int n = 0;
  for (int i = 0; i < f->n_weights; i++)
    if (f->weights[i].size) order[n++] = &f->weights[i];
  qsort(order, (size_t)n, sizeof *order, by_offset);
  hr_status s = NULL;
  for (int i = 1; !s && i < n; i++)
    if (order[i - 1]->offset + order[i - 1]->size > order[i]->offset)
      s = hr_error(HR_PARSE_ERROR, "%s: weights section: tensors '%s' and '%s' overlap", f->path, order[i - 1]->name,
                   order[i]->name);
  f->a->free(f->a->ctx, (void *)order);
  return s;
}

/* Reads one weights entry. */
static hr_status read_weight(const af_file *f, int i, const json_t *o, af_weight *w) {
  char where[32];
  snprintf(where, sizeof where, "weights[%d]", i);
  HR_TRY(read_spec(f, where, o, 1, false, &w->name, &w->spec));
  int64_t offset, size;
  HR_TRY(get_int(f, where, o, "offset", 0, INT64_MAX, &offset));
  HR_TRY(get_int(f, where, o, "size", 0, INT64_MAX, &size));
  w->offset = (uint64_t)offset;
  w->size = (uint64_t)size;
  HR_TRY(get_array(f, where, o, "parameters", HR_LIMIT_ARTIFACT_ENTRIES, &w->params));
  if (json_array_size(w->params) == 0) return meta_error(f, where, "'parameters' is empty");
  for (size_t k = 0; k < json_array_size(w->params); k++) {
    json_t *p = json_array_get(w->params, k);
    if (!json_is_integer(p) || json_integer_value(p) < 0 || json_integer_value(p) > INT_MAX)
      return meta_error(f, where, "parameters[%zu] must be a parameter index", k);
  }
  return check_weight_bounds(f, w);
}

/* Reads the "weights" list. */
static hr_status read_weights(af_file *f) {
  json_t *list;
  HR_TRY(get_array(f, "top level", f->root, "weights", HR_LIMIT_ARTIFACT_ENTRIES, &list));
  f->n_weights = (int)json_array_size(list);
  f->weights =
      f->a->alloc(f->a->ctx, sizeof *f->weights * (size_t)(f->n_weights ? f->n_weights : 1), _Alignof(af_weight));
  if (!f->weights) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", f->path);
  for (int i = 0; i < f->n_weights; i++) HR_TRY(read_weight(f, i, json_array_get(list, (size_t)i), &f->weights[i]));
  return check_no_overlap(f);
}

/* Checks that `platforms` lists "cpu". */
static hr_status check_platforms(const af_file *f) {
  json_t *list;
  HR_TRY(get_array(f, "top level", f->root, "platforms", HR_LIMIT_ARTIFACT_ENTRIES, &list));
  for (size_t i = 0; i < json_array_size(list); i++) {
    json_t *p = json_array_get(list, i);
    if (!json_is_string(p)) return meta_error(f, "platforms", "element %zu is not a string", i);
    if (strcmp(json_string_value(p), "cpu") == 0) return NULL;
  }
  return hr_error(HR_UNIMPLEMENTED, "%s: the artifact was not built for the cpu platform", f->path);
}

/* Parses the metadata section and checks it against the schema and the header. */
static hr_status read_metadata(af_file *f) {
  json_error_t err;
  f->root =
      json_loadb((const char *)f->map + f->metadata.offset, (size_t)f->metadata.size, JSON_REJECT_DUPLICATES, &err);
  if (!f->root)
    return hr_error(HR_PARSE_ERROR, "%s: metadata: invalid JSON at position %d: %s", f->path, err.position, err.text);
  if (!json_is_object(f->root)) return meta_error(f, "top level", "must be an object");
  const char *format, *kind, *producer_version;
  int64_t version;
  HR_TRY(get_string(f, "top level", f->root, "format", 1, &format));
  if (strcmp(format, FORMAT_NAME) != 0)
    return meta_error(f, "top level", "'format' is '%s', not '%s'", format, FORMAT_NAME);
  HR_TRY(get_int(f, "top level", f->root, "format_version", HR_ARTIFACT_VERSION, HR_ARTIFACT_VERSION, &version));
  HR_TRY(get_string(f, "top level", f->root, "kind", 1, &kind));
  if (strcmp(kind, kind_name(f->kind)) != 0)
    return meta_error(f, "top level", "'kind' is '%s' but the header says %s", kind, kind_name(f->kind));
  HR_TRY(get_string(f, "top level", f->root, "producer_version", 0, &producer_version));
  HR_TRY(check_platforms(f));
  HR_TRY(get_string(f, "top level", f->root, "entry", 1, &f->entry));
  if (f->kind == HR_ARTIFACT_KIND_EXECUTABLE && strcmp(f->entry, "main") != 0)
    return meta_error(f, "top level", "an executable's 'entry' must be \"main\", not '%s'", f->entry);
  f->chunks = 1;
  if (f->kind == HR_ARTIFACT_KIND_EXECUTABLE && json_object_get(f->root, "batch_chunks"))
    HR_TRY(get_int(f, "top level", f->root, "batch_chunks", 2, HR_LIMIT_BATCH_CHUNKS, &f->chunks));
  HR_TRY(read_specs(f, "inputs", &f->inputs, &f->n_inputs));
  HR_TRY(read_specs(f, "outputs", &f->outputs, &f->n_outputs));
  return read_weights(f);
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading: program text and weights                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* Parses the program section; positions in errors read "<path>:program:line:col". */
static hr_status parse_program(af_file *f) {
  size_t cap = strlen(f->path) + sizeof ":program";
  char *name = f->a->alloc(f->a->ctx, cap, 1);
  if (!name) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", f->path);
  snprintf(name, cap, "%s:program", f->path);
  hr_parse_options po = {.allocator = f->a};
  hr_status s =
      hr_module_parse(name, (const char *)f->map + f->program.offset, (size_t)f->program.size, &po, &f->module);
  f->a->free(f->a->ctx, name);
  return s;
}

/* The range of values a one-byte element of a narrow type may hold in memory (i1: 0 or 1;
 * i2/i4/ui2/ui4: sign- or zero-extended); false for other types, whose every bit pattern is valid. */
static bool narrow_range(hr_dtype t, int *lo, int *hi) {
  int bits = hr_dtype_bits(t);
  if (hr_dtype_size(t) != 1 || bits == 8) return false;
  bool is_signed = hr_dtype_is_signed_int(t);
  *lo = is_signed ? -(1 << (bits - 1)) : 0;
  *hi = is_signed ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
  return true;
}

/* Checks that the elements of an i1, i2, i4, ui2 or ui4 tensor are in range for their type. */
static hr_status check_narrow_values(const af_file *f, const af_weight *w, const unsigned char *data) {
  int lo = 0, hi = 0;
  if (!narrow_range(w->spec.dtype, &lo, &hi)) return NULL;
  bool is_signed = hr_dtype_is_signed_int(w->spec.dtype);
  for (uint64_t i = 0; i < w->size; i++) {
    int v = is_signed ? (int)(signed char)data[i] : (int)data[i];
    if (v < lo || v > hi)
      return hr_error(HR_PARSE_ERROR, "%s: weights section: tensor '%s' element %llu is %d, outside the %s range",
                      f->path, w->name, (unsigned long long)i, v, hr_dtype_name(w->spec.dtype));
  }
  return NULL;
}

/* Builds the weight set over the file's bytes (mapping or copy), which it takes over (tensors
 * point into them, no further copy). A file without weights is released instead: nothing refers
 * to it any more. */
static hr_status build_weight_set(af_file *f) {
  void *map = (void *)f->map;
  f->map = NULL;
  if (f->n_weights == 0) {
    f->release(map, f->len);
    return NULL;
  }
  HR_TRY(hr_weights_create(f->a, f->n_weights, map, f->len, f->release, &f->set));
  unsigned char *base = (unsigned char *)map + f->weights_sec.offset;
  for (int i = 0; i < f->n_weights; i++) {
    const af_weight *w = &f->weights[i];
    HR_TRY(check_narrow_values(f, w, base + w->offset));
    hr_status s = hr_weights_add(f->set, w->name, w->spec.dtype, &w->spec.shape, base + w->offset, (size_t)w->size);
    if (s) return hr_status_wrap(s, "%s: weights section", f->path);
  }
  return NULL;
}

/* Opens, validates and parses an artifact of kind `want_kind`, leaving the module and weight set
 * in `f`. Only the header is read until it has passed and the file is within `ao`'s size limit;
 * then the whole file is mapped or copied (`ao->copy`) and everything else is checked on those
 * bytes, starting with the header read again. */
static hr_status load(af_file *f, const char *path, const hr_artifact_options *ao, const hr_exec_options *opts,
                      uint64_t want_kind) {
  *f = (af_file){.path = path, .a = opts && opts->allocator ? opts->allocator : hr_default_allocator(), .fd = -1};
  HR_TRY(hr_open_regular(path, &f->fd, &f->st));
  f->len = (size_t)f->st.st_size;
  HR_TRY(read_header(f, want_kind));
  if (ao && ao->max_file_bytes && f->len > ao->max_file_bytes)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: %zu bytes exceed the limit of %zu bytes", path, f->len,
                    ao->max_file_bytes);
  HR_TRY(ao && ao->copy ? copy_file(f, ao) : map_file(f));
  close_fd(f);
  if (memcmp(f->map, f->header, sizeof f->header) != 0) return changed_error(f, "its header differs");
  HR_TRY(verify_checksum(f));
  HR_TRY(read_metadata(f));
  HR_TRY(parse_program(f));
  return build_weight_set(f);
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading: agreement of metadata and program                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* A disagreement between the metadata and the program text. */
static hr_status mismatch(const af_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static hr_status mismatch(const af_file *f, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return hr_error(HR_PARSE_ERROR, "%s: the metadata does not match the program: %s", f->path, msg);
}

/* The error for a tensor ("input 2", "parameter 0") whose spec in the metadata differs from the
 * program's. */
static hr_status spec_mismatch(const af_file *f, const char *what, int i, const char *name, const hr_tensor_spec *meta,
                               const hr_tensor_spec *program) {
  hr_strbuf a, b;
  hr_strbuf_init(&a, f->a);
  hr_strbuf_init(&b, f->a);
  hr_spec_print(&a, meta);
  hr_spec_print(&b, program);
  hr_status s = mismatch(f, "%s %d ('%s') is %s in the metadata but %s in the program", what, i, name,
                         a.data ? a.data : "?", b.data ? b.data : "?");
  hr_strbuf_free(&a);
  hr_strbuf_free(&b);
  return s;
}

/* Checks one input or output ("input 2") against what the program declares. */
static hr_status check_spec(const af_file *f, const char *what, int i, const af_spec *meta, const char *name,
                            const hr_tensor_spec *spec) {
  if (strcmp(meta->name, name) != 0)
    return mismatch(f, "%s %d is named '%s' in the metadata but '%s' in the program", what, i, meta->name, name);
  return hr_spec_equal(&meta->spec, spec) ? NULL : spec_mismatch(f, what, i, name, &meta->spec, spec);
}

/* Maps each parameter of the entry function to the tensor the metadata binds it to (NULL for a
 * runtime input): every listed parameter must exist and be bound once. */
static hr_status bind_params(const af_file *f, int n_args, const hr_tensor **bound) {
  for (int p = 0; p < n_args; p++) bound[p] = NULL;
  for (int i = 0; i < f->n_weights; i++) {
    const af_weight *w = &f->weights[i];
    for (size_t k = 0; k < json_array_size(w->params); k++) {
      json_int_t p = json_integer_value(json_array_get(w->params, k));
      if (p >= n_args)
        return mismatch(f, "weight '%s' is bound to parameter %lld but @%s has %d", w->name, (long long)p, f->entry,
                        n_args);
      if (bound[p]) return mismatch(f, "parameter %lld is bound to more than one weight", (long long)p);
      bound[p] = hr_weights_tensor(f->set, i);
    }
  }
  return NULL;
}

/* Allocates the per-parameter binding table and fills it from the metadata. */
static hr_status make_bindings(const af_file *f, int n_args, const hr_tensor ***out) {
  *out = f->a->alloc(f->a->ctx, sizeof **out * (size_t)(n_args ? n_args : 1), _Alignof(hr_tensor *));
  if (!*out) return hr_error(HR_OUT_OF_MEMORY, "%s: out of memory", f->path);
  return bind_params(f, n_args, *out);
}

/* Checks a program created from the file against the metadata: its inputs, outputs, and that
 * exactly the listed parameters were bound to the listed weights. */
static hr_status check_program(const af_file *f, const hr_program *p) {
  const hr_func *fn = hr_module_find_func(hr_program_module(p), hr_program_function(p));
  if (hr_program_num_inputs(p) != f->n_inputs || hr_program_num_outputs(p) != f->n_outputs)
    return mismatch(f, "the program has %d inputs and %d outputs, the metadata lists %d and %d",
                    hr_program_num_inputs(p), hr_program_num_outputs(p), f->n_inputs, f->n_outputs);
  for (int i = 0; i < f->n_inputs; i++) {
    hr_tensor_spec s = hr_program_input_spec(p, i);
    HR_TRY(check_spec(f, "input", i, &f->inputs[i], hr_program_input_name(p, i), &s));
  }
  for (int i = 0; i < f->n_outputs; i++) {
    char buf[32];
    hr_tensor_spec s = hr_program_output_spec(p, i);
    HR_TRY(check_spec(f, "output", i, &f->outputs[i], output_name(fn, i, buf, sizeof buf), &s));
  }
  const hr_tensor **bound;
  hr_status s = make_bindings(f, fn->n_args, &bound);
  for (int i = 0; !s && i < fn->n_args; i++) {
    const hr_tensor *t = hr_program_bound(p, i);
    if (!t != !bound[i] || (t && t->data != bound[i]->data))
      s = mismatch(f, "parameter %d is %s by the program but %s by the metadata", i, t ? "bound" : "not bound",
                   bound[i] ? "bound to a weight" : "not bound");
  }
  if (bound) f->a->free(f->a->ctx, (void *)bound);
  return s;
}

/* `s` as the file's executable takes it: dimension 0 times its batch_chunks. A spec of rank 0, or
 * one that would overflow, stays as it is: then the comparison with the metadata fails, or else
 * hr_executable_set_chunks does. */
static hr_tensor_spec chunked(const af_file *f, hr_tensor_spec s) {
  if (f->chunks > 1 && s.shape.rank > 0 && s.shape.dims[0] >= 0 && s.shape.dims[0] <= INT64_MAX / f->chunks)
    s.shape.dims[0] *= f->chunks;
  return s;
}

/* Checks the specialized module's "main" against the metadata before an executable is built:
 * bound parameters have their weights' exact types, the others are the listed inputs in order
 * (whose shapes are static), and the results are the listed outputs. */
static hr_status check_signature(const af_file *f, const hr_func *fn, const hr_tensor *const *bound) {
  for (int i = 0; i < f->n_weights; i++) {
    const af_weight *w = &f->weights[i];
    for (size_t k = 0; k < json_array_size(w->params); k++) {
      int p = (int)json_integer_value(json_array_get(w->params, k)); /* < n_args: see bind_params */
      hr_tensor_spec ps = hr_spec_of_type(&fn->body.args[p].type);
      if (!hr_spec_equal(&ps, &w->spec)) return spec_mismatch(f, "parameter", p, w->name, &w->spec, &ps);
    }
  }
  int n_inputs = 0;
  for (int p = 0; p < fn->n_args; p++) n_inputs += !bound[p];
  if (n_inputs != f->n_inputs || fn->n_results != f->n_outputs)
    return mismatch(f, "the program has %d inputs and %d outputs, the metadata lists %d and %d", n_inputs,
                    fn->n_results, f->n_inputs, f->n_outputs);
  for (int p = 0, k = 0; p < fn->n_args; p++) {
    if (bound[p]) continue;
    char buf[32];
    hr_tensor_spec ts = chunked(f, hr_spec_of_type(&fn->body.args[p].type));
    HR_TRY(check_spec(f, "input", k, &f->inputs[k], param_name(fn, p, buf, sizeof buf), &ts));
    k++;
  }
  for (int i = 0; i < fn->n_results; i++) {
    char buf[32];
    hr_tensor_spec ts = chunked(f, hr_spec_of_type(&fn->result_types[i]));
    HR_TRY(check_spec(f, "output", i, &f->outputs[i], output_name(fn, i, buf, sizeof buf), &ts));
  }
  return NULL;
}

/* Checks the built executable's input and output specs against the metadata. */
static hr_status check_executable(const af_file *f, const hr_executable *e) {
  if (hr_executable_num_inputs(e) != f->n_inputs || hr_executable_num_outputs(e) != f->n_outputs)
    return mismatch(f, "the executable has %d inputs and %d outputs, the metadata lists %d and %d",
                    hr_executable_num_inputs(e), hr_executable_num_outputs(e), f->n_inputs, f->n_outputs);
  for (int i = 0; i < f->n_inputs; i++) {
    hr_tensor_spec s = hr_executable_input_spec(e, i);
    HR_TRY(check_spec(f, "input", i, &f->inputs[i], f->inputs[i].name, &s));
  }
  for (int i = 0; i < f->n_outputs; i++) {
    hr_tensor_spec s = hr_executable_output_spec(e, i);
    HR_TRY(check_spec(f, "output", i, &f->outputs[i], f->outputs[i].name, &s));
  }
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Opening                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Makes an error from building the program or executable name the file, when it does not yet
 * (errors positioned in the program text already do: "<path>:program:line:col"). */
static hr_status naming_file(const char *path, hr_status s) {
  return s && !strstr(hr_status_message(s), path) ? hr_status_wrap(s, "%s", path) : s;
}

hr_status hr_artifact_open_with(const char *path, const hr_artifact_options *ao, const hr_exec_options *opts,
                                hr_program **out) {
  if (!out) return hr_error(HR_INVALID_ARGUMENT, "hr_artifact_open: `out` is NULL");
  *out = NULL;
  if (!path) return hr_error(HR_INVALID_ARGUMENT, "hr_artifact_open: `path` is NULL");
  af_file f;
  hr_status s = load(&f, path, ao, opts, HR_ARTIFACT_KIND_PROGRAM);
  hr_program *p = NULL;
  if (!s) {
    hr_module *m = f.module;
    hr_weights *w = f.set; /* the program takes a reference; ours serves check_program */
    f.module = NULL;       /* passes to the program, also on error */
    s = naming_file(path, hr_program_create(m, f.entry, w ? hr_weights_retain(w) : NULL, opts, &p));
    if (!s) s = check_program(&f, p);
  }
  if (s) hr_program_free(p);
  af_close(&f);
  if (!s) *out = p;
  return s;
}

hr_status hr_artifact_open(const char *path, const hr_exec_options *opts, hr_program **out) {
  return hr_artifact_open_with(path, NULL, opts, out);
}

/* Builds the executable of a loaded file: binds the weights to their parameters, checks the
 * signature and prepares everything (hr_executable_create). */
static hr_status build_executable(af_file *f, const hr_exec_options *opts, hr_executable **out) {
  const hr_func *fn = hr_module_find_func(f->module, "main");
  if (!fn) return mismatch(f, "the program has no function @main");
  const hr_tensor **bound;
  hr_status s = make_bindings(f, fn->n_args, &bound);
  if (!s) s = check_signature(f, fn, bound);
  if (!s) {
    hr_module *m = f->module;
    f->module = NULL; /* passes to the executable, also on error; the weight set is retained by it */
    s = naming_file(f->path, hr_executable_create(m, bound, f->set, opts, out));
  }
  if (bound) f->a->free(f->a->ctx, (void *)bound);
  if (!s && f->chunks > 1) s = naming_file(f->path, hr_executable_set_chunks(*out, f->chunks));
  if (!s) s = check_executable(f, *out);
  return s;
}

hr_status hr_executable_open_with(const char *path, const hr_artifact_options *ao, const hr_exec_options *opts,
                                  hr_executable **out) {
  if (!out) return hr_error(HR_INVALID_ARGUMENT, "hr_executable_open: `out` is NULL");
  *out = NULL;
  if (!path) return hr_error(HR_INVALID_ARGUMENT, "hr_executable_open: `path` is NULL");
  af_file f;
  hr_executable *e = NULL;
  hr_status s = load(&f, path, ao, opts, HR_ARTIFACT_KIND_EXECUTABLE);
  if (!s) s = build_executable(&f, opts, &e);
  if (s) hr_executable_free(e);
  af_close(&f);
  if (!s) *out = e;
  return s;
}

hr_status hr_executable_open(const char *path, const hr_exec_options *opts, hr_executable **out) {
  return hr_executable_open_with(path, NULL, opts, out);
}

/* Artifact files (artifact/artifact.c, docs/artifact-format.md): programs and executables written
 * and opened again run identically; the metadata holds what the specification says; weights are
 * used in place from the file mapping, 64-byte aligned; and damaged files of every kind —
 * truncated, flipped bytes, bad header fields, sections or tensors out of place, malformed or
 * mismatched metadata, bad program text — are rejected with an error naming the file, mapped or
 * copied alike. A copied file can be truncated or rewritten while its program runs; huge, sparse,
 * changing or cancelled files are refused before (or while) their bulk is read. */
#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "artifact/artifact_internal.h"
#include "base/crc.h"
#include "base/file.h"
#include "base/weights.h"
#include "runtime/exec_internal.h"
#include "runtime/executable.h"
#include "test.h"

/* The directory the tests write into (created by main, removed at the end). */
static char test_dir[64];

/* A dense layer with a dynamic batch dimension: tanh(x @ kernel + bias). Parameters 0 and 1 are
 * weights (named by their key paths), parameter 2 the runtime input. */
static const char *const dense_mlir =
    "func.func public @main(%arg0: tensor<3xf32> {jax.arg_info = \"params['dense']['bias']\"}, "
    "%arg1: tensor<4x3xf32> {jax.arg_info = \"params['dense']['kernel']\"}, "
    "%arg2: tensor<?x4xf32> {jax.arg_info = \"x\"}) -> (tensor<?x3xf32> {jax.result_info = \"['logits']\"}) {\n"
    "  %0 = stablehlo.dot_general %arg2, %arg1, contracting_dims = [1] x [0] : (tensor<?x4xf32>, tensor<4x3xf32>) -> "
    "tensor<?x3xf32>\n"
    "  %1 = stablehlo.get_dimension_size %arg2, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>\n"
    "  %2 = stablehlo.reshape %1 : (tensor<i32>) -> tensor<1xi32>\n"
    "  %c = stablehlo.constant dense<3> : tensor<1xi32>\n"
    "  %3 = stablehlo.concatenate %2, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
    "  %4 = stablehlo.dynamic_broadcast_in_dim %arg0, %3, dims = [1] : (tensor<3xf32>, tensor<2xi32>) -> "
    "tensor<?x3xf32>\n"
    "  %5 = stablehlo.add %0, %4 : tensor<?x3xf32>\n"
    "  %6 = stablehlo.tanh %5 : tensor<?x3xf32>\n"
    "  return %6 : tensor<?x3xf32>\n"
    "}\n";

/* A program without weights. */
static const char *const double_mlir =
    "func.func @main(%a: tensor<5xi32>) -> tensor<5xi32> {\n"
    "  %0 = stablehlo.add %a, %a : tensor<5xi32>\n"
    "  return %0 : tensor<5xi32>\n"
    "}\n";

/* A program with an i1 weight (a mask selecting between the input and its negation). */
static const char *const mask_mlir =
    "func.func @main(%m: tensor<4xi1> {jax.arg_info = \"params['mask']\"}, %x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.negate %x : tensor<4xf32>\n"
    "  %1 = stablehlo.select %m, %x, %0 : tensor<4xi1>, tensor<4xf32>\n"
    "  return %1 : tensor<4xf32>\n"
    "}\n";

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

static void path_in(char *buf, size_t cap, const char *name) { snprintf(buf, cap, "%s/%s", test_dir, name); }

static void free_backing(void *data, size_t len) {
  (void)len;
  free(data);
}

/* The weights of dense_mlir in a heap-backed set: bias {0.5, -1, 2}, kernel i/4 - 1. */
static hr_weights *dense_weights(void) {
  float *buf = malloc(15 * sizeof(float));
  if (!buf) return NULL;
  buf[0] = 0.5f, buf[1] = -1.0f, buf[2] = 2.0f;
  for (int i = 0; i < 12; i++) buf[3 + i] = (float)i / 4.0f - 1.0f;
  hr_weights *w = NULL;
  CHECK_OK(hr_weights_create(NULL, 2, buf, 15 * sizeof(float), free_backing, &w));
  if (!w) return NULL;
  hr_shape bias = {1, {3}}, kernel = {2, {4, 3}};
  CHECK_OK(hr_weights_add(w, "dense.bias", HR_F32, &bias, buf, 3 * sizeof(float)));
  CHECK_OK(hr_weights_add(w, "dense.kernel", HR_F32, &kernel, buf + 3, 12 * sizeof(float)));
  return w;
}

/* A program from `text`, with dense_weights() when `with_weights`. */
static hr_program *make_program(const char *text, bool with_weights) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("test.mlir", text, strlen(text), NULL, &m));
  if (!m) return NULL;
  hr_program *p = NULL;
  CHECK_OK(hr_program_create(m, NULL, with_weights ? dense_weights() : NULL, NULL, &p));
  return p;
}

/* An f32 tensor of `rows` x 4 deterministic values. */
static hr_tensor *dense_input(int rows) {
  hr_shape s = {2, {rows, 4}};
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &s, 0, &t));
  for (int i = 0; t && i < rows * 4; i++) ((float *)t->data)[i] = (float)((i * 7) % 9) / 3.0f - 1.0f;
  return t;
}

static bool tensors_identical(const hr_tensor *a, const hr_tensor *b) {
  if (a->dtype != b->dtype || a->shape.rank != b->shape.rank || a->nbytes != b->nbytes) return false;
  for (int i = 0; i < a->shape.rank; i++)
    if (a->shape.dims[i] != b->shape.dims[i]) return false;
  return memcmp(a->data, b->data, a->nbytes) == 0;
}

/* Checks that two result lists are identical, bit for bit. */
static void check_same_outputs(hr_tensor **a, int na, hr_tensor **b, int nb) {
  CHECK_EQ_INT(na, nb);
  for (int i = 0; a && b && i < na && i < nb; i++) CHECK(tensors_identical(a[i], b[i]));
}

/* Runs two executables on the same input and checks that they agree. */
static void check_executables_agree(hr_executable *a, hr_executable *b, hr_tensor *input) {
  hr_tensor **ra = NULL, **rb = NULL;
  int na = 0, nb = 0;
  CHECK_OK(hr_executable_run(a, &input, 1, &ra, &na));
  CHECK_OK(hr_executable_run(b, &input, 1, &rb, &nb));
  check_same_outputs(ra, na, rb, nb);
  hr_tensors_free(ra, na);
  hr_tensors_free(rb, nb);
}

/* Runs two programs on the same input and checks that they agree. */
static void check_programs_agree(hr_program *a, hr_program *b, hr_tensor *input) {
  hr_tensor **ra = NULL, **rb = NULL;
  int na = 0, nb = 0;
  CHECK_OK(hr_program_run(a, &input, 1, &ra, &na));
  CHECK_OK(hr_program_run(b, &input, 1, &rb, &nb));
  check_same_outputs(ra, na, rb, nb);
  hr_tensors_free(ra, na);
  hr_tensors_free(rb, nb);
}

static unsigned char *slurp(const char *path, size_t *len) {
  char *data = NULL;
  *len = 0;
  CHECK_OK(hr_read_file(path, hr_default_allocator(), SIZE_MAX, &data, len));
  return (unsigned char *)data;
}

static void slurp_free(unsigned char *data) { hr_default_allocator()->free(NULL, data); }

static uint64_t get64(const unsigned char *b, int field) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | b[field + i];
  return v;
}

static void put64(unsigned char *b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; i++) b[at + (size_t)i] = (unsigned char)(v >> (8 * i));
}

/* Recomputes the trailing CRC-32 after an edit, so that the edit itself is what gets checked. */
static void reseal(unsigned char *b, size_t len) {
  uint32_t crc = hr_crc32(0, b, len - HR_ARTIFACT_TRAILER_SIZE);
  for (int i = 0; i < 4; i++) b[len - 4 + (size_t)i] = (unsigned char)(crc >> (8 * i));
}

/* Opens `path` as a program or an executable with `ao` (NULL: mapped) and frees it again. */
static hr_status open_as(const char *path, bool executable, const hr_artifact_options *ao) {
  hr_status s;
  if (executable) {
    hr_executable *e = NULL;
    s = hr_executable_open_with(path, ao, NULL, &e);
    CHECK(s ? e == NULL : e != NULL);
    hr_executable_free(e);
  } else {
    hr_program *p = NULL;
    s = hr_artifact_open_with(path, ao, NULL, &p);
    CHECK(s ? p == NULL : p != NULL);
    hr_program_free(p);
  }
  return s;
}

/* Writes `b` to a scratch file and opens it as a program or an executable, mapped and copied: both
 * must give the same result, which is returned. */
static hr_status open_bytes(const unsigned char *b, size_t len, bool executable, char *path, size_t cap) {
  path_in(path, cap, "damaged.hlo");
  CHECK_OK(hr_write_file(path, b, len));
  hr_status s = open_as(path, executable, NULL);
  const hr_artifact_options copy = {.copy = true};
  hr_status c = open_as(path, executable, &copy);
  CHECK((s == NULL) == (c == NULL) && (!s || strcmp(hr_status_message(s), hr_status_message(c)) == 0));
  hr_status_free(c);
  return s;
}

/* Checks that opening `b` fails (with `code` unless HR_OK) with a message naming the file and
 * containing `needle` (unless NULL). Returns whether it failed. */
static bool expect_rejected(const unsigned char *b, size_t len, bool executable, hr_code code, const char *needle) {
  char path[128];
  hr_status s = open_bytes(b, len, executable, path, sizeof path);
  CHECK(s != NULL);
  if (!s) return false;
  CHECK_STR_CONTAINS(hr_status_message(s), path);
  if (needle) CHECK_STR_CONTAINS(hr_status_message(s), needle);
  if (code != HR_OK && hr_status_code(s) != code) {
    fprintf(stderr, "expected %s, got %s: %s\n", hr_code_name(code), hr_code_name(hr_status_code(s)),
            hr_status_message(s));
    test_failures_++;
  }
  hr_status_free(s);
  return true;
}

/* Writes the dense program's artifact (or, when `executable`, its executable for 2 rows) and
 * returns the file's bytes. */
static unsigned char *dense_file(bool executable, size_t *len) {
  char path[128];
  path_in(path, sizeof path, executable ? "dense.hlox" : "dense.hlo");
  hr_program *p = make_program(dense_mlir, true);
  *len = 0;
  if (!p) return NULL;
  if (executable) {
    hr_tensor_spec spec = {HR_F32, {2, {2, 4}}};
    hr_executable *e = NULL;
    CHECK_OK(hr_program_compile(p, &spec, 1, &e));
    if (e) CHECK_OK(hr_executable_write(e, path));
    hr_executable_free(e);
  } else {
    CHECK_OK(hr_artifact_write(p, path));
  }
  hr_program_free(p);
  return slurp(path, len);
}

/* The metadata object of a file. */
static json_t *metadata_of(const unsigned char *b) {
  json_error_t err;
  json_t *meta = json_loadb((const char *)b + get64(b, HR_AF_METADATA_OFFSET), get64(b, HR_AF_METADATA_SIZE), 0, &err);
  CHECK(json_is_object(meta));
  return meta;
}

/* Builds a well-formed container (correct header and checksum) from a kind and section
 * contents, laid out as the writer does except for `gap` bytes of 0xAA after the metadata. */
static unsigned char *assemble(uint64_t kind, const char *meta, size_t meta_len, const void *text, size_t text_len,
                               const void *weights, size_t weights_len, size_t gap, size_t *len) {
  size_t program_off = HR_ARTIFACT_HEADER_SIZE + meta_len + gap;
  size_t weights_off = (program_off + text_len + 63) / 64 * 64;
  *len = weights_off + weights_len + HR_ARTIFACT_TRAILER_SIZE;
  unsigned char *b = calloc(1, *len);
  if (!b) return NULL;
  memcpy(b, "HLORUNAF", 8);
  put64(b, HR_AF_VERSION, HR_ARTIFACT_VERSION);
  put64(b, HR_AF_KIND, kind);
  put64(b, HR_AF_FILE_SIZE, *len);
  put64(b, HR_AF_METADATA_OFFSET, HR_ARTIFACT_HEADER_SIZE);
  put64(b, HR_AF_METADATA_SIZE, meta_len);
  put64(b, HR_AF_PROGRAM_OFFSET, program_off);
  put64(b, HR_AF_PROGRAM_SIZE, text_len);
  put64(b, HR_AF_WEIGHTS_OFFSET, weights_off);
  put64(b, HR_AF_WEIGHTS_SIZE, weights_len);
  memcpy(b + HR_ARTIFACT_HEADER_SIZE, meta, meta_len);
  memset(b + HR_ARTIFACT_HEADER_SIZE + meta_len, 0xAA, gap);
  memcpy(b + program_off, text, text_len);
  if (weights_len) memcpy(b + weights_off, weights, weights_len);
  reseal(b, *len);
  return b;
}

/* The file `b` with its metadata replaced by `meta_text` (program and weights kept). */
static unsigned char *with_metadata_text(const unsigned char *b, const char *meta_text, size_t *len) {
  return assemble(get64(b, HR_AF_KIND), meta_text, strlen(meta_text), b + get64(b, HR_AF_PROGRAM_OFFSET),
                  get64(b, HR_AF_PROGRAM_SIZE), b + get64(b, HR_AF_WEIGHTS_OFFSET), get64(b, HR_AF_WEIGHTS_SIZE), 0,
                  len);
}

/* The file `b` with its program text replaced. */
static unsigned char *with_program_text(const unsigned char *b, const char *text, size_t *len) {
  return assemble(get64(b, HR_AF_KIND), (const char *)b + get64(b, HR_AF_METADATA_OFFSET),
                  get64(b, HR_AF_METADATA_SIZE), text, strlen(text), b + get64(b, HR_AF_WEIGHTS_OFFSET),
                  get64(b, HR_AF_WEIGHTS_SIZE), 0, len);
}

/* Sets the member at a dotted path ("weights.0.offset"; numbers index arrays) to `value_json`,
 * or removes it when `value_json` is NULL. */
static void edit_json(json_t *root, const char *path, const char *value_json) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s", path);
  json_t *node = root;
  char *save = NULL, *key = strtok_r(buf, ".", &save);
  for (char *next = strtok_r(NULL, ".", &save); next; key = next, next = strtok_r(NULL, ".", &save))
    node = json_is_array(node) ? json_array_get(node, strtoul(key, NULL, 10)) : json_object_get(node, key);
  json_t *value = value_json ? json_loads(value_json, JSON_DECODE_ANY, NULL) : NULL;
  CHECK(!value_json || value);
  if (json_is_array(node))
    CHECK(json_array_set_new(node, strtoul(key, NULL, 10), value) == 0);
  else if (value)
    CHECK(json_object_set_new(node, key, value) == 0);
  else
    CHECK(json_object_del(node, key) == 0);
}

/* Counts directory entries whose names contain ".tmp." (left-over temporary files). */
static int count_temp_files(void) {
  DIR *d = opendir(test_dir);
  int n = 0;
  for (struct dirent *e = d ? readdir(d) : NULL; e; e = readdir(d)) n += strstr(e->d_name, ".tmp.") != NULL;
  if (d) closedir(d);
  return n;
}

/* Whether `p` lies in a mapping of the file `path` (per /proc/self/maps). */
static bool in_file_mapping(const void *p, const char *path) {
  char want[PATH_MAX];
  if (!realpath(path, want)) return false;
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return false;
  char line[PATH_MAX + 128];
  bool found = false;
  while (!found && fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    int name_at = 0;
    if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &name_at) < 2 || !name_at) continue;
    line[strcspn(line, "\n")] = '\0';
    found = (uintptr_t)p >= lo && (uintptr_t)p < hi && strcmp(line + name_at, want) == 0;
  }
  fclose(f);
  return found;
}

/* ---------------------------------------------------------------------------------------------- */
/* Round trips                                                                                     */
/* ---------------------------------------------------------------------------------------------- */

TEST(program_round_trip) {
  char path[128];
  path_in(path, sizeof path, "dense.hlo");
  hr_program *p = make_program(dense_mlir, true), *q = NULL;
  if (!p) return;
  CHECK_OK(hr_artifact_write(p, path));
  CHECK_OK(hr_artifact_open(path, NULL, &q));
  if (q) {
    CHECK_EQ_INT(hr_program_num_inputs(q), 1);
    CHECK(strcmp(hr_program_input_name(q, 0), "x") == 0);
    hr_tensor_spec in = hr_program_input_spec(q, 0);
    CHECK(in.dtype == HR_F32 && in.shape.rank == 2 && in.shape.dims[0] == HR_DYNAMIC && in.shape.dims[1] == 4);
    CHECK_EQ_INT(hr_program_num_outputs(q), 1);
    for (int rows = 1; rows <= 3; rows += 2) {
      hr_tensor *x = dense_input(rows);
      if (x) check_programs_agree(p, q, x);
      hr_tensor_free(x);
    }
  }
  hr_program_free(q);
  hr_program_free(p);
  CHECK_EQ_INT(count_temp_files(), 0);
}

TEST(program_without_weights) {
  char path[128];
  path_in(path, sizeof path, "double.hlo");
  hr_program *p = make_program(double_mlir, false), *q = NULL;
  if (!p) return;
  CHECK_OK(hr_artifact_write(p, path));
  CHECK_OK(hr_artifact_open(path, NULL, &q));
  hr_shape s = {1, {5}};
  hr_tensor *x = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_I32, &s, 0, &x));
  for (int i = 0; x && i < 5; i++) ((int32_t *)x->data)[i] = i - 2;
  if (q && x) check_programs_agree(p, q, x);
  size_t len;
  unsigned char *b = slurp(path, &len);
  if (b) CHECK_EQ_INT(get64(b, HR_AF_WEIGHTS_SIZE), 0);
  slurp_free(b);
  hr_tensor_free(x);
  hr_program_free(q);
  hr_program_free(p);
}

TEST(executable_round_trip) {
  char path[128];
  path_in(path, sizeof path, "dense.hlox");
  hr_program *p = make_program(dense_mlir, true);
  if (!p) return;
  hr_tensor_spec spec = {HR_F32, {2, {2, 4}}};
  hr_executable *e = NULL, *f = NULL;
  CHECK_OK(hr_program_compile(p, &spec, 1, &e));
  if (e) CHECK_OK(hr_executable_write(e, path));
  CHECK_OK(hr_executable_open(path, NULL, &f));
  hr_tensor *x = dense_input(2);
  if (e && f && x) {
    CHECK_EQ_INT(hr_executable_num_inputs(f), 1);
    hr_tensor_spec in = hr_executable_input_spec(f, 0);
    CHECK(in.dtype == HR_F32 && in.shape.rank == 2 && in.shape.dims[0] == 2 && in.shape.dims[1] == 4);
    hr_tensor **ra = NULL, **rb = NULL;
    int na = 0, nb = 0;
    CHECK_OK(hr_executable_run(e, &x, 1, &ra, &na));
    CHECK_OK(hr_executable_run(f, &x, 1, &rb, &nb));
    check_same_outputs(ra, na, rb, nb);
    hr_tensor **rp = NULL;
    int np = 0;
    CHECK_OK(hr_program_run(p, &x, 1, &rp, &np));
    check_same_outputs(rp, np, rb, nb);
    hr_tensors_free(ra, na);
    hr_tensors_free(rb, nb);
    hr_tensors_free(rp, np);
    /* The bound parameters are used in place from the mapping. */
    for (int param = 0; param < 2; param++) {
      const hr_tensor *t = hr_executable_bound(f, param);
      CHECK(t && (uintptr_t)t->data % HR_ARTIFACT_ALIGN == 0 && in_file_mapping(t->data, path));
    }
    CHECK(hr_executable_bound(f, 2) == NULL);
  }
  hr_tensor_free(x);
  hr_executable_free(f);
  hr_executable_free(e);
  hr_program_free(p);
}

TEST(weights_used_in_place) {
  char path[128];
  path_in(path, sizeof path, "dense.hlo");
  hr_program *p = make_program(dense_mlir, true), *q = NULL;
  if (!p) return;
  CHECK_OK(hr_artifact_write(p, path));
  CHECK_OK(hr_artifact_open(path, NULL, &q));
  const hr_weights *w = q ? hr_program_weights(q) : NULL;
  CHECK(w != NULL);
  if (w) {
    CHECK_EQ_INT(hr_weights_count(w), 2);
    for (int i = 0; i < hr_weights_count(w); i++) {
      const hr_tensor *t = hr_weights_tensor(w, i);
      CHECK((uintptr_t)t->data % HR_ARTIFACT_ALIGN == 0);
      CHECK(in_file_mapping(t->data, path));
      const hr_tensor *orig = hr_weights_find(hr_program_weights(p), hr_weights_name(w, i));
      CHECK(orig && tensors_identical(orig, t));
    }
    CHECK(hr_program_bound(q, 0) && hr_program_bound(q, 0)->data == hr_weights_find(w, "dense.bias")->data);
    CHECK(hr_program_bound(q, 1) && hr_program_bound(q, 1)->data == hr_weights_find(w, "dense.kernel")->data);
    CHECK(hr_program_bound(q, 2) == NULL);
  }
  hr_program_free(q);
  hr_program_free(p);
}

/* ---------------------------------------------------------------------------------------------- */
/* Metadata and layout                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* Checks one {"name", "dtype", "shape"} entry. */
static void check_spec_json(json_t *o, const char *name, const char *dtype, int rank, const int64_t *dims) {
  CHECK(json_is_string(json_object_get(o, "name")) && strcmp(json_string_value(json_object_get(o, "name")), name) == 0);
  CHECK(json_is_string(json_object_get(o, "dtype")) &&
        strcmp(json_string_value(json_object_get(o, "dtype")), dtype) == 0);
  json_t *shape = json_object_get(o, "shape");
  CHECK_EQ_INT(json_array_size(shape), rank);
  for (int i = 0; i < rank; i++) CHECK_EQ_INT(json_integer_value(json_array_get(shape, (size_t)i)), dims[i]);
}

static const char *str_member(json_t *o, const char *key) {
  json_t *v = json_object_get(o, key);
  return json_is_string(v) ? json_string_value(v) : "";
}

TEST(metadata_contents) {
  size_t len;
  unsigned char *b = dense_file(false, &len);
  if (!b) return;
  CHECK(memcmp(b, "HLORUNAF", 8) == 0);
  CHECK_EQ_INT(get64(b, HR_AF_VERSION), HR_ARTIFACT_VERSION);
  CHECK_EQ_INT(get64(b, HR_AF_KIND), HR_ARTIFACT_KIND_PROGRAM);
  CHECK_EQ_INT(get64(b, HR_AF_FILE_SIZE), len);
  CHECK_EQ_INT(get64(b, HR_AF_METADATA_OFFSET), HR_ARTIFACT_HEADER_SIZE);
  CHECK_EQ_INT(get64(b, HR_AF_PROGRAM_OFFSET), HR_ARTIFACT_HEADER_SIZE + get64(b, HR_AF_METADATA_SIZE));
  CHECK_EQ_INT(get64(b, HR_AF_WEIGHTS_OFFSET) % 64, 0);
  CHECK_EQ_INT(get64(b, HR_AF_WEIGHTS_OFFSET) + get64(b, HR_AF_WEIGHTS_SIZE) + 4, len);
  json_t *meta = metadata_of(b);
  CHECK(strcmp(str_member(meta, "format"), "hlorun-artifact") == 0);
  CHECK_EQ_INT(json_integer_value(json_object_get(meta, "format_version")), 1);
  CHECK(strcmp(str_member(meta, "kind"), "program") == 0);
  CHECK(strcmp(str_member(meta, "producer_version"), HLORUN_VERSION_STRING) == 0);
  CHECK(strcmp(str_member(meta, "entry"), "main") == 0);
  json_t *platforms = json_object_get(meta, "platforms");
  CHECK(json_array_size(platforms) == 1 && strcmp(json_string_value(json_array_get(platforms, 0)), "cpu") == 0);
  json_t *inputs = json_object_get(meta, "inputs"), *outputs = json_object_get(meta, "outputs");
  CHECK_EQ_INT(json_array_size(inputs), 1);
  CHECK_EQ_INT(json_array_size(outputs), 1);
  check_spec_json(json_array_get(inputs, 0), "x", "f32", 2, (const int64_t[]){-1, 4});
  check_spec_json(json_array_get(outputs, 0), "['logits']", "f32", 2, (const int64_t[]){-1, 3});
  json_t *weights = json_object_get(meta, "weights");
  CHECK_EQ_INT(json_array_size(weights), 2);
  const char *names[2] = {"dense.bias", "dense.kernel"};
  const int64_t dims[2][2] = {{3}, {4, 3}};
  const float bias[3] = {0.5f, -1.0f, 2.0f};
  for (size_t i = 0; i < 2 && i < json_array_size(weights); i++) {
    json_t *w = json_array_get(weights, i);
    check_spec_json(w, names[i], "f32", (int)i + 1, dims[i]);
    json_int_t offset = json_integer_value(json_object_get(w, "offset"));
    json_int_t size = json_integer_value(json_object_get(w, "size"));
    CHECK_EQ_INT(offset % 64, 0);
    CHECK_EQ_INT(size, i == 0 ? 12 : 48);
    json_t *params = json_object_get(w, "parameters");
    CHECK(json_array_size(params) == 1 && json_integer_value(json_array_get(params, 0)) == (json_int_t)i);
    if (i == 0) CHECK(memcmp(b + get64(b, HR_AF_WEIGHTS_OFFSET) + offset, bias, sizeof bias) == 0);
  }
  /* The program section is the module's text; padding before the weights is zero. */
  const char *text = (const char *)b + get64(b, HR_AF_PROGRAM_OFFSET);
  CHECK(memmem(text, get64(b, HR_AF_PROGRAM_SIZE), "stablehlo.dot_general", 21) != NULL);
  for (uint64_t i = get64(b, HR_AF_PROGRAM_OFFSET) + get64(b, HR_AF_PROGRAM_SIZE); i < get64(b, HR_AF_WEIGHTS_OFFSET);
       i++)
    CHECK(b[i] == 0);
  json_decref(meta);
  slurp_free(b);
}

TEST(executable_metadata) {
  size_t len;
  unsigned char *b = dense_file(true, &len);
  if (!b) return;
  CHECK_EQ_INT(get64(b, HR_AF_KIND), HR_ARTIFACT_KIND_EXECUTABLE);
  json_t *meta = metadata_of(b);
  CHECK(strcmp(str_member(meta, "kind"), "executable") == 0);
  CHECK(strcmp(str_member(meta, "entry"), "main") == 0);
  check_spec_json(json_array_get(json_object_get(meta, "inputs"), 0), "x", "f32", 2, (const int64_t[]){2, 4});
  check_spec_json(json_array_get(json_object_get(meta, "outputs"), 0), "['logits']", "f32", 2, (const int64_t[]){2, 3});
  CHECK_EQ_INT(json_array_size(json_object_get(meta, "weights")), 2);
  json_decref(meta);
  slurp_free(b);
}

/* Bytes between sections are allowed (and covered by the checksum). */
TEST(sections_with_gaps) {
  size_t len;
  unsigned char *b = dense_file(false, &len);
  if (!b) return;
  size_t gapped_len;
  unsigned char *gapped =
      assemble(HR_ARTIFACT_KIND_PROGRAM, (const char *)b + get64(b, HR_AF_METADATA_OFFSET),
               get64(b, HR_AF_METADATA_SIZE), b + get64(b, HR_AF_PROGRAM_OFFSET), get64(b, HR_AF_PROGRAM_SIZE),
               b + get64(b, HR_AF_WEIGHTS_OFFSET), get64(b, HR_AF_WEIGHTS_SIZE), 100, &gapped_len);
  char path[128];
  hr_status s = gapped ? open_bytes(gapped, gapped_len, false, path, sizeof path) : NULL;
  CHECK_OK(s);
  free(gapped);
  slurp_free(b);
}

TEST(kinds_are_not_interchangeable) {
  size_t len;
  unsigned char *b = dense_file(true, &len);
  if (b) expect_rejected(b, len, false, HR_INVALID_ARGUMENT, "executable");
  slurp_free(b);
  b = dense_file(false, &len);
  if (b) expect_rejected(b, len, true, HR_INVALID_ARGUMENT, "program artifact");
  slurp_free(b);
}

/* ---------------------------------------------------------------------------------------------- */
/* Writing                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

TEST(write_is_atomic) {
  hr_program *p = make_program(double_mlir, false);
  if (!p) return;
  char path[128];
  path_in(path, sizeof path, "no-such-dir/x.hlo");
  hr_status s = hr_artifact_write(p, path);
  CHECK(s && hr_status_code(s) == HR_IO_ERROR);
  hr_status_free(s);
  /* Renaming over a directory fails: the temporary file must go away again. */
  path_in(path, sizeof path, "a-directory");
  CHECK(mkdir(path, 0700) == 0);
  s = hr_artifact_write(p, path);
  CHECK(s && hr_status_code(s) == HR_IO_ERROR);
  CHECK_STR_CONTAINS(s ? hr_status_message(s) : NULL, path);
  hr_status_free(s);
  rmdir(path);
  /* Overwriting an existing artifact. */
  path_in(path, sizeof path, "twice.hlo");
  CHECK_OK(hr_artifact_write(p, path));
  CHECK_OK(hr_artifact_write(p, path));
  hr_program *q = NULL;
  CHECK_OK(hr_artifact_open(path, NULL, &q));
  hr_program_free(q);
  CHECK_EQ_INT(count_temp_files(), 0);
  hr_program_free(p);
}

/* ---------------------------------------------------------------------------------------------- */
/* Damaged files                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

TEST(missing_and_empty_files) {
  char path[128];
  path_in(path, sizeof path, "absent.hlo");
  hr_program *p = NULL;
  hr_status s = hr_artifact_open(path, NULL, &p);
  CHECK(s && hr_status_code(s) == HR_NOT_FOUND && p == NULL);
  hr_status_free(s);
  expect_rejected((const unsigned char *)"", 0, false, HR_PARSE_ERROR, "0 bytes is too short for an hlorun artifact");
  expect_rejected((const unsigned char *)"", 0, true, HR_PARSE_ERROR, "0 bytes is too short for an hlorun artifact");
  expect_rejected((const unsigned char *)"HLORUNAF", 8, true, HR_PARSE_ERROR, "8 bytes is too short");
  /* Not regular files: a directory, and a FIFO (which must not block the open). */
  const hr_artifact_options copy = {.copy = true};
  path_in(path, sizeof path, "fifo.hlo");
  CHECK(mkfifo(path, 0600) == 0);
  for (int mode = 0; mode < 2; mode++) {
    s = open_as(path, false, mode ? &copy : NULL);
    CHECK(s && hr_status_code(s) == HR_IO_ERROR);
    CHECK_STR_CONTAINS(s ? hr_status_message(s) : NULL, "fifo.hlo: not a regular file");
    hr_status_free(s);
    s = open_as(test_dir, true, mode ? &copy : NULL);
    CHECK_STR_CONTAINS(s ? hr_status_message(s) : NULL, "not a regular file");
    hr_status_free(s);
  }
  unlink(path);
}

/* Every proper prefix of a valid file is rejected. */
TEST(truncated_files) {
  for (int exe = 0; exe < 2; exe++) {
    size_t len;
    unsigned char *b = dense_file(exe, &len);
    for (size_t cut = 0; b && cut < len; cut += exe ? 7 : 1)
      if (!expect_rejected(b, cut, exe, HR_PARSE_ERROR, NULL)) break;
    slurp_free(b);
  }
}

/* Flipping any single bit is detected (by the header checks or the checksum). */
TEST(flipped_bits) {
  for (int exe = 0; exe < 2; exe++) {
    size_t len;
    unsigned char *b = dense_file(exe, &len);
    for (size_t i = 0; b && i < len; i += exe ? 5 : 1) {
      b[i] ^= (unsigned char)(1u << (i % 8));
      bool rejected = expect_rejected(b, len, exe, HR_OK, NULL);
      b[i] ^= (unsigned char)(1u << (i % 8));
      if (!rejected) break;
    }
    slurp_free(b);
  }
  size_t len;
  unsigned char *b = dense_file(false, &len);
  if (b) {
    b[len - 10] ^= 1; /* weight data */
    expect_rejected(b, len, false, HR_PARSE_ERROR, "checksum mismatch");
  }
  slurp_free(b);
}

/* A header field edit (with the checksum recomputed) and the error it must cause. */
typedef struct header_case {
  int field;
  int64_t delta; /* added to the field's value ... */
  bool absolute; /* ... or, when set, the field's new value */
  hr_code code;
  const char *needle;
} header_case;

TEST(bad_headers) {
  static const header_case cases[] = {
      {HR_AF_VERSION, 2, true, HR_UNIMPLEMENTED, "format version 2 is not supported"},
      {HR_AF_VERSION, 0, true, HR_UNIMPLEMENTED, "format version 0"},
      {HR_AF_KIND, 7, true, HR_PARSE_ERROR, "unknown artifact kind 7"},
      {HR_AF_FILE_SIZE, 1, false, HR_PARSE_ERROR, "truncated"},
      {HR_AF_FILE_SIZE, -1, false, HR_PARSE_ERROR, "trailing data"},
      {HR_AF_METADATA_OFFSET, 0, true, HR_PARSE_ERROR, "metadata section"},
      {HR_AF_METADATA_OFFSET, HR_ARTIFACT_HEADER_SIZE - 1, true, HR_PARSE_ERROR, "metadata section"},
      {HR_AF_METADATA_SIZE, -1, true, HR_PARSE_ERROR, "metadata section"},
      {HR_AF_METADATA_SIZE, 1, false, HR_PARSE_ERROR, "program section"},
      {HR_AF_METADATA_SIZE, -1, false, HR_PARSE_ERROR, "metadata: invalid JSON"},
      {HR_AF_PROGRAM_OFFSET, -1, false, HR_PARSE_ERROR, "program section"},
      {HR_AF_PROGRAM_OFFSET, 0, true, HR_PARSE_ERROR, "program section"},
      {HR_AF_PROGRAM_SIZE, -1, true, HR_PARSE_ERROR, "program section"},
      {HR_AF_PROGRAM_SIZE, 64, false, HR_PARSE_ERROR, "weights section"},
      {HR_AF_WEIGHTS_OFFSET, -64, false, HR_PARSE_ERROR, "weights section"},
      {HR_AF_WEIGHTS_OFFSET, 1, false, HR_PARSE_ERROR, "weights section"},
      {HR_AF_WEIGHTS_OFFSET, 64, false, HR_PARSE_ERROR, "weights section"},
      {HR_AF_WEIGHTS_OFFSET, -1, true, HR_PARSE_ERROR, "weights section"},
      {HR_AF_WEIGHTS_SIZE, 1, false, HR_PARSE_ERROR, "weights section"},
      {HR_AF_WEIGHTS_SIZE, -1, true, HR_PARSE_ERROR, "weights section"},
      {HR_AF_WEIGHTS_SIZE, -64, false, HR_PARSE_ERROR, "extends past the end"},
  };
  size_t len;
  unsigned char *b = dense_file(false, &len);
  if (!b) return;
  unsigned char *copy = malloc(len);
  for (size_t i = 0; copy && i < sizeof cases / sizeof cases[0]; i++) {
    memcpy(copy, b, len);
    uint64_t v = cases[i].absolute ? (uint64_t)cases[i].delta : get64(b, cases[i].field) + (uint64_t)cases[i].delta;
    put64(copy, (size_t)cases[i].field, v);
    reseal(copy, len);
    expect_rejected(copy, len, false, cases[i].code, cases[i].needle);
  }
  if (copy) {
    memcpy(copy, b, len);
    copy[3] = 'X';
    expect_rejected(copy, len, false, HR_PARSE_ERROR, "bad magic");
    free(copy);
  }
  slurp_free(b);
}

/* A metadata edit and the error it must cause (code HR_OK: any code). */
typedef struct meta_case {
  const char *path;       /* dotted path of the member to change */
  const char *value_json; /* its new value, or NULL to remove it */
  hr_code code;
  const char *needle;
} meta_case;

static const meta_case program_meta_cases[] = {
    {"weights.0.offset", "1", HR_PARSE_ERROR, "'dense.bias' at offset 1 is not 64-byte aligned"},
    {"weights.1.offset", "6400", HR_PARSE_ERROR, "tensor 'dense.kernel' (offset 6400, size 48) extends past the end"},
    {"weights.1.offset", "9223372036854775744", HR_PARSE_ERROR, "extends past the end"},
    {"weights.0.size", "16", HR_PARSE_ERROR, "'dense.bias' has 16 bytes but f32 needs 12"},
    {"weights.1.offset", "0", HR_PARSE_ERROR, "tensors 'dense.bias' and 'dense.kernel' overlap"},
    {"weights.0.offset", "-64", HR_PARSE_ERROR, "'offset' is -64"},
    {"weights.0.offset", "\"0\"", HR_PARSE_ERROR, "weights[0]: 'offset' must be an integer"},
    {"weights.0.offset", "0.0", HR_PARSE_ERROR, "'offset' must be an integer"},
    {"weights.0.offset", "1e3", HR_PARSE_ERROR, "'offset' must be an integer"},
    {"weights.0.shape", "[3, -1]", HR_PARSE_ERROR, "weights[0]: shape[1] must be an integer >= 0"},
    {"weights.0.shape", "[3, 4611686018427387904, 4]", HR_OK, "dense.bias"},
    {"weights.0.shape", "3", HR_PARSE_ERROR, "'shape' must be an array"},
    {"weights.0.shape", "[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,3]", HR_PARSE_ERROR, "more than 16"},
    {"weights.0.dtype", "\"f33\"", HR_PARSE_ERROR, "unknown dtype 'f33'"},
    {"weights.0.dtype", "\"f64\"", HR_PARSE_ERROR, "f64 needs 24"},
    {"weights.0.dtype", "null", HR_PARSE_ERROR, "'dtype' must be a string"},
    {"weights.0.parameters", "[]", HR_PARSE_ERROR, "'parameters' is empty"},
    {"weights.0.parameters", "[-1]", HR_PARSE_ERROR, "parameters[0]"},
    {"weights.0.parameters", "[7]", HR_PARSE_ERROR, "bound to parameter 7 but @main has 3"},
    {"weights.0.parameters", "[1]", HR_PARSE_ERROR, "parameter 1 is bound to more than one weight"},
    {"weights.0.parameters", "[0, 2]", HR_PARSE_ERROR, "parameter 2"},
    {"weights.0.parameters", NULL, HR_PARSE_ERROR, "'parameters' must be an array"},
    {"weights.0.name", "5", HR_PARSE_ERROR, "weights[0]: 'name' must be a string"},
    {"weights.0.name", "\"\"", HR_PARSE_ERROR, "'name' must have 1 to"},
    {"weights.0.name", "\"dense.kernel\"", HR_OK, "dense.kernel"},
    {"weights.0.name", "\"dense.other\"", HR_OK, NULL},
    {"weights.0", "[]", HR_PARSE_ERROR, "weights[0]: must be an object"},
    {"weights", "{}", HR_PARSE_ERROR, "'weights' must be an array"},
    {"weights", NULL, HR_PARSE_ERROR, "'weights' must be an array"},
    {"weights", "[]", HR_PARSE_ERROR, "does not match"},
    {"format", "\"other\"", HR_PARSE_ERROR, "'format' is 'other'"},
    {"format_version", "\"1\"", HR_PARSE_ERROR, "'format_version' must be an integer"},
    {"format_version", "2", HR_PARSE_ERROR, "'format_version' is 2"},
    {"kind", "\"executable\"", HR_PARSE_ERROR, "'kind' is 'executable' but the header says program"},
    {"producer_version", "1", HR_PARSE_ERROR, "'producer_version' must be a string"},
    {"platforms", "[\"tpu\"]", HR_UNIMPLEMENTED, "not built for the cpu platform"},
    {"platforms", "[1]", HR_PARSE_ERROR, "platforms: element 0 is not a string"},
    {"platforms", "\"cpu\"", HR_PARSE_ERROR, "'platforms' must be an array"},
    {"entry", "\"nope\"", HR_OK, "nope"},
    {"entry", "[]", HR_PARSE_ERROR, "'entry' must be a string"},
    {"inputs.0.name", "\"y\"", HR_PARSE_ERROR, "input 0 is named 'y' in the metadata but 'x' in the program"},
    {"inputs.0.shape", "[-1, 5]", HR_PARSE_ERROR,
     "input 0 ('x') is tensor<?x5xf32> in the metadata but tensor<?x4xf32>"},
    {"inputs.0.shape", "[-2, 4]", HR_PARSE_ERROR, "shape[0] must be an integer >= -1"},
    {"inputs.0.dtype", "\"f64\"", HR_PARSE_ERROR, "input 0 ('x') is tensor<?x4xf64>"},
    {"inputs", "[]", HR_PARSE_ERROR, "the program has 1 inputs and 1 outputs, the metadata lists 0 and 1"},
    {"inputs.0", "{}", HR_PARSE_ERROR, "inputs[0]: 'name' must be a string"},
    {"outputs.0.shape", "[-1, 3, 1]", HR_PARSE_ERROR, "output 0"},
    {"outputs.0.name", "\"z\"", HR_PARSE_ERROR, "output 0 is named 'z'"},
    {"outputs", NULL, HR_PARSE_ERROR, "'outputs' must be an array"},
};

static const meta_case executable_meta_cases[] = {
    {"inputs.0.shape", "[-1, 4]", HR_PARSE_ERROR, "shape[0] must be an integer >= 0"},
    {"inputs.0.shape", "[3, 4]", HR_PARSE_ERROR,
     "input 0 ('x') is tensor<3x4xf32> in the metadata but tensor<2x4xf32>"},
    {"inputs.0.name", "\"y\"", HR_PARSE_ERROR, "input 0 is named 'y'"},
    {"outputs.0.shape", "[2, 4]", HR_PARSE_ERROR, "output 0"},
    {"outputs", "[]", HR_PARSE_ERROR, "the program has 1 inputs and 1 outputs, the metadata lists 1 and 0"},
    {"weights.0.parameters", "[1]", HR_PARSE_ERROR, "parameter 1 is bound to more than one weight"},
    {"weights.0.parameters", "[2]", HR_PARSE_ERROR,
     "parameter 2 ('dense.bias') is tensor<3xf32> in the metadata but tensor<2x4xf32> in the program"},
    {"weights", "[]", HR_PARSE_ERROR, "the program has 3 inputs and 1 outputs, the metadata lists 1 and 1"},
    {"entry", "\"other\"", HR_PARSE_ERROR, "an executable's 'entry' must be \"main\""},
    {"kind", "\"program\"", HR_PARSE_ERROR, "header says executable"},
    {"weights.1.offset", "128", HR_PARSE_ERROR, "extends past the end"},
};

/* Applies each edit to the metadata of valid file `b` and checks the rejection. */
static void check_meta_edits(const unsigned char *b, bool executable, const meta_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) {
    json_t *meta = metadata_of(b);
    edit_json(meta, cases[i].path, cases[i].value_json);
    char *text = json_dumps(meta, JSON_COMPACT);
    size_t edited_len;
    unsigned char *edited = text ? with_metadata_text(b, text, &edited_len) : NULL;
    if (edited && !expect_rejected(edited, edited_len, executable, cases[i].code, cases[i].needle))
      fprintf(stderr, "  case %s = %s was accepted\n", cases[i].path,
              cases[i].value_json ? cases[i].value_json : "(removed)");
    free(edited);
    free(text);
    json_decref(meta);
  }
}

/* The edits on the dense layer's file (its executable for 2 rows when `executable`). */
static void check_meta_cases(bool executable, const meta_case *cases, size_t n) {
  size_t len;
  unsigned char *b = dense_file(executable, &len);
  if (!b) return;
  check_meta_edits(b, executable, cases, n);
  slurp_free(b);
}

TEST(bad_program_metadata) {
  check_meta_cases(false, program_meta_cases, sizeof program_meta_cases / sizeof program_meta_cases[0]);
}

TEST(bad_executable_metadata) {
  check_meta_cases(true, executable_meta_cases, sizeof executable_meta_cases / sizeof executable_meta_cases[0]);
}

/* An executable in batch chunks (the dense layer at 2^19 rows: 6 MiB of results, so 2 chunks of
 * 2^18) keeps its chunks through a file: whole-batch specs, the part's program, batch_chunks in
 * the metadata, the same results. Edits of batch_chunks are rejected. */
TEST(split_executable_round_trip) {
  char path[128];
  path_in(path, sizeof path, "split.hlox");
  hr_program *p = make_program(dense_mlir, true);
  if (!p) return;
  const int rows = 1 << 19;
  hr_tensor_spec spec = {HR_F32, {2, {rows, 4}}};
  hr_executable *e = NULL, *f = NULL;
  CHECK_OK(hr_program_compile(p, &spec, 1, &e));
  if (e) CHECK_EQ_INT(hr_executable_chunks(e), 2);
  if (e) CHECK_OK(hr_executable_write(e, path));
  CHECK_OK(hr_executable_open(path, NULL, &f));
  hr_tensor *x = dense_input(rows);
  if (e && f && x) {
    CHECK_EQ_INT(hr_executable_chunks(f), 2);
    hr_tensor_spec in = hr_executable_input_spec(f, 0);
    CHECK(hr_spec_equal(&in, &spec));
    const hr_func *fn = hr_module_find_func(hr_executable_module(f), "main");
    CHECK(fn && fn->body.args[2].type.shape.dims[0] == rows / 2);
    check_executables_agree(e, f, x);
  }
  size_t len = 0;
  unsigned char *b = slurp(path, &len);
  json_t *meta = b ? metadata_of(b) : NULL;
  if (meta) CHECK_EQ_INT((int)json_integer_value(json_object_get(meta, "batch_chunks")), 2);
  json_decref(meta);
  static const meta_case cases[] = {
      {"batch_chunks", "1", HR_PARSE_ERROR, "'batch_chunks' is 1, outside [2, "},
      {"batch_chunks", "1073741825", HR_PARSE_ERROR, "'batch_chunks' is 1073741825"},
      {"batch_chunks", "\"2\"", HR_PARSE_ERROR, "'batch_chunks' must be an integer"},
      {"batch_chunks", "4", HR_PARSE_ERROR,
       "input 0 ('x') is tensor<524288x4xf32> in the metadata but tensor<1048576x4xf32> in the program"},
      {"batch_chunks", NULL, HR_PARSE_ERROR, "tensor<524288x4xf32> in the metadata but tensor<262144x4xf32>"},
  };
  if (b) check_meta_edits(b, true, cases, sizeof cases / sizeof cases[0]);
  if (b) slurp_free(b);
  hr_tensor_free(x);
  hr_executable_free(f);
  hr_executable_free(e);
  hr_program_free(p);
  unlink(path);
}

TEST(malformed_metadata_json) {
  static const struct {
    const char *text, *needle;
  } cases[] = {
      {"{", "metadata: invalid JSON"},
      {"[]", "metadata: top level: must be an object"},
      {"{\"format\": \"hlorun-artifact\", \"format\": \"hlorun-artifact\"}", "invalid JSON"},
      {"{} trailing", "invalid JSON"},
      {"{\"format\": \"hlorun-artifact\"}", "'format_version' must be an integer"},
  };
  size_t len;
  unsigned char *b = dense_file(false, &len);
  for (size_t i = 0; b && i < sizeof cases / sizeof cases[0]; i++) {
    size_t edited_len;
    unsigned char *edited = with_metadata_text(b, cases[i].text, &edited_len);
    if (edited) expect_rejected(edited, edited_len, false, HR_PARSE_ERROR, cases[i].needle);
    free(edited);
  }
  slurp_free(b);
}

/* i1 elements must be 0 or 1 in memory: other bytes in the file are rejected. */
TEST(narrow_integer_weights) {
  unsigned char *mask = malloc(4);
  hr_weights *w = NULL;
  if (mask) {
    memcpy(mask, (const unsigned char[]){1, 0, 0, 1}, 4);
    CHECK_OK(hr_weights_create(NULL, 1, mask, 4, free_backing, &w));
  }
  hr_shape s = {1, {4}};
  if (w) CHECK_OK(hr_weights_add(w, "mask", HR_I1, &s, mask, 4));
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("mask.mlir", mask_mlir, strlen(mask_mlir), NULL, &m));
  hr_program *p = NULL, *q = NULL;
  if (m) CHECK_OK(hr_program_create(m, NULL, w, NULL, &p));
  char path[128];
  path_in(path, sizeof path, "mask.hlo");
  if (p) CHECK_OK(hr_artifact_write(p, path));
  CHECK_OK(hr_artifact_open(path, NULL, &q));
  hr_tensor *x = NULL;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &s, 0, &x));
  for (int i = 0; x && i < 4; i++) ((float *)x->data)[i] = (float)i + 1.0f;
  if (p && q && x) check_programs_agree(p, q, x);
  hr_tensor_free(x);
  hr_program_free(q);
  hr_program_free(p);
  size_t len;
  unsigned char *b = slurp(path, &len);
  if (b) {
    b[get64(b, HR_AF_WEIGHTS_OFFSET) + 2] = 2;
    reseal(b, len);
    expect_rejected(b, len, false, HR_PARSE_ERROR, "tensor 'mask' element 2 is 2, outside the i1 range");
  }
  slurp_free(b);
  unlink(path);
}

TEST(bad_program_text) {
  size_t len;
  unsigned char *b = dense_file(false, &len);
  if (!b) return;
  static const char *const texts[] = {
      "func.func @main(",
      "",
      "func.func @main(%a: tensor<5xi32>) -> tensor<5xi32> {\n  return %a : tensor<5xi32>\n}\n",
  };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    size_t edited_len;
    unsigned char *edited = with_program_text(b, texts[i], &edited_len);
    if (edited) expect_rejected(edited, edited_len, false, HR_OK, NULL);
    free(edited);
  }
  size_t edited_len;
  unsigned char *edited = with_program_text(b, texts[0], &edited_len);
  char prefix[160];
  snprintf(prefix, sizeof prefix, "%s/damaged.hlo:program:1:", test_dir);
  if (edited) expect_rejected(edited, edited_len, false, HR_PARSE_ERROR, prefix);
  free(edited);
  slurp_free(b);
}

/* ---------------------------------------------------------------------------------------------- */
/* Reading modes: mapped and copied                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* An allocator over posix_memalign that counts the bytes it has out (programs allocate from
 * several threads) and remembers its largest block. */
typedef struct counting_allocator {
  hr_allocator a;
  atomic_llong live;    /* blocks not yet freed */
  atomic_size_t largest; /* bytes in the largest block */
} counting_allocator;

static void *counting_alloc(void *ctx, size_t size, size_t align) {
  counting_allocator *c = ctx;
  void *p = NULL;
  if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1) != 0) return NULL;
  atomic_fetch_add(&c->live, 1);
  for (size_t l = atomic_load(&c->largest); size > l && !atomic_compare_exchange_weak(&c->largest, &l, size);) {
  }
  return p;
}

static void counting_free(void *ctx, void *p) {
  atomic_fetch_sub(&((counting_allocator *)ctx)->live, 1);
  free(p);
}

static void counting_init(counting_allocator *c) {
  c->a = (hr_allocator){counting_alloc, counting_free, c};
  atomic_init(&c->live, 0);
  atomic_init(&c->largest, 0);
}

/* Rewrites `path` in place (same inode, as `cp` onto it does): truncated, then `len` bytes. */
static void overwrite_in_place(const char *path, const void *data, size_t len) {
  int fd = open(path, O_WRONLY | O_TRUNC);
  CHECK(fd >= 0);
  if (fd < 0) return;
  CHECK(write(fd, data, len) == (ssize_t)len);
  close(fd);
}

/* Copy mode: the weights live in one 64-byte aligned buffer from the caller's allocator, not in a
 * mapping; truncating the file, rewriting it in place and deleting it while the program and the
 * executable are in use changes none of their results. (In mapping mode the same truncation kills
 * the process with SIGBUS at the first compile that reads a weight.) */
TEST(copy_survives_rewrite) {
  char hlo[128], hlox[128];
  path_in(hlo, sizeof hlo, "copied.hlo");
  path_in(hlox, sizeof hlox, "copied.hlox");
  hr_program *p = make_program(dense_mlir, true);
  if (!p) return;
  hr_tensor_spec spec = {HR_F32, {2, {2, 4}}};
  hr_executable *e = NULL;
  CHECK_OK(hr_program_compile(p, &spec, 1, &e));
  CHECK_OK(hr_artifact_write(p, hlo));
  if (e) CHECK_OK(hr_executable_write(e, hlox));
  struct stat st;
  CHECK(stat(hlo, &st) == 0);
  counting_allocator ca;
  counting_init(&ca);
  const hr_exec_options opts = {.allocator = &ca.a};
  const hr_artifact_options copy = {.copy = true};
  hr_program *q = NULL;
  hr_executable *f = NULL;
  CHECK_OK(hr_artifact_open_with(hlo, &copy, &opts, &q));
  CHECK_OK(hr_executable_open_with(hlox, &copy, &opts, &f));
  CHECK(atomic_load(&ca.largest) >= (size_t)st.st_size + HR_ARTIFACT_ALIGN);
  const hr_weights *w = q ? hr_program_weights(q) : NULL;
  for (int i = 0; w && i < hr_weights_count(w); i++) {
    const hr_tensor *t = hr_weights_tensor(w, i);
    CHECK((uintptr_t)t->data % HR_ARTIFACT_ALIGN == 0 && !in_file_mapping(t->data, hlo));
  }
  const hr_tensor *bound = f ? hr_executable_bound(f, 1) : NULL;
  CHECK(bound && (uintptr_t)bound->data % HR_ARTIFACT_ALIGN == 0 && !in_file_mapping(bound->data, hlox));
  /* Truncated to 0, then the program compiles for a first shape (reading its weights). */
  CHECK(truncate(hlo, 0) == 0 && truncate(hlox, 0) == 0);
  hr_tensor *x1 = dense_input(1), *x2 = dense_input(2), *x3 = dense_input(3);
  if (q && x1) check_programs_agree(p, q, x1);
  if (e && f && x2) check_executables_agree(e, f, x2);
  /* Rewritten in place with other bytes, then a second shape. */
  unsigned char junk[4096];
  memset(junk, 0xA5, sizeof junk);
  overwrite_in_place(hlo, junk, sizeof junk);
  overwrite_in_place(hlox, junk, sizeof junk);
  if (q && x3) check_programs_agree(p, q, x3);
  if (e && f && x2) check_executables_agree(e, f, x2);
  /* Deleted. */
  unlink(hlo);
  unlink(hlox);
  if (q && x2) check_programs_agree(p, q, x2);
  hr_tensor_free(x1);
  hr_tensor_free(x2);
  hr_tensor_free(x3);
  hr_program_free(q);
  hr_executable_free(f);
  CHECK_EQ_INT(atomic_load(&ca.live), 0); /* the copies went back to the caller's allocator */
  hr_executable_free(e);
  hr_program_free(p);
}

/* Resident memory of this process in bytes (/proc/self/statm). */
static long long resident_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long long size = 0, resident = 0;
  if (f) {
    CHECK(fscanf(f, "%lld %lld", &size, &resident) == 2);
    fclose(f);
  }
  return resident * sysconf(_SC_PAGESIZE);
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes a sparse file of `file_len` bytes whose header is valid-looking and claims `claimed`
 * bytes (tiny sections at the start, nothing else written). */
static void write_sparse(const char *path, uint64_t claimed, off_t file_len) {
  unsigned char h[HR_ARTIFACT_HEADER_SIZE] = {0};
  memcpy(h, "HLORUNAF", 8);
  put64(h, HR_AF_VERSION, HR_ARTIFACT_VERSION);
  put64(h, HR_AF_KIND, HR_ARTIFACT_KIND_PROGRAM);
  put64(h, HR_AF_FILE_SIZE, claimed);
  put64(h, HR_AF_METADATA_OFFSET, HR_ARTIFACT_HEADER_SIZE);
  put64(h, HR_AF_METADATA_SIZE, 2);
  put64(h, HR_AF_PROGRAM_OFFSET, HR_ARTIFACT_HEADER_SIZE + 2);
  put64(h, HR_AF_WEIGHTS_OFFSET, 128);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  CHECK(fd >= 0);
  if (fd < 0) return;
  CHECK(write(fd, h, sizeof h) == (ssize_t)sizeof h);
  CHECK(ftruncate(fd, file_len) == 0);
  close(fd);
}

/* A 1 TB sparse file is refused from its header alone, mapped or copied, within a moment and
 * without growing the process: above max_file_bytes when the header claims that size, and
 * whatever the bound when the header claims another size. */
TEST(huge_sparse_file_refused) {
  char path[128];
  path_in(path, sizeof path, "sparse.hlo");
  const off_t tb = (off_t)1 << 40;
  static const struct {
    uint64_t claimed;
    size_t max_file_bytes;
    hr_code code;
    const char *needle;
  } cases[] = {
      {(uint64_t)1 << 40, (size_t)64 << 20, HR_RESOURCE_EXHAUSTED,
       "1099511627776 bytes exceed the limit of 67108864 bytes"},
      {4096, 0, HR_PARSE_ERROR, "the header describes 4096 bytes but the file has 1099511627776 (trailing data)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    write_sparse(path, cases[i].claimed, tb);
    for (int mode = 0; mode < 2; mode++) {
      const hr_artifact_options ao = {.max_file_bytes = cases[i].max_file_bytes, .copy = mode == 1};
      long long rss = resident_bytes();
      double t0 = now_seconds();
      hr_status s = open_as(path, false, &ao);
      double elapsed = now_seconds() - t0;
      CHECK(s && hr_status_code(s) == cases[i].code);
      CHECK_STR_CONTAINS(s ? hr_status_message(s) : NULL, path);
      CHECK_STR_CONTAINS(s ? hr_status_message(s) : NULL, cases[i].needle);
      hr_status_free(s);
      CHECK(elapsed < 0.25);
      CHECK(resident_bytes() - rss < (4 << 20));
    }
  }
  unlink(path);
}

/* What a `cancelled` callback does on its first poll (before the first chunk is read). */
typedef enum { GROW, SHRINK, REWRITE } change_kind;

typedef struct change_ctx {
  const char *path;
  change_kind kind;
  const unsigned char *bytes; /* the file's bytes, for REWRITE */
  size_t len;
  int polls;
} change_ctx;

static bool change_on_first_poll(void *arg) {
  change_ctx *c = arg;
  if (c->polls++ == 0) {
    if (c->kind == GROW) {
      int fd = open(c->path, O_WRONLY | O_APPEND);
      CHECK(fd >= 0 && write(fd, "more", 4) == 4);
      if (fd >= 0) close(fd);
    } else if (c->kind == SHRINK) {
      CHECK(truncate(c->path, (off_t)c->len / 2) == 0);
    } else {
      unsigned char *edited = malloc(c->len);
      if (edited) {
        memcpy(edited, c->bytes, c->len);
        edited[c->len - 10] ^= 1; /* weight data */
        overwrite_in_place(c->path, edited, c->len);
      }
      free(edited);
    }
  }
  return false;
}

/* A file that changes while it is being copied is refused: one that grows (its size differs
 * afterwards), one that shrinks (it ends early), one rewritten in place with the same size
 * (caught by its times, or else by the checksum). */
TEST(change_during_copy_detected) {
  size_t len;
  unsigned char *b = dense_file(false, &len);
  if (!b) return;
  char path[128];
  path_in(path, sizeof path, "changing.hlo");
  for (change_kind kind = GROW; kind <= REWRITE; kind++) {
    CHECK_OK(hr_write_file(path, b, len));
    change_ctx ctx = {path, kind, b, len, 0};
    const hr_artifact_options ao = {.copy = true, .cancelled = change_on_first_poll, .cancel_ctx = &ctx};
    hr_status s = open_as(path, false, &ao);
    CHECK(s != NULL && ctx.polls == 1);
    CHECK_STR_CONTAINS(s ? hr_status_message(s) : NULL, path);
    if (kind != REWRITE) {
      CHECK(s && hr_status_code(s) == HR_IO_ERROR);
      CHECK_STR_CONTAINS(s ? hr_status_message(s) : NULL, "changed while being read");
    }
    hr_status_free(s);
  }
  unlink(path);
  slurp_free(b);
}

/* A program with a 12 MiB weight (two chunks of the copy), which it ignores. */
static const char *const big_mlir =
    "func.func @main(%w: tensor<3145728xf32> {jax.arg_info = \"params['w']\"}, %x: tensor<2xf32>) -> tensor<2xf32> {\n"
    "  %0 = stablehlo.add %x, %x : tensor<2xf32>\n"
    "  return %0 : tensor<2xf32>\n"
    "}\n";

/* Cancels on poll number `at` (1: the first), counting polls. */
typedef struct cancel_ctx {
  int at, polls;
} cancel_ctx;

static bool cancel_at(void *arg) {
  cancel_ctx *c = arg;
  return ++c->polls == c->at;
}

/* The callback is polled before each 8 MiB chunk; returning true stops the open with a clear
 * error, and everything allocated so far is released (the sanitizer build checks for leaks). */
TEST(cancelled_copy) {
  const size_t n = 3145728;
  float *data = malloc(n * sizeof(float));
  hr_weights *w = NULL;
  for (size_t i = 0; data && i < n; i++) data[i] = (float)i;
  if (data) CHECK_OK(hr_weights_create(NULL, 1, data, n * sizeof(float), free_backing, &w));
  hr_shape shape = {1, {(int64_t)n}};
  if (w) CHECK_OK(hr_weights_add(w, "w", HR_F32, &shape, data, n * sizeof(float)));
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("big.mlir", big_mlir, strlen(big_mlir), NULL, &m));
  hr_program *p = NULL;
  if (m) CHECK_OK(hr_program_create(m, NULL, w, NULL, &p));
  char path[128];
  path_in(path, sizeof path, "big.hlo");
  if (p) CHECK_OK(hr_artifact_write(p, path));
  hr_program_free(p);
  for (int at = 1; at <= 3; at++) { /* 3: never (two chunks, two polls) */
    cancel_ctx ctx = {at, 0};
    const hr_artifact_options ao = {.copy = true, .cancelled = cancel_at, .cancel_ctx = &ctx};
    hr_status s = open_as(path, false, &ao);
    CHECK_EQ_INT(ctx.polls, at < 3 ? at : 2);
    if (at == 3) {
      CHECK_OK(s);
      continue;
    }
    CHECK(s && hr_status_code(s) == HR_CANCELLED);
    CHECK_STR_CONTAINS(s ? hr_status_message(s) : NULL, path);
    CHECK_STR_CONTAINS(s ? hr_status_message(s) : NULL,
                       at == 1 ? "reading the file was cancelled after 0 of " : "cancelled after 8388608 of ");
    hr_status_free(s);
  }
  unlink(path);
}

int main(void) {
  snprintf(test_dir, sizeof test_dir, "/tmp/hr_artifact_XXXXXX");
  if (!mkdtemp(test_dir)) {
    perror("mkdtemp");
    return 1;
  }
  RUN(program_round_trip);
  RUN(program_without_weights);
  RUN(executable_round_trip);
  RUN(weights_used_in_place);
  RUN(metadata_contents);
  RUN(executable_metadata);
  RUN(sections_with_gaps);
  RUN(kinds_are_not_interchangeable);
  RUN(write_is_atomic);
  RUN(missing_and_empty_files);
  RUN(truncated_files);
  RUN(flipped_bits);
  RUN(bad_headers);
  RUN(bad_program_metadata);
  RUN(bad_executable_metadata);
  RUN(split_executable_round_trip);
  RUN(malformed_metadata_json);
  RUN(narrow_integer_weights);
  RUN(bad_program_text);
  RUN(copy_survives_rewrite);
  RUN(huge_sparse_file_refused);
  RUN(change_during_copy_detected);
  RUN(cancelled_copy);
  static const char *const files[] = {"dense.hlo", "dense.hlox", "double.hlo", "damaged.hlo", "twice.hlo"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    char path[128];
    path_in(path, sizeof path, files[i]);
    unlink(path);
  }
  rmdir(test_dir);
  TEST_MAIN_END();
}

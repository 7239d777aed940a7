/* Backend conformance: every registered backend (backend/backend.h) is checked the same way.
 *   1. The device interface directly: the table (version, every function present), opening by name
 *      ("name", "name:0"; no second instance; unknown names list the known backends), buffers of
 *      several sizes and alignments (aligned, zero-filled, is_host as the backend documents),
 *      importing a host pointer (the CPU uses it in place; the template answers HR_UNIMPLEMENTED),
 *      host -> device -> host round trips at offsets inside a buffer, streams and synchronize, and
 *      that closing the device gives back everything it took from its allocator.
 *   2. The conformance corpus (../shared/conformance/stablehlo-testdata): every program run as an
 *      executable created with hr_exec_options.device = the backend's name, compared bit for bit
 *      with the interpreter, with the policy of tests/runtime/test_executable.c: the programs with
 *      parameters are the shape-polymorphic ones, which executables reject (HR_UNIMPLEMENTED) and
 *      are not compared; every backend must reject exactly the programs the CPU rejects. Prints per
 *      backend the programs compared and passed and how many steps ran on the device's kernels
 *      versus on the host. The template device must have run kernels, with copies in and out.
 *   3. Donation and caller buffers on every backend: tf.aliasing_output and jax.buffer_donor paired
 *      with outputs (hr_executable_donated_output), hr_executable_run_into into fresh buffers and
 *      into the donated inputs' own buffers (same results as hr_executable_run), its refusals, and
 *      device name errors of hr_exec_options.device.
 * Parts 1 and 3 always run; when the corpus is absent, the test then exits 77 (skipped). */
#include <stdint.h>

#include "backend/backend.h"
#include "backend/template/template.h"
#include "corpus.h"
#include "runtime/exec_internal.h"
#include "test.h"
#include "runtime/same_outputs.h"

enum { MAX_BACKENDS = 8, MAX_REPORTS = 20 };

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Checks that `s` failed with `code` and (when `needle` is not NULL) says `needle`; frees it. */
static void check_error(hr_status s, hr_code code, const char *needle) {
  CHECK(s != NULL);
  CHECK_EQ_INT(hr_status_code(s), code);
  if (needle) CHECK_STR_CONTAINS(hr_status_message(s), needle);
  hr_status_free(s);
}

/* An allocator counting the blocks it has handed out and not yet taken back. */
typedef struct counting {
  hr_allocator a;
  int64_t live;
} counting;

static void *counting_alloc(void *ctx, size_t size, size_t align) {
  counting *c = ctx;
  void *p = hr_default_allocator()->alloc(NULL, size, align);
  if (p) c->live++;
  return p;
}

static void counting_free(void *ctx, void *p) {
  counting *c = ctx;
  if (!p) return;
  c->live--;
  hr_default_allocator()->free(NULL, p);
}

static void counting_init(counting *c) { *c = (counting){.a = {counting_alloc, counting_free, c}}; }

/* What a built-in backend documents about its memory (backend.h, cpu_backend.c, template.c). A
 * backend not listed gets the checks that hold for any device. */
typedef struct expectation {
  const char *name;
  bool is_host;        /* its buffers are host memory */
  bool imports_host;   /* buffer_import_host uses host memory in place (else HR_UNIMPLEMENTED) */
  bool checks_ranges;  /* a copy outside its live buffers is an HR_INTERNAL error */
} expectation;

static const expectation known_backends[] = {
    {"cpu", true, true, false},
    {"template", false, false, true},
};

/* The documented behaviour of backend `name`, or NULL when it is not a built-in one. */
static const expectation *expectation_of(const char *name) {
  for (size_t i = 0; i < sizeof known_backends / sizeof known_backends[0]; i++)
    if (strcmp(known_backends[i].name, name) == 0) return &known_backends[i];
  return NULL;
}

/* Byte i of the test pattern number `seed`. */
static unsigned char pattern_byte(size_t i, int seed) { return (unsigned char)(i * 31 + (size_t)seed * 7 + 1); }

/* ---------------------------------------------------------------------------------------------- */
/* 1. The device interface                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* The backend's table: this interface's version, a name, a summary and every function. */
static void check_table(const hr_backend *b) {
  CHECK_EQ_INT(b->api_version, HR_BACKEND_API_VERSION);
  CHECK(b->name && b->name[0] && !strchr(b->name, ':'));
  CHECK(b->summary && b->summary[0]);
  CHECK(b->open && b->close && b->supports && b->buffer_alloc && b->buffer_import_host && b->buffer_free);
  CHECK(b->copy_from_host && b->copy_to_host && b->stream_create && b->stream_free && b->prepare);
  CHECK(b->kernel_scratch_bytes && b->kernel_name && b->run && b->kernel_free && b->synchronize);
}

/* Opening by name: "name" and "name:0" are instance 0; the built-in backends have no instance 1;
 * an instance that is not a number is refused. */
static void check_open_names(const hr_backend *b) {
  char name[64];
  hr_device *d = NULL;
  CHECK_OK(hr_device_open(b->name, NULL, &d));
  if (d) {
    CHECK(d->backend == b);
    CHECK_EQ_INT(d->index, 0);
    CHECK(strcmp(d->name, b->name) == 0);
  }
  hr_device_close(d);
  snprintf(name, sizeof name, "%s:0", b->name);
  d = NULL;
  CHECK_OK(hr_device_open(name, NULL, &d));
  if (d) CHECK(d->backend == b && d->index == 0 && strcmp(d->name, name) == 0);
  hr_device_close(d);
  if (expectation_of(b->name)) {
    snprintf(name, sizeof name, "%s:1", b->name);
    d = NULL;
    check_error(hr_device_open(name, NULL, &d), HR_NOT_FOUND, name);
    CHECK(d == NULL);
  }
  snprintf(name, sizeof name, "%s:x", b->name);
  check_error(hr_device_open(name, NULL, &d), HR_INVALID_ARGUMENT, "instance");
  CHECK(d == NULL);
}

/* Unknown and overlong names; "" is the CPU. */
static void check_registry_names(void) {
  hr_device *d = NULL;
  hr_status s = hr_device_open("nosuch", NULL, &d);
  CHECK(d == NULL);
  CHECK_EQ_INT(hr_status_code(s), HR_NOT_FOUND);
  CHECK_STR_CONTAINS(hr_status_message(s), "device \"nosuch\"");
  for (int i = 0; i < hr_backend_count(); i++) CHECK_STR_CONTAINS(hr_status_message(s), hr_backend_at(i)->name);
  hr_status_free(s);
  char name[HR_DEVICE_NAME_MAX + 1];
  memset(name, 'x', HR_DEVICE_NAME_MAX);
  name[HR_DEVICE_NAME_MAX] = 0;
  check_error(hr_device_open(name, NULL, &d), HR_INVALID_ARGUMENT, "device name");
  CHECK_OK(hr_device_open("", NULL, &d));
  CHECK(d && d->backend == &hr_cpu_backend);
  hr_device_close(d);
  CHECK(hr_backend_at(-1) == NULL && hr_backend_at(hr_backend_count()) == NULL);
}

/* Reads all of buffer `b` into `host` (through the device's copy, then synchronize). */
static void read_buffer(hr_device *d, hr_stream *s, const hr_buffer *b, unsigned char *host) {
  CHECK_OK(d->backend->copy_to_host(d->state, s, host, b->data, b->bytes));
  CHECK_OK(d->backend->synchronize(d->state, s));
}

/* Writes pattern `seed` to [offset, offset + n) of `b`, reads the whole buffer back and checks
 * that exactly that range changed from `before` (the buffer's previous contents, updated). */
static void round_trip(hr_device *d, hr_stream *s, const hr_buffer *b, size_t offset, size_t n, int seed,
                       unsigned char *before) {
  unsigned char *src = malloc(n ? n : 1), *back = malloc(b->bytes);
  if (!src || !back) abort();
  for (size_t i = 0; i < n; i++) src[i] = pattern_byte(i, seed);
  CHECK_OK(d->backend->copy_from_host(d->state, s, (unsigned char *)b->data + offset, src, n));
  CHECK_OK(d->backend->synchronize(d->state, s));
  memcpy(before + offset, src, n);
  read_buffer(d, s, b, back);
  if (memcmp(back, before, b->bytes) != 0) {
    fprintf(stderr, "%s: round trip of %zu bytes at %zu in a buffer of %zu differs\n", d->name, n, offset, b->bytes);
    test_failures_++;
  }
  if (b->is_host) CHECK(memcmp(b->data, before, b->bytes) == 0); /* the host sees the same bytes */
  free(src);
  free(back);
}

/* A buffer of `bytes` aligned to `alignment`: aligned, zero-filled, of the documented kind, and
 * copies to and from it round trip (at its start, inside it, at its very end, and zero bytes). */
static void check_buffer(hr_device *d, hr_stream *s, size_t bytes, size_t alignment, const expectation *want) {
  hr_buffer b = {0};
  CHECK_OK(d->backend->buffer_alloc(d->state, bytes, alignment, &b));
  if (!b.data) return;
  CHECK(b.bytes >= bytes);
  CHECK(b.alignment >= alignment && (b.alignment & (b.alignment - 1)) == 0);
  CHECK((uintptr_t)b.data % b.alignment == 0);
  CHECK(!b.imported);
  if (want) CHECK_EQ_INT(b.is_host, want->is_host);
  unsigned char *shadow = calloc(1, b.bytes), *back = malloc(b.bytes);
  if (!shadow || !back) abort();
  read_buffer(d, s, &b, back);
  CHECK(memcmp(back, shadow, b.bytes) == 0); /* zero-filled */
  round_trip(d, s, &b, 0, b.bytes, 1, shadow);
  round_trip(d, s, &b, b.bytes / 3, b.bytes / 3, 2, shadow);
  round_trip(d, s, &b, b.bytes - 1, 1, 3, shadow);
  round_trip(d, s, &b, b.bytes / 2, 0, 4, shadow);
  free(shadow);
  free(back);
  d->backend->buffer_free(d->state, &b);
}

/* Importing a host pointer: used in place where the backend says so (and then the host memory
 * stays the caller's after the buffer is freed), else HR_UNIMPLEMENTED; any other answer is
 * accepted for an unknown backend only if the buffer then holds the host bytes. */
static void check_import(hr_device *d, hr_stream *s, const expectation *want) {
  enum { N = 256 };
  unsigned char *host = malloc(N), back[N];
  if (!host) abort();
  for (size_t i = 0; i < N; i++) host[i] = pattern_byte(i, 5);
  hr_buffer b = {0};
  hr_status st = d->backend->buffer_import_host(d->state, host, N, &b);
  if (want && !want->imports_host) {
    check_error(st, HR_UNIMPLEMENTED, d->backend->name);
    free(host);
    return;
  }
  if (st && !want && hr_status_code(st) == HR_UNIMPLEMENTED) { /* allowed: the runtime copies */
    hr_status_free(st);
    free(host);
    return;
  }
  CHECK_OK(st);
  CHECK(b.bytes == N && b.imported);
  if (want) CHECK(b.data == host && b.is_host); /* in place */
  CHECK_OK(d->backend->copy_to_host(d->state, s, back, b.data, N));
  CHECK_OK(d->backend->synchronize(d->state, s));
  CHECK(memcmp(back, host, N) == 0);
  unsigned char one = 0xA5;
  CHECK_OK(d->backend->copy_from_host(d->state, s, (unsigned char *)b.data + 7, &one, 1));
  CHECK_OK(d->backend->synchronize(d->state, s));
  if (want) CHECK_EQ_INT(host[7], 0xA5); /* written through to the host memory */
  d->backend->buffer_free(d->state, &b);
  host[0] = 1; /* still the caller's */
  free(host);
}

/* A device with memory of its own refuses copies that do not lie inside one of its live buffers
 * (the template's range checks: a host pointer passed as a device address, a copy past the end). */
static void check_copy_ranges(hr_device *d, hr_stream *s) {
  hr_buffer b = {0};
  unsigned char host[128] = {0};
  CHECK_OK(d->backend->buffer_alloc(d->state, 64, 64, &b));
  if (!b.data) return;
  check_error(d->backend->copy_from_host(d->state, s, host, host + 64, 64), HR_INTERNAL, "not in a buffer");
  check_error(d->backend->copy_to_host(d->state, s, host, (unsigned char *)b.data + 32, 64), HR_INTERNAL,
              "not in a buffer");
  void *gone = b.data;
  d->backend->buffer_free(d->state, &b);
  check_error(d->backend->copy_to_host(d->state, s, host, gone, 1), HR_INTERNAL, "not in a buffer"); /* freed */
}

/* The buffer checks of one backend, on a device whose allocator counts what it has handed out:
 * everything is given back once the buffers are freed and the device closed. */
static void check_device_memory(const hr_backend *b) {
  static const size_t sizes[] = {1, 100, 4096, 70000, (size_t)3 << 20};
  static const size_t alignments[] = {1, 16, 64};
  const expectation *want = expectation_of(b->name);
  counting c;
  counting_init(&c);
  hr_device *d = NULL;
  CHECK_OK(hr_device_open(b->name, &c.a, &d));
  if (!d) return;
  hr_stream *s = NULL;
  CHECK_OK(b->stream_create(d->state, &s));
  for (size_t i = 0; s && i < sizeof sizes / sizeof sizes[0]; i++)
    for (size_t k = 0; k < sizeof alignments / sizeof alignments[0]; k++) check_buffer(d, s, sizes[i], alignments[k], want);
  if (s) check_import(d, s, want);
  if (s && want && want->checks_ranges) check_copy_ranges(d, s);
  if (s) CHECK_OK(b->synchronize(d->state, s));
  b->stream_free(d->state, s);
  hr_device_close(d);
  CHECK_EQ_INT(c.live, 0);
}

TEST(device_interface) {
  check_registry_names();
  for (int i = 0; i < hr_backend_count(); i++) {
    const hr_backend *b = hr_backend_at(i);
    int before = test_failures_;
    check_table(b);
    check_open_names(b);
    check_device_memory(b);
    printf("backend %-9s device interface: %s\n", b->name, test_failures_ == before ? "ok" : "FAILED");
  }
  CHECK(expectation_of(hr_backend_at(0)->name) && hr_backend_at(0) == &hr_cpu_backend); /* listed first */
}

/* ---------------------------------------------------------------------------------------------- */
/* 3. Donation, caller buffers and device names                                                    */
/* ---------------------------------------------------------------------------------------------- */

/* Input 1 (jax.buffer_donor) goes to the first f32[4] output that input 2 (tf.aliasing_output = 0)
 * does not take: output 1; input 0 says jax.buffer_donor = false (else it would take output 1),
 * input 3 is a donor with no output of its spec. Both outputs read both donated inputs, so a result
 * written early into an input's buffer would show. */
static const char *const donate_mlir =
    "func.func @main(%x: tensor<4xf32> {jax.buffer_donor = false}, %b: tensor<4xf32> {jax.buffer_donor = true},\n"
    "                %a: tensor<4xf32> {tf.aliasing_output = 0 : i32}, %k: tensor<4xi32> {jax.buffer_donor = true})\n"
    "    -> (tensor<4xf32>, tensor<4xf32>, tensor<2x2xi32>) {\n"
    "  %0 = stablehlo.add %a, %b : tensor<4xf32>\n"
    "  %1 = stablehlo.multiply %a, %b : tensor<4xf32>\n"
    "  %2 = stablehlo.subtract %1, %x : tensor<4xf32>\n"
    "  %3 = stablehlo.add %k, %k : tensor<4xi32>\n"
    "  %4 = stablehlo.reshape %3 : (tensor<4xi32>) -> tensor<2x2xi32>\n"
    "  return %0, %2, %4 : tensor<4xf32>, tensor<4xf32>, tensor<2x2xi32>\n"
    "}\n";

/* Output 1 returns input 0 unchanged: its buffer cannot also take output 0. */
static const char *const returned_mlir =
    "func.func @main(%a: tensor<4xf32> {tf.aliasing_output = 0 : i32}) -> (tensor<4xf32>, tensor<4xf32>) {\n"
    "  %0 = stablehlo.add %a, %a : tensor<4xf32>\n"
    "  return %0, %a : tensor<4xf32>, tensor<4xf32>\n"
    "}\n";

static hr_module *parse_text(const char *name, const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse(name, text, strlen(text), NULL, &m));
  return m;
}

/* Creates an executable of `text` on device `device`; NULL (reported) on failure. */
static hr_executable *create_on(const char *text, const char *device) {
  hr_module *m = parse_text("donate.mlir", text);
  if (!m) return NULL;
  hr_exec_options eo = {.num_threads = 1};
  snprintf(eo.device, sizeof eo.device, "%s", device);
  hr_executable *e = NULL;
  CHECK_OK(hr_executable_create(m, NULL, NULL, &eo, &e));
  return e;
}

/* A tensor of `spec` holding small distinct values (f32 or i32). */
static hr_tensor *filled(hr_tensor_spec spec, int seed) {
  hr_tensor *t = NULL;
  CHECK_OK(hr_tensor_create(NULL, spec.dtype, &spec.shape, 0, &t));
  for (int64_t i = 0; t && i < hr_tensor_num_elements(t); i++) {
    if (spec.dtype == HR_F32) ((float *)t->data)[i] = 0.75f * (float)(i + 1) + (float)seed;
    if (spec.dtype == HR_I32) ((int32_t *)t->data)[i] = (int32_t)(i * 3 + seed);
  }
  return t;
}

/* Zero-filled tensors, one per output of `e` (the caller's buffers). */
static void make_outputs(const hr_executable *e, hr_tensor **outs) {
  for (int j = 0; j < hr_executable_num_outputs(e); j++) {
    hr_tensor_spec spec = hr_executable_output_spec(e, j);
    outs[j] = NULL;
    CHECK_OK(hr_tensor_create(NULL, spec.dtype, &spec.shape, 0, &outs[j]));
  }
}

/* The pairs of donate_mlir, the same on every device. */
static void check_donated_pairs(const hr_executable *e) {
  CHECK_EQ_INT(hr_executable_donated_output(e, 0), -1);
  CHECK_EQ_INT(hr_executable_donated_output(e, 1), 1);
  CHECK_EQ_INT(hr_executable_donated_output(e, 2), 0);
  CHECK_EQ_INT(hr_executable_donated_output(e, 3), -1);
  CHECK_EQ_INT(hr_executable_donated_output(e, 4), -1);
  CHECK_EQ_INT(hr_executable_donated_output(e, -1), -1);
}

/* run_into writes into caller buffers exactly what run returns, also when the donated inputs'
 * own buffers take their outputs (checked against the interpreter on the original inputs). */
static void check_run_into(const char *device) {
  hr_executable *e = create_on(donate_mlir, device);
  if (!e) return;
  CHECK(strcmp(hr_executable_device(e), device[0] ? device : "cpu") == 0);
  check_donated_pairs(e);
  enum { N_IN = 4, N_OUT = 3 };
  hr_tensor *in[N_IN], *fresh[N_OUT], **want = NULL, **ref = NULL;
  int n_want = 0, n_ref = 0;
  for (int i = 0; i < N_IN; i++) in[i] = filled(hr_executable_input_spec(e, i), i + 1);
  hr_module *m = parse_text("donate.mlir", donate_mlir);
  hr_run_options ro = {.num_threads = 1};
  if (m) CHECK_OK(hr_module_run(m, "main", in, N_IN, &ro, &ref, &n_ref));
  hr_module_free(m);
  CHECK_OK(hr_executable_run(e, in, N_IN, &want, &n_want));
  if (want && ref) check_same_outputs(want, n_want, ref, n_ref, "run vs interpreter");
  make_outputs(e, fresh);
  CHECK_OK(hr_executable_run_into(e, in, N_IN, NULL, fresh, N_OUT));
  if (want) check_same_outputs(fresh, N_OUT, want, n_want, "run_into vs run");
  /* The donated inputs' buffers as their outputs: a (input 2) takes output 0, b (input 1) output 1;
   * each run then updates a and b in place (as a KV cache is), checked against a plain run. */
  hr_tensor *donated[N_OUT] = {in[2], in[1], fresh[2]};
  for (int r = 0; r < 3; r++) {
    hr_tensor **expect = NULL;
    int n_expect = 0;
    CHECK_OK(hr_executable_run(e, in, N_IN, &expect, &n_expect));
    CHECK_OK(hr_executable_run_into(e, in, N_IN, NULL, donated, N_OUT));
    if (expect) check_same_outputs(donated, N_OUT, expect, n_expect, "run_into donated vs run");
    if (r == 0 && expect && want) check_same_outputs(expect, n_expect, want, n_want, "run vs earlier run");
    hr_tensors_free(expect, n_expect);
  }
  hr_tensors_free(want, n_want);
  hr_tensors_free(ref, n_ref);
  for (int j = 0; j < N_OUT; j++) hr_tensor_free(fresh[j]);
  for (int i = 0; i < N_IN; i++) hr_tensor_free(in[i]);
  hr_executable_free(e);
}

/* What run_into refuses: wrong counts, shared or overlapping memory, a returned input's buffer. */
static void check_run_into_refusals(const char *device) {
  hr_executable *e = create_on(donate_mlir, device);
  if (!e) return;
  hr_tensor *in[4], *out[3];
  for (int i = 0; i < 4; i++) in[i] = filled(hr_executable_input_spec(e, i), i);
  make_outputs(e, out);
  check_error(hr_executable_run_into(e, in, 4, NULL, out, 2), HR_INVALID_ARGUMENT, "gives 3 outputs, 2 buffers given");
  hr_tensor *shared[3] = {out[0], out[0], out[2]};
  check_error(hr_executable_run_into(e, in, 4, NULL, shared, 3), HR_INVALID_ARGUMENT, "outputs 0 and 1 share memory");
  /* An output overlapping input 0 (x) without being its buffer: x is the first half of `mem`. */
  float mem[8] = {0};
  hr_tensor x = *in[0], *given_x = &x;
  x.data = mem;
  memcpy(mem, in[0]->data, x.nbytes);
  hr_tensor part = *out[0];
  part.data = mem + 2;
  hr_tensor *overlap[3] = {&part, out[1], out[2]}, *with_x[4] = {given_x, in[1], in[2], in[3]};
  check_error(hr_executable_run_into(e, with_x, 4, NULL, overlap, 3), HR_INVALID_ARGUMENT,
              "output 0 overlaps input 0 without being its buffer");
  hr_executable_free(e);
  for (int i = 0; i < 4; i++) hr_tensor_free(in[i]);
  for (int j = 0; j < 3; j++) hr_tensor_free(out[j]);

  e = create_on(returned_mlir, device);
  if (!e) return;
  CHECK_EQ_INT(hr_executable_donated_output(e, 0), 0);
  hr_tensor *a = filled(hr_executable_input_spec(e, 0), 1), *other = filled(hr_executable_output_spec(e, 1), 0);
  hr_tensor *given[2] = {a, other};
  check_error(hr_executable_run_into(e, &a, 1, NULL, given, 2), HR_INVALID_ARGUMENT,
              "output 0 is given the buffer of input 0, which output 1 returns");
  hr_tensor *back[2] = {other, a}; /* the returned input into its own buffer: nothing to copy */
  float a0 = ((float *)a->data)[0];
  CHECK_OK(hr_executable_run_into(e, &a, 1, NULL, back, 2));
  CHECK(((float *)other->data)[0] == a0 + a0 && ((float *)a->data)[0] == a0);
  hr_tensor_free(a);
  hr_tensor_free(other);
  hr_executable_free(e);
}

/* hr_exec_options.device: unknown names list the known devices; bad instances; NUL termination. */
static void check_exec_device_errors(void) {
  static const struct {
    const char *device;
    hr_code code;
    const char *msg;
  } cases[] = {
      {"nosuch", HR_NOT_FOUND, "device \"nosuch\": no backend of that name (known: cpu, template"},
      {"template:1", HR_NOT_FOUND, "template:1"},
      {"cpu:1", HR_NOT_FOUND, "cpu:1"},
      {"cpu:zero", HR_INVALID_ARGUMENT, "instance"},
  };
  hr_exec_options eo = {.num_threads = 1};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    hr_module *m = parse_text("donate.mlir", returned_mlir);
    if (!m) return;
    snprintf(eo.device, sizeof eo.device, "%s", cases[i].device);
    hr_executable *e = NULL;
    check_error(hr_executable_create(m, NULL, NULL, &eo, &e), cases[i].code, cases[i].msg);
    CHECK(e == NULL);
  }
  hr_module *m = parse_text("donate.mlir", returned_mlir);
  if (!m) return;
  memset(eo.device, 'c', sizeof eo.device); /* no NUL */
  hr_executable *e = NULL;
  check_error(hr_executable_create(m, NULL, NULL, &eo, &e), HR_INVALID_ARGUMENT, "not a NUL-terminated name");
  CHECK(e == NULL);
}

/* On the template device the elementwise ops of donate_mlir run on the device, with copies. */
static void check_template_plan(void) {
  hr_executable *e = create_on(donate_mlir, "template");
  if (!e) return;
  hr_exec_stats st = hr_executable_stats(e);
  CHECK_EQ_INT(st.num_device_steps, 4); /* add, multiply, subtract, add (the reshape is an alias) */
  CHECK_EQ_INT(st.num_copies, 4);       /* a and b (once for both ops), x and k onto the device */
  CHECK(st.device_arena_bytes > 0);
  hr_executable_free(e);
}

/* A device arena over max_arena_bytes is an error naming the parameter copied onto the device
 * (which no op defines), not a crash. */
static void check_device_arena_limit(void) {
  hr_module *m = parse_text("limit.mlir", "func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {\n"
                                          "  %0 = stablehlo.add %a, %b : tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n");
  if (!m) return;
  hr_exec_options eo = {.num_threads = 1, .device = "template", .max_arena_bytes = 64};
  hr_executable *e = NULL;
  check_error(hr_executable_create(m, NULL, NULL, &eo, &e), HR_RESOURCE_EXHAUSTED, "exceeds the limit of 64 bytes");
  CHECK(e == NULL);
}

TEST(donation_and_caller_buffers) {
  check_run_into("");
  check_run_into_refusals("");
  for (int i = 0; i < hr_backend_count(); i++) {
    check_run_into(hr_backend_at(i)->name);
    check_run_into_refusals(hr_backend_at(i)->name);
  }
  check_exec_device_errors();
  check_template_plan();
  check_device_arena_limit();
}

/* ---------------------------------------------------------------------------------------------- */
/* 2. The conformance corpus on every backend                                                      */
/* ---------------------------------------------------------------------------------------------- */

/* One backend's figures over the corpus. */
typedef struct tally {
  const char *name;
  int compared, passed, rejected;
  int steps, device_steps, host_kernel_steps, wrapped_steps, copies, preloaded;
  int programs_on_device;    /* with at least one step on the device's kernels */
  int programs_with_copies;  /* with a step on the device and values copied to it per call */
  int op_steps[HR_OP_COUNT]; /* per op of the op table: steps of it on the device's kernels */
  bool op_seen[HR_OP_COUNT]; /* per op: planned as a step of some program */
  int reports;               /* failures printed */
  double seconds;            /* creating and running its executables */
} tally;

/* Reports a failure of program `name` on the tallied backend (the first MAX_REPORTS of each). */
static void report(tally *t, const char *name, const char *what, hr_status s) {
  if (t->reports++ < MAX_REPORTS)
    fprintf(stderr, "%s on %s: %s%s%s\n", name, t->name, what, s ? ": " : "", s ? hr_status_message(s) : "");
  hr_status_free(s);
}

/* Whether step i of `e` runs on the tallied device's kernels: on the CPU a fast kernel, elsewhere
 * a kernel of that device. */
static bool step_on_device(const tally *t, const hr_executable *e, int i) {
  if (strcmp(t->name, "cpu") != 0) return strcmp(hr_executable_step_device(e, i), t->name) == 0;
  const char *impl = hr_executable_step_impl(e, i);
  static const char *const host_impls[] = {"reference", "wrapped", "alias", "folded"};
  for (size_t k = 0; k < sizeof host_impls / sizeof host_impls[0]; k++)
    if (strcmp(impl, host_impls[k]) == 0) return false;
  return true;
}

/* Adds an executable's plan to the tally: steps on the device's kernels (on the CPU its fast
 * kernels; elsewhere the other device's), steps left on the host, copies. */
static void add_plan(tally *t, const hr_executable *e) {
  hr_exec_stats st = hr_executable_stats(e);
  hr_exec_fast_stats fs = hr_executable_fast_stats(e);
  bool cpu = strcmp(t->name, "cpu") == 0;
  int on_device = cpu ? fs.num_fast_steps : st.num_device_steps;
  t->steps += st.num_steps;
  t->device_steps += on_device;
  t->host_kernel_steps += cpu ? 0 : fs.num_fast_steps - st.num_device_steps;
  t->wrapped_steps += st.num_wrapped_steps;
  t->copies += st.num_copies;
  t->preloaded += st.num_preloaded;
  t->programs_on_device += on_device > 0;
  for (int i = 0; i < hr_executable_num_plan_steps(e); i++) {
    const hr_op *op = hr_executable_step_op(e, i);
    if (!op || op->code >= HR_OP_COUNT) continue;
    t->op_seen[op->code] = true;
    t->op_steps[op->code] += step_on_device(t, e, i);
  }
  t->programs_with_copies += !cpu && on_device > 0 && st.num_copies > 0;
}

/* Runs one corpus program as an executable on the tallied device and compares its outputs with
 * `want` (the interpreter's); returns whether the executable rejected the program. */
static bool compare_on_device(tally *t, const char *path, const char *name, hr_tensor **want, int n_want) {
  hr_module *m = NULL;
  hr_status s = hr_module_parse_file(path, NULL, &m);
  if (s) {
    report(t, name, "parse", s);
    return false;
  }
  double t0 = hr_monotonic_seconds();
  hr_exec_options eo = {.num_threads = 1};
  snprintf(eo.device, sizeof eo.device, "%s", t->name);
  hr_executable *e = NULL;
  s = hr_executable_create(m, NULL, NULL, &eo, &e);
  if (s && hr_status_code(s) == HR_UNIMPLEMENTED) { /* not static: not compared */
    if (want) report(t, name, "a program without parameters (static) rejected", s);
    else hr_status_free(s);
    t->rejected++;
    t->seconds += hr_monotonic_seconds() - t0;
    return true;
  }
  t->compared++;
  hr_tensor **got = NULL;
  int n_got = 0;
  if (s) report(t, name, "create", s);
  if (e) s = hr_executable_run(e, NULL, 0, &got, &n_got);
  t->seconds += hr_monotonic_seconds() - t0;
  if (e && s) report(t, name, "run", s);
  if (!want && e) report(t, name, "the interpreter gave no results to compare", NULL);
  bool same = got && want && n_got == n_want;
  for (int i = 0; same && i < n_got; i++) same = tensors_identical(got[i], want[i]);
  if (got && want && !same) report(t, name, "outputs differ from the interpreter's", NULL);
  t->passed += same;
  if (e) add_plan(t, e);
  hr_tensors_free(got, n_got);
  hr_executable_free(e);
  return false;
}

/* The interpreter's results of a corpus program (NULL for one with parameters: those are the
 * shape-polymorphic programs, which executables reject). */
static hr_tensor **interpret(const char *path, int *n) {
  hr_module *m = NULL;
  hr_tensor **want = NULL;
  *n = 0;
  CHECK_OK(hr_module_parse_file(path, NULL, &m));
  const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
  hr_run_options ro = {.num_threads = 1};
  if (fn && fn->n_args == 0) CHECK_OK(hr_module_run(m, "main", NULL, 0, &ro, &want, n));
  hr_module_free(m);
  return want;
}

/* Prints a backend's line: programs compared and passed, and where the steps ran. */
static void print_tally(const tally *t) {
  printf("backend %-9s corpus: %d compared, %d passed, %d rejected (shape-polymorphic), %.2f s\n", t->name,
         t->compared, t->passed, t->rejected, t->seconds);
  printf("backend %-9s coverage: %d of %d steps on the device's kernels (%d programs), %d on the host "
         "(%d CPU fast kernels, %d wrapped, %d reference); %d copies per call in %d programs, %d preloaded\n",
         t->name, t->device_steps, t->steps, t->programs_on_device, t->steps - t->device_steps, t->host_kernel_steps,
         t->wrapped_steps, t->steps - t->device_steps - t->host_kernel_steps - t->wrapped_steps, t->copies,
         t->programs_with_copies, t->preloaded);
  int seen = 0, covered = 0;
  printf("backend %-9s ops on the device:", t->name);
  for (int op = 0; op < HR_OP_COUNT; op++) {
    seen += t->op_seen[op];
    if (!t->op_steps[op]) continue;
    covered++;
    printf(" %s %d", hr_opcode_name((hr_opcode)op), t->op_steps[op]);
  }
  printf("\nbackend %-9s op table: %d of the %d ops the corpus plans (of %d in the table) run on the device\n",
         t->name, covered, seen, (int)HR_OP_COUNT);
}

/* Every static conformance program on every backend gives the interpreter's results bit for bit;
 * every backend rejects the same (shape-polymorphic) programs. */
static void run_corpus(const corpus *c) {
  int n = hr_backend_count() < MAX_BACKENDS ? hr_backend_count() : MAX_BACKENDS;
  tally t[MAX_BACKENDS];
  for (int k = 0; k < n; k++) t[k] = (tally){.name = hr_backend_at(k)->name};
  int64_t template_runs = hr_template_runs();
  for (int i = 0; i < c->n; i++) {
    const char *name = corpus_name(c->paths[i]);
    int n_want = 0;
    hr_tensor **want = interpret(c->paths[i], &n_want);
    bool rejected_by_cpu = compare_on_device(&t[0], c->paths[i], name, want, n_want);
    for (int k = 1; k < n; k++)
      if (compare_on_device(&t[k], c->paths[i], name, want, n_want) != rejected_by_cpu)
        report(&t[k], name, rejected_by_cpu ? "accepted, the CPU rejects it" : "rejected, the CPU runs it", NULL);
    hr_tensors_free(want, n_want);
  }
  for (int k = 0; k < n; k++) {
    print_tally(&t[k]);
    CHECK(t[k].compared > 1450);
    CHECK(t[k].rejected < 200);
    CHECK_EQ_INT(t[k].passed, t[k].compared);
    CHECK_EQ_INT(t[k].rejected, t[0].rejected);
    CHECK_EQ_INT(t[k].reports, 0);
    if (strcmp(t[k].name, "template") == 0) {
      CHECK(t[k].programs_on_device > 0);
      CHECK(t[k].programs_with_copies > 0);
    }
  }
  printf("template kernels run over the corpus: %lld\n", (long long)(hr_template_runs() - template_runs));
  CHECK(hr_template_runs() - template_runs > 0);
}

static corpus the_corpus;

TEST(conformance_corpus) {
  double t0 = hr_monotonic_seconds();
  run_corpus(&the_corpus);
  printf("corpus of %d programs on %d backends: %.2f s in all\n", the_corpus.n, hr_backend_count(),
         hr_monotonic_seconds() - t0);
}

int main(void) {
  RUN(device_interface);
  RUN(donation_and_caller_buffers);
  if (!corpus_open(&the_corpus)) { /* absent, as in a user's clone: the corpus part is skipped */
    printf("%d passed, %d failed, the corpus part skipped\n", tests_passed_, tests_failed_);
    return tests_failed_ ? 1 : 77;
  }
  RUN(conformance_corpus);
  corpus_close(&the_corpus);
  TEST_MAIN_END();
}

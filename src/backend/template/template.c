/* The template backend: where a new backend starts (backend.h says how to add one), and the device
 * the runtime's device seam is tested with.
 *
 * It is a device with memory of its own: its buffers are host allocations it marks not host
 * (is_host false) and refuses to import host memory, so the runtime must copy every value that
 * crosses to or from it, exactly as for a GPU. Its kernels add, subtract and multiply f32 and i32
 * tensors (i32 wrapping), giving the interpreter's results bit for bit. Each run checks that every
 * operand, result and scratch range lies inside a live buffer of this device: a host pointer handed
 * to a device kernel, the bug a separate memory space turns into a crash, is an HR_INTERNAL error
 * here. Its stream runs work when queued (a real device queues it and synchronize waits); it counts
 * what it ran, which tests read through hr_template_runs().
 *
 * A real backend replaces: the buffer functions (device allocation, pinned or registered host
 * memory for import), the copies (asynchronous on the stream), supports/prepare/run (its kernel
 * library), synchronize (waiting on the stream).
 */
#include <stdint.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/template/template.h"

/* A buffer of the device: a node of the list of live buffers. */
typedef struct tpl_block {
  struct tpl_block *next;
  size_t bytes;
  _Alignas(64) unsigned char data[];
} tpl_block;

typedef struct tpl_state {
  const hr_allocator *allocator;
  tpl_block *blocks; /* live buffers, most recent first */
} tpl_state;

struct hr_stream {
  int64_t runs; /* kernels run on it */
};

/* A prepared kernel: the op and the element count it runs on. */
struct hr_device_kernel {
  hr_opcode code;
  hr_dtype dtype;
  int64_t n;
};

/* Kernels run on every stream of every template device of the process (for tests). */
static _Atomic int64_t template_runs;

int64_t hr_template_runs(void) { return template_runs; }

static hr_status tpl_open(int index, const hr_allocator *allocator, void **state) {
  if (index != 0) return hr_error(HR_NOT_FOUND, "there is one template device, template:0 (asked for template:%d)", index);
  tpl_state *st = allocator->alloc(allocator->ctx, sizeof *st, _Alignof(tpl_state));
  if (!st) return hr_error(HR_OUT_OF_MEMORY, "out of memory opening the template device");
  *st = (tpl_state){.allocator = allocator};
  *state = st;
  return NULL;
}

/* Closing frees what is still allocated (an executable frees its buffers first). */
static void tpl_close(void *state) {
  tpl_state *st = state;
  if (!st) return;
  while (st->blocks) {
    tpl_block *next = st->blocks->next;
    st->allocator->free(st->allocator->ctx, st->blocks);
    st->blocks = next;
  }
  st->allocator->free(st->allocator->ctx, st);
}

/* The ops this device runs: add, subtract and multiply on static f32 or i32 tensors. */
static bool tpl_supports(void *state, const hr_op *op, const hr_tensor *const *operands,
                         const hr_tensor *const *results) {
  (void)state;
  if (op->code != HR_OP_ADD && op->code != HR_OP_SUBTRACT && op->code != HR_OP_MULTIPLY) return false;
  if (op->n_operands != 2 || op->n_results != 1) return false;
  hr_dtype t = results[0]->dtype;
  return (t == HR_F32 || t == HR_I32) && operands[0]->dtype == t && operands[1]->dtype == t &&
         operands[0]->nbytes == results[0]->nbytes && operands[1]->nbytes == results[0]->nbytes;
}

static hr_status tpl_buffer_alloc(void *state, size_t bytes, size_t alignment, hr_buffer *out) {
  tpl_state *st = state;
  if (alignment > 64) return hr_error(HR_UNIMPLEMENTED, "template: buffers are aligned to 64 bytes, %zu asked", alignment);
  if (bytes > SIZE_MAX - sizeof(tpl_block)) return hr_error(HR_OUT_OF_MEMORY, "template: a buffer of %zu bytes", bytes);
  tpl_block *b = st->allocator->alloc(st->allocator->ctx, sizeof *b + (bytes ? bytes : 1), 64);
  if (!b) return hr_error(HR_OUT_OF_MEMORY, "template: cannot allocate a buffer of %zu bytes", bytes);
  b->next = st->blocks;
  b->bytes = bytes;
  memset(b->data, 0, bytes);
  st->blocks = b;
  *out = (hr_buffer){.data = b->data, .bytes = bytes, .alignment = 64, .is_host = false, .handle = b};
  return NULL;
}

static hr_status tpl_buffer_import_host(void *state, void *host, size_t bytes, hr_buffer *out) {
  (void)state, (void)host, (void)out;
  return hr_error(HR_UNIMPLEMENTED, "template: device memory is separate; %zu bytes of host memory cannot be imported",
                  bytes);
}

static void tpl_buffer_free(void *state, hr_buffer *b) {
  tpl_state *st = state;
  for (tpl_block **p = &st->blocks; *p; p = &(*p)->next)
    if (*p == b->handle) {
      tpl_block *dead = *p;
      *p = dead->next;
      st->allocator->free(st->allocator->ctx, dead);
      break;
    }
  *b = (hr_buffer){0};
}

/* Whether [p, p + n) lies inside one live buffer. */
static bool is_device_range(const tpl_state *st, const void *p, size_t n) {
  const unsigned char *c = p;
  for (const tpl_block *b = st->blocks; b; b = b->next)
    if (c >= b->data && c <= b->data + b->bytes && n <= (size_t)(b->data + b->bytes - c)) return true;
  return false;
}

/* An HR_INTERNAL error for `what` not lying in device memory. */
static hr_status not_device_memory(const char *what, size_t n) {
  return hr_error(HR_INTERNAL, "template: %s (%zu bytes) is not in a buffer of this device", what, n);
}

static hr_status tpl_copy_from_host(void *state, hr_stream *s, void *dst, const void *src, size_t n) {
  (void)s;
  if (n && !is_device_range(state, dst, n)) return not_device_memory("the destination of a copy from the host", n);
  if (n) memcpy(dst, src, n);
  return NULL;
}

static hr_status tpl_copy_to_host(void *state, hr_stream *s, void *dst, const void *src, size_t n) {
  (void)s;
  if (n && !is_device_range(state, src, n)) return not_device_memory("the source of a copy to the host", n);
  if (n) memcpy(dst, src, n);
  return NULL;
}

static hr_status tpl_stream_create(void *state, hr_stream **out) {
  tpl_state *st = state;
  *out = st->allocator->alloc(st->allocator->ctx, sizeof **out, _Alignof(hr_stream));
  if (!*out) return hr_error(HR_OUT_OF_MEMORY, "template: out of memory for a stream");
  (*out)->runs = 0;
  return NULL;
}

static void tpl_stream_free(void *state, hr_stream *s) {
  tpl_state *st = state;
  if (s) st->allocator->free(st->allocator->ctx, s);
}

static hr_status tpl_prepare(void *state, const hr_kernel_env *env, const hr_op *op, const hr_tensor *const *operands,
                             const bool *fixed, const hr_tensor *const *results, hr_device_kernel **out) {
  (void)fixed;
  *out = NULL;
  if (!tpl_supports(state, op, operands, results)) return NULL;
  hr_device_kernel *k = env->allocator->alloc(env->allocator->ctx, sizeof *k, _Alignof(hr_device_kernel));
  if (!k) return hr_error(HR_OUT_OF_MEMORY, "template: out of memory preparing a kernel");
  size_t esize = hr_dtype_size(results[0]->dtype);
  *k = (hr_device_kernel){.code = op->code, .dtype = results[0]->dtype, .n = (int64_t)(results[0]->nbytes / esize)};
  *out = k;
  return NULL;
}

static size_t tpl_kernel_scratch_bytes(const hr_device_kernel *k) {
  (void)k;
  return 0;
}

static const char *tpl_kernel_name(const hr_device_kernel *k) { return hr_opcode_name(k->code); }

/* o = x (op) y over n elements of f32. */
static void run_f32(hr_opcode code, const float *x, const float *y, float *o, int64_t n) {
  for (int64_t i = 0; i < n; i++) o[i] = code == HR_OP_ADD ? x[i] + y[i] : code == HR_OP_SUBTRACT ? x[i] - y[i] : x[i] * y[i];
}

/* o = x (op) y over n elements of i32, wrapping (computed unsigned). */
static void run_i32(hr_opcode code, const uint32_t *x, const uint32_t *y, uint32_t *o, int64_t n) {
  for (int64_t i = 0; i < n; i++) o[i] = code == HR_OP_ADD ? x[i] + y[i] : code == HR_OP_SUBTRACT ? x[i] - y[i] : x[i] * y[i];
}

static hr_status tpl_run(void *state, hr_stream *s, const hr_device_kernel *k, hr_tensor *const *operands,
                         hr_tensor *const *results, void *scratch) {
  (void)scratch;
  size_t bytes = (size_t)k->n * hr_dtype_size(k->dtype);
  for (int i = 0; i < 2; i++)
    if (bytes && !is_device_range(state, operands[i]->data, bytes)) return not_device_memory("an operand", bytes);
  if (bytes && !is_device_range(state, results[0]->data, bytes)) return not_device_memory("the result", bytes);
  if (k->dtype == HR_F32)
    run_f32(k->code, operands[0]->data, operands[1]->data, results[0]->data, k->n);
  else
    run_i32(k->code, operands[0]->data, operands[1]->data, results[0]->data, k->n);
  s->runs++;
  template_runs++;
  return NULL;
}

/* Kernels live in the executable's prepared state (freed with it). */
static void tpl_kernel_free(void *state, hr_device_kernel *k) { (void)state, (void)k; }

static hr_status tpl_synchronize(void *state, hr_stream *s) {
  (void)state, (void)s;
  return NULL;
}

const hr_backend hr_template_backend = {
    .api_version = HR_BACKEND_API_VERSION,
    .name = "template",
    .summary = "the template of a new backend: separate memory, f32/i32 add, subtract, multiply",
    .open = tpl_open,
    .close = tpl_close,
    .supports = tpl_supports,
    .buffer_alloc = tpl_buffer_alloc,
    .buffer_import_host = tpl_buffer_import_host,
    .buffer_free = tpl_buffer_free,
    .copy_from_host = tpl_copy_from_host,
    .copy_to_host = tpl_copy_to_host,
    .stream_create = tpl_stream_create,
    .stream_free = tpl_stream_free,
    .prepare = tpl_prepare,
    .kernel_scratch_bytes = tpl_kernel_scratch_bytes,
    .kernel_name = tpl_kernel_name,
    .run = tpl_run,
    .kernel_free = tpl_kernel_free,
    .synchronize = tpl_synchronize,
};

/* The CPU backend: the host as a device (backend.h). Its buffers are host memory, zero-filled and
 * backed by transparent huge pages where large; importing host memory uses it in place; copies are
 * memcpy; its kernels are the fast kernels (fast.h), run at once on the caller's thread and the
 * executable's pool, so a stream orders nothing and synchronizing waits for nothing. Ops without a
 * fast kernel run in the runtime on the interpreter's kernels, on host memory too. */
#include <string.h>

#include "backend/backend.h"
#include "backend/cpu/cpu_features.h"
#include "backend/cpu/fast.h"
#include "base/mapping.h"

#define HUGE_PAGE HR_HUGE_PAGE_BYTES

/* The device's state: the allocator its buffers come from. */
typedef struct cpu_state {
  const hr_allocator *allocator;
} cpu_state;

/* The one stream: work runs when queued. */
struct hr_stream {
  int unused;
};
static hr_stream cpu_stream;

static hr_status cpu_open(int index, const hr_allocator *allocator, void **state) {
  if (index != 0) return hr_error(HR_NOT_FOUND, "there is one CPU device, cpu:0 (asked for cpu:%d)", index);
  cpu_state *st = allocator->alloc(allocator->ctx, sizeof *st, _Alignof(cpu_state));
  if (!st) return hr_error(HR_OUT_OF_MEMORY, "out of memory opening the CPU device");
  st->allocator = allocator;
  *state = st;
  return NULL;
}

static void cpu_close(void *state) {
  cpu_state *st = state;
  if (st) st->allocator->free(st->allocator->ctx, st);
}

/* Fast kernels need AVX-512; which ops have one is settled by preparing. */
static bool cpu_supports(void *state, const hr_op *op, const hr_tensor *const *operands,
                         const hr_tensor *const *results) {
  (void)state, (void)op, (void)operands, (void)results;
  return hr_cpu_avx512_ok();
}

/* A zero-filled buffer. Filling it also maps its pages now, so that the first run costs what later
 * runs do. Buffers of a quarter of a huge page and more take whole huge pages: the few extra bytes
 * cost less than the 4 KiB page faults they save (about 12 us each in a virtual machine). */
static hr_status cpu_buffer_alloc(void *state, size_t n, size_t alignment, hr_buffer *out) {
  cpu_state *st = state;
  if (n == 0) n = alignment;
  size_t bytes = n >= HUGE_PAGE / 4 && n <= SIZE_MAX - HUGE_PAGE ? (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1) : n;
  size_t align = bytes >= HUGE_PAGE && alignment < HUGE_PAGE ? HUGE_PAGE : alignment;
  void *p = st->allocator->alloc(st->allocator->ctx, bytes, align);
  if (!p) return hr_error(HR_OUT_OF_MEMORY, "cpu: cannot allocate a buffer of %zu bytes", n);
  hr_advise_huge_pages(p, bytes);
  memset(p, 0, n);
  *out = (hr_buffer){.data = p, .bytes = n, .alignment = align, .is_host = true, .handle = p};
  return NULL;
}

/* Host memory is the CPU's own: used in place. */
static hr_status cpu_buffer_import_host(void *state, void *host, size_t bytes, hr_buffer *out) {
  (void)state;
  *out = (hr_buffer){.data = host, .bytes = bytes, .alignment = 1, .is_host = true, .imported = true};
  return NULL;
}

static void cpu_buffer_free(void *state, hr_buffer *b) {
  cpu_state *st = state;
  if (b->handle && !b->imported) st->allocator->free(st->allocator->ctx, b->handle);
  *b = (hr_buffer){0};
}

static hr_status cpu_copy(void *state, hr_stream *s, void *dst, const void *src, size_t n) {
  (void)state, (void)s;
  if (n) memcpy(dst, src, n);
  return NULL;
}

static hr_status cpu_stream_create(void *state, hr_stream **out) {
  (void)state;
  *out = &cpu_stream;
  return NULL;
}

static void cpu_stream_free(void *state, hr_stream *s) { (void)state, (void)s; }

static hr_status cpu_prepare(void *state, const hr_kernel_env *env, const hr_op *op, const hr_tensor *const *operands,
                             const bool *fixed, const hr_tensor *const *results, hr_device_kernel **out) {
  (void)state;
  hr_fast_kernel *k = NULL;
  HR_TRY(hr_fast_prepare(env, op, operands, fixed, results, &k));
  *out = (hr_device_kernel *)k;
  return NULL;
}

static size_t cpu_kernel_scratch_bytes(const hr_device_kernel *k) {
  return hr_fast_scratch_bytes((const hr_fast_kernel *)k);
}

static const char *cpu_kernel_name(const hr_device_kernel *k) { return hr_fast_name((const hr_fast_kernel *)k); }

static hr_status cpu_run(void *state, hr_stream *s, const hr_device_kernel *k, hr_tensor *const *operands,
                         hr_tensor *const *results, void *scratch) {
  (void)state, (void)s;
  return hr_fast_run((const hr_fast_kernel *)k, operands, results, scratch);
}

static void cpu_kernel_free(void *state, hr_device_kernel *k) {
  (void)state;
  hr_fast_free((hr_fast_kernel *)k);
}

static hr_status cpu_synchronize(void *state, hr_stream *s) {
  (void)state, (void)s;
  return NULL;
}

const hr_backend hr_cpu_backend = {
    .api_version = HR_BACKEND_API_VERSION,
    .name = "cpu",
    .summary = "the host CPU: AVX-512 fast kernels, the interpreter's kernels for the rest",
    .open = cpu_open,
    .close = cpu_close,
    .supports = cpu_supports,
    .buffer_alloc = cpu_buffer_alloc,
    .buffer_import_host = cpu_buffer_import_host,
    .buffer_free = cpu_buffer_free,
    .copy_from_host = cpu_copy,
    .copy_to_host = cpu_copy,
    .stream_create = cpu_stream_create,
    .stream_free = cpu_stream_free,
    .prepare = cpu_prepare,
    .kernel_scratch_bytes = cpu_kernel_scratch_bytes,
    .kernel_name = cpu_kernel_name,
    .run = cpu_run,
    .kernel_free = cpu_kernel_free,
    .synchronize = cpu_synchronize,
};

/* The device interface: what a backend (a kind of device: "cpu", "template", later "cuda") gives
 * the runtime, and the registry that opens a device by name.
 *
 * A backend is one constant table of functions (hr_backend) written against one version of this
 * interface (api_version): the registry refuses a table of another version, so a backend built
 * against an older header fails to open with a clear error instead of calling through a table of
 * another layout. A device is an opened instance of a backend ("cuda:1" is instance 1 of "cuda").
 *
 * What the runtime asks of a device (runtime/executable.c plans with it):
 *   - supports(op, types): a cheap question, whether this device may run the op with these operand
 *     and result types; the planner then prepares a kernel, which may still decline.
 *   - buffers: allocated with a size and alignment, each saying whether the host may address it
 *     (is_host). The runtime reads or writes a buffer that is not host memory only through the
 *     copies below; a device address is otherwise only passed back to the device's own kernels.
 *   - importing a host pointer: a buffer that uses host memory in place (weights mapped from a
 *     file) when the device can address it; a device that cannot answers HR_UNIMPLEMENTED and the
 *     runtime copies the data instead.
 *   - copies to and from the host on a stream, ordered with the kernels run on that stream.
 *   - prepare/run: a kernel prepared once per op at executable creation (it may keep the data of
 *     fixed operands: weights, constants, packed as it likes) and run per call on a stream, on
 *     operand and result views whose data are device addresses inside this device's buffers,
 *     with scratch memory of the size it asked for (a range of the device's arena).
 *   - synchronize: waits until everything queued on a stream has finished; the runtime calls it
 *     before the host reads what a device wrote.
 * Every function but close, buffer_free, stream_free and kernel_free may fail with an hr_status
 * naming the device and what failed. None of them is called from two threads at once for one
 * device (an executable runs one call at a time).
 *
 * A new backend: copy src/backend/template/ (a device with memory of its own running a few
 * elementwise ops, so that every value crossing to or from it is a real copy), implement the table,
 * add it to the registry in backend.c, and run tests/backend/test_backend_conformance, which runs
 * every registered backend against the interpreter over the conformance corpus.
 */
#ifndef HLORUN_BACKEND_BACKEND_H
#define HLORUN_BACKEND_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "base/threadpool.h"
#include "hlorun/hlorun.h"
#include "ir/ir.h"

/* The version of the table below; a backend sets hr_backend.api_version to it. */
#define HR_BACKEND_API_VERSION 1

/* A queue of work on a device, and a kernel prepared for one op: each backend defines its own. */
typedef struct hr_stream hr_stream;
typedef struct hr_device_kernel hr_device_kernel;

/* A buffer of device memory. */
typedef struct hr_buffer {
  void *data;       /* its first byte: a host pointer when is_host, else a device address */
  size_t bytes;     /* usable bytes from data */
  size_t alignment; /* data is a multiple of it */
  bool is_host;     /* the host may read and write data directly */
  bool imported;    /* wraps host memory the caller owns: freeing it releases only the wrapper */
  void *handle;     /* the backend's own (what it needs to free the buffer) */
} hr_buffer;

/* What the kernels of one executable share on a device. */
typedef struct hr_kernel_env {
  const hr_allocator *allocator; /* for prepared state (packed weights): freed with the executable */
  hr_threadpool *pool;           /* the executable's host thread pool (NULL: serial) */
  bool bf16;                     /* matrix products with bf16 inputs where the device supports them */
} hr_kernel_env;

/* A backend's table of functions; `state` is what open made. */
typedef struct hr_backend {
  int api_version;     /* HR_BACKEND_API_VERSION of the header the backend was built against */
  const char *name;    /* the device name without an instance: "cpu" */
  const char *summary; /* one line for listings */
  /* Opens instance `index` (0 for a name without ":N"); HR_NOT_FOUND when there is no such device
   * on this machine. `allocator` serves the device's host-side bookkeeping. */
  hr_status (*open)(int index, const hr_allocator *allocator, void **state);
  void (*close)(void *state);
  /* Whether the device may run `op` on operands and results of these types (data not valid). */
  bool (*supports)(void *state, const hr_op *op, const hr_tensor *const *operands, const hr_tensor *const *results);
  /* A zero-filled buffer of at least `bytes` (>= 1) bytes aligned to `alignment` (a power of 2). */
  hr_status (*buffer_alloc)(void *state, size_t bytes, size_t alignment, hr_buffer *out);
  /* A buffer using host memory [host, host + bytes) in place; HR_UNIMPLEMENTED when the device
   * cannot address host memory (the caller then allocates and copies). */
  hr_status (*buffer_import_host)(void *state, void *host, size_t bytes, hr_buffer *out);
  void (*buffer_free)(void *state, hr_buffer *b);
  /* Copies n bytes between host memory and a device address inside one of the device's buffers,
   * queued on stream `s` after the work queued before. */
  hr_status (*copy_from_host)(void *state, hr_stream *s, void *device_dst, const void *host_src, size_t n);
  hr_status (*copy_to_host)(void *state, hr_stream *s, void *host_dst, const void *device_src, size_t n);
  hr_status (*stream_create)(void *state, hr_stream **out);
  void (*stream_free)(void *state, hr_stream *s);
  /* Prepares a kernel for `op` when the device has one for it; *out stays NULL when not (not an
   * error). The data of operand i is valid (host memory) only when fixed[i], and may be kept or
   * copied by the kernel. */
  hr_status (*prepare)(void *state, const hr_kernel_env *env, const hr_op *op, const hr_tensor *const *operands,
                       const bool *fixed, const hr_tensor *const *results, hr_device_kernel **out);
  size_t (*kernel_scratch_bytes)(const hr_device_kernel *k); /* device scratch a run needs; may be 0 */
  const char *(*kernel_name)(const hr_device_kernel *k);     /* a short name for profiles */
  /* Queues a run of `k` on `s`: operand and result data are device addresses (host pointers on a
   * host device), `scratch` is kernel_scratch_bytes of device memory (or NULL when 0). */
  hr_status (*run)(void *state, hr_stream *s, const hr_device_kernel *k, hr_tensor *const *operands,
                   hr_tensor *const *results, void *scratch);
  void (*kernel_free)(void *state, hr_device_kernel *k);
  hr_status (*synchronize)(void *state, hr_stream *s);
} hr_backend;

/* An opened device. */
typedef struct hr_device {
  const hr_backend *backend;
  void *state;
  const hr_allocator *allocator; /* what the device struct was allocated with */
  int index;     /* the instance */
  char name[HR_DEVICE_NAME_MAX]; /* "cpu", "cuda:1": as opened */
} hr_device;

/* The longest device name hr_device_open accepts (HR_DEVICE_NAME_MAX in the public header). */
enum { HR_DEVICE_NAME_LEN = HR_DEVICE_NAME_MAX - 1 };

/* The registered backends, in the order listings show them. */
int hr_backend_count(void);
const hr_backend *hr_backend_at(int i);

/* Opens a device by name: "" or "cpu" is the host CPU; "name" or "name:N" instance N of backend
 * `name`. HR_NOT_FOUND, naming the known backends when none is called so, or saying that the
 * backend has no such device on this machine. */
hr_status hr_device_open(const char *name, const hr_allocator *allocator, hr_device **out);
void hr_device_close(hr_device *d);

/* The host CPU backend (backend/cpu/cpu_backend.c): always present, its buffers are host memory,
 * its kernels the fast kernels of backend/cpu/fast.h. */
extern const hr_backend hr_cpu_backend;
/* The template backend (backend/template/template.c): see the file comment above. */
extern const hr_backend hr_template_backend;

#endif

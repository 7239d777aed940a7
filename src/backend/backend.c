/* The backend registry: the backends built in, and opening a device by name ("cpu", "cuda:1"). */
#include "backend/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every backend built in; a new one is added here (see backend.h). */
static const hr_backend *const backends[] = {&hr_cpu_backend, &hr_template_backend};

int hr_backend_count(void) { return (int)(sizeof backends / sizeof backends[0]); }

const hr_backend *hr_backend_at(int i) { return i >= 0 && i < hr_backend_count() ? backends[i] : NULL; }

/* The backend called `name` (the first `len` bytes of it), or NULL. */
static const hr_backend *find_backend(const char *name, size_t len) {
  for (int i = 0; i < hr_backend_count(); i++)
    if (strlen(backends[i]->name) == len && memcmp(backends[i]->name, name, len) == 0) return backends[i];
  return NULL;
}

/* Splits "name" or "name:N" into the name's length and instance N (0..999). */
static hr_status parse_device_name(const char *name, size_t *len, int *index) {
  const char *colon = strchr(name, ':');
  *len = colon ? (size_t)(colon - name) : strlen(name);
  *index = 0;
  if (!colon) return NULL;
  char *end = NULL;
  long n = strtol(colon + 1, &end, 10);
  if (colon[1] < '0' || colon[1] > '9' || *end || n > 999)
    return hr_error(HR_INVALID_ARGUMENT, "device \"%s\": the instance after ':' must be a number from 0 to 999", name);
  *index = (int)n;
  return NULL;
}

/* An HR_NOT_FOUND error for an unknown backend, listing the known ones. */
static hr_status unknown_backend(const char *name) {
  char known[256] = "";
  for (int i = 0; i < hr_backend_count(); i++) {
    size_t used = strlen(known);
    snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", backends[i]->name);
  }
  return hr_error(HR_NOT_FOUND, "device \"%s\": no backend of that name (known: %s)", name, known);
}

hr_status hr_device_open(const char *name, const hr_allocator *allocator, hr_device **out) {
  *out = NULL;
  if (!name || !*name) name = "cpu";
  if (strlen(name) > HR_DEVICE_NAME_LEN)
    return hr_error(HR_INVALID_ARGUMENT, "a device name of %zu characters (at most %d)", strlen(name),
                    HR_DEVICE_NAME_LEN);
  size_t len = 0;
  int index = 0;
  HR_TRY(parse_device_name(name, &len, &index));
  const hr_backend *b = find_backend(name, len);
  if (!b) return unknown_backend(name);
  if (b->api_version != HR_BACKEND_API_VERSION)
    return hr_error(HR_UNIMPLEMENTED, "device \"%s\": its backend implements device interface version %d, this build %d",
                    name, b->api_version, HR_BACKEND_API_VERSION);
  const hr_allocator *a = allocator ? allocator : hr_default_allocator();
  hr_device *d = a->alloc(a->ctx, sizeof *d, _Alignof(hr_device));
  if (!d) return hr_error(HR_OUT_OF_MEMORY, "device \"%s\": out of memory", name);
  *d = (hr_device){.backend = b, .allocator = a, .index = index};
  snprintf(d->name, sizeof d->name, "%s", name);
  hr_status s = b->open(index, a, &d->state);
  if (s) {
    a->free(a->ctx, d);
    return hr_status_wrap(s, "device \"%s\"", name);
  }
  *out = d;
  return NULL;
}

void hr_device_close(hr_device *d) {
  if (!d) return;
  d->backend->close(d->state);
  d->allocator->free(d->allocator->ctx, d);
}

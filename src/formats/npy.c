#include "hlorun/hlorun.h"
hr_status hr_npy_read_file(const char *path, const hr_allocator *a, size_t max_bytes, hr_tensor **out) { (void)path; (void)a; (void)max_bytes; *out = NULL; return hr_error(HR_UNIMPLEMENTED, "npy being written"); }
hr_status hr_npy_read_buffer(const void *buf, size_t len, const hr_allocator *a, size_t max_bytes, hr_tensor **out) { (void)buf; (void)len; (void)a; (void)max_bytes; *out = NULL; return hr_error(HR_UNIMPLEMENTED, "npy being written"); }
hr_status hr_npy_write_file(const char *path, const hr_tensor *t) { (void)path; (void)t; return hr_error(HR_UNIMPLEMENTED, "npy being written"); }

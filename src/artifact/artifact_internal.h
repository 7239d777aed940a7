/* The artifact container's byte layout (docs/artifact-format.md), shared by the reader/writer in
 * artifact.c, its tests and its fuzz target (which patch headers and recompute checksums). */
#ifndef HLORUN_ARTIFACT_ARTIFACT_INTERNAL_H
#define HLORUN_ARTIFACT_ARTIFACT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

enum {
  HR_ARTIFACT_VERSION = 1,         /* the format version this build reads and writes */
  HR_ARTIFACT_KIND_PROGRAM = 1,    /* a program (hlorun export, hr_artifact_write) */
  HR_ARTIFACT_KIND_EXECUTABLE = 2, /* an executable (hlorun compile, hr_executable_write) */
  HR_ARTIFACT_HEADER_SIZE = 80,    /* the fixed header at offset 0 */
  HR_ARTIFACT_TRAILER_SIZE = 4,    /* the CRC-32 at the end of the file */
  HR_ARTIFACT_ALIGN = 64,          /* alignment of the weights section and of every tensor in it */
};

/* Byte offsets of the header fields after the 8-byte magic "HLORUNAF"; each is a little-endian
 * unsigned 64-bit integer. Section offsets are from the start of the file. */
enum hr_artifact_field {
  HR_AF_VERSION = 8,
  HR_AF_KIND = 16,
  HR_AF_FILE_SIZE = 24,
  HR_AF_METADATA_OFFSET = 32,
  HR_AF_METADATA_SIZE = 40,
  HR_AF_PROGRAM_OFFSET = 48,
  HR_AF_PROGRAM_SIZE = 56,
  HR_AF_WEIGHTS_OFFSET = 64,
  HR_AF_WEIGHTS_SIZE = 72,
};

#endif

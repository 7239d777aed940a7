/* The two reflected 32-bit CRCs hlorun's files use: CRC-32 (zlib's polynomial 0xEDB88320; our
 * artifact trailers) and CRC-32C (Castagnoli, 0x82F63B78; OCDBT nodes and manifests, zarr v3's
 * crc32c codec, TensorBundle entries). Both extend `crc` (0 to start) over `len` more bytes. */
#ifndef HLORUN_BASE_CRC_H
#define HLORUN_BASE_CRC_H

#include <stddef.h>
#include <stdint.h>

/* hr_crc32(0, "123456789", 9) == 0xCBF43926. */
uint32_t hr_crc32(uint32_t crc, const void *data, size_t len);
/* hr_crc32c(0, "123456789", 9) == 0xE3069283. */
uint32_t hr_crc32c(uint32_t crc, const void *data, size_t len);

#endif

/* The inverse of hr_module_parse_bytecode: a module written as a StableHLO portable artifact, MLIR
 * bytecode version 6 holding the VHLO dialect at a chosen VHLO version from 1.0 to 1.20 (default
 * 1.8; producer "StableHLO_v1.8.0"), which that StableHLO release and every later one read.
 *
 * Every op becomes the VHLO op version the target has (the one whose range in vhlo_props.c contains
 * it; at 1.8: dot_general_v2, gather_v2, scatter_v2, all_gather_v2, custom_call_v1, exponential_v1),
 * its StableHLO attributes reshaped as VHLO holds them (grouped dimension numbers flattened,
 * array<i64> lists as tensors of si64, symbols as strings, unit flags as booleans) and every
 * attribute VHLO requires that StableHLO leaves out materialized with its default, in the
 * properties-record order of vhlo_props.c. Locations are all UnknownLoc. An op, attribute or type
 * the writer cannot express gives HR_UNIMPLEMENTED naming it, never approximate bytes. */
#ifndef HLORUN_FORMATS_MLIRBC_WRITER_H
#define HLORUN_FORMATS_MLIRBC_WRITER_H

#include "base/strbuf.h"
#include "formats/mlirbc/vhlo_props.h"
#include "ir/ir.h"

/* The VHLO versions written (VHLO_PROPS_VERSION: major * 100 + minor). From 1.0 on every release
 * writes bytecode 6 with properties, as we do (vhlo_props.c's ranges cover 0.15 to 1.20). The
 * default, 1.8, is what earlier hlorun releases wrote: newer than dot_general_v2 (1.6) and tan (1.4),
 * older than the result_accuracy ops (1.9), so a file stays readable by StableHLO 1.8 and later. */
#define HR_BC_VERSION_MIN VHLO_PROPS_VERSION(1, 0)
#define HR_BC_VERSION_MAX VHLO_PROPS_VERSION(1, 20)
#define HR_BC_VERSION_DEFAULT VHLO_PROPS_VERSION(1, 8)

/* Parses a StableHLO version as users write it ("1.8", "1.8.0") into *out, refusing those outside
 * HR_BC_VERSION_MIN..MAX with the range in the message. */
hr_status hr_bc_parse_version(const char *text, uint16_t *out);
/* Appends the bytecode of `m` at VHLO `version` to `out` (bytes, possibly with NULs: use out->len).
 * An op or attribute the version lacks gives HR_UNIMPLEMENTED naming both. On error `out` may hold a
 * partial file. */
hr_status hr_bc_write_module(const hr_module *m, uint16_t version, hr_strbuf *out);

#endif

/* The inverse of hr_module_parse_bytecode: a module written as a StableHLO portable artifact, MLIR
 * bytecode version 6 holding the VHLO dialect at VHLO 1.8 (producer "StableHLO_v1.8.0").
 *
 * Every op becomes the VHLO op version VHLO 1.8 has (the one whose range in vhlo_props.c contains
 * 1.8: dot_general_v2, gather_v2, scatter_v2, all_gather_v2, custom_call_v1, exponential_v1, ...),
 * its StableHLO attributes reshaped as VHLO holds them (grouped dimension numbers flattened,
 * array<i64> lists as tensors of si64, symbols as strings, unit flags as booleans) and every
 * attribute VHLO requires that StableHLO leaves out materialized with its default, in the
 * properties-record order of vhlo_props.c. Locations are all UnknownLoc. An op, attribute or type
 * the writer cannot express gives HR_UNIMPLEMENTED naming it, never approximate bytes. */
#ifndef HLORUN_FORMATS_MLIRBC_WRITER_H
#define HLORUN_FORMATS_MLIRBC_WRITER_H

#include "base/strbuf.h"
#include "ir/ir.h"

/* Appends the bytecode of `m` to `out` (bytes, possibly with NULs: use out->len). On error `out`
 * may hold a partial file. */
hr_status hr_bc_write_module(const hr_module *m, hr_strbuf *out);

#endif

/* What the properties record of each VHLO op (and of builtin.module) holds, for bytecode version 5
 * and later. There, a registered op keeps its inherent attributes in a record of the properties
 * section rather than in its attribute dictionary (op mask bit 0x40; the dictionary, bit 0x01, keeps
 * only discardable attributes such as `mhlo.frontend_attributes`). For an op whose definition comes
 * from ODS, as every VHLO op's does, MLIR's generated writeProperties writes, in this order:
 *
 *   1. each inherent attribute, sorted by name byte-wise: a required one as an attribute index
 *      varint, an optional or default-valued one as (index << 1 | present);
 *   2. native properties, then operandSegmentSizes / resultSegmentSizes for AttrSized*Segments ops.
 *
 * Every VHLO attribute is a required VHLO_AnyAttr and no VHLO op has native properties or segment
 * sizes, so a VHLO record is exactly `n` plain attribute indices; builtin.module's two attributes
 * are optional, so its record is two (index << 1 | present) varints. An op with no inherent
 * attributes has no record at all (no bit 0x40). VHLO writes records from VHLO 0.15.0 on (bytecode
 * 6); before that (bytecode <= 4) the same attributes are in the dictionary under these names.
 * Shardy's ops (sdy.mesh, sdy.manual_computation, sdy.sharding_constraint) follow the same rules. */
#ifndef HLORUN_FORMATS_MLIRBC_VHLO_PROPS_H
#define HLORUN_FORMATS_MLIRBC_VHLO_PROPS_H

#include <stdbool.h>
#include <stdint.h>

/* A VHLO version as major * 100 + minor (the ops' ranges never name a patch level). */
#define VHLO_PROPS_VERSION(major, minor) ((uint16_t)((major) * 100 + (minor)))
/* `until` of an op still in the current VHLO. */
#define VHLO_PROPS_OPEN ((uint16_t)0xFFFF)

typedef struct vhlo_prop_op {
  const char *op;           /* the full op name: "vhlo.add_v1", "builtin.module" */
  int n;                    /* how many attribute references its record holds (0: no record) */
  const char *const *attrs; /* their names, in record order (NULL when n is 0) */
  bool optional_bits;       /* each reference is (index << 1 | present) rather than an index */
  uint16_t since, until;    /* the VHLO versions that have the op, inclusive (0, OPEN: builtin) */
} vhlo_prop_op;

/* The entry for `full_op_name`, or NULL for an op the table does not know. */
const vhlo_prop_op *vhlo_props_find(const char *full_op_name);

/* The whole table, sorted by op name (strcmp); `*n` receives its length. */
const vhlo_prop_op *vhlo_props_all(int *n);

/* A StableHLO struct attribute that VHLO holds as flat attributes of the op (dimension numbers):
 * the struct's fields (ir.h: hr_struct_info_find) are the VHLO attributes' names. */
typedef struct vhlo_attr_group {
  const char *op;    /* the op's name without dialect and version ("convolution") */
  const char *attr;  /* the StableHLO attribute ("dimension_numbers") */
  const char *strct; /* its struct ("stablehlo.conv") */
} vhlo_attr_group;

/* Every such group, for the reader and the writer; `*n` receives the count. */
const vhlo_attr_group *vhlo_attr_groups(int *n);

#endif

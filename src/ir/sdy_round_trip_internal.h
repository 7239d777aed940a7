/* Shared by the two files of Shardy's round-trip import (sdy_round_trip.c: ops and functions;
 * sdy_round_trip_attrs.c: the strings holding Shardy attributes, the module's meshes). */
#ifndef HLORUN_IR_SDY_ROUND_TRIP_INTERNAL_H
#define HLORUN_IR_SDY_ROUND_TRIP_INTERNAL_H

#include "ir/shardy.h"

/* An INVALID_ARGUMENT error naming `op` (its file, position and name), or the module's file when
 * `op` is NULL. */
hr_status hr_sdyrt_error(const hr_module *m, const hr_op *op, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The OPAQUE attribute the frontend attribute `key` of `op` (the string `s`, "#<prefix>...")
 * spells, without its '#' and with one level of escapes decoded. */
hr_status hr_sdyrt_opaque(hr_module *m, const hr_op *op, const char *key, const hr_attr *s, const char *prefix,
                          hr_attr **out);
/* Checks that OPAQUE `a` (attribute `key` of `op`) is an sdy.sharding_per_value of `n` shardings
 * (temporaries in `scratch`, freed before it returns). */
hr_status hr_sdyrt_check_per_value(hr_module *m, hr_arena *scratch, const hr_op *op, const char *key,
                                   const hr_attr *a, int n);
/* Checks that OPAQUE `a` (attribute `key` of `op`) is an sdy<manual_axes{...}>. */
hr_status hr_sdyrt_check_manual_axes(hr_module *m, const hr_op *op, const char *key, const hr_attr *a);
/* A copy of DICT `dict` (NULL: none) with entry `key` set to `value`, or left out when `value` is
 * NULL; *out is NULL when no entry is left. */
hr_status hr_sdyrt_dict_set(hr_module *m, const hr_attr *dict, const char *key, hr_attr *value, hr_attr **out);
/* A copy of ops into a function of the module (sdy_round_trip.c copies body functions into
 * regions; gspmd_import.c clones the constants a manual region shares with outside code). */
typedef struct hr_sdyrt_cloner {
  hr_module *m;
  hr_func *f;     /* the function the copy belongs to: it numbers the new values */
  hr_value **map; /* by the source's value ids: their copies */
  uint32_t n_map;
} hr_sdyrt_cloner;
/* A copy of `src` in block `dst`: operands read the copies of theirs (an operand with none is read
 * before it is defined: an error), attributes are shared. */
hr_status hr_sdyrt_clone_op(hr_sdyrt_cloner *k, const hr_op *src, hr_block *dst, hr_op **out);
/* The module's meshes from its `mhlo.frontend_attributes = {xla.sdy.meshes = "{...}"}`, appended
 * to those it has (*found: it had the string); the string is then removed from its attributes. */
hr_status hr_sdyrt_import_meshes(hr_module *m, bool *found);
/* Every function's parameter and result attributes in the native form: the strings of
 * `mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<...>"}` as `sdy.sharding`
 * attributes, the GSPMD `mhlo.sharding` strings exported beside them removed. */
hr_status hr_sdyrt_import_func_shardings(hr_module *m);

#endif

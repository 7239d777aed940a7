/* libFuzzer target for StableHLO portable artifacts: any byte string must read or fail cleanly,
 * both through the container reader, whose result must keep bytecode.h's promises (every index in
 * range, every value id below n_values, every entry inside the input; a broken promise traps), and
 * through the whole conversion into a verified module (hr_module_parse_bytecode), which must then
 * keep the writer's promise (fuzz_write.h). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/mlirbc/bytecode.h"
#include "fuzz_write.h"
#include "hlorun/hlorun.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Traps unless `cond` holds. */
static void require(int cond) {
  if (!cond) __builtin_trap();
}

/* Traps unless [p, p + len) lies inside the input. */
static void require_inside(const hr_bc_file *f, const uint8_t *p, size_t len) {
  if (len == 0) return;
  require(p >= f->data && len <= f->len && (size_t)(p - f->data) <= f->len - len);
  volatile uint8_t sink = p[0] ^ p[len - 1]; /* ASan checks both ends */
  (void)sink;
}

static void check_block(const hr_bc_file *f, const hr_bc_block *b, uint32_t n_blocks);

/* One op's indices and value ids, then its regions. */
static void check_op(const hr_bc_file *f, const hr_bc_op *op, uint32_t n_blocks) {
  require(op->name < f->n_opnames && op->loc < f->n_attrs && op->offset < f->len);
  require(op->attrs < (int64_t)f->n_attrs && op->props < (int64_t)f->n_props && op->props_attr < (int64_t)f->n_attrs);
  require(op->n_results <= f->n_values && op->first_result <= f->n_values - op->n_results);
  for (uint32_t i = 0; i < op->n_results; i++) require(op->result_types[i] < f->n_types);
  for (uint32_t i = 0; i < op->n_operands; i++) require(op->operands[i] < f->n_values);
  for (uint32_t i = 0; i < op->n_successors; i++) require(op->successors[i] < n_blocks);
  for (uint32_t r = 0; r < op->n_regions; r++)
    for (uint32_t b = 0; b < op->regions[r].n_blocks; b++)
      check_block(f, &op->regions[r].blocks[b], op->regions[r].n_blocks);
}

/* A block's arguments and ops. */
static void check_block(const hr_bc_file *f, const hr_bc_block *b, uint32_t n_blocks) {
  require(b->n_args <= f->n_values && b->first_arg <= f->n_values - b->n_args);
  for (uint32_t i = 0; i < b->n_args; i++)
    require(b->arg_types[i] < f->n_types && b->arg_locs[i] < (int64_t)f->n_attrs);
  for (uint32_t i = 0; i < b->n_ops; i++) check_op(f, &b->ops[i], n_blocks);
}

/* The tables: names, entries, records and resources point into the input. */
static void check_tables(const hr_bc_file *f) {
  for (uint32_t i = 0; i < f->n_strings; i++) {
    require_inside(f, (const uint8_t *)f->strings[i].data, f->strings[i].len + 1);
    require(f->strings[i].data[f->strings[i].len] == 0);
  }
  for (uint32_t i = 0; i < f->n_opnames; i++) require(f->opnames[i].dialect < f->n_dialects && f->opnames[i].full);
  for (uint32_t i = 0; i < f->n_attrs; i++) require_inside(f, f->attrs[i].data, f->attrs[i].len);
  for (uint32_t i = 0; i < f->n_types; i++) require_inside(f, f->types[i].data, f->types[i].len);
  for (uint32_t i = 0; i < f->n_props; i++) require_inside(f, f->props[i].data, f->props[i].len);
  for (uint32_t i = 0; i < f->n_resources; i++) require_inside(f, f->resources[i].data, f->resources[i].len);
  require(f->first_dialect_resource <= f->n_resources);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a copy of exactly `size` bytes, so that a read past the end is reported */
  uint8_t *copy = malloc(size ? size : 1);
  if (!copy) return 0;
  memcpy(copy, data, size);
  hr_bc_file *f = NULL;
  hr_status s = hr_bc_read("fuzz.mlirbc", copy, size, NULL, &f);
  if (f) {
    check_tables(f);
    check_block(f, &f->top, 1);
    hr_bc_free(f);
  }
  hr_status_free(s);
  hr_module *m = NULL;
  hr_status_free(hr_module_parse_bytecode("fuzz.mlirbc", copy, size, NULL, &m));
  if (m) check_written(m, NULL);
  hr_module_free(m);
  free(copy);
  return 0;
}

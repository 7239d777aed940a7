/*
 * SSA value names, assigned the way MLIR's SSANameState assigns them so that the printed text
 * matches `stablehlo-opt` output:
 *
 *  - a region is numbered completely (its block arguments, then every op's results in order)
 *    before the regions nested in its ops, which all start from the counters reached at the end
 *    of the enclosing region; sibling regions therefore reuse the same numbers and names;
 *  - block arguments are `%argN` (one counter per function), `%iterArg` in stablehlo.while
 *    regions; stablehlo.constant results are `%c` (integer elements) or `%cst`; other results
 *    take the next number, one per op (`%5:2` for two results, used as `%5#1`);
 *  - a name already visible in the region or its ancestors gets a `_N` suffix, N taken from a
 *    counter shared by all names (`%cst`, `%cst_0`, `%c_1`, ...).
 */
#include <stdio.h>
#include <string.h>

#include "base/limits.h"
#include "ir/print_internal.h"

/* The names visible at the current point: an open-addressing hash set whose entries are removed
 * in reverse order of insertion when a region is left (so no probe chain is ever broken). */
typedef struct name_set {
  hr_arena *arena;
  const char **slots; /* cap entries, NULL when free */
  size_t cap;
  const char **stack; /* names in insertion order */
  size_t depth, stack_cap;
} name_set;

/* The numbering state MLIR carries from a region into the regions nested in it. */
typedef struct counters {
  uint32_t value, arg, conflict;
} counters;

typedef struct namer {
  const hr_func *func;
  hr_value_name *names;
  name_set used;
} namer;

static uint64_t hash_name(const char *s) {
  uint64_t h = 1469598103934665603u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

/* The slot holding `s`, or the free slot where it would go. */
static size_t find_slot(const name_set *set, const char *s) {
  size_t i = (size_t)hash_name(s) & (set->cap - 1);
  while (set->slots[i] && strcmp(set->slots[i], s) != 0) i = (i + 1) & (set->cap - 1);
  return i;
}

static bool name_used(const name_set *set, const char *s) {
  return set->slots[find_slot(set, s)] != NULL;
}

/* Doubles the table (re-inserting in insertion order keeps the removal invariant) and the stack. */
static hr_status grow(name_set *set) {
  size_t cap = set->cap ? set->cap * 2 : 64;
  const char **slots = HR_ARENA_ARRAY(set->arena, const char *, cap);
  const char **stack = HR_ARENA_ARRAY(set->arena, const char *, cap / 2);
  if (!slots || !stack) return hr_error(HR_OUT_OF_MEMORY, "out of memory naming values");
  set->slots = slots;
  set->cap = cap;
  set->stack_cap = cap / 2;
  for (size_t i = 0; i < set->depth; i++) {
    stack[i] = set->stack[i];
    slots[find_slot(set, stack[i])] = stack[i];
  }
  set->stack = stack;
  return NULL;
}

static hr_status add_name(name_set *set, const char *s) {
  if (set->depth + 1 > set->stack_cap) HR_TRY(grow(set));
  set->slots[find_slot(set, s)] = s;
  set->stack[set->depth++] = s;
  return NULL;
}

/* Forgets the names added since the set had `mark` of them. */
static void drop_names(name_set *set, size_t mark) {
  while (set->depth > mark) {
    const char *s = set->stack[--set->depth];
    set->slots[find_slot(set, s)] = NULL;
  }
}

/* MLIR's uniqueValueName: `base` if unused, else `base_N` for the first unused N from the shared
 * conflict counter. The chosen name is recorded as used. */
static hr_status unique_name(namer *nm, counters *c, const char *base, const char **out) {
  if (nm->used.cap == 0) HR_TRY(grow(&nm->used));
  size_t len = strlen(base);
  char buf[64];
  if (len + 12 > sizeof buf) return hr_error(HR_INTERNAL, "value name base too long");
  memcpy(buf, base, len + 1);
  while (name_used(&nm->used, buf)) {
    if (c->conflict == UINT32_MAX) return hr_error(HR_RESOURCE_EXHAUSTED, "too many value names");
    snprintf(buf + len, sizeof buf - len, "_%u", c->conflict++);
  }
  char *s = hr_arena_strdup(nm->used.arena, buf);
  if (!s) return hr_error(HR_OUT_OF_MEMORY, "out of memory naming values");
  HR_TRY(add_name(&nm->used, s));
  *out = s;
  return NULL;
}

/* The slot of value `v`, checking that its id is in range and not taken by another value. */
static hr_status claim_slot(namer *nm, const hr_value *v, hr_value_name **slot) {
  if (v->id >= nm->func->n_values)
    return hr_error(HR_INVALID_ARGUMENT, "@%s: value id %u is not below the function's %u values",
                    nm->func->name, v->id, nm->func->n_values);
  hr_value_name *s = &nm->names[v->id];
  if (s->value)
    return hr_error(HR_INVALID_ARGUMENT, "@%s: two values share id %u", nm->func->name, v->id);
  s->value = v;
  *slot = s;
  return NULL;
}

/* Names a block argument `%argN`, or `%iterArg` in a while region. */
static hr_status name_block_arg(namer *nm, counters *c, const hr_value *v, bool in_while) {
  hr_value_name *slot = NULL;
  HR_TRY(claim_slot(nm, v, &slot));
  char base[24];
  if (in_while)
    snprintf(base, sizeof base, "iterArg");
  else
    snprintf(base, sizeof base, "arg%u", c->arg++);
  return unique_name(nm, c, base, &slot->name);
}

/* Names the results of one op (not the values inside its regions). */
static hr_status name_op_results(namer *nm, counters *c, const hr_op *op) {
  if (op->n_results <= 0) return NULL;
  if (!op->results)
    return hr_error(HR_INVALID_ARGUMENT, "%s without its results", hr_opcode_name(op->code));
  hr_value_name *first = NULL;
  HR_TRY(claim_slot(nm, &op->results[0], &first));
  if (op->code == HR_OP_CONSTANT) {
    const hr_type *t = &op->results[0].type;
    bool integer = t->kind == HR_TYPE_TENSOR && t->dtype >= HR_I1 && t->dtype <= HR_U64;
    HR_TRY(unique_name(nm, c, integer ? "c" : "cst", &first->name));
  } else {
    first->number = c->value++;
  }
  for (int i = 1; i < op->n_results; i++) {
    hr_value_name *slot = NULL;
    HR_TRY(claim_slot(nm, &op->results[i], &slot));
    slot->number = first->number;
    slot->name = first->name;
  }
  return NULL;
}

/* Numbers a region (its arguments and ops), then the regions nested in its ops. */
static hr_status name_block(namer *nm, const hr_block *b, counters c, int depth) {
  if (depth > HR_LIMIT_NESTING_DEPTH)
    return hr_error(HR_INVALID_ARGUMENT, "regions nested deeper than %d", HR_LIMIT_NESTING_DEPTH);
  if (b->n_args < 0 || (b->n_args > 0 && !b->args) || b->n_ops < 0 || (b->n_ops > 0 && !b->ops))
    return hr_error(HR_INVALID_ARGUMENT, "@%s: malformed block", nm->func->name);
  bool in_while = b->parent_op && b->parent_op->code == HR_OP_WHILE;
  for (int i = 0; i < b->n_args; i++) HR_TRY(name_block_arg(nm, &c, &b->args[i], in_while));
  for (int i = 0; i < b->n_ops; i++) {
    if (!b->ops[i])
      return hr_error(HR_INVALID_ARGUMENT, "@%s: block with a missing op", nm->func->name);
    HR_TRY(name_op_results(nm, &c, b->ops[i]));
  }
  for (int i = 0; i < b->n_ops; i++) {
    const hr_op *op = b->ops[i];
    if (op->n_regions < 0 || (op->n_regions > 0 && !op->regions))
      return hr_error(HR_INVALID_ARGUMENT, "%s with malformed regions", hr_opcode_name(op->code));
    for (int r = 0; r < op->n_regions; r++) {
      size_t mark = nm->used.depth;
      HR_TRY(name_block(nm, &op->regions[r], c, depth + 1));
      drop_names(&nm->used, mark);
    }
  }
  return NULL;
}

hr_status hr_print_name_values(const hr_func *f, hr_arena *arena, hr_value_name **names) {
  namer nm;
  memset(&nm, 0, sizeof nm);
  nm.func = f;
  nm.used.arena = arena;
  nm.names = HR_ARENA_ARRAY(arena, hr_value_name, f->n_values ? f->n_values : 1);
  if (!nm.names) return hr_error(HR_OUT_OF_MEMORY, "out of memory naming values");
  counters c = {0, 0, 0};
  HR_TRY(name_block(&nm, &f->body, c, 0));
  *names = nm.names;
  return NULL;
}

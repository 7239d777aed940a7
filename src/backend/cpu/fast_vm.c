/* Vector programs: elementwise regions compiled into one AVX-512 loop per op (see hr_vm in
 * fast_internal.h).
 *
 * Compiling translates the live ops of the region (a scalar body: rank-0 f32 arguments, constants
 * and elementwise ops, see src/ir/infer_hlorun.c) into SSA instructions whose sources are region
 * arguments, constants or earlier instructions; fuses a multiply whose only use is an add or a
 * subtract into one FMA instruction; then gives every instruction result a temporary, reusing a
 * temporary once its last reader has run. The last instruction writes the program's result. A
 * convert (f32 to f32) produces no instruction; a region returning an argument or a constant gets
 * one copy instruction.
 *
 * Running splits the tile into sub-tiles of at most VM_TILE elements (column chunks of at most
 * VM_TILE, then groups of rows), and runs every instruction over a sub-tile before the next
 * instruction, so the temporaries of a sub-tile stay in L1. A source is read as a vector per 16
 * elements with a masked load: the mask is all ones for contiguous sources and 0 for broadcast
 * ones (constants, splat arguments), whose lanes then come from the value broadcast at the start
 * of the row. No branch depends on the source kind inside a loop.
 */
#include <math.h>
#include <string.h>

#include "backend/cpu/fast_internal.h"

enum {
  VM_TILE = 1024,        /* elements of one temporary */
  VM_TEMP_STRIDE = 1040, /* floats between temporaries: not a multiple of 4 KiB, so that a load
                            from one and a store to another at the same position do not alias
                            in the store buffer's address check */
  VM_OUT = -1,           /* destination: the program's result */
};

typedef enum vm_opcode {
  VM_COPY,
  VM_NEG,
  VM_ABS,
  VM_EXP,
  VM_EXPM1,
  VM_LOG,
  VM_LOG1P,
  VM_ERF,
  VM_SIN,
  VM_COS,
  VM_TANH,
  VM_LOGISTIC,
  VM_SQRT,
  VM_RSQRT,
  VM_FLOOR,
  VM_CEIL,
  VM_ROUND_EVEN,
  VM_SIGN,
  VM_ADD,
  VM_SUB,
  VM_MUL,
  VM_DIV,
  VM_MAX,
  VM_MIN,
  VM_SQUARE,    /* a * a (chlo.square) */
  VM_CLAMP,     /* minimum(maximum(b, a), c), the operand order of stablehlo.clamp */
  VM_FMA,       /* a * b + c */
  VM_FMS,       /* a * b - c */
  VM_FNMA,      /* c - a * b */
  VM_GELU_TANH, /* x * 0.5 * (1 + tanh(c1 (x + c0 x^3))) as x / (1 + 2^(x (a + b x^2))): sources x, a, b */
  VM_N_OPCODES
} vm_opcode;

typedef enum vm_src_kind { SRC_ARG, SRC_CONST, SRC_INSTR, SRC_TEMP } vm_src_kind;

/* An instruction source: region argument `index`, constant `value`, the result of SSA
 * instruction `index` (while compiling) or temporary `index` (once compiled). */
typedef struct vm_src {
  vm_src_kind kind;
  int32_t index;
  float value;
} vm_src;

typedef struct vm_instr {
  vm_opcode op;
  int n_src;
  vm_src src[3];
  int32_t dst; /* temporary, or VM_OUT */
} vm_instr;

struct hr_vm {
  const hr_allocator *allocator;
  int n_args;
  int n_instrs;
  int n_temps;
  int returned_arg;
  vm_instr *instrs;
};

/* ---------------------------------------------------------------------------------------------- */
/* Loops                                                                                           */
/* ---------------------------------------------------------------------------------------------- */

/* A source resolved for one sub-tile: element (r, c) is at p + r * rs + c * (step / 16), read
 * through load mask `k` (0xffff contiguous, 0 broadcast) over the row's first element. */
typedef struct vm_operand {
  const float *p;
  int64_t rs;
  int64_t step; /* 16 or 0 */
  uint16_t k;
} vm_operand;

typedef void (*vm_loop_fn)(const vm_operand *s, float *d, int64_t ldd, int64_t rows, int64_t w);

HR_AVX512 static inline __mmask16 tail_mask(int64_t n) { return (__mmask16)((1u << n) - 1u); }

/* Maximum and minimum with the semantics of stablehlo.maximum / minimum on floats: NaN
 * propagates, +0 > -0 (vrangeps alone returns the non-NaN operand). */
HR_AVX512 static inline __m512 v_max(__m512 a, __m512 b) {
  __m512 r = _mm512_range_ps(a, b, 0x5);
  return _mm512_mask_add_ps(r, _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q), a, b);
}
HR_AVX512 static inline __m512 v_min(__m512 a, __m512 b) {
  __m512 r = _mm512_range_ps(a, b, 0x4);
  return _mm512_mask_add_ps(r, _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q), a, b);
}

/* sign(x): -1, +-0 (kept) or 1; NaN stays NaN. */
HR_AVX512 static inline __m512 v_sign(__m512 a) {
  __m512 r = _mm512_mask_mov_ps(a, _mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_GT_OQ), _mm512_set1_ps(1.0f));
  return _mm512_mask_mov_ps(r, _mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_LT_OQ), _mm512_set1_ps(-1.0f));
}

/* GELU's tanh approximation, x * 0.5 * (1 + tanh(c1 * (x + c0 x^3))), in the equal form
 * x / (1 + 2^w) with w = -2 c1 log2(e) (x + c0 x^3) = x (a + b x^2): one power of two and a
 * division instead of tanh, and no cancellation in 1 + tanh for negative x. `a` and `b` are folded
 * from c0 and c1 once, by fuse_gelu. 2^w by hr_v_exp2 (vmath.h), infinite or 0 where 2^w is (x =
 * -inf then gives NaN, as the unfused form does). */
HR_AVX512 static inline __m512 v_gelu_tanh(__m512 x, __m512 a, __m512 b) {
  __m512 w = _mm512_mul_ps(x, _mm512_fmadd_ps(b, _mm512_mul_ps(x, x), a));
  return _mm512_div_ps(x, _mm512_add_ps(_mm512_set1_ps(1.0f), hr_v_exp2(w)));
}

/* The loop of an instruction with `n` sources computing `expr` from vectors a, b, c. Sources the
 * op does not have are not read. */
#define VM_ROW_BEGIN(n)                                                                \
  const float *pa = s[0].p + r * s[0].rs;                                              \
  const float *pb = (n) > 1 ? s[1].p + r * s[1].rs : pa;                               \
  const float *pc = (n) > 2 ? s[2].p + r * s[2].rs : pa;                               \
  __m512 sa = _mm512_set1_ps(*pa), sb = _mm512_set1_ps(*pb), sc = _mm512_set1_ps(*pc); \
  float *pd = d + r * ldd;
#define VM_LOAD(n, mask)                                                  \
  __m512 a = _mm512_mask_loadu_ps(sa, s[0].k & (mask), pa);               \
  __m512 b = (n) > 1 ? _mm512_mask_loadu_ps(sb, s[1].k & (mask), pb) : a; \
  __m512 c = (n) > 2 ? _mm512_mask_loadu_ps(sc, s[2].k & (mask), pc) : a; \
  (void)b;                                                                \
  (void)c;
#define VM_LOOP(name, n, expr) VM_LOOP_SETUP(name, n, , expr)
/* The same, running `setup` (statements) once before the rows. */
#define VM_LOOP_SETUP(name, n, setup, expr)                                                         \
  HR_AVX512 static void name(const vm_operand *s, float *d, int64_t ldd, int64_t rows, int64_t w) { \
    setup                                                                                           \
    for (int64_t r = 0; r < rows; r++) {                                                            \
      VM_ROW_BEGIN(n)                                                                               \
      (void)sb;                                                                                     \
      (void)sc;                                                                                     \
      int64_t col = 0;                                                                              \
      for (; col + 16 <= w; col += 16) {                                                            \
        VM_LOAD(n, 0xffff)                                                                          \
        _mm512_storeu_ps(pd + col, (expr));                                                         \
        pa += s[0].step;                                                                            \
        if ((n) > 1) pb += s[1].step;                                                               \
        if ((n) > 2) pc += s[2].step;                                                               \
      }                                                                                             \
      if (col < w) {                                                                                \
        __mmask16 t = tail_mask(w - col);                                                           \
        VM_LOAD(n, t)                                                                               \
        _mm512_mask_storeu_ps(pd + col, t, (expr));                                                 \
      }                                                                                             \
    }                                                                                               \
  }

VM_LOOP(loop_copy, 1, a)
VM_LOOP(loop_neg, 1, _mm512_xor_ps(a, _mm512_set1_ps(-0.0f)))
VM_LOOP(loop_abs, 1, _mm512_abs_ps(a))
VM_LOOP(loop_exp, 1, hr_v_exp(a))
VM_LOOP(loop_expm1, 1, hr_v_expm1(a))
VM_LOOP(loop_log, 1, hr_v_log(a))
VM_LOOP(loop_log1p, 1, hr_v_log1p(a))
VM_LOOP(loop_erf, 1, hr_v_erf(a))
VM_LOOP(loop_sin, 1, hr_v_sin(a))
VM_LOOP(loop_cos, 1, hr_v_cos(a))
VM_LOOP(loop_tanh, 1, hr_v_tanh(a))
VM_LOOP(loop_logistic, 1, hr_v_logistic(a))
VM_LOOP(loop_sqrt, 1, _mm512_sqrt_ps(a))
VM_LOOP(loop_rsqrt, 1, hr_v_rsqrt(a))
VM_LOOP(loop_floor, 1, _mm512_roundscale_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC))
VM_LOOP(loop_ceil, 1, _mm512_roundscale_ps(a, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC))
VM_LOOP(loop_round_even, 1, _mm512_roundscale_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC))
VM_LOOP(loop_sign, 1, v_sign(a))
VM_LOOP(loop_square, 1, _mm512_mul_ps(a, a))
VM_LOOP(loop_add, 2, _mm512_add_ps(a, b))
VM_LOOP(loop_sub, 2, _mm512_sub_ps(a, b))
VM_LOOP(loop_mul, 2, _mm512_mul_ps(a, b))
VM_LOOP(loop_div, 2, _mm512_div_ps(a, b))
VM_LOOP(loop_max, 2, v_max(a, b))
VM_LOOP(loop_min, 2, v_min(a, b))
VM_LOOP(loop_clamp, 3, v_min(v_max(b, a), c))
VM_LOOP(loop_fma, 3, _mm512_fmadd_ps(a, b, c))
VM_LOOP(loop_fms, 3, _mm512_fmsub_ps(a, b, c))
VM_LOOP(loop_fnma, 3, _mm512_fnmadd_ps(a, b, c))
/* GELU: sources 1 and 2 are the constants a and b (fuse_gelu), broadcast once. */
VM_LOOP_SETUP(loop_gelu_tanh, 1,
              const __m512 gelu_a = _mm512_set1_ps(*s[1].p);
              const __m512 gelu_b = _mm512_set1_ps(*s[2].p);, v_gelu_tanh(a, gelu_a, gelu_b))

/* The loop of each opcode and its number of sources. */
static const struct {
  vm_loop_fn fn;
  int n_src;
} kLoops[VM_N_OPCODES] = {
    [VM_COPY] = {loop_copy, 1},
    [VM_NEG] = {loop_neg, 1},
    [VM_ABS] = {loop_abs, 1},
    [VM_EXP] = {loop_exp, 1},
    [VM_EXPM1] = {loop_expm1, 1},
    [VM_LOG1P] = {loop_log1p, 1},
    [VM_ERF] = {loop_erf, 1},
    [VM_SIN] = {loop_sin, 1},
    [VM_COS] = {loop_cos, 1},
    [VM_LOG] = {loop_log, 1},
    [VM_TANH] = {loop_tanh, 1},
    [VM_LOGISTIC] = {loop_logistic, 1},
    [VM_SQRT] = {loop_sqrt, 1},
    [VM_RSQRT] = {loop_rsqrt, 1},
    [VM_FLOOR] = {loop_floor, 1},
    [VM_CEIL] = {loop_ceil, 1},
    [VM_ROUND_EVEN] = {loop_round_even, 1},
    [VM_SIGN] = {loop_sign, 1},
    [VM_SQUARE] = {loop_square, 1},
    [VM_ADD] = {loop_add, 2},
    [VM_SUB] = {loop_sub, 2},
    [VM_MUL] = {loop_mul, 2},
    [VM_DIV] = {loop_div, 2},
    [VM_MAX] = {loop_max, 2},
    [VM_MIN] = {loop_min, 2},
    [VM_CLAMP] = {loop_clamp, 3},
    [VM_FMA] = {loop_fma, 3},
    [VM_FMS] = {loop_fms, 3},
    [VM_FNMA] = {loop_fnma, 3},
    [VM_GELU_TANH] = {loop_gelu_tanh, 3},
};

/* ---------------------------------------------------------------------------------------------- */
/* Running                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Resolves source `s` for the sub-tile at (r0, c0) whose temporaries have row stride `w`. */
static vm_operand resolve(const vm_src *s, const hr_vm_input *inputs, float *scratch, int64_t r0, int64_t c0,
                          int64_t w) {
  switch (s->kind) {
    case SRC_ARG: {
      const hr_vm_input *in = &inputs[s->index];
      if (in->splat) return (vm_operand){in->p + r0 * in->row_stride, in->row_stride, 0, 0};
      return (vm_operand){in->p + r0 * in->row_stride + c0, in->row_stride, 16, 0xffff};
    }
    case SRC_TEMP:
      return (vm_operand){scratch + (int64_t)s->index * VM_TEMP_STRIDE, w, 16, 0xffff};
    default:
      return (vm_operand){&s->value, 0, 0, 0};
  }
}

void hr_vm_run(const hr_vm *vm, const hr_vm_input *inputs, float *out, int64_t ldo, int64_t rows, int64_t cols,
               float *scratch) {
  int64_t w = cols < VM_TILE ? cols : VM_TILE;
  if (w <= 0 || rows <= 0) return;
  int64_t group = VM_TILE / w;
  for (int64_t c0 = 0; c0 < cols; c0 += w) {
    int64_t wc = cols - c0 < w ? cols - c0 : w;
    for (int64_t r0 = 0; r0 < rows; r0 += group) {
      int64_t rg = rows - r0 < group ? rows - r0 : group;
      for (int i = 0; i < vm->n_instrs; i++) {
        const vm_instr *in = &vm->instrs[i];
        vm_operand s[3];
        for (int j = 0; j < in->n_src; j++) s[j] = resolve(&in->src[j], inputs, scratch, r0, c0, wc);
        float *d = in->dst == VM_OUT ? out + r0 * ldo + c0 : scratch + (int64_t)in->dst * VM_TEMP_STRIDE;
        kLoops[in->op].fn(s, d, in->dst == VM_OUT ? ldo : wc, rg, wc);
      }
    }
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* Compiling: translation                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/* Compiler state: the SSA instructions and what each region value became. */
typedef struct vm_compiler {
  const hr_block *region;
  vm_src *value_src; /* by value id */
  bool *value_known; /* by value id */
  bool *live;        /* by op index in the region */
  vm_instr *instrs;  /* SSA: sources SRC_INSTR refer to earlier entries */
  int n_instrs;
} vm_compiler;

/* Whether `t` is a rank-0 f32 tensor. */
static bool is_scalar(const hr_type *t) {
  return t->kind == HR_TYPE_TENSOR && t->shape.rank == 0 && t->dtype == HR_F32;
}

/* The opcode computing a region op; VM_N_OPCODES when unsupported. */
static vm_opcode opcode_of(hr_opcode code) {
  switch (code) {
    case HR_OP_NEGATE:
      return VM_NEG;
    case HR_OP_ABS:
      return VM_ABS;
    case HR_OP_EXPONENTIAL:
      return VM_EXP;
    case HR_OP_EXPONENTIAL_MINUS_ONE:
      return VM_EXPM1;
    case HR_OP_LOG:
      return VM_LOG;
    case HR_OP_LOG_PLUS_ONE:
      return VM_LOG1P;
    case HR_OP_CHLO_ERF:
      return VM_ERF;
    case HR_OP_SINE:
      return VM_SIN;
    case HR_OP_COSINE:
      return VM_COS;
    case HR_OP_TANH:
      return VM_TANH;
    case HR_OP_LOGISTIC:
      return VM_LOGISTIC;
    case HR_OP_SQRT:
      return VM_SQRT;
    case HR_OP_RSQRT:
      return VM_RSQRT;
    case HR_OP_FLOOR:
      return VM_FLOOR;
    case HR_OP_CEIL:
      return VM_CEIL;
    case HR_OP_ROUND_NEAREST_EVEN:
      return VM_ROUND_EVEN;
    case HR_OP_SIGN:
      return VM_SIGN;
    case HR_OP_CHLO_SQUARE:
      return VM_SQUARE;
    case HR_OP_ADD:
      return VM_ADD;
    case HR_OP_SUBTRACT:
      return VM_SUB;
    case HR_OP_MULTIPLY:
      return VM_MUL;
    case HR_OP_DIVIDE:
      return VM_DIV;
    case HR_OP_MAXIMUM:
      return VM_MAX;
    case HR_OP_MINIMUM:
      return VM_MIN;
    case HR_OP_CLAMP:
      return VM_CLAMP;
    default:
      return VM_N_OPCODES;
  }
}

/* The value of a rank-0 f32 constant op; false for anything else. */
static bool constant_value(const hr_op *op, float *out) {
  const hr_attr *v = hr_op_attr(op, "value");
  if (!v || v->kind != HR_ATTR_DENSE || v->u.dense.type.dtype != HR_F32 || !is_scalar(&op->results[0].type))
    return false;
  const void *p = hr_dense_element(v, 0);
  if (!p) return false;
  memcpy(out, p, sizeof *out);
  return true;
}

/* The source a region value became; false when the value is not one of the region's. */
static bool source_of(const vm_compiler *c, const hr_value *v, vm_src *out) {
  if (v->id >= c->region->func->n_values || !c->value_known[v->id]) return false;
  *out = c->value_src[v->id];
  return true;
}

/* Appends an SSA instruction and returns its result as a source. */
static vm_src emit(vm_compiler *c, vm_opcode op, vm_src a, vm_src b) {
  c->instrs[c->n_instrs] = (vm_instr){.op = op, .n_src = kLoops[op].n_src, .src = {a, b}};
  return (vm_src){SRC_INSTR, c->n_instrs++, 0.0f};
}

/* Translates x^k for a constant k in {-1, 0, 1, 2, 3, 4} (products, as powf rounds them within
 * an ulp or two) into *out; false for other exponents. */
static bool translate_power(vm_compiler *c, vm_src x, const vm_src *k, vm_src *out) {
  if (k->kind != SRC_CONST) return false;
  vm_src none = {SRC_CONST, 0, 0.0f};
  if (k->value == 0.0f)
    *out = (vm_src){SRC_CONST, 0, 1.0f};
  else if (k->value == 1.0f)
    *out = x;
  else if (k->value == -1.0f)
    *out = emit(c, VM_DIV, (vm_src){SRC_CONST, 0, 1.0f}, x);
  else if (k->value == 2.0f)
    *out = emit(c, VM_SQUARE, x, none);
  else if (k->value == 3.0f)
    *out = emit(c, VM_MUL, x, emit(c, VM_SQUARE, x, none));
  else if (k->value == 4.0f)
    *out = emit(c, VM_SQUARE, emit(c, VM_SQUARE, x, none), none);
  else
    return false;
  return true;
}

/* Translates one live op (SSA instructions, or a constant or identity that is just a source);
 * false when unsupported. */
static bool translate_op(vm_compiler *c, const hr_op *op) {
  if (op->n_results != 1 || op->n_regions != 0 || !is_scalar(&op->results[0].type)) return false;
  uint32_t id = op->results[0].id;
  if (id >= c->region->func->n_values) return false;
  for (int i = 0; i < op->n_operands; i++)
    if (!is_scalar(&op->operands[i]->type)) return false;
  float value = 0;
  if (op->code == HR_OP_CONSTANT) {
    if (!constant_value(op, &value)) return false;
    c->value_src[id] = (vm_src){SRC_CONST, 0, value};
  } else if (op->code == HR_OP_CONVERT && op->n_operands == 1) {
    if (!source_of(c, op->operands[0], &c->value_src[id])) return false;
  } else if (op->code == HR_OP_POWER && op->n_operands == 2) {
    vm_src x, k;
    if (!source_of(c, op->operands[0], &x) || !source_of(c, op->operands[1], &k) ||
        !translate_power(c, x, &k, &c->value_src[id]))
      return false;
  } else {
    vm_opcode code = opcode_of(op->code);
    if (code == VM_N_OPCODES || op->n_operands != kLoops[code].n_src) return false;
    vm_instr in = {.op = code, .n_src = kLoops[code].n_src, .dst = 0};
    for (int i = 0; i < op->n_operands; i++)
      if (!source_of(c, op->operands[i], &in.src[i])) return false;
    c->instrs[c->n_instrs] = in;
    c->value_src[id] = (vm_src){SRC_INSTR, c->n_instrs++, 0.0f};
  }
  c->value_known[id] = true;
  return true;
}

/* Marks the ops whose results the terminator needs (reverse walk over the region). */
static void mark_live(vm_compiler *c, bool *needed) {
  const hr_block *b = c->region;
  const hr_op *ret = b->ops[b->n_ops - 1];
  for (int i = 0; i < ret->n_operands; i++)
    if (ret->operands[i]->id < b->func->n_values) needed[ret->operands[i]->id] = true;
  for (int k = b->n_ops - 2; k >= 0; k--) {
    const hr_op *op = b->ops[k];
    for (int r = 0; r < op->n_results && !c->live[k]; r++)
      if (op->results[r].id < b->func->n_values && needed[op->results[r].id]) c->live[k] = true;
    if (!c->live[k]) continue;
    for (int i = 0; i < op->n_operands; i++)
      if (op->operands[i]->id < b->func->n_values) needed[op->operands[i]->id] = true;
  }
}

/* Translates the region into SSA instructions; false when something is unsupported. The last
 * instruction computes the returned value (a copy is appended when it is an argument or a
 * constant). */
static bool translate(vm_compiler *c, bool *needed, int *returned_arg) {
  const hr_block *b = c->region;
  if (b->n_args > HR_VM_MAX_ARGS || b->n_ops < 1) return false;
  const hr_op *ret = b->ops[b->n_ops - 1];
  if ((ret->code != HR_OP_RETURN && ret->code != HR_OP_FUNC_RETURN) || ret->n_operands != 1) return false;
  if (!is_scalar(&ret->operands[0]->type)) return false;
  for (int i = 0; i < b->n_args; i++) {
    if (!is_scalar(&b->args[i].type) || b->args[i].id >= b->func->n_values) return false;
    c->value_src[b->args[i].id] = (vm_src){SRC_ARG, i, 0.0f};
    c->value_known[b->args[i].id] = true;
  }
  mark_live(c, needed);
  for (int k = 0; k + 1 < b->n_ops; k++)
    if (c->live[k] && !translate_op(c, b->ops[k])) return false;
  vm_src r;
  if (!source_of(c, ret->operands[0], &r)) return false;
  *returned_arg = r.kind == SRC_ARG ? r.index : -1;
  if (r.kind != SRC_INSTR || r.index != c->n_instrs - 1)
    c->instrs[c->n_instrs++] = (vm_instr){.op = VM_COPY, .n_src = 1, .src = {r}, .dst = 0};
  return true;
}

/* ---------------------------------------------------------------------------------------------- */
/* Compiling: rewrites and temporaries                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* Counts, for each SSA instruction, the readers among the live instructions (those the last one
 * depends on); dead instructions get -1. */
static void count_live_uses(const vm_instr *instrs, int n, int *uses) {
  for (int i = 0; i < n; i++) uses[i] = -1;
  uses[n - 1] = 0;
  for (int i = n - 1; i >= 0; i--) {
    if (uses[i] < 0) continue;
    for (int j = 0; j < instrs[i].n_src; j++) {
      const vm_src *s = &instrs[i].src[j];
      if (s->kind != SRC_INSTR) continue;
      if (uses[s->index] < 0) uses[s->index] = 0;
      uses[s->index]++;
    }
  }
}

static bool same_src(const vm_src *a, const vm_src *b) {
  return a->kind == b->kind && (a->kind == SRC_CONST ? a->value == b->value : a->index == b->index);
}

/* The instruction computing `s` when it is an instruction `op` read only once; else NULL. */
static const vm_instr *single_use(const vm_instr *instrs, const int *uses, const vm_src *s, vm_opcode op) {
  if (s->kind != SRC_INSTR || uses[s->index] != 1 || instrs[s->index].op != op) return NULL;
  return &instrs[s->index];
}

/* Whether binary `in` reads the constant `*k` (any value when *k is NAN on entry: it is then set)
 * and something else, returned in *other (either operand order). */
static bool const_and(const vm_instr *in, float *k, vm_src *other) {
  for (int j = 0; j < 2; j++) {
    const vm_src *c = &in->src[j];
    if (c->kind != SRC_CONST || (!isnan(*k) && c->value != *k)) continue;
    *k = c->value;
    *other = in->src[1 - j];
    return true;
  }
  return false;
}

/* Whether binary `in` reads `x` and something else, returned in *other (either order). */
static bool reads_and(const vm_instr *in, const vm_src *x, vm_src *other) {
  for (int j = 0; j < 2; j++)
    if (same_src(&in->src[j], x)) {
      *other = in->src[1 - j];
      return true;
    }
  return false;
}

/* Matches tanh(c1 * (h + c0 * h * (h * h))) from the tanh instruction's operand `t2`: sets h, c0,
 * c1. Every intermediate must be read once. */
static bool match_gelu_inner(const vm_instr *instrs, const int *uses, const vm_src *t2, vm_src *h, float *c0,
                             float *c1) {
  const vm_instr *mul1 = single_use(instrs, uses, t2, VM_MUL), *add, *mul0, *cube, *square;
  vm_src t1, t0, h3, h2;
  *c1 = NAN;
  *c0 = NAN;
  if (!mul1 || !const_and(mul1, c1, &t1) || !(add = single_use(instrs, uses, &t1, VM_ADD))) return false;
  for (int j = 0; j < 2; j++) { /* t1 = h + t0, either order */
    *h = add->src[j];
    t0 = add->src[1 - j];
    if (!(mul0 = single_use(instrs, uses, &t0, VM_MUL)) || !const_and(mul0, c0, &h3)) continue;
    if (!(cube = single_use(instrs, uses, &h3, VM_MUL)) || !reads_and(cube, h, &h2)) continue;
    if ((square = single_use(instrs, uses, &h2, VM_MUL)) && same_src(&square->src[0], h) &&
        same_src(&square->src[1], h))
      return true;
    *c0 = NAN;
  }
  return false;
}

/* Rewrites the tanh approximation of GELU, h * (0.5 * (1 + tanh(c1 * (h + c0 * h^3)))) (or with
 * the 0.5 on h), into one VM_GELU_TANH(h, a, b) instruction (v_gelu_tanh: a = -2 c1 log2(e),
 * b = a c0, rounded once from double); the instructions it replaces become dead. */
static void fuse_gelu(vm_instr *instrs, int n, const int *uses) {
  for (int i = 0; i < n; i++) {
    vm_instr *r = &instrs[i];
    if (uses[i] < 0 || r->op != VM_MUL) continue;
    for (int j = 0; j < 2; j++) {
      vm_src h = r->src[j], g = r->src[1 - j], t4, t3, hh, half_of;
      const vm_instr *half = single_use(instrs, uses, &g, VM_MUL), *one, *tanh_i;
      float k = 0.5f, k1 = 1.0f, c0, c1;
      if (half && const_and(half, &k, &t4)) { /* h * (0.5 * (1 + tanh)) */
      } else if ((half = single_use(instrs, uses, &h, VM_MUL)) && const_and(half, &k, &half_of)) {
        t4 = g; /* (0.5 * h) * (1 + tanh) */
        h = half_of;
      } else {
        continue;
      }
      if (!(one = single_use(instrs, uses, &t4, VM_ADD)) || !const_and(one, &k1, &t3)) continue;
      if (!(tanh_i = single_use(instrs, uses, &t3, VM_TANH))) continue;
      if (!match_gelu_inner(instrs, uses, &tanh_i->src[0], &hh, &c0, &c1) || !same_src(&hh, &h)) continue;
      /* Constants of GELU's size (0.0447, 0.798) keep a and b finite; others (which could
       * overflow them) stay unfused. */
      if (!(fabsf(c0) <= 1e6f && fabsf(c1) <= 1e6f)) continue;
      double a = -2.0 * (double)c1 * 1.4426950408889634;
      *r = (vm_instr){.op = VM_GELU_TANH,
                      .n_src = 3,
                      .src = {h, {SRC_CONST, 0, (float)a}, {SRC_CONST, 0, (float)(a * (double)c0)}}};
      break;
    }
  }
}

/* Rewrites add/subtract instructions reading a single-use multiply into FMA forms; the multiply
 * becomes dead. */
static void fuse_fma(vm_instr *instrs, int n, const int *uses) {
  for (int i = 0; i < n; i++) {
    vm_instr *in = &instrs[i];
    if (uses[i] < 0 || (in->op != VM_ADD && in->op != VM_SUB)) continue;
    for (int j = 0; j < 2; j++) {
      const vm_instr *mul = single_use(instrs, uses, &in->src[j], VM_MUL);
      if (!mul) continue;
      vm_src other = in->src[1 - j];
      in->op = in->op == VM_ADD ? VM_FMA : j == 0 ? VM_FMS : VM_FNMA;
      in->n_src = 3;
      in->src[0] = mul->src[0];
      in->src[1] = mul->src[1];
      in->src[2] = other;
      break;
    }
  }
}

/* Assigns temporaries to the live SSA instructions (a temporary is free again once its last
 * reader has run), drops the dead ones, and makes the last instruction write the result.
 * Returns the number of temporaries. `uses` (from count_live_uses), `temp_of` and `free_temps`
 * have n entries. */
static int assign_temps(vm_instr *instrs, int *n, int *uses, int *temp_of, int *free_temps) {
  int n_free = 0, n_temps = 0, out = 0;
  for (int i = 0; i < *n; i++) {
    vm_instr in = instrs[i];
    if (uses[i] < 0) continue;
    for (int j = 0; j < in.n_src; j++) {
      if (in.src[j].kind != SRC_INSTR) continue;
      int t = temp_of[in.src[j].index];
      in.src[j] = (vm_src){SRC_TEMP, t, 0.0f};
      if (--uses[instrs[i].src[j].index] == 0) free_temps[n_free++] = t;
    }
    if (i == *n - 1) {
      in.dst = VM_OUT;
    } else {
      temp_of[i] = n_free ? free_temps[--n_free] : n_temps++;
      in.dst = temp_of[i];
    }
    instrs[out++] = in;
  }
  *n = out;
  return n_temps;
}

/* ---------------------------------------------------------------------------------------------- */
/* Public entry points                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* Compiles with `c` set up (arrays allocated); *out NULL when unsupported. */
static hr_status build(const hr_allocator *a, vm_compiler *c, bool *needed, int *scratch_ints, hr_vm **out) {
  int returned_arg = -1;
  if (!translate(c, needed, &returned_arg)) return NULL;
  int n = c->n_instrs;
  int *uses = scratch_ints, *temp_of = scratch_ints + n, *free_temps = scratch_ints + 2 * n;
  count_live_uses(c->instrs, n, uses);
  fuse_gelu(c->instrs, n, uses);
  count_live_uses(c->instrs, n, uses);
  fuse_fma(c->instrs, n, uses);
  count_live_uses(c->instrs, n, uses);
  int n_temps = assign_temps(c->instrs, &n, uses, temp_of, free_temps);
  hr_vm *vm = a->alloc(a->ctx, sizeof *vm + (size_t)n * sizeof(vm_instr), 16);
  if (!vm) return hr_error(HR_OUT_OF_MEMORY, "out of memory compiling a region");
  *vm = (hr_vm){.allocator = a,
                .n_args = c->region->n_args,
                .n_instrs = n,
                .n_temps = n_temps,
                .returned_arg = returned_arg,
                .instrs = (vm_instr *)(vm + 1)};
  memcpy(vm->instrs, c->instrs, (size_t)n * sizeof(vm_instr));
  *out = vm;
  return NULL;
}

hr_status hr_vm_compile(const hr_allocator *a, const hr_block *region, hr_vm **out) {
  *out = NULL;
  size_t n_values = region->func ? region->func->n_values : 0;
  size_t n_ops = (size_t)region->n_ops + 1;
  if (!region->func || n_values == 0) return NULL;
  hr_arena tmp;
  hr_arena_init(&tmp, a);
  vm_compiler c = {.region = region};
  c.value_src = HR_ARENA_ARRAY(&tmp, vm_src, n_values);
  c.value_known = HR_ARENA_ARRAY(&tmp, bool, n_values);
  bool *needed = HR_ARENA_ARRAY(&tmp, bool, n_values);
  c.live = HR_ARENA_ARRAY(&tmp, bool, n_ops);
  c.instrs = HR_ARENA_ARRAY(&tmp, vm_instr, 2 * n_ops); /* x^3 and x^4 take two */
  int *scratch_ints = HR_ARENA_ARRAY(&tmp, int, 6 * n_ops);
  hr_status s = NULL;
  if (!c.value_src || !c.value_known || !needed || !c.live || !c.instrs || !scratch_ints)
    s = hr_error(HR_OUT_OF_MEMORY, "out of memory compiling a region");
  else
    s = build(a, &c, needed, scratch_ints, out);
  hr_arena_release(&tmp);
  return s;
}

void hr_vm_free(hr_vm *vm) {
  if (vm) vm->allocator->free(vm->allocator->ctx, vm);
}

hr_status hr_vm_for_op(const hr_allocator *a, hr_opcode code, int n_operands, hr_vm **out) {
  *out = NULL;
  static const hr_opcode kExact[] = {HR_OP_ADD,  HR_OP_SUBTRACT, HR_OP_MULTIPLY, HR_OP_DIVIDE,
                                     HR_OP_MAXIMUM, HR_OP_MINIMUM, HR_OP_NEGATE, HR_OP_ABS,
                                     HR_OP_SQRT, HR_OP_FLOOR,    HR_OP_CEIL,     HR_OP_ROUND_NEAREST_EVEN,
                                     HR_OP_SIGN};
  bool exact = false;
  for (size_t i = 0; i < sizeof kExact / sizeof kExact[0]; i++) exact |= kExact[i] == code;
  vm_opcode op = opcode_of(code);
  if (!exact || op == VM_N_OPCODES || kLoops[op].n_src != n_operands) return NULL;
  hr_vm *vm = a->alloc(a->ctx, sizeof *vm + sizeof(vm_instr), 16);
  if (!vm) return hr_error(HR_OUT_OF_MEMORY, "out of memory compiling an elementwise op");
  *vm = (hr_vm){.allocator = a, .n_args = n_operands, .n_instrs = 1, .returned_arg = -1, .instrs = (vm_instr *)(vm + 1)};
  vm->instrs[0] = (vm_instr){.op = op, .n_src = n_operands, .src = {{SRC_ARG, 0, 0.0f}, {SRC_ARG, 1, 0.0f}}, .dst = VM_OUT};
  *out = vm;
  return NULL;
}

/* What a temporary holds while the leading adds are taken out (hr_vm_take_leading_adds). */
typedef enum chain_temp { TEMP_OTHER, TEMP_PARTIAL, TEMP_SUM } chain_temp;
enum { TAKE_MAX_TEMPS = 64 }; /* programs with more temporaries keep their adds */

int hr_vm_take_leading_adds(hr_vm *vm, const bool *addable, int max, int *args) {
  if (vm->n_temps > TAKE_MAX_TEMPS) return 0;
  chain_temp temps[TAKE_MAX_TEMPS] = {TEMP_OTHER};
  vm_src sum = {SRC_ARG, 0, 0.0f}; /* the running sum: argument 0 first */
  int n = 0;
  bool done = false;
  while (n < max && n < vm->n_instrs && !done) {
    const vm_instr *in = &vm->instrs[n];
    vm_src other;
    if (in->op != VM_ADD || !reads_and(in, &sum, &other) || other.kind != SRC_ARG || other.index == 0 ||
        !addable[other.index])
      break;
    args[n++] = other.index;
    if (sum.kind == SRC_TEMP) temps[sum.index] = TEMP_PARTIAL;
    done = in->dst == VM_OUT;
    if (!done) {
      sum = (vm_src){SRC_TEMP, in->dst, 0.0f};
      temps[in->dst] = TEMP_SUM;
    }
  }
  if (n == 0) return 0;
  /* The rest may read the sum (now argument 0, which the caller makes hold it) but neither the
   * plain argument 0 nor a partial sum; check before changing anything. */
  chain_temp state[TAKE_MAX_TEMPS];
  for (int pass = 0; pass < 2; pass++) {
    memcpy(state, temps, sizeof state);
    for (int i = n; i < vm->n_instrs; i++) {
      vm_instr *in = &vm->instrs[i];
      for (int j = 0; j < in->n_src; j++) {
        vm_src *s = &in->src[j];
        if (s->kind == SRC_ARG && s->index == 0) return 0;
        if (s->kind != SRC_TEMP) continue;
        if (state[s->index] == TEMP_PARTIAL) return 0;
        if (state[s->index] == TEMP_SUM && pass == 1) *s = (vm_src){SRC_ARG, 0, 0.0f};
      }
      if (in->dst != VM_OUT) state[in->dst] = TEMP_OTHER;
    }
  }
  memmove(vm->instrs, vm->instrs + n, (size_t)(vm->n_instrs - n) * sizeof(vm_instr));
  vm->n_instrs -= n;
  return n;
}

int hr_vm_instructions(const hr_vm *vm) { return vm->n_instrs; }

int hr_vm_returned_arg(const hr_vm *vm) {
  return vm->n_instrs == 1 && vm->instrs[0].op == VM_COPY ? vm->returned_arg : -1;
}

/* Whether an opcode evaluates a polynomial or rational approximation (tens of operations). */
static bool is_transcendental(vm_opcode op) {
  switch (op) {
    case VM_EXP:
    case VM_EXPM1:
    case VM_LOG:
    case VM_LOG1P:
    case VM_ERF:
    case VM_SIN:
    case VM_COS:
    case VM_TANH:
    case VM_LOGISTIC:
    case VM_GELU_TANH:
      return true;
    default:
      return false;
  }
}

int64_t hr_vm_cost(const hr_vm *vm) {
  int64_t cost = 0;
  for (int i = 0; i < vm->n_instrs; i++) cost += is_transcendental(vm->instrs[i].op) ? 8 : 1;
  return cost;
}

size_t hr_vm_scratch_bytes(const hr_vm *vm) { return (size_t)vm->n_temps * VM_TEMP_STRIDE * sizeof(float); }

/*
 * Internal interface of shape inference (infer*.c), also used by the verifier (verify.c).
 *
 * hr_infer_result_types (infer.c) validates the request (operand types, operand/result/region
 * counts), then dispatches to one rule per opcode. Rules live in files grouped by area:
 *   infer_elementwise.c  elementwise math, compare, select, clamp, convert, bitcast_convert, map
 *   infer_shape.c        iota, broadcast*, reshape, transpose, slice, concatenate, pad, reverse and
 *                        their dynamic_* forms, get/set_dimension_size
 *   infer_index.c        gather, scatter, dynamic_slice, dynamic_update_slice, sort, top_k, ...
 *   infer_contract.c     dot, dot_general, chlo.ragged_dot, convolution, fft, linear algebra, batch_norm_*
 *   infer_reduce.c       reduce, reduce_window, select_and_scatter, collectives
 *   infer_control.c      while, chlo.scan, if, case, call, custom_call, tuples, tokens, constant, rng, ...
 *   infer_chlo.c         chlo's broadcasting ops and constant_like
 *   infer_hlorun.c       the fused hlorun.* ops of the compiler's fusion pass (docs/fast-cpu.md)
 * A rule fills every result type or returns an HR_VERIFY_ERROR naming the op. Rules may rely on:
 * each operand type being well formed (tensor ranks within [0, HR_MAX_RANK], dims >= 0 or
 * HR_DYNAMIC, valid dtypes) and the operand, result and region counts being within the op's arity
 * (hri_arity). After a rule, the dispatcher checks that every result dimension is >= 0 or
 * HR_DYNAMIC and that static element counts fit in int64.
 */
#ifndef HLORUN_IR_INFER_INTERNAL_H
#define HLORUN_IR_INFER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/infer.h"

/* One inference request. */
typedef struct hri_ctx {
  const hr_op *op;
  const hr_type *in;              /* op->n_operands operand types */
  const hr_tensor *const *values; /* runtime operand values; NULL or NULL entries when unknown */
  hr_type *out;                   /* op->n_results result types to fill */
} hri_ctx;

typedef hr_status (*hri_rule)(const hri_ctx *c);

/* Operand, result and region counts an op accepts; -1 in a max field means unbounded. */
typedef struct hri_arity {
  int min_operands, max_operands;
  int min_results, max_results;
  int min_regions, max_regions;
} hri_arity;

/* The counts `code` accepts. */
hri_arity hri_op_arity(hr_opcode code);

/* What is wrong with a type (bad kind, dtype, rank or dim, malformed or too deeply nested tuple),
 * or NULL when it is well formed. */
const char *hri_type_problem(const hr_type *t);
/* infer_quant.c: what is wrong with a tensor type's quantization (NULL: nothing or none); whether
 * an operand (of `operand_types`) or declared result is quantized; the inference of such an op, with
 * `rule` its rule over unquantized types. */
const char *hri_quant_problem(const hr_type *t);
bool hri_uses_quant(const hr_op *op, const hr_type *operand_types);
hr_status hri_infer_quantized(const hri_ctx *c, hri_rule rule);
hr_status hri_infer_uniform_quantize(const hri_ctx *c);
hr_status hri_infer_uniform_dequantize(const hri_ctx *c);

/* ---- messages ---------------------------------------------------------------------------- */

/* Room for one printed type (longer types are cut short with "..."). */
typedef struct hri_tbuf {
  char s[640];
} hri_tbuf;

/* Prints `t` in MLIR syntax ("tensor<2x?xf32>", "!stablehlo.token", "tuple<...>") into `buf`. */
const char *hri_type_str(const hr_type *t, hri_tbuf *buf);

/* An HR_VERIFY_ERROR naming the op: "file:line:col: stablehlo.xyz: <message>". */
hr_status hri_err(const hri_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- element types ----------------------------------------------------------------------- */

bool hri_is_int(hr_dtype t); /* signed or unsigned integer, not i1 */
/* Whether a reduction over values of type `from` may accumulate in `to` (spec is_promotable). */
bool hri_is_promotable(hr_dtype from, hr_dtype to);
/* The real type of a complex type's parts (f32 for complex<f32>); HR_DTYPE_INVALID otherwise. */
hr_dtype hri_complex_part(hr_dtype t);

/* ---- operand checks ---------------------------------------------------------------------- */

/* Operand `i` must be a tensor. */
hr_status hri_want_tensor(const hri_ctx *c, int i);
/* Operands [first, first + n) must be tensors. */
hr_status hri_want_tensors(const hri_ctx *c, int first, int n);
/* Operand `i` must be a tensor of rank `rank`. */
hr_status hri_want_rank(const hri_ctx *c, int i, int rank, const char *what);
/* Operand `i` must be a tensor with an integer (not i1) element type. */
hr_status hri_want_int_tensor(const hri_ctx *c, int i, const char *what);
/* Operands `i` and `j` must have the same element type. */
hr_status hri_want_same_dtype(const hri_ctx *c, int i, int j);

/* A tensor type with the given element type and shape. */
hr_type hri_tensor(hr_dtype dtype, const hr_shape *shape);
/* Result #i's declared type, which must be a tensor (statically shaped when `need_static`). */
hr_status hri_declared_tensor(const hri_ctx *c, int i, bool need_static, hr_type *out);

/* ---- dimension arithmetic: HR_DYNAMIC in, HR_DYNAMIC out; overflow is an error ----------- */

hr_status hri_dim_add(const hri_ctx *c, int64_t a, int64_t b, int64_t *out);
hr_status hri_dim_mul(const hri_ctx *c, int64_t a, int64_t b, int64_t *out);
/* Two dims that must agree: equal when both static; the static one otherwise. */
hr_status hri_dim_merge(const hri_ctx *c, int64_t a, int64_t b, int64_t *out, const char *what);
/* Two shapes that must agree dim by dim (same rank); `out` gets the most precise one. */
hr_status hri_shape_merge(const hri_ctx *c, const hr_shape *a, const hr_shape *b, hr_shape *out,
                          const char *what);
/* Windowed dimension size: the number of windows of `window` (already dilated) with `stride` over
 * `padded` elements (0 when empty). HR_DYNAMIC when `padded` is dynamic. */
int64_t hri_num_windows(int64_t padded, int64_t window, int64_t stride);
/* (d - 1) * dilation + 1, or 0 when d is 0; HR_DYNAMIC stays dynamic. */
hr_status hri_dilate(const hri_ctx *c, int64_t d, int64_t dilation, int64_t *out);

/* ---- attributes -------------------------------------------------------------------------- */

/* Integer list attribute with at most HR_MAX_RANK entries; absent: error when `required`,
 * otherwise *n = 0. */
hr_status hri_attr_list(const hri_ctx *c, const char *name, bool required, int64_t *out, int *n);
/* Like hri_attr_list, but an absent attribute yields `n` copies of `dflt`, and a present one must
 * have exactly `n` entries. */
hr_status hri_attr_list_n(const hri_ctx *c, const char *name, int n, int64_t dflt, int64_t *out);
/* Integer attribute; absent: error when `required`, else `dflt`. */
hr_status hri_attr_int(const hri_ctx *c, const char *name, bool required, int64_t dflt, int64_t *out);
/* Boolean attribute (BOOL, or i1 INT); absent yields `dflt`. */
hr_status hri_attr_bool(const hri_ctx *c, const char *name, bool dflt, bool *out);
/* A required STRUCT or DICT attribute (dimension numbers). */
hr_status hri_attr_struct(const hri_ctx *c, const char *name, const hr_attr **out);
/* Integer-list field of a struct attribute (absent: empty list). */
hr_status hri_field_list(const hri_ctx *c, const hr_attr *s, const char *sname, const char *field,
                         int64_t *out, int *n);
/* Integer field of a struct attribute; absent: error when `required`, else `dflt`. */
hr_status hri_field_int(const hri_ctx *c, const hr_attr *s, const char *sname, const char *field,
                        bool required, int64_t dflt, int64_t *out);
/* An [n, 2] padding attribute (DENSE tensor<nx2xi64>, or a list of pairs) split into low and high
 * parts. Absent: zeros. */
hr_status hri_attr_padding(const hri_ctx *c, const char *name, int n, int64_t *lo, int64_t *hi);
/* Checks a list of axes: each in [0, rank), no duplicates, and increasing when `sorted`. */
hr_status hri_check_axes(const hri_ctx *c, const char *what, const int64_t *axes, int n, int rank,
                         bool sorted);
/* Whether `v` occurs in the first n entries of `list`. */
bool hri_contains(const int64_t *list, int n, int64_t v);

/* ---- operand values ---------------------------------------------------------------------- */

/* The entries of a 1-D integer operand (a shape, padding or index vector). */
typedef struct hri_ints {
  int n;                      /* number of entries; -1 when the operand's length is dynamic */
  bool known;                 /* v[] holds the values (from the runtime tensor or a defining constant) */
  bool runtime;               /* the values came from a runtime tensor */
  int64_t v[2 * HR_MAX_RANK]; /* row-major; [n, 2] operands (hri_operand_pairs) use 2n entries */
} hri_ints;

/* Reads 1-D integer operand `i` with at most HR_MAX_RANK entries. `what` names it in errors. */
hr_status hri_operand_ints(const hri_ctx *c, int i, const char *what, hri_ints *out);
/* Reads rank-0 integer operand `i` as a one-entry list. */
hr_status hri_operand_scalar(const hri_ctx *c, int i, const char *what, hri_ints *out);
/* Reads integer operand `i` of shape [n, 2] (n <= HR_MAX_RANK); out->n is the row count n. */
hr_status hri_operand_pairs(const hri_ctx *c, int i, const char *what, hri_ints *out);
/* An error about operand values: HR_OUT_OF_RANGE when they came from a runtime tensor, else
 * HR_VERIFY_ERROR. */
hr_status hri_value_err(const hri_ctx *c, const hri_ints *v, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- regions ----------------------------------------------------------------------------- */

/* The stablehlo.return ending region `r`. */
hr_status hri_region_return(const hri_ctx *c, int r, const hr_op **ret);
/* Checks region `r` of a reduction-like op over `n` inputs whose element types are those of
 * operands first, first + 1, ...: it takes 2n rank-0 arguments (tensor<E0>...tensor<En-1>, twice)
 * with each input type promotable to Ei, and returns n values of types tensor<Ei>. */
hr_status hri_reducer_region(const hri_ctx *c, int r, int n, int first, const char *what);
/* Element type Ei of a region validated with hri_reducer_region. */
hr_dtype hri_region_arg_dtype(const hri_ctx *c, int r, int i);

/* ---- rules --------------------------------------------------------------------------------- */

/* infer_elementwise.c */
hr_status hri_infer_unary(const hri_ctx *c);
hr_status hri_infer_binary(const hri_ctx *c);
hr_status hri_infer_compare(const hri_ctx *c);
hr_status hri_infer_select(const hri_ctx *c);
hr_status hri_infer_clamp(const hri_ctx *c);
hr_status hri_infer_convert(const hri_ctx *c);
hr_status hri_infer_bitcast_convert(const hri_ctx *c);
hr_status hri_infer_reduce_precision(const hri_ctx *c);
hr_status hri_infer_map(const hri_ctx *c);
/* The result element type of the same-shape elementwise op `code` (a binary op, compare or select)
 * applied to c's operand types, whose element types it checks; errors name c->op. */
hr_status hri_elementwise_dtype(const hri_ctx *c, hr_opcode code, hr_dtype *out);

/* infer_chlo.c */
hr_status hri_infer_chlo_broadcast(const hri_ctx *c);
hr_status hri_infer_constant_like(const hri_ctx *c);

/* infer_shape.c */
hr_status hri_infer_iota(const hri_ctx *c);
hr_status hri_infer_dynamic_iota(const hri_ctx *c);
hr_status hri_infer_broadcast_in_dim(const hri_ctx *c);
hr_status hri_infer_dynamic_broadcast_in_dim(const hri_ctx *c);
hr_status hri_infer_broadcast(const hri_ctx *c);
hr_status hri_infer_reshape(const hri_ctx *c);
hr_status hri_infer_dynamic_reshape(const hri_ctx *c);
hr_status hri_infer_transpose(const hri_ctx *c);
hr_status hri_infer_slice(const hri_ctx *c);
hr_status hri_infer_real_dynamic_slice(const hri_ctx *c);
hr_status hri_infer_concatenate(const hri_ctx *c);
hr_status hri_infer_pad(const hri_ctx *c);
hr_status hri_infer_dynamic_pad(const hri_ctx *c);
hr_status hri_infer_reverse(const hri_ctx *c);
hr_status hri_infer_get_dimension_size(const hri_ctx *c);
hr_status hri_infer_set_dimension_size(const hri_ctx *c);

/* infer_index.c */
hr_status hri_infer_gather(const hri_ctx *c);
hr_status hri_infer_dynamic_gather(const hri_ctx *c);
hr_status hri_infer_scatter(const hri_ctx *c);
hr_status hri_infer_dynamic_slice(const hri_ctx *c);
hr_status hri_infer_dynamic_update_slice(const hri_ctx *c);
hr_status hri_infer_torch_index_select(const hri_ctx *c);
hr_status hri_infer_sort(const hri_ctx *c);
hr_status hri_infer_top_k(const hri_ctx *c);

/* infer_contract.c */
hr_status hri_infer_dot_general(const hri_ctx *c);
hr_status hri_infer_dot(const hri_ctx *c);
hr_status hri_infer_ragged_dot(const hri_ctx *c); /* chlo.ragged_dot */
hr_status hri_infer_convolution(const hri_ctx *c);
hr_status hri_infer_dynamic_conv(const hri_ctx *c);
hr_status hri_infer_fft(const hri_ctx *c);
hr_status hri_infer_triangular_solve(const hri_ctx *c);
hr_status hri_infer_cholesky(const hri_ctx *c);
hr_status hri_infer_batch_norm_inference(const hri_ctx *c);
hr_status hri_infer_batch_norm_training(const hri_ctx *c);
hr_status hri_infer_batch_norm_grad(const hri_ctx *c);

/* infer_reduce.c */
hr_status hri_infer_reduce(const hri_ctx *c);
hr_status hri_infer_reduce_window(const hri_ctx *c);
/* The results of custom_call @stablehlo.dynamic_reduce_window (called from hri_infer_custom_call,
 * its declared types already in c->out): their dimensions from the window operands' values,
 * where known. */
hr_status hri_infer_dynamic_reduce_window(const hri_ctx *c);
hr_status hri_infer_select_and_scatter(const hri_ctx *c);
hr_status hri_infer_all_reduce(const hri_ctx *c);
hr_status hri_infer_reduce_scatter(const hri_ctx *c);
hr_status hri_infer_all_gather(const hri_ctx *c);
hr_status hri_infer_all_to_all(const hri_ctx *c);
hr_status hri_infer_same_as_operands(const hri_ctx *c);

/* infer_control.c */
hr_status hri_infer_while(const hri_ctx *c);
hr_status hri_infer_scan(const hri_ctx *c); /* chlo.scan */
hr_status hri_infer_async_start(const hri_ctx *c);
hr_status hri_infer_manual_computation(const hri_ctx *c);
hr_status hri_infer_async_done(const hri_ctx *c);
hr_status hri_infer_collective_reduce(const hri_ctx *c);
hr_status hri_infer_if(const hri_ctx *c);
hr_status hri_infer_case(const hri_ctx *c);
hr_status hri_infer_declared(const hri_ctx *c);
hr_status hri_infer_custom_call(const hri_ctx *c);
/* The check.* ops (infer_check.c): their operands and attributes; they have no results. */
hr_status hri_infer_check(const hri_ctx *c);
hr_status hri_infer_probe(const hri_ctx *c);
hr_status hri_infer_print(const hri_ctx *c);
hr_status hri_infer_transfer_in(const hri_ctx *c); /* infeed, recv: token in, declared + token out */
hr_status hri_infer_constant(const hri_ctx *c);
hr_status hri_infer_tuple(const hri_ctx *c);
hr_status hri_infer_get_tuple_element(const hri_ctx *c);
hr_status hri_infer_token(const hri_ctx *c);
hr_status hri_infer_device_id(const hri_ctx *c);
hr_status hri_infer_rng(const hri_ctx *c);
hr_status hri_infer_rng_bit_generator(const hri_ctx *c);
hr_status hri_infer_return(const hri_ctx *c);

/* infer_hlorun.c */
hr_status hri_infer_hlorun_matmul(const hri_ctx *c);
hr_status hri_infer_hlorun_fused(const hri_ctx *c);
hr_status hri_infer_hlorun_layer_norm(const hri_ctx *c);
hr_status hri_infer_hlorun_softmax(const hri_ctx *c);
hr_status hri_infer_hlorun_attention(const hri_ctx *c);

#endif /* HLORUN_IR_INFER_INTERNAL_H */

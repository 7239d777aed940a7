/* hr_fuse on small modules, one or more per pattern: each positive case checks what was fused and
 * that the fused module computes what the unfused one computes (bit for bit where the reference
 * kernels promise it: matmul epilogues, hlorun.fused, softmax, attention with a power-of-two
 * scale; within 1e-5 for layer norms and other scales); each near miss checks that nothing (or
 * only the expected part) was fused. */
#include <math.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "compiler/fuse.h"
#include "ir/ir.h"
#include "test.h"

enum { MAX_PARAMS = 16 };

/* ---------------------------------------------------------------------------------------------- */
/* Helpers                                                                                         */
/* ---------------------------------------------------------------------------------------------- */

/* Parses a test module; NULL (and a failed check) when it does not parse. */
static hr_module *parse(const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("test.mlir", text, strlen(text), NULL, &m));
  return m;
}

/* Number of top-level ops of main with `code`. */
static int count(const hr_module *m, hr_opcode code) {
  const hr_func *fn = hr_module_find_func(m, "main");
  int n = 0;
  for (int k = 0; fn && k < fn->body.n_ops; k++) n += fn->body.ops[k]->code == code;
  return n;
}

/* A deterministic input for parameter `p`: f32 in [-2, 2), f64 likewise, integers small. */
static hr_tensor *input(const hr_type *t, int p) {
  hr_tensor *x = NULL;
  CHECK_OK(hr_tensor_create(NULL, t->dtype, &t->shape, 0, &x));
  if (!x) return NULL;
  uint32_t s = 2654435761u * (uint32_t)(p + 1);
  for (int64_t i = 0; i < hr_tensor_num_elements(x); i++) {
    s = s * 1664525u + 1013904223u;
    double v = (double)(s >> 8) / (double)(1u << 24) * 4.0 - 2.0;
    if (t->dtype == HR_F32) ((float *)x->data)[i] = (float)v;
    else if (t->dtype == HR_F64) ((double *)x->data)[i] = v;
  }
  return x;
}

/* Runs main of `m` on the inputs; NULL on failure (reported). */
static hr_tensor **run(const hr_module *m, hr_tensor **inputs, int n, int *n_out) {
  hr_tensor **out = NULL;
  hr_run_options o = {.num_threads = 2};
  CHECK_OK(hr_module_run(m, "main", inputs, n, &o, &out, n_out));
  return out;
}

/* Whether two results agree: bit for bit when tol == 0, else |a - b| <= tol * (1 + |a|). */
static bool agree(const hr_tensor *a, const hr_tensor *b, double tol) {
  if (a->dtype != b->dtype || a->nbytes != b->nbytes) return false;
  if (tol == 0.0 || a->dtype != HR_F32) return memcmp(a->data, b->data, a->nbytes) == 0;
  const float *x = a->data, *y = b->data;
  for (int64_t i = 0; i < hr_tensor_num_elements(a); i++)
    if (!(fabs((double)x[i] - (double)y[i]) <= tol * (1.0 + fabs((double)x[i])))) return false;
  return true;
}

/* How a case is fused. */
typedef struct fuse_case {
  unsigned weights; /* bit p: parameter p is bound to a weight */
  unsigned disable; /* HR_FUSE_* bits */
  double tol;       /* 0: fused and unfused results must be identical */
  size_t max_joined; /* hr_fuse_options.max_joined_bytes */
} fuse_case;

/* Fuses `text` as `c` says, checks the result prints and re-parses, and compares the fused and
 * unfused results. Returns the fused module (NULL on failure) and its statistics. */
static hr_module *fuse(const char *text, fuse_case c, hr_fuse_stats *st) {
  hr_module *ref = parse(text), *m = parse(text);
  const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
  hr_tensor *inputs[MAX_PARAMS] = {0};
  const hr_tensor *bound[MAX_PARAMS] = {0};
  memset(st, 0, sizeof *st);
  if (!ref || !fn || fn->n_args > MAX_PARAMS) {
    hr_module_free(ref);
    hr_module_free(m);
    return NULL;
  }
  for (int p = 0; p < fn->n_args; p++) {
    inputs[p] = input(&fn->body.args[p].type, p);
    if (c.weights >> p & 1) bound[p] = inputs[p];
  }
  hr_fuse_options o = {.bound = bound, .n_bound = fn->n_args, .disable = c.disable, .stats = st,
                       .max_joined_bytes = c.max_joined};
  CHECK_OK(hr_fuse(m, &o));
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK_OK(hr_module_print_to(m, &sb));
  hr_module *again = NULL;
  CHECK_OK(hr_module_parse("fused.mlir", sb.data, sb.len, NULL, &again));
  hr_module_free(again);
  hr_strbuf_free(&sb);
  int na = 0, nb = 0;
  hr_tensor **a = run(ref, inputs, fn->n_args, &na), **b = run(m, inputs, fn->n_args, &nb);
  CHECK(a && b && na == nb);
  for (int i = 0; a && b && i < na && i < nb; i++) CHECK(agree(a[i], b[i], c.tol));
  if (a) hr_tensors_free(a, na);
  if (b) hr_tensors_free(b, nb);
  for (int p = 0; p < fn->n_args; p++) hr_tensor_free(inputs[p]);
  hr_module_free(ref);
  return m;
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.matmul                                                                                   */
/* ---------------------------------------------------------------------------------------------- */

/* A dense layer with a bias (broadcast from a [1, 1, N] reshape), JAX's GELU and a residual. */
static const char *kDenseGelu =
    "func.func @main(%x: tensor<2x3x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>, %r: tensor<2x3x16xf32>) -> tensor<2x3x16xf32> {\n"
    "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [2] x [0] : (tensor<2x3x8xf32>, tensor<8x16xf32>) -> tensor<2x3x16xf32>\n"
    "  %1 = stablehlo.reshape %b : (tensor<16xf32>) -> tensor<1x1x16xf32>\n"
    "  %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x1x16xf32>) -> tensor<2x3x16xf32>\n"
    "  %3 = stablehlo.add %0, %2 : tensor<2x3x16xf32>\n"
    "  %4 = stablehlo.multiply %3, %3 : tensor<2x3x16xf32>\n"
    "  %5 = stablehlo.multiply %3, %4 : tensor<2x3x16xf32>\n"
    "  %c1 = stablehlo.constant dense<4.471500e-02> : tensor<f32>\n"
    "  %6 = stablehlo.broadcast_in_dim %c1, dims = [] : (tensor<f32>) -> tensor<2x3x16xf32>\n"
    "  %7 = stablehlo.multiply %6, %5 : tensor<2x3x16xf32>\n"
    "  %8 = stablehlo.add %3, %7 : tensor<2x3x16xf32>\n"
    "  %c2 = stablehlo.constant dense<0.797884583> : tensor<2x3x16xf32>\n"
    "  %9 = stablehlo.multiply %c2, %8 : tensor<2x3x16xf32>\n"
    "  %10 = stablehlo.tanh %9 : tensor<2x3x16xf32>\n"
    "  %c3 = stablehlo.constant dense<1.0> : tensor<f32>\n"
    "  %11 = stablehlo.broadcast_in_dim %c3, dims = [] : (tensor<f32>) -> tensor<2x3x16xf32>\n"
    "  %12 = stablehlo.add %11, %10 : tensor<2x3x16xf32>\n"
    "  %c4 = stablehlo.constant dense<0.5> : tensor<f32>\n"
    "  %13 = stablehlo.broadcast_in_dim %c4, dims = [] : (tensor<f32>) -> tensor<2x3x16xf32>\n"
    "  %14 = stablehlo.multiply %13, %12 : tensor<2x3x16xf32>\n"
    "  %15 = stablehlo.multiply %3, %14 : tensor<2x3x16xf32>\n"
    "  %16 = stablehlo.add %r, %15 : tensor<2x3x16xf32>\n"
    "  return %16 : tensor<2x3x16xf32>\n"
    "}\n";

TEST(matmul_absorbs_bias_gelu_and_residual) {
  hr_fuse_stats st;
  hr_module *m = fuse(kDenseGelu, (fuse_case){.weights = 1u << 1}, &st);
  CHECK_EQ_INT(st.matmul, 1);
  CHECK_EQ_INT(st.epilogue_ops, 11);
  CHECK_EQ_INT(st.fused, 0);
  CHECK_EQ_INT(st.ops_after, 2); /* the matmul and the return */
  if (m) CHECK_EQ_INT(count(m, HR_OP_HLORUN_MATMUL), 1);
  hr_module_free(m);
}

TEST(matmul_needs_a_weight) {
  hr_fuse_stats st;
  hr_module *m = fuse(kDenseGelu, (fuse_case){0}, &st);
  CHECK_EQ_INT(st.matmul, 0);
  CHECK_EQ_INT(st.fused, 1); /* the bias, GELU and residual still become one hlorun.fused */
  CHECK_EQ_INT(st.fused_ops, 11);
  if (m) CHECK_EQ_INT(count(m, HR_OP_DOT_GENERAL), 1);
  hr_module_free(m);
}

/* A product of two values of the run: fused (B packed per run) when large, left alone when small. */
static const char *kActivations =
    "func.func @main(%x: tensor<64x256xf32>, %y: tensor<256x128xf32>, %z: tensor<128x256xf32>) -> (tensor<64x128xf32>, tensor<64x128xf32>) {\n"
    "  %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>\n"
    "  %1 = stablehlo.dot_general %x, %z, contracting_dims = [1] x [1] : (tensor<64x256xf32>, tensor<128x256xf32>) -> tensor<64x128xf32>\n"
    "  return %0, %1 : tensor<64x128xf32>, tensor<64x128xf32>\n"
    "}\n";

TEST(matmul_by_a_run_time_operand_when_large) {
  hr_fuse_stats st;
  hr_module *m = fuse(kActivations, (fuse_case){.tol = 1e-5}, &st);
  CHECK_EQ_INT(st.matmul, 2); /* 64 x 256 x 128 = 2^21 multiply-adds each, B as [K, N] and [N, K] */
  if (m) CHECK_EQ_INT(count(m, HR_OP_DOT_GENERAL), 0);
  hr_module_free(m);
}

/* Products by slices of a matrix (a weight's shard, as shard_map bodies take them): the matmul reads
 * the matrix through b_window, the slices go; rows and columns of w, and a slice of w's transpose
 * layout. Bound: packed once; of the run: fused when large. */
static const char *kWindows =
    "func.func @main(%x: tensor<64x256xf32>, %w: tensor<512x384xf32>) -> (tensor<64x128xf32>, tensor<64x100xf32>) {\n"
    "  %s0 = stablehlo.slice %w [256:512, 128:256] : (tensor<512x384xf32>) -> tensor<256x128xf32>\n"
    "  %0 = stablehlo.dot_general %x, %s0, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>\n"
    "  %s1 = stablehlo.slice %w [10:110, 100:356] : (tensor<512x384xf32>) -> tensor<100x256xf32>\n"
    "  %1 = stablehlo.dot_general %x, %s1, contracting_dims = [1] x [1] : (tensor<64x256xf32>, tensor<100x256xf32>) -> tensor<64x100xf32>\n"
    "  return %0, %1 : tensor<64x128xf32>, tensor<64x100xf32>\n"
    "}\n";

TEST(matmul_by_slices_reads_windows) {
  for (int bound = 0; bound < 2; bound++) {
    hr_fuse_stats st;
    hr_module *m = fuse(kWindows, (fuse_case){.weights = bound ? 1u << 1 : 0, .tol = 1e-5}, &st);
    CHECK_EQ_INT(st.matmul, 2);
    if (!m) continue;
    CHECK_EQ_INT(count(m, HR_OP_SLICE), 0);
    const hr_block *body = &hr_module_find_func(m, "main")->body;
    int windows = 0;
    for (int k = 0; k < body->n_ops; k++) {
      int64_t w[4];
      int n = 0;
      if (body->ops[k]->code != HR_OP_HLORUN_MATMUL) continue;
      CHECK_OK(hr_op_attr_i64_list(body->ops[k], "b_window", w, 4, &n));
      windows += n == 4 && ((w[0] == 256 && w[1] == 128 && w[2] == 256 && w[3] == 128) ||
                            (w[0] == 10 && w[1] == 100 && w[2] == 100 && w[3] == 256));
    }
    CHECK_EQ_INT(windows, 2);
    hr_module_free(m);
  }
  /* a strided slice is no window */
  hr_fuse_stats st;
  hr_module *m = fuse("func.func @main(%x: tensor<64x256xf32>, %w: tensor<512x128xf32>) -> tensor<64x128xf32> {\n"
                      "  %s = stablehlo.slice %w [0:512:2, 0:128] : (tensor<512x128xf32>) -> tensor<256x128xf32>\n"
                      "  %0 = stablehlo.dot_general %x, %s, contracting_dims = [1] x [0] : (tensor<64x256xf32>, tensor<256x128xf32>) -> tensor<64x128xf32>\n"
                      "  return %0 : tensor<64x128xf32>\n}\n",
                      (fuse_case){.tol = 1e-5}, &st);
  CHECK_EQ_INT(st.matmul, 1); /* by the slice's value, packed per run */
  if (m) CHECK_EQ_INT(count(m, HR_OP_SLICE), 1);
  hr_module_free(m);
}

TEST(matmul_without_epilogues) {
  hr_fuse_stats st;
  hr_module *m = fuse(kDenseGelu, (fuse_case){.weights = 1u << 1, .disable = HR_FUSE_EPILOGUE}, &st);
  CHECK_EQ_INT(st.matmul, 1);
  CHECK_EQ_INT(st.epilogue_ops, 0);
  CHECK_EQ_INT(st.fused, 1);
  hr_module_free(m);
  m = fuse(kDenseGelu, (fuse_case){.weights = 1u << 1, .disable = HR_FUSE_MATMUL | HR_FUSE_ELEMENTWISE}, &st);
  CHECK_EQ_INT(st.matmul + st.fused, 0);
  CHECK_EQ_INT(st.ops_after, st.ops_before);
  hr_module_free(m);
}

TEST(matmul_transposed_weights) {
  /* b as [N, K] (contracting its dimension 1), and b as transpose(w) of a [N, K] weight. */
  static const char *kContract1 =
      "func.func @main(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {\n"
      "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [1] : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>\n"
      "  return %0 : tensor<4x16xf32>\n"
      "}\n";
  static const char *kTransposed =
      "func.func @main(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) -> tensor<4x16xf32> {\n"
      "  %t = stablehlo.transpose %w, dims = [1, 0] : (tensor<16x8xf32>) -> tensor<8x16xf32>\n"
      "  %0 = stablehlo.dot_general %x, %t, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>\n"
      "  return %0 : tensor<4x16xf32>\n"
      "}\n";
  const char *texts[] = {kContract1, kTransposed};
  for (int i = 0; i < 2; i++) {
    hr_fuse_stats st;
    hr_module *m = fuse(texts[i], (fuse_case){.weights = 1u << 1}, &st);
    CHECK_EQ_INT(st.matmul, 1);
    CHECK_EQ_INT(st.ops_after, 2);
    const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
    const hr_attr *tb = fn ? hr_op_attr(fn->body.ops[0], "transpose_b") : NULL;
    CHECK(tb && tb->kind == HR_ATTR_BOOL && tb->u.b);
    if (fn) CHECK(fn->body.ops[0]->operands[1] == &fn->body.args[1]);
    hr_module_free(m);
  }
}

TEST(matmul_constant_b_with_dot) {
  static const char *kDot =
      "func.func @main(%x: tensor<4x2xf32>) -> tensor<4x3xf32> {\n"
      "  %c = stablehlo.constant dense<[[1.0, 2.0, 3.0], [-1.5, 0.25, 4.0]]> : tensor<2x3xf32>\n"
      "  %0 = \"stablehlo.dot\"(%x, %c) : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>\n"
      "  %1 = stablehlo.logistic %0 : tensor<4x3xf32>\n"
      "  return %1 : tensor<4x3xf32>\n"
      "}\n";
  hr_fuse_stats st;
  hr_module *m = fuse(kDot, (fuse_case){0}, &st);
  CHECK_EQ_INT(st.matmul, 1);
  CHECK_EQ_INT(st.epilogue_ops, 1);
  hr_module_free(m);
}

TEST(matmul_near_misses) {
  /* Batch dimensions, a rank-1 a, a contracted dimension of a that is not its last, f64: no
   * hlorun.matmul. */
  static const char *kTexts[] = {
      "func.func @main(%x: tensor<2x4x8xf32>, %w: tensor<2x8x16xf32>) -> tensor<2x4x16xf32> {\n"
      "  %0 = stablehlo.dot_general %x, %w, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>\n"
      "  return %0 : tensor<2x4x16xf32>\n}\n",
      "func.func @main(%x: tensor<8xf32>, %w: tensor<8x16xf32>) -> tensor<16xf32> {\n"
      "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [0] x [0] : (tensor<8xf32>, tensor<8x16xf32>) -> tensor<16xf32>\n"
      "  return %0 : tensor<16xf32>\n}\n",
      "func.func @main(%x: tensor<8x4xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {\n"
      "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [0] x [0] : (tensor<8x4xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>\n"
      "  return %0 : tensor<4x16xf32>\n}\n",
      "func.func @main(%x: tensor<4x8xf64>, %w: tensor<8x16xf64>) -> tensor<4x16xf64> {\n"
      "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf64>, tensor<8x16xf64>) -> tensor<4x16xf64>\n"
      "  %1 = stablehlo.tanh %0 : tensor<4x16xf64>\n"
      "  return %1 : tensor<4x16xf64>\n}\n",
  };
  for (size_t i = 0; i < sizeof kTexts / sizeof kTexts[0]; i++) {
    hr_fuse_stats st;
    hr_module *m = fuse(kTexts[i], (fuse_case){.weights = 1u << 1}, &st);
    CHECK_EQ_INT(st.matmul + st.fused, 0);
    CHECK_EQ_INT(st.ops_after, st.ops_before);
    hr_module_free(m);
  }
}

TEST(matmul_epilogue_stops_where_values_escape) {
  /* %1 is returned too: the epilogue keeps only the bias add; tanh stays alone. */
  static const char *kEscape =
      "func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {\n"
      "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>\n"
      "  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<16xf32>) -> tensor<4x16xf32>\n"
      "  %1 = stablehlo.add %0, %bb : tensor<4x16xf32>\n"
      "  %2 = stablehlo.tanh %1 : tensor<4x16xf32>\n"
      "  return %1, %2 : tensor<4x16xf32>, tensor<4x16xf32>\n"
      "}\n";
  /* The subtrahend depends on the product through a reduce: the epilogue must stay empty. */
  static const char *kDependent =
      "func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {\n"
      "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %s = stablehlo.reduce(%0 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>\n"
      "  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<4xf32>) -> tensor<4x16xf32>\n"
      "  %1 = stablehlo.subtract %0, %sb : tensor<4x16xf32>\n"
      "  return %1 : tensor<4x16xf32>\n"
      "}\n";
  hr_fuse_stats st;
  hr_module *m = fuse(kEscape, (fuse_case){.weights = 1u << 1}, &st);
  CHECK_EQ_INT(st.matmul, 1);
  CHECK_EQ_INT(st.epilogue_ops, 1);
  if (m) CHECK_EQ_INT(count(m, HR_OP_TANH), 1);
  hr_module_free(m);
  m = fuse(kDependent, (fuse_case){.weights = 1u << 1}, &st);
  CHECK_EQ_INT(st.matmul, 1);
  CHECK_EQ_INT(st.epilogue_ops, 0);
  if (m) CHECK_EQ_INT(count(m, HR_OP_REDUCE), 1);
  hr_module_free(m);
}

TEST(matmul_folded_bias_becomes_a_column) {
  /* Specialization folds broadcast_in_dim of a constant bias into a full constant: equal rows make
   * it a per-column [N] operand again; unequal rows keep it a full-shape operand. */
  for (int equal = 0; equal < 2; equal++) {
    char text[1024];
    snprintf(text, sizeof text,
             "func.func @main(%%x: tensor<4x8xf32>, %%w: tensor<8x3xf32>) -> tensor<4x3xf32> {\n"
             "  %%0 = stablehlo.dot_general %%x, %%w, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x3xf32>) -> tensor<4x3xf32>\n"
             "  %%c = stablehlo.constant dense<[[1.0, -2.0, 0.5], [1.0, -2.0, 0.5], [1.0, -2.0, 0.5], [1.0, -2.0, %s]]> : tensor<4x3xf32>\n"
             "  %%1 = stablehlo.add %%0, %%c : tensor<4x3xf32>\n"
             "  return %%1 : tensor<4x3xf32>\n"
             "}\n",
             equal ? "0.5" : "0.75");
    hr_fuse_stats st;
    hr_module *m = fuse(text, (fuse_case){.weights = 1u << 1}, &st);
    CHECK_EQ_INT(st.matmul, 1);
    CHECK_EQ_INT(st.epilogue_ops, 1);
    const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
    const hr_op *mm = NULL;
    for (int k = 0; fn && k < fn->body.n_ops; k++)
      if (fn->body.ops[k]->code == HR_OP_HLORUN_MATMUL) mm = fn->body.ops[k];
    CHECK(mm && mm->n_operands == 3 && mm->operands[2]->type.shape.rank == (equal ? 1 : 2));
    hr_module_free(m);
  }
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.softmax                                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* jax.nn.softmax over the last dimension of a [2, 3, 5] tensor; %KEEP selects the broadcasts
 * read straight from the reduction or through a keepdims reshape. */
static char *softmax_text(bool keepdims, const char *max_init, const char *exp_twice) {
  static char buf[4096];
  const char *bcast_m = keepdims ? "  %mr = stablehlo.reshape %m : (tensor<2x3xf32>) -> tensor<2x3x1xf32>\n"
                                   "  %mb = stablehlo.broadcast_in_dim %mr, dims = [0, 1, 2] : (tensor<2x3x1xf32>) -> tensor<2x3x5xf32>\n"
                                 : "  %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x5xf32>\n";
  snprintf(buf, sizeof buf,
           "func.func @main(%%x: tensor<2x3x5xf32>) -> (tensor<2x3x5xf32>%s) {\n"
           "  %%ninf = stablehlo.constant dense<%s> : tensor<f32>\n"
           "  %%m = stablehlo.reduce(%%x init: %%ninf) applies stablehlo.maximum across dimensions = [2] : (tensor<2x3x5xf32>, tensor<f32>) -> tensor<2x3xf32>\n"
           "%s"
           "  %%d = stablehlo.subtract %%x, %%mb : tensor<2x3x5xf32>\n"
           "  %%e = stablehlo.exponential %%d : tensor<2x3x5xf32>\n"
           "  %%z = stablehlo.constant dense<0.0> : tensor<f32>\n"
           "  %%s = stablehlo.reduce(%%e init: %%z) applies stablehlo.add across dimensions = [2] : (tensor<2x3x5xf32>, tensor<f32>) -> tensor<2x3xf32>\n"
           "  %%sb = stablehlo.broadcast_in_dim %%s, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x5xf32>\n"
           "  %%y = stablehlo.divide %%e, %%sb : tensor<2x3x5xf32>\n"
           "  return %%y%s : tensor<2x3x5xf32>%s\n"
           "}\n",
           exp_twice ? ", tensor<2x3x5xf32>" : "", max_init, bcast_m, exp_twice ? ", %e" : "",
           exp_twice ? ", tensor<2x3x5xf32>" : "");
  return buf;
}

TEST(softmax_fuses) {
  for (int keep = 0; keep < 2; keep++) {
    hr_fuse_stats st;
    hr_module *m = fuse(softmax_text(keep, "0xFF800000", NULL), (fuse_case){0}, &st);
    CHECK_EQ_INT(st.softmax, 1);
    CHECK_EQ_INT(st.ops_after, 2);
    hr_module_free(m);
  }
}

TEST(softmax_near_misses) {
  hr_fuse_stats st;
  /* The maximum starts at 0, not -inf. */
  hr_module *m = fuse(softmax_text(false, "0.0", NULL), (fuse_case){0}, &st);
  CHECK_EQ_INT(st.softmax, 0);
  hr_module_free(m);
  /* The exponentials are returned too. */
  m = fuse(softmax_text(false, "0xFF800000", "yes"), (fuse_case){0}, &st);
  CHECK_EQ_INT(st.softmax, 0);
  hr_module_free(m);
  /* A reduction over dimension 1 (not the last). */
  static const char *kDim1 =
      "func.func @main(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {\n"
      "  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
      "  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<3x5xf32>, tensor<f32>) -> tensor<5xf32>\n"
      "  %mb = stablehlo.broadcast_in_dim %m, dims = [1] : (tensor<5xf32>) -> tensor<3x5xf32>\n"
      "  %d = stablehlo.subtract %x, %mb : tensor<3x5xf32>\n"
      "  %e = stablehlo.exponential %d : tensor<3x5xf32>\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3x5xf32>, tensor<f32>) -> tensor<5xf32>\n"
      "  %sb = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<5xf32>) -> tensor<3x5xf32>\n"
      "  %y = stablehlo.divide %e, %sb : tensor<3x5xf32>\n"
      "  return %y : tensor<3x5xf32>\n"
      "}\n";
  m = fuse(kDim1, (fuse_case){0}, &st);
  CHECK_EQ_INT(st.softmax, 0);
  hr_module_free(m);
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.layer_norm                                                                               */
/* ---------------------------------------------------------------------------------------------- */

/* flax LayerNorm over the last dimension (8) of x [2, 3, 8] with the fast variance, as the
 * specialized TinyTransformer has it. %DIV is the divisor, %EPS the epsilon line. */
static char *layer_norm_fast(const char *divisor, bool scale_per_column) {
  static char buf[4096];
  snprintf(buf, sizeof buf,
           "func.func @main(%%x: tensor<2x3x8xf32>, %%scale: tensor<8xf32>, %%bias: tensor<8xf32>, %%rs: tensor<2x3xf32>) -> tensor<2x3x8xf32> {\n"
           "  %%z = stablehlo.constant dense<0.0> : tensor<f32>\n"
           "  %%s1 = stablehlo.reduce(%%x init: %%z) applies stablehlo.add across dimensions = [2] : (tensor<2x3x8xf32>, tensor<f32>) -> tensor<2x3xf32>\n"
           "  %%d = stablehlo.constant dense<%s> : tensor<2x3xf32>\n"
           "  %%mean = stablehlo.divide %%s1, %%d : tensor<2x3xf32>\n"
           "  %%xx = stablehlo.multiply %%x, %%x : tensor<2x3x8xf32>\n"
           "  %%s2 = stablehlo.reduce(%%xx init: %%z) applies stablehlo.add across dimensions = [2] : (tensor<2x3x8xf32>, tensor<f32>) -> tensor<2x3xf32>\n"
           "  %%msq = stablehlo.divide %%s2, %%d : tensor<2x3xf32>\n"
           "  %%mm = stablehlo.multiply %%mean, %%mean : tensor<2x3xf32>\n"
           "  %%v0 = stablehlo.subtract %%msq, %%mm : tensor<2x3xf32>\n"
           "  %%zeros = stablehlo.constant dense<0.0> : tensor<2x3xf32>\n"
           "  %%var = stablehlo.maximum %%zeros, %%v0 : tensor<2x3xf32>\n"
           "  %%meanb = stablehlo.broadcast_in_dim %%mean, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x8xf32>\n"
           "  %%xm = stablehlo.subtract %%x, %%meanb : tensor<2x3x8xf32>\n"
           "  %%eps = stablehlo.constant dense<9.99999997E-7> : tensor<2x3xf32>\n"
           "  %%ve = stablehlo.add %%var, %%eps : tensor<2x3xf32>\n"
           "  %%inv = stablehlo.rsqrt %%ve : tensor<2x3xf32>\n"
           "  %%invb = stablehlo.broadcast_in_dim %%inv, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x8xf32>\n"
           "%s"
           "  %%t = stablehlo.multiply %%invb, %%scb : tensor<2x3x8xf32>\n"
           "  %%u = stablehlo.multiply %%xm, %%t : tensor<2x3x8xf32>\n"
           "  %%br = stablehlo.reshape %%bias : (tensor<8xf32>) -> tensor<1x1x8xf32>\n"
           "  %%bb = stablehlo.broadcast_in_dim %%br, dims = [0, 1, 2] : (tensor<1x1x8xf32>) -> tensor<2x3x8xf32>\n"
           "  %%y = stablehlo.add %%u, %%bb : tensor<2x3x8xf32>\n"
           "  return %%y : tensor<2x3x8xf32>\n"
           "}\n",
           divisor,
           scale_per_column
               ? "  %sr = stablehlo.reshape %scale : (tensor<8xf32>) -> tensor<1x1x8xf32>\n"
                 "  %scb = stablehlo.broadcast_in_dim %sr, dims = [0, 1, 2] : (tensor<1x1x8xf32>) -> tensor<2x3x8xf32>\n"
               : "  %scb = stablehlo.broadcast_in_dim %rs, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x8xf32>\n");
  return buf;
}

/* The two-pass form with keepdims reshapes and the association ((x - mean) * rsqrt) * scale. */
static const char *kLayerNormTwoPass =
    "func.func @main(%x: tensor<4x8xf32>, %scale: tensor<8xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf32> {\n"
    "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
    "  %s1 = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n"
    "  %d = stablehlo.constant dense<8.0> : tensor<4xf32>\n"
    "  %mean = stablehlo.divide %s1, %d : tensor<4xf32>\n"
    "  %meanr = stablehlo.reshape %mean : (tensor<4xf32>) -> tensor<4x1xf32>\n"
    "  %meanb = stablehlo.broadcast_in_dim %meanr, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x8xf32>\n"
    "  %c = stablehlo.subtract %x, %meanb : tensor<4x8xf32>\n"
    "  %cc = stablehlo.multiply %c, %c : tensor<4x8xf32>\n"
    "  %s2 = stablehlo.reduce(%cc init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n"
    "  %var = stablehlo.divide %s2, %d : tensor<4xf32>\n"
    "  %varr = stablehlo.reshape %var : (tensor<4xf32>) -> tensor<4x1xf32>\n"
    "  %eps = stablehlo.constant dense<1.0e-5> : tensor<4x1xf32>\n"
    "  %ve = stablehlo.add %eps, %varr : tensor<4x1xf32>\n"
    "  %inv = stablehlo.rsqrt %ve : tensor<4x1xf32>\n"
    "  %invb = stablehlo.broadcast_in_dim %inv, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x8xf32>\n"
    "  %meanb2 = stablehlo.broadcast_in_dim %meanr, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x8xf32>\n"
    "  %xm = stablehlo.subtract %x, %meanb2 : tensor<4x8xf32>\n"
    "  %n = stablehlo.multiply %xm, %invb : tensor<4x8xf32>\n"
    "  %scb = stablehlo.broadcast_in_dim %scale, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>\n"
    "  %u = stablehlo.multiply %scb, %n : tensor<4x8xf32>\n"
    "  %bb = stablehlo.broadcast_in_dim %bias, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>\n"
    "  %y = stablehlo.add %bb, %u : tensor<4x8xf32>\n"
    "  return %y : tensor<4x8xf32>\n"
    "}\n";

TEST(layer_norm_fuses) {
  hr_fuse_stats st;
  hr_module *m = fuse(layer_norm_fast("8.0", true), (fuse_case){.tol = 1e-5}, &st);
  CHECK_EQ_INT(st.layer_norm, 1);
  CHECK_EQ_INT(st.ops_after, 2);
  const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
  const hr_attr *eps = fn ? hr_op_attr(fn->body.ops[0], "epsilon") : NULL;
  CHECK(eps && eps->kind == HR_ATTR_FLOAT && (float)eps->u.f.value == 9.99999997E-7f);
  if (fn) CHECK(fn->body.ops[0]->operands[1] == &fn->body.args[1] && fn->body.ops[0]->operands[2] == &fn->body.args[2]);
  hr_module_free(m);
  m = fuse(kLayerNormTwoPass, (fuse_case){.tol = 1e-5}, &st);
  CHECK_EQ_INT(st.layer_norm, 1);
  CHECK_EQ_INT(st.ops_after, 2);
  hr_module_free(m);
}

/* `text` with the first occurrence of `from` replaced by `to` (in a static buffer). */
static const char *replace_once(const char *text, const char *from, const char *to) {
  static char buf[8192];
  const char *at = strstr(text, from);
  CHECK(at != NULL);
  if (!at) return text;
  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  return buf;
}

TEST(layer_norm_folded_scale) {
  /* The scale broadcast folded into a constant with equal rows (as specialization does with baked
   * weights) is still a per-column scale. */
  const char *text = replace_once(
      kLayerNormTwoPass, "%scb = stablehlo.broadcast_in_dim %scale, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>",
      "%scb = stablehlo.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], "
      "[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]]> : tensor<4x8xf32>");
  hr_fuse_stats st;
  hr_module *m = fuse(text, (fuse_case){.tol = 1e-5}, &st);
  CHECK_EQ_INT(st.layer_norm, 1);
  const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
  const hr_op *ln = NULL;
  for (int k = 0; fn && k < fn->body.n_ops; k++)
    if (fn->body.ops[k]->code == HR_OP_HLORUN_LAYER_NORM) ln = fn->body.ops[k];
  CHECK(ln && ln->operands[1]->def && ln->operands[1]->def->code == HR_OP_CONSTANT);
  hr_module_free(m);
}

TEST(layer_norm_near_misses) {
  hr_fuse_stats st;
  /* Divides by D - 1: not a layer norm (the chain still fuses elementwise, exactly). */
  hr_module *m = fuse(layer_norm_fast("7.0", true), (fuse_case){0}, &st);
  CHECK_EQ_INT(st.layer_norm, 0);
  hr_module_free(m);
  /* A per-row scale instead of a per-column one. */
  m = fuse(layer_norm_fast("8.0", false), (fuse_case){0}, &st);
  CHECK_EQ_INT(st.layer_norm, 0);
  hr_module_free(m);
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.attention                                                                                */
/* ---------------------------------------------------------------------------------------------- */

/* The end of the attention graphs below: softmax of the (masked) scores %ms [1, 2, 4, 4] over the
 * keys, times %v [1, 4, 2, 3], transposed back to [1, 4, 2, 3] and returned. */
#define SOFTMAX_VALUES                                                                                              \
  "  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"                                                  \
  "  %m = stablehlo.reduce(%ms init: %ninf) applies stablehlo.maximum across dimensions = [3] : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4xf32>\n" \
  "  %mb = stablehlo.broadcast_in_dim %m, dims = [0, 1, 2] : (tensor<1x2x4xf32>) -> tensor<1x2x4x4xf32>\n"         \
  "  %d = stablehlo.subtract %ms, %mb : tensor<1x2x4x4xf32>\n"                                                      \
  "  %e = stablehlo.exponential %d : tensor<1x2x4x4xf32>\n"                                                         \
  "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"                                                            \
  "  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [3] : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4xf32>\n" \
  "  %sb = stablehlo.broadcast_in_dim %s, dims = [0, 1, 2] : (tensor<1x2x4xf32>) -> tensor<1x2x4x4xf32>\n"         \
  "  %p = stablehlo.divide %e, %sb : tensor<1x2x4x4xf32>\n"                                                         \
  "  %o = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : (tensor<1x2x4x4xf32>, tensor<1x4x2x3xf32>) -> tensor<1x2x4x3xf32>\n" \
  "  %y = stablehlo.transpose %o, dims = [0, 2, 1, 3] : (tensor<1x2x4x3xf32>) -> tensor<1x4x2x3xf32>\n"            \
  "  return %y : tensor<1x4x2x3xf32>\n"

/* Causal self-attention over q, k, v [1, 4, 2, 3] as the TinyTransformer lowers it. %SCALE is
 * the line scaling q into %qs; %MASK the lines defining the i1 mask %mask [1, 2, 4, 4]; %SEL the
 * select producing %ms from %mask, %sc and %fill. */
static char *attention_text(const char *scale, const char *mask, const char *sel) {
  static char buf[8192];
  snprintf(buf, sizeof buf,
           "func.func @main(%%q: tensor<1x4x2x3xf32>, %%k: tensor<1x4x2x3xf32>, %%v: tensor<1x4x2x3xf32>) -> tensor<1x4x2x3xf32> {\n"
           "%s"
           "  %%sc = stablehlo.dot_general %%qs, %%k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<1x4x2x3xf32>, tensor<1x4x2x3xf32>) -> tensor<1x2x4x4xf32>\n"
           "%s"
           "  %%f = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>\n"
           "  %%fill = stablehlo.broadcast_in_dim %%f, dims = [] : (tensor<f32>) -> tensor<1x2x4x4xf32>\n"
           "%s"
           "%s"
           "}\n",
           scale, mask, sel, SOFTMAX_VALUES);
  return buf;
}

static const char *kScaleHalf =
    "  %half = stablehlo.constant dense<5.000000e-01> : tensor<1x4x2x3xf32>\n"
    "  %qs = stablehlo.multiply %q, %half : tensor<1x4x2x3xf32>\n";
static const char *kScaleDivide =
    "  %root3 = stablehlo.constant dense<1.73205078> : tensor<f32>\n"
    "  %r3 = stablehlo.broadcast_in_dim %root3, dims = [] : (tensor<f32>) -> tensor<1x4x2x3xf32>\n"
    "  %qs = stablehlo.divide %q, %r3 : tensor<1x4x2x3xf32>\n";
static const char *kMaskIota =
    "  %i0 = stablehlo.iota dim = 0 : tensor<4x4xi32>\n"
    "  %i1 = stablehlo.iota dim = 1 : tensor<4x4xi32>\n"
    "  %c = stablehlo.compare  GE, %i0, %i1,  SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>\n"
    "  %mask = stablehlo.broadcast_in_dim %c, dims = [2, 3] : (tensor<4x4xi1>) -> tensor<1x2x4x4xi1>\n";
static const char *kMaskIotaStrict =
    "  %i0 = stablehlo.iota dim = 0 : tensor<4x4xi32>\n"
    "  %i1 = stablehlo.iota dim = 1 : tensor<4x4xi32>\n"
    "  %c = stablehlo.compare  GT, %i0, %i1,  SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>\n"
    "  %mask = stablehlo.broadcast_in_dim %c, dims = [2, 3] : (tensor<4x4xi1>) -> tensor<1x2x4x4xi1>\n";
/* flax's make_causal_mask: a 1-D iota reshaped to [1, 4, 1] and [1, 1, 4], compared with
 * broadcasting, then the inverted mask (t > s) selects the fill. */
static const char *kMaskFlaxInverted =
    "  %i = stablehlo.iota dim = 0 : tensor<4xi32>\n"
    "  %ia = stablehlo.reshape %i : (tensor<4xi32>) -> tensor<1x4x1xi32>\n"
    "  %ib = stablehlo.reshape %i : (tensor<4xi32>) -> tensor<1x1x4xi32>\n"
    "  %ba = stablehlo.broadcast_in_dim %ia, dims = [0, 1, 2] : (tensor<1x4x1xi32>) -> tensor<1x4x4xi32>\n"
    "  %bb = stablehlo.broadcast_in_dim %ib, dims = [0, 1, 2] : (tensor<1x1x4xi32>) -> tensor<1x4x4xi32>\n"
    "  %c = stablehlo.compare  LT, %ba, %bb,  SIGNED : (tensor<1x4x4xi32>, tensor<1x4x4xi32>) -> tensor<1x4x4xi1>\n"
    "  %mask = stablehlo.broadcast_in_dim %c, dims = [0, 2, 3] : (tensor<1x4x4xi1>) -> tensor<1x2x4x4xi1>\n";
static const char *kSelect = "  %ms = stablehlo.select %mask, %sc, %fill : tensor<1x2x4x4xi1>, tensor<1x2x4x4xf32>\n";
static const char *kSelectInverted = "  %ms = stablehlo.select %mask, %fill, %sc : tensor<1x2x4x4xi1>, tensor<1x2x4x4xf32>\n";
static const char *kNoSelect = "  %ms = stablehlo.add %sc, %sc : tensor<1x2x4x4xf32>\n";

/* The folded form of kMaskIota: a constant [1, 2, 4, 4] lower triangle, optionally with one
 * element flipped. */
static char *mask_constant(bool flip) {
  static char buf[2048];
  size_t n = (size_t)snprintf(buf, sizeof buf, "  %%mask = stablehlo.constant dense<[[");
  for (int h = 0; h < 2; h++) {
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s[", h ? ", " : "");
    for (int s = 0; s < 4; s++) {
      n += (size_t)snprintf(buf + n, sizeof buf - n, "%s[", s ? ", " : "");
      for (int t = 0; t < 4; t++) {
        bool keep = (t <= s) != (flip && h == 1 && s == 2 && t == 3);
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", t ? ", " : "", keep ? "true" : "false");
      }
      n += (size_t)snprintf(buf + n, sizeof buf - n, "]");
    }
    n += (size_t)snprintf(buf + n, sizeof buf - n, "]");
  }
  snprintf(buf + n, sizeof buf - n, "]]> : tensor<1x2x4x4xi1>\n");
  return buf;
}

/* Fuses an attention variant; checks whether hlorun.attention appeared with `causal`. */
static void check_attention(const char *scale, const char *mask, const char *sel, int want, bool causal, double tol) {
  char scale_copy[1024], mask_copy[2048];
  snprintf(scale_copy, sizeof scale_copy, "%s", scale);
  snprintf(mask_copy, sizeof mask_copy, "%s", mask);
  hr_fuse_stats st;
  hr_module *m = fuse(attention_text(scale_copy, mask_copy, sel), (fuse_case){.tol = tol}, &st);
  CHECK_EQ_INT(st.attention, want);
  const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
  for (int k = 0; fn && k < fn->body.n_ops; k++) {
    const hr_op *op = fn->body.ops[k];
    if (op->code != HR_OP_HLORUN_ATTENTION) continue;
    const hr_attr *c = hr_op_attr(op, "causal");
    CHECK(c && c->kind == HR_ATTR_BOOL && c->u.b == causal);
    CHECK_EQ_INT(fn->body.n_ops, 2);
  }
  hr_module_free(m);
}

TEST(attention_fuses) {
  check_attention(kScaleHalf, mask_constant(false), kSelect, 1, true, 0);
  check_attention(kScaleHalf, kMaskIota, kSelect, 1, true, 0);
  check_attention(kScaleHalf, kMaskFlaxInverted, kSelectInverted, 1, true, 0);
  check_attention(kScaleDivide, kMaskIota, kSelect, 1, true, 1e-5);
}

TEST(attention_without_mask) {
  static const char *kPlain =
      "func.func @main(%q: tensor<1x4x2x3xf32>, %k: tensor<1x4x2x3xf32>, %v: tensor<1x4x2x3xf32>) -> tensor<1x4x2x3xf32> {\n"
      "  %ms = stablehlo.dot_general %q, %k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<1x4x2x3xf32>, tensor<1x4x2x3xf32>) -> tensor<1x2x4x4xf32>\n"
      SOFTMAX_VALUES
      "}\n";
  hr_fuse_stats st;
  hr_module *m = fuse(kPlain, (fuse_case){0}, &st);
  CHECK_EQ_INT(st.attention, 1);
  const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
  const hr_attr *c = fn ? hr_op_attr(fn->body.ops[0], "causal") : NULL;
  const hr_attr *s = fn ? hr_op_attr(fn->body.ops[0], "scale") : NULL;
  CHECK(c && c->kind == HR_ATTR_BOOL && !c->u.b);
  CHECK(s && s->kind == HR_ATTR_FLOAT && s->u.f.value == 1.0);
  hr_module_free(m);
}

/* Self-attention over x [1, 4, 6] with projections q, k, v (x . w + b, reshaped to [1, 4, 2, 3])
 * and no mask. `vx` names the value projection's input (x, or another tensor x2: not fusable),
 * `vbias` its bias add (or none: bodies differ, not fusable). */
static char *qkv_text(const char *vx, bool vbias) {
  static char buf[8192];
  snprintf(buf, sizeof buf,
      "func.func @main(%%x: tensor<1x4x6xf32>, %%x2: tensor<1x4x6xf32>, %%wq: tensor<6x6xf32>, %%wk: tensor<6x6xf32>, %%wv: tensor<6x6xf32>, %%bq: tensor<6xf32>, %%bk: tensor<6xf32>, %%bv: tensor<6xf32>) -> tensor<1x4x2x3xf32> {\n"
      "  %%q0 = stablehlo.dot_general %%x, %%wq, contracting_dims = [2] x [0] : (tensor<1x4x6xf32>, tensor<6x6xf32>) -> tensor<1x4x6xf32>\n"
      "  %%bqb = stablehlo.broadcast_in_dim %%bq, dims = [2] : (tensor<6xf32>) -> tensor<1x4x6xf32>\n"
      "  %%q1 = stablehlo.add %%q0, %%bqb : tensor<1x4x6xf32>\n"
      "  %%q = stablehlo.reshape %%q1 : (tensor<1x4x6xf32>) -> tensor<1x4x2x3xf32>\n"
      "  %%k0 = stablehlo.dot_general %%x, %%wk, contracting_dims = [2] x [0] : (tensor<1x4x6xf32>, tensor<6x6xf32>) -> tensor<1x4x6xf32>\n"
      "  %%bkb = stablehlo.broadcast_in_dim %%bk, dims = [2] : (tensor<6xf32>) -> tensor<1x4x6xf32>\n"
      "  %%k1 = stablehlo.add %%k0, %%bkb : tensor<1x4x6xf32>\n"
      "  %%k = stablehlo.reshape %%k1 : (tensor<1x4x6xf32>) -> tensor<1x4x2x3xf32>\n"
      "  %%v0 = stablehlo.dot_general %%%s, %%wv, contracting_dims = [2] x [0] : (tensor<1x4x6xf32>, tensor<6x6xf32>) -> tensor<1x4x6xf32>\n"
      "  %%bvb = stablehlo.broadcast_in_dim %%bv, dims = [2] : (tensor<6xf32>) -> tensor<1x4x6xf32>\n"
      "  %%v1 = %s : tensor<1x4x6xf32>\n"
      "  %%v = stablehlo.reshape %%v1 : (tensor<1x4x6xf32>) -> tensor<1x4x2x3xf32>\n"
      "  %%ms = stablehlo.dot_general %%q, %%k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<1x4x2x3xf32>, tensor<1x4x2x3xf32>) -> tensor<1x2x4x4xf32>\n"
      "%s"
      "}\n",
      vx, vbias ? "stablehlo.add %v0, %bvb" : "stablehlo.multiply %v0, %v0", SOFTMAX_VALUES);
  return buf;
}

/* Counts main's top-level ops with `code`. */
static int count_ops(const hr_module *m, hr_opcode code) {
  const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
  int n = 0;
  for (int k = 0; fn && k < fn->body.n_ops; k++) n += fn->body.ops[k]->code == code;
  return n;
}

TEST(qkv_projections_merge) {
  const unsigned weights = 0xfc; /* wq .. bv bound; x and x2 runtime inputs */
  hr_fuse_stats st;
  hr_module *m = fuse(qkv_text("x", true), (fuse_case){.weights = weights, .tol = 1e-5}, &st);
  CHECK_EQ_INT(st.attention, 1);
  CHECK_EQ_INT(st.qkv, 1);
  CHECK_EQ_INT(count_ops(m, HR_OP_HLORUN_MATMUL), 1);
  const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
  for (int k = 0; fn && k < fn->body.n_ops; k++)
    if (fn->body.ops[k]->code == HR_OP_HLORUN_ATTENTION) CHECK_EQ_INT(fn->body.ops[k]->n_operands, 1);
  hr_module_free(m);
  /* Not merged: the value projection reads another tensor, has another body, or the weights are
   * runtime inputs; or the fusion is disabled, or the joined weight would be too large. */
  m = fuse(qkv_text("x2", true), (fuse_case){.weights = weights, .tol = 1e-5}, &st);
  CHECK_EQ_INT(st.qkv, 0);
  CHECK_EQ_INT(count_ops(m, HR_OP_HLORUN_MATMUL), 3);
  hr_module_free(m);
  m = fuse(qkv_text("x", false), (fuse_case){.weights = weights, .tol = 1e-5}, &st);
  CHECK_EQ_INT(st.qkv, 0);
  hr_module_free(m);
  m = fuse(qkv_text("x", true), (fuse_case){.weights = 0, .tol = 1e-5}, &st);
  CHECK_EQ_INT(st.qkv, 0);
  hr_module_free(m);
  m = fuse(qkv_text("x", true), (fuse_case){.weights = weights, .disable = HR_FUSE_QKV, .tol = 1e-5}, &st);
  CHECK_EQ_INT(st.qkv, 0);
  CHECK_EQ_INT(count_ops(m, HR_OP_HLORUN_MATMUL), 3);
  hr_module_free(m);
  /* The joined weight (3 x 6 x 6 f32 = 432 bytes) above the limit. */
  m = fuse(qkv_text("x", true), (fuse_case){.weights = weights, .tol = 1e-5, .max_joined = 431}, &st);
  CHECK_EQ_INT(st.qkv, 0);
  hr_module_free(m);
  m = fuse(qkv_text("x", true), (fuse_case){.weights = weights, .tol = 1e-5, .max_joined = 432}, &st);
  CHECK_EQ_INT(st.qkv, 1);
  hr_module_free(m);
}

TEST(attention_near_misses) {
  /* A strictly lower mask, a mask with one element flipped, a fill of -1, the inverted select
   * with a keep-mask, scores changed by something else than a mask: each leaves the attention
   * unfused (the softmax still fuses). */
  static const char *kFillMinusOne = "  %ms = stablehlo.select %mask, %sc, %q1 : tensor<1x2x4x4xi1>, tensor<1x2x4x4xf32>\n";
  char mask_with_one[4096];
  snprintf(mask_with_one, sizeof mask_with_one,
           "%s  %%one = stablehlo.constant dense<-1.0> : tensor<f32>\n"
           "  %%q1 = stablehlo.broadcast_in_dim %%one, dims = [] : (tensor<f32>) -> tensor<1x2x4x4xf32>\n",
           kMaskIota);
  check_attention(kScaleHalf, kMaskIotaStrict, kSelect, 0, false, 0);
  check_attention(kScaleHalf, mask_constant(true), kSelect, 0, false, 0);
  check_attention(kScaleHalf, mask_with_one, kFillMinusOne, 0, false, 0);
  check_attention(kScaleHalf, kMaskIota, kSelectInverted, 0, false, 0);
  check_attention(kScaleHalf, "", kNoSelect, 0, false, 0);
}

/* ---------------------------------------------------------------------------------------------- */
/* hlorun.fused                                                                                    */
/* ---------------------------------------------------------------------------------------------- */

TEST(elementwise_chains_fuse) {
  static const char *kChain =
      "func.func @main(%x: tensor<3x5xf32>, %y: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {\n"
      "  %0 = stablehlo.multiply %x, %y : tensor<3x5xf32>\n"
      "  %br = stablehlo.reshape %b : (tensor<5xf32>) -> tensor<1x5xf32>\n"
      "  %bb = stablehlo.broadcast_in_dim %br, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<3x5xf32>\n"
      "  %1 = stablehlo.add %0, %bb : tensor<3x5xf32>\n"
      "  %c = stablehlo.constant dense<2.0> : tensor<3x5xf32>\n"
      "  %2 = stablehlo.power %1, %c : tensor<3x5xf32>\n"
      "  %3 = stablehlo.tanh %2 : tensor<3x5xf32>\n"
      "  return %3 : tensor<3x5xf32>\n"
      "}\n";
  hr_fuse_stats st;
  hr_module *m = fuse(kChain, (fuse_case){0}, &st);
  CHECK_EQ_INT(st.fused, 1);
  CHECK_EQ_INT(st.fused_ops, 4);
  CHECK_EQ_INT(st.ops_after, 2);
  const hr_func *fn = m ? hr_module_find_func(m, "main") : NULL;
  if (fn) {
    const hr_op *f = fn->body.ops[0];
    CHECK_EQ_INT(f->n_operands, 3); /* x, y and b itself, read along dimension 1 */
    CHECK(f->operands[2] == &fn->body.args[2]);
  }
  hr_module_free(m);
}

TEST(large_bodies_are_exact) {
  /* Results of 180,000 elements: the bodies run in several chunks, the broadcasts start them at
   * arbitrary indices. */
  static const char *kLarge =
      "func.func @main(%x: tensor<3x300x8xf32>, %w: tensor<8x200xf32>, %b: tensor<200xf32>, %r: tensor<300x1xf32>) -> tensor<3x300x200xf32> {\n"
      "  %0 = stablehlo.dot_general %x, %w, contracting_dims = [2] x [0] : (tensor<3x300x8xf32>, tensor<8x200xf32>) -> tensor<3x300x200xf32>\n"
      "  %bb = stablehlo.broadcast_in_dim %b, dims = [2] : (tensor<200xf32>) -> tensor<3x300x200xf32>\n"
      "  %1 = stablehlo.add %0, %bb : tensor<3x300x200xf32>\n"
      "  %2 = stablehlo.tanh %1 : tensor<3x300x200xf32>\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %s = stablehlo.reduce(%2 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3x300x200xf32>, tensor<f32>) -> tensor<300x200xf32>\n"
      "  %sb = stablehlo.broadcast_in_dim %s, dims = [1, 2] : (tensor<300x200xf32>) -> tensor<3x300x200xf32>\n"
      "  %rb = stablehlo.broadcast_in_dim %r, dims = [1, 2] : (tensor<300x1xf32>) -> tensor<3x300x200xf32>\n"
      "  %3 = stablehlo.multiply %2, %sb : tensor<3x300x200xf32>\n"
      "  %4 = stablehlo.subtract %3, %rb : tensor<3x300x200xf32>\n"
      "  return %4 : tensor<3x300x200xf32>\n"
      "}\n";
  hr_fuse_stats st;
  hr_module *m = fuse(kLarge, (fuse_case){.weights = 1u << 1}, &st);
  CHECK_EQ_INT(st.matmul, 1);
  CHECK_EQ_INT(st.epilogue_ops, 2);
  CHECK_EQ_INT(st.fused, 1);
  CHECK_EQ_INT(st.fused_ops, 2);
  hr_module_free(m);
}

TEST(elementwise_near_misses) {
  /* One op without a broadcast: nothing to gain. A value read by two chains: no op joins
   * another's group, so nothing fuses. i32: untouched. */
  static const char *kTexts[] = {
      "func.func @main(%x: tensor<3x5xf32>, %y: tensor<3x5xf32>) -> tensor<3x5xf32> {\n"
      "  %0 = stablehlo.add %x, %y : tensor<3x5xf32>\n"
      "  return %0 : tensor<3x5xf32>\n}\n",
      "func.func @main(%x: tensor<3x5xf32>, %y: tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>) {\n"
      "  %0 = stablehlo.multiply %x, %y : tensor<3x5xf32>\n"
      "  %1 = stablehlo.tanh %0 : tensor<3x5xf32>\n"
      "  %2 = stablehlo.exponential %0 : tensor<3x5xf32>\n"
      "  return %1, %2 : tensor<3x5xf32>, tensor<3x5xf32>\n}\n",
      "func.func @main(%x: tensor<3x5xi32>, %y: tensor<3x5xi32>) -> tensor<3x5xi32> {\n"
      "  %0 = stablehlo.multiply %x, %y : tensor<3x5xi32>\n"
      "  %1 = stablehlo.add %0, %y : tensor<3x5xi32>\n"
      "  return %1 : tensor<3x5xi32>\n}\n",
  };
  for (size_t i = 0; i < sizeof kTexts / sizeof kTexts[0]; i++) {
    hr_fuse_stats st;
    hr_module *m = fuse(kTexts[i], (fuse_case){0}, &st);
    CHECK_EQ_INT(st.fused, 0);
    CHECK_EQ_INT(st.ops_after, st.ops_before);
    hr_module_free(m);
  }
}

TEST(no_main_is_an_error) {
  hr_module *m = parse("func.func @other(%x: tensor<f32>) -> tensor<f32> {\n  return %x : tensor<f32>\n}\n");
  if (!m) return;
  hr_status s = hr_fuse(m, NULL);
  CHECK(s && hr_status_code(s) == HR_NOT_FOUND);
  hr_status_free(s);
  hr_module_free(m);
}

int main(void) {
  RUN(matmul_absorbs_bias_gelu_and_residual);
  RUN(matmul_needs_a_weight);
  RUN(matmul_by_a_run_time_operand_when_large);
  RUN(matmul_by_slices_reads_windows);
  RUN(matmul_without_epilogues);
  RUN(matmul_transposed_weights);
  RUN(matmul_constant_b_with_dot);
  RUN(matmul_near_misses);
  RUN(matmul_epilogue_stops_where_values_escape);
  RUN(matmul_folded_bias_becomes_a_column);
  RUN(softmax_fuses);
  RUN(softmax_near_misses);
  RUN(layer_norm_fuses);
  RUN(layer_norm_folded_scale);
  RUN(layer_norm_near_misses);
  RUN(attention_fuses);
  RUN(attention_without_mask);
  RUN(attention_near_misses);
  RUN(qkv_projections_merge);
  RUN(elementwise_chains_fuse);
  RUN(large_bodies_are_exact);
  RUN(elementwise_near_misses);
  RUN(no_main_is_an_error);
  TEST_MAIN_END();
}

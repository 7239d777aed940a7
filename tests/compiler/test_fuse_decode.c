/* The decode step's attention over its KV cache (compiler/fuse_attention.c, position masks): the
 * mask keep[b, h, 0, t] = (t <= position[b]) as JAX lowers it (an iota compared with the position
 * broadcast, the masked scores filled with finfo.min) becomes hlorun.attention(q, k, v, position);
 * the fused program on the interpreter (the reference kernel) and as an executable (the fast
 * kernel, which reads only the keys 0..position[b]) agree with the unfused graph within f32
 * rounding, for positions before, inside and past the cache; near misses stay unfused. */
#include <math.h>
#include <stdint.h>

#include "backend/cpu/cpu_features.h"
#include "base/strbuf.h"
#include "compiler/fuse.h"
#include "runtime/exec_internal.h"
#include "test.h"

/* The decode attention for B = 5 rows, T keys, H = 2 heads of D dims; `cmp` the mask's compare
 * line (%c from %ib, the key indices, and %pb, the positions) and `sel` the select. */
static char *decode_text(int t, int d, const char *cmp, const char *sel) {
  static char buf[8192];
  snprintf(buf, sizeof buf,
           "func.func @main(%%q: tensor<5x1x2x%dxf32>, %%k: tensor<5x%dx2x%dxf32>, %%v: tensor<5x%dx2x%dxf32>, %%pos: "
           "tensor<5xi32>) -> tensor<5x1x2x%dxf32> {\n"
           "  %%iota = stablehlo.iota dim = 0 : tensor<%dxi32>\n"
           "  %%i2 = stablehlo.broadcast_in_dim %%iota, dims = [1] : (tensor<%dxi32>) -> tensor<1x%dxi32>\n"
           "  %%ib = stablehlo.broadcast_in_dim %%i2, dims = [0, 1] : (tensor<1x%dxi32>) -> tensor<5x%dxi32>\n"
           "  %%p1 = stablehlo.broadcast_in_dim %%pos, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>\n"
           "  %%pb = stablehlo.broadcast_in_dim %%p1, dims = [0, 1] : (tensor<5x1xi32>) -> tensor<5x%dxi32>\n"
           "  %s : (tensor<5x%dxi32>, tensor<5x%dxi32>) -> tensor<5x%dxi1>\n"
           "  %%mask = stablehlo.broadcast_in_dim %%c, dims = [0, 3] : (tensor<5x%dxi1>) -> tensor<5x2x1x%dxi1>\n"
           "  %%eighth = stablehlo.constant dense<0.25> : tensor<5x1x2x%dxf32>\n"
           "  %%qs = stablehlo.multiply %%q, %%eighth : tensor<5x1x2x%dxf32>\n"
           "  %%sc = stablehlo.dot_general %%qs, %%k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : "
           "(tensor<5x1x2x%dxf32>, tensor<5x%dx2x%dxf32>) -> tensor<5x2x1x%dxf32>\n"
           "  %%f = stablehlo.constant dense<-3.40282347E+38> : tensor<f32>\n"
           "  %%fill = stablehlo.broadcast_in_dim %%f, dims = [] : (tensor<f32>) -> tensor<5x2x1x%dxf32>\n"
           "  %s : tensor<5x2x1x%dxi1>, tensor<5x2x1x%dxf32>\n"
           "  %%ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
           "  %%mx = stablehlo.reduce(%%ms init: %%ninf) applies stablehlo.maximum across dimensions = [3] : "
           "(tensor<5x2x1x%dxf32>, tensor<f32>) -> tensor<5x2x1xf32>\n"
           "  %%mxb = stablehlo.broadcast_in_dim %%mx, dims = [0, 1, 2] : (tensor<5x2x1xf32>) -> tensor<5x2x1x%dxf32>\n"
           "  %%dd = stablehlo.subtract %%ms, %%mxb : tensor<5x2x1x%dxf32>\n"
           "  %%e = stablehlo.exponential %%dd : tensor<5x2x1x%dxf32>\n"
           "  %%zero = stablehlo.constant dense<0.0> : tensor<f32>\n"
           "  %%sum = stablehlo.reduce(%%e init: %%zero) applies stablehlo.add across dimensions = [3] : "
           "(tensor<5x2x1x%dxf32>, tensor<f32>) -> tensor<5x2x1xf32>\n"
           "  %%sb = stablehlo.broadcast_in_dim %%sum, dims = [0, 1, 2] : (tensor<5x2x1xf32>) -> tensor<5x2x1x%dxf32>\n"
           "  %%p = stablehlo.divide %%e, %%sb : tensor<5x2x1x%dxf32>\n"
           "  %%o = stablehlo.dot_general %%p, %%v, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1] : "
           "(tensor<5x2x1x%dxf32>, tensor<5x%dx2x%dxf32>) -> tensor<5x2x1x%dxf32>\n"
           "  %%y = stablehlo.transpose %%o, dims = [0, 2, 1, 3] : (tensor<5x2x1x%dxf32>) -> tensor<5x1x2x%dxf32>\n"
           "  return %%y : tensor<5x1x2x%dxf32>\n"
           "}\n",
           d, t, d, t, d, d, t, t, t, t, t, t, cmp, t, t, t, t, t, d, d, d, t, d, t, t, sel, t, t, t, t, t, t, t, t, t,
           t, t, d, d, d, d, d);
  return buf;
}

static const char *kKeepLE = "%c = stablehlo.compare  LE, %ib, %pb,  SIGNED";
static const char *kMaskGT = "%c = stablehlo.compare  GT, %ib, %pb,  SIGNED";
static const char *kKeepGE = "%c = stablehlo.compare  GE, %pb, %ib,  SIGNED";
static const char *kKeepLT = "%c = stablehlo.compare  LT, %ib, %pb,  SIGNED"; /* t < p: not t <= p */
static const char *kSelect = "%ms = stablehlo.select %mask, %sc, %fill";
static const char *kSelectInverted = "%ms = stablehlo.select %mask, %fill, %sc";

/* Deterministic inputs: q, k, v in [-2, 2), the positions given. */
static void make_inputs(const hr_func *fn, const int32_t *pos, hr_tensor **in) {
  for (int p = 0; p < 4; p++) {
    const hr_type *t = &fn->body.args[p].type;
    in[p] = NULL;
    CHECK_OK(hr_tensor_create(NULL, t->dtype, &t->shape, 0, &in[p]));
    if (!in[p]) continue;
    uint32_t s = 2654435761u * (uint32_t)(p + 1);
    for (int64_t i = 0; i < hr_tensor_num_elements(in[p]); i++) {
      s = s * 1664525u + 1013904223u;
      if (p < 3) ((float *)in[p]->data)[i] = (float)((double)(s >> 8) / (double)(1u << 24) * 4.0 - 2.0);
      else ((int32_t *)in[p]->data)[i] = pos[i];
    }
  }
}

/* |a - b| <= tol * (1 + |a|) everywhere. */
static bool close(const hr_tensor *a, const hr_tensor *b, double tol) {
  if (a->dtype != b->dtype || a->nbytes != b->nbytes) return false;
  const float *x = a->data, *y = b->data;
  for (int64_t i = 0; i < hr_tensor_num_elements(a); i++)
    if (!(fabs((double)x[i] - (double)y[i]) <= tol * (1.0 + fabs((double)x[i])))) return false;
  return true;
}

/* Fuses the decode attention made of `cmp` and `sel`; checks whether it became hlorun.attention
 * with a position (want), and that the fused program, on the interpreter and as an executable,
 * agrees with the unfused one. */
static void check_decode(int t, int d, const char *cmp, const char *sel, bool want) {
  const char *text = decode_text(t, d, cmp, sel);
  hr_module *ref = NULL, *m = NULL, *m2 = NULL;
  CHECK_OK(hr_module_parse("decode.mlir", text, strlen(text), NULL, &ref));
  CHECK_OK(hr_module_parse("decode.mlir", text, strlen(text), NULL, &m));
  if (!ref || !m) {
    hr_module_free(ref);
    hr_module_free(m);
    return;
  }
  hr_fuse_stats st;
  hr_fuse_options o = {.stats = &st};
  CHECK_OK(hr_fuse(m, &o));
  CHECK_EQ_INT(st.attention, want ? 1 : 0);
  const hr_func *fn = hr_module_find_func(m, "main");
  int positioned = 0;
  for (int k = 0; fn && k < fn->body.n_ops; k++)
    positioned += fn->body.ops[k]->code == HR_OP_HLORUN_ATTENTION && fn->body.ops[k]->n_operands == 4;
  CHECK_EQ_INT(positioned, want ? 1 : 0);
  /* The fused module prints and parses back. */
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  CHECK_OK(hr_module_print_to(m, &sb));
  CHECK_OK(hr_module_parse("fused.mlir", sb.data, sb.len, NULL, &m2));
  hr_strbuf_free(&sb);
  static const int32_t positions[][5] = {{0, 3, 7, 11, 2}, {-1, 1, 25, 19, 6}, {8, -5, 0, 100, 13}};
  hr_run_options ro = {.num_threads = 2};
  hr_exec_options eo = {.num_threads = 2};
  hr_executable *e = NULL;
  if (m2) CHECK_OK(hr_executable_create(m2, NULL, NULL, &eo, &e));
  if (e && want && hr_cpu_avx512_ok()) {
    bool fast = false;
    for (int i = 0; i < hr_executable_num_plan_steps(e); i++)
      fast |= strcmp(hr_executable_step_impl(e, i), "decode_attention") == 0;
    CHECK(fast);
  }
  for (size_t c = 0; c < sizeof positions / sizeof positions[0]; c++) {
    hr_tensor *in[4];
    make_inputs(hr_module_find_func(ref, "main"), positions[c], in);
    hr_tensor **a = NULL, **b = NULL, **x = NULL;
    int na = 0, nb = 0, nx = 0;
    CHECK_OK(hr_module_run(ref, "main", in, 4, &ro, &a, &na));
    CHECK_OK(hr_module_run(m, "main", in, 4, &ro, &b, &nb));
    if (e) CHECK_OK(hr_executable_run(e, in, 4, &x, &nx));
    CHECK(na == 1 && nb == 1 && nx == 1);
    if (na == 1 && nb == 1) CHECK(close(a[0], b[0], 1e-5));
    if (na == 1 && nx == 1) CHECK(close(a[0], x[0], 1e-5));
    hr_tensors_free(a, na);
    hr_tensors_free(b, nb);
    hr_tensors_free(x, nx);
    for (int p = 0; p < 4; p++) hr_tensor_free(in[p]);
  }
  hr_executable_free(e);
  hr_module_free(ref);
  hr_module_free(m);
}

TEST(position_masks_fuse) {
  check_decode(20, 16, kKeepLE, kSelect, true);
  check_decode(20, 16, kKeepGE, kSelect, true);
  check_decode(20, 16, kMaskGT, kSelectInverted, true);
  check_decode(37, 70, kKeepLE, kSelect, true); /* tails of 16 keys and of 64 dims */
  check_decode(256, 64, kKeepLE, kSelect, true);
}

TEST(position_mask_near_misses) {
  check_decode(20, 16, kKeepLT, kSelect, false);      /* t < p keeps one key fewer */
  check_decode(20, 16, kKeepLE, kSelectInverted, false); /* the kept keys filled */
  check_decode(20, 16, kMaskGT, kSelect, false);
}

int main(void) {
  RUN(position_masks_fuse);
  RUN(position_mask_near_misses);
  TEST_MAIN_END();
}

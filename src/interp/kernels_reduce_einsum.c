/* stablehlo.einsum ("ab,bc->ac") and stablehlo.unary_einsum ("ab->a").
 *
 * Supported configs use letters only, without ellipses and without a letter repeated within one
 * subscript (diagonals). einsum maps onto dot_general: letters shared by both operands and the
 * output are batching dimensions, shared letters missing from the output are contracted, and the
 * others are free; the dot_general result is then permuted into the output order. A letter that
 * only one operand has must appear in the output. unary_einsum sums the letters missing from the
 * output (in row-major order, like reduce) and transposes. Arithmetic follows dot_general:
 * operands are converted to the result type and accumulated in its accumulator kind. */
#include <string.h>

#include "interp/reduce.h"

/* Parsed subscripts of an einsum config. */
typedef struct einsum_spec {
  int n_in;
  char in[2][HR_MAX_RANK + 1];
  char out[HR_MAX_RANK + 1];
  int64_t size[128]; /* dimension size per letter, -1 when unused */
} einsum_spec;

static bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* Reads one subscript (letters up to `stop`), rejecting repeats; advances *p. */
static bool read_subscript(const char **p, const char *end, char stop, char *out) {
  int n = 0;
  while (*p < end && **p != stop) {
    char c = **p;
    if (!is_letter(c) || n == HR_MAX_RANK || (n > 0 && memchr(out, c, (size_t)n))) return false;
    out[n++] = c;
    (*p)++;
  }
  out[n] = '\0';
  return true;
}

/* Parses einsum_config for `n_in` operands ("A,B->C" or "A->C"; a unary config may start with a
 * comma, as XLA writes it). */
static hr_status parse_config(const hr_op *op, int n_in, einsum_spec *sp) {
  const hr_attr *a = hr_op_attr(op, "einsum_config");
  if (!a || a->kind != HR_ATTR_STRING) return hr_op_error(op, HR_VERIFY_ERROR, "missing string attribute 'einsum_config'");
  const char *p = a->u.str.data, *end = p + a->u.str.len;
  memset(sp, 0, sizeof *sp);
  sp->n_in = n_in;
  if (n_in == 1 && p < end && *p == ',') p++;
  bool ok = read_subscript(&p, end, n_in == 2 ? ',' : '-', sp->in[0]);
  if (ok && n_in == 2) ok = p < end && *p++ == ',' && read_subscript(&p, end, '-', sp->in[1]);
  ok = ok && end - p >= 2 && p[0] == '-' && p[1] == '>';
  if (ok) {
    p += 2;
    ok = read_subscript(&p, end, '\0', sp->out) && p == end;
  }
  if (!ok)
    return hr_op_error(op, HR_UNIMPLEMENTED, "einsum_config \"%s\" is not a supported config (letters only, "
                       "no ellipsis, no repeated letter within a subscript)", a->u.str.data);
  return NULL;
}

/* Records the operands' dimension sizes per letter and checks them for consistency. */
static hr_status bind_sizes(const hr_op *op, einsum_spec *sp, hr_tensor *const *operands) {
  for (int c = 0; c < 128; c++) sp->size[c] = -1;
  for (int i = 0; i < sp->n_in; i++) {
    const char *s = sp->in[i];
    if ((int)strlen(s) != operands[i]->shape.rank)
      return hr_op_error(op, HR_VERIFY_ERROR, "subscript \"%s\" does not match operand %d of rank %d", s, i,
                         operands[i]->shape.rank);
    for (int d = 0; s[d]; d++) {
      int64_t *slot = &sp->size[(unsigned char)s[d]], dim = operands[i]->shape.dims[d];
      if (*slot >= 0 && *slot != dim)
        return hr_op_error(op, HR_VERIFY_ERROR, "letter '%c' has sizes %lld and %lld", s[d], (long long)*slot,
                           (long long)dim);
      *slot = dim;
    }
  }
  return NULL;
}

/* Checks the result against the output subscript. */
static hr_status check_output(const hr_op *op, const einsum_spec *sp, const hr_tensor *res) {
  hr_shape want = {.rank = (int)strlen(sp->out)};
  for (int d = 0; d < want.rank; d++) {
    want.dims[d] = sp->size[(unsigned char)sp->out[d]];
    if (want.dims[d] < 0) return hr_op_error(op, HR_VERIFY_ERROR, "output letter '%c' is not an input letter", sp->out[d]);
  }
  char buf[64];
  if (!hr_red_tensor_is(res, res->dtype, &want))
    return hr_op_error(op, HR_VERIFY_ERROR, "result shape must be %s", hr_red_shape_str(&want, buf, sizeof buf));
  return NULL;
}

/* Position of letter c in subscript s, or -1. */
static int64_t letter_pos(const char *s, char c) {
  const char *hit = strchr(s, c);
  return hit ? hit - s : -1;
}

/* Splits the letters into dot_general dimensions; `order` receives the letters of the
 * dot_general result ([batch..., lhs free..., rhs free...]). */
static hr_status plan_einsum(const hr_op *op, const einsum_spec *sp, hr_red_dot_dims *dd, char *order) {
  const char *l = sp->in[0], *r = sp->in[1], *o = sp->out;
  memset(dd, 0, sizeof *dd);
  int n = 0;
  for (int d = 0; o[d]; d++)
    if (strchr(l, o[d]) && strchr(r, o[d])) {
      dd->lb[dd->nb] = letter_pos(l, o[d]);
      dd->rb[dd->nb++] = letter_pos(r, o[d]);
      order[n++] = o[d];
    }
  for (int d = 0; l[d]; d++) {
    bool in_r = strchr(r, l[d]), in_o = strchr(o, l[d]);
    if (in_r && !in_o) {
      dd->lc[dd->nc] = d;
      dd->rc[dd->nc++] = letter_pos(r, l[d]);
    } else if (!in_r && !in_o) {
      return hr_op_error(op, HR_UNIMPLEMENTED, "letter '%c' is summed within one operand", l[d]);
    }
  }
  for (int d = 0; l[d]; d++)
    if (!strchr(r, l[d])) order[n++] = l[d];
  for (int d = 0; r[d]; d++) {
    if (strchr(l, r[d])) continue;
    if (!strchr(o, r[d])) return hr_op_error(op, HR_UNIMPLEMENTED, "letter '%c' is summed within one operand", r[d]);
    order[n++] = r[d];
  }
  order[n] = '\0';
  return NULL;
}

/* Copies t (whose dimensions carry the letters `order`) into res (letters `out`). */
static void permute_into(const hr_tensor *t, const char *order, const char *out, hr_tensor *res) {
  int64_t tstrides[HR_MAX_RANK];
  hr_row_major_strides(&t->shape, tstrides);
  hr_red_view v = {.rank = res->shape.rank};
  for (int d = 0; d < v.rank; d++) {
    v.dims[d] = res->shape.dims[d];
    v.strides[d] = tstrides[letter_pos(order, out[d])];
  }
  size_t es = hr_dtype_size(res->dtype);
  int64_t count = hr_tensor_num_elements(res);
  hr_red_walk w;
  hr_red_walk_init(&w, &v);
  for (int64_t i = 0; i < count; i++, hr_red_walk_next(&w))
    memcpy((unsigned char *)res->data + (size_t)i * es, (const unsigned char *)t->data + (size_t)w.offset * es, es);
}

/* stablehlo.einsum(lhs, rhs). */
HR_RED_KERNEL(hr_red_kernel_einsum) {
  if (op->n_operands != 2 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects two operands");
  einsum_spec sp;
  hr_red_dot_dims dd;
  char order[2 * HR_MAX_RANK + 1];
  HR_TRY(parse_config(op, 2, &sp));
  HR_TRY(bind_sizes(op, &sp, operands));
  HR_TRY(check_output(op, &sp, results[0]));
  HR_TRY(plan_einsum(op, &sp, &dd, order));
  hr_shape tshape = {.rank = (int)strlen(order)};
  if (tshape.rank != results[0]->shape.rank)
    return hr_op_error(op, HR_VERIFY_ERROR, "output subscript must list every free and batch letter");
  for (int d = 0; d < tshape.rank; d++) tshape.dims[d] = sp.size[(unsigned char)order[d]];
  hr_tensor *t;
  HR_TRY(hr_interp_alloc(in, op, results[0]->dtype, &tshape, &t));
  hr_status s = hr_red_contract(in, op, operands[0], operands[1], &dd, t);
  if (!s) permute_into(t, order, sp.out, results[0]);
  hr_tensor_free(t);
  return s;
}

/* Fills `count` accumulator elements with one. */
static void fill_ones(hr_red_acc k, void *buf, int64_t count) {
  hr_dtype t = hr_red_acc_dtype(k);
  unsigned char one[16];
  hr_red_convert_scalar(HR_I64, &(int64_t){1}, t, one);
  size_t es = hr_red_acc_size(k);
  for (int64_t i = 0; i < count; i++) memcpy((unsigned char *)buf + (size_t)i * es, one, es);
}

/* stablehlo.unary_einsum(operand): sums the letters missing from the output, then transposes. */
HR_RED_KERNEL(hr_red_kernel_unary_einsum) {
  if (op->n_operands != 1 || op->n_results != 1) return hr_op_error(op, HR_VERIFY_ERROR, "expects one operand");
  const hr_tensor *x = operands[0];
  hr_tensor *res = results[0];
  einsum_spec sp;
  HR_TRY(parse_config(op, 1, &sp));
  HR_TRY(bind_sizes(op, &sp, operands));
  HR_TRY(check_output(op, &sp, res));
  /* View the operand as [output letters..., summed letters...]. */
  int64_t strides[HR_MAX_RANK];
  hr_row_major_strides(&x->shape, strides);
  hr_red_view v = {.rank = 0};
  for (int d = 0; sp.out[d]; d++, v.rank++) {
    int64_t p = letter_pos(sp.in[0], sp.out[d]);
    v.dims[v.rank] = x->shape.dims[p];
    v.strides[v.rank] = strides[p];
  }
  int64_t summed = 1;
  for (int d = 0; sp.in[0][d]; d++)
    if (!strchr(sp.out, sp.in[0][d])) {
      v.dims[v.rank] = x->shape.dims[d];
      v.strides[v.rank++] = strides[d];
      if (!hr_red_mul(summed, x->shape.dims[d], &summed)) summed = 0; /* only with an empty dimension */
    }
  int64_t count = hr_tensor_num_elements(res);
  if (count == 0 || hr_tensor_num_elements(x) == 0) return NULL;
  /* result = packed [count x summed] matrix times a vector of ones. */
  hr_red_matmul mm = {.kind = hr_red_acc_for(res->dtype), .batch = 1, .m = count, .k = summed, .n = 1};
  hr_tensor *t[3] = {NULL};
  hr_status s = hr_red_scratch(in, op, mm.kind, count * summed, &t[0]);
  if (!s) s = hr_red_scratch(in, op, mm.kind, summed, &t[1]);
  bool native = hr_red_acc_is_native(mm.kind, res->dtype);
  if (!s && !native) s = hr_red_scratch(in, op, mm.kind, count, &t[2]);
  if (!s) {
    hr_red_pack(&v, x->dtype, x->data, res->dtype, mm.kind, t[0]->data);
    fill_ones(mm.kind, t[1]->data, summed);
    mm.a = t[0]->data;
    mm.b = t[1]->data;
    mm.c = native ? res->data : t[2]->data;
    s = hr_red_matmul_run(in, op, &mm);
  }
  for (int64_t i = 0; !s && !native && i < count; i++) hr_red_acc_store(mm.kind, t[2]->data, i, res->dtype, res->data, i);
  for (int i = 0; i < 3; i++) hr_tensor_free(t[i]);
  return s;
}

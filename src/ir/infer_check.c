/* Verification of the check dialect's ops (StableHLO's stablehlo/tests/CheckOps.td): the
 * assertions of the interpreter's test programs. They have no results. */
#include "base/numeric.h"
#include "ir/infer_internal.h"

/* Whether the op compares with a tolerance or in ULPs, so takes float or complex elements only. */
static bool needs_float(hr_opcode code) {
  return code == HR_OP_CHECK_EXPECT_ALMOST_EQ || code == HR_OP_CHECK_EXPECT_ALMOST_EQ_CONST ||
         code == HR_OP_CHECK_EXPECT_CLOSE;
}

/* The attribute `name` must be absent or of `kind`; `required` ones must be present. */
static hr_status want_attr(const hri_ctx *c, const char *name, hr_attr_kind kind, bool required) {
  const hr_attr *a = hr_op_attr(c->op, name);
  if (!a && !required) return NULL;
  if (!a) return hri_err(c, "missing '%s'", name);
  if (a->kind != kind) return hri_err(c, "'%s' has the wrong kind of value", name);
  return NULL;
}

/* The constant of the *_const ops: a dense attribute `value` of the operand's type. */
static hr_status want_value(const hri_ctx *c) {
  const hr_attr *v = hr_op_attr(c->op, "value");
  if (!v || v->kind != HR_ATTR_DENSE) return hri_err(c, "'value' must be a dense<...> constant");
  hri_tbuf b1, b2;
  if (!hr_type_equal(&v->u.dense.type, &c->in[0]))
    return hri_err(c, "'value' has type %s but the operand has type %s", hri_type_str(&v->u.dense.type, &b1),
                   hri_type_str(&c->in[0], &b2));
  return NULL;
}

hr_status hri_infer_check(const hri_ctx *c) {
  hr_opcode code = c->op->code;
  HR_TRY(hri_want_tensors(c, 0, c->op->n_operands));
  if (c->op->n_operands == 2 && !hr_type_equal(&c->in[0], &c->in[1])) {
    hri_tbuf b1, b2;
    return hri_err(c, "operand types %s and %s differ", hri_type_str(&c->in[0], &b1), hri_type_str(&c->in[1], &b2));
  }
  hr_dtype t = c->in[0].dtype;
  if (needs_float(code) && !hr_dtype_is_real_float(t) && !hr_dtype_is_complex(t))
    return hri_err(c, "operands must have float or complex elements, not %s", hr_dtype_name(t));
  switch (code) {
    case HR_OP_CHECK_EXPECT_EQ_CONST: return want_value(c);
    case HR_OP_CHECK_EXPECT_ALMOST_EQ_CONST: HR_TRY(want_value(c)); return want_attr(c, "tolerance", HR_ATTR_FLOAT, false);
    case HR_OP_CHECK_EXPECT_ALMOST_EQ: return want_attr(c, "tolerance", HR_ATTR_FLOAT, false);
    case HR_OP_CHECK_EXPECT_CLOSE:
      HR_TRY(want_attr(c, "max_ulp_difference", HR_ATTR_INT, false));
      return want_attr(c, "min_ulp_difference", HR_ATTR_INT, false);
    case HR_OP_CHECK_EXPECT_SERIALIZED_EQ:
      HR_TRY(want_attr(c, "probe_id", HR_ATTR_STRING, true));
      return want_attr(c, "iteration", HR_ATTR_INT, false);
    default: return NULL;
  }
}

/* interpreter.probe: the operand itself, recorded under a required string `probe_id`. */
hr_status hri_infer_probe(const hri_ctx *c) {
  HR_TRY(hri_want_tensor(c, 0));
  HR_TRY(want_attr(c, "probe_id", HR_ATTR_STRING, true));
  c->out[0] = c->in[0];
  return NULL;
}

/* interpreter.print: one tensor operand, no results. */
hr_status hri_infer_print(const hri_ctx *c) { return hri_want_tensor(c, 0); }

/* Model signatures: names and specs of a program's inputs and outputs, and their JSON form in
 * TensorFlow Serving's model metadata (entries of a SignatureDef map). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/savedmodel/tf_types.h"
#include "ir/ir.h"
#include "server/json.h"
#include "server/predict.h"

/* Copies a C string with malloc; NULL when out of memory. */
static char *copy_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *c = malloc(n);
  if (c) memcpy(c, s, n);
  return c;
}

/* The jax.result_info of output `i` of the program's entry function, or NULL. */
static const char *result_info(const hr_program *p, int i) {
  const hr_func *fn = hr_module_find_func(hr_program_module(p), hr_program_function(p));
  if (!fn || !fn->result_attrs || i >= fn->n_results) return NULL;
  const hr_attr *v = fn->result_attrs[i] ? hr_attr_field(fn->result_attrs[i], "jax.result_info") : NULL;
  return v && v->kind == HR_ATTR_STRING && v->u.str.data[0] ? v->u.str.data : NULL;
}

/* Fills the input list: names as the program reports them. */
static hr_status read_inputs(const hr_program *p, srv_signature *s) {
  for (int i = 0; i < s->n_inputs; i++) {
    s->inputs[i].spec = hr_program_input_spec(p, i);
    s->inputs[i].name = copy_string(hr_program_input_name(p, i));
    if (!s->inputs[i].name) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading a signature");
    for (int j = 0; j < i; j++)
      if (strcmp(s->inputs[j].name, s->inputs[i].name) == 0)
        return hr_error(HR_INVALID_ARGUMENT, "inputs %d and %d are both named '%s'", j, i, s->inputs[i].name);
  }
  return NULL;
}

/* Fills the output list: a non-empty jax.result_info, else "outN" (as artifact metadata does). */
static hr_status read_outputs(const hr_program *p, srv_signature *s) {
  for (int i = 0; i < s->n_outputs; i++) {
    s->outputs[i].spec = hr_program_output_spec(p, i);
    char fallback[32];
    snprintf(fallback, sizeof fallback, "out%d", i);
    const char *info = result_info(p, i);
    s->outputs[i].name = copy_string(info ? info : fallback);
    if (!s->outputs[i].name) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading a signature");
  }
  return NULL;
}

hr_status srv_signature_from_program(const hr_program *p, srv_signature *out) {
  memset(out, 0, sizeof *out);
  out->n_inputs = hr_program_num_inputs(p);
  out->n_outputs = hr_program_num_outputs(p);
  out->inputs = calloc((size_t)out->n_inputs + 1, sizeof *out->inputs);
  out->outputs = calloc((size_t)out->n_outputs + 1, sizeof *out->outputs);
  hr_status s = out->inputs && out->outputs ? NULL : hr_error(HR_OUT_OF_MEMORY, "out of memory reading a signature");
  if (!s) s = read_inputs(p, out);
  if (!s) s = read_outputs(p, out);
  if (s) srv_signature_free(out);
  return s;
}

/* Frees the strings of a list of tensors. */
static void free_tensor_infos(srv_tensor_info *list, int n) {
  for (int i = 0; list && i < n; i++) {
    free(list[i].name);
    free(list[i].declared.tensor);
  }
}

void srv_signature_free(srv_signature *s) {
  free_tensor_infos(s->inputs, s->n_inputs);
  free_tensor_infos(s->outputs, s->n_outputs);
  free(s->name);
  free(s->method);
  free(s->inputs);
  free(s->outputs);
  memset(s, 0, sizeof *s);
}

const char *srv_signature_name(const srv_signature *s) { return s->name ? s->name : SRV_SIGNATURE_NAME; }

const char *srv_signature_method(const srv_signature *s) { return s->method ? s->method : SRV_PREDICT_METHOD; }

/* Whether a spec has rank >= 1 and a dynamic first dimension. */
static bool batch_major(const hr_tensor_spec *spec) {
  return spec->shape.rank >= 1 && spec->shape.dims[0] == HR_DYNAMIC;
}

bool srv_signature_batchable(const srv_signature *s) {
  if (s->n_inputs == 0 || s->n_outputs == 0) return false;
  for (int i = 0; i < s->n_inputs; i++)
    if (!batch_major(&s->inputs[i].spec)) return false;
  for (int i = 0; i < s->n_outputs; i++)
    if (!batch_major(&s->outputs[i].spec)) return false;
  return true;
}

const char *srv_dtype_tf_name(hr_dtype t) { return hr_tf_dtype_name(hr_tf_dtype_from_hr(t)); }

/* Appends a TF DataType's name ("DT_FLOAT"); a number TensorFlow does not define is written as
 * the number, as protobuf's JSON writes unknown enum values. */
static void append_tf_dtype(hr_strbuf *sb, int tf) {
  const char *name = hr_tf_dtype_name(tf);
  if (name)
    hr_strbuf_printf(sb, "\"%s\"", name);
  else
    hr_strbuf_printf(sb, "%d", tf);
}

srv_tensor_view srv_tensor_info_view(const srv_tensor_info *t) {
  const srv_declared *d = &t->declared;
  if (d->tensor) return (srv_tensor_view){d->tensor, d->dtype, d->shape.rank, d->shape.dims};
  return (srv_tensor_view){t->name, hr_tf_dtype_from_hr(t->spec.dtype), t->spec.shape.rank, t->spec.shape.dims};
}

/* Appends one TensorInfo: {"dtype": ..., "tensor_shape": {"dim": [...], "unknown_rank": ...},
 * "name": ...}, as declared, else from the name and spec. Sizes are strings (protobuf's JSON form
 * of int64); -1 marks a dynamic dim. */
static void append_tensor_info(const srv_tensor_info *t, hr_strbuf *sb) {
  srv_tensor_view v = srv_tensor_info_view(t);
  hr_strbuf_puts(sb, "{\"dtype\": ");
  append_tf_dtype(sb, v.tf_dtype);
  hr_strbuf_puts(sb, ", \"tensor_shape\": {\"dim\": [");
  for (int i = 0; i < v.rank; i++)
    hr_strbuf_printf(sb, "%s{\"size\": \"%lld\", \"name\": \"\"}", i ? ", " : "", (long long)v.dims[i]);
  hr_strbuf_printf(sb, "], \"unknown_rank\": %s}, \"name\": ", v.rank < 0 ? "true" : "false");
  srv_json_put_cstring(sb, v.tensor);
  hr_strbuf_putc(sb, '}');
}

/* Appends {"name": TensorInfo, ...} for a list of tensors. */
static void append_tensor_map(const srv_tensor_info *list, int n, hr_strbuf *sb) {
  hr_strbuf_putc(sb, '{');
  for (int i = 0; i < n; i++) {
    if (i) hr_strbuf_puts(sb, ", ");
    srv_json_put_cstring(sb, list[i].name);
    hr_strbuf_puts(sb, ": ");
    append_tensor_info(&list[i], sb);
  }
  hr_strbuf_putc(sb, '}');
}

void srv_signature_append_entry(const srv_signature *s, hr_strbuf *sb) {
  srv_json_put_cstring(sb, srv_signature_name(s));
  hr_strbuf_puts(sb, ": {\"inputs\": ");
  append_tensor_map(s->inputs, s->n_inputs, sb);
  hr_strbuf_puts(sb, ", \"outputs\": ");
  append_tensor_map(s->outputs, s->n_outputs, sb);
  hr_strbuf_puts(sb, ", \"method_name\": ");
  srv_json_put_cstring(sb, srv_signature_method(s));
  hr_strbuf_putc(sb, '}');
}

void srv_signature_append_json(const srv_signature *s, hr_strbuf *sb) {
  hr_strbuf_putc(sb, '{');
  srv_signature_append_entry(s, sb);
  hr_strbuf_putc(sb, '}');
}

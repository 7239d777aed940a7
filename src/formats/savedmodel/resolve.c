/* From a signature to the XlaCallModule it runs (savedmodel.h: hr_savedmodel_resolve): each tensor
 * the signature outputs is followed back through the graph and into the library functions that
 * calls enter, and each of the call's inputs back to a signature input or a variable. Variables
 * get their checkpoint keys from the SavedModel's restore function. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/limits.h"
#include "base/strbuf.h"
#include "formats/mlirbc/bytecode.h"
#include "formats/module_file.h"
#include "formats/savedmodel/savedmodel_internal.h"

/* The function instance a tensor name is read in: a library function entered by a call node of
 * its caller's scope, or the graph itself (fn NULL). */
typedef struct scope {
  const tf_function *fn;
  const struct scope *caller;
  const tf_node *call;
  int depth;
} scope;

/* Where a tensor comes from. */
typedef enum { SRC_INPUT, SRC_VARIABLE, SRC_CALL } src_kind;
typedef struct src {
  src_kind kind;
  int index;          /* SRC_INPUT: the signature input; SRC_CALL: the call's output */
  const tf_node *var; /* SRC_VARIABLE: the graph's VarHandleOp */
} src;

typedef struct resolver {
  hr_savedmodel *sm;
  const tf_signature *sig;
  tf_program *prog;
  const tf_node *call_node; /* the XlaCallModule found, once found */
  int steps;                /* tensors followed, bounded by HR_LIMIT_TF_NODES */
  int depth;                /* follow() frames open, bounded by HR_LIMIT_TF_FOLLOW_DEPTH */
} resolver;

static hr_status follow(resolver *r, const scope *s, const char *ref, src *out);

hr_status hr_sm_unsupported(const hr_savedmodel *sm, const tf_node *node) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  const tf_graph *g = &sm->graph;
  int listed = 0;
  for (int f = -1; f < g->n_functions && listed < 40; f++) {
    const tf_node *nodes = f < 0 ? g->nodes : g->functions[f].nodes;
    int n = f < 0 ? g->n_nodes : g->functions[f].n_nodes;
    for (int i = 0; i < n && listed < 40; i++)
      if (!strstr(sb.data ? sb.data : "", nodes[i].op)) {
        hr_strbuf_printf(&sb, "%s%s", listed++ ? ", " : "", nodes[i].op);
      }
  }
  hr_status st = hr_strbuf_status(&sb);
  if (!st)
    st = hr_error(HR_UNIMPLEMENTED,
                  "%s: offset %zu: node '%s' is a %s: only jax2tf native-serialization graphs (XlaCallModule) are "
                  "supported; this graph holds %s",
                  sm->path, node->offset, node->name, node->op, sb.data ? sb.data : "no ops");
  hr_strbuf_free(&sb);
  return st;
}

const tf_xla_call *hr_sm_xla_call(const hr_savedmodel *sm, const tf_node *node) {
  for (int i = 0; i < sm->n_xla_calls; i++)
    if (sm->xla_calls[i].node == node) return &sm->xla_calls[i];
  return NULL;
}

/* Follows input `i` of `node` in scope `s`. */
static hr_status follow_input(resolver *r, const scope *s, const tf_node *node, int i, src *out) {
  const char *in = tf_data_input(node, i);
  if (!in) return hr_pb_error(&r->sm->file, node->offset, "node '%s' (%s) lacks input %d", node->name, node->op, i);
  return follow(r, s, in, out);
}

/* A call node (StatefulPartitionedCall/PartitionedCall): output `index` is what its function returns. */
static hr_status follow_call(resolver *r, const scope *s, const tf_node *node, int index, src *out) {
  const tf_attr *f = tf_node_attr(node, "f");
  const char *name;
  if (!f) return hr_pb_error(&r->sm->file, node->offset, "call '%s' names no function", node->name);
  HR_TRY(tf_attr_func(&r->sm->arena, &r->sm->file, f, &name));
  const tf_function *fn = tf_find_function(&r->sm->graph, name);
  if (!fn) return hr_pb_error(&r->sm->file, node->offset, "call '%s': no function %s in the library", node->name, name);
  if (index >= fn->n_outputs) return hr_pb_error(&r->sm->file, node->offset, "call '%s' has no output %d", node->name, index);
  if (s->depth >= HR_LIMIT_NESTING_DEPTH) return hr_pb_error(&r->sm->file, node->offset, "calls nest deeper than %d", HR_LIMIT_NESTING_DEPTH);
  for (int k = 0; k < fn->n_rets; k++)
    if (strcmp(fn->ret_keys[k], fn->outputs[index]) == 0) {
      scope inner = {fn, s, node, s->depth + 1};
      return follow(r, &inner, fn->ret_values[k], out);
    }
  return hr_pb_error(&r->sm->file, node->offset, "function %s does not say what output %s is", fn->name, fn->outputs[index]);
}

/* The XlaCallModule: the first one met becomes the program's call; its inputs are followed once. */
static hr_status follow_xla_call(resolver *r, const scope *s, const tf_node *node, int index, src *out) {
  if (r->call_node && r->call_node != node)
    return hr_pb_error(&r->sm->file, node->offset, "signature '%s' reaches two XlaCallModule nodes (%s and %s)", r->sig->key,
                       r->call_node->name, node->name);
  if (!r->call_node) {
    r->call_node = node;
    r->prog->call = hr_sm_xla_call(r->sm, node);
    int n = 0;
    for (int k = 0; k < node->n_inputs; k++) n += node->inputs[k][0] != '^';
    r->prog->n_args = n;
    r->prog->arg_input = HR_ARENA_ARRAY(&r->sm->arena, int, n > 0 ? (size_t)n : 1);
    r->prog->arg_variable = HR_ARENA_ARRAY(&r->sm->arena, const char *, n > 0 ? (size_t)n : 1);
    if (!r->prog->arg_input || !r->prog->arg_variable) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
    for (int k = 0, i = 0; k < node->n_inputs; k++) {
      if (node->inputs[k][0] == '^') continue;
      src in;
      HR_TRY(follow(r, s, node->inputs[k], &in));
      if (in.kind == SRC_CALL)
        return hr_pb_error(&r->sm->file, node->offset, "XlaCallModule '%s' takes its own output", node->name);
      r->prog->arg_input[i] = in.kind == SRC_INPUT ? in.index : -1;
      if (in.kind == SRC_VARIABLE) HR_TRY(hr_savedmodel_variable_key(r->sm, in.var, &r->prog->arg_variable[i]));
      i++;
    }
  }
  if (!r->prog->call) return hr_pb_error(&r->sm->file, node->offset, "XlaCallModule '%s' was not read", node->name);
  if (index >= r->prog->call->n_outputs)
    return hr_pb_error(&r->sm->file, node->offset, "XlaCallModule '%s' has no output %d", node->name, index);
  *out = (src){.kind = SRC_CALL, .index = index};
  return NULL;
}

/* A graph Placeholder: the signature input whose tensor it is. */
static hr_status follow_placeholder(resolver *r, const tf_node *node, src *out) {
  size_t len = strlen(node->name);
  for (int i = 0; i < r->sig->n_inputs; i++) {
    const char *t = r->sig->inputs[i].name;
    if (strncmp(t, node->name, len) == 0 && (t[len] == 0 || strcmp(t + len, ":0") == 0)) {
      *out = (src){.kind = SRC_INPUT, .index = i};
      return NULL;
    }
  }
  return hr_pb_error(&r->sm->file, node->offset, "placeholder '%s' is no input of signature '%s'", node->name, r->sig->key);
}

static hr_status follow_node(resolver *r, const scope *s, const char *ref, src *out);

/* Follows tensor `ref` of scope `s` back to where it comes from. */
static hr_status follow(resolver *r, const scope *s, const char *ref, src *out) {
  if (r->depth >= HR_LIMIT_TF_FOLLOW_DEPTH)
    return hr_error(HR_RESOURCE_EXHAUSTED, "%s: '%.100s' is reached through more than %d ops (a cycle?)", r->sm->path, ref,
                    HR_LIMIT_TF_FOLLOW_DEPTH);
  r->depth++;
  hr_status st = follow_node(r, s, ref, out);
  r->depth--;
  return st;
}

/* follow(), one op back. */
static hr_status follow_node(resolver *r, const scope *s, const char *ref, src *out) {
  if (++r->steps > HR_LIMIT_TF_NODES) return hr_error(HR_RESOURCE_EXHAUSTED, "%s: the graph is followed for too long", r->sm->path);
  if (ref[0] == '^') return hr_error(HR_INVALID_ARGUMENT, "%s: '%s' is a control input", r->sm->path, ref);
  if (s->fn && !strchr(ref, ':')) { /* a function argument: the caller's input */
    for (int i = 0; i < s->fn->n_args; i++)
      if (strcmp(s->fn->args[i], ref) == 0) return follow_input(r, s->caller, s->call, i, out);
  }
  size_t len;
  int index;
  if (!tf_parse_ref(ref, &len, &index)) return hr_error(HR_INVALID_ARGUMENT, "%s: malformed tensor name '%s'", r->sm->path, ref);
  const tf_node *node = s->fn ? tf_find_node(s->fn->nodes, s->fn->n_nodes, ref, len)
                              : tf_find_node(r->sm->graph.nodes, r->sm->graph.n_nodes, ref, len);
  if (!node) return hr_error(HR_INVALID_ARGUMENT, "%s: no node '%.*s'%s%s", r->sm->path, (int)len, ref,
                             s->fn ? " in function " : "", s->fn ? s->fn->name : "");
  const char *op = node->op;
  if (!strcmp(op, "Identity") || !strcmp(op, "XlaSharding") || !strcmp(op, "ReadVariableOp") || !strcmp(op, "Snapshot") ||
      !strcmp(op, "StopGradient"))
    return follow_input(r, s, node, 0, out);
  if (!strcmp(op, "IdentityN")) return follow_input(r, s, node, index, out);
  if (!strcmp(op, "StatefulPartitionedCall") || !strcmp(op, "PartitionedCall")) return follow_call(r, s, node, index, out);
  if (!strcmp(op, "XlaCallModule")) return follow_xla_call(r, s, node, index, out);
  if (!strcmp(op, "Placeholder") && !s->fn) return follow_placeholder(r, node, out);
  if (!strcmp(op, "VarHandleOp") && !s->fn) {
    *out = (src){.kind = SRC_VARIABLE, .var = node};
    return NULL;
  }
  return hr_sm_unsupported(r->sm, node);
}

hr_status hr_savedmodel_resolve(hr_savedmodel *sm, const tf_signature *sig, tf_program *out) {
  memset(out, 0, sizeof *out);
  resolver r = {.sm = sm, .sig = sig, .prog = out};
  if (!(out->output_of = HR_ARENA_ARRAY(&sm->arena, int, sig->n_outputs > 0 ? (size_t)sig->n_outputs : 1)))
    return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  scope top = {0};
  for (int i = 0; i < sig->n_outputs; i++) {
    src o;
    HR_TRY(follow(&r, &top, sig->outputs[i].name, &o));
    if (o.kind != SRC_CALL)
      return hr_error(HR_UNIMPLEMENTED, "%s: output '%s' of signature '%s' is no result of an XlaCallModule", sm->path,
                      sig->outputs[i].key, sig->key);
    out->output_of[i] = o.index;
  }
  if (!out->call) return hr_error(HR_INVALID_ARGUMENT, "%s: signature '%s' runs no XlaCallModule", sm->path, sig->key);
  return NULL;
}

/* Returns `dict` (a DICT or NULL) with `name` set to STRING `value`, as a new DICT of module `m`. */
static hr_status with_string(hr_module *m, const hr_attr *dict, const char *name, const char *value, hr_attr **out) {
  int n = dict ? dict->u.dict.n : 0;
  hr_attr *d = hr_attr_new(m, HR_ATTR_DICT), *s = hr_attr_new(m, HR_ATTR_STRING);
  hr_named_attr *entries = HR_ARENA_ARRAY(&m->arena, hr_named_attr, (size_t)n + 1);
  if (!d || !s || !entries || !(s->u.str.data = hr_arena_strdup(&m->arena, value))) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  s->u.str.len = strlen(value);
  int k = 0;
  for (int i = 0; i < n; i++)
    if (strcmp(dict->u.dict.entries[i].name, name) != 0) entries[k++] = dict->u.dict.entries[i];
  entries[k++] = (hr_named_attr){name, s};
  d->u.dict.n = k;
  d->u.dict.entries = entries;
  *out = d;
  return NULL;
}

/* Names @main's parameters (jax.arg_info) after the signature inputs they take, and the variables
 * as the key path ['KEY'], which binds a weight named KEY (hr_program_create). */
static hr_status name_params(hr_module *m, hr_func *f, const tf_signature *sig, const tf_program *p) {
  hr_attr **attrs = HR_ARENA_ARRAY(&m->arena, hr_attr *, f->n_args > 0 ? (size_t)f->n_args : 1);
  if (!attrs) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  for (int i = 0; i < f->n_args; i++) {
    char path[HR_LIMIT_TF_KEY_BYTES + 5];
    const char *key = p->arg_variable[i];
    if (key && (strchr(key, '\'') || snprintf(path, sizeof path, "['%s']", key) >= (int)sizeof path))
      return hr_error(HR_UNIMPLEMENTED, "%s: variable key '%.100s' cannot be named as a weight", m->filename, key);
    const char *name = key ? path : sig->inputs[p->arg_input[i]].key;
    HR_TRY(with_string(m, f->arg_attrs ? f->arg_attrs[i] : NULL, "jax.arg_info", name, &attrs[i]));
  }
  f->arg_attrs = attrs;
  return NULL;
}

/* Makes @main return the signature's outputs, in its order, named after their keys. */
static hr_status order_results(hr_module *m, hr_func *f, const tf_signature *sig, const tf_program *p) {
  hr_op *ret = f->body.n_ops > 0 ? f->body.ops[f->body.n_ops - 1] : NULL;
  int n = sig->n_outputs;
  hr_value **operands = HR_ARENA_ARRAY(&m->arena, hr_value *, n > 0 ? (size_t)n : 1);
  hr_type *types = HR_ARENA_ARRAY(&m->arena, hr_type, n > 0 ? (size_t)n : 1);
  hr_attr **attrs = HR_ARENA_ARRAY(&m->arena, hr_attr *, n > 0 ? (size_t)n : 1);
  if (!operands || !types || !attrs) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  if (!ret || ret->code != HR_OP_FUNC_RETURN || ret->n_operands != f->n_results)
    return hr_error(HR_INVALID_ARGUMENT, "%s: @main does not end in its return", m->filename);
  for (int i = 0; i < n; i++) {
    int k = p->output_of[i];
    if (k >= f->n_results) return hr_error(HR_INVALID_ARGUMENT, "%s: the module has no result %d", m->filename, k);
    operands[i] = ret->operands[k];
    types[i] = f->result_types[k];
    HR_TRY(with_string(m, f->result_attrs ? f->result_attrs[k] : NULL, "jax.result_info", sig->outputs[i].key, &attrs[i]));
  }
  ret->operands = operands;
  ret->n_operands = n;
  f->result_types = types;
  f->result_attrs = attrs;
  f->n_results = n;
  return NULL;
}

hr_status hr_sm_call_module(const hr_savedmodel *sm, const tf_xla_call *call, const hr_parse_options *opts, hr_module **out) {
  *out = NULL;
  if (call->has_token_input_output)
    return hr_error(HR_UNIMPLEMENTED, "%s: XlaCallModule '%s' passes tokens, which jax2tf never writes", sm->path, call->node->name);
  hr_parse_options o = opts ? *opts : (hr_parse_options){0};
  o.no_verify = true; /* verified once the calling convention is applied */
  hr_module *m = NULL;
  hr_status s = hr_bc_sniff(call->module, call->module_len)
                    ? hr_bc_parse_module(sm->path, call->module, call->module_len, &o, false, &m)
                    : hr_module_parse(sm->path, (const char *)call->module, call->module_len, &o, &m);
  if (!s && call->n_platforms > 1) s = hr_module_bind_platform(m, call->platforms, call->n_platforms, sm->path);
  for (int i = 0; !s && i < call->n_disabled_checks; i++)
    if (strcmp(call->disabled_checks[i], "shape_assertions") == 0) hr_module_drop_shape_assertions(m);
  if (!s && !hr_module_find_func(m, "main"))
    s = hr_error(HR_INVALID_ARGUMENT, "%s: the module of XlaCallModule '%s' has no @main", sm->path, call->node->name);
  if (s) {
    hr_module_free(m);
    return s;
  }
  *out = m;
  return NULL;
}

hr_status hr_savedmodel_module(const hr_savedmodel *sm, const tf_signature *sig, const tf_program *p,
                               const hr_parse_options *opts, hr_module **out) {
  const tf_xla_call *call = p->call;
  *out = NULL;
  hr_module *m = NULL;
  HR_TRY(hr_sm_call_module(sm, call, opts, &m));
  hr_func *f = hr_module_find_func(m, "main");
  hr_status s = NULL;
  if (f->n_args != p->n_args)
    s = hr_error(HR_INVALID_ARGUMENT, "%s: XlaCallModule '%s' has %d inputs, its module's @main %d parameters", sm->path,
                 call->node->name, p->n_args, f->n_args);
  if (!s) s = name_params(m, f, sig, p);
  if (!s) s = order_results(m, f, sig, p);
  if (!s && !(opts && opts->no_verify)) s = hr_module_verify(m);
  if (s) {
    hr_module_free(m);
    return s;
  }
  *out = m;
  return NULL;
}

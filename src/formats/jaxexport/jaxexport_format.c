/* The inspection text of a read jax.export Exported: its fields one per line, values spelled as
 * Python shows JAX's objects (tuples "(a,)", strings 'x', ShapedArray(float32[b,4]),
 * PyTreeDef(((*,), {})), HloSharding and NamedSharding text). */
#include <string.h>

#include "formats/jaxexport/jaxexport.h"

/* Python's repr of a str: single quotes, or double quotes when the text has a single quote and no
 * double quote; backslash escapes for the quote, backslashes and bytes outside printable ASCII
 * (UTF-8 sequences are shown byte by byte, as \xNN). */
static void put_pystr(hr_strbuf *sb, const char *s) {
  s = s ? s : "";
  char q = strchr(s, '\'') && !strchr(s, '"') ? '"' : '\'';
  hr_strbuf_putc(sb, q);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == q || *p == '\\') hr_strbuf_printf(sb, "\\%c", *p);
    else if (*p == '\n') hr_strbuf_puts(sb, "\\n");
    else if (*p < 0x20 || *p >= 0x7f) hr_strbuf_printf(sb, "\\x%02x", *p);
    else hr_strbuf_putc(sb, (char)*p);
  }
  hr_strbuf_putc(sb, q);
}

/* Text that is not quoted (dimension expressions, names in reprs): control bytes escaped. */
static void put_text(hr_strbuf *sb, const char *s) {
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p < 0x20 || *p == 0x7f) hr_strbuf_printf(sb, "\\x%02x", *p);
    else hr_strbuf_putc(sb, (char)*p);
  }
}

/* The separator before element i of a Python tuple (or list, dict, set). */
static void tuple_sep(hr_strbuf *sb, int i) {
  if (i) hr_strbuf_puts(sb, ", ");
}
/* The end of a Python tuple of n elements: "(a,)" has a comma. */
static void tuple_end(hr_strbuf *sb, int n) { hr_strbuf_puts(sb, n == 1 ? ",)" : ")"); }

/* A tuple of strings: ('cpu', 'cuda'). */
static void put_str_tuple(hr_strbuf *sb, const char *const *items, int n) {
  hr_strbuf_putc(sb, '(');
  for (int i = 0; i < n; i++) {
    tuple_sep(sb, i);
    put_pystr(sb, items[i]);
  }
  tuple_end(sb, n);
}

void hr_jaxexport_format_aval(const hr_jaxexport_aval *v, hr_strbuf *out) {
  if (v->kind == 1) {
    hr_strbuf_puts(out, "AbstractToken()");
    return;
  }
  hr_strbuf_puts(out, "ShapedArray(");
  if (v->jax_dtype_name) hr_strbuf_puts(out, v->jax_dtype_name);
  else hr_strbuf_printf(out, "dtype(%d)", v->jax_dtype);
  hr_strbuf_putc(out, '[');
  for (int i = 0; i < v->rank; i++) {
    if (i) hr_strbuf_putc(out, ',');
    put_text(out, v->dims[i].text);
  }
  hr_strbuf_putc(out, ']');
  if (v->memory_space == HR_JAXEXPORT_MEMORY_HOST) hr_strbuf_puts(out, ", memory_space=Host");
  else if (v->memory_space == HR_JAXEXPORT_MEMORY_ANY) hr_strbuf_puts(out, ", memory_space=Any");
  else if (v->memory_space > HR_JAXEXPORT_MEMORY_ANY || v->memory_space < 0)
    hr_strbuf_printf(out, ", memory_space=%d", v->memory_space);
  hr_strbuf_putc(out, ')');
}

/* A tuple of avals. */
static void put_avals(hr_strbuf *sb, const hr_jaxexport_aval *v, int n) {
  hr_strbuf_putc(sb, '(');
  for (int i = 0; i < n; i++) {
    tuple_sep(sb, i);
    hr_jaxexport_format_aval(&v[i], sb);
  }
  tuple_end(sb, n);
}

/* A pytree node as PyTreeDef's repr shows it (without the PyTreeDef( ) around it). */
static void put_tree(hr_strbuf *sb, const hr_jaxexport_pytree *t) {
  switch (t->kind) {
    case HR_JAXEXPORT_TREE_LEAF: hr_strbuf_putc(sb, '*'); return;
    case HR_JAXEXPORT_TREE_NONE: hr_strbuf_puts(sb, "None"); return;
    case HR_JAXEXPORT_TREE_TUPLE:
      hr_strbuf_putc(sb, '(');
      for (int i = 0; i < t->num_children; i++) {
        tuple_sep(sb, i);
        put_tree(sb, &t->children[i]);
      }
      tuple_end(sb, t->num_children);
      return;
    case HR_JAXEXPORT_TREE_LIST:
      hr_strbuf_putc(sb, '[');
      for (int i = 0; i < t->num_children; i++) {
        tuple_sep(sb, i);
        put_tree(sb, &t->children[i]);
      }
      hr_strbuf_putc(sb, ']');
      return;
    case HR_JAXEXPORT_TREE_DICT:
      hr_strbuf_putc(sb, '{');
      for (int i = 0; i < t->num_children; i++) {
        tuple_sep(sb, i);
        put_pystr(sb, t->children_names[i]);
        hr_strbuf_puts(sb, ": ");
        put_tree(sb, &t->children[i]);
      }
      hr_strbuf_putc(sb, '}');
      return;
    default:
      hr_strbuf_puts(sb, "CustomNode(");
      put_text(sb, t->custom_name);
      hr_strbuf_puts(sb, ", [");
      for (int i = 0; i < t->num_children; i++) {
        tuple_sep(sb, i);
        put_tree(sb, &t->children[i]);
      }
      hr_strbuf_puts(sb, "])");
      return;
  }
}

void hr_jaxexport_format_pytree(const hr_jaxexport_pytree *t, hr_strbuf *out) {
  hr_strbuf_puts(out, "PyTreeDef(");
  if (t) put_tree(out, t);
  else hr_strbuf_puts(out, "?");
  hr_strbuf_putc(out, ')');
}

void hr_jaxexport_format_sharding(const hr_jaxexport_sharding *s, hr_strbuf *out) {
  if (!s->specified) hr_strbuf_puts(out, "None");
  else if (s->hlo_text) hr_strbuf_puts(out, s->hlo_text);
  else hr_strbuf_puts(out, "?");
}

/* AxisType names. */
static const char *axis_type_name(int t) {
  static const char *const names[] = {"Missing", "Auto", "Explicit", "Manual"};
  return t >= 0 && t < 4 ? names[t] : "?";
}

/* AbstractMesh('x': 2, 'y': 4, axis_types=(Auto, Auto), device_kind='cpu', num_cores=1,
 * platform='cpu'). */
static void put_mesh(hr_strbuf *sb, const hr_jaxexport_mesh *m) {
  hr_strbuf_puts(sb, "AbstractMesh(");
  for (int i = 0; i < m->num_axes; i++) {
    tuple_sep(sb, i);
    put_pystr(sb, m->axis_names[i]);
    hr_strbuf_printf(sb, ": %u", (unsigned)m->axis_sizes[i]);
  }
  if (m->num_axes) {
    hr_strbuf_puts(sb, ", axis_types=(");
    for (int i = 0; i < m->num_axes; i++) {
      tuple_sep(sb, i);
      hr_strbuf_puts(sb, axis_type_name(m->axis_types[i]));
    }
    tuple_end(sb, m->num_axes);
  }
  if (m->has_device) {
    hr_strbuf_puts(sb, ", device_kind=");
    put_pystr(sb, m->device_kind);
    if (m->has_num_cores) hr_strbuf_printf(sb, ", num_cores=%u", (unsigned)m->num_cores);
    if (m->device_platform) {
      hr_strbuf_puts(sb, ", platform=");
      put_pystr(sb, m->device_platform);
    }
  }
  hr_strbuf_putc(sb, ')');
}

/* A set of axis names: {'x', 'y'}. */
static void put_axis_set(hr_strbuf *sb, const char *const *names, int n) {
  hr_strbuf_putc(sb, '{');
  for (int i = 0; i < n; i++) {
    tuple_sep(sb, i);
    put_pystr(sb, names[i]);
  }
  hr_strbuf_putc(sb, '}');
}

/* PartitionSpec('x', None, ('y', 'z')) as JAX spells it (the repr of its tuple of partitions,
 * so one entry keeps its comma: PartitionSpec('x',)), then reduced={...} and unreduced={...}. */
static void put_spec(hr_strbuf *sb, const hr_jaxexport_named_sharding *s) {
  hr_strbuf_puts(sb, "PartitionSpec(");
  for (int i = 0; i < s->num_partitions; i++) {
    const hr_jaxexport_partition *p = &s->partitions[i];
    tuple_sep(sb, i);
    if (p->num_axes == 0) hr_strbuf_puts(sb, "None");
    else if (p->num_axes == 1) put_pystr(sb, p->axes[0]);
    else put_str_tuple(sb, p->axes, p->num_axes);
  }
  if (s->num_partitions == 1) hr_strbuf_putc(sb, ',');
  const char *sep = s->num_partitions == 1 ? " " : s->num_partitions ? ", " : "";
  if (s->num_reduced) {
    hr_strbuf_printf(sb, "%sreduced=", sep);
    put_axis_set(sb, s->reduced, s->num_reduced);
    sep = ", ";
  }
  if (s->num_unreduced) {
    hr_strbuf_printf(sb, "%sunreduced=", sep);
    put_axis_set(sb, s->unreduced, s->num_unreduced);
  }
  hr_strbuf_putc(sb, ')');
}

void hr_jaxexport_format_named_sharding(const hr_jaxexport_named_sharding *s, hr_strbuf *out) {
  hr_strbuf_puts(out, "NamedSharding(mesh=");
  put_mesh(out, s->mesh);
  hr_strbuf_puts(out, ", spec=");
  put_spec(out, s);
  if (s->memory_kind) {
    hr_strbuf_puts(out, ", memory_kind=");
    put_text(out, s->memory_kind);
  }
  hr_strbuf_putc(out, ')');
}

/* "name: (s0, s1)" lines for a list of shardings: the HloShardings, then the NamedShardings when
 * there are any. */
static void put_shardings(hr_strbuf *sb, const char *name, const hr_jaxexport_sharding *s, int n) {
  hr_strbuf_printf(sb, "%s_hlo: (", name);
  bool named = false;
  for (int i = 0; i < n; i++) {
    tuple_sep(sb, i);
    hr_jaxexport_format_sharding(&s[i], sb);
    named = named || s[i].named;
  }
  tuple_end(sb, n);
  hr_strbuf_putc(sb, '\n');
  if (!named) return;
  hr_strbuf_printf(sb, "%s: (", name);
  for (int i = 0; i < n; i++) {
    tuple_sep(sb, i);
    if (s[i].named) hr_jaxexport_format_named_sharding(s[i].named, sb);
    else hr_strbuf_puts(sb, "None");
  }
  tuple_end(sb, n);
  hr_strbuf_putc(sb, '\n');
}

/* The signature lines: trees, avals, shardings. */
static void put_signature(const hr_jaxexport *e, hr_strbuf *out) {
  hr_strbuf_puts(out, "in_tree: ");
  hr_jaxexport_format_pytree(e->in_tree, out);
  hr_strbuf_puts(out, "\nin_avals: ");
  put_avals(out, e->in_avals, e->num_in_avals);
  hr_strbuf_puts(out, "\nout_tree: ");
  hr_jaxexport_format_pytree(e->out_tree, out);
  hr_strbuf_puts(out, "\nout_avals: ");
  put_avals(out, e->out_avals, e->num_out_avals);
  hr_strbuf_putc(out, '\n');
  put_shardings(out, "in_shardings", e->in_shardings, e->num_in_shardings);
  put_shardings(out, "out_shardings", e->out_shardings, e->num_out_shardings);
}

/* The lines after the signature: devices, platforms, effects, checks, module, versions. */
static void put_rest(const hr_jaxexport *e, hr_strbuf *out) {
  hr_strbuf_printf(out, "nr_devices: %u\nplatforms: ", (unsigned)e->nr_devices);
  put_str_tuple(out, e->platforms, e->num_platforms);
  hr_strbuf_puts(out, "\nordered_effects: ");
  put_str_tuple(out, e->ordered_effects, e->num_ordered_effects);
  hr_strbuf_puts(out, "\nunordered_effects: ");
  put_str_tuple(out, e->unordered_effects, e->num_unordered_effects);
  hr_strbuf_puts(out, "\ndisabled_safety_checks: (");
  for (int i = 0; i < e->num_disabled_checks; i++) {
    tuple_sep(out, i);
    put_text(out, e->disabled_checks[i].text);
  }
  tuple_end(out, e->num_disabled_checks);
  hr_strbuf_printf(out, "\ncalling_convention_version: %u\nmodule_kept_var_idx: (",
                   (unsigned)e->calling_convention_version);
  for (int i = 0; i < e->num_kept_var_idx; i++) {
    tuple_sep(out, i);
    hr_strbuf_printf(out, "%u", (unsigned)e->module_kept_var_idx[i]);
  }
  tuple_end(out, e->num_kept_var_idx);
  hr_strbuf_printf(out, "\nuses_global_constants: %s\nhas_vjp: %s\n", e->uses_global_constants ? "True" : "False",
                   e->has_vjp ? "True" : "False");
  hr_strbuf_printf(out, "mlir_module_serialized: %zu bytes at offset %zu\n", e->module_size, e->module_offset);
  hr_strbuf_printf(out, "serialization_version: %u (stored), %d or later (fields present)\n",
                   (unsigned)e->serialization_version, e->serialization_version_min);
  if (e->jax_version) {
    hr_strbuf_puts(out, "jax_version: ");
    put_text(out, e->jax_version);
    hr_strbuf_putc(out, '\n');
  }
}

hr_status hr_jaxexport_format(const hr_jaxexport *e, hr_strbuf *out) {
  hr_strbuf_puts(out, "fun_name: ");
  put_text(out, e->function_name);
  hr_strbuf_putc(out, '\n');
  put_signature(e, out);
  put_rest(e, out);
  return hr_strbuf_status(out);
}

/* The strings of Shardy's round-trip form (sdy_round_trip.c) read into the attributes of the native
 * form: a frontend attribute's string holding one Shardy attribute as MLIR prints it
 * (`#sdy.sharding_per_value<[<@mesh, [{\22a\22}, {}]>]>`), and the module's `xla.sdy.meshes`, a
 * string holding a dictionary of named meshes (`{mesh = #sdy.mesh<[\22a\22=2]>}`). Some exports
 * escape the strings once more (`\"a\"` inside the decoded string): one level of MLIR's string
 * escapes is decoded where a backslash appears (no Shardy attribute holds one itself). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ir/sdy_round_trip_internal.h"

hr_status hr_sdyrt_error(const hr_module *m, const hr_op *op, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (op) return hr_op_error(op, HR_INVALID_ARGUMENT, "%s", msg);
  return hr_error(HR_INVALID_ARGUMENT, "%s: %s", m->filename ? m->filename : "<input>", msg);
}

/* `err` (a Shardy reader's error) as one naming `op` (NULL: the module) and the attribute `key`. */
static hr_status wrap(const hr_module *m, const hr_op *op, const char *key, hr_status err) {
  hr_status e = hr_sdyrt_error(m, op, "%s: %s", key, hr_status_message(err));
  hr_status_free(err);
  return e;
}

/* The value of a hex digit, or -1. */
static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* `len` bytes of `s` with one level of MLIR's string escapes (\" \\ \n \t \XX) decoded into the
 * module's arena (`s` itself when it holds no backslash); NULL *out on a malformed escape. */
static hr_status unescape(hr_module *m, const char *s, size_t len, const char **out, size_t *out_len) {
  *out = s;
  *out_len = len;
  if (!memchr(s, '\\', len)) return NULL;
  char *d = hr_arena_alloc(&m->arena, len + 1, 1);
  if (!d) return hr_error(HR_OUT_OF_MEMORY, "out of memory decoding a Shardy attribute");
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] != '\\') {
      d[n++] = s[i];
      continue;
    }
    char c = i + 1 < len ? s[i + 1] : '\0';
    int hi = hex_value(c), lo = i + 2 < len ? hex_value(s[i + 2]) : -1;
    if (c == '"' || c == '\\') d[n++] = c, i++;
    else if (c == 'n') d[n++] = '\n', i++;
    else if (c == 't') d[n++] = '\t', i++;
    else if (hi >= 0 && lo >= 0) d[n++] = (char)(hi * 16 + lo), i += 2;
    else {
      *out = NULL;
      return NULL;
    }
  }
  d[n] = '\0';
  *out = d;
  *out_len = n;
  return NULL;
}

/* An OPAQUE attribute holding `len` bytes of `text` (copied into the module's arena). */
static hr_status new_opaque(hr_module *m, const char *text, size_t len, hr_attr **out) {
  hr_attr *a = hr_attr_new(m, HR_ATTR_OPAQUE);
  char *copy = hr_arena_strndup(&m->arena, text, len);
  if (!a || !copy) return hr_error(HR_OUT_OF_MEMORY, "out of memory importing a Shardy attribute");
  a->u.str.data = copy;
  a->u.str.len = len;
  *out = a;
  return NULL;
}

/* The text of string attribute `s` (named `key` in errors, at `op` or the module when NULL),
 * bounded by HR_LIMIT_SDY_TEXT_BYTES, with one level of escapes decoded. */
static hr_status string_text(hr_module *m, const hr_op *op, const char *key, const hr_attr *s, const char **text,
                             size_t *len) {
  if (s->kind != HR_ATTR_STRING || !s->u.str.data) return hr_sdyrt_error(m, op, "%s is not a string", key);
  if (s->u.str.len > HR_LIMIT_SDY_TEXT_BYTES)
    return hr_sdyrt_error(m, op, "%s is longer than %d bytes", key, HR_LIMIT_SDY_TEXT_BYTES);
  HR_TRY(unescape(m, s->u.str.data, s->u.str.len, text, len));
  if (!*text) return hr_sdyrt_error(m, op, "%s holds a malformed escape", key);
  return NULL;
}

hr_status hr_sdyrt_opaque(hr_module *m, const hr_op *op, const char *key, const hr_attr *s, const char *prefix,
                          hr_attr **out) {
  const char *text;
  size_t len;
  HR_TRY(string_text(m, op, key, s, &text, &len));
  size_t np = strlen(prefix);
  if (memchr(text, 0, len)) /* Shardy's text never holds one; later stages read it as a C string */
    return hr_sdyrt_error(m, op, "%s holds a NUL byte", key);
  if (len < np + 1 || text[0] != '#' || memcmp(text + 1, prefix, np) != 0) {
    int shown = (int)(len > 80 ? 80 : len);
    return hr_sdyrt_error(m, op, "%s is '%.*s', expected #%s...", key, shown, text, prefix);
  }
  return new_opaque(m, text + 1, len - 1, out);
}

hr_status hr_sdyrt_check_per_value(hr_module *m, hr_arena *scratch, const hr_op *op, const char *key,
                                   const hr_attr *a, int n) {
  hr_arena_pos mark = hr_arena_mark(scratch);
  hr_sdy_sharding *tmp = HR_ARENA_ARRAY(scratch, hr_sdy_sharding, (size_t)(n > 0 ? n : 1));
  hr_status s = tmp ? hr_sdy_read_per_value(a, n, tmp) : hr_error(HR_OUT_OF_MEMORY, "out of memory");
  hr_arena_rewind(scratch, mark);
  return s ? wrap(m, op, key, s) : NULL;
}

hr_status hr_sdyrt_check_manual_axes(hr_module *m, const hr_op *op, const char *key, const hr_attr *a) {
  hr_sdy_name names[HR_LIMIT_SDY_AXES];
  int n = 0;
  hr_status s = hr_sdy_read_manual_axes(a, names, &n);
  return s ? wrap(m, op, key, s) : NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* The module's meshes                                                                             */
/* ---------------------------------------------------------------------------------------------- */

/* A read position in the meshes' dictionary text. */
typedef struct cursor {
  const char *p, *end;
} cursor;

static void skip_space(cursor *c) {
  while (c->p < c->end && isspace((unsigned char)*c->p)) c->p++;
}

/* Consumes `ch` (after spaces) when it comes next. */
static bool accept(cursor *c, char ch) {
  skip_space(c);
  if (c->p >= c->end || *c->p != ch) return false;
  c->p++;
  return true;
}

/* A dictionary key: a bare identifier or a quoted name without escapes; NULL *out when neither. */
static void dict_key(cursor *c, const char **out, size_t *len) {
  skip_space(c);
  *out = NULL;
  const char *start = c->p;
  if (c->p < c->end && *c->p == '"') {
    const char *close = memchr(c->p + 1, '"', (size_t)(c->end - c->p - 1));
    if (!close || memchr(c->p + 1, '\\', (size_t)(close - c->p - 1))) return;
    *out = c->p + 1;
    *len = (size_t)(close - c->p - 1);
    c->p = close + 1;
    return;
  }
  if (c->p >= c->end || !(isalpha((unsigned char)*c->p) || *c->p == '_')) return;
  while (c->p < c->end && (isalnum((unsigned char)*c->p) || *c->p == '_' || *c->p == '$' || *c->p == '.')) c->p++;
  *out = start;
  *len = (size_t)(c->p - start);
}

/* `#sdy.mesh<...>`: its text without the '#' (the angle brackets balanced, quoted names skipped);
 * false when it is not one. */
static bool mesh_value(cursor *c, const char **out, size_t *len) {
  static const char prefix[] = "#sdy.mesh<";
  skip_space(c);
  size_t np = sizeof prefix - 1;
  if ((size_t)(c->end - c->p) < np || memcmp(c->p, prefix, np) != 0) return false;
  const char *start = c->p + 1;
  int depth = 0;
  for (c->p += np - 1; c->p < c->end; c->p++) {
    if (*c->p == '"') {
      const char *close = memchr(c->p + 1, '"', (size_t)(c->end - c->p - 1));
      if (!close) return false;
      c->p = close;
    } else if (*c->p == '<') {
      depth++;
    } else if (*c->p == '>' && --depth == 0) {
      c->p++;
      *out = start;
      *len = (size_t)(c->p - start);
      return true;
    }
  }
  return false;
}

/* Whether a mesh called `name` (len bytes) is among meshes[0 .. n-1]. */
static bool has_mesh(const hr_mesh *meshes, int n, const char *name, size_t len) {
  for (int i = 0; i < n; i++)
    if (strlen(meshes[i].name) == len && memcmp(meshes[i].name, name, len) == 0) return true;
  return false;
}

/* Appends the meshes of the dictionary text `text` to the module's; errors quote the offset. */
static hr_status read_mesh_dict(hr_module *m, const char *text, size_t len) {
  const char *key = "module attribute xla.sdy.meshes";
  /* Each entry takes at least `a=#sdy.mesh<[]>` (15 bytes) of the text. */
  size_t cap = (size_t)m->n_meshes + len / 15 + 1;
  hr_mesh *meshes = HR_ARENA_ARRAY(&m->arena, hr_mesh, cap);
  if (!meshes) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading %s", key);
  if (m->n_meshes) memcpy(meshes, m->meshes, (size_t)m->n_meshes * sizeof *meshes);
  int n = m->n_meshes;
  cursor c = {text, text + len};
  if (!accept(&c, '{')) return hr_sdyrt_error(m, NULL, "%s: expected '{' at offset 0", key);
  if (!accept(&c, '}')) {
    do {
      const char *name, *body;
      size_t name_len, body_len;
      dict_key(&c, &name, &name_len);
      if (!name || !accept(&c, '='))
        return hr_sdyrt_error(m, NULL, "%s: expected `name =` at offset %d", key, (int)(c.p - text));
      if (!mesh_value(&c, &body, &body_len))
        return hr_sdyrt_error(m, NULL, "%s: expected #sdy.mesh<...> at offset %d", key, (int)(c.p - text));
      if (has_mesh(meshes, n, name, name_len))
        return hr_sdyrt_error(m, NULL, "%s: a second mesh called '%.*s'", key, (int)name_len, name);
      if ((size_t)n == cap) return hr_sdyrt_error(m, NULL, "%s: too many meshes", key);
      hr_sdy_mesh check;
      HR_TRY(new_opaque(m, body, body_len, &meshes[n].mesh));
      hr_status s = hr_sdy_read_mesh(meshes[n].mesh, &check);
      if (s) return wrap(m, NULL, key, s);
      meshes[n].name = hr_arena_strndup(&m->arena, name, name_len);
      if (!meshes[n++].name) return hr_error(HR_OUT_OF_MEMORY, "out of memory reading %s", key);
    } while (accept(&c, ','));
    if (!accept(&c, '}'))
      return hr_sdyrt_error(m, NULL, "%s: expected ',' or '}' at offset %d", key, (int)(c.p - text));
  }
  skip_space(&c);
  if (c.p != c.end) return hr_sdyrt_error(m, NULL, "%s: unexpected text at offset %d", key, (int)(c.p - text));
  m->meshes = meshes;
  m->n_meshes = n;
  return NULL;
}

hr_status hr_sdyrt_dict_set(hr_module *m, const hr_attr *dict, const char *key, hr_attr *value, hr_attr **out) {
  int n = dict ? dict->u.dict.n : 0;
  hr_named_attr *entries = HR_ARENA_ARRAY(&m->arena, hr_named_attr, (size_t)n + 1);
  if (!entries) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  int kept = 0;
  bool placed = false;
  for (int i = 0; i < n; i++) {
    hr_named_attr e = dict->u.dict.entries[i];
    if (strcmp(e.name, key) != 0) entries[kept++] = e;
    else if (value) entries[kept++] = (hr_named_attr){e.name, value}, placed = true;
  }
  if (value && !placed) entries[kept++] = (hr_named_attr){key, value};
  *out = NULL;
  if (!kept) return NULL;
  hr_attr *d = hr_attr_new(m, HR_ATTR_DICT);
  if (!d) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  d->u.dict.n = kept;
  d->u.dict.entries = entries;
  *out = d;
  return NULL;
}

hr_status hr_sdyrt_import_meshes(hr_module *m, bool *found) {
  *found = false;
  const hr_attr *fa =
      m->attrs && m->attrs->kind == HR_ATTR_DICT ? hr_attr_field(m->attrs, "mhlo.frontend_attributes") : NULL;
  const hr_attr *s = fa && fa->kind == HR_ATTR_DICT ? hr_attr_field(fa, "xla.sdy.meshes") : NULL;
  if (!s) return NULL;
  *found = true;
  const char *text;
  size_t len;
  HR_TRY(string_text(m, NULL, "module attribute xla.sdy.meshes", s, &text, &len));
  HR_TRY(read_mesh_dict(m, text, len));
  /* The string is gone from the module's attributes: the meshes say it now. */
  hr_attr *rest, *attrs;
  HR_TRY(hr_sdyrt_dict_set(m, fa, "xla.sdy.meshes", NULL, &rest));
  HR_TRY(hr_sdyrt_dict_set(m, m->attrs, "mhlo.frontend_attributes", rest, &attrs));
  m->attrs = attrs;
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Parameter and result shardings                                                                  */
/* ---------------------------------------------------------------------------------------------- */

/* The attributes *slot of parameter or result #i of `f` (`what`) in the native form: the string of
 * `mhlo.frontend_attributes = {xla.sdy.sharding = "#sdy.sharding<...>"}` as `sdy.sharding`, the
 * GSPMD `mhlo.sharding` string kept beside it gone. */
static hr_status import_value_attrs(hr_module *m, const hr_func *f, const char *what, int i, hr_attr **slot) {
  hr_attr *d = *slot;
  if (!d || d->kind != HR_ATTR_DICT) return NULL;
  const hr_attr *fa = hr_attr_field(d, "mhlo.frontend_attributes");
  const hr_attr *s = fa && fa->kind == HR_ATTR_DICT ? hr_attr_field(fa, "xla.sdy.sharding") : NULL;
  if (s) {
    char key[HR_LIMIT_NAME_BYTES + 64];
    snprintf(key, sizeof key, "@%s %s #%d: xla.sdy.sharding", f->name, what, i);
    hr_attr *sharding, *rest;
    HR_TRY(hr_sdyrt_opaque(m, NULL, key, s, "sdy.sharding<", &sharding));
    HR_TRY(hr_sdyrt_dict_set(m, fa, "xla.sdy.sharding", NULL, &rest));
    HR_TRY(hr_sdyrt_dict_set(m, d, "mhlo.frontend_attributes", rest, &d));
    HR_TRY(hr_sdyrt_dict_set(m, d, "sdy.sharding", sharding, &d));
  }
  if (d && hr_attr_field(d, "mhlo.sharding")) HR_TRY(hr_sdyrt_dict_set(m, d, "mhlo.sharding", NULL, &d));
  *slot = d;
  return NULL;
}

hr_status hr_sdyrt_import_func_shardings(hr_module *m) {
  for (int i = 0; i < m->n_funcs; i++) {
    const hr_func *f = m->funcs[i];
    for (int k = 0; f->arg_attrs && k < f->n_args; k++)
      HR_TRY(import_value_attrs(m, f, "parameter", k, &f->arg_attrs[k]));
    for (int k = 0; f->result_attrs && k < f->n_results; k++)
      HR_TRY(import_value_attrs(m, f, "result", k, &f->result_attrs[k]));
  }
  return NULL;
}

/* Shardy's attribute text (as MLIR prints it, which both readers keep) read into the structs of
 * shardy.h. A small cursor over the text; every error quotes the attribute and the offset. */
#include "ir/shardy.h"

#include <ctype.h>
#include <string.h>

/* A read position in an attribute's text. */
typedef struct cursor {
  const char *text, *p, *end;
} cursor;

/* An INVALID_ARGUMENT error naming what was expected where. */
static hr_status bad(const cursor *c, const char *expected) {
  int shown = (int)(c->end - c->text > 120 ? 120 : c->end - c->text);
  return hr_error(HR_INVALID_ARGUMENT, "Shardy attribute '#%.*s': expected %s at offset %d", shown, c->text, expected,
                  (int)(c->p - c->text));
}

/* The error for a list longer than `limit`. */
static hr_status too_many(const cursor *c, const char *what, int limit) {
  return hr_error(HR_RESOURCE_EXHAUSTED, "Shardy attribute: more than %d %s at offset %d", limit, what,
                  (int)(c->p - c->text));
}

void hr_sdy_skip_space(const char **p, const char *end) {
  while (*p < end && isspace((unsigned char)**p)) (*p)++;
}

bool hr_sdy_accept(const char **p, const char *end, const char *word) {
  hr_sdy_skip_space(p, end);
  size_t n = strlen(word);
  if ((size_t)(end - *p) < n || memcmp(*p, word, n) != 0) return false;
  *p += n;
  return true;
}

static void skip_space(cursor *c) { hr_sdy_skip_space(&c->p, c->end); }
static bool accept(cursor *c, const char *s) { return hr_sdy_accept(&c->p, c->end, s); }

static hr_status expect(cursor *c, const char *s) { return accept(c, s) ? NULL : bad(c, s); }

/* A decimal integer, at most 18 digits (no overflow). */
static hr_status integer(cursor *c, int64_t *out) {
  skip_space(c);
  int64_t v = 0;
  int digits = 0;
  for (; c->p < c->end && isdigit((unsigned char)*c->p) && digits < 18; digits++) v = v * 10 + (*c->p++ - '0');
  if (!digits || (c->p < c->end && isdigit((unsigned char)*c->p))) return bad(c, "a small integer");
  *out = v;
  return NULL;
}

/* A quoted name without escapes ("a"). */
static hr_status name(cursor *c, hr_sdy_name *out) {
  HR_TRY(expect(c, "\""));
  const char *start = c->p;
  while (c->p < c->end && *c->p != '"' && *c->p != '\\') c->p++;
  if (c->p >= c->end || *c->p != '"') return bad(c, "a closing quote (names with escapes are not supported)");
  out->text = start;
  out->len = (size_t)(c->p - start);
  c->p++;
  return NULL;
}

/* `<[` axis, ... `]` [`, device_ids=[...]`] `>` of a mesh, after its mnemonic. */
static hr_status mesh_body(cursor *c, hr_sdy_mesh *out) {
  memset(out, 0, sizeof *out);
  out->n_devices = 1;
  HR_TRY(expect(c, "<"));
  HR_TRY(expect(c, "["));
  if (!accept(c, "]")) {
    do {
      if (out->n_axes == HR_LIMIT_SDY_AXES) return too_many(c, "mesh axes", HR_LIMIT_SDY_AXES);
      HR_TRY(name(c, &out->names[out->n_axes]));
      HR_TRY(expect(c, "="));
      int64_t size;
      HR_TRY(integer(c, &size));
      if (size < 1 || out->n_devices > INT32_MAX / size) return bad(c, "an axis size from 1 to the device limit");
      out->sizes[out->n_axes++] = size;
      out->n_devices *= size;
    } while (accept(c, ","));
    HR_TRY(expect(c, "]"));
  }
  if (accept(c, ",")) { /* device_ids=[...]: kept only when they are 0, 1, ... in order */
    HR_TRY(expect(c, "device_ids"));
    HR_TRY(expect(c, "="));
    HR_TRY(expect(c, "["));
    for (int64_t i = 0;; i++) {
      int64_t id;
      HR_TRY(integer(c, &id));
      if (id != i) return bad(c, "device ids in order (other orders are not supported)");
      if (accept(c, "]")) break;
      HR_TRY(expect(c, ","));
    }
  }
  return expect(c, ">");
}

/* An axis reference: `"a"` or `"a":(pre)size`. */
static hr_status axis_ref(cursor *c, hr_sdy_axis_ref *out) {
  memset(out, 0, sizeof *out);
  HR_TRY(name(c, &out->name));
  if (!accept(c, ":")) return NULL;
  HR_TRY(expect(c, "("));
  HR_TRY(integer(c, &out->sub_pre));
  HR_TRY(expect(c, ")"));
  return integer(c, &out->sub_size);
}

/* `{` axis refs [`?`] `}` [`p`N] of one dimension; open dimensions and priorities are read and
 * dropped (they guide propagation, not what a value is). */
static hr_status dim_sharding(cursor *c, hr_sdy_sharding *s, int d) {
  HR_TRY(expect(c, "{"));
  s->n_axes[d] = 0;
  if (!accept(c, "}")) {
    do {
      if (accept(c, "?")) break; /* an open dimension: `?` comes last */
      if (s->n_axes[d] == HR_LIMIT_SDY_AXES) return too_many(c, "axes in a dimension", HR_LIMIT_SDY_AXES);
      HR_TRY(axis_ref(c, &s->axes[d][s->n_axes[d]++]));
    } while (accept(c, ","));
    HR_TRY(expect(c, "}"));
  }
  skip_space(c);
  if (c->p < c->end && *c->p == 'p') {
    int64_t priority;
    c->p++;
    HR_TRY(integer(c, &priority));
  }
  return NULL;
}

/* `{` axis refs `}` after replicated= / unreduced= (read and dropped: they do not divide values). */
static hr_status axis_set(cursor *c) {
  HR_TRY(expect(c, "{"));
  if (accept(c, "}")) return NULL;
  do {
    hr_sdy_axis_ref ignored;
    HR_TRY(axis_ref(c, &ignored));
  } while (accept(c, ","));
  return expect(c, "}");
}

/* `<@mesh | mesh<...>, [dims], replicated={...}, unreduced={...}>` */
static hr_status sharding_body(cursor *c, hr_sdy_sharding *out) {
  memset(out, 0, sizeof *out);
  HR_TRY(expect(c, "<"));
  if (accept(c, "@")) {
    out->mesh_ref.text = c->p;
    while (c->p < c->end && (isalnum((unsigned char)*c->p) || *c->p == '_' || *c->p == '.' || *c->p == '$')) c->p++;
    out->mesh_ref.len = (size_t)(c->p - out->mesh_ref.text);
    if (!out->mesh_ref.len) return bad(c, "a mesh name");
  } else {
    HR_TRY(expect(c, "mesh"));
    HR_TRY(mesh_body(c, &out->inline_mesh));
  }
  HR_TRY(expect(c, ","));
  HR_TRY(expect(c, "["));
  if (!accept(c, "]")) {
    do {
      if (out->rank == HR_MAX_RANK) return too_many(c, "dimensions", HR_MAX_RANK);
      HR_TRY(dim_sharding(c, out, out->rank++));
    } while (accept(c, ","));
    HR_TRY(expect(c, "]"));
  }
  while (accept(c, ",")) {
    if (!accept(c, "replicated") && !accept(c, "unreduced")) return bad(c, "replicated= or unreduced=");
    HR_TRY(expect(c, "="));
    HR_TRY(axis_set(c));
  }
  return expect(c, ">");
}

/* A cursor over the text of OPAQUE `a` after `prefix`. */
static hr_status open_attr(const hr_attr *a, const char *prefix, cursor *c) {
  if (!a || a->kind != HR_ATTR_OPAQUE || !a->u.str.data)
    return hr_error(HR_INVALID_ARGUMENT, "expected a Shardy attribute #%s...", prefix);
  c->text = a->u.str.data;
  c->end = c->text + a->u.str.len;
  c->p = c->text;
  return expect(c, prefix);
}

/* Fails unless the cursor is at the end. */
static hr_status finish(cursor *c) {
  skip_space(c);
  return c->p == c->end ? NULL : bad(c, "the end of the attribute");
}

hr_status hr_sdy_read_mesh(const hr_attr *a, hr_sdy_mesh *out) {
  cursor c;
  HR_TRY(open_attr(a, "sdy.mesh", &c));
  HR_TRY(mesh_body(&c, out));
  return finish(&c);
}

hr_status hr_sdy_read_per_value(const hr_attr *a, int n, hr_sdy_sharding *out) {
  cursor c;
  HR_TRY(open_attr(a, "sdy.sharding_per_value", &c));
  HR_TRY(expect(&c, "<"));
  HR_TRY(expect(&c, "["));
  for (int i = 0; i < n; i++) {
    if (i) HR_TRY(expect(&c, ","));
    HR_TRY(sharding_body(&c, &out[i]));
  }
  HR_TRY(expect(&c, "]"));
  HR_TRY(expect(&c, ">"));
  return finish(&c);
}

hr_status hr_sdy_read_manual_axes(const hr_attr *a, hr_sdy_name *names, int *n) {
  cursor c;
  *n = 0;
  HR_TRY(open_attr(a, "sdy<manual_axes", &c));
  HR_TRY(expect(&c, "{"));
  if (!accept(&c, "}")) {
    do {
      if (*n == HR_LIMIT_SDY_AXES) return too_many(&c, "manual axes", HR_LIMIT_SDY_AXES);
      HR_TRY(name(&c, &names[(*n)++]));
    } while (accept(&c, ","));
    HR_TRY(expect(&c, "}"));
  }
  HR_TRY(expect(&c, ">"));
  return finish(&c);
}

int hr_sdy_axis_index(const hr_sdy_mesh *mesh, hr_sdy_name name) {
  for (int i = 0; i < mesh->n_axes; i++)
    if (mesh->names[i].len == name.len && memcmp(mesh->names[i].text, name.text, name.len) == 0) return i;
  return -1;
}

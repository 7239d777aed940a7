/* hlorun convert: a module moved between the forms JAX users have. Reads any model file the other
 * commands read (StableHLO text, a portable artifact, a jax.export file, told apart by content)
 * and writes, as --to says or else by the output's extension, StableHLO text (.mlir), a StableHLO
 * portable artifact (.mlirbc, .bc: MLIR bytecode of VHLO --target, default 1.8) or a jax.export
 * file (.bin, .jax, .exported: what Exported.serialize() writes, which jax.export.deserialize
 * reads). A jax.export file converted to another keeps everything it says about the function (its
 * trees, avals, shardings, platforms, effects, checks) and its module, which is rewritten only when
 * --target is given; any other module is described as jax.export would describe its @main called
 * with positional arrays. With --to savedmodel, OUT is a directory that receives a jax2tf
 * SavedModel (formats/savedmodel/savedmodel_write.h): the parameters bound by --weights become its
 * variables, the others its serving_default inputs. */
#include <string.h>

#include "base/file.h"
#include "base/limits.h"
#include "base/strbuf.h"
#include "cli/cli.h"
#include "cli/model.h"
#include "formats/jaxexport/jaxexport.h"
#include "formats/mlirbc/writer.h"
#include "formats/savedmodel/savedmodel_write.h"
#include "ir/ir.h"

static const char usage[] =
    "usage: hlorun convert IN OUT [--to text|bytecode|jax-export|savedmodel] [--target STABLEHLO_VERSION]\n"
    "                      [--weights W]\n"
    "  OUT's form: --to, else its extension (.mlir text; .mlirbc/.bc portable artifact; .bin/.jax/.exported\n"
    "  jax.export). savedmodel: OUT is a directory receiving a jax2tf SavedModel (saved_model.pb and\n"
    "  variables/) whose variables are the parameters --weights binds. --target: the StableHLO version a\n"
    "  portable artifact is written for (1.0 to 1.20; default 1.8).\n";

typedef enum { FORM_NONE, FORM_TEXT, FORM_BYTECODE, FORM_JAX_EXPORT, FORM_SAVEDMODEL } out_form;

/* Whether `path` ends with `ext`. */
static bool ends_with(const char *path, const char *ext) {
  size_t n = strlen(path), e = strlen(ext);
  return n >= e && strcmp(path + n - e, ext) == 0;
}

static out_form form_named(const char *name) {
  return strcmp(name, "text") == 0       ? FORM_TEXT
         : strcmp(name, "bytecode") == 0 ? FORM_BYTECODE
         : strcmp(name, "jax-export") == 0 ? FORM_JAX_EXPORT
         : strcmp(name, "savedmodel") == 0 ? FORM_SAVEDMODEL
                                           : FORM_NONE;
}

static out_form form_of_extension(const char *path) {
  if (ends_with(path, ".mlir")) return FORM_TEXT;
  if (ends_with(path, ".mlirbc") || ends_with(path, ".bc")) return FORM_BYTECODE;
  if (ends_with(path, ".bin") || ends_with(path, ".jax") || ends_with(path, ".exported")) return FORM_JAX_EXPORT;
  return FORM_NONE;
}

/* The bytes of a jax.export file for `m`: `e` describes the function (NULL: describe m's @main).
 * With `rewrite` false, e's own module bytes are kept as they are. */
static hr_status jax_export_bytes(const hr_module *m, const hr_jaxexport *e, bool rewrite, uint16_t version,
                                  hr_strbuf *out) {
  hr_jaxexport *described = NULL;
  if (!e) HR_TRY(hr_jaxexport_describe_module(m, NULL, &described));
  hr_strbuf bc;
  hr_strbuf_init(&bc, NULL);
  hr_status s = NULL;
  if (rewrite || !e) s = hr_bc_write_module(m, version, &bc);
  else hr_strbuf_append(&bc, (const char *)e->module, e->module_size);
  if (!s) s = hr_strbuf_status(&bc);
  if (!s) s = hr_jaxexport_write(e ? e : described, (const uint8_t *)bc.data, bc.len, out);
  hr_strbuf_free(&bc);
  hr_jaxexport_free(described);
  return s;
}

/* Reads `in` as the module to convert. For a jax.export file written as one, *e receives its
 * Exported and *m its module as stored (the calling convention not applied); `data` keeps the
 * file's bytes, which *e points into. */
static hr_status read_input(const char *in, out_form form, char **data, hr_jaxexport **e, hr_module **m) {
  size_t len;
  HR_TRY(hr_read_file(in, NULL, HR_LIMIT_MODULE_FILE_BYTES, data, &len));
  if (form != FORM_JAX_EXPORT || !hr_jaxexport_sniff((const uint8_t *)*data, len)) return hr_module_parse_file(in, NULL, m);
  HR_TRY(hr_jaxexport_read(in, (const uint8_t *)*data, len, NULL, e));
  return hr_module_parse_bytecode(in, (*e)->module, (*e)->module_size, NULL, m);
}

/* Converts `in` to `out`; `version` (NULL: the default, or a jax.export input's own module kept as
 * it is) is the VHLO version a module is written at. */
static hr_status convert(const char *in, const char *out, out_form form, const uint16_t *version) {
  uint16_t v = version ? *version : HR_BC_VERSION_DEFAULT;
  char *data = NULL;
  hr_jaxexport *e = NULL;
  hr_module *m = NULL;
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_status s = read_input(in, form, &data, &e, &m);
  if (!s)
    s = form == FORM_TEXT       ? hr_module_print_to(m, &sb)
        : form == FORM_BYTECODE ? hr_bc_write_module(m, v, &sb)
                                : jax_export_bytes(m, e, version != NULL, v, &sb);
  if (!s) s = hr_strbuf_status(&sb);
  if (!s) s = hr_write_file(out, sb.data ? sb.data : "", sb.len);
  if (!s) {
    const char *what = form == FORM_TEXT ? "StableHLO text" : form == FORM_BYTECODE ? "StableHLO portable artifact"
                                                                                   : "jax.export file";
    printf("converted -> %s (%zu bytes, %s", out, sb.len, what);
    if (form == FORM_JAX_EXPORT && e && !version) printf(", its module kept as it was");
    else if (form != FORM_TEXT) printf(", StableHLO %d.%d", v / 100, v % 100);
    printf(")\n");
  }
  hr_strbuf_free(&sb);
  hr_module_free(m);
  hr_jaxexport_free(e);
  if (data) hr_default_allocator()->free(hr_default_allocator()->ctx, data);
  return s;
}

/* Writes `in`, its parameters bound by `weights` (or NULL), as a SavedModel directory `out`. */
static hr_status convert_savedmodel(const char *in, const char *weights, const char *out, uint16_t version) {
  cli_model_args args = {.path = in, .weights = weights, .interpret = true};
  cli_model m;
  HR_TRY(cli_model_open(&args, &m));
  hr_savedmodel_source src = {m.module, m.bound, version};
  hr_status s = hr_savedmodel_write(out, &src);
  if (!s)
    printf("converted -> %s (SavedModel: %d signature inputs, %d variables; XlaCallModule of StableHLO %d.%d)\n", out,
           m.n_inputs, m.fn->n_args - m.n_inputs, version / 100, version % 100);
  cli_model_close(&m);
  return s;
}

int cmd_convert(int argc, char **argv) {
  const char *paths[2] = {NULL, NULL}, *to = NULL, *target = NULL, *weights = NULL;
  int n_paths = 0;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--to") == 0 && i + 1 < argc) to = argv[++i];
    else if (strcmp(argv[i], "--target") == 0 && i + 1 < argc) target = argv[++i];
    else if (strcmp(argv[i], "--weights") == 0 && i + 1 < argc) weights = argv[++i];
    else if (argv[i][0] != '-' && n_paths < 2) paths[n_paths++] = argv[i];
    else n_paths = 3; /* an unknown option or a third path */
  }
  if (n_paths != 2) {
    fputs(usage, stderr);
    return 2;
  }
  out_form form = to ? form_named(to) : form_of_extension(paths[1]);
  uint16_t version = HR_BC_VERSION_DEFAULT;
  hr_status s = NULL;
  if (form == FORM_NONE && to)
    s = hr_error(HR_INVALID_ARGUMENT, "--to %s: not a form (text, bytecode, jax-export or savedmodel)", to);
  else if (form == FORM_NONE)
    s = hr_error(HR_INVALID_ARGUMENT, "%s: the output's extension names no form (.mlir: StableHLO text; .mlirbc "
                 "or .bc: a portable artifact; .bin, .jax or .exported: a jax.export file); or say --to", paths[1]);
  if (!s && target) s = hr_bc_parse_version(target, &version);
  if (!s && target && form == FORM_TEXT)
    s = hr_error(HR_INVALID_ARGUMENT, "--target applies to portable artifacts and jax.export files, not to text");
  if (!s && weights && form != FORM_SAVEDMODEL)
    s = hr_error(HR_INVALID_ARGUMENT, "--weights applies to --to savedmodel (its variables)");
  if (!s && form == FORM_SAVEDMODEL) s = convert_savedmodel(paths[0], weights, paths[1], version);
  else if (!s) s = convert(paths[0], paths[1], form, target ? &version : NULL);
  return s ? report_error(s) : 0;
}

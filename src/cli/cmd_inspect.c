/* hlorun inspect: summarize a model (functions, inputs, outputs, weights), or print its program
 * text — the whole of it, or a preview with the full text written to a file. */
#include <string.h>

#include "base/file.h"
#include "base/limits.h"
#include "base/strbuf.h"
#include "cli/cli.h"
#include "cli/model.h"
#include "formats/jaxexport/jaxexport.h"
#include "formats/mlirbc/bytecode.h"
#include "formats/savedmodel/savedmodel.h"
#include "ir/ir.h"
#include "runtime/executable.h"

enum { PREVIEW_WIDTH = 160 };

typedef struct inspect_args {
  cli_model_args model;
  bool ir;
  const char *out;     /* write the full text here */
  int64_t preview;     /* lines to show (0: all, unless --out is given) */
} inspect_args;

static const char inspect_usage[] =
    "usage: hlorun inspect MODEL [--weights W] [--signature NAME] [--ir [--out FILE.mlir] [--preview N]]\n";

static int parse_inspect_args(int argc, char **argv, inspect_args *a) {
  memset(a, 0, sizeof *a);
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
    int used = cli_parse_model_flag(arg, value, &a->model);
    if (used < 0) return 2;
    if (used) {
      i += used - 1;
    } else if (strcmp(arg, "--ir") == 0) {
      a->ir = true;
    } else if (strcmp(arg, "--out") == 0 && value) {
      a->out = argv[++i];
    } else if (strcmp(arg, "--preview") == 0 && value) {
      if (!cli_parse_int("--preview", argv[++i], 1, 1 << 30, &a->preview)) return 2;
    } else if (arg[0] == '-' || a->model.path) {
      fprintf(stderr, "hlorun inspect: unexpected argument '%s'\n%s", arg, inspect_usage);
      return 2;
    } else {
      a->model.path = arg;
    }
  }
  if (!a->model.path) {
    fputs(inspect_usage, stderr);
    return 2;
  }
  if (a->out && !a->preview) a->preview = 20;
  return 0;
}

/* The module behind any kind of model. */
static const hr_module *model_module(const cli_model *m) {
  if (m->program) return hr_program_module(m->program);
  if (m->exe) return hr_executable_module(m->exe);
  if (m->spmd) return hr_program_module(hr_spmd_program(m->spmd));
  return m->module;
}

/* Counts ops in a block, nested regions included. */
static long count_ops(const hr_block *b) {
  long n = b->n_ops;
  for (int k = 0; k < b->n_ops; k++)
    for (int r = 0; r < b->ops[k]->n_regions; r++) n += count_ops(&b->ops[k]->regions[r]);
  return n;
}

static void print_summary(const cli_model *m) {
  const hr_module *mod = model_module(m);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  const char *kind = m->exe ? "executable" : m->program ? "program" : "module";
  hr_strbuf_printf(&sb, "%s %s%s: %d function%s\n", kind, mod->name ? "@" : "", mod->name ? mod->name : "(unnamed)",
                   mod->n_funcs, mod->n_funcs == 1 ? "" : "s");
  for (int i = 0; i < mod->n_funcs; i++) {
    const hr_func *fn = mod->funcs[i];
    hr_strbuf_printf(&sb, "  %s @%s(", fn->is_private ? "private" : "public", fn->name);
    for (int a = 0; a < fn->n_args; a++) {
      if (a) hr_strbuf_puts(&sb, ", ");
      hr_type_print(&sb, &fn->body.args[a].type);
    }
    hr_strbuf_puts(&sb, ") -> (");
    for (int r = 0; r < fn->n_results; r++) {
      if (r) hr_strbuf_puts(&sb, ", ");
      hr_type_print(&sb, &fn->result_types[r]);
    }
    hr_strbuf_printf(&sb, ")  [%ld ops]\n", count_ops(&fn->body));
  }
  if (m->program || m->exe) {
    hr_strbuf_puts(&sb, "inputs:\n");
    for (int i = 0; i < cli_model_num_inputs(m); i++) {
      char buf[32];
      hr_tensor_spec s = cli_model_input_spec(m, i);
      hr_strbuf_printf(&sb, "  %s: ", cli_model_input_name(m, i, buf, sizeof buf));
      hr_spec_print(&sb, &s);
      hr_strbuf_putc(&sb, '\n');
    }
    int n_out = m->exe ? hr_executable_num_outputs(m->exe) : hr_program_num_outputs(m->program);
    hr_strbuf_puts(&sb, "outputs:\n");
    for (int i = 0; i < n_out; i++) {
      hr_tensor_spec s = m->exe ? hr_executable_output_spec(m->exe, i) : hr_program_output_spec(m->program, i);
      hr_strbuf_printf(&sb, "  %d: ", i);
      hr_spec_print(&sb, &s);
      hr_strbuf_putc(&sb, '\n');
    }
    int64_t chunks = m->exe ? hr_executable_chunks(m->exe) : 1;
    if (chunks > 1)
      hr_strbuf_printf(&sb, "batch split: each call runs @main %lld times, on equal slices of dimension 0\n",
                       (long long)chunks);
  }
  if (sb.data) fputs(sb.data, stdout);
  hr_strbuf_free(&sb);
}

/* Prints the first `lines` lines of `text`, each cut at PREVIEW_WIDTH characters. */
static void print_preview(const char *text, size_t len, int64_t lines) {
  size_t pos = 0;
  int64_t shown = 0, total = 0;
  for (size_t i = 0; i < len; i++) total += text[i] == '\n';
  while (pos < len && shown < lines) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t line_len = nl ? (size_t)(nl - (text + pos)) : len - pos;
    if (line_len > PREVIEW_WIDTH)
      printf("%.*s ... (%zu more characters)\n", PREVIEW_WIDTH, text + pos, line_len - PREVIEW_WIDTH);
    else
      printf("%.*s\n", (int)line_len, text + pos);
    pos += line_len + 1;
    shown++;
  }
  if (shown < total) printf("... (%lld more lines)\n", (long long)(total - shown));
}

static hr_status print_ir(const cli_model *m, const inspect_args *a) {
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_status s = hr_module_print_to(model_module(m), &sb);
  if (!s && a->out) {
    FILE *f = fopen(a->out, "wb");
    if (!f || (sb.len && fwrite(sb.data, 1, sb.len, f) != sb.len)) s = hr_error(HR_IO_ERROR, "cannot write %s", a->out);
    if (f && fclose(f) != 0 && !s) s = hr_error(HR_IO_ERROR, "cannot write %s", a->out);
    if (!s) printf("wrote %zu bytes of program text to %s; first lines:\n", sb.len, a->out);
  }
  if (!s) {
    if (a->preview)
      print_preview(sb.data ? sb.data : "", sb.len, a->preview);
    else if (sb.len)
      fwrite(sb.data, 1, sb.len, stdout);
  }
  hr_strbuf_free(&sb);
  return s;
}

/* For a portable artifact: prints its producer and bytecode version. */
static hr_status print_bytecode_origin(const char *path, const uint8_t *data, size_t len) {
  hr_bc_file *f;
  HR_TRY(hr_bc_read(path, data, len, NULL, &f));
  printf("StableHLO portable artifact: producer %s, MLIR bytecode version %llu\n", f->producer,
         (unsigned long long)f->version);
  hr_bc_free(f);
  return NULL;
}

/* For a serialized jax.export file: prints what JAX's Exported shows (fun_name, in_avals,
 * out_avals, platforms, nr_devices, shardings, calling convention version, ...), one line each,
 * then its module's origin. */
static hr_status print_exported(const char *path, const uint8_t *data, size_t len) {
  hr_jaxexport *e = NULL;
  hr_status s = hr_jaxexport_read(path, data, len, NULL, &e);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  if (!s) s = hr_jaxexport_format(e, &sb);
  if (!s && sb.len) printf("jax.export Exported:\n%s", sb.data);
  if (!s) s = print_bytecode_origin(path, e->module, e->module_size);
  hr_strbuf_free(&sb);
  hr_jaxexport_free(e);
  return s;
}

/* What a model file is beyond its module, for the kinds JAX writes: a jax.export file's metadata,
 * a portable artifact's producer. Nothing for other files. */
static hr_status print_origin(const char *path) {
  char *data;
  size_t len;
  HR_TRY(hr_read_file(path, NULL, HR_LIMIT_MODULE_FILE_BYTES, &data, &len));
  const uint8_t *bytes = (const uint8_t *)data;
  hr_status s = hr_bc_sniff(bytes, len)          ? print_bytecode_origin(path, bytes, len)
                : hr_jaxexport_sniff(bytes, len) ? print_exported(path, bytes, len)
                                                 : NULL;
  hr_default_allocator()->free(NULL, data);
  return s;
}

/* Reads a module file without refusing what does not verify: inspect shows what a file holds, and
 * says on stderr why it would not run. */
static hr_status parse_unverified(const char *path, hr_module **out) {
  hr_parse_options opts = {.no_verify = true};
  HR_TRY(hr_module_parse_file(path, &opts, out));
  hr_status v = hr_module_verify(*out);
  if (v) fprintf(stderr, "hlorun: note: the module does not verify, so it would not run: %s\n", hr_status_message(v));
  hr_status_free(v);
  return NULL;
}

/* A TensorFlow SavedModel directory or GraphDef file: its signatures, functions and XlaCallModule
 * nodes. *program is set when a signature was asked for (--signature) or the SavedModel has
 * serving_default: the model is then opened as the other kinds are. */
static hr_status print_savedmodel(const inspect_args *a, bool *program) {
  hr_savedmodel *sm;
  HR_TRY(hr_savedmodel_open(a->model.path, NULL, &sm));
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_savedmodel_describe(sm, &sb);
  hr_status s = hr_strbuf_status(&sb);
  if (!s) fputs(sb.data, stdout);
  *program = a->model.signature || hr_savedmodel_signature(sm, "serving_default");
  if (!s && !*program && sm->n_tags)
    printf("no serving_default signature: name one with --signature to see its program\n");
  hr_strbuf_free(&sb);
  hr_savedmodel_close(sm);
  return s;
}

/* Whether `path` is a file holding a SavedModel or GraphDef message (by its first bytes). */
static bool is_tf_graph_file(const char *path) {
  FILE *f = fopen(path, "rb");
  unsigned char head[16];
  size_t n = f ? fread(head, 1, sizeof head, f) : 0;
  if (f) fclose(f);
  return hr_savedmodel_sniff(head, n);
}

int cmd_inspect(int argc, char **argv) {
  inspect_args a;
  int rc = parse_inspect_args(argc, argv, &a);
  if (rc) return rc;
  bool tf = cli_is_savedmodel(a.model.path) || is_tf_graph_file(a.model.path);
  if (tf) {
    bool program = false;
    hr_status s = print_savedmodel(&a, &program);
    if (s || !program || !cli_is_savedmodel(a.model.path)) return s ? report_error(s) : 0;
  }
  /* Without weights a StableHLO file is inspected as a plain module (it need not have @main);
   * anything else is opened as a model. */
  cli_model m;
  memset(&m, 0, sizeof m);
  bool plain = !a.model.weights && !cli_is_container(a.model.path) && !tf;
  hr_status s = plain ? parse_unverified(a.model.path, &m.module) : cli_model_open(&a.model, &m);
  if (!s) {
    if (a.ir) {
      s = print_ir(&m, &a);
    } else {
      s = cli_is_container(a.model.path) || tf ? NULL : print_origin(a.model.path);
      if (!s) print_summary(&m);
    }
  }
  cli_model_close(&m);
  return s ? report_error(s) : 0;
}

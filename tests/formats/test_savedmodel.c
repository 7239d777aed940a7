/* The SavedModel / GraphDef reader (src/formats/savedmodel) on the real files of ../shared/real:
 * TF Serving's test models read, list their signatures, and are refused by the resolver with the
 * error naming their ops (they are not jax2tf graphs); jax2tf's GraphDef and SavedModels have their
 * XlaCallModule found and its module read; a signature is followed to its call; every truncation
 * of a real file is an error or a read, never a crash. Skipped parts print why when ../shared is
 * absent. */
#include <dirent.h>
#include <sys/stat.h>

#include "base/file.h"
#include "base/strbuf.h"
#include "formats/mlirbc/bytecode.h"
#include "formats/mlirbc/writer.h"
#include "formats/savedmodel/savedmodel.h"
#include "test.h"

static char root[2048];
static bool have_shared;

/* `root`/../shared/real/`rel` into out (cut short when it does not fit, then not found). */
static void real_path(char *out, size_t cap, const char *rel) {
  if (snprintf(out, cap, "%s/../shared/real/%s", root, rel) >= (int)cap) out[0] = 0;
}

/* Every TF Serving test model with a saved_model.pb reads; its serving signature is refused with
 * the op list (never a crash). */
TEST(tf_serving_models_are_refused_clearly) {
  char dir[4096];
  real_path(dir, sizeof dir, "tfserving");
  DIR *d = opendir(dir);
  if (!d) return;
  int read = 0;
  for (struct dirent *e = readdir(d); e; e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    char model[4096 + 512];
    snprintf(model, sizeof model, "%s/%s/model", dir, e->d_name);
    DIR *versions = opendir(model);
    for (struct dirent *v = versions ? readdir(versions) : NULL; v; v = readdir(versions)) {
      if (v->d_name[0] == '.') continue;
      char version[4096 + 1024];
      snprintf(version, sizeof version, "%s/%s", model, v->d_name);
      if (!hr_savedmodel_sniff_dir(version)) continue;
      hr_savedmodel *sm = NULL;
      hr_status s = hr_savedmodel_open(version, NULL, &sm);
      if (s) { /* bad_half_plus_two holds a corrupt graph on purpose */
        printf("  %s: %s\n", e->d_name, hr_status_message(s));
        CHECK(strstr(e->d_name, "bad") != NULL);
        hr_status_free(s);
        continue;
      }
      read++;
      CHECK(sm->n_signatures > 0);
      const tf_signature *sig = hr_savedmodel_signature(sm, "serving_default");
      if (!sig) sig = &sm->signatures[0];
      tf_program p;
      s = hr_savedmodel_resolve(sm, sig, &p);
      CHECK(s != NULL);
      if (s) {
        printf("  %s: %.160s...\n", e->d_name, hr_status_message(s));
        CHECK(strstr(hr_status_message(s), "only jax2tf native-serialization graphs") ||
              strstr(hr_status_message(s), "no result of an XlaCallModule"));
      }
      hr_status_free(s);
      hr_savedmodel_close(sm);
    }
    if (versions) closedir(versions);
  }
  closedir(d);
  printf("TF Serving models read: %d\n", read);
  CHECK(read >= 7);
}

/* jax2tf's bare GraphDef: one XlaCallModule, its module reads. */
TEST(graphdef_xla_call_module_is_found) {
  char path[4096];
  real_path(path, sizeof path, "jax2tf-graphdef/tf_call_tf_function__data_2023_05_31/graph_def.pb");
  hr_savedmodel *sm = NULL;
  CHECK_OK(hr_savedmodel_open(path, NULL, &sm));
  if (!sm) return;
  CHECK_EQ_INT(sm->n_xla_calls, 1);
  if (sm->n_xla_calls == 1) {
    const tf_xla_call *x = &sm->xla_calls[0];
    CHECK_EQ_INT(x->version, 5);
    CHECK_EQ_INT(x->n_function_list, 1);
    hr_module *m = NULL;
    hr_parse_options o = {.no_verify = true};
    CHECK_OK(hr_bc_parse_module(path, x->module, x->module_len, &o, false, &m));
    CHECK(m && hr_module_find_func(m, "main"));
    hr_module_free(m);
  }
  hr_savedmodel_close(sm);
}

/* jax2tf SavedModels: the call_tf model's signature leads to its XlaCallModule and builds its
 * program module; deepmd's has no serving signature but lists its functions and 8 calls. */
TEST(jax2tf_saved_models) {
  char path[4096];
  real_path(path, sizeof path, "jax2tf-savedmodel/tf_call_tf_function__data_2023_07_29/saved_model");
  hr_savedmodel *sm = NULL;
  CHECK_OK(hr_savedmodel_open(path, NULL, &sm));
  const tf_signature *sig = sm ? hr_savedmodel_signature(sm, "serving_default") : NULL;
  CHECK(sig != NULL);
  if (sig) {
    tf_program p;
    CHECK_OK(hr_savedmodel_resolve(sm, sig, &p));
    CHECK_EQ_INT(p.n_args, 1);
    if (p.n_args == 1) CHECK_EQ_INT(p.arg_input[0], 0);
    hr_module *m = NULL;
    CHECK_OK(hr_savedmodel_module(sm, sig, &p, NULL, &m));
    const hr_func *f = m ? hr_module_find_func(m, "main") : NULL;
    CHECK(f && f->n_args == 1 && f->n_results == 1);
    hr_module_free(m);
  }
  hr_savedmodel_close(sm);
  real_path(path, sizeof path, "jax2tf-savedmodel/deepmd_deeppot_sea/saved_model");
  CHECK_OK(hr_savedmodel_open(path, NULL, &sm));
  if (!sm) return;
  CHECK_EQ_INT(sm->n_xla_calls, 8);
  bool lower = false;
  for (int i = 0; i < sm->n_object_functions; i++) lower |= strcmp(sm->object_functions[i].name, "call_lower") == 0;
  CHECK(lower);
  hr_savedmodel_close(sm);
}

/* Every prefix of a real SavedModel reads or fails cleanly. */
TEST(truncations_fail_cleanly) {
  char path[4096];
  real_path(path, sizeof path, "jax2tf-savedmodel/tf_call_tf_function__data_2023_07_29/saved_model/saved_model.pb");
  char *data;
  size_t len;
  hr_status s = hr_read_file(path, NULL, 1 << 24, &data, &len);
  CHECK_OK(s);
  if (s) return;
  int errors = 0;
  for (size_t n = 0; n < len; n++) {
    hr_savedmodel *sm = NULL;
    hr_status e = hr_savedmodel_read_bytes("cut.pb", data, n, NULL, &sm);
    errors += e != NULL;
    for (int i = 0; sm && i < sm->n_signatures; i++) {
      tf_program p;
      hr_status_free(hr_savedmodel_resolve(sm, &sm->signatures[i], &p));
    }
    hr_status_free(e);
    hr_savedmodel_close(sm);
  }
  printf("truncations: %d of %zu prefixes refused\n", errors, len);
  CHECK(errors > 0);
  hr_default_allocator()->free(NULL, data);
}

/* ---------------------------------------------------------------------------------------------- */
/* A SavedModel built here: the layout jax2tf and tf.saved_model.save give a model with a variable  */
/* ---------------------------------------------------------------------------------------------- */

static void put_varint(hr_strbuf *b, uint64_t v) {
  for (; v >= 0x80; v >>= 7) hr_strbuf_putc(b, (char)(v | 0x80));
  hr_strbuf_putc(b, (char)v);
}

/* Field `n` of bytes `data` (LEN). */
static void put_bytes(hr_strbuf *b, int n, const void *data, size_t len) {
  put_varint(b, (uint64_t)n << 3 | 2);
  put_varint(b, len);
  hr_strbuf_append(b, data, len);
}

static void put_str(hr_strbuf *b, int n, const char *s) { put_bytes(b, n, s, strlen(s)); }

/* Field `n` holding the message in `m` (freed). */
static void put_msg(hr_strbuf *b, int n, hr_strbuf *m) {
  put_bytes(b, n, m->data ? m->data : "", m->len);
  hr_strbuf_free(m);
}

static void put_int(hr_strbuf *b, int n, uint64_t v) {
  put_varint(b, (uint64_t)n << 3);
  put_varint(b, v);
}

/* A NodeDef attribute entry: key and the AttrValue in `value` (freed). */
static void put_attr(hr_strbuf *node, const char *key, hr_strbuf *value) {
  hr_strbuf e;
  hr_strbuf_init(&e, NULL);
  put_str(&e, 1, key);
  put_msg(&e, 2, value);
  put_msg(node, 5, &e);
}

/* A NodeDef of `op` named `name` with up to 3 inputs (NULL-terminated list). */
static void node_start(hr_strbuf *n, const char *name, const char *op, const char *const *inputs) {
  hr_strbuf_init(n, NULL);
  put_str(n, 1, name);
  put_str(n, 2, op);
  for (; inputs && *inputs; inputs++) put_str(n, 3, *inputs);
}

/* AttrValue f = NameAttrList{name}. */
static void attr_func(hr_strbuf *node, const char *fn) {
  hr_strbuf v, nal;
  hr_strbuf_init(&v, NULL);
  hr_strbuf_init(&nal, NULL);
  put_str(&nal, 1, fn);
  put_msg(&v, 10, &nal);
  put_attr(node, "f", &v);
}

/* A FunctionDef named `name` with input args, one output arg "output_0" returning `ret`, and the
 * nodes in `nodes` (freed). */
static void put_function(hr_strbuf *lib, const char *name, const char *const *args, const char *ret, hr_strbuf *nodes, int n) {
  hr_strbuf f, sig;
  hr_strbuf_init(&f, NULL);
  hr_strbuf_init(&sig, NULL);
  put_str(&sig, 1, name);
  for (; *args; args++) {
    hr_strbuf a;
    hr_strbuf_init(&a, NULL);
    put_str(&a, 1, *args);
    put_msg(&sig, 2, &a);
  }
  if (ret) {
    hr_strbuf o;
    hr_strbuf_init(&o, NULL);
    put_str(&o, 1, "output_0");
    put_msg(&sig, 3, &o);
  }
  put_msg(&f, 1, &sig);
  for (int i = 0; i < n; i++) put_msg(&f, 3, &nodes[i]);
  if (ret) {
    hr_strbuf r;
    hr_strbuf_init(&r, NULL);
    put_str(&r, 1, "output_0");
    put_str(&r, 2, ret);
    put_msg(&f, 4, &r);
  }
  put_msg(lib, 1, &f);
}

/* The SavedModel: y = x * w with w a variable, through a signature wrapper function and a restore
 * function, as tf.saved_model.save lays them out (module: `module` bytes). */
static void build_saved_model(hr_strbuf *out, const char *module, size_t module_len) {
  hr_strbuf graph, lib, nodes[4], v;
  hr_strbuf_init(&graph, NULL);
  hr_strbuf_init(&lib, NULL);
  /* the graph: the signature's placeholder, the variable, the call and the restore call */
  node_start(&nodes[0], "serving_default_x", "Placeholder", NULL);
  node_start(&nodes[1], "w", "VarHandleOp", NULL);
  node_start(&nodes[2], "StatefulPartitionedCall", "StatefulPartitionedCall", (const char *const[]){"serving_default_x", "w", NULL});
  attr_func(&nodes[2], "__inference_signature_wrapper_1");
  node_start(&nodes[3], "restore", "StatefulPartitionedCall", (const char *const[]){"saver_filename", "w", NULL});
  attr_func(&nodes[3], "__inference__traced_restore_2");
  for (int i = 0; i < 4; i++) put_msg(&graph, 1, &nodes[i]);
  /* the signature's function: ReadVariableOp, the XlaCallModule, an Identity */
  node_start(&nodes[0], "ReadVariableOp", "ReadVariableOp", (const char *const[]){"w_handle", NULL});
  node_start(&nodes[1], "XlaCallModule", "XlaCallModule", (const char *const[]){"x", "ReadVariableOp:value:0", NULL});
  hr_strbuf_init(&v, NULL);
  put_bytes(&v, 2, module, module_len);
  put_attr(&nodes[1], "module", &v);
  hr_strbuf_init(&v, NULL);
  put_int(&v, 3, 9);
  put_attr(&nodes[1], "version", &v);
  hr_strbuf list;
  hr_strbuf_init(&v, NULL);
  hr_strbuf_init(&list, NULL);
  put_str(&list, 2, "CPU");
  put_str(&list, 2, "CUDA");
  put_msg(&v, 1, &list);
  put_attr(&nodes[1], "platforms", &v);
  hr_strbuf_init(&v, NULL);
  hr_strbuf_init(&list, NULL);
  put_int(&list, 6, 1);
  put_msg(&v, 1, &list);
  put_attr(&nodes[1], "Tout", &v);
  node_start(&nodes[2], "Identity", "Identity", (const char *const[]){"XlaCallModule:output:0", NULL});
  put_function(&lib, "__inference_signature_wrapper_1", (const char *const[]){"x", "w_handle", NULL}, "Identity:output:0", nodes, 3);
  /* the restore function: RestoreV2 of the names constant, assigned to the variable */
  node_start(&nodes[0], "names", "Const", NULL);
  hr_strbuf tensor;
  hr_strbuf_init(&v, NULL);
  hr_strbuf_init(&tensor, NULL);
  put_str(&tensor, 8, "w/.ATTRIBUTES/VARIABLE_VALUE");
  put_msg(&v, 8, &tensor);
  put_attr(&nodes[0], "value", &v);
  node_start(&nodes[1], "RestoreV2", "RestoreV2", (const char *const[]){"prefix", "names:output:0", "slices:output:0", NULL});
  node_start(&nodes[2], "Identity_1", "Identity", (const char *const[]){"RestoreV2:tensors:0", NULL});
  node_start(&nodes[3], "AssignVariableOp", "AssignVariableOp", (const char *const[]){"w_arg", "Identity_1:output:0", NULL});
  put_function(&lib, "__inference__traced_restore_2", (const char *const[]){"prefix", "w_arg", NULL}, NULL, nodes, 4);
  put_msg(&graph, 2, &lib);
  /* the MetaGraphDef: tags, graph, saver, signature */
  hr_strbuf meta, info, saver, sig_entry, sig, io, ti;
  hr_strbuf_init(&meta, NULL);
  hr_strbuf_init(&info, NULL);
  put_str(&info, 4, "serve");
  put_msg(&meta, 1, &info);
  put_msg(&meta, 2, &graph);
  hr_strbuf_init(&saver, NULL);
  put_str(&saver, 3, "restore");
  put_msg(&meta, 3, &saver);
  hr_strbuf_init(&sig, NULL);
  const char *tensors[2][2] = {{"x", "serving_default_x:0"}, {"y", "StatefulPartitionedCall:0"}};
  for (int k = 0; k < 2; k++) {
    hr_strbuf_init(&io, NULL);
    hr_strbuf_init(&ti, NULL);
    put_str(&io, 1, tensors[k][0]);
    put_str(&ti, 1, tensors[k][1]);
    put_int(&ti, 2, 1);
    put_msg(&io, 2, &ti);
    put_msg(&sig, k + 1, &io);
  }
  put_str(&sig, 3, "tensorflow/serving/predict");
  hr_strbuf_init(&sig_entry, NULL);
  put_str(&sig_entry, 1, "serving_default");
  put_msg(&sig_entry, 2, &sig);
  put_msg(&meta, 5, &sig_entry);
  hr_strbuf_init(out, NULL);
  put_int(out, 1, 1);
  put_msg(out, 2, &meta);
}

/* The built SavedModel: its signature reaches the call through the wrapper, the variable gets its
 * key from the restore function, and the module takes x then w, bound to CPU, named. */
TEST(built_saved_model_resolves_variables) {
  const char *text =
      "func.func public @main(%pi: tensor<i32>, %x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {\n"
      "  %0 = stablehlo.multiply %x, %w : tensor<3xf32>\n"
      "  return %0 : tensor<3xf32>\n"
      "}\n";
  hr_module *src = NULL;
  CHECK_OK(hr_module_parse("m.mlir", text, strlen(text), NULL, &src));
  hr_strbuf bc;
  hr_strbuf_init(&bc, NULL);
  if (src) CHECK_OK(hr_bc_write_module(src, 108, &bc));
  hr_module_free(src);
  hr_strbuf pb;
  build_saved_model(&pb, bc.data, bc.len);
  hr_savedmodel *sm = NULL;
  CHECK_OK(hr_savedmodel_read_bytes("built.pb", pb.data, pb.len, NULL, &sm));
  const tf_signature *sig = sm ? hr_savedmodel_signature(sm, "serving_default") : NULL;
  CHECK(sig != NULL);
  tf_program p;
  hr_module *m = NULL;
  if (sig) CHECK_OK(hr_savedmodel_resolve(sm, sig, &p));
  if (sig && p.call) {
    CHECK_EQ_INT(p.n_args, 2);
    CHECK_EQ_INT(p.arg_input[0], 0);
    CHECK(p.arg_variable[1] && strcmp(p.arg_variable[1], "w/.ATTRIBUTES/VARIABLE_VALUE") == 0);
    CHECK_EQ_INT(p.output_of[0], 0);
    CHECK_OK(hr_savedmodel_module(sm, sig, &p, NULL, &m));
  }
  const hr_func *f = m ? hr_module_find_func(m, "main") : NULL;
  CHECK(f && f->n_args == 2); /* the platform index is bound */
  if (f && f->n_args == 2) {
    const hr_attr *x = hr_attr_field(f->arg_attrs[0], "jax.arg_info"), *w = hr_attr_field(f->arg_attrs[1], "jax.arg_info");
    CHECK(x && strcmp(x->u.str.data, "x") == 0);
    CHECK(w && strcmp(w->u.str.data, "['w/.ATTRIBUTES/VARIABLE_VALUE']") == 0);
    const hr_attr *y = hr_attr_field(f->result_attrs[0], "jax.result_info");
    CHECK(y && strcmp(y->u.str.data, "y") == 0);
  }
  /* every prefix of the built file fails cleanly */
  for (size_t n = 0; n < pb.len; n++) {
    hr_savedmodel *cut = NULL;
    hr_status s = hr_savedmodel_read_bytes("cut.pb", pb.data, n, NULL, &cut);
    if (!s && cut && cut->n_signatures) {
      tf_program q;
      hr_status_free(hr_savedmodel_resolve(cut, &cut->signatures[0], &q));
    }
    hr_status_free(s);
    hr_savedmodel_close(cut);
  }
  hr_module_free(m);
  hr_savedmodel_close(sm);
  hr_strbuf_free(&pb);
  hr_strbuf_free(&bc);
}

int main(void) {
  const char *src = getenv("HLORUN_SOURCE_DIR");
  snprintf(root, sizeof root, "%s", src ? src : ".");
  char probe[4096];
  struct stat st;
  real_path(probe, sizeof probe, "jax2tf-savedmodel");
  have_shared = stat(probe, &st) == 0;
  RUN(built_saved_model_resolves_variables);
  if (!have_shared) {
    printf("../shared/real not found: the real files are skipped\n");
    TEST_MAIN_END();
  }
  RUN(tf_serving_models_are_refused_clearly);
  RUN(graphdef_xla_call_module_is_found);
  RUN(jax2tf_saved_models);
  RUN(truncations_fail_cleanly);
  TEST_MAIN_END();
}

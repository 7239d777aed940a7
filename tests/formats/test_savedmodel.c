/* The SavedModel / GraphDef reader (src/formats/savedmodel) on the real files of ../shared/real:
 * TF Serving's test models read, list their signatures, and are refused by the resolver with the
 * error naming their ops (they are not jax2tf graphs); jax2tf's GraphDef and SavedModels have their
 * XlaCallModule found and its module read; a signature is followed to its call; every truncation
 * of a real file is an error or a read, never a crash. Skipped parts print why when ../shared is
 * absent.
 *
 * A SavedModel built here (tf_build.h's protobuf and TensorBundle builders), y = x * w with w a
 * variable: its signature resolves to the call and the variable's checkpoint key; written as a
 * directory with variables/, it reads as a module and its weight (hr_savedmodel_read) and runs. With
 * HLORUN_WRITE_SAVEDMODEL=DIR set, the test only writes that directory to DIR and exits
 * (tests/cli/test_savedmodel.sh).
 *
 * SavedModels built here whose object-graph function branches (If) between two XlaCallModules the
 * way deepmd's format_nlist does (on a dimension of an input against a constant): lowered to one
 * module (hr_savedmodel_lower), the branch is taken per input shape by one program; a constant
 * predicate decides while lowering; a branch of an op hlorun does not lower fails only for the
 * shapes taking it; predicates on tensor values or from ops not lowered are refused. */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/file.h"
#include "base/strbuf.h"
#include "formats/mlirbc/bytecode.h"
#include "formats/mlirbc/writer.h"
#include "formats/savedmodel/savedmodel.h"
#include "test.h"
#include "tf_build.h"

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
 * program module; deepmd's has no serving signature but lists its functions and 8 calls, and its
 * call_lower_atomic_virial lowers to a module of the function's 6 arguments and 6 outputs calling
 * two of its modules (the If between them), while call (the neighbour list in TF ops) and
 * get_type_map (strings) are refused naming a node (tests/cli/test_deepmd_savedmodel.sh runs it). */
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
  const tf_function *fn = NULL;
  hr_module *m = NULL;
  CHECK_OK(hr_savedmodel_object_function(sm, "call_lower_atomic_virial", &fn));
  if (fn) CHECK_OK(hr_savedmodel_lower(sm, fn, NULL, &m));
  const hr_func *f = m ? hr_module_find_func(m, "main") : NULL;
  CHECK(f && f->n_args == 6 && f->n_results == 6);
  const hr_attr *name = f && f->n_args == 6 ? hr_attr_field(f->arg_attrs[2], "jax.arg_info") : NULL;
  CHECK(name && strcmp(name->u.str.data, "nlist") == 0);
  CHECK(m && hr_module_find_func(m, "xcm0_main") && hr_module_find_func(m, "xcm1_main") && !hr_module_find_func(m, "xcm2_main"));
  hr_module_free(m);
  static const char *const refused[2][2] = {{"call", "only jax2tf native-serialization graphs"},
                                            {"get_type_map", "a constant of type DT_STRING"}};
  for (int i = 0; i < 2; i++) {
    m = NULL;
    hr_status s = hr_savedmodel_object_function(sm, refused[i][0], &fn);
    if (!s) s = hr_savedmodel_lower(sm, fn, NULL, &m);
    CHECK(s && hr_status_code(s) == HR_UNIMPLEMENTED && m == NULL);
    CHECK_STR_CONTAINS(s ? hr_status_message(s) : "", refused[i][1]);
    hr_status_free(s);
  }
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

/* A NodeDef attribute entry: key and the AttrValue in `value` (freed). */
static void put_attr(buf *node, const char *key, buf *value) {
  buf e = {0};
  pb_str(&e, 1, key);
  pb_msg(&e, 2, value);
  pb_msg(node, 5, &e);
}

/* A NodeDef of `op` named `name` with up to 3 inputs (NULL-terminated list). */
static void node_start(buf *n, const char *name, const char *op, const char *const *inputs) {
  *n = (buf){0};
  pb_str(n, 1, name);
  pb_str(n, 2, op);
  for (; inputs && *inputs; inputs++) pb_str(n, 3, *inputs);
}

/* AttrValue f = NameAttrList{name}. */
static void attr_func(buf *node, const char *fn) {
  buf v = {0}, nal = {0};
  pb_str(&nal, 1, fn);
  pb_msg(&v, 10, &nal);
  put_attr(node, "f", &v);
}

/* A FunctionDef named `name` with input args, one output arg "output_0" returning `ret`, and the
 * nodes in `nodes` (freed). */
static void put_function(buf *lib, const char *name, const char *const *args, const char *ret, buf *nodes, int n) {
  buf f = {0}, sig = {0};
  pb_str(&sig, 1, name);
  for (; *args; args++) {
    buf a = {0};
    pb_str(&a, 1, *args);
    pb_msg(&sig, 2, &a);
  }
  if (ret) {
    buf o = {0};
    pb_str(&o, 1, "output_0");
    pb_msg(&sig, 3, &o);
  }
  pb_msg(&f, 1, &sig);
  for (int i = 0; i < n; i++) pb_msg(&f, 3, &nodes[i]);
  if (ret) {
    buf r = {0};
    pb_str(&r, 1, "output_0");
    pb_str(&r, 2, ret);
    pb_msg(&f, 4, &r);
  }
  pb_msg(lib, 1, &f);
}

/* The SavedModel: y = x * w with w a variable, through a signature wrapper function and a restore
 * function, as tf.saved_model.save lays them out (module: `module` bytes). */
static void build_saved_model(buf *out, const char *module, size_t module_len) {
  buf graph = {0}, lib = {0}, nodes[4], v = {0};
  /* the graph: the signature's placeholder, the variable, the call and the restore call */
  node_start(&nodes[0], "serving_default_x", "Placeholder", NULL);
  node_start(&nodes[1], "w", "VarHandleOp", NULL);
  node_start(&nodes[2], "StatefulPartitionedCall", "StatefulPartitionedCall", (const char *const[]){"serving_default_x", "w", NULL});
  attr_func(&nodes[2], "__inference_signature_wrapper_1");
  node_start(&nodes[3], "restore", "StatefulPartitionedCall", (const char *const[]){"saver_filename", "w", NULL});
  attr_func(&nodes[3], "__inference__traced_restore_2");
  for (int i = 0; i < 4; i++) pb_msg(&graph, 1, &nodes[i]);
  /* the signature's function: ReadVariableOp, the XlaCallModule, an Identity */
  node_start(&nodes[0], "ReadVariableOp", "ReadVariableOp", (const char *const[]){"w_handle", NULL});
  node_start(&nodes[1], "XlaCallModule", "XlaCallModule", (const char *const[]){"x", "ReadVariableOp:value:0", NULL});
  pb_bytes(&v, 2, module, module_len);
  put_attr(&nodes[1], "module", &v);
  pb_varint(&v, 3, 9);
  put_attr(&nodes[1], "version", &v);
  buf list = {0};
  pb_str(&list, 2, "CPU");
  pb_str(&list, 2, "CUDA");
  pb_msg(&v, 1, &list);
  put_attr(&nodes[1], "platforms", &v);
  pb_varint(&list, 6, 1);
  pb_msg(&v, 1, &list);
  put_attr(&nodes[1], "Tout", &v);
  node_start(&nodes[2], "Identity", "Identity", (const char *const[]){"XlaCallModule:output:0", NULL});
  put_function(&lib, "__inference_signature_wrapper_1", (const char *const[]){"x", "w_handle", NULL}, "Identity:output:0", nodes, 3);
  /* the restore function: RestoreV2 of the names constant, assigned to the variable */
  node_start(&nodes[0], "names", "Const", NULL);
  buf tensor = {0};
  pb_str(&tensor, 8, "w/.ATTRIBUTES/VARIABLE_VALUE");
  pb_msg(&v, 8, &tensor);
  put_attr(&nodes[0], "value", &v);
  node_start(&nodes[1], "RestoreV2", "RestoreV2", (const char *const[]){"prefix", "names:output:0", "slices:output:0", NULL});
  node_start(&nodes[2], "Identity_1", "Identity", (const char *const[]){"RestoreV2:tensors:0", NULL});
  node_start(&nodes[3], "AssignVariableOp", "AssignVariableOp", (const char *const[]){"w_arg", "Identity_1:output:0", NULL});
  put_function(&lib, "__inference__traced_restore_2", (const char *const[]){"prefix", "w_arg", NULL}, NULL, nodes, 4);
  pb_msg(&graph, 2, &lib);
  /* the MetaGraphDef: tags, graph, saver, signature */
  buf meta = {0}, info = {0}, saver = {0}, sig_entry = {0}, sig = {0}, io = {0}, ti = {0};
  pb_str(&info, 4, "serve");
  pb_msg(&meta, 1, &info);
  pb_msg(&meta, 2, &graph);
  pb_str(&saver, 3, "restore");
  pb_msg(&meta, 3, &saver);
  const char *tensors[2][2] = {{"x", "serving_default_x:0"}, {"y", "StatefulPartitionedCall:0"}};
  for (int k = 0; k < 2; k++) {
    pb_str(&io, 1, tensors[k][0]);
    pb_str(&ti, 1, tensors[k][1]);
    pb_varint(&ti, 2, 1);
    pb_msg(&io, 2, &ti);
    pb_msg(&sig, k + 1, &io);
  }
  pb_str(&sig, 3, "tensorflow/serving/predict");
  pb_str(&sig_entry, 1, "serving_default");
  pb_msg(&sig_entry, 2, &sig);
  pb_msg(&meta, 5, &sig_entry);
  *out = (buf){0};
  pb_varint(out, 1, 1);
  pb_msg(out, 2, &meta);
}

/* The portable artifact of module `text` into bc (initialized here). */
static void module_bytes(const char *text, hr_strbuf *bc) {
  hr_module *src = NULL;
  CHECK_OK(hr_module_parse("m.mlir", text, strlen(text), NULL, &src));
  hr_strbuf_init(bc, NULL);
  if (src) CHECK_OK(hr_bc_write_module(src, 108, bc));
  hr_module_free(src);
}

/* The portable artifact of y = x * w over tensor<3xf32>, its first parameter the platform index (as
 * jax2tf writes for two platforms), into bc (initialized here). */
static void multiply_module(hr_strbuf *bc) {
  module_bytes("func.func public @main(%pi: tensor<i32>, %x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {\n"
               "  %0 = stablehlo.multiply %x, %w : tensor<3xf32>\n"
               "  return %0 : tensor<3xf32>\n"
               "}\n",
               bc);
}

/* The built SavedModel: its signature reaches the call through the wrapper, the variable gets its
 * key from the restore function, and the module takes x then w, bound to CPU, named. */
TEST(built_saved_model_resolves_variables) {
  hr_strbuf bc;
  multiply_module(&bc);
  buf pb;
  build_saved_model(&pb, bc.data, bc.len);
  hr_savedmodel *sm = NULL;
  CHECK_OK(hr_savedmodel_read_bytes("built.pb", pb.p, pb.n, NULL, &sm));
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
  for (size_t n = 0; n < pb.n; n++) {
    hr_savedmodel *cut = NULL;
    hr_status s = hr_savedmodel_read_bytes("cut.pb", pb.p, n, NULL, &cut);
    if (!s && cut && cut->n_signatures) {
      tf_program q;
      hr_status_free(hr_savedmodel_resolve(cut, &cut->signatures[0], &q));
    }
    hr_status_free(s);
    hr_savedmodel_close(cut);
  }
  hr_module_free(m);
  hr_savedmodel_close(sm);
  free(pb.p);
  hr_strbuf_free(&bc);
}

/* The SavedModel directory's files below `dir`: saved_model.pb, then the checkpoint's index and its
 * one data file. */
static const char *const saved_model_files[] = {"saved_model.pb", "variables/variables.index",
                                                "variables/variables.data-00000-of-00001"};

/* Writes the built SavedModel (y = x * w) as directory `dir` (made when missing): saved_model.pb
 * and variables/, a TensorBundle of one little-endian data file holding w = f32[3] {1, 2, 3}. */
static hr_status write_saved_model_dir(const char *dir) {
  char path[4096];
  if (strlen(dir) > 2048) return hr_error(HR_INVALID_ARGUMENT, "%.200s...: path too long", dir);
  snprintf(path, sizeof path, "%s/variables", dir);
  if ((mkdir(dir, 0755) && errno != EEXIST) || (mkdir(path, 0755) && errno != EEXIST))
    return hr_error(HR_INTERNAL, "%s: cannot make the directory: %s", path, strerror(errno));
  hr_strbuf bc;
  multiply_module(&bc);
  buf files[3];
  build_saved_model(&files[0], bc.data, bc.len);
  hr_strbuf_free(&bc);
  static const float w[3] = {1, 2, 3};
  bundle_builder bb;
  builder_init(&bb);
  set_header(&bb, 1, 0, 0); /* one data file, little-endian (0), version 1 */
  add_tensor(&bb, "w/.ATTRIBUTES/VARIABLE_VALUE", DT_FLOAT, 1, (int64_t[]){3}, w, sizeof w, 0);
  files[1] = build_index(&bb, &(table_opts){0});
  files[2] = bb.shards[0];
  bb.shards[0] = (buf){0};
  builder_free(&bb);
  hr_status s = NULL;
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, saved_model_files[i]);
    if (!s) s = hr_write_file(path, files[i].p, files[i].n);
    free(files[i].p);
  }
  return s;
}

/* Removes what write_saved_model_dir wrote into `dir`, and `dir`. */
static void remove_saved_model_dir(const char *dir) {
  char path[4096];
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, saved_model_files[i]);
    unlink(path);
  }
  snprintf(path, sizeof path, "%s/variables", dir);
  rmdir(path);
  rmdir(dir);
}

/* Checks that `w` holds exactly the variable w = f32[3] {1, 2, 3}. */
static void check_variable(const hr_weights *w) {
  CHECK_EQ_INT(w ? hr_weights_count(w) : 0, 1);
  const hr_tensor *t = w ? hr_weights_find(w, "w/.ATTRIBUTES/VARIABLE_VALUE") : NULL;
  CHECK(t && t->dtype == HR_F32 && t->shape.rank == 1 && t->shape.dims[0] == 3 && t->nbytes == 12);
  if (t && t->nbytes == 12) {
    float x[3];
    memcpy(x, t->data, sizeof x);
    CHECK(x[0] == 1 && x[1] == 2 && x[2] == 3);
  }
}

/* Runs program `p` (one input, x) on x = {2, 2, 2}; checks y = {2, 4, 6}. */
static void check_run(hr_program *p) {
  hr_shape shape = {.rank = 1, .dims = {3}};
  hr_tensor *x = NULL, **out = NULL;
  int n_out = 0;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &shape, 0, &x));
  if (!x) return;
  const float two[3] = {2, 2, 2};
  memcpy(x->data, two, sizeof two);
  CHECK_OK(hr_program_run(p, &x, 1, &out, &n_out));
  CHECK_EQ_INT(n_out, 1);
  const hr_tensor *y = n_out == 1 ? out[0] : NULL;
  CHECK(y && y->dtype == HR_F32 && y->shape.rank == 1 && y->shape.dims[0] == 3 && y->nbytes == 12);
  if (y && y->nbytes == 12) {
    float v[3];
    memcpy(v, y->data, sizeof v);
    CHECK(v[0] == 2 && v[1] == 4 && v[2] == 6);
  }
  hr_tensors_free(out, n_out);
  hr_tensor_free(x);
}

/* The built SavedModel as a directory, read as TF Serving would serve it: the signature's module
 * and its variable restored from variables/; the program's one input is x, and it computes x * w.
 * A signature it lacks is refused by name. */
TEST(built_saved_model_runs_with_its_variable) {
  char dir[] = "/tmp/hlorun_savedmodelXXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  CHECK_OK(write_saved_model_dir(dir));
  hr_module *m = NULL;
  hr_weights *w = NULL;
  CHECK_OK(hr_savedmodel_read(dir, NULL, NULL, &m, &w));
  check_variable(w);
  hr_program *p = NULL;
  if (m) CHECK_OK(hr_program_create(m, "main", w, NULL, &p)); /* takes m and w */
  else hr_weights_free(w);
  CHECK_EQ_INT(p ? hr_program_num_inputs(p) : 0, 1);
  const char *name = p && hr_program_num_inputs(p) == 1 ? hr_program_input_name(p, 0) : NULL;
  CHECK(name && strcmp(name, "x") == 0);
  if (name) check_run(p);
  hr_program_free(p);
  m = NULL, w = NULL;
  hr_status s = hr_savedmodel_read(dir, "nope", NULL, &m, &w);
  CHECK(s && hr_status_code(s) == HR_NOT_FOUND && m == NULL && w == NULL);
  CHECK_STR_CONTAINS(s ? hr_status_message(s) : "", "no signature 'nope'");
  hr_status_free(s);
  remove_saved_model_dir(dir);
  struct stat st;
  CHECK(stat(dir, &st) != 0); /* nothing is left behind */
}

/* ---------------------------------------------------------------------------------------------- */
/* Object-graph functions that branch on shapes (If), built here                                   */
/* ---------------------------------------------------------------------------------------------- */

/* AttrValue `key` of a node: an integer (i), a type (type) or a function (func). */
static void attr_int(buf *node, const char *key, int field, uint64_t v) {
  buf a = {0};
  pb_varint(&a, field, v);
  put_attr(node, key, &a);
}
static void attr_named_func(buf *node, const char *key, const char *fn) {
  buf a = {0}, nal = {0};
  pb_str(&nal, 1, fn);
  pb_msg(&a, 10, &nal);
  put_attr(node, key, &a);
}

/* A Const node of DataType `dtype` (an integer type) holding the `n` values (shape [n], or a
 * scalar when n is 0 and `scalar` is the value). */
static void const_node(buf *node, const char *name, int dtype, const int64_t *values, int n, int64_t scalar) {
  node_start(node, name, "Const", NULL);
  buf t = {0}, shape = {0}, a = {0};
  pb_varint(&t, 1, (uint64_t)dtype);
  if (n) {
    buf dim = {0};
    pb_varint(&dim, 1, (uint64_t)n);
    pb_msg(&shape, 2, &dim);
  }
  pb_msg(&t, 2, &shape);
  for (int i = 0; i < (n ? n : 1); i++) pb_varint(&t, dtype == 9 ? 10 : 7, (uint64_t)(n ? values[i] : scalar));
  pb_msg(&a, 8, &t);
  put_attr(node, "value", &a);
  attr_int(node, "dtype", 6, (uint64_t)dtype);
}

/* A function argument: name, DataType and recorded shape (-1 dimensions unknown). */
typedef struct fn_arg {
  const char *name;
  int dtype;
  int rank;
  int64_t dims[4];
} fn_arg;

/* A FunctionDef `name` of the `n_args` typed arguments (their shapes in arg_attr's
 * _output_shapes), one output "output_0" returning `ret`, and the nodes (freed). */
static void put_typed_function(buf *lib, const char *name, const fn_arg *args, int n_args, const char *ret, buf *nodes, int n) {
  buf f = {0}, sig = {0}, o = {0}, r = {0};
  pb_str(&sig, 1, name);
  for (int i = 0; i < n_args; i++) {
    buf a = {0};
    pb_str(&a, 1, args[i].name);
    pb_varint(&a, 3, (uint64_t)args[i].dtype);
    pb_msg(&sig, 2, &a);
  }
  pb_str(&o, 1, "output_0");
  pb_msg(&sig, 3, &o);
  pb_msg(&f, 1, &sig);
  for (int i = 0; i < n; i++) pb_msg(&f, 3, &nodes[i]);
  pb_str(&r, 1, "output_0");
  pb_str(&r, 2, ret);
  pb_msg(&f, 4, &r);
  for (int i = 0; i < n_args; i++) { /* arg_attr {i: {attr {"_output_shapes": list {shape}}}} */
    buf entry = {0}, argattrs = {0}, attr = {0}, value = {0}, list = {0}, shape = {0};
    for (int d = 0; d < args[i].rank; d++) {
      buf dim = {0};
      pb_varint(&dim, 1, (uint64_t)args[i].dims[d]);
      pb_msg(&shape, 2, &dim);
    }
    pb_msg(&list, 7, &shape);
    pb_msg(&value, 1, &list);
    pb_str(&attr, 1, "_output_shapes");
    pb_msg(&attr, 2, &value);
    pb_msg(&argattrs, 1, &attr);
    pb_varint(&entry, 1, (uint64_t)i);
    pb_msg(&entry, 2, &argattrs);
    pb_msg(&f, 7, &entry);
  }
  pb_msg(lib, 1, &f);
}

/* A branch function of (x: f32[?], n: i64[?, ?]) returning XlaCallModule(x) of module `bc`, or,
 * when `op` is not NULL, a node of that op (which hlorun does not lower). */
static void put_branch(buf *lib, const char *name, const hr_strbuf *bc, const char *op) {
  buf nodes[2], v = {0}, list = {0};
  const fn_arg args[2] = {{"bx", 1, 1, {-1}}, {"bn", 9, 2, {-1, -1}}};
  if (op) {
    node_start(&nodes[0], "unsupported", op, (const char *const[]){"bx", NULL});
    put_typed_function(lib, name, args, 2, "unsupported:output:0", nodes, 1);
    return;
  }
  node_start(&nodes[0], "XlaCallModule", "XlaCallModule", (const char *const[]){"bx", NULL});
  pb_bytes(&v, 2, bc->data, bc->len);
  put_attr(&nodes[0], "module", &v);
  attr_int(&nodes[0], "version", 3, 9);
  pb_str(&list, 2, "CPU");
  pb_msg(&v, 1, &list);
  put_attr(&nodes[0], "platforms", &v);
  pb_varint(&list, 6, 1);
  pb_msg(&v, 1, &list);
  put_attr(&nodes[0], "Tout", &v);
  node_start(&nodes[1], "Identity", "Identity", (const char *const[]){"XlaCallModule:output:0", NULL});
  put_typed_function(lib, name, args, 2, "Identity:output:0", nodes, 2);
}

/* How the predicate of the built function's If is computed. */
typedef enum { PRED_WIDTH, PRED_CONSTANT, PRED_VALUES, PRED_UNKNOWN_OP } pred_kind;

/* A SavedModel with no signature whose object graph has function "pick" (concrete function
 * __inference_pick_1) of (x: f32[?], n: i64[?, ?]): If(pred, x, n) between branches "twice"
 * (x + x) and "square" (x * x, or a node of op `else_op` when not NULL). PRED_WIDTH: n's second
 * dimension < 4, as format_nlist compares its list's width (Shape, StridedSlice, Const, Less);
 * PRED_CONSTANT: Const false; PRED_VALUES: n (reshaped to a scalar) == itself, a tensor value;
 * PRED_UNKNOWN_OP: a Size node. */
static void build_branching_model(buf *out, pred_kind pred, const char *else_op) {
  hr_strbuf twice, square;
  module_bytes("func.func public @main(%x: tensor<?xf32>) -> tensor<?xf32> {\n"
               "  %0 = stablehlo.add %x, %x : tensor<?xf32>\n  return %0 : tensor<?xf32>\n}\n", &twice);
  module_bytes("func.func public @main(%x: tensor<?xf32>) -> tensor<?xf32> {\n"
               "  %0 = stablehlo.multiply %x, %x : tensor<?xf32>\n  return %0 : tensor<?xf32>\n}\n", &square);
  buf lib = {0}, nodes[9];
  int n = 0;
  const char *p = "pred:z:0";
  if (pred == PRED_WIDTH) {
    node_start(&nodes[n], "Shape", "Shape", (const char *const[]){"n", NULL});
    attr_int(&nodes[n++], "T", 6, 9);
    const_node(&nodes[n++], "begin", 3, (int64_t[]){1}, 1, 0);
    const_node(&nodes[n++], "end", 3, (int64_t[]){2}, 1, 0);
    const_node(&nodes[n++], "stride", 3, (int64_t[]){1}, 1, 0);
    node_start(&nodes[n], "width", "StridedSlice",
               (const char *const[]){"Shape:output:0", "begin:output:0", "end:output:0", "stride:output:0", NULL});
    attr_int(&nodes[n++], "shrink_axis_mask", 3, 1);
    const_node(&nodes[n++], "four", 3, NULL, 0, 4);
    node_start(&nodes[n++], "pred", "Less", (const char *const[]){"width:output:0", "four:output:0", NULL});
  } else if (pred == PRED_CONSTANT) {
    const_node(&nodes[n++], "pred", 10, NULL, 0, 0);
    p = "pred:output:0";
  } else if (pred == PRED_VALUES) { /* n reshaped to a scalar, compared with itself */
    node_start(&nodes[n], "scalar", "Const", NULL);
    buf t = {0}, shape = {0}, dim = {0}, a = {0};
    pb_varint(&t, 1, 3);
    pb_varint(&dim, 1, 0);
    pb_msg(&shape, 2, &dim);
    pb_msg(&t, 2, &shape);
    pb_msg(&a, 8, &t);
    put_attr(&nodes[n++], "value", &a);
    node_start(&nodes[n++], "value", "Reshape", (const char *const[]){"n", "scalar:output:0", NULL});
    node_start(&nodes[n++], "pred", "Equal", (const char *const[]){"value:output:0", "value:output:0", NULL});
  } else {
    node_start(&nodes[n++], "pred", "Size", (const char *const[]){"n", NULL});
    p = "pred:output:0";
  }
  node_start(&nodes[n], "cond", "StatelessIf", (const char *const[]){p, "x", "n", NULL});
  attr_named_func(&nodes[n], "then_branch", "twice");
  attr_named_func(&nodes[n++], "else_branch", "square");
  node_start(&nodes[n++], "Identity", "Identity", (const char *const[]){"cond:output:0", NULL});
  const fn_arg args[2] = {{"x", 1, 1, {-1}}, {"n", 9, 2, {-1, -1}}};
  put_typed_function(&lib, "__inference_pick_1", args, 2, "Identity:output:0", nodes, n);
  put_branch(&lib, "twice", &twice, NULL);
  put_branch(&lib, "square", &square, else_op);
  hr_strbuf_free(&twice);
  hr_strbuf_free(&square);
  /* the MetaGraphDef: tags, graph (its library), the object graph: root -> "pick" */
  buf graph = {0}, meta = {0}, info = {0}, og = {0}, top = {0}, child = {0}, obj = {0}, fn = {0};
  pb_msg(&graph, 2, &lib);
  pb_str(&info, 4, "serve");
  pb_msg(&meta, 1, &info);
  pb_msg(&meta, 2, &graph);
  pb_varint(&child, 1, 1);
  pb_str(&child, 2, "pick");
  pb_msg(&top, 1, &child);
  pb_msg(&og, 1, &top);
  pb_str(&fn, 1, "__inference_pick_1");
  pb_msg(&obj, 6, &fn);
  pb_msg(&og, 1, &obj);
  pb_msg(&meta, 7, &og);
  *out = (buf){0};
  pb_varint(out, 1, 1);
  pb_msg(out, 2, &meta);
}

/* The built model's function "pick" lowered to a module (NULL and the error in *err when refused). */
static hr_module *lower_pick(pred_kind pred, const char *else_op, hr_status *err) {
  buf pb;
  build_branching_model(&pb, pred, else_op);
  hr_savedmodel *sm = NULL;
  hr_module *m = NULL;
  const tf_function *fn = NULL;
  *err = NULL;
  CHECK_OK(hr_savedmodel_read_bytes("branching.pb", pb.p, pb.n, NULL, &sm));
  if (sm) CHECK_OK(hr_savedmodel_object_function(sm, "pick", &fn));
  if (fn) {
    CHECK_EQ_INT(fn->n_args, 2);
    CHECK(fn->arg_types[1] == 9 && fn->arg_shapes[1].rank == 2 && fn->arg_shapes[1].dims[1] == -1);
    *err = hr_savedmodel_lower(sm, fn, NULL, &m);
  }
  hr_savedmodel_close(sm);
  free(pb.p);
  return m;
}

/* Runs `p` on x = {1, 2, 3} and an n of shape [1, width]; checks the result is `want` (3 values)
 * or, when `fails` is not NULL, that the run fails with that text in its message. */
static void run_pick(hr_program *p, int64_t width, const float *want, const char *fails) {
  hr_tensor *in[2] = {NULL, NULL}, **out = NULL;
  int n_out = 0;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &(hr_shape){.rank = 1, .dims = {3}}, 0, &in[0]));
  CHECK_OK(hr_tensor_create(NULL, HR_I64, &(hr_shape){.rank = 2, .dims = {1, width}}, 0, &in[1]));
  if (!in[0] || !in[1]) return;
  memcpy(in[0]->data, (const float[]){1, 2, 3}, 12);
  hr_status s = hr_program_run(p, in, 2, &out, &n_out);
  if (fails) {
    CHECK(s != NULL);
    CHECK_STR_CONTAINS(s ? hr_status_message(s) : "", fails);
    hr_status_free(s);
  } else {
    CHECK_OK(s);
    CHECK(n_out == 1 && out[0]->nbytes == 12 && memcmp(out[0]->data, want, 12) == 0);
  }
  hr_tensors_free(out, n_out);
  hr_tensor_free(in[0]);
  hr_tensor_free(in[1]);
}

/* If on n's width (< 4): one program, the branch chosen per input shape when it is specialized:
 * width 2 takes "twice", width 5 "square"; inputs are named after the function's arguments. */
TEST(if_on_a_shape_is_decided_per_input_shape) {
  hr_status err;
  hr_module *m = lower_pick(PRED_WIDTH, NULL, &err);
  CHECK_OK(err);
  hr_program *p = NULL;
  if (m) CHECK_OK(hr_program_create(m, "main", NULL, NULL, &p));
  if (!p) return;
  CHECK_EQ_INT(hr_program_num_inputs(p), 2);
  CHECK(strcmp(hr_program_input_name(p, 0), "x") == 0 && strcmp(hr_program_input_name(p, 1), "n") == 0);
  run_pick(p, 2, (const float[]){2, 4, 6}, NULL);
  run_pick(p, 5, (const float[]){1, 4, 9}, NULL);
  run_pick(p, 3, (const float[]){2, 4, 6}, NULL);
  hr_program_free(p);
}

/* A constant predicate picks its branch while lowering: no stablehlo.if is left. */
TEST(if_on_a_constant_is_decided_when_lowered) {
  hr_status err;
  hr_module *m = lower_pick(PRED_CONSTANT, "TopKV2", &err);
  CHECK(err != NULL); /* false takes "square", whose op is not lowered: refused now */
  CHECK_STR_CONTAINS(err ? hr_status_message(err) : "", "is a TopKV2: only jax2tf native-serialization graphs");
  hr_status_free(err);
  hr_module_free(m);
  m = lower_pick(PRED_CONSTANT, NULL, &err);
  CHECK_OK(err);
  hr_strbuf text;
  hr_strbuf_init(&text, NULL);
  if (m) CHECK_OK(hr_module_print_to(m, &text));
  CHECK(text.data && !strstr(text.data, "stablehlo.if") && strstr(text.data, "call @xcm0_main"));
  hr_strbuf_free(&text);
  hr_program *p = NULL;
  if (m) CHECK_OK(hr_program_create(m, "main", NULL, NULL, &p));
  if (p) run_pick(p, 2, (const float[]){1, 4, 9}, NULL);
  hr_program_free(p);
}

/* A branch holding an op hlorun does not lower: the shapes that take the other branch run, and
 * those taking it fail naming the op; when neither branch lowers the function is refused. */
TEST(if_branch_not_lowered_fails_for_its_shapes) {
  hr_status err;
  hr_module *m = lower_pick(PRED_WIDTH, "TopKV2", &err);
  CHECK_OK(err);
  hr_program *p = NULL;
  if (m) CHECK_OK(hr_program_create(m, "main", NULL, NULL, &p));
  if (p) {
    run_pick(p, 2, (const float[]){2, 4, 6}, NULL);
    run_pick(p, 7, NULL, "node 'unsupported' is a TopKV2: only jax2tf native-serialization graphs");
  }
  hr_program_free(p);
}

/* Predicates hlorun does not decide are refused when lowering: one computed from tensor values,
 * and one from an op it does not lower (the error of graphs of other ops). */
TEST(if_on_values_or_unknown_ops_is_refused) {
  hr_status err;
  hr_module *m = lower_pick(PRED_VALUES, NULL, &err);
  CHECK(err && hr_status_code(err) == HR_UNIMPLEMENTED && m == NULL);
  CHECK_STR_CONTAINS(err ? hr_status_message(err) : "", "node 'cond' (StatelessIf): its predicate depends on tensor values");
  hr_status_free(err);
  m = lower_pick(PRED_UNKNOWN_OP, NULL, &err);
  CHECK(err && hr_status_code(err) == HR_UNIMPLEMENTED && m == NULL);
  CHECK_STR_CONTAINS(err ? hr_status_message(err) : "", "node 'pred' is a Size: only jax2tf native-serialization graphs");
  hr_status_free(err);
  /* every prefix of the built file reads or fails cleanly, and so does lowering what reads */
  buf pb;
  build_branching_model(&pb, PRED_WIDTH, "TopKV2");
  for (size_t n = 0; n < pb.n; n++) {
    hr_savedmodel *cut = NULL;
    const tf_function *fn = NULL;
    hr_status s = hr_savedmodel_read_bytes("cut.pb", pb.p, n, NULL, &cut);
    if (!s) s = hr_savedmodel_object_function(cut, "pick", &fn);
    hr_module *lowered = NULL;
    if (!s) s = hr_savedmodel_lower(cut, fn, NULL, &lowered);
    hr_module_free(lowered);
    hr_status_free(s);
    hr_savedmodel_close(cut);
  }
  free(pb.p);
}

int main(void) {
  const char *out_dir = getenv("HLORUN_WRITE_SAVEDMODEL");
  if (out_dir) { /* tests/cli/test_savedmodel.sh: write the built SavedModel only */
    hr_status s = write_saved_model_dir(out_dir);
    if (s) fprintf(stderr, "%s\n", hr_status_message(s));
    hr_status_free(s);
    return s ? 1 : 0;
  }
  const char *src = getenv("HLORUN_SOURCE_DIR");
  snprintf(root, sizeof root, "%s", src ? src : ".");
  char probe[4096];
  struct stat st;
  real_path(probe, sizeof probe, "jax2tf-savedmodel");
  have_shared = stat(probe, &st) == 0;
  RUN(built_saved_model_resolves_variables);
  RUN(built_saved_model_runs_with_its_variable);
  RUN(if_on_a_shape_is_decided_per_input_shape);
  RUN(if_on_a_constant_is_decided_when_lowered);
  RUN(if_branch_not_lowered_fails_for_its_shapes);
  RUN(if_on_values_or_unknown_ops_is_refused);
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

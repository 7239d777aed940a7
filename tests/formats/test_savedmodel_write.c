/* hr_savedmodel_write (src/formats/savedmodel/savedmodel_write.c): a module with a parameter bound
 * to a weight, written as a SavedModel and read back by the reader TF Serving's layout is checked
 * with: its signatures (serving_default by keys, the init op), the variable paired with its
 * checkpoint key through the restore function, the checkpoint's object graph naming the same key,
 * and the program run with the variable restored computing what the module computes. A module
 * without @main, a weight of the wrong shape and a type TensorFlow lacks are refused. */
#include <stdlib.h>
#include <unistd.h>

#include "base/weights.h"
#include "formats/savedmodel/bundle.h"
#include "formats/savedmodel/savedmodel.h"
#include "formats/savedmodel/savedmodel_write.h"
#include "test.h"

/* y = x * broadcast(w), and the second input passed through; the second input's jax.arg_info is
 * no TensorFlow name, so it becomes "input_1". */
static const char model[] =
    "module @m {\n"
    "  func.func public @main(%w: tensor<3xf32> {jax.arg_info = \"params['w']\"},\n"
    "                         %x: tensor<2x3xf32> {jax.arg_info = \"x\"},\n"
    "                         %k: tensor<2xi32> {jax.arg_info = \"not a name!\"}) -> (tensor<2x3xf32>, tensor<2xi32>) {\n"
    "    %b = stablehlo.broadcast_in_dim %w, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>\n"
    "    %y = stablehlo.multiply %x, %b : tensor<2x3xf32>\n"
    "    return %y, %k : tensor<2x3xf32>, tensor<2xi32>\n"
    "  }\n"
    "}\n";

static const float w_values[3] = {1, 2, 3};

/* Parses `text` (the model, or a variant of it). */
static hr_module *parse(const char *text) {
  hr_module *m = NULL;
  CHECK_OK(hr_module_parse("model.mlir", text, strlen(text), NULL, &m));
  return m;
}

/* Writes `m` with its parameter 0 bound to `w` (shape `shape`) into `dir`. */
static hr_status write_with(const char *dir, const hr_module *m, const hr_shape *shape) {
  hr_tensor w = {.dtype = HR_F32, .shape = *shape, .data = (void *)w_values, .nbytes = sizeof w_values};
  const hr_tensor *bound[3] = {&w, NULL, NULL};
  hr_savedmodel_source src = {m, bound, 108};
  return hr_savedmodel_write(dir, &src);
}

static void remove_dir(const char *dir) {
  static const char *const files[] = {"saved_model.pb", "variables/variables.index",
                                      "variables/variables.data-00000-of-00001", "variables", ""};
  char path[4096];
  for (int i = 0; i < 5; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    if (unlink(path) != 0) rmdir(path);
  }
}

/* The signatures: serving_default with inputs x and input_1 (sorted by key) and outputs output_0
 * and output_1, graph tensor names as TF names them; the init op; the variable's key. */
static void check_reader_view(const char *dir) {
  hr_savedmodel *sm = NULL;
  CHECK_OK(hr_savedmodel_open(dir, NULL, &sm));
  if (!sm) return;
  CHECK_EQ_INT(sm->n_tags, 1);
  CHECK(sm->n_tags == 1 && strcmp(sm->tags[0], "serve") == 0);
  CHECK(hr_savedmodel_signature(sm, "__saved_model_init_op") != NULL);
  const tf_signature *sig = hr_savedmodel_signature(sm, "serving_default");
  CHECK(sig && sig->n_inputs == 2 && sig->n_outputs == 2);
  if (sig && sig->n_inputs == 2 && sig->n_outputs == 2) {
    CHECK(strcmp(sig->inputs[0].key, "input_1") == 0 && strcmp(sig->inputs[0].name, "serving_default_input_1:0") == 0);
    CHECK(strcmp(sig->inputs[1].key, "x") == 0 && sig->inputs[1].shape.rank == 2 && sig->inputs[1].shape.dims[1] == 3);
    CHECK(strcmp(sig->outputs[1].key, "output_1") == 0 && strcmp(sig->outputs[1].name, "StatefulPartitionedCall:1") == 0);
    tf_program p;
    CHECK_OK(hr_savedmodel_resolve(sm, sig, &p));
    CHECK(p.call && p.call->version == 9 && p.n_args == 3);
    if (p.call && p.n_args == 3)
      CHECK(p.arg_variable[0] && strcmp(p.arg_variable[0], "_variables/0/.ATTRIBUTES/VARIABLE_VALUE") == 0 &&
            p.arg_input[1] == 1 && p.arg_input[2] == 0);
  }
  hr_savedmodel_close(sm);
}

/* The checkpoint: the variable's entry, and the object graph naming it under _variables/0. */
static void check_checkpoint(const char *dir) {
  char prefix[4096];
  snprintf(prefix, sizeof prefix, "%s/variables/variables", dir);
  hr_bundle *b = NULL;
  CHECK_OK(hr_bundle_open(prefix, NULL, &b));
  if (!b) return;
  int list = hr_bundle_object_child(b, 0, "_variables"), var = list >= 0 ? hr_bundle_object_child(b, list, "0") : -1;
  const char *key = var >= 0 ? hr_bundle_object_key(b, var, "VARIABLE_VALUE") : NULL;
  CHECK(key && strcmp(key, "_variables/0/.ATTRIBUTES/VARIABLE_VALUE") == 0);
  const hr_bundle_entry *e = key ? hr_bundle_find(b, key) : NULL;
  CHECK(e && e->dtype == HR_F32 && e->nbytes == sizeof w_values && memcmp(e->data, w_values, sizeof w_values) == 0);
  CHECK(hr_bundle_object_child(b, 0, "signatures") >= 0 && hr_bundle_object_child(b, 0, "f") >= 0);
  hr_bundle_close(b);
}

/* Served as TF Serving would: y = x * w with w restored, k passed through. */
static void check_run(const char *dir) {
  hr_module *m = NULL;
  hr_weights *w = NULL;
  hr_program *p = NULL;
  CHECK_OK(hr_savedmodel_read(dir, NULL, NULL, &m, &w));
  if (m) CHECK_OK(hr_program_create(m, "main", w, NULL, &p)); /* takes m and w */
  CHECK_EQ_INT(p ? hr_program_num_inputs(p) : 0, 2);
  if (!p || hr_program_num_inputs(p) != 2) {
    hr_program_free(p);
    return;
  }
  hr_shape xs = {.rank = 2, .dims = {2, 3}}, ks = {.rank = 1, .dims = {2}};
  hr_tensor *in[2] = {NULL, NULL}, **out = NULL;
  int n_out = 0;
  bool x_first = strcmp(hr_program_input_name(p, 0), "x") == 0;
  CHECK_OK(hr_tensor_create(NULL, HR_F32, &xs, 0, &in[x_first ? 0 : 1]));
  CHECK_OK(hr_tensor_create(NULL, HR_I32, &ks, 0, &in[x_first ? 1 : 0]));
  const hr_tensor *x = in[x_first ? 0 : 1], *k = in[x_first ? 1 : 0];
  for (int i = 0; x && i < 6; i++) ((float *)x->data)[i] = (float)(i + 1);
  for (int i = 0; k && i < 2; i++) ((int32_t *)k->data)[i] = 40 + i;
  if (x && k) CHECK_OK(hr_program_run(p, in, 2, &out, &n_out));
  CHECK_EQ_INT(n_out, 2);
  if (n_out == 2) {
    const float *y = out[0]->data;
    for (int i = 0; i < 6; i++) CHECK(y[i] == (float)(i + 1) * w_values[i % 3]);
    CHECK(((const int32_t *)out[1]->data)[1] == 41);
  }
  hr_tensors_free(out, n_out);
  hr_tensor_free(in[0]);
  hr_tensor_free(in[1]);
  hr_program_free(p);
}

TEST(written_saved_model_reads_and_runs) {
  char dir[] = "/tmp/hlorun_smwrite_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  hr_module *m = parse(model);
  hr_shape shape = {.rank = 1, .dims = {3}};
  if (m) CHECK_OK(write_with(dir, m, &shape));
  check_reader_view(dir);
  check_checkpoint(dir);
  check_run(dir);
  hr_module_free(m);
  remove_dir(dir);
}

TEST(unwritable_modules_are_refused) {
  char dir[] = "/tmp/hlorun_smwrite_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  hr_shape good = {.rank = 1, .dims = {3}}, bad = {.rank = 1, .dims = {4}};
  hr_module *m = parse(model);
  hr_status s = m ? write_with(dir, m, &bad) : NULL;
  CHECK(s && hr_status_code(s) == HR_INVALID_ARGUMENT);
  CHECK_STR_CONTAINS(s ? hr_status_message(s) : "", "parameter 0 is a tensor<3xf32>");
  hr_status_free(s);
  hr_module_free(m);
  /* no @main */
  char *renamed = strdup(model);
  memcpy(strstr(renamed, "@main"), "@mian", 5);
  m = parse(renamed);
  s = m ? write_with(dir, m, &good) : NULL;
  CHECK(s && hr_status_code(s) == HR_NOT_FOUND);
  hr_status_free(s);
  hr_module_free(m);
  free(renamed);
  /* a type TensorFlow has no DataType for */
  static const char tf32[] = "func.func public @main(%w: tensor<3xf32>, %x: tensor<2xtf32>) -> tensor<2xtf32> {\n"
                             "  return %x : tensor<2xtf32>\n}\n";
  m = parse(tf32);
  s = m ? write_with(dir, m, &good) : NULL;
  CHECK(s && hr_status_code(s) == HR_UNIMPLEMENTED);
  CHECK_STR_CONTAINS(s ? hr_status_message(s) : "", "parameter 1 is a tf32");
  hr_status_free(s);
  hr_module_free(m);
  remove_dir(dir);
  CHECK(access(dir, F_OK) != 0); /* nothing was written */
}

int main(void) {
  RUN(written_saved_model_reads_and_runs);
  RUN(unwritable_modules_are_refused);
  TEST_MAIN_END();
}

/* The server tests' model: y = 2x + 1 over f32[?, 4] (input "x"), batchable, written as an
 * artifact into numbered version directories of a model's base path. */
#ifndef HLORUN_TESTS_SERVER_AFFINE_MODEL_H
#define HLORUN_TESTS_SERVER_AFFINE_MODEL_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "hlorun/hlorun.h"
#include "test.h"

static const char affine_mlir[] =
    "func.func public @main(%x: tensor<?x4xf32> {jax.arg_info = \"x\"}) -> (tensor<?x4xf32>) {\n"
    "  %c2 = stablehlo.constant dense<2.0> : tensor<f32>\n"
    "  %c1 = stablehlo.constant dense<1.0> : tensor<f32>\n"
    "  %0 = stablehlo.get_dimension_size %x, dim = 0 : (tensor<?x4xf32>) -> tensor<i32>\n"
    "  %1 = stablehlo.reshape %0 : (tensor<i32>) -> tensor<1xi32>\n"
    "  %c4 = stablehlo.constant dense<4> : tensor<1xi32>\n"
    "  %2 = stablehlo.concatenate %1, %c4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>\n"
    "  %3 = stablehlo.dynamic_broadcast_in_dim %c2, %2, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>\n"
    "  %4 = stablehlo.dynamic_broadcast_in_dim %c1, %2, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>\n"
    "  %5 = stablehlo.multiply %x, %3 : tensor<?x4xf32>\n"
    "  %6 = stablehlo.add %5, %4 : tensor<?x4xf32>\n"
    "  return %6 : tensor<?x4xf32>\n"
    "}\n";

/* Writes the affine model as an artifact at `path`. */
static void affine_write_artifact(const char *path) {
  hr_module *m = NULL;
  hr_program *p = NULL;
  CHECK_OK(hr_module_parse("affine.mlir", affine_mlir, strlen(affine_mlir), NULL, &m));
  if (m) CHECK_OK(hr_program_create(m, NULL, NULL, NULL, &p));
  if (p) CHECK_OK(hr_artifact_write(p, path));
  hr_program_free(p);
}

/* Creates <model_dir>/<version>/model.hlo holding a good artifact, or `junk` bytes when not NULL. */
static void affine_add_version(const char *model_dir, int version, const char *junk) {
  char dir[256], path[288];
  snprintf(dir, sizeof dir, "%s/%d", model_dir, version);
  mkdir(dir, 0755);
  snprintf(path, sizeof path, "%s/model.hlo", dir);
  if (!junk) {
    affine_write_artifact(path);
    return;
  }
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(junk, f);
    fclose(f);
  }
}

#endif

/* hlorun convert: a module moved between the forms JAX users have. Reads any model file the other
 * commands read (StableHLO text, a portable artifact, a jax.export file, told apart by content)
 * and writes, by the output's extension, StableHLO text (.mlir) or a StableHLO portable artifact
 * (.mlirbc, .bc: MLIR bytecode of VHLO 1.8, which StableHLO 1.8 and later, and so every jax
 * release since, read). */
#include <string.h>

#include "base/file.h"
#include "base/strbuf.h"
#include "cli/cli.h"
#include "formats/mlirbc/writer.h"
#include "ir/ir.h"

static const char usage[] = "usage: hlorun convert IN OUT.mlir|OUT.mlirbc\n";

/* Whether `path` ends with `ext`. */
static bool ends_with(const char *path, const char *ext) {
  size_t n = strlen(path), e = strlen(ext);
  return n >= e && strcmp(path + n - e, ext) == 0;
}

/* Writes `m` to `out` in the form its extension names. */
static hr_status write_module(const hr_module *m, const char *out) {
  bool bytecode = ends_with(out, ".mlirbc") || ends_with(out, ".bc");
  if (!bytecode && !ends_with(out, ".mlir"))
    return hr_error(HR_INVALID_ARGUMENT, "%s: the output's extension names no form (.mlir: StableHLO text; "
                    ".mlirbc or .bc: a portable artifact)", out);
  hr_strbuf sb;
  hr_strbuf_init(&sb, NULL);
  hr_status s = bytecode ? hr_bc_write_module(m, &sb) : hr_module_print_to(m, &sb);
  if (!s) s = hr_strbuf_status(&sb);
  if (!s) s = hr_write_file(out, sb.data ? sb.data : "", sb.len);
  if (!s) printf("converted -> %s (%zu bytes, %s)\n", out, sb.len, bytecode ? "StableHLO portable artifact" : "StableHLO text");
  hr_strbuf_free(&sb);
  return s;
}

int cmd_convert(int argc, char **argv) {
  if (argc != 2 || argv[0][0] == '-' || argv[1][0] == '-') {
    fputs(usage, stderr);
    return 2;
  }
  hr_module *m = NULL;
  hr_status s = hr_module_parse_file(argv[0], NULL, &m);
  if (!s) s = write_module(m, argv[1]);
  hr_module_free(m);
  return s ? report_error(s) : 0;
}

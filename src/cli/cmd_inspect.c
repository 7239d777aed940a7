/* hlorun inspect: summarize a module, or print it as text. */
#include <string.h>

#include "base/strbuf.h"
#include "cli/cli.h"
#include "ir/ir.h"

/* Counts ops in a block, nested regions included. */
static long count_ops(const hr_block *b) {
  long n = b->n_ops;
  for (int k = 0; k < b->n_ops; k++)
    for (int r = 0; r < b->ops[k]->n_regions; r++) n += count_ops(&b->ops[k]->regions[r]);
  return n;
}

static void print_summary(const hr_module *m) {
  printf("module %s%s: %d function%s\n", m->name ? "@" : "", m->name ? m->name : "(unnamed)", m->n_funcs,
         m->n_funcs == 1 ? "" : "s");
  for (int i = 0; i < m->n_funcs; i++) {
    const hr_func *fn = m->funcs[i];
    hr_strbuf sb;
    hr_strbuf_init(&sb, NULL);
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
    if (sb.data) fputs(sb.data, stdout);
    hr_strbuf_free(&sb);
  }
}

int cmd_inspect(int argc, char **argv) {
  const char *file = NULL;
  bool ir = false;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--ir") == 0)
      ir = true;
    else if (argv[i][0] != '-' && !file)
      file = argv[i];
    else {
      fprintf(stderr, "usage: hlorun inspect FILE.mlir [--ir]\n");
      return 2;
    }
  }
  if (!file) {
    fprintf(stderr, "usage: hlorun inspect FILE.mlir [--ir]\n");
    return 2;
  }
  hr_module *m;
  hr_status s = hr_module_parse_file(file, NULL, &m);
  if (s) return report_error(s);
  if (ir)
    s = hr_module_print(m, stdout);
  else
    print_summary(m);
  hr_module_free(m);
  return s ? report_error(s) : 0;
}

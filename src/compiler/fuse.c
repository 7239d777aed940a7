/* The fusion pass: options, the order of the fusions, and the final verification (fuse.h). */
#include "compiler/fuse_internal.h"

/* A fusion and the bit that disables it. */
typedef struct fusion {
  unsigned flag;
  hr_status (*run)(hf_graph *g);
} fusion;

/* The order matters: attention takes its softmax before the softmax fusion would, layer norms
 * and attention take their elementwise ops before matmul epilogues and hlorun.fused, and the
 * q, k, v merge works on the matmuls and attentions made before it. */
static const fusion fusions[] = {
    {HR_FUSE_ATTENTION, hf_fuse_attention},   {HR_FUSE_SOFTMAX, hf_fuse_softmax},
    {HR_FUSE_LAYER_NORM, hf_fuse_layer_norm}, {HR_FUSE_MATMUL, hf_fuse_matmul},
    {HR_FUSE_QKV, hf_fuse_qkv},               {HR_FUSE_ELEMENTWISE, hf_fuse_elementwise},
};

/* Runs the enabled fusions, committing after each. */
static hr_status run_fusions(hf_graph *g) {
  for (size_t i = 0; i < sizeof fusions / sizeof fusions[0]; i++) {
    if (g->opts->disable & fusions[i].flag) continue;
    HR_TRY(fusions[i].run(g));
    HR_TRY(hf_commit(g));
  }
  return NULL;
}

hr_status hr_fuse(hr_module *m, const hr_fuse_options *o) {
  static const hr_fuse_options defaults = {0};
  if (!m) return hr_error(HR_INVALID_ARGUMENT, "hr_fuse: no module given");
  hf_graph g;
  hr_status s = hf_graph_init(&g, m, o ? o : &defaults);
  if (!s) {
    g.stats.ops_before = g.n_ops;
    s = run_fusions(&g);
    g.stats.ops_after = g.fn->body.n_ops;
  }
  hf_graph_release(&g);
  if (!s) {
    s = hr_module_verify(m);
    if (s) s = hr_status_wrap(s, "%s: the fused module does not verify", m->filename ? m->filename : "?");
  }
  if (o && o->stats) *o->stats = g.stats;
  return s;
}

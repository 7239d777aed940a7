/* What the files of src/formats/savedmodel share beyond savedmodel.h: the error for an op hlorun
 * does not follow, and an XlaCallModule's module read with its calling convention applied. */
#ifndef HLORUN_FORMATS_SAVEDMODEL_SAVEDMODEL_INTERNAL_H
#define HLORUN_FORMATS_SAVEDMODEL_SAVEDMODEL_INTERNAL_H

#include "formats/savedmodel/savedmodel.h"

/* The UNIMPLEMENTED error for graph node `node`, an op hlorun neither follows nor lowers: it names
 * the node, its op and its offset, says that only jax2tf native-serialization graphs are
 * supported, and lists the ops of the graph and its functions. */
hr_status hr_sm_unsupported(const hr_savedmodel *sm, const tf_node *node);

/* The XlaCallModule of graph or function node `node`, or NULL. */
const tf_xla_call *hr_sm_xla_call(const hr_savedmodel *sm, const tf_node *node);

/* The module of `call`, parsed (not verified), with the calling convention applied: the platform
 * index bound to CPU's, shape assertions dropped when the call disabled them. */
hr_status hr_sm_call_module(const hr_savedmodel *sm, const tf_xla_call *call, const hr_parse_options *opts, hr_module **out);

#endif

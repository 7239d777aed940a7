/* The properties-record table of vhlo_props.h: for every op VHLO has had since it began writing
 * properties (0.15.0) up to 1.20.0, the names of its inherent attributes in record order.
 *
 * Sources: openxla/stablehlo stablehlo/dialect/VhloOps.td at every revision from the properties
 * migration (903e3483a, VHLO 0.15.0) to 3c9301c11 (1.20.0): no op changed its attribute set without a
 * new _vN; three ops (compute_reshape_shape_v1, cstr_reshapable_v1, trace_v1) were deleted during
 * 0.19.x and are kept for older artifacts. Order rule: llvm-project mlir-tblgen OpDefinitionsGen.cpp
 * (computeAttrMetadata sorts by StringRef <, genPropertiesSupportForBytecode writes attributes in that
 * order, required ones with writeAttribute, optional ones with writeOptionalAttribute).
 *
 * Checked against the real artifacts in shared/real (82 bytecode-6 files, 6787 op records): every
 * record held exactly `n` varints, each a valid attribute index of the kind its name implies, and the
 * values of 2857 attributes matched the VHLO text of the StableHLO compatibility suite's CHECK lines. */
#include "formats/mlirbc/vhlo_props.h"

#include <stddef.h>
#include <string.h>

/* builtin.module: OptionalAttr<SymbolNameAttr> sym_name, OptionalAttr<StrAttr> sym_visibility. */
static const char *const attrs_module[] = {"sym_name", "sym_visibility"};

/* all_gather_v1, all_gather_v2 */
static const char *const attrs_all_gather[] = {
    "all_gather_dim", "channel_id", "replica_groups", "use_global_device_ids"};
/* all_reduce_v1, all_reduce_v2 */
static const char *const attrs_all_reduce[] = {"channel_id", "replica_groups", "use_global_device_ids"};
/* all_to_all_v1, all_to_all_v2 */
static const char *const attrs_all_to_all[] = {
    "channel_id", "concat_dimension", "replica_groups", "split_count", "split_dimension"};
/* batch_norm_grad_v1, batch_norm_inference_v1, batch_norm_training_v1 */
static const char *const attrs_batch_norm[] = {"epsilon", "feature_index"};
static const char *const attrs_broadcast_in_dim_v1[] = {"broadcast_dimensions"};
static const char *const attrs_broadcast_v1[] = {"broadcast_sizes"};
static const char *const attrs_call_v1[] = {"callee"};
/* cbrt_v2, cosine_v2, exponential_minus_one_v2, exponential_v2, log_plus_one_v2, log_v2, logistic_v2,
 * rsqrt_v2, sine_v2, sqrt_v2, tan_v2, tanh_v2 */
static const char *const attrs_result_accuracy[] = {"result_accuracy"};
static const char *const attrs_cholesky_v1[] = {"lower"};
static const char *const attrs_collective_broadcast_v1[] = {"channel_id", "replica_groups"};
static const char *const attrs_collective_broadcast_v2[] = {
    "channel_id", "has_dynamic_root", "replica_groups"};
static const char *const attrs_collective_permute_v1[] = {"channel_id", "source_target_pairs"};
static const char *const attrs_collective_reduce_v1[] = {
    "channel_id", "has_dynamic_root", "replica_groups", "use_global_device_ids"};
static const char *const attrs_compare_v1[] = {"compare_type", "comparison_direction"};
/* composite_v1, composite_v2 */
static const char *const attrs_composite[] = {"composite_attributes", "decomposition", "name", "version"};
/* concatenate_v1, get_dimension_size_v1, set_dimension_size_v1 */
static const char *const attrs_dimension[] = {"dimension"};
static const char *const attrs_constant_v1[] = {"value"};
/* convolution_v1, dynamic_conv_v1 */
static const char *const attrs_convolution[] = {
    "batch_group_count", "feature_group_count", "input_batch_dimension", "input_feature_dimension",
    "input_spatial_dimensions", "kernel_input_feature_dimension", "kernel_output_feature_dimension",
    "kernel_spatial_dimensions", "lhs_dilation", "output_batch_dimension", "output_feature_dimension",
    "output_spatial_dimensions", "padding", "precision_config", "rhs_dilation", "window_reversal",
    "window_strides"};
static const char *const attrs_cross_replica_sum_v1[] = {"replica_groups"};
static const char *const attrs_custom_call_v1[] = {
    "api_version", "backend_config", "call_target_name", "called_computations", "has_side_effect",
    "operand_layouts", "output_operand_aliases", "result_layouts"};
static const char *const attrs_custom_call_v2[] = {
    "api_version", "backend_config", "call_target_name", "called_computations", "has_side_effect",
    "operand_layouts", "output_operand_aliases", "result_layouts", "result_tilings"};
static const char *const attrs_dot_general_v1[] = {
    "lhs_batching_dimensions", "lhs_contracting_dimensions", "precision_config", "rhs_batching_dimensions",
    "rhs_contracting_dimensions"};
/* With no algorithm, all seven algorithm attributes are #vhlo.type_v1<!vhlo.none_v1>. */
static const char *const attrs_dot_general_v2[] = {
    "accumulation_type", "allow_imprecise_accumulation", "lhs_batching_dimensions", "lhs_component_count",
    "lhs_contracting_dimensions", "lhs_precision_type", "num_primitive_operations", "precision_config",
    "rhs_batching_dimensions", "rhs_component_count", "rhs_contracting_dimensions", "rhs_precision_type"};
static const char *const attrs_dot_v1[] = {"precision_config"};
static const char *const attrs_dynamic_broadcast_in_dim_v1[] = {
    "broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions"};
static const char *const attrs_dynamic_conv_v2[] = {
    "batch_group_count", "feature_group_count", "input_batch_dimension", "input_feature_dimension",
    "input_spatial_dimensions", "kernel_input_feature_dimension", "kernel_output_feature_dimension",
    "kernel_spatial_dimensions", "lhs_dilation", "output_batch_dimension", "output_feature_dimension",
    "output_spatial_dimensions", "precision_config", "rhs_dilation", "window_reversal", "window_strides"};
static const char *const attrs_dynamic_gather_v1[] = {
    "collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims", "start_index_map"};
static const char *const attrs_dynamic_gather_v2[] = {
    "collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims",
    "operand_batching_dims", "start_index_map", "start_indices_batching_dims"};
/* dynamic_iota_v1, iota_v1 */
static const char *const attrs_iota_dimension[] = {"iota_dimension"};
static const char *const attrs_dynamic_slice_v1[] = {"slice_sizes"};
/* einsum_v1, unary_einsum_v1 */
static const char *const attrs_einsum_config[] = {"einsum_config"};
static const char *const attrs_fft_v1[] = {"fft_length", "fft_type"};
/* Declared sym_name, function_type, sym_visibility, arg_attrs, res_attrs; stored sorted. */
static const char *const attrs_func_v1[] = {
    "arg_attrs", "function_type", "res_attrs", "sym_name", "sym_visibility"};
static const char *const attrs_gather_v1[] = {
    "collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims", "slice_sizes",
    "start_index_map"};
static const char *const attrs_gather_v2[] = {
    "collapsed_slice_dims", "index_vector_dim", "indices_are_sorted", "offset_dims",
    "operand_batching_dims", "slice_sizes", "start_index_map", "start_indices_batching_dims"};
static const char *const attrs_get_tuple_element_v1[] = {"index"};
static const char *const attrs_infeed_v1[] = {"infeed_config", "layout"};
/* map_v1, reduce_v1, reverse_v1 */
static const char *const attrs_dimensions[] = {"dimensions"};
static const char *const attrs_outfeed_v1[] = {"outfeed_config"};
static const char *const attrs_pad_v1[] = {"edge_padding_high", "edge_padding_low", "interior_padding"};
/* recv_v1, send_v1 */
static const char *const attrs_send_recv_v1[] = {"channel_id", "channel_type", "is_host_transfer"};
/* recv_v2, send_v2 */
static const char *const attrs_send_recv_v2[] = {
    "channel_id", "channel_type", "is_host_transfer", "source_target_pairs"};
static const char *const attrs_reduce_precision_v1[] = {"exponent_bits", "mantissa_bits"};
static const char *const attrs_reduce_scatter_v1[] = {
    "channel_id", "replica_groups", "scatter_dimension", "use_global_device_ids"};
static const char *const attrs_reduce_window_v1[] = {
    "base_dilations", "padding", "window_dilations", "window_dimensions", "window_strides"};
static const char *const attrs_rng_bit_generator_v1[] = {"rng_algorithm"};
static const char *const attrs_rng_v1[] = {"rng_distribution"};
static const char *const attrs_scatter_v1[] = {
    "index_vector_dim", "indices_are_sorted", "inserted_window_dims", "scatter_dims_to_operand_dims",
    "unique_indices", "update_window_dims"};
static const char *const attrs_scatter_v2[] = {
    "index_vector_dim", "indices_are_sorted", "input_batching_dims", "inserted_window_dims",
    "scatter_dims_to_operand_dims", "scatter_indices_batching_dims", "unique_indices", "update_window_dims"};
static const char *const attrs_select_and_scatter_v1[] = {"padding", "window_dimensions", "window_strides"};
static const char *const attrs_slice_v1[] = {"limit_indices", "start_indices", "strides"};
static const char *const attrs_sort_v1[] = {"dimension", "is_stable"};
static const char *const attrs_torch_index_select_v1[] = {"batch_dims", "dim"};
static const char *const attrs_trace_v1[] = {"tag"};
static const char *const attrs_transpose_v1[] = {"permutation"};
static const char *const attrs_triangular_solve_v1[] = {"left_side", "lower", "transpose_a", "unit_diagonal"};

/* Shardy's ops that JAX leaves in a portable artifact (ODS-generated too, their attributes required). */
static const char *const attrs_sdy_manual_computation[] = {"in_shardings", "manual_axes", "out_shardings"};
static const char *const attrs_sdy_mesh[] = {"mesh", "sym_name"};
static const char *const attrs_sdy_sharding_constraint[] = {"sharding"};

#define V(major, minor) VHLO_PROPS_VERSION(major, minor)
#define OPEN VHLO_PROPS_OPEN
#define ATTRS(list) (int)(sizeof(list) / sizeof((list)[0])), (list)
#define NONE 0, NULL
#define OP(name, attrs, since, until) {name, attrs, false, since, until}

/* Sorted by name (strcmp) for the binary search; "-" sorts before "_" ("cross-replica-sum_v1"). */
static const vhlo_prop_op ops[] = {
    {"builtin.module", ATTRS(attrs_module), true, 0, OPEN},
    OP("sdy.manual_computation", ATTRS(attrs_sdy_manual_computation), 0, OPEN),
    OP("sdy.mesh", ATTRS(attrs_sdy_mesh), 0, OPEN),
    OP("sdy.return", NONE, 0, OPEN),
    OP("sdy.sharding_constraint", ATTRS(attrs_sdy_sharding_constraint), 0, OPEN),
    OP("vhlo.abs_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.add_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.after_all_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.all_gather_v1", ATTRS(attrs_all_gather), V(0, 9), V(1, 4)),
    OP("vhlo.all_gather_v2", ATTRS(attrs_all_gather), V(1, 5), OPEN),
    OP("vhlo.all_reduce_v1", ATTRS(attrs_all_reduce), V(0, 9), V(1, 4)),
    OP("vhlo.all_reduce_v2", ATTRS(attrs_all_reduce), V(1, 5), OPEN),
    OP("vhlo.all_to_all_v1", ATTRS(attrs_all_to_all), V(0, 9), V(1, 4)),
    OP("vhlo.all_to_all_v2", ATTRS(attrs_all_to_all), V(1, 5), OPEN),
    OP("vhlo.and_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.async_done_v1", NONE, V(1, 15), OPEN),
    OP("vhlo.async_start_v1", NONE, V(1, 15), OPEN),
    OP("vhlo.atan2_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.batch_norm_grad_v1", ATTRS(attrs_batch_norm), V(0, 9), OPEN),
    OP("vhlo.batch_norm_inference_v1", ATTRS(attrs_batch_norm), V(0, 9), OPEN),
    OP("vhlo.batch_norm_training_v1", ATTRS(attrs_batch_norm), V(0, 9), OPEN),
    OP("vhlo.bitcast_convert_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.broadcast_in_dim_v1", ATTRS(attrs_broadcast_in_dim_v1), V(0, 9), OPEN),
    OP("vhlo.broadcast_v1", ATTRS(attrs_broadcast_v1), V(0, 9), OPEN),
    OP("vhlo.call_v1", ATTRS(attrs_call_v1), V(0, 9), OPEN),
    OP("vhlo.case_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.cbrt_v1", NONE, V(0, 9), V(1, 9)),
    OP("vhlo.cbrt_v2", ATTRS(attrs_result_accuracy), V(1, 10), OPEN),
    OP("vhlo.ceil_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.cholesky_v1", ATTRS(attrs_cholesky_v1), V(0, 9), OPEN),
    OP("vhlo.clamp_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.collective_broadcast_v1", ATTRS(attrs_collective_broadcast_v1), V(0, 16), V(1, 19)),
    OP("vhlo.collective_broadcast_v2", ATTRS(attrs_collective_broadcast_v2), V(1, 20), OPEN),
    OP("vhlo.collective_permute_v1", ATTRS(attrs_collective_permute_v1), V(0, 9), OPEN),
    OP("vhlo.collective_reduce_v1", ATTRS(attrs_collective_reduce_v1), V(1, 19), OPEN),
    OP("vhlo.compare_v1", ATTRS(attrs_compare_v1), V(0, 9), OPEN),
    OP("vhlo.complex_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.composite_v1", ATTRS(attrs_composite), V(0, 19), V(1, 13)),
    OP("vhlo.composite_v2", ATTRS(attrs_composite), V(1, 14), OPEN),
    OP("vhlo.compute_reshape_shape_v1", NONE, V(0, 9), V(0, 19)), /* deleted during 0.19.x */
    OP("vhlo.concatenate_v1", ATTRS(attrs_dimension), V(0, 9), OPEN),
    OP("vhlo.constant_v1", ATTRS(attrs_constant_v1), V(0, 9), OPEN),
    OP("vhlo.convert_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.convolution_v1", ATTRS(attrs_convolution), V(0, 9), OPEN),
    OP("vhlo.cosine_v1", NONE, V(0, 9), V(1, 9)),
    OP("vhlo.cosine_v2", ATTRS(attrs_result_accuracy), V(1, 10), OPEN),
    OP("vhlo.count_leading_zeros_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.create_token_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.cross-replica-sum_v1", ATTRS(attrs_cross_replica_sum_v1), V(0, 9), OPEN),
    OP("vhlo.cstr_reshapable_v1", NONE, V(0, 9), V(0, 19)), /* deleted during 0.19.x */
    OP("vhlo.custom_call_v1", ATTRS(attrs_custom_call_v1), V(0, 9), V(1, 17)),
    OP("vhlo.custom_call_v2", ATTRS(attrs_custom_call_v2), V(1, 18), OPEN),
    OP("vhlo.divide_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.dot_general_v1", ATTRS(attrs_dot_general_v1), V(0, 9), V(1, 5)),
    OP("vhlo.dot_general_v2", ATTRS(attrs_dot_general_v2), V(1, 6), OPEN),
    OP("vhlo.dot_v1", ATTRS(attrs_dot_v1), V(0, 9), OPEN),
    OP("vhlo.dynamic_broadcast_in_dim_v1", ATTRS(attrs_dynamic_broadcast_in_dim_v1), V(0, 9), OPEN),
    OP("vhlo.dynamic_conv_v1", ATTRS(attrs_convolution), V(0, 9), V(0, 19)),
    OP("vhlo.dynamic_conv_v2", ATTRS(attrs_dynamic_conv_v2), V(0, 20), OPEN),
    OP("vhlo.dynamic_gather_v1", ATTRS(attrs_dynamic_gather_v1), V(0, 9), V(1, 0)),
    OP("vhlo.dynamic_gather_v2", ATTRS(attrs_dynamic_gather_v2), V(1, 1), OPEN),
    OP("vhlo.dynamic_iota_v1", ATTRS(attrs_iota_dimension), V(0, 9), OPEN),
    OP("vhlo.dynamic_pad_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.dynamic_reshape_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.dynamic_slice_v1", ATTRS(attrs_dynamic_slice_v1), V(0, 9), OPEN),
    OP("vhlo.dynamic_update_slice_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.einsum_v1", ATTRS(attrs_einsum_config), V(0, 9), OPEN),
    OP("vhlo.exponential_minus_one_v1", NONE, V(0, 9), V(1, 9)),
    OP("vhlo.exponential_minus_one_v2", ATTRS(attrs_result_accuracy), V(1, 10), OPEN),
    OP("vhlo.exponential_v1", NONE, V(0, 9), V(1, 8)),
    OP("vhlo.exponential_v2", ATTRS(attrs_result_accuracy), V(1, 9), OPEN),
    OP("vhlo.fft_v1", ATTRS(attrs_fft_v1), V(0, 9), OPEN),
    OP("vhlo.floor_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.func_v1", ATTRS(attrs_func_v1), V(0, 9), OPEN),
    OP("vhlo.gather_v1", ATTRS(attrs_gather_v1), V(0, 9), V(1, 0)),
    OP("vhlo.gather_v2", ATTRS(attrs_gather_v2), V(1, 1), OPEN),
    OP("vhlo.get_dimension_size_v1", ATTRS(attrs_dimension), V(0, 9), OPEN),
    OP("vhlo.get_tuple_element_v1", ATTRS(attrs_get_tuple_element_v1), V(0, 9), OPEN),
    OP("vhlo.if_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.imag_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.infeed_v1", ATTRS(attrs_infeed_v1), V(0, 9), OPEN),
    OP("vhlo.iota_v1", ATTRS(attrs_iota_dimension), V(0, 9), OPEN),
    OP("vhlo.is_finite_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.log_plus_one_v1", NONE, V(0, 9), V(1, 9)),
    OP("vhlo.log_plus_one_v2", ATTRS(attrs_result_accuracy), V(1, 10), OPEN),
    OP("vhlo.log_v1", NONE, V(0, 9), V(1, 9)),
    OP("vhlo.log_v2", ATTRS(attrs_result_accuracy), V(1, 10), OPEN),
    OP("vhlo.logistic_v1", NONE, V(0, 9), V(1, 9)),
    OP("vhlo.logistic_v2", ATTRS(attrs_result_accuracy), V(1, 10), OPEN),
    OP("vhlo.map_v1", ATTRS(attrs_dimensions), V(0, 9), OPEN),
    OP("vhlo.maximum_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.minimum_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.multiply_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.negate_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.not_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.optimization_barrier_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.or_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.outfeed_v1", ATTRS(attrs_outfeed_v1), V(0, 9), OPEN),
    OP("vhlo.pad_v1", ATTRS(attrs_pad_v1), V(0, 9), OPEN),
    OP("vhlo.partition_id_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.popcnt_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.power_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.real_dynamic_slice_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.real_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.recv_v1", ATTRS(attrs_send_recv_v1), V(0, 9), V(1, 11)),
    OP("vhlo.recv_v2", ATTRS(attrs_send_recv_v2), V(1, 12), OPEN),
    OP("vhlo.reduce_precision_v1", ATTRS(attrs_reduce_precision_v1), V(0, 9), OPEN),
    OP("vhlo.reduce_scatter_v1", ATTRS(attrs_reduce_scatter_v1), V(0, 9), OPEN),
    OP("vhlo.reduce_v1", ATTRS(attrs_dimensions), V(0, 9), OPEN),
    OP("vhlo.reduce_window_v1", ATTRS(attrs_reduce_window_v1), V(0, 9), OPEN),
    OP("vhlo.remainder_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.replica_id_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.reshape_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.return_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.reverse_v1", ATTRS(attrs_dimensions), V(0, 9), OPEN),
    OP("vhlo.rng_bit_generator_v1", ATTRS(attrs_rng_bit_generator_v1), V(0, 9), OPEN),
    OP("vhlo.rng_v1", ATTRS(attrs_rng_v1), V(0, 9), OPEN),
    OP("vhlo.round_nearest_afz_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.round_nearest_even_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.rsqrt_v1", NONE, V(0, 9), V(1, 9)),
    OP("vhlo.rsqrt_v2", ATTRS(attrs_result_accuracy), V(1, 10), OPEN),
    OP("vhlo.scatter_v1", ATTRS(attrs_scatter_v1), V(0, 9), V(1, 0)),
    OP("vhlo.scatter_v2", ATTRS(attrs_scatter_v2), V(1, 1), OPEN),
    OP("vhlo.select_and_scatter_v1", ATTRS(attrs_select_and_scatter_v1), V(0, 9), OPEN),
    OP("vhlo.select_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.send_v1", ATTRS(attrs_send_recv_v1), V(0, 9), V(1, 11)),
    OP("vhlo.send_v2", ATTRS(attrs_send_recv_v2), V(1, 12), OPEN),
    OP("vhlo.set_dimension_size_v1", ATTRS(attrs_dimension), V(0, 9), OPEN),
    OP("vhlo.shift_left_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.shift_right_arithmetic_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.shift_right_logical_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.sign_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.sine_v1", NONE, V(0, 9), V(1, 9)),
    OP("vhlo.sine_v2", ATTRS(attrs_result_accuracy), V(1, 10), OPEN),
    OP("vhlo.slice_v1", ATTRS(attrs_slice_v1), V(0, 9), OPEN),
    OP("vhlo.sort_v1", ATTRS(attrs_sort_v1), V(0, 9), OPEN),
    OP("vhlo.sqrt_v1", NONE, V(0, 9), V(1, 9)),
    OP("vhlo.sqrt_v2", ATTRS(attrs_result_accuracy), V(1, 10), OPEN),
    OP("vhlo.subtract_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.tan_v1", NONE, V(1, 4), V(1, 9)),
    OP("vhlo.tan_v2", ATTRS(attrs_result_accuracy), V(1, 10), OPEN),
    OP("vhlo.tanh_v1", NONE, V(0, 9), V(1, 9)),
    OP("vhlo.tanh_v2", ATTRS(attrs_result_accuracy), V(1, 10), OPEN),
    OP("vhlo.torch_index_select_v1", ATTRS(attrs_torch_index_select_v1), V(0, 9), OPEN),
    OP("vhlo.trace_v1", ATTRS(attrs_trace_v1), V(0, 9), V(0, 19)), /* deleted during 0.19.x */
    OP("vhlo.transpose_v1", ATTRS(attrs_transpose_v1), V(0, 9), OPEN),
    OP("vhlo.triangular_solve_v1", ATTRS(attrs_triangular_solve_v1), V(0, 9), OPEN),
    OP("vhlo.tuple_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.unary_einsum_v1", ATTRS(attrs_einsum_config), V(0, 9), OPEN),
    OP("vhlo.uniform_dequantize_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.uniform_quantize_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.while_v1", NONE, V(0, 9), OPEN),
    OP("vhlo.xor_v1", NONE, V(0, 9), OPEN),
};

#undef V
#undef OPEN
#undef ATTRS
#undef NONE
#undef OP

enum { N_OPS = (int)(sizeof(ops) / sizeof(ops[0])) };

const vhlo_prop_op *vhlo_props_find(const char *full_op_name) {
  if (!full_op_name) return NULL;
  int lo = 0, hi = N_OPS;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    int c = strcmp(full_op_name, ops[mid].op);
    if (c == 0) return &ops[mid];
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  return NULL;
}

const vhlo_prop_op *vhlo_props_all(int *n) {
  if (n) *n = N_OPS;
  return ops;
}

static const vhlo_attr_group attr_groups[] = {
    {"dot_general", "dot_dimension_numbers", "stablehlo.dot"},
    {"gather", "dimension_numbers", "stablehlo.gather"},
    {"dynamic_gather", "dimension_numbers", "stablehlo.gather"},
    {"scatter", "scatter_dimension_numbers", "stablehlo.scatter"},
    {"convolution", "dimension_numbers", "stablehlo.conv"},
    {"dynamic_conv", "dimension_numbers", "stablehlo.conv"},
};

const vhlo_attr_group *vhlo_attr_groups(int *n) {
  *n = (int)(sizeof attr_groups / sizeof *attr_groups);
  return attr_groups;
}

// The table of every ONNX op nnref reads, gathered from the families (handlers.hpp).
#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

OpTable all_ops() {
  OpTable table;
  add_elementwise_ops(table);
  add_window_ops(table);
  add_normalization_ops(table);
  add_product_ops(table);
  add_reduction_ops(table);
  add_movement_ops(table);
  add_constant_ops(table);
  add_indexing_ops(table);
  add_loss_ops(table);
  add_signal_ops(table);
  add_control_ops(table);
  add_typed_ops(table);
  add_recurrent_ops(table);
  add_resize_ops(table);
  add_scatter_ops(table);
  add_selection_ops(table);
  add_sampling_ops(table);
  add_tfidf_ops(table);
  add_quantization_ops(table);
  return table;
}

}  // namespace

OpHandler find_op(const std::string& op_type) {
  static const OpTable table = all_ops();
  auto it = table.find(op_type);
  return it == table.end() ? nullptr : it->second;
}

}  // namespace nnref::onnx_format

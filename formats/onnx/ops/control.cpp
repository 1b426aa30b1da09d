// The ONNX control flow nnref reads: If.
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

// A node of one op over the given inputs and outputs, named after the If it stands in.
onnx::NodeProto part(Ctx& c, const std::string& op, const std::vector<std::string>& inputs, const std::string& output,
                     size_t k) {
  onnx::NodeProto n;
  n.set_op_type(op);
  n.set_name(c.name() + "/" + op + std::to_string(k));
  for (const auto& i : inputs) n.add_input(i);
  n.add_output(output);
  return n;
}

// If: the outputs of then_branch where cond holds, of else_branch where it does not; each branch a
// subgraph that reads the outer graph's values. A condition known when the model is read (a
// constant) takes its branch alone: the other is not read. One computed at run time reads both
// branches, so that `check` proves the obligations of each, and each output is Where(cond, then's,
// else's): both branches are evaluated, which changes nothing (nnref's ops have no side effects, and
// the branch not taken is discarded). That needs both branches' outputs of one shape: fixed
// extents, equal shapes; a branch whose shape differs (ONNX allows it) is refused by name.
void if_op(Ctx& c) {
  if (c.kind(0) != ElemKind::Logical) c.refuse("onnx.input-type", "cond must be a bool tensor");
  const size_t outputs = static_cast<size_t>(c.proto().output_size());
  const auto branch_outputs = [&](const std::string& branch) {
    std::vector<std::string> names = c.subgraph(branch);
    if (names.size() != outputs)
      c.refuse("onnx.attribute-value",
               branch + " has " + std::to_string(names.size()) + " outputs, the node " + std::to_string(outputs));
    return names;
  };
  if (const ExactTensor* cond = c.exact(0)) {
    if (cond->ints.size() != 1) c.refuse("onnx.input-shape", "cond must hold one value");
    const bool taken = cond->ints[0] != 0;
    c.attr(taken ? "else_branch" : "then_branch");  // read, not imported
    const std::vector<std::string> names = branch_outputs(taken ? "then_branch" : "else_branch");
    for (size_t k = 0; k < outputs; ++k)
      c.add_node(part(c, "Identity", {names[k]}, c.proto().output(static_cast<int>(k)), k));
    return;
  }
  if (!c.extents_fixed())
    c.refuse("onnx.shape-unsupported",
             "an If whose condition is computed at run time needs fixed extents (both branches' "
             "outputs must have one shape), and the model's inputs have symbolic ones");
  const std::vector<std::string> then_names = branch_outputs("then_branch"), else_names = branch_outputs("else_branch");
  const std::optional<std::vector<int64_t>> cond_shape = c.known_shape(0);
  for (size_t k = 0; k < outputs; ++k) {
    const auto a = c.known_shape_of(then_names[k]), b = c.known_shape_of(else_names[k]);
    if (!a || !b || *a != *b)
      c.refuse("onnx.shape-unsupported",
               "output " + std::to_string(k) +
                   " has a shape in then_branch and another in "
                   "else_branch (or one nnref does not know): nnref reads an If computed at run "
                   "time whose branches agree");
    if (a->empty() && (!cond_shape || !cond_shape->empty()))
      c.refuse("onnx.shape-unsupported", "a 0-D output with a cond of shape [1] would broadcast to [1]");
    c.add_node(
        part(c, "Where", {c.proto().input(0), then_names[k], else_names[k]}, c.proto().output(static_cast<int>(k)), k));
  }
}

}  // namespace

void add_control_ops(OpTable& table) { add_ops(table, {{"If", if_op}}); }

}  // namespace nnref::onnx_format

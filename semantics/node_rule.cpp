#include "semantics/node_rule.hpp"

namespace nnref {

Diagnostic at_node(Diagnostic d, const Node& node) {
  if (d.loc.file.empty() && d.loc.line == 0) d.loc = node.loc;
  if (d.node.empty()) d.node = node.name;
  d.message = "node '" + node.name + "' (" + op_name(node.op) + "): " + d.message;
  return d;
}

}  // namespace nnref

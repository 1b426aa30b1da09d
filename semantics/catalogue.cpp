#include "semantics/catalogue.hpp"

#include <algorithm>
#include <set>

#include "semantics/binding_rule.hpp"
#include "semantics/graph_obligations.hpp"
#include "semantics/op.hpp"
#include "spec/rules/axes.hpp"
#include "spec/rules/broadcast.hpp"
#include "spec/rules/epsilon.hpp"
#include "spec/rules/window.hpp"
#include "spec/size_program.hpp"

namespace nnref {

namespace {

constexpr ObligationKind kKinds[] = {ObligationKind::Graph,   ObligationKind::Attribute, ObligationKind::Shape,
                                     ObligationKind::Kind,    ObligationKind::Binding,   ObligationKind::Size};

// The obligations of spec/rules/, which several ops share.
std::vector<const ObligationSpec*> shared_rule_obligations() {
  return {&kArity,          &kOperandKind,          &kNegativeExtent,     &kEmptyExtent,    &kCountOverflow,
          &kAxisOutOfRange, &kAxisDuplicate,        &kAxesEmpty,          &kBroadcastIncompatible,
          &window::kWindowAttributeLength, &window::kWindowInputRank, &window::kWindowKernel,
          &window::kWindowStride, &window::kWindowDilation, &window::kWindowPadding, &window::kWindowExtentOverflow,
          &window::kWindowExceedsInput, &kEpsilon,       &kSizeProgram,
          &kDataDependentSize};
}

std::vector<const ObligationSpec*> build() {
  std::vector<const ObligationSpec*> all = graph_obligations();
  for (const ObligationSpec* o : shared_rule_obligations()) all.push_back(o);
#define NNREF_OP_OBLIGATIONS(A, stem) \
  for (const ObligationSpec* o : OpInfo<A>::obligations()) all.push_back(o);
  NNREF_FOR_EACH_OP(NNREF_OP_OBLIGATIONS)
#undef NNREF_OP_OBLIGATIONS
  for (const ObligationSpec* o : binding_obligations()) all.push_back(o);
  std::stable_sort(all.begin(), all.end(), [](const ObligationSpec* a, const ObligationSpec* b) {
    return static_cast<int>(a->kind) < static_cast<int>(b->kind);
  });
  return all;
}

// What the obligations of each kind constrain, as docs/obligations.md introduces them.
std::string_view kind_intro(ObligationKind k) {
  switch (k) {
    case ObligationKind::Graph:
      return "The graph itself: ids, names, the number of inputs of each node, its edges and outputs. They involve "
             "no extent, so they are always constant: decided without Z3.";
    case ObligationKind::Attribute:
      return "Conditions on the attribute values of an op alone (kernel, stride, groups, axes lists, epsilon, ...). "
             "Always constant.";
    case ObligationKind::Shape:
      return "Conditions on ranks and extents. Ranks never vary, so a rank condition is constant; where an extent "
             "is a size symbol (`--dim`) the obligation is a predicate over the symbols, discharged by Z3.";
    case ObligationKind::Kind:
      return "The element kinds (real, integer, logical) of the operands of each op, against its signature. Always "
             "constant.";
    case ObligationKind::Binding:
      return "The weights against the parameter shapes the layers imply. The implied shape may involve size "
             "symbols; the file's shape is fixed.";
    case ObligationKind::Size:
      return "64-bit bounds and the memory budget.";
  }
  return "";
}

std::string capitalised(std::string_view s) {
  std::string out(s);
  if (!out.empty()) out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

}  // namespace

const std::vector<const ObligationSpec*>& obligation_catalogue() {
  static const std::vector<const ObligationSpec*> catalogue = build();
  return catalogue;
}

const ObligationSpec* find_obligation(std::string_view code) {
  for (const ObligationSpec* o : obligation_catalogue())
    if (o->code == code) return o;
  return nullptr;
}

std::string explain(const ObligationSpec& o) {
  return std::string(o.code) + " (" + std::string(kind_name(o.kind)) + ")\n" +  //
         "  " + std::string(o.summary) + "\n" +                                   //
         "  formula: " + std::string(o.formula) + "\n" +                          //
         "  example: " + std::string(o.example) + "\n";
}

std::string catalogue_markdown() {
  std::string md;
  for (ObligationKind k : kKinds) {
    md += "## " + capitalised(kind_name(k)) + "\n\n" + std::string(kind_intro(k)) + "\n\n";
    for (const ObligationSpec* o : obligation_catalogue()) {
      if (o->kind != k) continue;
      md += "- `" + std::string(o->code) + "`: " + std::string(o->summary) + "\n";
      md += "  - formula: `" + std::string(o->formula) + "`\n";
      md += "  - example: " + std::string(o->example) + "\n";
    }
    md += "\n";
  }
  md.pop_back();
  return md;
}

}  // namespace nnref

// contract: an NNEF 2.0 (SkriptND) `@lower` body run from its definition (draft
// Revision 8, §2.11), as a contraction program whose loops the front end
// enumerated (spec/contract_program.hpp).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "spec/attrs/compare.hpp"
#include "spec/attrs/contract.hpp"
#include "spec/contract_program.hpp"
#include "spec/op_rule.hpp"
#include "spec/ops/unary.hpp"
#include "spec/orderings.hpp"
#include "spec/truth.hpp"

namespace nnref {

namespace contract_detail {

using namespace contract;

inline bool node_ok(const Statement& s, size_t at) {
  const Node& n = s.nodes[at];
  const auto before = [&](int64_t k) { return k >= 0 && static_cast<size_t>(k) < at; };
  switch (n.kind) {
    case NodeKind::Read:
      return n.slot >= 0 && static_cast<size_t>(n.slot) < s.reads.size();
    case NodeKind::Number:
      return n.slot >= 0 && static_cast<size_t>(n.slot) < s.tables.size();
    case NodeKind::Pi:
      return true;
    case NodeKind::Unary:
      return in_range(n.slot, 0, static_cast<int64_t>(kLastUnaryOp)) && before(n.a);
    case NodeKind::Not:
      return before(n.a);
    case NodeKind::Compare:
      return in_range(n.slot, 0, static_cast<int64_t>(CompareOp::Ne)) && before(n.a) && before(n.b);
    case NodeKind::Select:
      return before(n.a) && before(n.b) && before(n.c);
    case NodeKind::IndexSelect:
      return n.slot >= 0 && static_cast<size_t>(n.slot) < s.tables.size() && before(n.a) && before(n.b);
    default:
      return before(n.a) && before(n.b);
  }
}

inline bool offsets_within(const std::vector<int64_t>& offsets, int64_t size) {
  for (int64_t o : offsets)
    if (o < 0 || o >= size) return false;
  return true;
}

// Why the statement is not well formed, or empty.
inline std::string statement_fault(const Program& p, const Statement& s) {
  if (s.output < 0 || static_cast<size_t>(s.output) >= p.outputs.size()) return "names no output of the program";
  if (!offsets_within(s.targets, element_count(p.outputs[static_cast<size_t>(s.output)])))
    return "writes outside its output";
  if (s.nodes.empty() || s.root != static_cast<int64_t>(s.nodes.size()) - 1) return "has no value";
  for (size_t k = 0; k < s.nodes.size(); ++k)
    if (!node_ok(s, k)) return "has a malformed node " + std::to_string(k);
  for (const Read& r : s.reads) {
    if (r.offsets.size() != s.targets.size() || (r.tensors.size() != 1 && r.tensors.size() != s.targets.size()))
      return "has a read of the wrong length";
    for (size_t q = 0; q < r.offsets.size(); ++q) {
      const int64_t tensor = r.tensors[r.tensors.size() == 1 ? 0 : q];
      const bool output = tensor < 0;
      const size_t t = static_cast<size_t>(output ? -1 - tensor : tensor);
      const auto& shapes = output ? p.outputs : p.inputs;
      if (t >= shapes.size()) return "reads a tensor the program does not have";
      if (r.offsets[q] < 0 || r.offsets[q] >= element_count(shapes[t])) return "reads outside a tensor";
    }
  }
  for (const auto& t : s.tables)
    if (t.size() != 1 && t.size() != s.targets.size()) return "has a table of the wrong length";
  return {};
}

// The value of one statement at one of its points, in scalar T.
template <Scalar T>
class StatementValue {
 public:
  StatementValue(const Statement& s, const std::vector<const T*>& inputs, const std::vector<T*>& outputs)
      : s_(s), inputs_(inputs), outputs_(outputs) {}

  T value(int64_t at, size_t p) const {
    const Node& n = s_.nodes[static_cast<size_t>(at)];
    switch (n.kind) {
      case NodeKind::Read:
        return read(s_.reads[static_cast<size_t>(n.slot)], p);
      case NodeKind::Number:
        return from_double<T>(number(n.slot, p));
      case NodeKind::Pi:
        return from_double<T>(4.0) * sc::atan(from_double<T>(1.0));
      case NodeKind::Unary:
        return unary_value(UnaryAttrs{static_cast<UnaryOp>(n.slot), Real(0.0)}, value(n.a, p));
      case NodeKind::Add:
        return value(n.a, p) + value(n.b, p);
      case NodeKind::Sub:
        return value(n.a, p) - value(n.b, p);
      case NodeKind::Mul:
        return value(n.a, p) * value(n.b, p);
      case NodeKind::Div:
        return value(n.a, p) / value(n.b, p);
      case NodeKind::Pow:
        return sc::pow(value(n.a, p), value(n.b, p));
      case NodeKind::Min:
        return sc::min(value(n.a, p), value(n.b, p));
      case NodeKind::Max:
        return sc::max(value(n.a, p), value(n.b, p));
      case NodeKind::Mod: {
        const T a = value(n.a, p), b = value(n.b, p);
        return a - b * sc::floor(a / b);
      }
      case NodeKind::Select: {
        const uint8_t c = truth(n.a, p);
        if (c == kTrue) return value(n.b, p);
        if (c == kFalse) return value(n.c, p);
        return sc::hull(value(n.b, p), value(n.c, p));
      }
      case NodeKind::IndexSelect:
        return number(n.slot, p) != 0.0 ? value(n.a, p) : value(n.b, p);
      default:
        return from_double<T>(truth(at, p) == kTrue ? 1.0 : 0.0);
    }
  }

  uint8_t truth(int64_t at, size_t p) const {
    const Node& n = s_.nodes[static_cast<size_t>(at)];
    switch (n.kind) {
      case NodeKind::Compare:
        return truth_for(sc::orderings(value(n.a, p), value(n.b, p)),
                         holding_orderings(static_cast<CompareOp>(n.slot)));
      case NodeKind::And:
        return truth_and(truth(n.a, p), truth(n.b, p));
      case NodeKind::Or:
        return truth_or(truth(n.a, p), truth(n.b, p));
      case NodeKind::Xor: {
        const uint8_t a = truth(n.a, p), b = truth(n.b, p);
        return a == kUnknown || b == kUnknown ? kUnknown : truth_of(a != b);
      }
      case NodeKind::Not:
        return truth_not(truth(n.a, p));
      case NodeKind::Number:
        return truth_of(number(n.slot, p) != 0.0);
      case NodeKind::IndexSelect:
        return number(n.slot, p) != 0.0 ? truth(n.a, p) : truth(n.b, p);
      default:
        return kUnknown;  // a real where a truth value is needed: never built
    }
  }

 private:
  double number(int64_t slot, size_t p) const {
    const std::vector<double>& t = s_.tables[static_cast<size_t>(slot)];
    return t.size() == 1 ? t[0] : t[p];
  }
  const T& read(const Read& r, size_t p) const {
    const int64_t offset = r.offsets[p], tensor = r.tensors[r.tensors.size() == 1 ? 0 : p];
    if (tensor >= 0) return inputs_[static_cast<size_t>(tensor)][offset];
    return outputs_[static_cast<size_t>(-1 - tensor)][offset];
  }

  const Statement& s_;
  const std::vector<const T*>& inputs_;
  const std::vector<T*>& outputs_;
};

// The points of a statement grouped by target element (a counting sort, in loop
// order).
struct TargetGroups {
  std::vector<int64_t> begin;  // per element: its first point in `points`; the end last
  std::vector<int64_t> points;
};

inline TargetGroups group_by_target(const std::vector<int64_t>& targets, int64_t size) {
  TargetGroups g;
  g.begin.assign(static_cast<size_t>(size) + 1, 0);
  for (int64_t t : targets) ++g.begin[static_cast<size_t>(t) + 1];
  for (size_t k = 1; k < g.begin.size(); ++k) g.begin[k] += g.begin[k - 1];
  std::vector<int64_t> next(g.begin.begin(), g.begin.end() - 1);
  g.points.resize(targets.size());
  for (size_t p = 0; p < targets.size(); ++p)
    g.points[static_cast<size_t>(next[static_cast<size_t>(targets[p])]++)] = static_cast<int64_t>(p);
  return g;
}

// The accumulation of one element's terms onto its start value: a whole sum or
// product at once through ScalarOps (so that an enclosure sees every term of
// it), min and max term by term (exact in every scalar).
template <Scalar T, class Term>
T accumulate(Assign op, int64_t n, Term&& term, const T& start) {
  switch (op) {
    case Assign::Add:
      return ScalarOps<T>::sum(n, term, start);
    case Assign::Mul:
      return ScalarOps<T>::prod(n + 1, [&](int64_t k) { return k == 0 ? start : term(k - 1); });
    case Assign::Min:
    case Assign::Max: {
      T acc = start;
      for (int64_t k = 0; k < n; ++k) acc = op == Assign::Min ? sc::min(acc, term(k)) : sc::max(acc, term(k));
      return acc;
    }
    case Assign::Set:
      break;
  }
  return start;
}

// The null element of an accumulation (§2.11): its start where no `=` wrote the
// element.
template <Scalar T>
T null_element(Assign op) {
  const double inf = std::numeric_limits<double>::infinity();
  return from_double<T>(op == Assign::Mul ? 1.0 : op == Assign::Min ? inf : op == Assign::Max ? -inf : 0.0);
}

template <Scalar T>
void run_statement(const Statement& s, const std::vector<const T*>& inputs, const std::vector<T*>& outputs,
                   int64_t output_size, std::vector<uint8_t>& written) {
  const StatementValue<T> v(s, inputs, outputs);
  T* out = outputs[static_cast<size_t>(s.output)];
  if (s.op == Assign::Set) {
    for (size_t p = 0; p < s.targets.size(); ++p) {
      out[s.targets[p]] = v.value(s.root, p);
      written[static_cast<size_t>(s.targets[p])] = 1;
    }
    return;
  }
  const TargetGroups g = group_by_target(s.targets, output_size);
  for (int64_t t = 0; t < output_size; ++t) {
    const int64_t first = g.begin[static_cast<size_t>(t)], n = g.begin[static_cast<size_t>(t) + 1] - first;
    if (n == 0 && written[static_cast<size_t>(t)]) continue;
    const T start = written[static_cast<size_t>(t)] ? out[t] : null_element<T>(s.op);
    out[t] = accumulate<T>(
        s.op, n,
        [&](int64_t k) { return v.value(s.root, static_cast<size_t>(g.points[static_cast<size_t>(first + k)])); },
        start);
    written[static_cast<size_t>(t)] = 1;
  }
}

}  // namespace contract_detail

// Whether the program is well formed (attr.contract.program), or why not.
inline std::string contract_fault(const contract::Program& p) {
  for (size_t k = 0; k < p.statements.size(); ++k) {
    const std::string why = contract_detail::statement_fault(p, p.statements[k]);
    if (!why.empty()) return "statement " + std::to_string(k) + " " + why;
  }
  return {};
}

// Inputs: the operands the program was built for, at its shapes; the outputs:
// its declared shapes.
template <class Dim>
std::optional<ShapeOut<Dim>> shape_rule(const ContractAttrs& a, const std::vector<Dims<Dim>>& inputs,
                                        ObligationSink<Dim>& sink) {
  const std::optional<contract::Program> p = contract::decode(a.program);
  if (!p || p->inputs.size() != static_cast<size_t>(a.inputs)) {
    sink.require(false, kContractProgram, "contract: the program does not decode");
    return std::nullopt;
  }
  const std::string fault = contract_fault(*p);
  sink.require(fault.empty(), kContractProgram, "contract: " + fault);
  for (size_t j = 0; j < inputs.size(); ++j) {
    const std::vector<int64_t>& want = p->inputs[j];
    if (inputs[j].size() != want.size()) {
      sink.require(false, kContractOperand,
                   "contract: operand " + std::to_string(j) + " has rank " + std::to_string(inputs[j].size()) +
                       ", the program's " + std::to_string(want.size()));
      return std::nullopt;
    }
    for (size_t k = 0; k < want.size(); ++k)
      sink.require(inputs[j][k] == Dim(want[k]), kContractOperand,
                   "contract: operand " + std::to_string(j) + " axis " + std::to_string(k) + " must have extent " +
                       std::to_string(want[k]));
  }
  ShapeOut<Dim> out;
  for (const std::vector<int64_t>& shape : p->outputs) {
    Dims<Dim> d;
    for (int64_t e : shape) d.push_back(Dim(e));
    out.outputs.push_back(std::move(d));
  }
  return out;
}

// The statements in order, over flat row-major buffers (the oracle's tensors,
// the fast path's slots).
template <Scalar T>
void run_contract(const contract::Program& p, const std::vector<const T*>& inputs, const std::vector<T*>& outputs) {
  std::vector<std::vector<uint8_t>> written;
  for (const auto& shape : p.outputs) written.emplace_back(static_cast<size_t>(contract::element_count(shape)), 0);
  for (const contract::Statement& s : p.statements) {
    const size_t k = static_cast<size_t>(s.output);
    contract_detail::run_statement<T>(s, inputs, outputs, contract::element_count(p.outputs[k]), written[k]);
  }
}

// For each statement `target op= value` in order: `=` writes value at every
// point; an accumulation gives each target element start ∘ value(p₁) ∘ … ∘
// value(pₙ) over the points writing it, start being the element's value from an
// earlier `=`, else the operator's null element.
template <Scalar T>
void evaluate(const Checked<ContractAttrs>& op, const OpIO<T>& io) {
  const contract::Program p = *contract::decode(op.attrs().program);
  std::vector<const T*> inputs;
  for (size_t j = 0; j < io.inputs.size(); ++j) inputs.push_back(io.in(j).data().data());
  std::vector<T*> outputs;
  for (size_t k = 0; k < io.outputs.size(); ++k) outputs.push_back(io.out(k).data().data());
  run_contract<T>(p, inputs, outputs);
}

}  // namespace nnref

#include "formats/nnef2_model/builder.hpp"

#include <algorithm>

#include "semantics/node_rule.hpp"
#include "spec/size_program.hpp"

namespace nnref::nnef2 {

ElemKind kind_of(ElemType t) {
  return t == ElemType::Int ? ElemKind::Integer : t == ElemType::Bool ? ElemKind::Logical : ElemKind::Real;
}
ElemType type_of(ElemKind k) {
  return k == ElemKind::Integer ? ElemType::Int : k == ElemKind::Logical ? ElemType::Bool : ElemType::Real;
}

Val Builder::add_tensor(Tensor t) {
  tensors_.push_back(std::move(t));
  const Tensor& added = tensors_.back();
  return Val::of_tensor(static_cast<int64_t>(tensors_.size() - 1), added.shape, type_of(added.kind));
}

std::string Builder::fresh_name(const std::string& base) {
  std::string name = base;
  for (int k = 2; std::find(used_.begin(), used_.end(), name) != used_.end(); ++k)
    name = base + "_" + std::to_string(k);
  used_.push_back(name);
  return name;
}

std::vector<int64_t> Builder::extents_program(const std::vector<int64_t>& code, std::vector<int64_t>& handles) const {
  std::vector<int64_t> out;
  for (size_t i = 0; i < code.size(); i += token_width(code[i])) {
    if (code[i] != size_code::kExtent) {
      out.insert(out.end(), code.begin() + static_cast<long>(i), code.begin() + static_cast<long>(i + token_width(code[i])));
      continue;
    }
    const int64_t h = code[i + 1], axis = code[i + 2];
    const Tensor& t = tensor(h);
    if (!t.ref) {
      out.insert(out.end(), {size_code::kConstant, t.shape.at(static_cast<size_t>(axis))});
      continue;
    }
    const auto at = std::find(handles.begin(), handles.end(), h);
    out.insert(out.end(), {size_code::kExtent, at - handles.begin(), axis});
    if (at == handles.end()) handles.push_back(h);
  }
  return out;
}

ValueRef Builder::materialise(const Val& v) {
  Tensor& t = tensors_.at(static_cast<size_t>(v.tensor));
  if (t.ref) return *t.ref;
  const std::string name = fresh_name(t.label);
  const int64_t id = model_.graph.add(name, ConstAttrs{t.shape, t.kind}, {}, t.loc);
  if (t.data) model_.payload.set(name, "value", *t.data);
  model_.param_keys[{name, "value"}] = t.label;
  t.ref = ValueRef{id, 0};
  return *t.ref;
}

void Builder::bind_param(const Val& variable, const std::string& role) {
  const Tensor& t = tensor(variable);
  const std::string& node = model_.graph.nodes.back().name;
  model_.param_keys[{node, role}] = t.label;
  if (t.data) model_.payload.set(node, role, *t.data);
}

void Builder::bind_constant(const std::string& role, std::vector<double> values) {
  const std::string& node = model_.graph.nodes.back().name;
  const int64_t n = static_cast<int64_t>(values.size());
  model_.param_keys[{node, role}] = node + "." + role;
  model_.payload.set(node, role,
                     ParamEntry{HostTensor{DType::F64, Shape::make({n}).value(), std::move(values)}, "nnef2"});
}

Val Builder::scalar(const std::string& name, ElemKind kind, double value) {
  Tensor t;
  t.kind = kind;
  t.label = name;
  t.loc = loc_;
  t.data = ParamEntry{HostTensor{DType::F64, Shape::make({}).value(), {value}}, "nnef2"};
  return add_tensor(std::move(t));
}

std::vector<Val> Builder::add_node(const std::string& name, OpAttrs attrs, const std::vector<Val>& inputs) {
  std::vector<ValueRef> refs;
  std::vector<ElemKind> kinds;
  std::vector<Dims<CDim>> dims;
  for (const Val& v : inputs) {
    refs.push_back(materialise(v));
    kinds.push_back(tensor(v).kind);
    const std::vector<int64_t>& shape = tensor(v).shape;
    dims.emplace_back(shape.begin(), shape.end());
  }
  ConcreteSink sink;
  const auto out = node_obligations<CDim>(attrs, kinds, dims, sink);
  const std::string op = op_name(attrs);
  if (!sink.ok()) {
    const Failure& first = sink.failures()[0];
    refuse(std::string(first.obligation->code), "nnref's " + op + ": " + first.message);
  }
  if (!out) refuse("nnef2.internal", "nnref's " + op + ": the shape rule gave no result");
  const ElemKind result = std::visit([](const auto& a) { return op_signature(a).result; }, attrs);
  const int64_t id = model_.graph.add(fresh_name(name), std::move(attrs), std::move(refs), loc_);
  std::vector<Val> values;
  for (size_t k = 0; k < out->outputs.size(); ++k) {
    Tensor t;
    t.ref = ValueRef{id, static_cast<int>(k)};
    t.kind = result;
    for (const CDim& d : out->outputs[k]) t.shape.push_back(d.v);
    t.loc = loc_;
    values.push_back(add_tensor(std::move(t)));
  }
  return values;
}

}  // namespace nnref::nnef2

// Small ONNX models built in the test with the onnx package's protobuf classes, written to a
// scratch folder, read by nnref's front-end and evaluated by the f64 oracle.
#pragma once

#include <onnx/onnx_pb.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "formats/model.hpp"
#include "semantics/evaluate.hpp"

namespace nnref::test {

class OnnxModel {
 public:
  explicit OnnxModel(int64_t opset = 13) {
    m_.set_ir_version(8);
    auto* o = m_.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
    m_.mutable_graph()->set_name("g");
  }
  onnx::GraphProto& graph() { return *m_.mutable_graph(); }
  onnx::ModelProto& proto() { return m_; }

  // Dims as text: a number is a dim_value, anything else a dim_param.
  void input(const std::string& name, const std::vector<std::string>& dims,
             int32_t type = onnx::TensorProto::FLOAT) {
    value_info(graph().add_input(), name, dims, type);
  }
  void output(const std::string& name, const std::vector<std::string>& dims = {}, bool with_shape = false) {
    value_info(graph().add_output(), name, dims, onnx::TensorProto::FLOAT, with_shape);
  }
  void declare(const std::string& name, const std::vector<std::string>& dims) {
    value_info(graph().add_value_info(), name, dims, onnx::TensorProto::FLOAT, true);
  }
  onnx::TensorProto* init(const std::string& name, const std::vector<int64_t>& dims, const std::vector<float>& v) {
    onnx::TensorProto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims) t->add_dims(d);
    for (float x : v) t->add_float_data(x);
    return t;
  }
  void ints(const std::string& name, const std::vector<int64_t>& v) {
    onnx::TensorProto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::INT64);
    t->add_dims(static_cast<int64_t>(v.size()));
    for (int64_t x : v) t->add_int64_data(x);
  }
  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out,
                        const std::string& name = "") {
    onnx::NodeProto* n = graph().add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (const auto& i : in) n->add_input(i);
    for (const auto& o : out) n->add_output(o);
    return *n;
  }
  void write(const std::filesystem::path& p) const {
    std::ofstream f(p, std::ios::binary);
    m_.SerializeToOstream(&f);
  }

 private:
  static void value_info(onnx::ValueInfoProto* v, const std::string& name, const std::vector<std::string>& dims,
                         int32_t type, bool with_shape = true) {
    v->set_name(name);
    auto* tt = v->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(type);
    if (!with_shape) return;
    auto* shape = tt->mutable_shape();
    for (const auto& d : dims) {
      auto* dim = shape->add_dim();
      if (!d.empty() && d.find_first_not_of("0123456789") == std::string::npos) dim->set_dim_value(std::stoll(d));
      else dim->set_dim_param(d);
    }
  }
  onnx::ModelProto m_;
};

inline void set_int(onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}
inline void set_float(onnx::NodeProto& n, const std::string& name, float v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}
inline void set_ints(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}
inline void set_string(onnx::NodeProto& n, const std::string& name, const std::string& v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(v);
}

// A node of a subgraph (a Loop's or Scan's body, an If's branch) with one output.
inline onnx::NodeProto& body_node(onnx::GraphProto& g, const std::string& op, const std::vector<std::string>& in,
                                  const std::string& out) {
  onnx::NodeProto* n = g.add_node();
  n->set_op_type(op);
  for (const auto& i : in) n->add_input(i);
  n->add_output(out);
  return *n;
}

// An int64 initializer of any shape (OnnxModel::ints is 1-D).
inline void ints_of(OnnxModel& m, const std::string& name, const std::vector<int64_t>& dims,
                    const std::vector<int64_t>& v) {
  onnx::TensorProto* t = m.graph().add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : dims) t->add_dims(d);
  for (int64_t x : v) t->add_int64_data(x);
}

inline HostTensor host(const std::vector<int64_t>& dims, std::vector<double> v) {
  return HostTensor{DType::F64, Shape::make(dims).value(), std::move(v)};
}

// The model written to `path`, loaded; fails the test with its diagnostics when it does not load.
inline Model load_onnx(const OnnxModel& m, const std::filesystem::path& path, const LoadOptions& options = {}) {
  m.write(path);
  LoadResult r = load_model(path.string(), options);
  std::string diags;
  for (const auto& d : r.diagnostics) diags += format_diagnostic(d) + "\n";
  INFO(diags);
  REQUIRE(r.model);
  return std::move(*r.model);
}

// The model's outputs in f64 for the inputs, in graph input order.
inline std::vector<Tensor<double>> run_f64(const Model& m, const std::vector<HostTensor>& inputs) {
  auto r = evaluate<double>(m.graph, m.payload, inputs, EvalOptions{});
  INFO((r ? std::string() : format_diagnostic(r.error())));
  REQUIRE(r);
  return std::move(r).value();
}

// The diagnostics of loading the model written to `path`.
inline std::vector<Diagnostic> load_errors(const OnnxModel& m, const std::filesystem::path& path,
                                           const LoadOptions& options = {}) {
  m.write(path);
  return load_model(path.string(), options).diagnostics;
}

inline const Diagnostic* find_code(const std::vector<Diagnostic>& ds, const std::string& code) {
  for (const auto& d : ds)
    if (d.code == code) return &d;
  return nullptr;
}

}  // namespace nnref::test

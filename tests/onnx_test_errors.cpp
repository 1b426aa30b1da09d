// Every error of the ONNX reader, each from a malformed or unsupported model built here: its code,
// and a message naming the op, the node and the opset where there is a node.
#include <fstream>

#include "cli_test_support.hpp"
#include "formats/onnx/tensor_proto.hpp"
#include "onnx_test_support.hpp"
#include "temp_dir.hpp"

using namespace nnref;
using namespace nnref::test;
namespace fs = std::filesystem;

namespace {

// The first error of loading m, which must have the code.
Diagnostic first_error(const OnnxModel& m, const fs::path& path, const std::string& code) {
  auto ds = load_errors(m, path);
  std::string all;
  for (const auto& d : ds) all += format_diagnostic(d) + "\n";
  INFO(all);
  const Diagnostic* d = find_code(ds, code);
  REQUIRE(d != nullptr);
  return *d;
}

// X [2, 3] → one node of `op` → Y.
OnnxModel one_node(const std::string& op, std::vector<std::string> inputs = {"X"}, int64_t opset = 13) {
  OnnxModel m(opset);
  m.input("X", {"2", "3"});
  m.node(op, inputs, {"Y"}, "the_node");
  m.output("Y");
  return m;
}

}  // namespace

TEST_CASE("onnx errors: files that are not ONNX models") {
  TempDir tmp("onnx_err_file");
  std::ofstream(tmp / "junk.onnx", std::ios::binary) << std::string("\x0a\xff\xff\xff\xff\x0f", 6);
  Run junk = nnref_cli({"check", (tmp / "junk.onnx").string()});
  CHECK(junk.code == 1);
  CHECK(junk.err.find("error[onnx.parse]") != std::string::npos);
  onnx::ModelProto empty;
  {
    std::ofstream f(tmp / "empty.onnx", std::ios::binary);
    empty.SerializeToOstream(&f);
  }
  Run nograph = nnref_cli({"run", (tmp / "empty.onnx").string(), "--input", "x.npy"});
  CHECK(nograph.code == 1);
  CHECK(nograph.err.find("error[onnx.parse]") != std::string::npos);
  CHECK(nograph.err.find("holds no graph") != std::string::npos);
  CHECK(nnref_cli({"check", (tmp / "absent.onnx").string()}).code == 2);
  LoadOptions tiny;
  tiny.max_memory = 4;
  CHECK(load_model((tmp / "junk.onnx").string(), tiny).diagnostics.at(0).code == "size.budget");
}

TEST_CASE("onnx errors: opsets and domains") {
  TempDir tmp("onnx_err_opset");
  CHECK(first_error(one_node("Relu", {"X"}, 99), tmp / "m.onnx", "onnx.opset-unsupported").message.find("opset 99") !=
        std::string::npos);
  OnnxModel custom = one_node("Relu");
  custom.graph().mutable_node(0)->set_domain("com.example");
  Diagnostic d = first_error(custom, tmp / "m.onnx", "onnx.domain-unsupported");
  CHECK(d.node == "the_node");
  CHECK(d.message.find("Relu node 'the_node' (domain 'com.example')") != std::string::npos);
}

TEST_CASE("onnx errors: an op nnref does not read names the op, the node and the opset, at the node") {
  TempDir tmp("onnx_err_op");
  OnnxModel m = one_node("Relu");
  m.node("Bernoulli", {"Y"}, {"Z"}, "bernoulli1");
  m.graph().mutable_output(0)->set_name("Z");
  Diagnostic d = first_error(m, tmp / "m.onnx", "onnx.op-unsupported");
  CHECK(d.message.find("Bernoulli node 'bernoulli1' (opset 13)") != std::string::npos);
  CHECK(d.node == "bernoulli1");
  CHECK(d.loc.line == 2);  // the second node of graph.node
  for (const char* op : {"RandomUniformLike", "StringNormalizer", "SequenceEmpty"})
    first_error(one_node(op), tmp / "m.onnx", "onnx.op-unsupported");
}

TEST_CASE("onnx errors: attributes nnref does not read, of the wrong type, or with wrong values") {
  TempDir tmp("onnx_err_attr");
  OnnxModel unknown = one_node("Relu");
  set_int(*unknown.graph().mutable_node(0), "frobnicate", 1);
  CHECK(first_error(unknown, tmp / "m.onnx", "onnx.attribute-unsupported").message.find("frobnicate") !=
        std::string::npos);
  // ceil_mode with count_include_pad: ONNX's divisor there (the window clipped to the padded input)
  // is not the IR's Constant border's (the whole window).
  OnnxModel ceil = one_node("AveragePool");
  ceil.graph().mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(4);
  set_ints(*ceil.graph().mutable_node(0), "kernel_shape", {2});
  set_int(*ceil.graph().mutable_node(0), "ceil_mode", 1);
  set_int(*ceil.graph().mutable_node(0), "count_include_pad", 1);
  CHECK(first_error(ceil, tmp / "m.onnx", "onnx.attribute-unsupported").message.find("count_include_pad") !=
        std::string::npos);
  OnnxModel typed = one_node("LeakyRelu");
  set_int(*typed.graph().mutable_node(0), "alpha", 1);
  first_error(typed, tmp / "m.onnx", "onnx.attribute-type");
  OnnxModel pads = one_node("Conv", {"X", "W"});
  pads.init("W", {1, 2, 1}, {1, 1});
  set_ints(*pads.graph().mutable_node(0), "pads", {1, 1, 1});
  first_error(pads, tmp / "m.onnx", "onnx.attribute-value");
}

TEST_CASE("onnx errors: ConvTranspose attributes out of range") {
  TempDir tmp("onnx_err_conv_transpose");
  const auto with = [](const std::string& name, std::vector<int64_t> v) {
    OnnxModel m(13);
    m.input("X", {"1", "1", "3"});
    m.init("W", {1, 1, 2}, {1, 1});
    set_ints(m.node("ConvTranspose", {"X", "W"}, {"Y"}, "the_node"), name, std::move(v));
    m.output("Y");
    return m;
  };
  first_error(with("output_padding", {-1}), tmp / "m.onnx", "onnx.attribute-value");
  first_error(with("output_shape", {1, 5}), tmp / "m.onnx", "onnx.attribute-value");
  first_error(with("strides", {1, 1}), tmp / "m.onnx", "onnx.attribute-value");
  first_error(with("strides", {int64_t{1} << 40}), tmp / "m.onnx", "onnx.attribute-value");
  first_error(with("pads", {0, -1}), tmp / "m.onnx", "onnx.attribute-value");
  // A weight that is not given at all: located, never read past the node's inputs.
  for (const char* op : {"Conv", "ConvTranspose"})
    CHECK(first_error(one_node(op), tmp / "m.onnx", "onnx.input-missing").message.find("the weight W (input 1)") !=
          std::string::npos);
  OnnxModel w = one_node("ConvTranspose", {"X", "W"});
  w.input("W", {"2", "1", "1"});
  CHECK(first_error(w, tmp / "m.onnx", "onnx.input-not-constant").message.find("'W'") != std::string::npos);
}

TEST_CASE("onnx errors: inputs that are missing, not constant where nnref reads them, or of the wrong type") {
  TempDir tmp("onnx_err_inputs");
  first_error(one_node("Add", {"X", ""}), tmp / "m.onnx", "onnx.input-missing");
  OnnxModel w = one_node("Conv", {"X", "W"});
  w.input("W", {"1", "2", "1"});
  CHECK(first_error(w, tmp / "m.onnx", "onnx.input-not-constant").message.find("'W'") != std::string::npos);
  OnnxModel shape = one_node("Reshape", {"X", "s"});
  shape.init("s", {2}, {3, 2});
  first_error(shape, tmp / "m.onnx", "onnx.input-type");
  OnnxModel old_split = one_node("Split", {"X", "X"}, 1);
  first_error(old_split, tmp / "m.onnx", "onnx.input-unsupported");
  OnnxModel ints = one_node("Add", {"X", "k"});
  ints.ints("k", {1, 2, 3});
  first_error(ints, tmp / "m.onnx", "onnx.type-unsupported");
}

TEST_CASE("onnx errors: graph inputs without a shape, with a negative extent or not float") {
  TempDir tmp("onnx_err_graph_inputs");
  OnnxModel noshape;
  noshape.node("Relu", {"X"}, {"Y"});
  noshape.output("Y");
  auto* in = noshape.graph().add_input();
  in->set_name("X");
  in->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  first_error(noshape, tmp / "m.onnx", "onnx.input-shape");
  OnnxModel negative;
  negative.input("X", {"2"});
  negative.graph().mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(-2);
  negative.node("Relu", {"X"}, {"Y"});
  negative.output("Y");
  first_error(negative, tmp / "m.onnx", "onnx.input-shape");
  OnnxModel integer;
  integer.input("X", {"2"}, onnx::TensorProto::INT64);
  integer.node("Relu", {"X"}, {"Y"});
  integer.output("Y");
  first_error(integer, tmp / "m.onnx", "onnx.type-unsupported");
}

TEST_CASE("onnx errors: shapes nnref cannot translate, outputs it does not compute, names nothing defines") {
  TempDir tmp("onnx_err_shapes");
  // An empty slice read as data (an empty value, which Reduce would make an element of).
  OnnxModel empty = one_node("Slice", {"X", "s", "e"});
  empty.ints("s", {0});
  empty.ints("e", {0});
  empty.node("ReduceMax", {"Y"}, {"Z"});
  empty.graph().mutable_output(0)->set_name("Z");
  first_error(empty, tmp / "m.onnx", "onnx.shape-unsupported");
  // Squeeze without axes needs the extents, which are symbolic.
  OnnxModel symbolic;
  symbolic.input("X", {"N", "3"});
  symbolic.node("Squeeze", {"X"}, {"Y"});
  symbolic.output("Y");
  first_error(symbolic, tmp / "m.onnx", "onnx.shape-unsupported");
  // A Transpose of [2, 3] by a permutation of three axes has no shape; the Flatten after it needs
  // its rank.
  OnnxModel unknown = one_node("Transpose");
  set_ints(*unknown.graph().mutable_node(0), "perm", {0, 1, 2});
  unknown.node("Flatten", {"Y"}, {"Z"});
  unknown.graph().mutable_output(0)->set_name("Z");
  first_error(unknown, tmp / "m.onnx", "onnx.shape-unknown");
  // Add of [2, 3] and [4] breaks its rule, but its rank is that of its operands: the Transpose
  // after it is read, and `check` reports the broadcast.
  OnnxModel ranked = one_node("Add", {"X", "B"});
  ranked.init("B", {4}, {1, 2, 3, 4});
  ranked.node("Transpose", {"Y"}, {"Z"});
  ranked.graph().mutable_output(0)->set_name("Z");
  CHECK(load_errors(ranked, tmp / "m.onnx").empty());
  OnnxModel mask;  // Dropout's mask over a symbolic extent, which nnref does not compute
  mask.input("X", {"n", "1", "4"});
  mask.node("Dropout", {"X"}, {"Y", "M"});
  mask.output("M");
  first_error(mask, tmp / "m.onnx", "onnx.output-unsupported");
  first_error(one_node("Add", {"X", "nowhere"}), tmp / "m.onnx", "onnx.value-undefined");
  OnnxModel no_output = one_node("Relu");
  no_output.graph().mutable_output(0)->set_name("missing");
  first_error(no_output, tmp / "m.onnx", "onnx.value-undefined");
  OnnxModel sizes = one_node("Split", {"X", "parts"});
  sizes.ints("parts", {1, 1});
  sizes.graph().mutable_node(0)->add_output("Y2");
  set_int(*sizes.graph().mutable_node(0), "axis", 1);
  first_error(sizes, tmp / "m.onnx", "onnx.split-sizes");
}

TEST_CASE("onnx errors: initializers that are malformed or of types nnref does not read") {
  TempDir tmp("onnx_err_tensors");
  auto with_init = [](auto&& fill) {
    OnnxModel m = one_node("Add", {"X", "B"});
    onnx::TensorProto* t = m.graph().add_initializer();
    t->set_name("B");
    t->set_data_type(onnx::TensorProto::FLOAT);
    t->add_dims(3);
    fill(*t);
    return m;
  };
  first_error(with_init([](onnx::TensorProto& t) { t.set_data_type(onnx::TensorProto::STRING); }), tmp / "m.onnx",
              "onnx.tensor-type-unsupported");
  first_error(with_init([](onnx::TensorProto& t) { t.set_dims(0, -3); }), tmp / "m.onnx", "onnx.tensor-shape");
  first_error(with_init([](onnx::TensorProto& t) { t.add_float_data(1); }), tmp / "m.onnx", "onnx.tensor-data-size");
  first_error(with_init([](onnx::TensorProto& t) { t.set_raw_data(std::string(11, '\0')); }), tmp / "m.onnx",
              "onnx.tensor-data-size");
  // An integer beyond 2^53 is read where the model is read (Slice's INT64_MAX ends), not as data.
  OnnxModel beyond(13);
  beyond.node("Identity", {"B"}, {"Y"}, "the_node");
  beyond.output("Y");
  onnx::TensorProto* big = beyond.graph().add_initializer();
  big->set_name("B");
  big->set_data_type(onnx::TensorProto::INT64);
  big->add_dims(1);
  big->add_int64_data((int64_t{1} << 60) + 1);
  CHECK(first_error(beyond, tmp / "m.onnx", "onnx.tensor-integer-range").message.find("beyond 2^53") !=
        std::string::npos);
  OnnxModel unsigned64(13);
  unsigned64.node("Identity", {"B"}, {"Y"}, "the_node");
  unsigned64.output("Y");
  onnx::TensorProto* u = unsigned64.graph().add_initializer();
  u->set_name("B");
  u->set_data_type(onnx::TensorProto::UINT64);
  u->add_dims(1);
  u->add_uint64_data(uint64_t{1} << 63);
  first_error(unsigned64, tmp / "m.onnx", "onnx.tensor-integer-range");
  // An element count beyond the memory budget is refused before anything is allocated.
  OnnxModel huge = with_init([](onnx::TensorProto& t) {
    t.set_dims(0, int64_t{1} << 40);
    t.set_raw_data("tiny");
  });
  huge.write(tmp / "huge.onnx");
  CHECK(load_model((tmp / "huge.onnx").string(), LoadOptions{}).diagnostics.at(0).code == "size.budget");
}

TEST_CASE("onnx errors: check --explain knows the codes") {
  for (const char* code : {"onnx.op-unsupported", "onnx.external-data", "pb.parse"}) {
    Run r = nnref_cli({"check", "--explain", code});
    CHECK(r.code == 0);
    CHECK(r.out.find("docs/onnx.md") != std::string::npos);
  }
}

TEST_CASE("onnx errors: a .pb tensor file's errors have the pb. prefix") {
  TempDir tmp("onnx_err_pb");
  auto code_of = [&](auto&& fill) {
    onnx::TensorProto t;
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_dims(2);
    fill(t);
    {
      std::ofstream f(tmp / "t.pb", std::ios::binary);
      t.SerializeToOstream(&f);
    }
    auto r = onnx_format::read_tensor_file((tmp / "t.pb").string());
    return r ? std::string() : r.error().code;
  };
  CHECK(code_of([](onnx::TensorProto& t) {
          t.add_float_data(1);
          t.add_float_data(2);
        }).empty());
  CHECK(code_of([](onnx::TensorProto& t) { t.set_data_type(onnx::TensorProto::COMPLEX64); }) ==
        "pb.tensor-type-unsupported");
  CHECK(code_of([](onnx::TensorProto& t) { t.set_dims(0, -1); }) == "pb.tensor-shape");
  CHECK(code_of([](onnx::TensorProto& t) { t.add_float_data(1); }) == "pb.tensor-data-size");
  CHECK(code_of([](onnx::TensorProto& t) {
          t.set_data_type(onnx::TensorProto::UINT64);
          t.add_uint64_data(uint64_t{1} << 63);
          t.add_uint64_data(0);
        }) == "pb.tensor-integer-range");
  CHECK(code_of([](onnx::TensorProto& t) { t.set_data_location(onnx::TensorProto::EXTERNAL); }) ==
        "pb.external-data");
  CHECK(onnx_format::read_tensor_file((tmp / "absent.pb").string()).error().code == "io.open-failed");
}

// The translation of one ONNX graph into the IR: a table of the ONNX values (each a graph value,
// a constant, or both), the nodes it emits with their shapes at the inputs' default extents, and
// the per-node context the op handlers (ops/) read: attributes, inputs, opset.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "formats/model.hpp"
#include "formats/onnx/tensor_proto.hpp"
#include "spec/diagnostic.hpp"

namespace nnref::onnx_format {

// A handler's refusal: becomes one located diagnostic, and the node's outputs are not defined.
struct Refusal {
  Diagnostic d;
};

// A value known when the model is read: an initializer, a Constant, or what an op computes
// exactly from such values (docs/onnx.md, "Constants"). Shared: a weight is not copied per use.
using ConstantPtr = std::shared_ptr<const ExactTensor>;

// An integer value computed from extents that are symbolic (PyTorch's Shape, Gather, Concat, Mul
// under dynamic axes): each element a term, a size program (spec/size_program.hpp) whose extent
// tokens `kExtent j k` name extent k of the graph value Importer::leaves_[j]. An op that takes
// sizes (Reshape) gets the program and those values as operands; read as data, it is a `sizes`
// node. Where an op takes its sizes from an integer value computed from data (NodeCtx::data_terms),
// a term `kElement j i` names element i of the graph value leaves_[j]; such terms are read only
// by the translation of the op that takes them, never moved by another op's.
struct SizeTerms {
  Shape shape;
  std::vector<std::vector<int64_t>> elements;  // row-major
};
using SizesPtr = std::shared_ptr<const SizeTerms>;

// A size program over some of the terms, the graph values it reads and their kinds (its operands).
struct SizeProgram {
  std::vector<int64_t> code;
  std::vector<ValueRef> sources;
  std::vector<ElemKind> kinds;
};

struct Value {
  std::optional<ValueRef> ref;  // in the graph (materialised on first use for a constant)
  ConstantPtr constant;
  SizesPtr sizes;
  std::string source;                   // its ONNX name
  ElemKind kind = ElemKind::Real;       // a graph value's IR kind (a constant's follows its dtype)
  // A graph value's ONNX element type where known: a graph input's, an integer or bool result's
  // (an integer's range matters to Cast); UNDEFINED (0) for a real that an op computes, whose
  // float type nnref does not keep.
  int32_t type = 0;
};

// The IR kind that holds an ONNX element type exactly, or nullopt (uint64: beyond int64; string,
// complex, bfloat16).
std::optional<ElemKind> kind_of_type(int32_t onnx_type);

class Importer;

// A value's shape at the inputs' default extents as the rules give it; not exact where a rule
// failed there (its extents mean nothing, its rank still holds).
struct KnownShape {
  std::vector<int64_t> dims;
  bool exact = true;
};

// What one ONNX node's handler sees.
class NodeCtx {
 public:
  NodeCtx(Importer& im, const onnx::NodeProto& n, std::string name, int64_t opset, SourceLoc loc);

  const onnx::NodeProto& proto() const { return n_; }
  int64_t opset() const { return opset_; }
  const std::string& name() const { return name_; }

  // Attributes; each read marks it known. finish() refuses any attribute no handler read.
  bool has_attr(const std::string& a);
  int64_t attr_int(const std::string& a, int64_t def);
  double attr_float(const std::string& a, double def);
  std::string attr_string(const std::string& a, const std::string& def);
  std::vector<int64_t> attr_ints(const std::string& a);
  const onnx::AttributeProto* attr(const std::string& a);

  // Inputs: present (given and not the empty name), as a graph value, as a constant.
  size_t input_count() const { return static_cast<size_t>(n_.input_size()); }
  bool has_input(size_t k) const;
  ValueRef data(size_t k);  // a real operand; an integer or logical one is onnx.type-unsupported
  // Input k as an operand of this kind (a constant materialised with it); any other kind is
  // onnx.type-unsupported.
  ValueRef operand(size_t k, ElemKind kind);
  ElemKind kind(size_t k) const;
  // The same of the value named `value` (a composition's part that is not one of the node's inputs).
  ValueRef operand_of(const std::string& value, ElemKind kind);
  ElemKind kind_of(const std::string& value) const;
  // The IR op that computes input k, or nullptr for a constant.
  const OpAttrs* producer(size_t k) const;
  // Input k's ONNX element type: a constant's, or a graph value's where known (Value::type).
  int32_t type(size_t k) const;
  const HostTensor* constant(size_t k) const;
  const HostTensor& require_constant(size_t k, const std::string& what);
  // Input k as a constant, integers exact; nullptr when it is not one.
  const ExactTensor* exact(size_t k) const;
  // Input k is an empty value: a tensor with an extent 0 known when the model is read (docs/onnx.md,
  // "Empty values"), held as a constant without elements, never as a graph value. emit gives an op
  // over one the empty value its rule gives, and refuses a result with elements.
  bool is_empty(size_t k) const;
  // Input k, one integer or bool that the graph computes from constants alone by real arithmetic
  // (formats/onnx/decided.hpp): the integer every correct runtime computes, refused by name
  // (onnx.value-undecided, `what` in the message) when they need not agree; nullopt when input k
  // is a constant, or depends on a graph input or a symbolic extent, or the load has no
  // LoadOptions::enclose_constants.
  std::optional<int64_t> decided(size_t k, const std::string& what);
  // Input k as terms computed from symbolic extents; nullptr when it is not such a value.
  const SizeTerms* sizes(size_t k) const;
  // Input k, when it is a graph input itself, noted as read at load without a refusal
  // (LoadResult::inputs_read_at_load): run and conform then read the model again with it bound to
  // the array given, so that what the node makes of it is known at load (ConstantOfShape's empty
  // value of a shape [0]); without one, the node reads it at run time.
  void bind_when_given(size_t k);
  // Input k as terms: a size value's, or an integer constant's (constant terms); nullptr else.
  SizesPtr terms(size_t k);
  // Input k as terms of an op that takes sizes when it is an integer value the graph computes from
  // the data of its inputs (an integer graph input, ArgMax, Cast of a real, arithmetic on them):
  // element i is `kElement leaf i`, which `run` evaluates and `check` refuses
  // (shape.data-dependent-size); nullptr for any other input (a constant, terms, a real value).
  SizesPtr data_terms(size_t k);
  // The elements of an integer value of the given shape that this translation emitted, as terms
  // of an op that takes sizes: numbers when it folded to a constant, else `kElement leaf i`, as
  // data_terms (NonZero's and Compress's counts of true elements).
  SizesPtr element_terms(const ValueRef& x, const Shape& shape);
  // Terms over the extents [start, end) of input k, as Shape reads them (a constant's: numbers).
  SizeTerms extents_of(size_t k, int64_t start, int64_t end);
  // Whether `term` is extent `axis` of input k itself, as extents_of gives it (PyTorch's
  // Shape(x)[axis] of the x an op reads): equal to it at every run.
  bool is_extent_of(const std::vector<int64_t>& term, size_t k, int64_t axis);
  // A term's value at the default extents (the rules' shapes of the values it reads); nullopt when
  // it reads an element of data, or a shape the rules do not give there.
  std::optional<int64_t> term_at_defaults(const std::vector<int64_t>& term) const;
  // The program of the given terms over their values (an op's computed sizes).
  SizeProgram program(const SizeTerms& t) const;
  std::vector<int64_t> int_list(size_t k, const std::string& what);
  std::vector<int64_t> shape(size_t k);  // at the default extents; refused when unknown
  // Its rank: known also where the default extents break a rule (a pool wider than an extent of 1).
  size_t rank(size_t k);
  // Its shape at the default extents where the rules give one, else nullopt.
  std::optional<std::vector<int64_t>> known_shape(size_t k);
  // The model's extents are all fixed (no dim_param and no unnamed dynamic extent): a shape read
  // at import holds for every run.
  bool extents_fixed() const;
  // Extent `axis` of input k as a number that holds for every run, which a translation needs when
  // it reads the model (an LSTM's sequence length); `what` names it in messages. Where it depends on
  // a size name the file leaves open, the load notes that name (LoadResult::sizes_needed_at_load)
  // and the node is refused (onnx.size-needed-at-load): run and conform read the model again with
  // the sizes their arrays give, check with each value of the --dim range (docs/architecture.md,
  // "Sizes fixed at load").
  int64_t fixed_extent(size_t k, int64_t axis, const std::string& what);
  // The one-element terms t as such a number: a constant, or a plain extent as fixed_extent reads
  // it (a Loop's trip count Shape(x)[0]); a computed program is onnx.shape-unsupported.
  int64_t fixed_size(const SizeTerms& t, const std::string& what);

  // A subgraph (the GRAPH attribute `a`, If's branches) read into the model as the main graph's
  // nodes are, its nodes reading outer values by name: the names of its outputs. A node of it that
  // nnref refuses refuses this node too (its own diagnostic given first).
  std::vector<std::string> subgraph(const std::string& a);
  // An ONNX node this one is made of (If's per-output Where or Identity), read as if the graph held
  // it at this node's place; refused with it when nnref refuses it.
  void add_node(const onnx::NodeProto& n);
  // The shape at the default extents of the value named `value`, where the rules give one.
  std::optional<std::vector<int64_t>> known_shape_of(const std::string& value);
  // The value named `value` as a constant (integers exact), or nullptr when it is not one.
  const ExactTensor* exact_value(const std::string& value) const;

  // Emits an IR node named after this ONNX node (suffix for the second and later of a composition).
  // An op that computes exactly (it moves elements, or its result is an integer or logical value)
  // from constants alone is evaluated here instead, and the result is a constant.
  ValueRef emit(const std::string& suffix, OpAttrs op, std::vector<ValueRef> inputs);
  int64_t emit_node(const std::string& suffix, OpAttrs op, std::vector<ValueRef> inputs);
  // A parameter of node `id` taken from input k (its ONNX name in messages): a constant, or a real
  // value computed from constants alone, which the node then reads as a computed parameter
  // (Node::param_values).
  void param(int64_t id, const std::string& role, size_t k);
  void param_tensor(int64_t id, const std::string& role, HostTensor t, const std::string& key);
  // A constant operand made by the translation itself.
  ValueRef literal(const std::string& suffix, HostTensor t);
  ValueRef literal(const std::string& suffix, ExactTensor t);  // integers exact beyond 2^53
  // Takes a constant of `count` elements that the translation makes (8 bytes each) from the memory
  // budget; size.budget when that exceeds what is left.
  void charge(int64_t count);
  // What is left of the memory budget, in bytes.
  int64_t budget_left() const;

  void set_output(size_t k, ValueRef v, ElemKind kind = ElemKind::Real, int32_t type = 0);
  void set_output_constant(size_t k, ExactTensor t);
  // Output k as the empty value of extents `dims` (one of them 0), of input `like`'s element type.
  void set_output_empty(size_t k, const std::vector<int64_t>& dims, size_t like);
  void set_output_sizes(size_t k, SizeTerms t);
  // Whether a later node or the graph reads output k.
  bool output_read(size_t k) const;
  // Refuses outputs beyond the first n that a later node or the graph reads.
  void only_outputs(size_t n);

  [[noreturn]] void refuse(const std::string& code, const std::string& message) const;
  void finish();

 private:
  // The element type of input k: a constant's, a graph value's ONNX type where known, else its kind's
  // widest (float32 for a real that an op computes).
  DType element_dtype(size_t k) const;
  // The name of node `id`, whose parameter `role` is the value `key` of that shape (noted in
  // Model::param_keys); an empty one is refused.
  const std::string& param_node(int64_t id, const std::string& role, const Shape& shape, const std::string& key);
  // emit of an op with an empty operand: the empty value (of the op's result kind) its rule gives;
  // a result with elements, or one that depends on symbolic extents, is onnx.shape-unsupported.
  // nullopt when no operand is empty.
  std::optional<ValueRef> empty_result(const OpAttrs& op, const std::vector<ValueRef>& inputs, const std::string& name);

  Importer& im_;
  const onnx::NodeProto& n_;
  std::string name_;
  int64_t opset_;
  SourceLoc loc_;
  std::set<std::string> read_attrs_;
  // extents_fixed() answered false: a refusal for want of fixed extents (onnx.shape-unsupported)
  // then names the model's size names as needed (Importer::add_node).
  mutable bool asked_unfixed_ = false;
  friend class Importer;
};

class Importer {
 public:
  // `bound`: values of graph inputs, read as initializers (LoadOptions::bound_inputs); it outlives run().
  // `fixed`: size names read as numbers (LoadOptions::fixed_sizes); it outlives run() too.
  // `enclose`: LoadOptions::enclose_constants, for NodeCtx::decided.
  Importer(Model& m, std::vector<Diagnostic>& diags, const std::map<std::string, HostTensor>* bound = nullptr,
           const std::map<std::string, int64_t>* fixed = nullptr, LoadOptions::EncloseConstants enclose = nullptr)
      : m_(m), diags_(diags), bound_(bound), fixed_(fixed), enclose_(enclose) {}

  // Inputs and initializers first, then the nodes in order, then the outputs and declared shapes.
  // `max_memory` bounds what the reader holds at once: the parsed graph g (each top-level initializer
  // released once read; a subgraph's stay, an unrolled Loop reads its body again), the constants,
  // and the payload (size.budget beyond it).
  void run(onnx::GraphProto& g, const std::map<std::string, int64_t>& opsets, const std::string& base_dir,
           int64_t max_memory);

  // LoadResult::inputs_read_at_load and declared_inputs.
  const std::vector<std::string>& inputs_read_at_load() const { return wanted_; }
  const std::vector<std::string>& declared_inputs() const { return declared_; }
  // LoadResult::sizes_needed_at_load and size_axes.
  const std::vector<std::string>& sizes_needed_at_load() const { return needed_; }
  const std::vector<SizeAxis>& size_axes() const { return size_axes_; }

 private:
  friend class NodeCtx;
  void add_input(const onnx::ValueInfoProto& v);
  // A graph input with an extent 0: an empty value (NodeCtx::is_empty), noted as read at load so that
  // run and conform bind the array given for it (add_bound_input checks its type and shape).
  void add_empty_input(const onnx::ValueInfoProto& v, const std::vector<int64_t>& dims,
                       const std::vector<std::string>& size_names);
  // A graph output that is an empty value: Model::empty_outputs, with a note saying what that means.
  void add_empty_output(const std::string& name, const Shape& shape);
  // Model::source_values: each top-level node output and the IR value that holds it.
  void note_source_values(const onnx::GraphProto& g);
  // A graph input given a value at load: a constant, as an initializer is; false (the diagnostic
  // given) when the value does not have the declared type and extents.
  bool add_bound_input(const onnx::ValueInfoProto& v, const HostTensor& t);
  // The graph inputs r is computed from, noted as read at load time (wanted_); a clause for a
  // refusal's message saying that run and conform bind them, or "" when there is none.
  std::string want_inputs_of(const ValueRef& r);
  void add_node(const onnx::NodeProto& n, size_t index, const std::map<std::string, int64_t>& opsets);
  // A subgraph's initializers and nodes, located at the node `index` that holds it: its output names.
  std::vector<std::string> add_subgraph(const onnx::GraphProto& g, size_t index);
  // Each value that g's nodes (and its subgraphs' nodes) read, and its outputs: read_later_.
  void note_reads(const onnx::GraphProto& g);
  // The ExactTensor of an initializer, into values_; false (the diagnostic given) when it is not read.
  bool add_initializer(const onnx::TensorProto& init);
  // A payload entry whose values are `constant`'s: copied into the payload by fill_payload.
  void defer_param(const std::string& node, const std::string& role, ConstantPtr constant, const std::string& key);
  // The deferred entries into the payload: at the end of run(), when the importer holds no other
  // reference to the constants, each copy replaces its constant, so the two are not held together;
  // before an enclosure at load (NodeCtx::decided) reads the payload, both are held, and charged.
  void fill_payload();
  void declare(const onnx::ValueInfoProto& v);
  ValueRef materialise(Value& v, ElemKind kind = ElemKind::Real);
  // Constants reach the ops a handler emits as handles (a ValueRef with a negative node, into
  // handles_), so that an op computing exactly from constants is folded (fold.cpp), and a const
  // node is made only for an operand of a node the graph keeps.
  ValueRef handle(ConstantPtr t, ElemKind kind, Value* origin, std::string name);
  ValueRef handle(SizesPtr t, Value* origin, std::string name);
  const ConstantPtr* handle_constant(const ValueRef& r) const;
  // The terms of a size handle, or of an integer constant handle (constant terms); nullptr else.
  SizesPtr handle_sizes(const ValueRef& r) const;
  ValueRef materialise(const ValueRef& r);
  // The result of `op` over constant operands, when it computes them exactly; nullopt otherwise.
  std::optional<ExactTensor> fold(const OpAttrs& op, const std::vector<ValueRef>& inputs);
  // The terms `op` gives when it moves terms (and constants) only; nullopt otherwise.
  std::optional<SizeTerms> fold_sizes(const OpAttrs& op, const std::vector<ValueRef>& inputs);
  SizeProgram program(const SizeTerms& t) const;
  ValueRef materialise_sizes(const SizeTerms& t, const std::string& name);
  // The shape of a value at the default extents, when the rules give one.
  std::optional<KnownShape> shape_of(const ValueRef& r) const;
  // The output shapes the rule of `op` gives over the input shapes `in` (nullopt: unknown).
  static std::vector<std::optional<KnownShape>> rule_shapes(OpAttrs op,
                                                            const std::vector<std::optional<KnownShape>>& in);
  // The shape of graph value r were the extents the size name `name` stands for `value` (the
  // others at their defaults): the rules run again over the nodes r is computed from.
  std::optional<KnownShape> probe_shape(const ValueRef& r, const std::string& name, int64_t value) const;
  // The size names whose value changes extent `axis` of r (probed at two values besides the default).
  std::vector<std::string> names_changing(const ValueRef& r, size_t axis) const;
  // The model's size names still open, once each, in the order of their extents.
  std::vector<std::string> size_names() const;
  // Notes the names as needed at load time (needed_), once each.
  void need_sizes(const std::vector<std::string>& names);
  // No graph input among the IR nodes r is computed from: r is a constant of every run.
  bool from_constants(const ValueRef& r) const;
  int64_t add_ir_node(std::string name, OpAttrs op, std::vector<ValueRef> inputs, const SourceLoc& loc);
  std::string unique_name(const std::string& base);

  Model& m_;
  std::vector<Diagnostic>& diags_;
  const std::map<std::string, HostTensor>* bound_;
  const std::map<std::string, int64_t>* fixed_;
  LoadOptions::EncloseConstants enclose_;
  std::vector<std::string> needed_;
  // probe_shape's shapes per (size name, value), per node and output, for the nodes up to the last probed.
  mutable std::map<std::pair<std::string, int64_t>, std::vector<std::vector<std::optional<KnownShape>>>> probes_;
  std::vector<SizeAxis> size_axes_;
  std::map<int64_t, std::string> input_nodes_;  // IR input node → its ONNX graph input
  std::vector<std::string> wanted_;
  std::vector<std::string> declared_;
  std::string file_;
  std::map<std::string, Value> values_;
  std::set<std::string> failed_;       // values a refused node would have defined
  std::set<std::string> read_later_;   // every value some node input or graph output names
  const std::map<std::string, int64_t>* opsets_ = nullptr;
  std::string base_dir_;
  std::set<std::string> names_;        // IR node names in use
  std::vector<std::vector<std::optional<KnownShape>>> shapes_;  // per IR node and output
  struct Handle {
    ConstantPtr constant;
    SizesPtr sizes;  // instead of constant
    ElemKind kind;
    Value* origin;     // the ONNX value it is, or nullptr for one a translation made
    std::string name;  // the const node's name when made (a made one's)
    std::optional<ValueRef> node;
  };
  std::vector<Handle> handles_;
  std::vector<ValueRef> leaves_;  // the values whose extents SizeTerms read
  bool extents_fixed_ = true;
  int64_t budget_left_ = 0;
  struct DeferredParam {
    std::string node, role;
    ConstantPtr constant;
    std::string source;
  };
  std::vector<DeferredParam> deferred_;
};

}  // namespace nnref::onnx_format

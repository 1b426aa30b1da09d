// Compile-time values of SkriptND and the evaluation of expressions over them
// (§2.4): integers, reals, bools, strings, null, packs, and tensors (a handle
// with its shape). Packs combine element by element (a non-pack broadcasts),
// null propagates (§2.4.1), and integer `/`, `\` and `%` are floor division,
// ceiling division and the floor remainder.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "formats/nnef2/ast.hpp"

namespace nnref::nnef2 {

// The size program (spec/size_program.hpp) that computes an int, or a bool as 1 or 0, from tensor
// extents: kExtent h k reads extent k of the composer's tensor h. Composition runs at the declared
// sizes; a value it computed from extents carries its term, which says what it is at other sizes.
using SizeTerm = std::shared_ptr<const std::vector<int64_t>>;

// What composition requires of the sizes: a condition (a size program leaving 1 when it holds) that
// the source states, or that nnref assumes where it used a value with a term as the number it is at
// the declared sizes (`assumed`). The composer hands them to the checker (semantics/graph.hpp's
// SizeGuard).
struct SizeCondition {
  std::vector<int64_t> code;
  std::string message;
  bool assumed = false;
};
using SizeConditions = std::vector<SizeCondition>;

// A tensor's element type (§2.1's concrete types a tensor holds): real, int or bool.
enum class ElemType : uint8_t { Real, Int, Bool };
const char* type_name(ElemType t);  // "real", "int", "bool"
// The element type a declared type names, or nullopt (str, a generic, an abstract type).
std::optional<ElemType> elem_type(const std::string& type);
struct Val;
// The element type of an int, a real or a bool value (a literal), or nullopt.
std::optional<ElemType> elem_type_of(const Val& v);

struct Val {
  enum class Kind { Null, Int, Real, Bool, Str, Pack, Tensor } kind = Kind::Null;
  int64_t i = 0;
  double r = 0.0;
  bool b = false;
  std::string s;
  std::vector<Val> items;      // a pack's items
  int64_t tensor = -1;         // a tensor's handle (the composer's)
  std::vector<int64_t> shape;  // a tensor's shape
  ElemType elem = ElemType::Real;  // a tensor's element type
  // An int that is a guarded index of a tensor access in @lower (§2.11): |i| skips the point where i
  // is out of bounds, |i <> low : high| takes low below 0 and high past the end.
  enum class Guard : uint8_t { None, Skip, Remap } guard = Guard::None;
  int64_t low = 0, high = 0;
  SizeTerm term;  // an int's or a bool's, when computed from extents (null: the same at every size)

  static Val of(Kind k) {
    Val x;
    x.kind = k;
    return x;
  }
  static Val integer(int64_t v) {
    Val x = of(Kind::Int);
    x.i = v;
    return x;
  }
  static Val real(double v) {
    Val x = of(Kind::Real);
    x.r = v;
    return x;
  }
  static Val boolean(bool v) {
    Val x = of(Kind::Bool);
    x.b = v;
    return x;
  }
  static Val string(std::string v) {
    Val x = of(Kind::Str);
    x.s = std::move(v);
    return x;
  }
  static Val pack(std::vector<Val> v) {
    Val x = of(Kind::Pack);
    x.items = std::move(v);
    return x;
  }
  static Val of_tensor(int64_t handle, std::vector<int64_t> dims, ElemType elem = ElemType::Real) {
    Val x = of(Kind::Tensor);
    x.tensor = handle;
    x.shape = std::move(dims);
    x.elem = elem;
    return x;
  }
  static Val ints(const std::vector<int64_t>& v);
  bool is_null() const { return kind == Kind::Null; }
  bool is_pack() const { return kind == Kind::Pack; }
  bool operator==(const Val& o) const;
};

// How a value reads in messages: 3, 2.5, true, 'NCX', [1, 2], null, tensor[1,
// 3].
std::string show(const Val& v);
// The integers of an int or an int pack (a non-pack gives one item).
std::vector<int64_t> as_ints(const Val& v);
// The positions an index selects in n items (negative: from the end): an int, an int pack, or a
// bool mask of n items.
std::vector<size_t> index_positions(const Val& idx, size_t n, const SourceLoc& loc);

// The term of v, or the program that pushes its number.
std::vector<int64_t> code_of(const Val& v);
// Extent k of tensor t, with its term when `conditions` tracks sizes.
Val extent_of(const Val& t, size_t k, const SizeConditions* conditions);
// Each int or bool of v (items of a pack too) that has a term is used as the number it is at the
// declared sizes: a condition, assumed, that it keeps that number ("<what> = 8 as composed at the
// declared sizes, at <loc>").
void pin(const Val& v, const std::string& what, const SourceLoc& loc, SizeConditions* conditions);
// A bool with a term that the source states must hold: a condition (not assumed).
void require_term(const Val& condition, const std::string& message, SizeConditions* conditions);

// A failed evaluation: code nnef2.eval.*, a message, and where in the source it
// happened.
struct EvalError {
  std::string code;
  std::string message;
  SourceLoc loc;
};

// The names an expression refers to (identifiers and the objects of
// .shape/.rank/.size).
void referenced_names(const Expr& e, std::vector<std::string>& out);

class Evaluator {
 public:
  std::map<std::string, Val> symbols;
  bool lowering = false;  // guarded indices evaluate (to ints marked with their Guard)
  // Where conditions on sizes go; null: values get no terms (a lowering, a test).
  SizeConditions* conditions = nullptr;
  // Throws EvalError; an unknown name is nnef2.eval.name.
  Val eval(const Expr& e) const;
  // Whether every name e refers to is bound.
  bool bound(const Expr& e) const;
  // The items of a list or of a tensor access's indices, each `x..` spread: null if one item is null.
  Val items(const std::vector<ExprPtr>& args) const;
  // An int (a bool as 0 or 1) that `what` uses as a number: pinned when it has a term.
  int64_t number(const Val& v, const char* what, const SourceLoc& loc) const;
  // One item of a list: its value, or the items of a pack `x..` spreads.
  void append_item(const Expr& item, std::vector<Val>& out) const;

 private:
  Val list(const Expr& e) const;
  Val range(const Expr& e) const;
  Val expand(const Expr& e) const;
  Val index(const Expr& e) const;
  Val slice(const Expr& e) const;
  Val substitute(const Expr& e) const;
  Val select(const Expr& e) const;
  Val fold(const Expr& e) const;
  Val cumulative(const Expr& e) const;
  Val member(const Expr& e) const;
  Val text(const Expr& e) const;
  Val guarded(const Expr& e) const;
  Val select_item(const Val& c, const Val& a, const Val& b, const SourceLoc& loc) const;
};

// The binary operator `op` of §2.4 on two non-pack, non-null values (exposed
// for tests). With `conditions`, an int or bool result of operands with terms gets its term (`**`
// has none: its operands are pinned).
Val apply_binary(const std::string& op, const Val& a, const Val& b, const SourceLoc& loc,
                 SizeConditions* conditions = nullptr);

}  // namespace nnref::nnef2

// The standard library's text, checked beyond parsing for the defects a transcription or the
// draft could hold: every name an operator's expressions use is declared in that operator, and
// every invocation names an operator of the library. (Scopes are not modelled: a name declared
// anywhere in the operator counts; composition checks them exactly.)
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <string>

#include "formats/nnef2/parser.hpp"
#include "formats/nnef2/stdlib.hpp"

namespace nnef2 = nnref::nnef2;

namespace {

// The names one operator declares (parameters, generics, captured extents and pack lengths,
// helpers, loop indices and locals, component results) and those its expressions use.
class NameScan {
 public:
  std::set<std::string> declared, used, invoked;

  void op(const nnef2::OpDef& op) {
    for (const nnef2::Block& b : op.blocks) block(b);
  }

 private:
  static void names(const nnef2::Expr* e, std::set<std::string>& into) {
    if (!e) return;
    if (e->kind == nnef2::ExprKind::Identifier || e->kind == nnef2::ExprKind::TensorAccess) into.insert(e->text);
    for (const nnef2::ExprPtr& a : e->args) names(a.get(), into);
    for (const nnef2::StringPart& p : e->parts) names(p.expr.get(), into);
    names(e->pack_index.get(), into);
  }
  void use(const nnef2::Expr* e) { names(e, used); }
  // A shape spec's extents, pack lengths and rank capture declare the symbols they name (§2.6).
  void type(const nnef2::TypeSpec& t) {
    names(t.rank.get(), declared);
    for (const nnef2::ShapeItem& s : t.shape) {
      names(s.extent.get(), declared);
      use(s.bound.get());
      if (s.pack) names(s.pack->count.get(), declared);
    }
    if (t.pack) names(t.pack->count.get(), declared);
  }
  void lvalue(const nnef2::Lvalue& lv) {
    for (const nnef2::LvalueItem& item : lv.items) {
      declared.insert(item.names.begin(), item.names.end());
      for (const auto& t : item.types)
        if (t) type(*t);
      if (item.pack) names(item.pack->count.get(), declared);
    }
  }
  void bound(const nnef2::LoopBound& b) {
    declared.insert(b.index);
    use(b.limit.get());
  }
  void binding(const nnef2::Binding& b) {
    declared.insert(b.name);
    if (b.type) type(*b.type);
    use(b.value.get());
  }
  void computation(const nnef2::Computation& c) {
    use(c.expr.get());
    if (c.call) {
      invoked.insert(c.call->op);
      for (const nnef2::ExprPtr& a : c.call->args) use(a.get());
      for (const nnef2::Attribute& a : c.call->attributes) use(a.value.get());
    }
    if (c.block) {
      for (const nnef2::Component& x : c.block->components) component(x);
      for (const nnef2::ExprPtr& y : c.block->yields) use(y.get());
    }
  }
  void component(const nnef2::Component& c) {
    for (const nnef2::Lvalue& lv : c.lhs) lvalue(lv);
    if (c.branch) {
      for (const auto& [cond, value] : c.branch->cases) {
        computation(cond);
        computation(value);
      }
      computation(c.branch->otherwise);
    } else if (c.loop) {
      for (const nnef2::Binding& b : c.loop->with) binding(b);
      for (const nnef2::Binding& b : c.loop->for_each) binding(b);
      if (c.loop->count) {
        if (!c.loop->count->index.empty()) declared.insert(c.loop->count->index);
        use(c.loop->count->count.get());
      }
      if (c.loop->while_before) computation(*c.loop->while_before);
      if (c.loop->while_after) computation(*c.loop->while_after);
      computation(c.loop->body);
    } else {
      computation(c.computation);
    }
  }
  void block(const nnef2::Block& b) {
    for (const nnef2::DtypeDef& t : b.dtypes) declared.insert(t.name);
    for (const nnef2::ParamDef& p : b.params) {
      declared.insert(p.name);
      type(p.type);
      use(p.value.get());
      for (const nnef2::LoopBound& lb : p.bounds) bound(lb);
    }
    for (const nnef2::Using& u : b.usings) {
      lvalue(u.lhs);
      use(u.value.get());
    }
    for (const nnef2::Assertion& a : b.assertions) {
      use(a.condition.get());
      use(a.message.get());
      for (const nnef2::AssertArg& x : a.args) use(x.value.get());
    }
    for (const nnef2::Lowering& l : b.lowerings) {
      for (const nnef2::Binding& x : l.locals) binding(x);
      if (l.unroll && !l.unroll->index.empty()) declared.insert(l.unroll->index);
      for (const nnef2::LoopBound& lb : l.bounds) bound(lb);
      use(l.target.get());
      use(l.value.get());
      use(l.condition.get());
    }
    for (const nnef2::Component& c : b.components) component(c);
  }
};

}  // namespace

TEST_CASE("every name a standard operator uses is declared in it, and every invocation resolves") {
  std::map<std::string, nnef2::Document> modules;
  for (const nnef2::StdlibModule& m : nnef2::stdlib_modules()) {
    nnef2::Diags diags;
    modules[std::string(m.name)] = nnef2::parse_text(m.text, std::string(m.name) + ".sknd", diags);
    REQUIRE_FALSE(diags.has_errors());
  }
  auto defines = [&](const std::string& module, const std::string& op) {
    auto it = modules.find(module);
    if (it == modules.end()) return false;
    for (const nnef2::OpDef& d : it->second.ops)
      if (d.name == op) return true;
    return false;
  };
  size_t scanned = 0;
  for (const auto& [module, doc] : modules) {
    for (const nnef2::OpDef& op : doc.ops) {
      NameScan scan;
      scan.op(op);
      ++scanned;
      for (const std::string& name : scan.used) {
        INFO(module << "." << op.name << " uses " << name);
        CHECK(scan.declared.count(name) == 1);
      }
      for (const std::string& callee : scan.invoked) {
        size_t dot = callee.find('.');
        INFO(module << "." << op.name << " invokes " << callee);
        bool resolves =
            dot == std::string::npos ? defines(module, callee) : defines(callee.substr(0, dot), callee.substr(dot + 1));
        CHECK(resolves);
      }
    }
  }
  CHECK(scanned == 151);
}

TEST_CASE("the name scan finds an undeclared name (the check above can fail)") {
  nnef2::Diags diags;
  nnef2::Document doc = nnef2::parse_text(
      "operator a { @input { x: real[s..]; } @output { y: real[s..]; } @using { q = zz + 1; }"
      " @lower { y[i..] = x[j..] + q, i < s; } }",
      "t.sknd", diags);
  REQUIRE_FALSE(diags.has_errors());
  NameScan scan;
  scan.op(doc.ops.at(0));
  std::set<std::string> undeclared;
  for (const std::string& name : scan.used)
    if (!scan.declared.count(name)) undeclared.insert(name);
  CHECK(undeclared == std::set<std::string>{"j", "zz"});
}

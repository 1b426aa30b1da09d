#include "checker/size_symbols.hpp"

#include <charconv>
#include <set>

namespace nnref {

namespace {

Diagnostic dim_error(std::string message) { return make_error("usage.dim", std::move(message)); }

std::optional<int64_t> parse_int(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

Result<DimRange> parse_dim_range(std::string_view text) {
  const std::string quoted = "--dim '" + std::string(text) + "'";
  const size_t eq = text.find('=');
  const size_t dots = text.find("..", eq == std::string_view::npos ? 0 : eq);
  if (eq == std::string_view::npos || eq == 0 || dots == std::string_view::npos)
    return dim_error(quoted + ": expected NAME=LO..HI, e.g. input.0=1..512");
  auto lo = parse_int(text.substr(eq + 1, dots - eq - 1));
  auto hi = parse_int(text.substr(dots + 2));
  if (!lo || !hi) return dim_error(quoted + ": LO and HI must be integers, e.g. input.0=1..512");
  if (*lo < 1 || *lo > *hi) return dim_error(quoted + ": the range must satisfy 1 <= LO <= HI");
  return DimRange{std::string(text.substr(0, eq)), *lo, *hi};
}

Result<DimRange> parse_dim_value(std::string_view text) {
  const std::string quoted = "--dim '" + std::string(text) + "'";
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) return dim_error(quoted + ": expected NAME=SIZE, e.g. batch=8");
  auto v = parse_int(text.substr(eq + 1));
  if (!v || *v < 1) return dim_error(quoted + ": SIZE must be a positive integer, e.g. batch=8");
  return DimRange{std::string(text.substr(0, eq)), *v, *v};
}

Result<SizeSymbols> SizeSymbols::bind(z3::context& c, const Graph& g, const std::vector<SizeName>& names,
                                      const std::vector<DimRange>& ranges) {
  SizeSymbols s;
  s.graph_ = &g;
  std::string known;
  for (const SizeName& n : names) {
    auto& slots = s.names_[n.name];
    if (slots.empty()) known += (known.empty() ? "" : ", ") + n.name;
    slots.push_back({n.node, n.axis});
  }
  for (const auto& r : ranges) {
    auto it = s.names_.find(r.name);
    if (it == s.names_.end())
      return dim_error("--dim " + r.name + ": no input extent has this name" +
                       (known.empty() ? std::string(" (the model has no input extents)") : "; the names are: " + known));
    SizeSymbol sym{r.name, r.lo, r.hi, c.int_const(r.name.c_str()), {}};
    for (const auto& slot : it->second) {
      if (!s.symbol_at_.emplace(std::pair{slot.node, slot.axis}, s.symbols_.size()).second)
        return dim_error("--dim " + r.name + ": this extent already has a range");
      sym.slots.push_back({slot.node, slot.axis});
    }
    s.symbols_.push_back(std::move(sym));
  }
  return s;
}

Dims<SymDim> SizeSymbols::input_dims(const Node& input) const {
  Dims<SymDim> out;
  const auto& dims = std::get<InputAttrs>(input.op).dims;
  for (size_t k = 0; k < dims.size(); ++k) {
    auto it = symbol_at_.find({input.id, k});
    out.push_back(it == symbol_at_.end() ? SymDim(dims[k]) : SymDim(symbols_[it->second].var));
  }
  return out;
}

std::optional<SymDim> SizeSymbols::lookup(const std::string& name) const {
  auto it = names_.find(name);
  if (it == names_.end()) return std::nullopt;
  // Every slot of a name holds the same symbol; without --dim, batch is the first input's.
  const Slot& slot = it->second.front();
  return input_dims(graph_->nodes[static_cast<size_t>(slot.node)])[slot.axis];
}

std::vector<z3::expr> SizeSymbols::range_constraints() const {
  std::vector<z3::expr> out;
  for (const auto& s : symbols_) {
    out.push_back(s.var >= s.var.ctx().int_val(s.lo));
    out.push_back(s.var <= s.var.ctx().int_val(s.hi));
  }
  return out;
}

Graph SizeSymbols::instantiate(const Graph& g, const Assignment& a) const {
  Graph out = g;
  for (const auto& [name, value] : a)
    for (const auto& s : symbols_)
      if (s.name == name)
        for (const auto& [node, axis] : s.slots)
          std::get<InputAttrs>(out.nodes[static_cast<size_t>(node)].op).dims[axis] = value;
  return out;
}

}  // namespace nnref

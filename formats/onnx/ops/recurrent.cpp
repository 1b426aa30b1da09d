// The ONNX recurrent layers: LSTM, GRU and RNN, unrolled over the sequence axis into IR ops (its
// extent must be known when the model is read: NodeCtx::fixed_extent). Each step is ONNX's formula term by term
// (Operators.md; onnx/backend/test/case/node/{lstm,gru,rnn}.py):
//   LSTM (gates i, o, f, c):  i = f(Xt·Wiᵀ + H·Riᵀ + Pi⊙C + Wbi + Rbi)
//                             f = f(Xt·Wfᵀ + H·Rfᵀ + Pf⊙C + Wbf + Rbf)   (1 − i with input_forget)
//                             c = g(Xt·Wcᵀ + H·Rcᵀ + Wbc + Rbc),  C' = f⊙C + i⊙c
//                             o = f(Xt·Woᵀ + H·Roᵀ + Po⊙C' + Wbo + Rbo), H' = o⊙h(C')
//   GRU (gates z, r, h):      z = f(Xt·Wzᵀ + H·Rzᵀ + Wbz + Rbz), r likewise
//                             h = g(Xt·Whᵀ + (r⊙H)·Rhᵀ + Rbh + Wbh)       linear_before_reset 0
//                             h = g(Xt·Whᵀ + r⊙(H·Rhᵀ + Rbh) + Wbh)       linear_before_reset 1
//                             H' = (1 − z)⊙h + z⊙H
//   RNN:                      H' = f(Xt·Wᵀ + H·Rᵀ + Wb + Rb)
// Xt·Wᵀ + Wb is one matmul over every step at once (the same sums). An absent initial state is 0:
// its terms are left out of the first step (so the batch extent may be symbolic). clip bounds the
// inputs of the gates' activations f and g (as onnxruntime applies it), not h's.
// sequence_lens: a batch row b takes step t only when t < len[b] (a select on that exact
// comparison of integers as reals): elsewhere its state stays and Y holds 0. The reverse direction
// walks t = T − 1 .. 0 under the same mask, so each row starts at its own last position.
#include <optional>
#include <string>
#include <vector>

#include "formats/onnx/ops/handlers.hpp"

namespace nnref::onnx_format {

namespace {

enum class Cell { Lstm, Gru, Rnn };

struct Activation {
  UnaryOp op;
  double alpha;
};

// The activations attribute (defaults when absent), for each direction: the IR unary ops that are
// ONNX's functions. activation_alpha is consumed in order by the functions that take one
// (onnxruntime's reading); activation_beta has no function here that takes one.
std::vector<Activation> activations_of(Ctx& c, const std::vector<std::string>& defaults, size_t directions) {
  std::vector<std::string> names;
  if (const auto* a = c.attr("activations")) {
    for (const auto& s : a->strings()) names.push_back(s);
    if (names.size() != defaults.size() * directions)
      c.refuse("onnx.attribute-value", "activations lists " + std::to_string(names.size()) + " functions, not " +
                                           std::to_string(defaults.size() * directions));
  } else {
    for (size_t d = 0; d < directions; ++d) names.insert(names.end(), defaults.begin(), defaults.end());
  }
  std::vector<double> alphas;
  if (const auto* a = c.attr("activation_alpha"))
    for (float v : a->floats()) alphas.push_back(v);
  if (const auto* b = c.attr("activation_beta"); b && b->floats_size() > 0)
    c.refuse("onnx.attribute-unsupported", "activation_beta: none of the activations nnref reads takes a beta");
  size_t next_alpha = 0;
  std::vector<Activation> out;
  for (const auto& name : names) {
    if (name == "Sigmoid") out.push_back({UnaryOp::Sigmoid, 0});
    else if (name == "Tanh") out.push_back({UnaryOp::Tanh, 0});
    else if (name == "Relu") out.push_back({UnaryOp::Relu, 0});
    else if (name == "Softplus") out.push_back({UnaryOp::Softplus, 0});
    else if (name == "LeakyRelu" || name == "Elu") {
      if (next_alpha >= alphas.size()) c.refuse("onnx.attribute-value", "activation_alpha gives no alpha for " + name);
      out.push_back({name == "Elu" ? UnaryOp::Elu : UnaryOp::LeakyRelu, alphas[next_alpha++]});
    } else {
      c.refuse("onnx.attribute-unsupported", "the activation " + name + " is not supported");
    }
  }
  if (next_alpha != alphas.size())
    c.refuse("onnx.attribute-value", "activation_alpha has " + std::to_string(alphas.size()) + " values, " +
                                         std::to_string(next_alpha) + " of them used");
  return out;
}

class Unrolled {
 public:
  Unrolled(Ctx& c, Cell cell) : c_(c), cell_(cell) {}

  void run() {
    const char* op = cell_ == Cell::Lstm ? "LSTM" : cell_ == Cell::Gru ? "GRU" : "RNN";
    gates_ = cell_ == Cell::Lstm ? 4 : cell_ == Cell::Gru ? 3 : 1;
    const std::string direction = c_.attr_string("direction", "forward");
    if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
      c_.refuse("onnx.attribute-value", "direction must be forward, reverse or bidirectional, not " + direction);
    const size_t dirs = direction == "bidirectional" ? 2 : 1;
    layout_ = c_.attr_int("layout", 0);
    if (layout_ != 0 && layout_ != 1) c_.refuse("onnx.attribute-value", "layout must be 0 or 1");
    if (c_.rank(0) != 3) c_.refuse("onnx.input-shape", "X must have rank 3");
    const std::vector<int64_t> w = c_.shape(1), r = c_.shape(2);
    if (w.size() != 3 || r.size() != 3) c_.refuse("onnx.input-shape", "W and R must have rank 3");
    hidden_ = r[2];
    if (c_.has_attr("hidden_size") && c_.attr_int("hidden_size", 0) != hidden_)
      c_.refuse("onnx.input-shape", "hidden_size differs from R's last extent " + std::to_string(hidden_));
    if (w[0] != static_cast<int64_t>(dirs) || r[0] != w[0] || w[1] != gates_ * hidden_ || r[1] != gates_ * hidden_)
      c_.refuse("onnx.input-shape", std::string("W and R must have shapes [") + std::to_string(dirs) + ", " +
                                        std::to_string(gates_) + "·hidden, input] and [" + std::to_string(dirs) +
                                        ", " + std::to_string(gates_) + "·hidden, hidden]");
    // Its steps are unrolled: the sequence length is a number for every run, or the size it depends
    // on is fixed when the model is read (NodeCtx::fixed_extent); the batch may stay symbolic.
    steps_ =
        c_.fixed_extent(0, layout_, std::string(op) + "'s sequence length (X's axis " + std::to_string(layout_) + ")");
    const std::vector<std::string> defaults =
        cell_ == Cell::Lstm ? std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"}
        : cell_ == Cell::Gru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                             : std::vector<std::string>{"Tanh"};
    const std::vector<Activation> acts = activations_of(c_, defaults, dirs);
    if (c_.has_attr("clip")) {
      const double clip = c_.attr_float("clip", 0);
      if (!(clip > 0)) c_.refuse("onnx.attribute-value", "clip must be positive");
      clip_ = {real("clip-low", -clip), real("clip-high", clip)};
    }
    input_forget_ = cell_ == Cell::Lstm && c_.attr_int("input_forget", 0) != 0;
    before_reset_ = cell_ == Cell::Gru && c_.attr_int("linear_before_reset", 0) != 0;
    x_ = c_.data(0);
    if (layout_ == 1) x_ = c_.emit("x-time-major", TransposeAttrs{{1, 0, 2}}, {x_});
    lengths();

    std::vector<ValueRef> ys, hs, cs;
    for (size_t d = 0; d < dirs; ++d) {
      const bool reverse = direction == "reverse" || d == 1;
      const std::vector<Activation> f(acts.begin() + static_cast<long>(d * defaults.size()),
                                      acts.begin() + static_cast<long>((d + 1) * defaults.size()));
      direction_pass(static_cast<int64_t>(d), reverse, f, ys, hs, cs);
    }
    if (c_.output_read(0)) {
      ValueRef y = c_.emit("Y-directions", ConcatAttrs{1}, ys);  // [T, D, B, H]
      if (layout_ == 1) y = c_.emit("Y-batch-major", TransposeAttrs{{2, 0, 1, 3}}, {y});
      c_.set_output(0, y);
    }
    const auto state_out = [&](size_t k, const std::vector<ValueRef>& v, const std::string& n) {
      if (!c_.output_read(k)) return;
      ValueRef s = c_.emit(n + "-directions", ConcatAttrs{0}, v);  // [D, B, H]
      if (layout_ == 1) s = c_.emit(n + "-batch-major", TransposeAttrs{{1, 0, 2}}, {s});
      c_.set_output(k, s);
    };
    state_out(1, hs, "Y_h");
    if (cell_ == Cell::Lstm) state_out(2, cs, "Y_c");
  }

 private:
  ValueRef real(const std::string& n, double v) { return c_.literal(n, scalar_tensor(v)); }
  ValueRef add(const std::string& n, ValueRef a, ValueRef b) { return binary(c_, n, BinaryOp::Add, a, b); }
  ValueRef mul(const std::string& n, ValueRef a, ValueRef b) { return binary(c_, n, BinaryOp::Mul, a, b); }
  // Elements [begin, end) of `axis`.
  ValueRef slice(const std::string& n, ValueRef v, int64_t axis, int64_t begin, int64_t end) {
    return c_.emit(n, SliceAttrs{{axis}, {begin}, {end}, {}}, {v});
  }
  // Gate k of the gates laid along `axis`, each `hidden_` wide.
  ValueRef gate(const std::string& n, ValueRef v, int64_t k, int64_t axis = 1) {
    return slice(n, v, axis, k * hidden_, (k + 1) * hidden_);
  }
  // Direction d of a [D, ...] input, that axis dropped.
  ValueRef of_direction(const std::string& n, ValueRef v, int64_t d) {
    return c_.emit(n, SqueezeAttrs{{0}}, {slice(n + "-slice", v, 0, d, d + 1)});
  }
  ValueRef activate(const std::string& n, const Activation& a, ValueRef v, bool clipped) {
    if (clipped && clip_) v = c_.emit(n + "-clipped", ClampAttrs{Broadcast::NumpyRight}, {v, clip_->first, clip_->second});
    return c_.emit(n, UnaryAttrs{a.op, Real(a.alpha)}, {v});
  }
  // The initial state input k of direction d ([D, B, H], or [B, D, H] in layout 1), or none.
  std::optional<ValueRef> initial(size_t k, int64_t d, const std::string& n) {
    if (!c_.has_input(k)) return std::nullopt;
    ValueRef s = c_.data(k);
    if (layout_ == 1) s = c_.emit(n + "-direction-major", TransposeAttrs{{1, 0, 2}}, {s});
    return of_direction(n + std::to_string(d), s, d);
  }

  // The per-row lengths as reals [B, 1], when sequence_lens is given and some row may be shorter
  // than the sequence (a constant of lengths all at least T needs no mask).
  void lengths() {
    if (!c_.has_input(4)) return;
    if (const HostTensor* t = c_.constant(4)) {
      bool all = true;
      for (double v : t->values) all = all && v >= static_cast<double>(steps_);
      if (all) return;
    }
    if (c_.kind(4) != ElemKind::Integer) c_.refuse("onnx.input-type", "sequence_lens must be int32");
    const ValueRef lens = c_.emit("lengths-real", CastAttrs{ElemKind::Integer, ElemKind::Real},
                                  {c_.operand(4, ElemKind::Integer)});
    lengths_ = c_.emit("lengths", UnsqueezeAttrs{{1}}, {lens});
  }

  void direction_pass(int64_t d, bool reverse, const std::vector<Activation>& f, std::vector<ValueRef>& ys,
                      std::vector<ValueRef>& hs, std::vector<ValueRef>& cs) {
    const std::string ds = "d" + std::to_string(d);
    const ValueRef w = slice(ds + "-W", c_.data(1), 0, d, d + 1);  // [1, G·H, I]
    const ValueRef r = of_direction(ds + "-R", c_.data(2), d);     // [G·H, H]
    ValueRef xw = c_.emit(ds + "-XW", MatMulAttrs{false, true}, {x_, w});  // [T, B, G·H]
    std::optional<ValueRef> wb, rb;
    if (c_.has_input(3)) {
      const ValueRef b = slice(ds + "-B", c_.data(3), 0, d, d + 1);  // [1, 2·G·H]
      wb = slice(ds + "-Wb", b, 1, 0, gates_ * hidden_);
      rb = slice(ds + "-Rb", b, 1, gates_ * hidden_, 2 * gates_ * hidden_);
      xw = add(ds + "-XW-Wb", xw, *wb);
    }
    std::optional<ValueRef> p;
    if (cell_ == Cell::Lstm && c_.has_input(7)) p = of_direction(ds + "-P", c_.data(7), d);  // [3·H]: i, o, f
    std::optional<ValueRef> h = initial(5, d, ds + "-initial_h");
    std::optional<ValueRef> cell;
    if (cell_ == Cell::Lstm) cell = initial(6, d, ds + "-initial_c");
    const ValueRef zero = real(ds + "-zero", 0);
    // GRU's h gate has its own product with R's last third (rh) and Rb's (rbh); rp and rbp are
    // the other gates' parts.
    const int64_t plain = cell_ == Cell::Gru ? 2 : gates_;
    const ValueRef rp = plain == gates_ ? r : slice(ds + "-R-zr", r, 0, 0, plain * hidden_);
    std::optional<ValueRef> rbp = rb, rbh;
    std::optional<ValueRef> rh;
    if (cell_ == Cell::Gru) {
      rh = slice(ds + "-Rh", r, 0, 2 * hidden_, 3 * hidden_);
      if (rb) rbp = slice(ds + "-Rb-zr", *rb, 1, 0, 2 * hidden_), rbh = slice(ds + "-Rbh", *rb, 1, 2 * hidden_, 3 * hidden_);
    }
    std::vector<ValueRef> y(static_cast<size_t>(steps_));
    for (int64_t k = 0; k < steps_; ++k) {
      const int64_t t = reverse ? steps_ - 1 - k : k;
      const std::string n = ds + "-t" + std::to_string(t);
      const ValueRef xg = c_.emit(n + "-x", SqueezeAttrs{{0}}, {slice(n + "-x-slice", xw, 0, t, t + 1)});
      // H·Rᵀ + Rb of the gates other than GRU's h.
      std::optional<ValueRef> hg;
      if (h) hg = c_.emit(n + "-HR", MatMulAttrs{false, true}, {*h, rp});
      if (rbp) hg = hg ? add(n + "-HR-Rb", *hg, *rbp) : *rbp;
      const auto pre = [&](const std::string& g, int64_t k2) {  // Xt·Wᵀ + Wb + H·Rᵀ + Rb of gate k2
        const ValueRef xk = gates_ == 1 ? xg : gate(n + "-x" + g, xg, k2);
        if (!hg || (cell_ == Cell::Gru && k2 == 2)) return xk;
        return add(n + "-" + g + "-sum", xk, gates_ == 1 ? *hg : gate(n + "-h" + g, *hg, k2));
      };
      std::optional<ValueRef> c_new;
      ValueRef h_new;
      if (cell_ == Cell::Lstm) {
        const auto peep = [&](const std::string& g, ValueRef v, int64_t k2, std::optional<ValueRef> state) {
          if (!p || !state) return v;
          return add(n + "-" + g + "-peephole", v, mul(n + "-" + g + "-P", gate(n + "-P" + g, *p, k2, 0), *state));
        };
        const ValueRef i = activate(n + "-i", f[0], peep("i", pre("i", 0), 0, cell), true);
        const ValueRef fg = input_forget_ ? binary(c_, n + "-f", BinaryOp::Sub, real(n + "-one", 1), i)
                                          : activate(n + "-f", f[0], peep("f", pre("f", 2), 2, cell), true);
        const ValueRef cc = activate(n + "-c", f[1], pre("c", 3), true);
        ValueRef next = mul(n + "-ic", i, cc);
        if (cell) next = add(n + "-C", mul(n + "-fC", fg, *cell), next);
        const ValueRef o = activate(n + "-o", f[0], peep("o", pre("o", 1), 1, next), true);
        h_new = mul(n + "-H", o, activate(n + "-hC", f[2], next, false));
        c_new = next;
      } else if (cell_ == Cell::Gru) {
        const ValueRef z = activate(n + "-z", f[0], pre("z", 0), true);
        const ValueRef rg = activate(n + "-r", f[0], pre("r", 1), true);
        ValueRef xh = gate(n + "-xh", xg, 2);
        std::optional<ValueRef> inner;  // the reset-gated hidden term
        if (before_reset_) {
          std::optional<ValueRef> lin;
          if (h) lin = c_.emit(n + "-HRh", MatMulAttrs{false, true}, {*h, *rh});
          if (rbh) lin = lin ? add(n + "-HRh-Rbh", *lin, *rbh) : *rbh;
          if (lin) inner = mul(n + "-reset", rg, *lin);
        } else {
          if (h) inner = c_.emit(n + "-rH-Rh", MatMulAttrs{false, true}, {mul(n + "-rH", rg, *h), *rh});
          if (rbh) inner = inner ? add(n + "-rH-Rh-Rbh", *inner, *rbh) : *rbh;
        }
        if (inner) xh = add(n + "-h-sum", xh, *inner);
        const ValueRef hh = activate(n + "-h", f[1], xh, true);
        h_new = mul(n + "-zh", binary(c_, n + "-1-z", BinaryOp::Sub, real(n + "-one", 1), z), hh);
        if (h) h_new = add(n + "-H", h_new, mul(n + "-zH", z, *h));
      } else {
        h_new = activate(n + "-H", f[0], pre("h", 0), true);
      }
      if (lengths_) {
        const ValueRef on = c_.emit(n + "-active", CompareAttrs{CompareOp::Gt, Broadcast::NumpyRight},
                                    {*lengths_, real(n + "-t", static_cast<double>(t))});
        const auto held = [&](const std::string& s, ValueRef v, std::optional<ValueRef> old) {
          return c_.emit(n + "-" + s + "-held", SelectAttrs{Broadcast::NumpyRight}, {on, v, old ? *old : zero});
        };
        y[static_cast<size_t>(t)] = held("Y", h_new, zero);
        h_new = held("H", h_new, h);
        if (c_new) c_new = held("C", *c_new, cell);
      } else {
        y[static_cast<size_t>(t)] = h_new;
      }
      h = h_new;
      cell = c_new;
    }
    if (c_.output_read(0)) {
      for (size_t t = 0; t < y.size(); ++t)
        y[t] = c_.emit(ds + "-Y-t" + std::to_string(t), UnsqueezeAttrs{{0}}, {y[t]});
      const ValueRef all = c_.emit(ds + "-Y", ConcatAttrs{0}, y);  // [T, B, H]
      ys.push_back(c_.emit(ds + "-Y-direction", UnsqueezeAttrs{{1}}, {all}));
    }
    hs.push_back(c_.emit(ds + "-Y_h", UnsqueezeAttrs{{0}}, {*h}));
    if (cell) cs.push_back(c_.emit(ds + "-Y_c", UnsqueezeAttrs{{0}}, {*cell}));
  }

  Ctx& c_;
  Cell cell_;
  int64_t gates_ = 1, hidden_ = 0, steps_ = 0, layout_ = 0;
  bool input_forget_ = false, before_reset_ = false;
  std::optional<std::pair<ValueRef, ValueRef>> clip_;
  std::optional<ValueRef> lengths_;
  ValueRef x_{};
};

void lstm(Ctx& c) { Unrolled(c, Cell::Lstm).run(); }
void gru(Ctx& c) { Unrolled(c, Cell::Gru).run(); }
void rnn(Ctx& c) { Unrolled(c, Cell::Rnn).run(); }

}  // namespace

void add_recurrent_ops(OpTable& table) {
  add_ops(table, {
                     {"GRU", gru},
                     {"LSTM", lstm},
                     {"RNN", rnn},
                 });
}

}  // namespace nnref::onnx_format

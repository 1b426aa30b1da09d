// The cost model of the core (docs/hw-model.md, "Cost model"): the cycles one planned node takes on
// the MAC array, the vector unit or the special-function unit, and the multiply-accumulates it does.
#pragma once

#include <cstdint>
#include <string>

#include "hw/config.hpp"
#include "semantics/op.hpp"

namespace nnref::hw {

enum class Unit { None, Mac, Vector, Sfu, Dram };
const char* unit_name(Unit u);

struct OpCost {
  Unit unit = Unit::None;
  int64_t cycles = 0;
  int64_t macs = 0;  // useful multiply-accumulates (MAC array only)
};

// Every op of the op list has a cost: a new op without one does not compile.
OpCost cost_of(const CheckedOp& op, const Config& c);

// The pieces the costs are made of.
int64_t vector_steps(int64_t n, const Config& c);                    // ⌈n / lanes⌉ · vector_cycles
int64_t sfu_cycles(const std::string& fn, int64_t n, const Config& c);  // latency(fn) + ⌈n / lanes⌉
// `batches` products of [m, k]·[k, n] on the R×C array: ⌈m/R⌉·⌈n/C⌉ tiles of k + R + C − 2 cycles.
OpCost mac_cost(int64_t batches, int64_t m, int64_t n, int64_t k, const Config& c);

}  // namespace nnref::hw

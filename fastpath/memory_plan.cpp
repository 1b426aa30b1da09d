#include "fastpath/memory_plan.hpp"

#include <algorithm>
#include <map>
#include <optional>

namespace nnref::fastpath {

namespace {

int64_t element_bytes(ElemKind kind) {
  switch (kind) {
    case ElemKind::Integer: return sizeof(int64_t);
    case ElemKind::Logical: return sizeof(uint8_t);
    case ElemKind::Real: break;
  }
  return sizeof(float);
}

// First fit over the free blocks of an arena that grows at its end.
class Arena {
 public:
  int64_t take(int64_t bytes) {
    bytes = std::max<int64_t>((bytes + kSlotAlignment - 1) / kSlotAlignment * kSlotAlignment, kSlotAlignment);
    live_ += bytes;
    peak_live_ = std::max(peak_live_, live_);
    int64_t offset = end_;
    for (const auto& [start, size] : free_)
      if (size >= bytes || start + size == end_) {  // fits, or ends the arena and can grow
        offset = start;
        break;
      }
    if (const auto it = free_.find(offset); it != free_.end()) {
      if (it->second > bytes) free_.emplace(offset + bytes, it->second - bytes);
      free_.erase(it);
    }
    end_ = std::max(end_, offset + bytes);
    sizes_[offset] = bytes;
    return offset;
  }

  void give_back(int64_t offset) {
    int64_t start = offset, size = sizes_.at(offset);
    sizes_.erase(offset);
    live_ -= size;
    if (const auto after = free_.find(start + size); after != free_.end()) {  // merge with the next block
      size += after->second;
      free_.erase(after);
    }
    if (auto before = free_.lower_bound(start); before != free_.begin()) {  // and with the previous one
      --before;
      if (before->first + before->second == start) {
        start = before->first;
        size += before->second;
        free_.erase(before);
      }
    }
    free_[start] = size;
  }

  int64_t end() const { return end_; }
  int64_t peak_live() const { return peak_live_; }

 private:
  std::map<int64_t, int64_t> free_;   // offset → size
  std::map<int64_t, int64_t> sizes_;  // offset of a taken block → its size
  int64_t end_ = 0, live_ = 0, peak_live_ = 0;
};

}  // namespace

bool is_view(const CheckedOp& op) {
  return std::holds_alternative<Checked<ReshapeAttrs>>(op) || std::holds_alternative<Checked<FlattenAttrs>>(op) ||
         std::holds_alternative<Checked<SqueezeAttrs>>(op) || std::holds_alternative<Checked<UnsqueezeAttrs>>(op);
}

MemoryPlan plan_memory(const Plan<float>& plan, const std::vector<FusedGroup>& groups) {
  MemoryPlan out;
  out.slots.resize(plan.nodes.size());
  Arena arena;
  // A value's storage is its root's: the value itself, or for a view the root of its input.
  std::map<std::pair<int64_t, int>, std::pair<int64_t, int>> root;
  std::map<std::pair<int64_t, int>, int> readers_alive;  // per root: itself and its live views
  const auto release = [&](const ValueRef& v) {
    const auto it = root.find({v.node, v.output});
    if (it == root.end()) return;  // fused away: never materialised
    const auto r = it->second;
    if (--readers_alive[r] == 0) arena.give_back(out.slots[static_cast<size_t>(r.first)][static_cast<size_t>(r.second)].offset);
  };

  // The engine copies every run-time input into its slot before the first step, so inputs are
  // placed first: a later Input node must not share storage with a value computed before it.
  const auto is_input = [&](const FusedGroup& g) { return std::holds_alternative<Checked<InputAttrs>>(plan.nodes[g.head].op); };
  std::vector<const FusedGroup*> order;
  for (const FusedGroup& group : groups)
    if (is_input(group)) order.push_back(&group);
  for (const FusedGroup& group : groups)
    if (!is_input(group)) order.push_back(&group);

  for (const FusedGroup* placed : order) {
    const FusedGroup& group = *placed;
    const PlannedNode<float>& head = plan.nodes[group.head];
    const PlannedNode<float>& last = plan.nodes[group.last()];
    const auto& shapes = outputs_of(last.op);
    auto& slots = out.slots[static_cast<size_t>(last.node->id)];
    slots.resize(shapes.size());
    for (size_t k = 0; k < shapes.size(); ++k) {
      Slot& s = slots[k];
      s.shape = shapes[k];
      s.kind = kind_of(last.op);
      const std::pair<int64_t, int> value{last.node->id, static_cast<int>(k)};
      if (is_view(head.op)) {
        const ValueRef in = head.node->inputs[0];
        const auto r = root.at({in.node, in.output});
        s.offset = out.slots[static_cast<size_t>(r.first)][static_cast<size_t>(r.second)].offset;
        root[value] = r;
        ++readers_alive[r];
      } else {
        s.offset = arena.take(s.shape.count() * element_bytes(s.kind));
        root[value] = value;
        readers_alive[value] = 1;
      }
    }
    for (auto i : {std::optional(group.head), group.batch_norm, group.relu})
      if (i)
        for (const ValueRef& v : plan.nodes[*i].frees) release(v);
  }
  out.arena_bytes = arena.end();
  out.live_peak_bytes = arena.peak_live();
  return out;
}

}  // namespace nnref::fastpath

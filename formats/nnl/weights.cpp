#include "formats/nnl/weights.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>

#include "formats/nnl/layers.hpp"
#include "formats/onnx/onnx.hpp"
#include "formats/tensor_files/npy.hpp"
#include "semantics/memory.hpp"

namespace nnref::nnl {

namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string lower_ascii(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

class Loader {
 public:
  Loader(Model& m, const Program& p, const SourceLoc& loc, int64_t budget, Diags& d)
      : m_(m), loc_(loc), budget_(budget), d_(d) {
    for (const LayerDecl& L : p.layers) types_.emplace(L.id, L.type);
  }

  // Stores one tensor named `<a>.<b>`; false when the memory budget is exhausted (reported).
  bool store(const std::string& name, HostTensor t, const std::string& source) {
    // The payload holds every value as a double until a plan converts it.
    const int64_t bytes = tensor_bytes(CDim(t.shape.count()), sizeof(double)).v;
    if (bytes > budget_ - total_) {
      d_.error("size.budget",
               "weights exceed the memory budget of " + std::to_string(budget_) + " bytes at '" + source + "' (" +
                   std::to_string(total_) + " bytes loaded before it, " + std::to_string(bytes) + " more needed)",
               loc_);
      return false;
    }
    total_ += bytes;
    size_t dot = name.find('.');
    std::string a = dot == std::string::npos ? name : name.substr(0, dot);
    std::string b = dot == std::string::npos ? std::string() : name.substr(dot + 1);
    std::string role = b;
    auto it = types_.find(a);
    if (it != types_.end()) {
      if (const LayerSpec* spec = find_layer_spec(it->second))
        for (const WeightFile& w : spec->weights)
          if (b == w.file) role = w.role;
    }
    // An entry no layer declares keeps its own name in messages ("bn_var", not "bn_var/").
    m_.param_keys.emplace(std::pair{a, role}, name);
    m_.payload.set(a, role, ParamEntry{std::move(t), source});
    return true;
  }

  void directory(const fs::path& dir) {
    std::error_code ec;
    std::vector<fs::path> files;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
      d_.error("io.weights-unreadable", "cannot list weights directory '" + dir.string() + "': " + ec.message(), loc_);
      return;
    }
    for (; it != end; it.increment(ec)) {
      if (ec) break;
      const fs::path& f = it->path();
      std::error_code ec2;
      if (f.extension() == ".npy" && fs::is_regular_file(f, ec2)) files.push_back(f);
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      std::error_code ec2;
      auto size = fs::file_size(f, ec2);
      // A quick refusal before reading: the data of a file is at most 8 bytes per element.
      if (!ec2 && size > 4096 && static_cast<int64_t>(size - 4096) > budget_ - total_) {
        d_.error("size.budget",
                 "weights exceed the memory budget of " + std::to_string(budget_) + " bytes at '" + f.string() + "'",
                 loc_);
        return;
      }
      Result<HostTensor> t = read_npy(f.string());
      if (!t) {
        d_.add(t.error());
        continue;
      }
      if (!store(f.stem().string(), std::move(t).value(), f.string())) return;
    }
  }

  // An .npz archive, or the initializers of an .onnx model, by name.
  void archive(const fs::path& path, bool onnx) {
    const int64_t left = std::max<int64_t>(budget_ - total_, 0);
    Result<NamedTensors> r =
        onnx ? read_onnx_initializers(path.string(), left) : read_npz(path.string(), static_cast<uint64_t>(left));
    if (!r) {
      Diagnostic e = std::move(r).error();
      // Over budget, the archive is not at fault: point where the weights are named, as for a directory.
      if (e.code == "size.budget") e.loc = loc_;
      d_.add(std::move(e));
      return;
    }
    for (auto& [name, t] : r.value())
      if (!store(name, std::move(t), path.string() + ":" + name)) return;
  }

 private:
  Model& m_;
  SourceLoc loc_;
  int64_t budget_;
  int64_t total_ = 0;
  Diags& d_;
  std::map<std::string, std::string> types_;  // first declaration of each id
};

}  // namespace

std::string resolve_weights_path(const std::string& weights, const std::string& model_file) {
  fs::path w(weights);
  if (w.is_absolute()) return w.lexically_normal().string();
  fs::path dir = fs::path(model_file).parent_path();
  if (dir.empty()) return w.lexically_normal().string();
  return (dir / w).lexically_normal().string();
}

void load_weights(Model& m, const Program& p, int64_t max_memory, bool if_present, Diags& d) {
  const std::string& path = m.weights_path;
  const SourceLoc& loc = m.weights_loc;
  std::string lower = lower_ascii(path);
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    if (!if_present)
      d.error("io.weights-missing", "weights '" + path + "' do not exist", loc, {},
              {"`nnref init-weights " + m.path + "` writes random weights there"});
    return;
  }
  m.weights_loaded = true;
  Loader loader(m, p, loc, max_memory, d);
  if (fs::is_directory(st)) {
    loader.directory(path);
  } else if (ends_with(lower, ".npz") || ends_with(lower, ".onnx")) {
    loader.archive(path, ends_with(lower, ".onnx"));
  } else {
    d.error("nnl.weights.unknown-format",
            "weights '" + path + "' are neither a directory of .npy files, an .npz archive nor an .onnx model", loc);
  }
}

}  // namespace nnref::nnl

#include "cli/suite_cases.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

namespace nnref {

namespace {

namespace fs = std::filesystem;

// The number after `prefix` in a file or folder name (input_12.pb: 12), or -1.
long number_after(const std::string& name, const std::string& prefix, const std::string& suffix) {
  if (!name.starts_with(prefix) || !name.ends_with(suffix) || name.size() <= prefix.size() + suffix.size()) return -1;
  const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return -1;
  return std::stol(digits);
}

// The entries of `dir` named prefix<k>suffix, by k.
std::vector<fs::path> numbered(const fs::path& dir, const std::string& prefix, const std::string& suffix) {
  std::vector<std::pair<long, fs::path>> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const long k = number_after(e.path().filename().string(), prefix, suffix);
    if (k >= 0) found.emplace_back(k, e.path());
  }
  std::sort(found.begin(), found.end());
  std::vector<fs::path> out;
  for (auto& [k, p] : found) out.push_back(std::move(p));
  return out;
}

bool is_test_folder(const fs::path& p) {
  return fs::is_directory(p) && fs::is_regular_file(p / "model.onnx") && !numbered(p, "test_data_set_", "").empty();
}

// A folder name for the model: its folder's name for a file called model.* (examples/mlp/model.nnl:
// mlp), else its own name without the extension.
std::string model_case_name(const fs::path& model) {
  const fs::path abs = fs::absolute(model).lexically_normal();
  const fs::path file = abs.filename().empty() ? abs.parent_path() : abs;
  if (file.stem() == "model" && !file.parent_path().filename().empty()) return file.parent_path().filename().string();
  return file.stem().string();
}

}  // namespace

Result<std::vector<SuiteCase>> suite_cases(const std::vector<std::string>& sources) {
  std::vector<SuiteCase> cases;
  for (const std::string& source : sources) {
    const fs::path p(source);
    std::error_code ec;
    if (!fs::exists(p, ec))
      return make_error("io.suite-source", "'" + source + "' does not exist: give a model file, or an ONNX backend "
                                           "test folder (model.onnx, test_data_set_*/input_*.pb)");
    if (is_test_folder(p)) {
      const std::vector<fs::path> sets = numbered(p, "test_data_set_", "");
      const std::string base = fs::absolute(p).lexically_normal().filename().string().empty()
                                   ? fs::absolute(p).lexically_normal().parent_path().filename().string()
                                   : fs::absolute(p).lexically_normal().filename().string();
      for (const fs::path& set : sets) {
        SuiteCase c;
        c.name = sets.size() == 1 ? base : base + "-" + set.filename().string().substr(14);
        c.source = set.string();
        c.model = (p / "model.onnx").string();
        for (const fs::path& f : numbered(set, "input_", ".pb")) c.inputs.push_back(f.string());
        cases.push_back(std::move(c));
      }
      continue;
    }
    SuiteCase c;
    c.name = model_case_name(p);
    c.source = source;
    c.model = source;
    // Beside the model file; inside a model folder (NNEF).
    const fs::path dir = fs::is_directory(p) ? p : p.parent_path().empty() ? fs::path(".") : p.parent_path();
    if (fs::is_regular_file(dir / "input.npy")) c.inputs.push_back((dir / "input.npy").string());
    else if (fs::is_regular_file(dir / "input.npz")) c.inputs.push_back((dir / "input.npz").string());
    else
      c.problem = make_error("io.suite-no-input", "no input.npy or input.npz in '" + dir.string() + "' beside the model '" +
                                                      source + "': the suite computes its bounds on those inputs");
    cases.push_back(std::move(c));
  }
  // Names unique: a second "mlp" becomes "mlp-2".
  std::set<std::string> taken;
  for (SuiteCase& c : cases) {
    std::string name = c.name;
    for (int k = 2; taken.count(name); ++k) name = c.name + "-" + std::to_string(k);
    c.name = name;
    taken.insert(name);
  }
  return cases;
}

}  // namespace nnref

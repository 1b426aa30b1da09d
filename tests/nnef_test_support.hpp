// Helpers shared by the parts of nnef_test: NNEF text in a temporary model folder, loaded and
// evaluated in float64.
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "formats/nnef/dat.hpp"
#include "formats/nnef/nnef.hpp"
#include "semantics/evaluate.hpp"

namespace nnref::test {

// A fresh model folder under the system's temporary directory, removed at the end of the test.
class Folder {
 public:
  Folder() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("nnref_nnef_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~Folder() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }
  void write(const std::string& rel, const std::string& bytes) const {
    const auto p = path_ / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
  }

 private:
  std::filesystem::path path_;
};

inline LoadResult load_text(const std::string& text, const Folder& f, WeightsPolicy w = WeightsPolicy::Required,
                            int64_t max_memory = int64_t{1} << 30) {
  f.write("graph.nnef", text);
  LoadOptions o;
  o.weights = w;
  o.max_memory = max_memory;
  return load_nnef(f.path().string(), o);
}

inline std::string dump(const LoadResult& r) {
  std::string s;
  for (const auto& d : r.diagnostics) s += format_diagnostic(d) + "\n";
  return s;
}

// The model's outputs in float64 for these inputs (in graph input order).
inline std::vector<std::vector<double>> run_f64(const LoadResult& r, const std::vector<HostTensor>& inputs) {
  INFO(dump(r));
  REQUIRE(r.model);
  auto out = evaluate<double>(r.model->graph, r.model->payload, inputs, {});
  INFO((out.ok() ? std::string() : format_diagnostic(out.error())));
  REQUIRE(out.ok());
  std::vector<std::vector<double>> values;
  for (const auto& t : out.value()) values.emplace_back(t.data().begin(), t.data().end());
  return values;
}

// `output = call;` on line 4 of a graph whose input is [1, 1, 3]: its first diagnostic has `code`
// and that line.
inline void expect_statement_error(const std::string& call, const std::string& code) {
  Folder f;
  const LoadResult r = load_text("version 1.0;\ngraph G( input ) -> ( output ) {\n    input = external(shape = [1, 1, 3]);\n"
                                 "    output = " + call + ";\n}", f, WeightsPolicy::Skip);
  INFO(call);
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].code == code);
  CHECK(r.diagnostics[0].loc.line == 4);
}

inline HostTensor host(std::vector<int64_t> shape, std::vector<double> values) {
  return HostTensor{DType::F64, Shape::make(std::move(shape)).value(), std::move(values)};
}

}  // namespace nnref::test

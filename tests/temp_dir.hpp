// A scratch directory for one test process: unique per process id and tag (ctest runs every test
// case as its own process, in parallel), created empty and removed when the test ends.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace nnref::test {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& tag) {
    path = std::filesystem::temp_directory_path() / ("nnref_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::filesystem::path operator/(const std::string& name) const { return path / name; }
};

}  // namespace nnref::test

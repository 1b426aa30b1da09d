// Internal helpers shared by npy.cpp and npz.cpp (not part of the public interface).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/result.hpp"

namespace nnref::npy_detail {

// The whole file; "io.read" (with the OS reason) when it cannot be opened or read, or is a
// directory.
Result<std::vector<uint8_t>> read_file_bytes(const std::string& path);

// Writes (truncating) the file; "io.write" with the OS reason on failure.
Status write_file_bytes(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace nnref::npy_detail

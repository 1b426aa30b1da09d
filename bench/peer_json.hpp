// Running a peer (a Python script that times PyTorch) from a benchmark and reading its answer.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace nnref::bench {

// The JSON object `command` prints (through the shell), or nullopt if it fails, prints something
// else, or lacks one of `keys`.
std::optional<nlohmann::json> peer_json(const std::string& command, std::initializer_list<const char*> keys);

// s in single quotes, for the shell.
std::string quoted(const std::string& s);

}  // namespace nnref::bench

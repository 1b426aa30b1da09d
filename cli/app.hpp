// The nnref command as a function, so tests can run it in-process: args exclude the program name.
// Exit codes: 0 fine, 1 the model is invalid or a check failed, 2 usage or I/O error, 3 (check)
// everything checked was proved, but the bindings were not checked: the weights do not exist.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace nnref {

// 3: check could not read the weights (bindings not checked), conform judged not every element.
enum ExitCode { kExitOk = 0, kExitInvalid = 1, kExitUsage = 2, kExitBindingsNotChecked = 3, kExitInconclusive = 3 };

int run_app(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace nnref

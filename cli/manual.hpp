// The man page and the bash completion of nnref, written from the CLI11 app itself (its subcommands,
// options, descriptions and validators), so that neither can drift from `nnref --help`. The hidden
// options `nnref --man-page` and `nnref --bash-completion` print them; the build writes
// build/nnref.1 and build/nnref.bash-completion with them each time nnref links (cli/CMakeLists.txt).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace nnref {

// man(7) roff: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, then one section per command and nested command
// (`nnref nac compile`), each with its usage line, positionals and options as --help prints them.
std::string man_page(const CLI::App& app, const std::string& version);

// A bash script that defines and registers `_nnref`: the subcommands at each level, the options of
// each command, the choices of options whose validator lists them, and file names elsewhere.
std::string bash_completion(const CLI::App& app);

}  // namespace nnref

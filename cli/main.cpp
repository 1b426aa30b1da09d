#include <iostream>

#include "cli/app.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return nnref::run_app(args, std::cout, std::cerr);
}

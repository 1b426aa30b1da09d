// A Z3 integer or boolean term over the size symbols as infix text, in the syntax --assume
// accepts: "input.0 % 4 == 0", "(input.0 - 3) / 2 + 1" ("/" is floor division).
#pragma once

#include <string>

#include <z3++.h>

namespace nnref {

std::string term_text(const z3::expr& e);

// While one is alive on a thread, term_text there remembers each term's text: the shape rules
// print the same few extents into the message of every obligation. The checker holds one per
// check; it must not outlive the context of the terms it has seen.
class TermTextCache {
 public:
  TermTextCache();
  ~TermTextCache();
  TermTextCache(const TermTextCache&) = delete;
  TermTextCache& operator=(const TermTextCache&) = delete;

 private:
  TermTextCache* outer_;
};

}  // namespace nnref

// Spelling suggestions: "did you mean 'units'?" for a name close to one the reader knows, and the
// pairing of a missing parameter with a weights entry that looks like it ("bn.running_var" and
// "bn_var").
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace nnref {

// The optimal-string-alignment distance between a and b, ignoring ASCII case: insertions,
// deletions, substitutions and swaps of two adjacent characters, each one edit.
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `word`, when it is a likely misspelling of it: at most max(1, |word| / 3)
// edits away. Ties go to the earlier candidate; an exact match is not a suggestion.
std::optional<std::string> closest_spelling(const std::string& word, const std::vector<std::string>& candidates);

// Whether two parameter names look like the same parameter: a few edits apart as a whole, or with
// the same layer prefix (the text before the first '.', '_', '-' or '/') and parameter parts one of
// which contains the other or that are a few edits apart ("bn.running_var" and "bn_var").
bool params_look_alike(const std::string& a, const std::string& b);

// The candidate that looks most like the parameter `name` (fewest edits), if any does.
std::optional<std::string> lookalike_param(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace nnref

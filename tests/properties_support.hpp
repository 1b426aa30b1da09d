// Properties over generated models with rapidcheck: a case is a vector of choices that
// Choices::replay and generate() turn into a model, so rapidcheck's own shrinking of the vector
// (fewer, smaller choices) shrinks the model. CI runs each property with a fixed seed and count;
// RC_PARAMS, when set, decides both (and replays a failure: docs/testing.md).
#pragma once

#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "properties/generate.hpp"

namespace nnref::properties {

inline constexpr uint64_t kPropertySeed = 20261124;

// The model a case's choices build; generate() fails only for bad options, which a test's are not.
inline GeneratedModel model_of(const std::vector<uint64_t>& choices, const GenOptions& options) {
  Choices replay = Choices::replay(choices);
  auto g = generate(replay, options);
  RC_ASSERT(g.ok());
  return std::move(g).value();
}

// Runs `property` (which asserts with RC_ASSERT) on `count` generated models; a failure is
// reported through Catch with rapidcheck's shrunk case and its reproduction string.
inline void check_models(const std::string& name, int count, const GenOptions& options,
                         const std::function<void(const GeneratedModel&)>& property) {
  const auto testable = [&] {
    // About 20 choices per unit of rapidcheck's size: room for the leaves' values of a model
    // of ten nodes; past the end a replay reads 0, the simplest value.
    const auto choices = *rc::gen::scale(20.0, rc::gen::arbitrary<std::vector<uint64_t>>());
    property(model_of(choices, options));
  };
  rc::detail::TestMetadata metadata;
  metadata.id = name;
  metadata.description = name;
  const rc::detail::TestResult result = [&] {
    if (std::getenv("RC_PARAMS") != nullptr) return rc::detail::checkTestable(testable, metadata);  // seed, count, reproduce
    rc::detail::TestParams params;
    params.seed = kPropertySeed;
    params.maxSuccess = count;
    return rc::detail::checkTestable(testable, metadata, params);
  }();
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  INFO(name << ": " << message.str());
  CHECK(result.template is<rc::detail::SuccessResult>());
}

}  // namespace nnref::properties

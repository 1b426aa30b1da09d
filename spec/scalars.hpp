// Every scalar the evaluator is instantiated in: X(ARG, scalar) for each. CMake reads this list
// (cmake/ops.cmake) to instantiate each op's kernel in every scalar.
#pragma once

#include "spec/scalar.hpp"
#include "spec/scalar_envelope.hpp"
#include "spec/scalar_interval.hpp"

#define NNREF_FOR_EACH_SCALAR(X, ARG) X(ARG, float) X(ARG, double) X(ARG, mp50) X(ARG, Interval) X(ARG, Envelope)

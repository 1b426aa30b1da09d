#!/usr/bin/python3
"""ONNX's own backend tests through nnref.onnx_backend (docs/python.md, "The ONNX backend"): the
runner onnx.backend.test.BackendTest(nnref.onnx_backend, __name__), unchanged (its comparison:
dtype equal, then numpy.testing.assert_allclose at rtol 1e-3, atol 1e-7), over the test data of
Debian's libonnx-testdata (onnx's runner reads onnx/backend/test/data, a link to it): the node tests,
and the simple, pytorch-converted and pytorch-operator models. The "real" models are left out: the
runner downloads them.

Passes when no case fails or errs; every skip is a device other than the CPU, or a model
supports_model refuses with a code of nnref.onnx_backend.UNSUPPORTED, or an Unsupported raised by
run; at least NODE_PASSED_AT_LEAST node tests pass; and the cases known to fail (KNOWN_FAILURES,
each a bug in nnref, run as the runner's expected failures) still fail. Prints the counts, per
category, passed and skipped by code.

With --nnref, the node tests' split is also compared with the one `nnref run` gives
(scripts/onnx_node_tests.py): the cases the runner passes must be exactly the ones the command
passes (inputs bound at load included: the backend binds them as run does), plus test_constant (no graph input,
which the script skips since `nnref run` needs an --input).

  PYTHONPATH=build/python /usr/bin/python3 tests/python/onnx_backend_suite.py [--nnref build/nnref]
"""
import argparse
import collections
import os
import sys
import tempfile
import time
import unittest

import numpy as np
import onnx

# onnx 1.12's runner compares dtypes with numpy.object, the alias of `object` NumPy 1.24 removed
# (Debian has NumPy 1.24): restored, so that the runner runs as written.
if "object" not in np.__dict__:
    np.object = object

import onnx.backend.test  # noqa: E402
from onnx.backend.test.loader import DATA_DIR  # noqa: E402

import nnref.onnx_backend  # noqa: E402

CATEGORIES = {"OnnxBackendNodeModelTest": "node", "OnnxBackendSimpleModelTest": "simple",
              "OnnxBackendPyTorchConvertedModelTest": "pytorch-converted",
              "OnnxBackendPyTorchOperatorModelTest": "pytorch-operator"}
# The node tests passed at the time of writing; more ops read make more pass, never fewer.
NODE_PASSED_AT_LEAST = 856  # measured: every node test `nnref run` passes (125 with inputs bound at load)
# Cases that fail because of a bug, in nnref or in the test data, with the bug. Run as expected
# failures: one that passes fails the suite, so that it is taken off this list. The test data's
# (scripts/onnx_node_tests.py, KNOWN_DISAGREEMENTS, says the same of `nnref run`):
_LIKE_SHAPE = "the test data's `like` input has shape [1], the model declares [3, 4]: nnref refuses the input"
_SCALE_TIE = ("the expected output divides by y_scale rounded to float32 at an exact tie (-127.5): 26 where the "
              "formula gives 25; conform accepts both (docs/onnx.md, DynamicQuantizeLinear)")
# test_cast_FLOAT_to_BFLOAT16 passes here: the runner compares the uint16 bit patterns as numbers,
# one bfloat16 ulp apart within its rtol (scripts/onnx_node_tests.py compares the values).
KNOWN_FAILURES = {"test_castlike_FLOAT_to_BFLOAT16_cpu": _LIKE_SHAPE,
                  "test_castlike_FLOAT_to_BFLOAT16_expanded_cpu": _LIKE_SHAPE,
                  "test_castlike_BFLOAT16_to_FLOAT_cpu": _LIKE_SHAPE,
                  "test_castlike_BFLOAT16_to_FLOAT_expanded_cpu": _LIKE_SHAPE,
                  "test_dynamicquantizelinear_cpu": _SCALE_TIE,
                  "test_dynamicquantizelinear_expanded_cpu": _SCALE_TIE}
NOT_COMPATIBLE = "Not compatible with backend"


def case_dir(category, test):
    """The data folder of a test named test_X_cpu."""
    return os.path.join(DATA_DIR, category, test[: -len("_cpu")])


def run_suite():
    backend_test = onnx.backend.test.BackendTest(nnref.onnx_backend, __name__)
    for name in KNOWN_FAILURES:
        backend_test.xfail("^%s$" % name)
    cases = backend_test.test_cases
    suite = unittest.TestSuite()
    for name in CATEGORIES:
        suite.addTests(unittest.defaultTestLoader.loadTestsFromTestCase(cases[name]))
    cpu = collections.Counter(category_of(t) for t in suite if t._testMethodName.endswith("_cpu"))
    with open(os.devnull, "w") as quiet:
        return unittest.TextTestRunner(stream=quiet, verbosity=0).run(suite), suite.countTestCases(), cpu


def category_of(test):
    return CATEGORIES[type(test).__name__]


def skip_reason(test, message):
    """The code of a skip: 'device' (CUDA), the refusal's code for a model supports_model refuses,
    or the code of an Unsupported raised by run; None for a skip of no known kind."""
    name = test._testMethodName
    if not name.endswith("_cpu"):
        return "device"
    if message == NOT_COMPATIBLE:
        err = nnref.onnx_backend.refusal(onnx.load(os.path.join(case_dir(category_of(test), name), "model.onnx")))
        return err.code if err is not None else None
    codes = [c for c in nnref.onnx_backend.UNSUPPORTED if "error[%s]" % c in message]
    return codes[0] if codes else None


def cli_split(nnref_binary):
    """{case: status} for the node tests as scripts/onnx_node_tests.py gives them from `nnref run`;
    a case passed with inputs bound at load (note[onnx.input-bound]) has status 'passed with inputs bound'."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
    import onnx_node_tests
    data = os.path.join(DATA_DIR, "node")
    out = {}
    with tempfile.TemporaryDirectory() as scratch:
        for case in sorted(os.listdir(data)):
            status, why, _, _ = onnx_node_tests.run_case(nnref_binary, os.path.join(data, case), scratch, conform=False)
            out[case] = status + (" with inputs bound" if status == "passed" and why else "")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nnref", help="the nnref binary, to compare the node tests' split with `nnref run`'s")
    args = ap.parse_args()
    start = time.monotonic()
    result, total, cpu = run_suite()
    seconds = time.monotonic() - start
    problems = []
    for test, trace in result.failures + result.errors:
        problems.append("FAILED %s:\n%s" % (test.id(), trace))
    for test in result.unexpectedSuccesses:
        problems.append("PASSED %s, a known failure (%s): take it off KNOWN_FAILURES" % (
            test.id(), KNOWN_FAILURES[test._testMethodName]))
    skipped = collections.defaultdict(collections.Counter)
    skipped_tests = collections.defaultdict(set)
    for test, message in result.skipped:
        code = skip_reason(test, message)
        if code is None:
            problems.append("SKIPPED %s for a reason that is no refusal of nnref: %s" % (test.id(), message))
        skipped[category_of(test)][code] += 1
        if code != "device":
            skipped_tests[category_of(test)].add(test._testMethodName[: -len("_cpu")])
    print("onnx.backend.test.BackendTest(nnref.onnx_backend) on %s: %d tests (CPU and CUDA) in %.1f s" % (
        DATA_DIR, total, seconds))
    passed_by = {}
    for category in CATEGORIES.values():
        cpu_cases = cpu[category]
        known = sum(1 for t, _ in result.expectedFailures if category_of(t) == category)
        refused = sum(n for code, n in skipped[category].items() if code != "device")
        passed_by[category] = cpu_cases - refused - known - sum(
            1 for t, _ in result.failures + result.errors if category_of(t) == category and t.id().endswith("_cpu"))
        print("  %s: %d cases on the CPU, %d passed, %d skipped (%s), %d known failures; CUDA: %d skipped" % (
            category, cpu_cases, passed_by[category], refused,
            ", ".join("%s %d" % kv for kv in sorted(skipped[category].items()) if kv[0] != "device"), known,
            skipped[category]["device"]))
    print("%d failures, %d errors, %d known failures (%s)" % (
        len(result.failures), len(result.errors), len(result.expectedFailures),
        "; ".join(sorted({KNOWN_FAILURES[t._testMethodName] for t, _ in result.expectedFailures}))))
    if passed_by["node"] < NODE_PASSED_AT_LEAST:
        problems.append("%d node tests passed, fewer than %d" % (passed_by["node"], NODE_PASSED_AT_LEAST))
    if args.nnref:
        split = cli_split(args.nnref)
        known = {name[: -len("_cpu")] for name in KNOWN_FAILURES}
        runner_passed = set(split) - skipped_tests["node"] - known
        cli_passed = {c for c, s in split.items() if s.startswith("passed")}
        bound = sum(1 for s in split.values() if s == "passed with inputs bound")
        print("nnref run (scripts/onnx_node_tests.py): %s" % ", ".join(
            "%s %d" % kv for kv in sorted(collections.Counter(split.values()).items())))
        print("the runner passes %d node tests; `nnref run` passes %d, %d of them with inputs bound at load" % (
            len(runner_passed), len(cli_passed), bound))
        import onnx_node_tests  # on the path since cli_split
        for c in sorted((runner_passed ^ cli_passed) - set(onnx_node_tests.KNOWN_DISAGREEMENTS)):
            problems.append("%s: %s by the runner, %s by `nnref run`" % (
                c, "passed" if c in runner_passed else "skipped", split[c]))
    for p in problems:
        print(p)
    print("onnx_backend: %s" % ("FAILED" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

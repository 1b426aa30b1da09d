#!/usr/bin/python3
"""Bad model folders given to the nnref command, one per diagnostic code (issue 33).

tests/data/nnef2/bad/cases.txt lists the cases: a folder each (main.sknd, or an NNEF 1.0
graph.nnef, with .dat files where the case needs them), the command, the exit code, the code of
the first error and its file:line:column. Each case is run with the built nnref, which must exit
with that code (not by a signal), print the located error `FOLDER/FILE:LINE:COLUMN: error[CODE]`
first, name `error[CODE]` once, and print no sanitizer report or internal error.

The corpus must keep up with docs/nnef2.md: every code of its "Diagnostic codes" tables needs a
case, unless UNREACHABLE below says why no model folder can give it; every code of
formats/nnef2_model/codes.cpp (check --explain) must be in those tables, and the reverse; every
folder needs a line of cases.txt, and the reverse.

Usage:
    sknd_bad_inputs.py --nnref BIN [--filter TEXT] [--verbose]
    sknd_bad_inputs.py --self-test
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "tests", "data", "nnef2", "bad")
DOCS = os.path.join(ROOT, "docs", "nnef2.md")
CODES_CPP = os.path.join(ROOT, "formats", "nnef2_model", "codes.cpp")

# Codes of the docs' tables that no model folder reaches, each with the reason.
UNREACHABLE = {
    # The evaluator computes every built-in the parser recognises (parser.cpp's is_builtin and
    # eval.cpp's builtin() list the same 22 functions); the code guards against the two lists
    # drifting apart.
    "nnef2.eval.builtin",
    # A defect of nnref itself: its embedded standard library failing to parse, or a native
    # mapping computing another output shape than the definition. No model text causes it.
    "nnef2.internal",
    # A native mapping refuses tensor kinds its IR op does not take (an int division), and the
    # operator then runs from its @lower body; every standard operator mapped natively without one
    # (reshape, mean_reduce, avg_pool, softmax, batch_norm, cumsum) takes reals or any kind.
    "nnef2.native.kind",
}

SANITIZER_TEXT = ("Sanitizer", "runtime error:", "internal.exception", "internal.signal", "Segmentation fault")


@dataclass
class Case:
    name: str
    command: str  # check, run or run-lowered
    exit: int
    code: str
    location: str  # FILE:LINE:COLUMN, FILE in the case's folder
    inputs: dict  # name -> shape, for run


def read_cases(path):
    cases = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fields = line.split()
            if len(fields) not in (5, 6) or fields[1] not in ("check", "run", "run-lowered"):
                raise SystemExit(f"{path}:{number}: expected 'case command exit code location [inputs]'")
            inputs = {}
            for item in fields[5].split(",") if len(fields) == 6 else []:
                name, shape = item.split("=")
                inputs[name] = tuple(int(e) for e in shape.split("x"))
            cases.append(Case(fields[0], fields[1], int(fields[2]), fields[3], fields[4], inputs))
    return cases


def documented_codes(path):
    """The codes of docs/nnef2.md's "Diagnostic codes" tables: `nnef2.a.b` `.c` is nnef2.a.b, nnef2.a.c."""
    text = open(path).read()
    section = text.split("\n## Diagnostic codes", 1)[1].split("\n## ", 1)[0]
    codes = set()
    for row in section.splitlines():
        if not row.startswith("| `"):
            continue
        first = row.split("|")[1]
        prefix = None
        for token in re.findall(r"`([^`]+)`", first):
            if token.startswith("nnef2."):
                codes.add(token)
                prefix = token.rsplit(".", 1)[0]
            elif token.startswith(".") and prefix:
                codes.add(prefix + token)
    return codes


def explained_codes(path):
    return set(re.findall(r'CodeInfo\{"(nnef2\.[^"]+)"', open(path).read()))


def coverage_problems(cases, documented, explained, folders):
    problems = []
    covered = {c.code for c in cases}
    for code in sorted(documented - covered - UNREACHABLE):
        problems.append(f"{code}: in docs/nnef2.md's tables, but no case and not in UNREACHABLE")
    for code in sorted(UNREACHABLE & covered):
        problems.append(f"{code}: has a case, but is listed as unreachable")
    for code in sorted(UNREACHABLE - documented):
        problems.append(f"{code}: listed as unreachable, but not in docs/nnef2.md's tables")
    for code in sorted({c for c in covered if c.startswith("nnef2.")} - documented):
        problems.append(f"{code}: a case expects it, but docs/nnef2.md's tables do not list it")
    for code in sorted(explained ^ documented):
        where = "codes.cpp" if code in explained else "docs/nnef2.md"
        problems.append(f"{code}: only in {where} (the two must list the same codes)")
    names = [c.name for c in cases]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(f"{name}: listed twice in cases.txt")
    for name in sorted(set(folders) - set(names)):
        problems.append(f"{name}: a folder without a line in cases.txt")
    for name in sorted(set(names) - set(folders)):
        problems.append(f"{name}: in cases.txt, but there is no such folder")
    return problems


def judge(case, folder, returncode, stderr):
    """The problems with one run's outcome (an empty list: the case passes)."""
    problems = []
    if returncode < 0:
        problems.append(f"killed by signal {-returncode}")
    elif returncode != case.exit:
        problems.append(f"exit code {returncode}, expected {case.exit}")
    for text in SANITIZER_TEXT:
        if text in stderr:
            problems.append(f"stderr holds '{text}'")
    tag = f"error[{case.code}]"
    if stderr.count(tag) != 1:
        problems.append(f"stderr names {tag} {stderr.count(tag)} times, expected once")
    errors = re.findall(r"^(\S+): error\[([^\]]+)\]", stderr, re.MULTILINE)
    want = (os.path.join(folder, case.location), case.code)
    if not errors:
        problems.append("no located error")
    elif errors[0] != want:
        problems.append(f"first error {errors[0][1]} at {errors[0][0]}, expected {want[1]} at {want[0]}")
    return problems


def command_line(nnref, case, folder, work):
    if case.command == "check":
        return [nnref, "check", folder]
    import numpy as np  # only the cases that run need input files

    cmd = [nnref, "run", folder, "--output", os.path.join(work, "out.npz")]
    for name, shape in case.inputs.items():
        path = os.path.join(work, name + ".npy")
        np.save(path, np.zeros(shape))
        cmd += ["--input", f"{name}={path}"]
    if case.command == "run-lowered":
        cmd += ["--sknd-kernels", "lowered"]
    return cmd


def run_case(nnref, case, verbose):
    folder = os.path.relpath(os.path.join(CORPUS, case.name), ROOT)
    with tempfile.TemporaryDirectory(prefix="sknd_bad_") as work:
        cmd = command_line(nnref, case, folder, work)
        start = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=ROOT, timeout=60)
        seconds = time.monotonic() - start
    problems = judge(case, folder, p.returncode, p.stderr)
    status = "FAIL" if problems else "ok"
    print(f"{status:4} {case.name:32} {case.code:34} {seconds:6.2f} s")
    for problem in problems:
        print(f"       {problem}")
    if problems or verbose:
        print("       $ " + " ".join(cmd))
        print("".join("       | " + line + "\n" for line in p.stderr.splitlines()[:8]), end="")
    return not problems


def self_test():
    """judge() and coverage_problems() fail on what they must refuse."""
    case = Case("c", "check", 1, "nnef2.op.unknown", "main.sknd:3:4", {})
    good = "f/main.sknd:3:4: error[nnef2.op.unknown]: 'nn.x': module nn has no operator 'x'\n"
    assert judge(case, "f", 1, good) == []
    assert judge(case, "f", 2, good)  # the exit code
    assert judge(case, "f", -11, good)  # a signal
    assert judge(case, "f", 1, good.replace(":3:4:", ":3:5:"))  # the column
    assert judge(case, "f", 1, good.replace("f/main", "g/main"))  # the file
    assert judge(case, "f", 1, good + good)  # named twice
    assert judge(case, "f", 1, "f/main.sknd:0:0: error[nnef2.op.unknown]: x\n")  # unlocated
    assert judge(case, "f", 1, "error[nnef2.op.unknown]: x\n")  # no location at all
    assert judge(case, "f", 1, "f/main.sknd:1:1: error[nnef2.graph.missing]: x\n" + good)  # not first
    assert judge(case, "f", 1, good + "==1==ERROR: AddressSanitizer: heap-buffer-overflow\n")
    assert judge(case, "f", 1, good + "x.cpp:3:4: runtime error: signed integer overflow\n")

    documented = {"nnef2.a.b", "nnef2.a.c", *UNREACHABLE}
    cases = [Case("x", "check", 1, "nnef2.a.b", "main.sknd:1:1", {}),
             Case("y", "check", 1, "nnef2.a.c", "main.sknd:1:1", {})]
    assert coverage_problems(cases, documented, documented, ["x", "y"]) == []
    assert coverage_problems(cases[:1], documented, documented, ["x"])  # a code without a case
    assert coverage_problems(cases, documented | {"nnef2.a.d"}, documented, ["x", "y"])  # codes.cpp behind
    assert coverage_problems(cases, documented, documented, ["x", "y", "z"])  # a folder not listed
    assert coverage_problems(cases, documented, documented, ["x"])  # a listed case without its folder
    assert coverage_problems(cases + [Case("z", "check", 1, "nnef2.internal", "m:1:1", {})], documented,
                             documented, ["x", "y", "z"])  # an unreachable code with a case

    row = "| `nnef2.lower.rank` `.null` `.too-large` | an access |"
    text = "# x\n## Diagnostic codes\n\n| code | when |\n|---|---|\n" + row + "\n\n## Tests\n| `nnef2.no` | x |\n"
    with tempfile.NamedTemporaryFile("w", suffix=".md", delete=False) as f:
        f.write(text)
    try:
        assert documented_codes(f.name) == {"nnef2.lower.rank", "nnef2.lower.null", "nnef2.lower.too-large"}
    finally:
        os.unlink(f.name)
    print("self-test passed")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nnref", help="the nnref binary")
    parser.add_argument("--filter", default="", help="run only the cases whose name holds this text")
    parser.add_argument("--verbose", action="store_true", help="print every command and its stderr")
    parser.add_argument("--self-test", action="store_true", help="check the judge on outcomes written by hand")
    args = parser.parse_args()
    if args.self_test:
        self_test()
        return 0
    if not args.nnref:
        parser.error("--nnref is required")
    nnref = os.path.abspath(args.nnref)

    cases = read_cases(os.path.join(CORPUS, "cases.txt"))
    folders = [d for d in os.listdir(CORPUS) if os.path.isdir(os.path.join(CORPUS, d))]
    problems = coverage_problems(cases, documented_codes(DOCS), explained_codes(CODES_CPP), folders)
    for problem in problems:
        print("FAIL coverage: " + problem)

    start = time.monotonic()
    selected = [c for c in cases if args.filter in c.name]
    failed = [c.name for c in selected if not run_case(nnref, c, args.verbose)]
    codes = {c.code for c in cases}
    print(f"{len(selected)} cases, {len(selected) - len(failed)} passed, in {time.monotonic() - start:.1f} s; "
          f"{len(codes)} codes ({len({c for c in codes if c.startswith('nnef2.')})} nnef2.*), "
          f"{len(UNREACHABLE)} unreachable: {', '.join(sorted(UNREACHABLE))}")
    if failed:
        print("failed: " + " ".join(failed))
    return 1 if failed or problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""The soundness and detection suites of `nnref conform` (issue 11), run by the ctests
conform_soundness and conform_detects_bugs with the real nnref binary.

  soundness  every example model (examples/*/ with model.nnl and input.npy) and --count generated
             models (make_conform_cases.py, --seed), each judged against the outputs of every
             peer (float32_peers.py) at that peer's runtime precision. No verdict may be a
             rejection: a correct float32 (float16, bfloat16) computation is never rejected. At
             float32 every verdict must be "conforms" (exit 0); at float16 and bfloat16 it may be
             "inconclusive" (exit 3) where long sums have no rounding bound. Prints per peer the
             verdicts, the rejections, the elements not judged and how close to the edge the correct
             answers come: the largest share of its envelope's radius that an output's worst
             element uses (1 + excess_radii of conform's JSON; 1 is on the envelope's bound).
  engines    nnref's own float32 engines on the examples and --count generated models:
             `conform --engine f32` (the oracle in float), `conform --engine fast --threads 2` (the
             fast path) and `conform --engine hw` (the NAC hardware model, each model compiled to
             NAC in memory). Every verdict must be "conforms".
  bugs       the cases of inject_bugs.py --make-cases, each wrong output judged at f32. Every one
             must be rejected (exit 1); the correct float32 output it was derived from
             (numpy_f32_reversed) must conform, so the rejection is the bug's. Prints per bug how
             far outside the envelope it lies. The envelope is the worst-case rounding bound for
             any summation order, so a bug inside it cannot be told from rounding by any sound
             oracle: it is reported as not detected and fails the run.

A failure names the case, the peer or bug and prints conform's text report (its worst element).

Usage:
    conform_suite.py soundness --nnref PATH [--count 200] [--seed 1] [--peers all|A,B] [--jobs 2] [--work DIR]
    conform_suite.py engines --nnref PATH [--count 200] [--seed 1] [--jobs 2] [--work DIR]
    conform_suite.py bugs --nnref PATH [--jobs 2] [--work DIR]
    conform_suite.py --self-test --nnref PATH

Files go to a temporary directory that is removed, or to --work DIR, which is kept (to rerun a
failing verdict by hand). --jobs conform calls run at once. Exit 0 when every verdict is as
required, 1 when one is not (or a self-test fails), 2 for a usage or I/O error.
"""

import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import float32_peers as peers  # noqa: E402
import inject_bugs as bugs  # noqa: E402
import make_conform_cases as cases  # noqa: E402

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")
CONTROL = "numpy_f32_reversed"   # the correct float32 run every injected bug departs from


class Verdict:
    """One `nnref conform` call: a case (model and input), a subject (a peer or a bug) whose output
    file is judged at a runtime precision, and, once run, conform's exit code and JSON report."""

    def __init__(self, case, case_dir, subject, actual, precision):
        self.case, self.subject, self.precision = case, subject, precision
        self.model = os.path.join(case_dir, "model.nnl")
        self.x = os.path.join(case_dir, "input.npy")
        self.actual = actual
        self.code, self.report = None, None

    def command(self, nnref, fmt):
        return [nnref, "conform", self.model, "--input", self.x, "--actual", self.actual, "--exact",
                "--runtime-precision", self.precision, "--format", fmt]

    def name(self):
        return "%s %s (%s)" % (self.case, self.subject, self.precision)

    def text_report(self, nnref):
        """conform's own text report of this verdict, for a failure message."""
        p = subprocess.run(self.command(nnref, "text"), capture_output=True, text=True)
        return "    $ %s\n%s" % (" ".join(self.command(nnref, "text")),
                                 "\n".join("    " + l for l in (p.stdout + p.stderr).splitlines()))

    def worsts(self):
        """(output name, worst element) of each output that has one."""
        return [(o["name"], o["worst"]) for o in self.report["outputs"] if "worst" in o]


class EngineVerdict(Verdict):
    """`nnref conform --engine ...`: one of nnref's engines judged on a case, at f32."""

    def __init__(self, case, case_dir, engine_args):
        super().__init__(case, case_dir, " ".join(engine_args), None, "f32")
        self.engine_args = engine_args

    def command(self, nnref, fmt):
        return [nnref, "conform", self.model, "--input", self.x, "--exact"] + self.engine_args + ["--format", fmt]


ENGINES = (["--engine", "f32"], ["--engine", "fast", "--threads", "2"], ["--engine", "hw"])


def run_all(nnref, verdicts, jobs):
    def one(v):
        p = subprocess.run(v.command(nnref, "json"), capture_output=True, text=True)
        v.code = p.returncode
        v.report = json.loads(p.stdout) if p.returncode in (0, 1, 3) else None
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, verdicts))


def excess(worst):
    """excess_radii, +inf where conform writes null (outside an envelope that is a single point)."""
    return math.inf if worst["excess_radii"] is None else worst["excess_radii"]


def on_exact_bound(worst):
    """The value lies on a bound of its envelope that is also the exact value (a relu's 0): the
    share of the radius is 1 by construction there, and says nothing about rounding."""
    a = worst["actual"]
    return a in worst["envelope"] and worst["exact"] == [a, a]


# --------------------------------------------------------------------------------------------
# Soundness
# --------------------------------------------------------------------------------------------

def soundness_verdicts(work, count, seed, names):
    """Every (model, peer) pair: the examples' peers computed here, the generated cases' by
    make_conform_cases.py."""
    verdicts = []
    for example in sorted(os.listdir(EXAMPLES)):
        case_dir = os.path.join(EXAMPLES, example)
        if not all(os.path.isfile(os.path.join(case_dir, f)) for f in ("model.nnl", "input.npy")):
            continue
        out = os.path.join(work, "examples", example)
        peers.run_peers(case_dir, np.load(os.path.join(case_dir, "input.npy"), allow_pickle=False), out, names)
        verdicts += [Verdict("examples/" + example, case_dir, n, os.path.join(out, n + ".npz"), peers.PEERS[n][0])
                     for n in names]
    for case_dir in cases.write_cases(os.path.join(work, "generated"), count, seed, names):
        verdicts += [Verdict("generated/" + os.path.basename(case_dir), case_dir, n,
                             os.path.join(case_dir, "peers", n + ".npz"), peers.PEERS[n][0]) for n in names]
    return verdicts


def engine_verdicts(work, count, seed):
    named = [("examples/" + e, os.path.join(EXAMPLES, e)) for e in sorted(os.listdir(EXAMPLES))
             if all(os.path.isfile(os.path.join(EXAMPLES, e, f)) for f in ("model.nnl", "input.npy"))]
    named += [("generated/" + os.path.basename(d), d)
              for d in cases.write_cases(os.path.join(work, "generated"), count, seed, ())]
    return [EngineVerdict(name, d, args) for name, d in named for args in ENGINES]


def print_engines(verdicts, seconds):
    print("engines: %d verdicts (%d models), %.1f s" % (len(verdicts), len({v.case for v in verdicts}), seconds))
    for subject in dict.fromkeys(v.subject for v in verdicts):
        mine = [v for v in verdicts if v.subject == subject]
        print("  %-32s %5d verdicts %5d conform %5d rejected %5d without a verdict"
              % (subject, len(mine), sum(v.code == 0 for v in mine), sum(v.code == 1 for v in mine),
                 sum(v.code not in (0, 1) for v in mine)))


def soundness_failures(nnref, verdicts):
    """A rejection, or no verdict, fails; so does an inconclusive verdict at float32, where every
    envelope of these models is finite (at float16 and bfloat16 long sums have no rounding bound,
    n·u >= 1, and those elements are honestly not judged)."""
    def failed(v):
        if v.code == 3 and v.report is not None and v.report["verdict"] == "inconclusive":
            return v.precision == "f32"
        return v.code != 0 or v.report["verdict"] != "conforms"
    return ["FAIL %s: %s, exit %d\n%s" % (v.name(), {1: "rejected", 3: "inconclusive"}.get(v.code, "no verdict"),
                                          v.code, v.text_report(nnref))
            for v in verdicts if failed(v)]


def closest_to_edge(verdicts):
    """(the largest share of its envelope's radius that an output's worst element uses, where;
    how many outputs' worst element lies on an exact bound instead)."""
    best, where, on_bound = -math.inf, "-", 0
    for v in verdicts:
        for output, worst in v.worsts():
            if on_exact_bound(worst):
                on_bound += 1
            elif 1 + excess(worst) > best:
                best, where = 1 + excess(worst), "%s %s%s" % (v.case, output, worst["index"])
    return best, where, on_bound


def print_soundness(verdicts, seconds):
    judged = [v for v in verdicts if v.report is not None]
    print("soundness: %d verdicts (%d models), %d rejected, %d inconclusive, %d without a verdict, %.1f s"
          % (len(verdicts), len({v.case for v in verdicts}), sum(v.code == 1 for v in verdicts),
             sum(v.code == 3 for v in verdicts), len(verdicts) - len(judged), seconds))
    print("  not judged: elements whose envelope has a side nnref could not bound (NaN, or infinite where")
    print("  the exact value is finite: no answer is rejected there), and the outputs that have any")
    print("  share: of the envelope's radius, used by an output's worst element (1 + excess_radii), largest;")
    print("  outputs whose worst element lies on a bound equal to the exact value (a relu's 0) are counted apart")
    print("  %-19s %-4s %8s %8s %-18s %-15s %-7s %-44s %s"
          % ("peer", "prec", "verdicts", "rejected", "not judged/elements", "not judged/outputs", "share", "where",
             "on an exact bound"))
    for subject in dict.fromkeys(v.subject for v in verdicts):
        mine = [v for v in judged if v.subject == subject]
        outputs = [o for v in mine for o in v.report["outputs"]]
        best, where, on_bound = closest_to_edge(mine)
        print("  %-19s %-4s %8d %8d %-18s %-15s %-7.4g %-44s %d"
              % (subject, peers.PEERS[subject][0], len(mine), sum(v.code == 1 for v in mine),
                 "%d/%d" % (sum(o["not_judged"] for o in outputs), sum(o["elements"] for o in outputs)),
                 "%d/%d" % (sum(o["not_judged"] > 0 for o in outputs), len(outputs)), best, where, on_bound))


# --------------------------------------------------------------------------------------------
# Bugs
# --------------------------------------------------------------------------------------------

def bug_verdicts(work):
    """Every (case, bug) of inject_bugs.py --make-cases, and each case's correct float32 control;
    returns (bug verdicts, control verdicts, {case: inject_bugs' report})."""
    found, controls, reports = [], [], {}
    for case_dir, report in bugs.make_cases(work, peer_names=(CONTROL,)).items():
        case = os.path.basename(case_dir)
        reports[case] = report
        controls.append(Verdict(case, case_dir, CONTROL, os.path.join(case_dir, "peers", CONTROL + ".npz"), "f32"))
        found += [Verdict(case, case_dir, bug, os.path.join(case_dir, "bugs", bug + ".npz"), "f32")
                  for bug in bugs.BUGS if report[bug] is not None]
    return found, controls, reports


def bug_failures(nnref, found, controls):
    failures = []
    for v in found:
        if v.code == 0:
            failures.append("FAIL %s: conforms, so the bug lies inside the envelope, the worst-case rounding bound for "
                            "any summation order: no sound oracle can tell it from rounding; not detected\n%s"
                            % (v.name(), v.text_report(nnref)))
        elif v.code != 1 or v.report["verdict"] != "does not conform":
            failures.append("FAIL %s: no verdict, exit %d\n%s" % (v.name(), v.code, v.text_report(nnref)))
    failures += ["FAIL %s: the correct float32 output the bugs depart from is not accepted, exit %d\n%s"
                 % (v.name(), v.code, v.text_report(nnref)) for v in controls if v.code != 0]
    return failures


def print_bugs(found, controls, reports, seconds):
    print("bugs: %d verdicts, %d rejected; the correct float32 control (%s) conforms on %d of %d cases; %.1f s"
          % (len(found), sum(v.code == 1 for v in found), CONTROL, sum(v.code == 0 for v in controls),
             len(controls), seconds))
    print("  the worst element: how far outside its envelope (0 inside), in envelope radii (inf: the envelope is a")
    print("  single point), and |bug - float64 reference| at most, from inject_bugs.py")
    print("  %-16s %-17s %-18s %-11s %-11s %s" % ("case", "bug", "outside/elements", "distance", "radii",
                                                 "max|bug - f64|"))
    for v in found:
        if v.report is None:
            print("  %-16s %-17s no verdict (exit %d)" % (v.case, v.subject, v.code))
            continue
        outputs = v.report["outputs"]
        _, worst = max(v.worsts(), key=lambda p: excess(p[1]))
        print("  %-16s %-17s %-18s %-11.3g %-11.4g %.3g"
              % (v.case, v.subject, "%d/%d" % (sum(o["outside"] for o in outputs), sum(o["elements"] for o in outputs)),
                 worst["distance"], excess(worst), reports[v.case][v.subject]["max_abs_diff"]))
    for v in controls:
        print("  %-16s %-17s %s" % (v.case, v.subject, "conforms" if v.code == 0 else "exit %d" % v.code))


# --------------------------------------------------------------------------------------------
# Self test: the failure paths, with the real binary
# --------------------------------------------------------------------------------------------

def self_test(nnref):
    check = peers.Checks()
    with tempfile.TemporaryDirectory(prefix="conform_suite_") as tmp:
        found, controls, _ = bug_verdicts(tmp)
        mlp = os.path.join(tmp, "bug_mlp_bn")
        one_off = next(v for v in found if v.case == "bug_mlp_bn" and v.subject == "one_off")
        # Swapped roles: a bug's output passed off as a peer, a correct output passed off as a bug,
        # a peer whose file does not exist.
        as_peer = Verdict("bug_mlp_bn", mlp, "one_off", one_off.actual, "f32")
        as_bug = Verdict("bug_mlp_bn", mlp, CONTROL, os.path.join(mlp, "peers", CONTROL + ".npz"), "f32")
        missing = Verdict("bug_mlp_bn", mlp, "absent", os.path.join(mlp, "absent.npz"), "f32")
        control = next(v for v in controls if v.case == "bug_mlp_bn")
        run_all(nnref, [one_off, as_peer, as_bug, missing, control], 2)

        def expect(name, ok, detail):
            check.check(name, ok, "" if ok else detail)

        got = soundness_failures(nnref, [control, as_peer, missing])
        expect("soundness: a rejected peer and a missing file fail, the control passes", len(got) == 2, repr(got))
        expect("soundness: the failure names case, peer, precision and conform's worst element",
               got and got[0].startswith("FAIL bug_mlp_bn one_off (f32): rejected, exit 1")
               and "FAIL fc2: 10 elements, 1 outside" in got[0] and "  worst: element [0, 6]" in got[0],
               got[0] if got else "")
        expect("soundness: the failure of a missing file says why",
               len(got) == 2 and "no verdict, exit 2" in got[1] and "absent.npz" in got[1], repr(got))
        got = bug_failures(nnref, [one_off, as_bug], [])
        expect("bugs: a correct output passed off as a bug is not detected, and says why",
               len(got) == 1 and got[0].startswith("FAIL bug_mlp_bn %s (f32): conforms, so the bug lies inside"
                                                   % CONTROL) and "ok   fc2: 10 elements, 0 outside" in got[0],
               repr(got))
        got = bug_failures(nnref, [one_off], [as_peer])
        expect("bugs: a rejected control fails the run", len(got) == 1 and "is not accepted, exit 1" in got[0],
               repr(got))
        # one_off multiplies the largest element, fc2[0, 6] (flat index 6), by 1 + 1e-3 in float32.
        correct = np.load(control.actual)["fc2"]
        worst = dict(one_off.worsts())["fc2"]
        expect("one_off: the worst element is the changed one, the only one outside",
               worst["index"] == [0, 6] and one_off.report["outputs"][0]["outside"] == 1
               and worst["actual"] == float(np.float32(correct[0, 6] * np.float32(1 + bugs.ONE_OFF_RELATIVE))),
               repr(worst))
        check.check("on_exact_bound: a relu's exact 0 at its envelope's bound, not an inexact value there",
                    on_exact_bound({"actual": 0.0, "envelope": [0.0, 1e-4], "exact": [0.0, 0.0]})
                    and not on_exact_bound({"actual": 0.0, "envelope": [0.0, 1e-4], "exact": [0.0, 1e-9]})
                    and not on_exact_bound({"actual": 5e-5, "envelope": [0.0, 1e-4], "exact": [5e-5, 5e-5]}))
        check.check("CLI: no such binary, an unknown peer, no suite: usage errors (2)",
                    main(["bugs", "--nnref", os.path.join(tmp, "absent")]) == 2
                    and main(["soundness", "--nnref", nnref, "--peers", "numpy_f64"]) == 2
                    and main(["--nnref", nnref]) == 2)
    return check.passed()


# --------------------------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(description="nnref conform's soundness and detection suites")
    ap.add_argument("suite", nargs="?", choices=("soundness", "engines", "bugs"))
    ap.add_argument("--nnref", required=True, help="the nnref binary")
    ap.add_argument("--count", type=int, default=200, help="generated models (soundness)")
    ap.add_argument("--seed", type=int, default=1, help="make_conform_cases.py's seed (soundness)")
    ap.add_argument("--peers", default="all", help="all, or comma-separated peer names (soundness)")
    ap.add_argument("--jobs", type=int, default=2, help="conform calls at once")
    ap.add_argument("--work", help="a directory for the files, kept (default: a temporary one, removed)")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args(argv)
    if not (os.path.isfile(args.nnref) and os.access(args.nnref, os.X_OK)):
        sys.stderr.write("conform_suite: error: --nnref %s is not an executable file\n" % args.nnref)
        return 2
    if args.self_test:
        return 0 if self_test(args.nnref) else 1
    if not args.suite:
        sys.stderr.write("conform_suite: error: give a suite (soundness, engines or bugs) or --self-test\n")
        return 2
    names = list(peers.PEERS) if args.peers == "all" else args.peers.split(",")
    unknown = [n for n in names if n not in peers.PEERS]
    if unknown:
        sys.stderr.write("conform_suite: error: unknown peer %s (known: %s)\n"
                         % (", ".join(unknown), ", ".join(peers.PEERS)))
        return 2
    with tempfile.TemporaryDirectory(prefix="conform_suite_") as tmp:
        work = args.work or tmp
        start = time.time()
        if args.suite == "soundness":
            verdicts = soundness_verdicts(work, args.count, args.seed, names)
            print("%d models and their peers' outputs written in %.1f s" % (len({v.case for v in verdicts}),
                                                                           time.time() - start))
            run_all(args.nnref, verdicts, args.jobs)
            print_soundness(verdicts, time.time() - start)
            failures = soundness_failures(args.nnref, verdicts)
        elif args.suite == "engines":
            verdicts = engine_verdicts(work, args.count, args.seed)
            run_all(args.nnref, verdicts, args.jobs)
            print_engines(verdicts, time.time() - start)
            failures = soundness_failures(args.nnref, verdicts)
        else:
            found, controls, reports = bug_verdicts(work)
            run_all(args.nnref, found + controls, args.jobs)
            print_bugs(found, controls, reports, time.time() - start)
            failures = bug_failures(args.nnref, found, controls)
    for f in failures:
        print(f)
    if failures and not args.work:
        print("(the files above were in a temporary directory, now removed: --work DIR keeps them)")
    print("%s: %s (%d failures)" % (args.suite, "PASS" if not failures else "FAIL", len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

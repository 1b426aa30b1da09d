#!/usr/bin/python3
"""Where a build's compile time went, from Ninja's own log (BUILD/.ninja_log): the compile jobs'
total, per top-level folder, and the slowest units, so that a unit that grows slow is seen rather
than guessed (docs/building.md, "Compile time"). A unit rebuilt several times counts once, at its
latest time. Times are wall seconds per job: with N jobs at once they add up to about N times the
build's wall time.

  /usr/bin/python3 scripts/compile_report.py [BUILD] [--top 12] [--budget 30]

Prints the report; units over --budget seconds are marked. Exit 0 (a report, not a timed test:
shared machines make single timings flaky), 2 when there is no log.
"""
import argparse
import collections
import os
import sys


def compile_jobs(log_path):
    """{output: seconds} of the compile jobs (.o outputs), each at its latest entry."""
    latest = {}
    with open(log_path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 4 or not fields[3].endswith(".o"):
                continue
            latest[fields[3]] = (int(fields[1]) - int(fields[0])) / 1000.0
    return latest


def folder_of(output):
    """The source folder a unit belongs to: the first path component (spec, tests, ...)."""
    return output.split("/", 1)[0]


def unit_name(output):
    """'spec/CMakeFiles/nnref_spec.dir/generated/op_unary.cpp.o' -> 'spec/generated/op_unary.cpp'."""
    folder, _, rest = output.partition("/CMakeFiles/")
    rest = rest.split(".dir/", 1)[-1]
    return folder + "/" + rest[:-len(".o")]


def main(argv=None):
    ap = argparse.ArgumentParser(description="compile time per folder and the slowest units, from .ninja_log")
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--top", type=int, default=12, help="how many of the slowest units to list")
    ap.add_argument("--budget", type=float, default=30.0, help="seconds a unit may take before it is marked")
    args = ap.parse_args(argv)
    log_path = os.path.join(args.build, ".ninja_log")
    if not os.path.isfile(log_path):
        print("compile report: no %s" % log_path)
        return 2
    jobs = compile_jobs(log_path)
    by_folder = collections.Counter()
    for output, seconds in jobs.items():
        by_folder[folder_of(output)] += seconds
    total = sum(jobs.values())
    print("compile report: %d units, %.0f s of compile jobs; by folder: %s" % (
        len(jobs), total, ", ".join("%s %.0f" % kv for kv in by_folder.most_common())))
    over = [o for o, s in jobs.items() if s > args.budget]
    for output, seconds in sorted(jobs.items(), key=lambda kv: -kv[1])[:args.top]:
        print("  %6.1f s  %s%s" % (seconds, unit_name(output), "  OVER BUDGET" if seconds > args.budget else ""))
    print("compile report: %d units over the %.0f s budget per unit" % (len(over), args.budget))
    return 0


if __name__ == "__main__":
    sys.exit(main())

// A check's report in the three output formats of `nnref check`.
#pragma once

#include <string>

#include "checker/check_model.hpp"

namespace nnref {

// The text format's last line (the diagnostics before it are format_diagnostic's, on stderr):
// "MODEL: ok, N obligations proved" when nothing is refuted or unknown, else
// "MODEL: N obligations: P proved, R refuted, U unknown"; either followed by "; bindings not
// checked (no weights)" when they were not. "MODEL: not checked: the model could not be read"
// when it could not. Ends in a newline.
std::string report_summary(const CheckReport& r, const std::string& model_path);

// The text format's note on a check without --dim, before the summary line: "MODEL: note: checked
// at one size, without --dim: batch = 1, N = 1; the file leaves N open, so its value is a
// placeholder; --dim NAME=LO..HI proves a range" (report.fixed_sizes; "batch = 2 in input 'x' and
// 1 in input 't'" for a name whose extents differ); "" when the model has no size names. Ends in a
// newline.
std::string fixed_sizes_note(const CheckReport& r, const std::string& model_path);

// {"model": model_path,
//  "diagnostics": [{code, severity, message, file, line, column, node, counterexample?,
//                   counterexample_minimised?, notes}],
//  "obligations": {total, proved, refuted, unknown},
//  "model_read": bool, "bindings_checked": bool,
//  "symbols": [{name, lo, hi}],   (report.ranges)
//  "fixed_sizes": [{name, value, left_open, by_input?}]}   (report.fixed_sizes: the size names no
//                 --dim ranges; by_input {input: extent} only for a name whose extents differ)
// severity is "error" | "warning" | "note". An unknown file or node is "", an unknown line or
// column is 0 (always an integer, never null). counterexample, present only when the diagnostic
// has one, maps symbol names to integers, and counterexample_minimised (with it) says whether it
// is proved the smallest in --dim order; notes is a list of strings. Pretty-printed with a
// 2-space indent and a trailing newline.
std::string report_json(const CheckReport& r, const std::string& model_path);

// SARIF 2.1.0 (validates against the OASIS schema, tests/data/sarif/): one run of tool "nnref"
// whose rules are one reportingDescriptor per code the results use (summary, formula and
// `--explain` text from the catalogue; only the id for a code not in it), one result per
// diagnostic: ruleId = code, ruleIndex, level, message (counterexample and notes appended as
// lines), a location with the physical location (file as a URI reference, percent-encoded; an
// absolute path as a file:// URI; region only for a known line, startColumn only for a known
// column) when the file is known and a logical location (the node) when the node is, and the
// counterexample and counterexample_minimised under properties. The run's properties hold the
// model path, the obligation counts, model_read, bindings_checked and fixed_sizes (as in JSON).
// Pretty-printed with a
// 2-space indent and a trailing newline.
std::string report_sarif(const CheckReport& r, const std::string& model_path);

}  // namespace nnref

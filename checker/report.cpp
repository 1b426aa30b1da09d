#include "checker/report.hpp"

#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "semantics/catalogue.hpp"

namespace nnref {

namespace {

// Insertion-ordered, so the output reads in the order the keys are written below.
using Json = nlohmann::ordered_json;

// Pretty-printed with a 2-space indent and a trailing newline. A string that is not valid UTF-8
// (a file name, say) has its bad bytes replaced by U+FFFD rather than throwing.
std::string dump(const Json& j) {
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Json counts_json(const ObligationCounts& c) {
  return Json{{"total", c.total}, {"proved", c.proved}, {"refuted", c.refuted}, {"unknown", c.unknown}};
}

Json counterexample_json(const Diagnostic& d) {
  Json cx = Json::object();
  for (const auto& [name, value] : d.counterexample) cx[name] = value;
  return cx;
}

// RFC 3986: unreserved / sub-delims / ":" / "@" / "/" stand for themselves in a path; every
// other byte (space, "%", "?", "#", "[", "]", "\", controls, non-ASCII) is percent-encoded.
bool path_char(unsigned char c, bool colon_ok) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '-': case '.': case '_': case '~':                                      // unreserved
    case '!': case '$': case '&': case '\'': case '(': case ')': case '*':      // sub-delims
    case '+': case ',': case ';': case '=':
    case '@': case '/':
      return true;
    case ':':
      return colon_ok;
    default:
      return false;
  }
}

std::string percent_encode(const std::string& s, bool colon_ok) {
  std::string out;
  for (unsigned char c : s) {
    if (path_char(c, colon_ok)) {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

// A file path as a SARIF artifact URI (a valid URI reference): an absolute path becomes a
// file:/// URI; a relative path stays a relative reference, with ":" encoded too so that its
// first segment cannot read as a scheme.
std::string file_uri(const std::string& path) {
  if (!path.empty() && path[0] == '/') return "file://" + percent_encode(path, true);
  return percent_encode(path, false);
}

Json fixed_sizes_json(const CheckReport& r) {
  Json out = Json::array();
  for (const FixedSize& f : r.fixed_sizes) {
    Json j{{"name", f.name}, {"value", f.value}, {"left_open", f.left_open}};
    if (!f.by_input.empty()) {
      j["by_input"] = Json::object();
      for (const auto& [input, v] : f.by_input) j["by_input"][input] = v;
    }
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace

std::string fixed_sizes_note(const CheckReport& r, const std::string& model_path) {
  if (r.fixed_sizes.empty()) return "";
  std::string list, open;
  for (const FixedSize& f : r.fixed_sizes) {
    std::string values;  // "2 in input 'x', 1 in input 'y' and 1 in input 't'"
    for (size_t k = 0; k < f.by_input.size(); ++k)
      values += std::string(k == 0 ? "" : k + 1 == f.by_input.size() ? " and " : ", ") +
                std::to_string(f.by_input[k].second) + " in input '" + f.by_input[k].first + "'";
    list += (list.empty() ? "" : ", ") + f.name + " = " + (values.empty() ? std::to_string(f.value) : values);
    if (f.left_open) open += (open.empty() ? "" : ", ") + f.name;
  }
  return model_path + ": note: checked at one size, without --dim: " + list +
         (open.empty() ? " (the model's own extents)"
                       : "; the file leaves " + open + " open, so " +
                             (open.find(',') == std::string::npos ? "its value is a placeholder"
                                                                  : "their values are placeholders")) +
         "; --dim NAME=LO..HI proves a range\n";
}

namespace {

// "; by enumeration: 64 instantiations, the model read with each value of seq = 1..64 (batch
// symbolic)", or where one failed, the values it was read with.
std::string enumeration_clause(const CheckReport& r) {
  if (r.enumerated.empty()) return "";
  std::string ranges, symbolic, at;
  for (const DimRange& d : r.enumerated)
    ranges += (ranges.empty() ? "" : ", ") + d.name + " = " + std::to_string(d.lo) + ".." + std::to_string(d.hi);
  for (const DimRange& d : r.ranges) symbolic += (symbolic.empty() ? "" : ", ") + d.name;
  for (const auto& [name, value] : r.failed_at) at += (at.empty() ? "" : ", ") + name + " = " + std::to_string(value);
  const std::string over =
      " the model read with each value of " + ranges + (symbolic.empty() ? "" : " (" + symbolic + " symbolic)");
  if (!at.empty())
    return "; by enumeration: first failing at " + at + " (instantiation " + std::to_string(r.instantiations) + "; " +
           over.substr(1) + ")";
  return "; by enumeration: " + std::to_string(r.instantiations) + " instantiations," + over;
}

}  // namespace

std::string report_summary(const CheckReport& r, const std::string& model_path) {
  const auto& c = r.counts;
  if (!r.model_read) return model_path + ": not checked: the model could not be read" + enumeration_clause(r) + "\n";
  const std::string unbound = (r.bindings_checked ? "" : "; bindings not checked (no weights)") + enumeration_clause(r);
  if (c.refuted == 0 && c.unknown == 0)
    return model_path + ": ok, " + std::to_string(c.total) + " obligations proved" + unbound + "\n";
  return model_path + ": " + std::to_string(c.total) + " obligations: " + std::to_string(c.proved) + " proved, " +
         std::to_string(c.refuted) + " refuted, " + std::to_string(c.unknown) + " unknown" + unbound + "\n";
}

std::string report_json(const CheckReport& r, const std::string& model_path) {
  Json diags = Json::array();
  for (const auto& d : r.diagnostics) {
    Json j{{"code", d.code},
           {"severity", severity_name(d.severity)},
           {"message", d.message},
           {"file", d.loc.file},
           {"line", d.loc.line},
           {"column", d.loc.column},
           {"node", d.node}};
    if (!d.counterexample.empty()) {
      j["counterexample"] = counterexample_json(d);
      j["counterexample_minimised"] = d.counterexample_minimised;
    }
    j["notes"] = d.notes;
    diags.push_back(std::move(j));
  }
  Json symbols = Json::array();
  for (const auto& s : r.ranges) symbols.push_back(Json{{"name", s.name}, {"lo", s.lo}, {"hi", s.hi}});
  Json root{{"model", model_path},
            {"diagnostics", std::move(diags)},
            {"obligations", counts_json(r.counts)},
            {"model_read", r.model_read},
            {"bindings_checked", r.bindings_checked},
            {"symbols", std::move(symbols)},
            {"fixed_sizes", fixed_sizes_json(r)}};
  if (!r.enumerated.empty()) {
    Json enumerated = Json::array();
    for (const auto& s : r.enumerated) enumerated.push_back(Json{{"name", s.name}, {"lo", s.lo}, {"hi", s.hi}});
    Json failed = Json::object();
    for (const auto& [name, value] : r.failed_at) failed[name] = value;
    root["enumeration"] =
        Json{{"dims", std::move(enumerated)}, {"instantiations", r.instantiations}, {"failed_at", failed}};
  }
  return dump(root);
}

std::string report_sarif(const CheckReport& r, const std::string& model_path) {
  // One rule per code the results use, in order of first use.
  Json rules = Json::array();
  std::map<std::string, size_t> rule_index;
  for (const auto& d : r.diagnostics) {
    if (rule_index.count(d.code)) continue;
    rule_index[d.code] = rules.size();
    Json rule{{"id", d.code}};
    if (const ObligationSpec* e = find_obligation(d.code)) {
      rule["shortDescription"] = Json{{"text", std::string(e->summary)}};
      rule["fullDescription"] = Json{{"text", std::string(e->formula)}};
      rule["help"] = Json{{"text", explain(*e)}};
    }
    rules.push_back(std::move(rule));
  }

  Json results = Json::array();
  for (const auto& d : r.diagnostics) {
    std::string text = d.message;
    for (size_t i = 0; i < d.counterexample.size(); ++i)
      text += (i ? ", " : d.counterexample_minimised ? "\ncounterexample: " : "\ncounterexample (not minimised): ") +
              d.counterexample[i].first + " = " +
              std::to_string(d.counterexample[i].second);
    for (const auto& n : d.notes) text += "\nnote: " + n;

    Json result{{"ruleId", d.code},
                {"ruleIndex", rule_index.at(d.code)},
                {"level", severity_name(d.severity)},
                {"message", Json{{"text", text}}}};

    // SARIF requires startLine ≥ 1 and startColumn ≥ 1: 0 (unknown) leaves them out.
    Json location = Json::object();
    if (!d.loc.file.empty()) {
      Json physical{{"artifactLocation", Json{{"uri", file_uri(d.loc.file)}}}};
      if (d.loc.line > 0) {
        Json region{{"startLine", d.loc.line}};
        if (d.loc.column > 0) region["startColumn"] = d.loc.column;
        physical["region"] = std::move(region);
      }
      location["physicalLocation"] = std::move(physical);
    }
    if (!d.node.empty())
      location["logicalLocations"] = Json::array({Json{{"name", d.node}, {"kind", "object"}}});
    if (!location.empty()) result["locations"] = Json::array({std::move(location)});

    if (!d.counterexample.empty())
      result["properties"] =
          Json{{"counterexample", counterexample_json(d)}, {"counterexample_minimised", d.counterexample_minimised}};
    results.push_back(std::move(result));
  }

  Json run{{"tool", Json{{"driver", Json{{"name", "nnref"}, {"rules", std::move(rules)}}}}},
           {"results", std::move(results)},
           {"properties", Json{{"model", model_path},
                               {"obligations", counts_json(r.counts)},
                               {"model_read", r.model_read},
                               {"bindings_checked", r.bindings_checked},
                               {"fixed_sizes", fixed_sizes_json(r)}}}};
  Json root{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
            {"version", "2.1.0"},
            {"runs", Json::array({std::move(run)})}};
  return dump(root);
}

}  // namespace nnref

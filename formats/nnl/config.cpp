#include "formats/nnl/config.hpp"

#include <map>
#include <set>

#include "semantics/spelling.hpp"

namespace nnref::nnl {

namespace {

enum class KeyType { String, Integer, Shape };

struct KeySpec {
  const char* key;
  KeyType type;
  std::vector<std::string> allowed;  // String keys: the allowed values (empty: any)
};

const std::vector<KeySpec>& keys() {
  static const std::vector<KeySpec> k = {
      {"precision", KeyType::String, {"float32", "float64", "int8"}},
      {"weights", KeyType::String, {}},
      {"target", KeyType::String, {"generic", "avx2", "avx512", "arm_neon"}},
      {"align", KeyType::Integer, {}},
      {"batch", KeyType::Integer, {}},
      {"preprocess", KeyType::String, {"none", "normalize_0_1", "standardize"}},
      {"preprocess_mean", KeyType::Shape, {}},
      {"preprocess_std", KeyType::Shape, {}},
      {"io", KeyType::String, {"stdio"}},
  };
  return k;
}

const char* key_type_name(KeyType t) {
  switch (t) {
    case KeyType::String: return "a string";
    case KeyType::Integer: return "an integer";
    case KeyType::Shape: return "a list of numbers ([a, b, ...])";
  }
  return "a value";
}

bool kind_ok(KeyType t, Value::Kind k) {
  switch (t) {
    case KeyType::String: return k == Value::Kind::String;
    case KeyType::Integer: return k == Value::Kind::Integer;
    case KeyType::Shape: return k == Value::Kind::Shape;
  }
  return false;
}

std::string quoted_list(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? (i + 1 == v.size() ? " or \"" : ", \"") : "\"") + v[i] + "\"";
  return s;
}

}  // namespace

Config check_config(const Program& p, Diags& d) {
  Config c;
  if (p.config_blocks == 0) {
    d.error("nnl.config.missing", "model '" + p.model_name + "' has no config block (it must set at least 'weights')",
            p.model_loc);
    return c;
  }
  if (p.config_blocks > 1)
    d.error("nnl.config.duplicate-block", "model '" + p.model_name + "' has more than one config block",
            p.config_loc);

  std::set<std::string> seen;
  std::map<std::string, size_t> misspelt;  // a key → the error about a near miss of it
  // An error about a key that is missing follows the near miss of it, if there is one.
  const auto missing = [&](const std::string& key, size_t id) {
    if (auto cause = misspelt.find(key); cause != misspelt.end()) d.follows(id, cause->second);
  };
  bool has_weights = false;
  for (const auto& k : p.broken_config_keys) has_weights = has_weights || k == "weights";
  for (const Entry& e : p.config) {
    const KeySpec* ks = nullptr;
    for (const auto& k : keys())
      if (e.key == k.key) ks = &k;
    if (!ks) {
      std::vector<std::string> names, notes;
      for (const auto& k : keys()) names.emplace_back(k.key);
      const auto meant = closest_spelling(e.key, names);
      if (meant) notes.push_back("did you mean '" + *meant + "'?");
      notes.push_back("the keys are: precision, weights, target, align, batch, preprocess, preprocess_mean, "
                      "preprocess_std, io");
      const size_t id = d.error("nnl.config.unknown-key", "unknown config key '" + e.key + "'", e.loc, {},
                                std::move(notes));
      if (meant) misspelt.emplace(*meant, id);
      continue;
    }
    if (!seen.insert(e.key).second) {
      d.error("nnl.config.duplicate-key", "config key '" + e.key + "' is set twice", e.loc);
      continue;
    }
    const Value& v = e.value;
    if (e.key == "weights") has_weights = true;  // even when mistyped: no second error for it
    if (v.kind == Value::Kind::Invalid) continue;
    if (!kind_ok(ks->type, v.kind)) {
      std::vector<std::string> notes;
      if (v.kind == Value::Kind::Ident) notes.push_back("strings are quoted: \"" + v.text + "\"");
      d.error("nnl.config.type",
              "config key '" + e.key + "' must be " + key_type_name(ks->type) + ", not " + kind_name(v.kind), v.loc, {},
              std::move(notes));
      continue;
    }
    if (ks->type == KeyType::String && !ks->allowed.empty()) {
      bool allowed = false;
      for (const auto& a : ks->allowed) allowed = allowed || a == v.text;
      if (!allowed) {
        d.error("nnl.config.value",
                "config key '" + e.key + "' must be " + quoted_list(ks->allowed) + ", not \"" + v.text + "\"", v.loc);
        continue;
      }
    }
    if (e.key == "precision") {
      if (v.text == "int8") {
        d.error("nnl.config.int8-unsupported",
                "precision \"int8\" is not supported: NNL v0.2 has no quantization parameters (scales, zero points)",
                v.loc);
        continue;
      }
      c.precision = v.text;
    } else if (e.key == "weights") {
      if (v.text.empty()) {
        d.error("nnl.config.value", "config key 'weights' must not be empty", v.loc);
        continue;
      }
      c.weights = v.text;
      c.weights_loc = v.loc;
    } else if (e.key == "target") {
      c.target = v.text;
    } else if (e.key == "align") {
      if (v.integer <= 0 || (v.integer & (v.integer - 1)) != 0) {
        d.error("nnl.config.value", "align must be a positive power of two, not " + v.text, v.loc);
        continue;
      }
      c.align = v.integer;
    } else if (e.key == "batch") {
      if (v.integer <= 0) {
        d.error("nnl.config.value", "batch must be a positive integer, not " + v.text, v.loc);
        continue;
      }
      c.batch = v.integer;
    } else if (e.key == "preprocess") {
      c.preprocess = v.text;
      c.preprocess_loc = v.loc;
    } else if (e.key == "preprocess_mean" || e.key == "preprocess_std") {
      bool is_std = e.key == "preprocess_std";
      std::vector<Real> vals;
      bool ok = true;
      for (const Value& it : v.items) {
        if (is_std && !(it.number > 0.0)) {
          d.error("nnl.config.value", "every entry of preprocess_std must be positive, not " + it.text, it.loc);
          ok = false;
          break;
        }
        vals.emplace_back(it.number, it.text);
      }
      if (!ok) continue;
      if (vals.empty()) {
        d.error("nnl.config.value", "config key '" + e.key + "' must not be empty", v.loc);
        continue;
      }
      (is_std ? c.std : c.mean) = std::move(vals);
      (is_std ? c.has_std : c.has_mean) = true;
      (is_std ? c.std_loc : c.mean_loc) = e.loc;
    } else if (e.key == "io") {
      c.io = v.text;
    }
  }
  if (!has_weights)
    missing("weights",
            d.error("nnl.config.weights-missing",
                    "config key 'weights' is required (a directory of .npy files or an .npz)", p.config_loc));
  if (c.preprocess == "standardize") {
    for (const char* key : {"preprocess_mean", "preprocess_std"})
      if (!seen.count(key))
        missing(key, d.error("nnl.config.preprocess-missing",
                             std::string("preprocess \"standardize\" needs ") + key, c.preprocess_loc));
  } else {
    if (c.has_mean)
      d.warning("nnl.config.preprocess-unused", "preprocess_mean is ignored unless preprocess is \"standardize\"",
                c.mean_loc);
    if (c.has_std)
      d.warning("nnl.config.preprocess-unused", "preprocess_std is ignored unless preprocess is \"standardize\"",
                c.std_loc);
  }
  return c;
}

}  // namespace nnref::nnl

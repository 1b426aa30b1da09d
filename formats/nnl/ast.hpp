// The NNL abstract syntax tree: what the parser recognised, before any meaning is checked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spec/diagnostic.hpp"

namespace nnref::nnl {

// A literal in a config entry or a layer parameter.
struct Value {
  // Integer: a literal without '.' or exponent. Number: with one. Shape: `[n, ...]` of Integer or
  // Number items (never nested). Ident: a bare word (a type error wherever it appears). Invalid: a
  // literal already reported (e.g. out of range).
  enum class Kind { Integer, Number, String, Shape, Ident, Invalid };
  Kind kind = Kind::Invalid;
  int64_t integer = 0;       // Integer
  double number = 0.0;       // Integer (converted) and Number
  std::string text;          // String contents, Ident name, or the spelling of a number
  std::vector<Value> items;  // Shape
  SourceLoc loc;
};

const char* kind_name(Value::Kind k);  // "an integer", "a string", ...

// `key: value` (config entries and layer parameters).
struct Entry {
  std::string key;
  SourceLoc loc;  // of the key
  Value value;
};

struct LayerDecl {
  std::string id;
  SourceLoc loc;  // of the id
  std::string type;
  SourceLoc type_loc;
  std::vector<Entry> params;
  bool complete = false;  // false: a syntax error cut the declaration short (already reported)
};

struct NameRef {
  std::string name;
  SourceLoc loc;
};

// `from -> to;` or `[a, b] -> to;` (a chain `a -> b -> c;` becomes two edges).
struct Edge {
  std::vector<NameRef> from;
  NameRef to;
};

struct Program {
  bool has_version = false;
  std::string version;  // spelling of the version number
  SourceLoc version_loc;
  bool has_model = false;
  std::string model_name;
  SourceLoc model_loc;
  int config_blocks = 0;
  SourceLoc config_loc;
  std::vector<Entry> config;
  std::vector<std::string> broken_config_keys;  // entries cut short by a syntax error (reported)
  std::vector<LayerDecl> layers;
  int connection_blocks = 0;
  SourceLoc connections_loc;
  std::vector<Edge> edges;
};

}  // namespace nnref::nnl

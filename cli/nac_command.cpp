// nnref nac compile | dump | verify: writing a model as NAC v1.6, printing a NAC file's program with
// its MMAP schedule, and verifying that schedule (docs/nac.md).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <memory>
#include <tuple>
#include <ostream>

#include "cli/app.hpp"
#include "cli/commands.hpp"
#include "formats/nac/encode.hpp"
#include "formats/nac/lower.hpp"
#include "formats/nac/nac.hpp"
#include "hw/engine.hpp"
#include "semantics/wellformed.hpp"

namespace nnref {

namespace {

struct NacOptions {
  std::string model;
  std::string output;
  std::string quant = "none";
  bool external_weights = false;
  int preload_ahead = -1;  // -1: each parameter's lead from the hardware model's cost model
  std::string hw_config;   // that model's parameters (hw/config.hpp); empty: the defaults
  int64_t sram_bytes = 0;  // 0: unbounded
  int64_t max_memory = kDefaultMaxMemory;
};

nac::Quant quant_of(const std::string& s) {
  if (s == "fp16") return nac::Quant::Fp16;
  if (s == "int8-tensor") return nac::Quant::Int8Tensor;
  if (s == "int8-channel") return nac::Quant::Int8Channel;
  return nac::Quant::None;
}

bool write_file(const std::string& path, const std::string& bytes, std::ostream& err) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (f.good()) return true;
  print_diagnostics(err, {make_error("io.write", "cannot write '" + path + "'")});
  return false;
}

int compile(const NacOptions& o, std::ostream& out, std::ostream& err) {
  int exit = kExitOk;
  auto model = load_reporting(o.model, LoadOptions{WeightsPolicy::Required, o.max_memory}, err, exit);
  if (!model) return exit;
  nac::WriteOptions w;
  w.quant = quant_of(o.quant);
  w.external_weights = o.external_weights;
  if (o.sram_bytes > 0) w.schedule.sram_bytes = o.sram_bytes;
  if (o.preload_ahead >= 0) {
    w.schedule.preload_ahead = o.preload_ahead;
  } else {
    auto config = o.hw_config.empty() ? Result<hw::Config>(hw::Config{}) : hw::read_config(o.hw_config);
    if (!config) {
      print_diagnostics(err, {config.error()});
      return exit_code_for(config.error());
    }
    auto estimates = hw::preload_estimates(*model, w, *config, o.max_memory);
    if (!estimates) {
      print_diagnostics(err, {estimates.error()});
      return exit_code_for(estimates.error());
    }
    std::tie(w.schedule.tick_cycles, w.schedule.load_cycles) = std::move(*estimates);
  }
  auto encoded = nac::encode(*model, w);
  if (auto* e = std::get_if<nac::FormatError>(&encoded)) {
    print_diagnostics(err, {make_error(e->code, e->message, {o.model, 0, 0})});
    return kExitInvalid;
  }
  const nac::Encoded& bytes = std::get<nac::Encoded>(encoded);
  if (!write_file(o.output, bytes.nac, err)) return kExitUsage;
  out << "wrote " << o.output << " (" << bytes.nac.size() << " bytes)\n";
  if (o.external_weights) {
    const std::string weights = nac::external_weights_path(o.output);
    if (!write_file(weights, bytes.safetensors, err)) return kExitUsage;
    out << "wrote " << weights << " (" << bytes.safetensors.size() << " bytes)\n";
  }
  return kExitOk;
}

std::string constant_text(const nac::Constant& c) {
  auto number = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return std::string(buf);
  };
  switch (c.type) {
    case nac::Constant::Type::Null: return "null";
    case nac::Constant::Type::Bool: return c.b ? "true" : "false";
    case nac::Constant::Type::Int64: return std::to_string(c.i);
    case nac::Constant::Type::Float64: return number(c.f);
    case nac::Constant::Type::String: return "\"" + c.s + "\"";
    case nac::Constant::Type::IntList:
    case nac::Constant::Type::FloatList: {
      std::string s = "[";
      const size_t n = c.type == nac::Constant::Type::IntList ? c.ints.size() : c.floats.size();
      for (size_t k = 0; k < n; ++k)
        s += (k ? ", " : "") + (c.type == nac::Constant::Type::IntList ? std::to_string(c.ints[k]) : number(c.floats[k]));
      return s + "]";
    }
  }
  return "?";
}

// "v43 = aten.relu.default(v42)", "v0 = <INPUT user 'input'>", "<OUTPUT>(v7)".
std::string instruction_text(const nac::Program& p, size_t i) {
  const nac::Instruction& ins = p.ops[i];
  const std::string v = "v" + std::to_string(i) + " = ";
  if (ins.a == nac::kOpInput) {
    if (ins.b == nac::kInputUser) {
      auto it = p.input_names.find(static_cast<uint16_t>(i));
      return v + "<INPUT user '" + (it != p.input_names.end() ? it->second : "") + "'>";
    }
    if (ins.b == nac::kInputParam) return v + "<INPUT param " + std::to_string(ins.ref_id) + " '" + p.param_names.at(ins.ref_id) + "'>";
    if (ins.b == nac::kInputState) return v + "<INPUT state " + std::to_string(ins.ref_id) + ">";
    return v + "<INPUT lifted " + constant_text(p.constants.at(ins.ref_id)) + ">";
  }
  std::string args;
  for (int64_t s : ins.sources) args += (args.empty() ? "v" : ", v") + std::to_string(s);
  for (const nac::Argument& a : ins.args)
    args += (args.empty() ? "" : ", ") +
            (a.constant ? constant_text(p.constants.at(*a.constant)) : "v" + std::to_string(a.source));
  if (ins.a == nac::kOpOutput) return std::string(ins.b == 0 ? "<OUTPUT>" : "<OUTPUT intermediate>") + "(" + args + ")";
  return v + ins.name + "(" + args + ")";
}

int dump(const NacOptions& o, std::ostream& out, std::ostream& err) {
  nac::DecodedFile f = nac::read_program(o.model, o.max_memory);
  print_diagnostics(err, f.diagnostics);
  if (!f.program) return exit_code_for(f.diagnostics);
  const nac::Program& p = *f.program;
  out << "NAC v1.6: " << p.ops.size() << " instructions, " << p.header.num_inputs << " inputs, "
      << p.header.num_outputs << " outputs, weights " << (p.header.internal_weights ? "internal" : "external") << ", "
      << nac::quant_name(p.header.quant) << (p.has_mmap ? "" : ", no MMAP") << "\n";
  for (size_t i = 0; i < p.ops.size(); ++i) {
    std::string line = instruction_text(p, i);
    if (p.has_mmap && !p.mmap[i].empty()) {
      line.resize(std::max<size_t>(line.size() + 3, 40), ' ');
      for (size_t k = 0; k < p.mmap[i].size(); ++k)
        line += (k ? ", " : "") + std::string(nac::mem_action_name(p.mmap[i][k].action)) + " -> " +
                std::to_string(p.mmap[i][k].target);
    }
    out << line << "\n";
  }
  return f.diagnostics.empty() ? kExitOk : exit_code_for(f.diagnostics);
}

// Each instruction's result in bytes (float32), from the lowered model's shapes: instruction i is
// node v<i>, or the input DATA block 2 names; a parameter load has its tensor's shape.
std::vector<int64_t> value_bytes(const nac::Program& p, const Model& m) {
  std::vector<int64_t> bytes(p.ops.size(), 0);
  auto info = infer_shapes(m.graph);
  if (!info) return bytes;
  for (size_t i = 0; i < p.ops.size(); ++i) {
    const nac::Instruction& ins = p.ops[i];
    if (ins.a == nac::kOpInput && ins.b == nac::kInputParam) {
      auto shape = p.tensors.find(ins.ref_id);
      if (shape != p.tensors.end()) bytes[i] = checked_element_count(shape->second.shape) * 4;
      continue;
    }
    auto named = p.input_names.find(static_cast<uint16_t>(i));
    const bool user = ins.a == nac::kOpInput && ins.b == nac::kInputUser;
    const std::string name = !user ? "v" + std::to_string(i) : named != p.input_names.end() ? named->second
                                                                                           : "input" + std::to_string(i);
    if (const Node* n = m.graph.find(name)) bytes[i] = info->nodes[static_cast<size_t>(n->id)].outputs[0].count() * 4;
  }
  return bytes;
}

int verify(const NacOptions& o, std::ostream& out, std::ostream& err) {
  int exit = kExitOk;
  auto model = load_reporting(o.model, LoadOptions{WeightsPolicy::Skip, o.max_memory}, err, exit);
  if (!model) return exit;
  nac::DecodedFile f = nac::read_program(o.model, o.max_memory);
  if (!f.program) {
    print_diagnostics(err, f.diagnostics);
    return exit_code_for(f.diagnostics);
  }
  nac::ScheduleOptions s;
  if (o.sram_bytes > 0) s.sram_bytes = o.sram_bytes;
  s.value_bytes = value_bytes(*f.program, *model);
  const auto errors = nac::verify_schedule(*f.program, s);
  std::vector<Diagnostic> diags;
  for (const auto& e : errors) diags.push_back(make_error(e.code, e.message, {o.model, 0, 0}));
  print_diagnostics(err, diags);
  if (!diags.empty()) return kExitInvalid;
  size_t commands = 0;
  for (const auto& tick : f.program->mmap) commands += tick.size();
  out << "ok: " << f.program->ops.size() << " instructions, " << commands << " MMAP commands"
      << (f.program->has_mmap ? "" : " (no MMAP section)") << "\n";
  return kExitOk;
}

}  // namespace

std::function<int(std::ostream&, std::ostream&)> add_nac_command(CLI::App& app) {
  auto o = std::make_shared<NacOptions>();
  auto* nac = app.add_subcommand("nac", "write, print and verify NAC v1.6 files");
  nac->require_subcommand(1);
  auto* compile_cmd = nac->add_subcommand("compile", "write a model as NAC v1.6");
  compile_cmd->add_option("model", o->model, "model file (.nnl, .nac)")->required();
  compile_cmd->add_option("-o,--output", o->output, "the .nac file to write")->required();
  compile_cmd->add_option("--quant", o->quant, "store the weights as float32 (none), fp16, int8-tensor or int8-channel")
      ->check(CLI::IsMember({"none", "fp16", "int8-tensor", "int8-channel"}))
      ->capture_default_str();
  compile_cmd->add_flag("--external-weights", o->external_weights,
                        "write the weights to a .safetensors file beside the .nac instead of its DATA section");
  compile_cmd
      ->add_option("--preload-ahead", o->preload_ahead,
                   "PRELOAD each parameter this many ticks before its load (default: the fewest ticks whose modeled "
                   "cycles hide its modeled transfer, docs/hw-model.md)")
      ->check(CLI::Range(0, 1000));
  compile_cmd->add_option("--config", o->hw_config, "the hardware model's parameters (JSON) the PRELOAD leads come from");
  for (auto* cmd : {compile_cmd, nac->add_subcommand("verify", "verify a NAC file's MMAP schedule")}) {
    cmd->add_option("--sram", o->sram_bytes, "SRAM capacity in bytes (suffixes K, M, G); 0: unbounded")
        ->transform(CLI::AsSizeValue(false));
    cmd->add_option("--max-memory", o->max_memory, "memory budget for tensors, in bytes (suffixes K, M, G)")
        ->transform(CLI::AsSizeValue(false));
  }
  auto* verify_cmd = nac->get_subcommand("verify");
  verify_cmd->add_option("model", o->model, "NAC file")->required();
  auto* dump_cmd = nac->add_subcommand("dump", "print every instruction with its arguments and its tick's MMAP commands");
  dump_cmd->add_option("model", o->model, "NAC file")->required();
  return [o, nac, compile_cmd, verify_cmd, dump_cmd](std::ostream& out, std::ostream& err) {
    if (!nac->parsed()) return -1;
    if (compile_cmd->parsed()) return compile(*o, out, err);
    if (verify_cmd->parsed()) return verify(*o, out, err);
    return dump(*o, out, err);
  };
}

}  // namespace nnref

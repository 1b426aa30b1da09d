#include "cli/fuzz_reproducer.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/model_files.hpp"
#include "formats/tensor_files/npy.hpp"

namespace nnref {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

Status write_text(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::trunc);
  f << text;
  if (!f.good()) return make_error("io.write", "cannot write '" + path.string() + "'");
  return {};
}

Json choices_json(const FailureOrigin& origin, const properties::GeneratedModel& failing, int nodes) {
  Json j;
  j["campaign_seed"] = origin.campaign_seed;
  j["model"] = origin.index;
  j["options"] = {{"max_nodes", origin.options.max_nodes},
                  {"ops", origin.options.ops},
                  {"max_rank", origin.options.max_rank},
                  {"max_extent", origin.options.max_extent},
                  {"max_elements", origin.options.max_elements}};
  j["original_nodes"] = origin.original_nodes;
  j["nodes"] = nodes;
  j["choices"] = failing.choices;  // Choices::replay(choices) and generate(options) rebuild the model here
  j["original_choices"] = origin.original_choices;
  return j;
}

// The model written in the first format that expresses it (a runtime's own format when a runtime
// is judged, for reproduce.sh hands it the model it failed on), with the input beside it.
Result<RuntimeFiles> write_model_and_input(const Model& m, const std::vector<HostTensor>& inputs,
                                           const std::vector<Subject>& subjects, const fs::path& dir,
                                           int64_t max_memory) {
  std::vector<std::string> formats = reproducer_formats();
  for (const Subject& s : subjects)
    if (s.runtime) formats = {s.runtime->format};
  Result<RuntimeFiles> files = make_error("convert.unexpressible", "no format to write the model in");
  for (const std::string& format : formats)
    if ((files = write_runtime_files(format, m, inputs, dir, max_memory))) break;
  return files;
}

// The one command that reproduces the first failing subject's verdict. An engine's runs in the
// folder; a runtime's runs where the campaign ran, as its command may name files relative to
// there, on the folder's files.
std::string reproduce_script(const RuntimeFiles& files, const Subject& subject, const std::string& nnref_binary,
                             const std::string& header) {
  const std::string here = subject.runtime ? "\"$here\"/" : "";
  std::error_code ignored;
  const std::string conform = "\"${NNREF:-" + nnref_binary + "}\" conform " + here + shell_quoted(files.model.string()) +
                              " --input " + here + shell_quoted(files.input.string());
  std::string go = "cd \"$(dirname \"$0\")\" || exit 2\n", command;
  if (subject.runtime) {
    go = "here=$(cd \"$(dirname \"$0\")\" && pwd) || exit 2\ncd " + shell_quoted(fs::current_path(ignored).string()) +
         " || exit 2\n";
    command = runtime_command(*subject.runtime, files, here) + " && " + conform + " --actual " + here +
              shell_quoted(files.output.string());
  } else {
    command = "exec " + conform + " --engine " + (subject.engine.engine == "oracle" ? "f32" : subject.engine.engine);
  }
  return "#!/bin/sh\n" + header +
         "# Exits 0 once the model conforms (the failure is gone), non-zero while it reproduces.\n"
         "# NNREF names the nnref binary to run, if not the one that found it.\n" +
         go + command + "\n";
}

}  // namespace

Status write_reproducer(const fs::path& dir, const FailureOrigin& origin, const properties::GeneratedModel& failing,
                        const std::vector<Subject>& subjects, const std::string& nnref_binary, int64_t max_memory) {
  const int nodes = op_node_count(failing.model.graph);
  if (Status s = write_text(dir / "choices.json", choices_json(origin, failing, nodes).dump(2) + "\n"); !s) return s;
  auto files = write_model_and_input(failing.model, failing.inputs, subjects, dir, max_memory);
  if (!files) return std::move(files).error();
  const std::string header = "# nnref fuzz --seed " + std::to_string(origin.campaign_seed) + ", model " +
                             std::to_string(origin.index) + " (" + std::to_string(origin.original_nodes) +
                             " op nodes, shrunk to " + std::to_string(nodes) + ")\n";
  if (Status s = write_text(dir / "reproduce.sh", reproduce_script(*files, subjects.front(), nnref_binary, header)); !s)
    return s;
  std::error_code ignored;  // without the execute bit, `sh reproduce.sh` still runs it
  fs::permissions(dir / "reproduce.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add, ignored);

  std::ofstream verdict(dir / "verdict.txt", std::ios::trunc);
  verdict << header.substr(2) << "judged on " << files->model.string() << " as read back, input " << files->input.string()
          << "\n" << std::flush;
  const Model& m = files->written;
  auto enclosures = enclose_outputs(m, failing.inputs, float32_runtime(), max_memory);
  if (!enclosures) {
    verdict << "the envelope cannot be computed: error[" << enclosures.error().code << "]: "
            << enclosures.error().message << "\n";
    return {};
  }
  for (const Subject& s : subjects) {
    verdict << "(running " << s.name << ")\n" << std::flush;  // the last line, if it crashes the process
    const SubjectJudgement j = judge_subject(s, m, failing.inputs, *enclosures, dir, max_memory);
    print_judgement(verdict, j);
    verdict << std::flush;
    if (j.outputs && !s.runtime)
      if (Status w = write_npz((dir / ("output-" + s.name + ".npz")).string(), *j.outputs); !w) return w;
  }
  return verdict.good() ? Status{} : Status{make_error("io.write", "cannot write '" + (dir / "verdict.txt").string() + "'")};
}

}  // namespace nnref

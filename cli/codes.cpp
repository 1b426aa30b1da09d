#include "cli/codes.hpp"

#include <array>

#include "formats/front_ends.hpp"

namespace nnref {

namespace {

using namespace std::string_view_literals;

// Every code nnref prints that is not an obligation (those are in the catalogue), by prefix; the
// page is docs/<page>.md.
// tests/explain_test.cpp fails when a code in the sources is missing here or in the catalogue.
constexpr std::array kCodes = {
    // Files and usage: exit code 2.
    CodeInfo{"io.open-failed", "the model file cannot be opened (it does not exist, or permissions)", "cli"},
    CodeInfo{"io.read-failed", "the model file was opened but reading it failed", "cli"},
    CodeInfo{"io.not-a-file", "the model path names a directory that is no model folder (it lacks the file that marks one)", "cli"},
    CodeInfo{"io.unknown-format", "the model file's extension names no front-end (the message lists the known ones)", "cli"},
    CodeInfo{"io.read", "a tensor file (.npy/.npz) cannot be opened or read", "tensor-files"},
    CodeInfo{"io.write", "an output, weights file or directory cannot be written", "cli"},
    CodeInfo{"io.weights-missing", "run: the weights the model's config names do not exist; `nnref init-weights MODEL` "
                                   "writes random ones there", "nnl"},
    CodeInfo{"io.weights-unreadable", "the weights directory cannot be listed", "nnl"},
    CodeInfo{"io.input-unknown", "run --input NAME=FILE, or a member of an --input .npz, names no input of the model", "cli"},
    CodeInfo{"io.input-repeated", "run --input names the same input twice", "cli"},
    CodeInfo{"io.input-count", "run is given more --input files than the model has inputs", "cli"},
    CodeInfo{"io.input-missing", "run is given no --input for one of the model's inputs", "cli"},
    CodeInfo{"io.output-format", "run --output is not .npy/.npz, or .npy for a model with several outputs", "cli"},
    CodeInfo{"io.process", "check --deadline could not start the child process that runs the check", "cli"},
    CodeInfo{"io.fuzz-out", "fuzz --out cannot be created or written", "cli"},
    CodeInfo{"usage.fuzz-budget", "fuzz is given neither or both of --count and --time", "cli"},
    CodeInfo{"usage.time", "fuzz --time is not a duration of at least 1 s (90, 90s, 10m, 1h30m)", "cli"},
    CodeInfo{"usage.shard", "fuzz or suite --shard is not I/N with 0 <= I < N", "cli"},
    CodeInfo{"io.suite-source", "suite: a MODEL_OR_TEST_DIR argument does not exist", "suite"},
    CodeInfo{"io.suite-no-input", "suite: a model has no input.npy or input.npz beside it (the case is skipped)",
             "suite"},
    CodeInfo{"io.suite-out", "suite --out, or a case's folder in it, cannot be created or written", "suite"},
    CodeInfo{"usage.runtime-format", "fuzz --runtime-format without --runtime, or a format no writer writes", "cli"},
    CodeInfo{"usage.model", "check is given no model file (and no --explain)", "cli"},
    CodeInfo{"usage.explain", "check --explain names a code nnref does not print", "cli"},
    CodeInfo{"usage.dim",
             "a --dim that is not NAME=LO..HI (check) or NAME=SIZE (run), names no input extent, or is given for a "
             "model whose extents have no size names",
             "cli"},
    CodeInfo{"usage.assume", "an --assume that does not parse, names an unknown size, or contradicts the ranges",
             "cli"},
    CodeInfo{"usage.out", "init-weights --out names a tensor file other than .npz, or the model names no weights "
                          "location", "cli"},
    CodeInfo{"usage.radius-output", "run --radius-output with a point precision (f32, f64, mp), which has no radius",
             "cli"},
    CodeInfo{"usage.conform-subject", "conform is given neither --actual nor --engine, or both", "cli"},
    CodeInfo{"usage.enumeration-limit", "check: the model needs sizes as numbers when it is read, and their --dim "
                                        "ranges hold more than 4096 combinations to read and check one by one",
             "cli"},
    CodeInfo{"usage.dim-required", "convert --to nnef, nnef2 or nnl: an input extent is symbolic (an ONNX dim_param), "
                                   "and NNEF, NNEF 2.0 and NNL declare every extent: give it with --dim NAME=SIZE", "cli"},
    CodeInfo{"usage.fast-only", "--threads or --target without --engine fast: they choose how the fast path runs",
             "cli"},
    CodeInfo{"usage.fast-precision", "run --engine fast or hw with a --precision other than f32: both compute in "
                                     "float32", "cli"},
    CodeInfo{"usage.target", "--target names no Highway target this machine and binary run", "cli"},
    CodeInfo{"usage.fma-per-cycle", "bench: NNREF_FMA_PER_CYCLE is set but is not a whole number from 1 to 16",
             "cli"},
    CodeInfo{"fast.memory", "the fast path's arena (its static memory plan) is larger than --max-memory", "cli"},
    CodeInfo{"hw.config.read", "hw run --config: the file cannot be read", "hw-model"},
    CodeInfo{"hw.config.json", "hw run --config: the file is not JSON (the message gives the byte)", "hw-model"},
    CodeInfo{"hw.config.type", "hw run --config: the config is not an object, or a key's value has the wrong JSON type",
             "hw-model"},
    CodeInfo{"hw.config.value", "hw run --config: an integer outside [1, 2^40], or a clock that is not positive", "hw-model"},
    CodeInfo{"hw.config.unknown-key", "hw run --config: a key (or an sfu_latency function) the hardware model does not have",
             "hw-model"},
    CodeInfo{"hw.sram.capacity", "the hardware model: more bytes are resident at a tick than its SRAM holds",
             "hw-model"},
    CodeInfo{"usage.actual-format", "conform --actual is not .npy or .npz, or .npy for a model with several outputs",
             "cli"},
    CodeInfo{"usage.actual-missing", "conform --actual lacks an array named as one of the model's outputs", "cli"},
    CodeInfo{"usage.actual-shape", "an array of conform --actual has a shape other than its output's", "cli"},
    CodeInfo{"usage.actual-unknown", "conform --actual has an array that names no output of the model", "cli"},
    CodeInfo{"usage.intermediate-unknown", "conform --intermediates has an array that names no value the model computes", "cli"},
    CodeInfo{"usage.intermediate-shape", "conform --intermediates has an array of another shape than its value, or not of reals", "cli"},
    CodeInfo{"usage.intermediate-format", "conform --intermediates is given for a model that is neither ONNX nor NNEF 2.0 (values are named by ONNX value names or SkriptND component names)", "cli"},
    CodeInfo{"input.count", "the number of inputs given differs from the model's", "cli"},
    CodeInfo{"input.shape-mismatch", "an input's rank, or an extent that has no size name, differs from the one "
                                     "the model declares (the extents that have size names are taken from the input)",
             "cli"},
    CodeInfo{"input.size-conflict", "two arrays given (or two axes of one) carry the same size name with different "
                                    "extents, or an array disagrees with --dim on one", "cli"},
    CodeInfo{"input.kind-mismatch", "an input's data cannot be read as the input's kind: a logical input takes bool "
                                    "data", "cli"},
    // convert (exit code 1), and its warning.
    CodeInfo{"convert.unexpressible", "convert: the target format has no op with this node's formula, or not for "
                                      "these attributes (the message names the node and the op)", "cli"},
    CodeInfo{"convert.float-attribute", "convert --to onnx: a float attribute (epsilon, alpha) is written as the "
                                        "float32 nearest to it, ONNX attributes being float32", "cli", true},
    // Tensor files: exit code 2.
    CodeInfo{"npy.bad-magic", "a .npy file does not start with \\x93NUMPY", "tensor-files"},
    CodeInfo{"npy.truncated", "a .npy file ends early: inside its header or its data", "tensor-files"},
    CodeInfo{"npy.unsupported-version", "a .npy format version other than 1.0, 2.0 or 3.0", "tensor-files"},
    CodeInfo{"npy.bad-header", "a .npy header that is not a well-formed dict of descr, fortran_order and shape",
             "tensor-files"},
    CodeInfo{"npy.unsupported-dtype", "a .npy dtype nnref does not read: complex, object, strings, structured, "
                                      "datetime, odd sizes", "tensor-files"},
    CodeInfo{"npy.trailing-data", "bytes after a .npy file's data: its header and data disagree", "tensor-files"},
    CodeInfo{"npy.integer-out-of-range", "a 64-bit integer element above 2^53, which a double cannot hold exactly",
             "tensor-files"},
    CodeInfo{"npy.bad-bool", "a bool element that is neither 0 nor 1", "tensor-files"},
    CodeInfo{"npy.bad-tensor", "a tensor to write whose values do not match its shape (a bug in nnref)",
             "tensor-files"},
    CodeInfo{"npy.value-not-representable", "a value to write that its dtype cannot hold", "tensor-files"},
    CodeInfo{"npz.bad-zip", "an .npz that is not a valid zip archive, or a member that cannot be inflated",
             "tensor-files"},
    CodeInfo{"npz.bad-member", "an .npz member whose name does not end in .npy", "tensor-files"},
    CodeInfo{"npz.duplicate-member", "two .npz members with the same name", "tensor-files"},
    CodeInfo{"npz.member-too-large", "an .npz member declaring more than 8 GiB", "tensor-files"},
    CodeInfo{"npz.bad-name", "a tensor name that cannot be an .npz member name", "tensor-files"},
    // The NNL front-end: exit code 1.
    CodeInfo{"nnl.syntax.unexpected-char", "characters that start no NNL token", "nnl"},
    CodeInfo{"nnl.syntax.unterminated-comment", "a /* comment that is never closed", "nnl"},
    CodeInfo{"nnl.syntax.unterminated-string", "a string without its closing quote on the same line", "nnl"},
    CodeInfo{"nnl.syntax.bad-number", "a malformed number literal (1., 1e, 3x)", "nnl"},
    CodeInfo{"nnl.syntax.expected", "a token other than the grammar expects here", "nnl"},
    CodeInfo{"nnl.syntax.unexpected-token", "a model statement that is not config, layer or connections", "nnl"},
    CodeInfo{"nnl.syntax.trailing", "text after the model's closing brace", "nnl"},
    CodeInfo{"nnl.number.out-of-range", "an integer beyond int64, or a number beyond a finite double", "nnl"},
    CodeInfo{"nnl.version.missing", "no `version 0.2;` line; the file is read as 0.2", "nnl", true},
    CodeInfo{"nnl.version.unsupported", "a version other than 0.2", "nnl"},
    CodeInfo{"nnl.config.missing", "the model has no config block", "nnl"},
    CodeInfo{"nnl.config.duplicate-block", "more than one config block", "nnl"},
    CodeInfo{"nnl.config.unknown-key", "a config key NNL does not define", "nnl"},
    CodeInfo{"nnl.config.duplicate-key", "a config key given twice", "nnl"},
    CodeInfo{"nnl.config.type", "a config value of the wrong type", "nnl"},
    CodeInfo{"nnl.config.value", "a config value outside its allowed set", "nnl"},
    CodeInfo{"nnl.config.int8-unsupported", "precision \"int8\": NNL v0.2 has no quantization parameters", "nnl"},
    CodeInfo{"nnl.config.weights-missing", "the config does not say where the weights are", "nnl"},
    CodeInfo{"nnl.config.preprocess-missing", "preprocess \"standardize\" without preprocess_mean and preprocess_std",
             "nnl"},
    CodeInfo{"nnl.config.preprocess-unused", "preprocess_mean or preprocess_std without \"standardize\"", "nnl",
             true},
    CodeInfo{"nnl.config.preprocess-shape", "preprocess_mean or preprocess_std does not fit the input's channels",
             "nnl"},
    CodeInfo{"nnl.model.no-layers", "the model declares no layers", "nnl"},
    CodeInfo{"nnl.model.no-input", "the model declares no Input layer", "nnl"},
    CodeInfo{"nnl.layer.unknown-type", "a layer type NNL does not define", "nnl"},
    CodeInfo{"nnl.layer.duplicate-id", "two layers with the same id", "nnl"},
    CodeInfo{"nnl.layer.arity", "a layer with more or fewer inputs than its type takes", "nnl"},
    CodeInfo{"nnl.param.unknown", "a parameter the layer type does not take", "nnl"},
    CodeInfo{"nnl.param.duplicate", "a layer parameter given twice", "nnl"},
    CodeInfo{"nnl.param.missing", "a required layer parameter is not given", "nnl"},
    CodeInfo{"nnl.param.type", "a layer parameter of the wrong type", "nnl"},
    CodeInfo{"nnl.param.value", "a layer parameter outside its allowed values", "nnl"},
    CodeInfo{"nnl.input.too-large", "an Input shape whose element count does not fit 64 bits", "nnl"},
    CodeInfo{"nnl.connection.unknown-layer", "an edge names a layer that is not declared", "nnl"},
    CodeInfo{"nnl.connection.duplicate-block", "more than one connections block", "nnl"},
    CodeInfo{"nnl.graph.cycle", "the connections form a cycle", "nnl"},
    CodeInfo{"nnl.graph.unreachable", "a layer no edge leads into, so no Input reaches it", "nnl"},
    CodeInfo{"nnl.graph.extra-output", "a layer that no layer reads, other than the last declared one: it becomes "
                                       "a model output too, which is rarely meant", "nnl", true},
    CodeInfo{"nnl.weights.unknown-format", "weights that are neither a directory of .npy files, an .npz nor an .onnx",
             "nnl"},
    CodeInfo{"nnl.too-many-errors", "after 100 errors the rest are counted, not listed", "nnl"},
    CodeInfo{"nnl.internal", "an unexpected failure while reading the model (a bug in nnref)", "nnl"},
    // The checker, the evaluator and the command.
    CodeInfo{"check.no-weights", "the weights do not exist, so the bindings were not checked, only structure, "
                                 "shapes and memory: check exits with 3 when nothing else failed", "cli", true},
    CodeInfo{"check.deadline", "check --deadline passed before the check ended: nothing was proved (exit code 1)",
             "cli"},
    CodeInfo{"eval.kind", "a graph output holds integer or logical data: run writes reals only", "cli"},
    CodeInfo{"run.size-undetermined", "a size the graph computes from the data of its inputs (an ArgMax feeding a "
                                      "Reshape) is left undetermined by the run's enclosures (interval, envelope: "
                                      "the ArgMax of a tie): nnref does not guess a size", "onnx"},
    CodeInfo{"size.out-of-memory", "the machine ran out of memory while reading the model", "nnl"},
    CodeInfo{"shape.internal", "a shape rule gave no result without failing an obligation (a bug in nnref)",
             "obligations"},
    CodeInfo{"graph.internal", "a check failed without saying why (a bug in nnref)", "obligations"},
    CodeInfo{"usage.precision", "the Python module's Model.run: a precision other than f32, f64, mp, interval or "
                                "envelope", "python"},
    CodeInfo{"usage.runtime-precision", "the Python module's run or conform: a runtime precision other than f32, f16 "
                                        "or bf16", "python"},
    CodeInfo{"internal.load", "the Python module: a front-end returned neither a model nor an error (a bug in nnref)",
             "python"},
    CodeInfo{"internal.exception", "an exception escaped a command (a bug in nnref); exit code 2", "cli"},
    CodeInfo{"internal.signal", "the child process of check --deadline died of a signal (a bug in nnref)", "cli"},
};

}  // namespace

const CodeInfo* find_code(std::string_view code) {
  for (const CodeInfo& c : kCodes)
    if (c.code == code) return &c;
  for (const FrontEnd& f : front_ends())
    for (const CodeInfo& c : f.codes)
      if (c.code == code) return &c;
  return nullptr;
}

}  // namespace nnref

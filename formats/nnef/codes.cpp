// Every diagnostic code of the NNEF front-end, for `check --explain` (docs/nnef.md lists them too).
#include <array>

#include "formats/nnef/nnef.hpp"

namespace nnref {

namespace {

constexpr std::array kNnefCodes = {
    // Syntax (§3.1, §3.2, Appendix A).
    CodeInfo{"nnef.syntax.character", "a character that starts no NNEF token", "nnef"},
    CodeInfo{"nnef.syntax.string", "a string literal without its closing quote on the same line", "nnef"},
    CodeInfo{"nnef.syntax.number", "a malformed number (an exponent without digits)", "nnef"},
    CodeInfo{"nnef.syntax.expected", "the grammar expects another token here", "nnef"},
    CodeInfo{"nnef.syntax.keyword", "a reserved word used as an identifier", "nnef"},
    CodeInfo{"nnef.syntax.type", "a type where the grammar has none, or a generic argument that is no type", "nnef"},
    CodeInfo{"nnef.syntax.version", "the version line does not give major.minor", "nnef"},
    CodeInfo{"nnef.syntax.after-graph", "text after the graph definition, which comes last", "nnef"},
    CodeInfo{"nnef.syntax.too-deep", "expressions nested beyond the parser's limit", "nnef"},
    CodeInfo{"nnef.syntax.extension-required", "a fragment definition or operator expression without the extension "
                                               "that enables it", "nnef"},
    CodeInfo{"nnef.version.unsupported", "an NNEF version other than 1.0", "nnef"},
    CodeInfo{"nnef.extension.unknown", "an extension this reader does not know", "nnef"},
    // Declarations, identifiers, invocations and types (§3.3).
    CodeInfo{"nnef.fragment.redefined", "a fragment defined twice, or with the name of a standard operation", "nnef"},
    CodeInfo{"nnef.fragment.duplicate-parameter", "a fragment parameter or result named twice", "nnef"},
    CodeInfo{"nnef.fragment.parameter-order", "a tensor parameter after an attribute", "nnef"},
    CodeInfo{"nnef.fragment.bad-default", "a default value that is not a literal", "nnef"},
    CodeInfo{"nnef.fragment.result-not-tensor", "a fragment result that is not a tensor", "nnef"},
    CodeInfo{"nnef.fragment.generic-marker", "a fragment's <?> marker disagrees with its use of ?", "nnef"},
    CodeInfo{"nnef.fragment.result-unassigned", "a fragment body that never assigns one of its results", "nnef"},
    CodeInfo{"nnef.fragment.recursion", "fragments expanding beyond the depth limit", "nnef"},
    CodeInfo{"nnef.fragment.undefined", "an invocation of an operation or fragment that does not exist", "nnef"},
    CodeInfo{"nnef.fragment.introduces-tensor", "external, variable or constant invoked inside a fragment", "nnef"},
    CodeInfo{"nnef.identifier.undefined", "an identifier used before it is assigned", "nnef"},
    CodeInfo{"nnef.identifier.redefined", "an identifier assigned twice (or a fragment parameter assigned)", "nnef"},
    CodeInfo{"nnef.assignment.structure", "a left-hand side whose arrays and tuples do not mirror the results", "nnef"},
    CodeInfo{"nnef.argument.count", "more arguments than the fragment has parameters", "nnef"},
    CodeInfo{"nnef.argument.unknown", "a named argument the fragment has no parameter for", "nnef"},
    CodeInfo{"nnef.argument.repeated", "an argument given twice", "nnef"},
    CodeInfo{"nnef.argument.missing", "a parameter without default that is given no argument", "nnef"},
    CodeInfo{"nnef.argument.positional-attribute", "an attribute given by position: attributes are named", "nnef"},
    CodeInfo{"nnef.argument.positional-after-named", "a positional argument after a named one", "nnef"},
    CodeInfo{"nnef.argument.value", "an argument outside the range its operation accepts", "nnef"},
    CodeInfo{"nnef.type.mismatch", "a value of the wrong type (no implicit integer to scalar conversion)", "nnef"},
    CodeInfo{"nnef.type.not-tensor", "a graph identifier that is not a single tensor", "nnef"},
    CodeInfo{"nnef.type.not-single", "an invocation inside an expression that returns several results", "nnef"},
    CodeInfo{"nnef.type.generic-ambiguous", "a generic type that cannot be deduced and has no default", "nnef"},
    CodeInfo{"nnef.type.generic-mismatch", "a generic type given to a fragment that is not generic", "nnef"},
    CodeInfo{"nnef.type.length-mismatch", "the arrays of a for comprehension differ in length", "nnef"},
    CodeInfo{"nnef.type.tuple-index", "a tuple subscript that is not an integer literal", "nnef"},
    CodeInfo{"nnef.type.conversion", "a string that integer(...) or scalar(...) cannot read", "nnef"},
    CodeInfo{"nnef.index.out-of-range", "an array or string subscript or slice outside it", "nnef"},
    CodeInfo{"nnef.literal.range", "a numeric literal too large for 64 bits or a double, or an integer beyond 2^53 in a tensor", "nnef"},
    CodeInfo{"nnef.arithmetic.overflow", "compile-time integer arithmetic beyond 64 bits, or an array repeated too often",
             "nnef"},
    CodeInfo{"nnef.arithmetic.division-by-zero", "a compile-time integer division by zero", "nnef"},
    CodeInfo{"nnef.graph.input-not-declared", "an external whose identifier is not among the graph's inputs", "nnef"},
    CodeInfo{"nnef.graph.input-not-external", "a graph input that no external assigns", "nnef"},
    CodeInfo{"nnef.graph.output-unassigned", "a graph output that the body never assigns", "nnef"},
    // Tensors introduced by the graph (§4.1, §4.8).
    CodeInfo{"nnef.shape.nonpositive", "an external, constant or variable with an extent that is not positive", "nnef"},
    CodeInfo{"nnef.size.over-budget", "a declared tensor, or the variables together, beyond the memory budget: refused "
                                      "before anything is allocated", "nnef"},
    CodeInfo{"nnef.constant.value-count", "a constant whose value list is neither 1 long nor its volume", "nnef"},
    CodeInfo{"nnef.label.invalid", "a variable label that is empty or has characters outside [A-Za-z0-9_-./\\]", "nnef"},
    CodeInfo{"nnef.label.escapes", "a variable label that leads outside the model folder: refused, never opened", "nnef"},
    CodeInfo{"nnef.label.shape-conflict", "two variables with one label (ignoring case) and different shapes", "nnef"},
    CodeInfo{"nnef.variable.update-unsupported", "update(...): variables that change between runs, which inference "
                                                 "does not support", "nnef"},
    CodeInfo{"nnef.op-unsupported", "an operation (or argument) with no counterpart in nnref's IR yet, or a custom "
                                    "operation without a body", "nnef"},
    CodeInfo{"nnef.shape-of.fixed", "shape_of read the declared extents, so the inputs get no size names", "nnef",
             true},
    CodeInfo{"nnef.extents.fixed", "an operation whose lowering depends on the declared extents (multilinear_upsample "
                                   "'aligned', debox 'ignore' normalized), so the inputs get no size names", "nnef", true},
    CodeInfo{"nnef.internal", "a shape rule gave no result without failing (a bug in nnref)", "nnef"},
    // Tensor files (§5.2).
    CodeInfo{"nnef.dat.missing", "a variable whose .dat file does not exist (run)", "nnef"},
    CodeInfo{"nnef.dat.unreadable", "a .dat file that cannot be opened or sized", "nnef"},
    CodeInfo{"nnef.dat.truncated", "a .dat file shorter than its header or than its declared data", "nnef"},
    CodeInfo{"nnef.dat.trailing-data", "bytes after the data a .dat header declares", "nnef"},
    CodeInfo{"nnef.dat.bad-magic", "a .dat file that does not start with 'N' 0xEF", "nnef"},
    CodeInfo{"nnef.dat.bad-version", "a .dat version other than 1.0", "nnef"},
    CodeInfo{"nnef.dat.bad-rank", "a .dat rank above 8, or a non-zero extent beyond the rank", "nnef"},
    CodeInfo{"nnef.dat.shape-mismatch", "a .dat whose extents differ from the variable's declared shape", "nnef"},
    CodeInfo{"nnef.dat.item-type", "a .dat item type that is unknown, has bits it cannot have, or does not fit the "
                                   "variable's type", "nnef"},
    CodeInfo{"nnef.dat.data-length", "a .dat data length other than ceil(volume × bits / 8), or more than 2^64 bits", "nnef"},
    CodeInfo{"nnef.dat.integer-out-of-range", "a .dat integer above 2^53 in magnitude", "nnef"},
    CodeInfo{"nnef.dat.quant-missing", "quantized .dat items without a graph.quant algorithm to read them", "nnef"},
    // graph.quant (§5.3).
    CodeInfo{"nnef.quant.positional", "a graph.quant argument given by position", "nnef"},
    CodeInfo{"nnef.quant.duplicate", "a tensor named twice in graph.quant", "nnef"},
    CodeInfo{"nnef.quant.unknown-tensor", "graph.quant names no identifier of the graph's body", "nnef"},
    CodeInfo{"nnef.quant.unknown-algorithm", "graph.quant names an algorithm that is no fragment", "nnef"},
    CodeInfo{"nnef.quant.argument", "a graph.quant algorithm missing an argument or given one of the wrong type", "nnef"},
    CodeInfo{"nnef.quant.bits-mismatch", "graph.quant's bits differ from the bits of the stored items", "nnef"},
    CodeInfo{"nnef.quant.unsupported", "stored items whose graph.quant algorithm nnref cannot invert", "nnef"},
};

}  // namespace

std::span<const CodeInfo> nnef_codes() { return kNnefCodes; }

}  // namespace nnref

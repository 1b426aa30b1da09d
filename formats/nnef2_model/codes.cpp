// Every diagnostic code of the NNEF 2.0 front-end, for `check --explain`
// (docs/nnef2.md lists them too).
#include <array>

#include "formats/nnef2_model/nnef2_model.hpp"

namespace nnref {

namespace {

constexpr std::array kNnef2Codes = {
    CodeInfo{"nnef2.lex.character", "a character that starts no SkriptND token", "nnef2"},
    CodeInfo{"nnef2.lex.string",
             "a string without its closing quote on its line, or a bad "
             "back-tick name",
             "nnef2"},
    CodeInfo{"nnef2.lex.number", "an exponent without digits", "nnef2"},
    CodeInfo{"nnef2.syntax.expected", "a token other than the one the grammar needs", "nnef2"},
    CodeInfo{"nnef2.syntax.expression", "no expression where one must start", "nnef2"},
    CodeInfo{"nnef2.syntax.block", "@name that is not one of the twelve blocks", "nnef2"},
    CodeInfo{"nnef2.syntax.version", "a version that is not major.minor", "nnef2"},
    CodeInfo{"nnef2.syntax.lowering-op", "a lowering without its assignment operator", "nnef2"},
    CodeInfo{"nnef2.syntax.fold-op", ".. or ... after an operator without that fold form", "nnef2"},
    CodeInfo{"nnef2.syntax.string-format", "a { in a string without its }", "nnef2"},
    CodeInfo{"nnef2.syntax.tensor-access", "[i, j] after something other than a tensor's name", "nnef2"},
    CodeInfo{"nnef2.syntax.too-deep", "nesting beyond the parser's limit", "nnef2"},
    CodeInfo{"nnef2.eval.name", "a name that is not defined where an expression reads it", "nnef2"},
    CodeInfo{"nnef2.eval.type", "an operator or built-in applied to values of the wrong type", "nnef2"},
    CodeInfo{"nnef2.eval.length", "packs of different lengths combined item by item", "nnef2"},
    CodeInfo{"nnef2.eval.index", "a pack or string index out of range", "nnef2"},
    CodeInfo{"nnef2.eval.value",
             "a range or slice of stride 0, a negative count or exponent, a "
             "fold of nothing",
             "nnef2"},
    CodeInfo{"nnef2.eval.overflow", "integer arithmetic beyond 64 bits", "nnef2"},
    CodeInfo{"nnef2.eval.division-by-zero", "an integer /, \\ or % by zero at composition", "nnef2"},
    CodeInfo{"nnef2.eval.builtin", "a built-in that composition does not evaluate", "nnef2"},
    CodeInfo{"nnef2.eval.zip", "a zip (a, b) that is not expanded in a list", "nnef2"},
    CodeInfo{"nnef2.eval.lowering", "a tensor access or guarded index outside @lower", "nnef2"},
    CodeInfo{"nnef2.compose.attribute", "an unknown attribute, one of the wrong type, or one without a value", "nnef2"},
    CodeInfo{"nnef2.compose.argument", "too many inputs, a missing one, or a value that is not a tensor", "nnef2"},
    CodeInfo{"nnef2.compose.shape",
             "an input's rank or extent that its operator's shape declaration "
             "refuses",
             "nnef2"},
    CodeInfo{"nnef2.compose.binding",
             "an extent expression that binds no symbol affinely, or inputs "
             "that bind in no "
             "order (§2.6.2)",
             "nnef2"},
    CodeInfo{"nnef2.compose.assert-type", "an assertion that is not a bool", "nnef2"},
    CodeInfo{"nnef2.compose.output-extent", "an operator output with a negative extent", "nnef2"},
    CodeInfo{"nnef2.compose.unsupported",
             "a construct composition does not handle yet (unpacking, packed "
             "outputs)",
             "nnef2"},
    CodeInfo{"nnef2.compose.control-flow",
             "run-time control flow in a graph's @compose: an if or a loop whose condition or count is read from a "
             "tensor or computed by an operator, a loop with a while condition (not composed yet)",
             "nnef2"},
    CodeInfo{"nnef2.compose.generic",
             "a type given between <> that the operator's @dtype does not admit, or more types than it declares",
             "nnef2"},
    CodeInfo{"nnef2.compose.type",
             "an input of another element type than its definition declares (a bool tensor where a real one is "
             "wanted), or a generic bound to two types",
             "nnef2"},
    CodeInfo{"nnef2.compose.results", "a component with more or fewer names than its operator's results", "nnef2"},
    CodeInfo{"nnef2.assert.failed", "an operator's or the graph's @assert that does not hold", "nnef2"},
    CodeInfo{"nnef2.graph.missing", "a document without a graph", "nnef2"},
    CodeInfo{"nnef2.graph.block", "a graph's @lower, @update or @dtype (not composed yet)", "nnef2"},
    CodeInfo{"nnef2.graph.attribute", "a graph attribute without a default", "nnef2"},
    CodeInfo{"nnef2.graph.declaration",
             "an optional or packed graph tensor (not composed yet), or one not real, int or bool", "nnef2"},
    CodeInfo{"nnef2.graph.extent", "a graph tensor's extent that is not an int of at least 1", "nnef2"},
    CodeInfo{"nnef2.graph.constant",
             "a constant without a value, with the wrong number of values, or values not of its type", "nnef2"},
    CodeInfo{"nnef2.graph.using", "a graph @using that unpacks (not composed yet)", "nnef2"},
    CodeInfo{"nnef2.graph.redefined", "a name defined twice in a graph", "nnef2"},
    CodeInfo{"nnef2.graph.outputs", "a graph without outputs", "nnef2"},
    CodeInfo{"nnef2.graph.output-unassigned", "a graph output that @compose does not compute", "nnef2"},
    CodeInfo{"nnef2.graph.output-type", "a graph output computed with another element type than declared", "nnef2"},
    CodeInfo{"nnef2.graph.output-shape", "a graph output computed at another shape than declared", "nnef2"},
    CodeInfo{"nnef2.dynamic.shape", "a dynamic extent ~ or s|bound (§3.1, not composed yet)", "nnef2"},
    CodeInfo{"nnef2.dat.missing", "a variable whose .dat file does not exist", "nnef2"},
    CodeInfo{"nnef2.dat.escapes", "a variable's .dat file that leads outside the model folder", "nnef2"},
    CodeInfo{"nnef2.dat.quantized", "a variable stored as quantized items that the graph's @quantize does not name",
             "nnef2"},
    CodeInfo{"nnef2.quantize.unsupported",
             "a @quantize entry of a computed tensor, or by an operator other than quant.zero_point_linear_quantize "
             "and quant.min_max_linear_quantize (not read yet)",
             "nnef2"},
    CodeInfo{"nnef2.quantize.mismatch",
             "a @quantize entry whose bits or signedness are not those of the variable's codes", "nnef2"},
    CodeInfo{"nnef2.import.unknown", "an import of a module that is not a standard module", "nnef2"},
    CodeInfo{"nnef2.import.missing", "an invocation of a module the document does not import", "nnef2"},
    CodeInfo{"nnef2.op.unknown", "an invocation of an operator no module defines", "nnef2"},
    CodeInfo{"nnef2.op.no-native",
             "an operator without a native mapping and without a @lower body (its @compose is not expanded yet)",
             "nnef2"},
    CodeInfo{"nnef2.lower.unsupported",
             "a @lower body using what the interpreter does not take: unroll without an index, a condition on tensor values outside "
             "an update (:=), a target index or a pack item computed from tensor values, a truth value as a number, "
             "arithmetic on int tensors, a select with one null value",
             "nnef2"},
    CodeInfo{"nnef2.lower.no-initial-value",
             "an update (:=) of a @lower body's output that no `=` of that output precedes (§2.11: an update needs "
             "an initialization)",
             "nnef2"},
    CodeInfo{"nnef2.lower.out-of-bounds",
             "an unguarded tensor access of a @lower body outside its tensor at the bound sizes (§2.11 requires |i| "
             "where an index may leave the tensor)",
             "nnef2"},
    CodeInfo{"nnef2.lower.rank", "a tensor access of a @lower body with another number of indices than its rank",
             "nnef2"},
    CodeInfo{"nnef2.lower.null", "a null value or index where a @lower body needs a number", "nnef2"},
    CodeInfo{"nnef2.lower.too-large", "a lowering with more loop points than nnref enumerates (2^22)", "nnef2"},
    CodeInfo{"nnef2.native.attribute",
             "an operator's attribute value that its native mapping does not "
             "take yet",
             "nnef2"},
    CodeInfo{"nnef2.native.kind",
             "an operator of an element type its native mapping does not take (a comparison of ints, an int "
             "division, a real cast to int)",
             "nnef2"},
    CodeInfo{"nnef2.native.computed-parameter", "a conv or linear filter or bias that is not a variable", "nnef2"},
    CodeInfo{"nnef2.native.cropping", "a window whose padding is negative (the draft's automatic padding crops)",
             "nnef2"},
    CodeInfo{"nnef2.native.ceil-window", "a ceil-mode window that starts in the padding after the input", "nnef2"},
    CodeInfo{"nnef2.internal", "a defect of nnref: the standard library or a native mapping disagrees", "nnef2"},
};

}  // namespace

std::span<const CodeInfo> nnef2_codes() { return kNnef2Codes; }

}  // namespace nnref

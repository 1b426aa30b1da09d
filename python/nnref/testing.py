"""Assertions for a runtime's own tests (docs/python.md): nnref.testing.assert_conforms(model,
inputs, actual) passes when nnref's verdict is "conforms", and otherwise raises an AssertionError
that reads like a diagnosis: per output that is not judged conforming, the worst element, the
runtime's value, the exact value's enclosure (with exact=True), the envelope of the answers allowed,
and the node that computes the output (or where its envelope lost a bound)."""

import nnref as _nnref


def _index(index):
    return "[" + ", ".join(str(i) for i in index) + "]"


def _diagnosis(model, verdict):
    nodes = dict(zip([o.name for o in model.outputs], model._m.output_nodes()))
    lines = ["nnref conform: %s (runtime precision %s)" % (verdict.verdict, verdict.runtime_precision)]
    for out in verdict.outputs:
        if out["outside"] == 0 and out["not_judged"] == 0:
            continue
        lines.append("output '%s': %d of %d elements outside the envelope, %d not judged" % (
            out["name"], out["outside"], out["elements"], out["not_judged"]))
        worst = out.get("worst")
        if worst and out["outside"]:
            lo, hi = worst["envelope"]
            exact = "exact value in [%r, %r]" % tuple(worst["exact"]) if worst["exact"] else "exact value not computed"
            lines.append("  worst: %s%s = %r; envelope [%r, %r]; %s; outside by %r" % (
                out["name"], _index(worst["index"]), worst["actual"], lo, hi, exact, worst["distance"]))
            lines.append("  computed by node '%s'" % nodes.get(out["name"], out["name"]))
        lost = out.get("first_lost_at")
        if out["not_judged"]:
            where = _index(out["first_not_judged"])
            if lost:
                lines.append("  not judged from %s%s: the envelope lost a bound at node '%s' (%s): %s" % (
                    out["name"], where, lost["node"], lost["op"], lost["why"]))
            else:
                lines.append("  not judged from %s%s" % (out["name"], where))
    cut = getattr(verdict, "intermediates", None) or {}
    first = cut.get("first_outside")
    if first:
        lo, hi = first["envelope"]
        lines.append("intermediate '%s' (%s) first outside its envelope: element %s = %r; envelope [%r, %r]" % (
            first["name"], first["op"], _index(first["index"]), first["actual"], lo, hi))
    lines.append(str(verdict).rstrip())
    return "\n".join(lines)


def assert_conforms(model, inputs, actual, runtime_precision="f32", ulps=4.0, dims=None, intermediates=None,
                    exact=False):
    """Raises AssertionError unless every element of `actual` (an array, or {output name: array})
    lies in the envelope nnref computes for `model` (a Model or a path) on `inputs`, every element
    judged; with `intermediates` (the runtime's values by ONNX value name), each of those too; with
    `exact`, the exact value's enclosure is computed and shown in the diagnosis (Model.conform).
    Returns the Verdict. nnref.Error for inputs nnref cannot judge."""
    if not isinstance(model, _nnref.Model):
        model = _nnref.load(model)
    verdict = model.conform(inputs, actual, runtime_precision=runtime_precision, ulps=ulps, dims=dims,
                            intermediates=intermediates, exact=exact)
    if not verdict:
        raise AssertionError(_diagnosis(model, verdict))
    return verdict

#!/usr/bin/python3
"""The one walk over an NNL v0.2 model that the low-precision peers share (numpy_float_eval.py,
torch_float_eval.py): it reads each layer's parameters and weights as nnl_reference.py does and
calls the backend's operation, so the peers differ only in their arithmetic.

A backend subclasses `Backend` and implements the operations on its own values: `tensor` (a NumPy
array or number into a value), `numpy` (a value into a NumPy array), `sub`, `div`, `dense`,
`conv2d` (padding already decided: ((top, bottom), (left, right))), `maxpool2d`, `avgpool2d`,
`batchnorm`, `relu`, `sigmoid`, `softmax`, `add` (a list of values, summed), `concat`.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnl_reference as ref  # noqa: E402


class Backend:
    def activation(self, y, name):
        if name == "none":
            return y
        if name == "relu":
            return self.relu(y)
        if name == "sigmoid":
            return self.sigmoid(y)
        if name == "softmax":
            return self.softmax(y, y.ndim - 1)
        raise ref.NNLError("unknown activation %r" % name)

    def preprocess(self, m, x):
        mode = m.config.get("preprocess", "none")
        if mode == "normalize_0_1":
            return self.div(x, self.tensor(255.0))
        if mode == "standardize":
            return self.div(self.sub(x, self.tensor(m.config["preprocess_mean"])),
                            self.tensor(m.config["preprocess_std"]))
        return x

    def layer(self, layer, ins, weights, same_padding):
        t, p, lid = layer.type, layer.params, layer.id
        x = ins[0]
        per_sample_rank = x.ndim - 1

        def w(name, shape):
            return self.tensor(ref.layer_weight(weights, lid, name, shape))

        if t == "Dense":
            y = self.dense(x, w("weight", (x.shape[1], p["units"])), w("bias", (p["units"],)))
            return self.activation(y, p["activation"])
        if t == "Conv2D":
            (kH, kW), (sH, sW) = ref.pair(p["kernel"], "kernel"), ref.pair(p["stride"], "stride")
            pads = ((0, 0), (0, 0))
            if p["padding"] == "same":
                pads = (same_padding(x.shape[1], kH, sH)[:2], same_padding(x.shape[2], kW, sW)[:2])
            elif p["padding"] != "valid":
                raise ref.NNLError("Conv2D %r: unknown padding %r" % (lid, p["padding"]))
            return self.conv2d(x, w("weight", (p["filters"], x.shape[3], kH, kW)), w("bias", (p["filters"],)),
                               (sH, sW), pads)
        if t in ("MaxPool2D", "AvgPool2D"):
            k = ref.pair(p["kernel"], "kernel")
            s = k if p["stride"] is None else ref.pair(p["stride"], "stride")
            return self.maxpool2d(x, k, s) if t == "MaxPool2D" else self.avgpool2d(x, k, s)
        if t == "Flatten":
            return x.reshape(x.shape[0], -1)
        if t == "BatchNorm":
            C = (x.shape[-1],)
            return self.batchnorm(x, w("gamma", C), w("beta", C), w("running_mean", C), w("running_var", C),
                                  p["epsilon"])
        if t == "Dropout":
            return x
        if t == "ReLU":
            return self.relu(x)
        if t == "Sigmoid":
            return self.sigmoid(x)
        if t == "Softmax":
            return self.softmax(x, ref.sample_axis(p["axis"], per_sample_rank))
        if t == "Add":
            return self.add(ins)
        if t == "Concat":
            return self.concat(ins, ref.sample_axis(p["axis"], per_sample_rank))
        raise ref.NNLError("cannot evaluate layer type %r" % t)

    def evaluate(self, m, weights, x, same_padding=ref.same_padding):
        """{output id: NumPy array} for the batched input x [B, *shape]. `same_padding(size, k, s)`
        gives (before, after, out) of one spatial axis; a parameter so that a wrong one can be
        injected (inject_bugs.py)."""
        x = np.asarray(x)
        ref.check_input(m, x)
        vals = {}
        for lid in m.order:
            layer = m.by_id[lid]
            if layer.type == "Input":
                vals[lid] = self.preprocess(m, self.tensor(x))
            else:
                vals[lid] = self.layer(layer, [vals[s] for s in layer.inputs], weights, same_padding)
        return {o: self.numpy(vals[o]) for o in m.outputs}

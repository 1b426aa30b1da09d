#!/usr/bin/python3
"""PyTorch float32 as a runtime under `nnref fuzz --runtime` (docs/testing.md, "nnref fuzz"):

    fuzz_torch_adapter.py MODEL.nnl INPUT.npy|INPUT.npz OUTPUT.npz

Runs the NNL model as a user porting it to PyTorch would (torch_float_eval.py's TorchEvaluator:
nn.functional on NCHW, one intra-op thread, float32 throughout), on the input nnref fuzz wrote
(an .npz holds one member, named by the Input layer's id), and writes its outputs keyed by output
layer id, as nnref conform reads them. Exits 2 when the model or the input cannot be read: nnref
fuzz counts that as a failure of the runtime, so the adapter must read every NNL model nnref
writes.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nnl_reference as ref  # noqa: E402
import torch_float_eval  # noqa: E402  (sets the OpenMP wait policy before torch starts)
import torch  # noqa: E402


def read_input(path):
    if not path.endswith(".npz"):
        return np.load(path, allow_pickle=False)
    with np.load(path, allow_pickle=False) as z:
        if len(z.files) != 1:
            raise ref.NNLError("%s holds %d arrays; an NNL model has one input" % (path, len(z.files)))
        return z[z.files[0]]


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    model_path, input_path, output_path = argv[1:]
    try:
        m = ref.load_model(model_path)
        weights = ref.load_weights(m)
        x = read_input(input_path)
    except (OSError, ValueError, ref.NNLError) as e:
        sys.stderr.write("fuzz_torch_adapter: %s\n" % e)
        return 2
    outputs = torch_float_eval.TorchEvaluator(torch.float32, 1).evaluate(m, weights, x)
    np.savez(output_path, **{name: np.asarray(v, dtype=np.float32) for name, v in outputs.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

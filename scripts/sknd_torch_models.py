#!/usr/bin/python3
"""AlexNet and a perceptron written in SkriptND against PyTorch float64 (issue 33, docs/nnef2.md).

tests/data/nnef2/alexnet is torchvision's AlexNet at 224 px with narrower layers, and
tests/data/nnef2/perceptron a perceptron with one hidden layer. For each, the same network is
built in PyTorch (AlexNet from torchvision's own module, each convolution and linear layer
replaced by a narrower one with torchvision's kernel size, stride and padding) with seeded random
float32 weights. The weights are written as main.<Graph>.<name>.dat into a temporary copy of the
model folder. `nnref check --dim batch=1..64` must prove the model for every batch (its batch is
the graph attribute `batch`), and sknd_reference.judge requires, at the model's own batch and at
another, `nnref check` to pass,
`nnref run --precision f64` to agree with PyTorch's float64 answer within 1e-12 of its largest
magnitude, and `nnref conform` to accept PyTorch's float32 answer, judged at PyTorch's float32
values of every component (--intermediates, which keeps AlexNet's envelope tight), and to reject
it with its largest element off by 1e-3 relative.

Usage:
    sknd_torch_models.py --nnref BIN [--root DIR] [--seed N]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

# Idle OpenMP threads sleep instead of spinning on the shared machine (torch_float_eval.py).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
import torch  # noqa: E402
import torchvision  # noqa: E402
from torch import nn  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sknd_reference import judge, write_variables  # noqa: E402


def alexnet(widths=(16, 48, 96, 64, 64), hidden=256, classes=10):
    """torchvision's AlexNet, its five convolutions `widths` channels wide and its classifier `hidden`
    units wide, as tests/data/nnef2/alexnet declares."""
    net = torchvision.models.AlexNet(num_classes=classes)
    channels = 3
    convs = [i for i, m in enumerate(net.features) if isinstance(m, nn.Conv2d)]
    for i, width in zip(convs, widths, strict=True):
        m = net.features[i]
        net.features[i] = nn.Conv2d(channels, width, m.kernel_size, m.stride, m.padding)
        channels = width
    features = channels * 6 * 6  # the adaptive pool's 6 × 6
    linears = [i for i, m in enumerate(net.classifier) if isinstance(m, nn.Linear)]
    for i, width in zip(linears, (hidden, hidden, classes), strict=True):
        net.classifier[i] = nn.Linear(features, width)
        features = width
    return net


def perceptron():
    return nn.Sequential(nn.Linear(6, 8), nn.Sigmoid(), nn.Linear(8, 3), nn.Softmax(dim=1))


def he_init(net):
    """He's normal initialisation (std √(2 / fan-in)) of the weights and small normal biases, so that
    the activations keep their scale through AlexNet's eight ReLU layers (PyTorch's default
    initialisation shrinks them at each) and every layer weighs in the answer."""
    for m in net.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
            nn.init.normal_(m.bias, 0.0, 0.1)
    return net


# kernel1, bias1, ..., kernel5, bias5 (the convolutions), weight6, bias6, ..., weight8, bias8
ALEXNET_VARIABLES = [kind + str(layer) for layer in range(1, 9)
                     for kind in ("kernel" if layer <= 5 else "weight", "bias")]
# The components of tests/data/nnef2/alexnet that PyTorch's modules compute, in their order (its
# flatten is torch.flatten in AlexNet.forward, no module; Dropout is left out of the SkriptND).
PROVED = "batch=1..64"  # the sizes `nnref check --dim` must prove each model for

ALEXNET_COMPONENTS = ["conv1", "relu1", "pool1", "conv2", "relu2", "pool2", "conv3", "relu3", "conv4", "relu4",
                      "conv5", "relu5", "pool3", "pool6", "fc6", "relu6", "fc7", "relu7", "output"]

# name: (graph, the PyTorch module, its initialisation, the variables' names in the module's
# parameter order, the components its modules compute, the input's shape after the batch, the
# batches run: the model's own and another)
MODELS = {
    "perceptron": ("Perceptron", perceptron, lambda net: net, ["w1", "b1", "w2", "b2"], ["h", "a", "z", "output"],
                   (6,), (4, 5)),
    "alexnet": ("AlexNet", alexnet, he_init, ALEXNET_VARIABLES, ALEXNET_COMPONENTS, (3, 224, 224), (2, 3)),
}


def intermediates(net, components, x):
    """PyTorch's values on x of the components (name -> array) that `net`'s modules other than Dropout
    compute, in their order (the last is the answer): a runtime's intermediate values for conform."""
    modules = [m for m in net.modules() if not list(m.children()) and not isinstance(m, nn.Dropout)]
    values = {}
    # Copies: an in-place ReLU overwrites the output of the layer before it.
    hooks = [m.register_forward_hook(lambda m, i, o, name=name: values.update({name: o.detach().clone().numpy()}))
             for m, name in zip(modules, components, strict=True)]
    try:
        with torch.no_grad():
            net(torch.from_numpy(x))
    finally:
        for h in hooks:
            h.remove()
    return values


def check_model(nnref, root, name, seed, rtol=1e-12, slip=1e-3):
    """Prints the model's table rows; returns the problems found."""
    graph, module, init, names, components, sample, batches = MODELS[name]
    torch.manual_seed(seed)
    net32 = init(module()).eval()  # eval: Dropout is the identity
    net64 = module().double().eval()
    net64.load_state_dict(net32.state_dict())  # float32 weights, exactly in float64
    params = [p.detach().numpy().astype(np.float64) for p in net32.parameters()]
    rng = np.random.default_rng(seed)
    work = tempfile.mkdtemp(prefix="sknd_torch_")
    try:
        folder = os.path.join(work, name)
        shutil.copytree(os.path.join(root, "tests/data/nnef2", name), folder)
        write_variables(folder, graph, dict(zip(names, params, strict=True)))
        problems = []
        r = subprocess.run([nnref, "check", folder, "--dim", PROVED], capture_output=True, text=True)
        if r.returncode != 0 or ": ok," not in r.stdout:
            problems.append("check --dim %s: exit %d\n%s%s" % (PROVED, r.returncode, r.stdout, r.stderr))
        for batch in batches:
            x = rng.normal(0.0, 1.0, (batch, *sample)).astype(np.float32)
            with torch.no_grad():
                want = net64(torch.from_numpy(x).double()).numpy()
            given = intermediates(net32, components, x)
            start = time.monotonic()
            found, error = judge(nnref, folder, work, {"input": x.astype(np.float64)}, {"output": want}, rtol,
                                 actual={"output": given.pop("output")}, intermediates=given, slip=slip)
            seconds = time.monotonic() - start
            difference = "did not run" if error is None else "%.2g" % error
            print("%-11s %5d %14s %12s %7.1f" % (name, batch, difference, "pass" if not found else "FAIL", seconds))
            problems += ["batch %d: %s" % (batch, p) for p in found]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nnref", default="build/nnref")
    ap.add_argument("--root", default=".")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(1)
    print("%-11s %5s %14s %12s %7s" % ("model", "batch", "|run-torch|/y", "verdict", "seconds"))
    problems = []
    for name in MODELS:
        problems += ["%s: %s" % (name, p) for p in check_model(a.nnref, a.root, name, a.seed)]
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""PyTorch's float32 kernels timed: the peer of fastpath_bench.

    torch_kernels.py ITEM [ITEM ...] [--repeat R] [--threads T]

ITEM is gemm:S (C = A·B, A and B random S × S, torch.matmul with a preallocated output) or
conv:H:W:C:F:K:P (one sample H × W × C, F filters K × K, padding P on every side, stride 1,
torch.nn.functional.conv2d in NCHW with a bias). Each runs once to warm up, then R times under
torch.inference_mode() with torch.set_num_threads(T). Prints one JSON line:
{"version", "threads", "best_s": {ITEM: best wall time of one run}, "median_s": {ITEM: median}}.
"""

import argparse
import json
import statistics
import time

import torch
import torch.nn.functional as F


def runner(item):
    kind, *dims = item.split(":")
    dims = [int(d) for d in dims]
    if kind == "gemm" and len(dims) == 1:
        s = dims[0]
        a, b, out = torch.rand(s, s), torch.rand(s, s), torch.empty(s, s)
        return lambda: torch.matmul(a, b, out=out)
    if kind == "conv" and len(dims) == 6:
        h, w, c, f, k, p = dims
        x, weight, bias = torch.rand(1, c, h, w), torch.rand(f, c, k, k), torch.rand(f)
        return lambda: F.conv2d(x, weight, bias, padding=p)
    raise SystemExit("torch_kernels.py: bad item %r" % item)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("items", nargs="+")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    best, median = {}, {}
    with torch.inference_mode():
        for item in a.items:
            run = runner(item)
            run()
            times = []
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                run()
                times.append(time.perf_counter() - t0)
            best[item] = min(times)
            median[item] = statistics.median(times)
    print(json.dumps({"version": torch.__version__, "threads": torch.get_num_threads(), "best_s": best, "median_s": median}))


if __name__ == "__main__":
    main()

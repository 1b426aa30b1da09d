#!/usr/bin/python3
"""NumPy float64 values of the small LSTM, GRU and RNN models of tests/onnx_test_recurrent.cpp.

Written from ONNX's formulas (Operators.md) step by step, independently of nnref: each batch row
is run on its own over its first sequence_lens[b] positions (the reverse direction from position
len − 1 down to 0), Y is 0 past the length, Y_h / Y_c the state after the row's last step. The
weights are pattern(n, seed) = ((k·7 + seed) mod 17 − 8)/16 for k = 0 .. n − 1 (exact in float32),
as the test makes them. Prints each case's outputs, row-major, to paste into the test.

  /usr/bin/python3 scripts/recurrent_reference.py
"""
import numpy as np


def pattern(n, seed):
    return np.array([((k * 7 + seed) % 17 - 8) / 16.0 for k in range(n)])


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def leaky(alpha):
    return lambda x: np.where(x >= 0, x, alpha * x)


def relu(x):
    return np.maximum(x, 0)


def cell_step(kind, x, h, c, W, R, Wb, Rb, P, acts, clip, input_forget, lbr):
    """One step of one batch row: x [I], h, c [H]; returns (h', c')."""
    H = h.shape[0]
    cl = (lambda v: np.clip(v, -clip, clip)) if clip else (lambda v: v)
    if kind == "LSTM":
        f, g, hh = acts
        gates = W @ x + R @ h + Wb + Rb
        gi, go, gf, gc = (gates[k * H:(k + 1) * H] for k in range(4))
        pi, po, pf = P[:H], P[H:2 * H], P[2 * H:]
        i = f(cl(gi + pi * c))
        ft = 1 - i if input_forget else f(cl(gf + pf * c))
        ct = g(cl(gc))
        c2 = ft * c + i * ct
        o = f(cl(go + po * c2))
        return o * hh(c2), c2
    if kind == "GRU":
        f, g = acts
        xw = W @ x + Wb
        z = f(cl(xw[:H] + R[:H] @ h + Rb[:H]))
        r = f(cl(xw[H:2 * H] + R[H:2 * H] @ h + Rb[H:2 * H]))
        if lbr:
            ht = g(cl(xw[2 * H:] + r * (R[2 * H:] @ h + Rb[2 * H:])))
        else:
            ht = g(cl(xw[2 * H:] + R[2 * H:] @ (r * h) + Rb[2 * H:]))
        return (1 - z) * ht + z * h, c
    (f,) = acts
    return f(cl(W @ x + R @ h + Wb + Rb)), c


def run(kind, X, W, R, B, lens, h0, c0, P, directions, acts, clip=0.0, input_forget=False, lbr=False):
    """X [T, B, I] (time-major); returns Y [T, D, B, H], Y_h [D, B, H], Y_c [D, B, H]."""
    T, N, _ = X.shape
    D, GH, _ = W.shape
    H = R.shape[2]
    per = len(acts) // D
    Y = np.zeros((T, D, N, H))
    Yh = np.zeros((D, N, H))
    Yc = np.zeros((D, N, H))
    for d in range(D):
        reverse = directions[d] == "reverse"
        Wb, Rb = (B[d, :GH], B[d, GH:]) if B is not None else (np.zeros(GH), np.zeros(GH))
        Pd = P[d] if P is not None else np.zeros(3 * H)
        for b in range(N):
            h = h0[d, b].copy() if h0 is not None else np.zeros(H)
            c = c0[d, b].copy() if c0 is not None else np.zeros(H)
            n = lens[b] if lens is not None else T
            order = range(n - 1, -1, -1) if reverse else range(n)
            for t in order:
                h, c = cell_step(kind, X[t, b], h, c, W[d], R[d], Wb, Rb, Pd, acts[d * per:(d + 1) * per], clip,
                                 input_forget, lbr)
                Y[t, d, b] = h
            Yh[d, b], Yc[d, b] = h, c
    return Y, Yh, Yc


def show(name, a):
    print("%s %s: {%s}" % (name, list(a.shape), ", ".join("%.17g" % v for v in a.ravel())))


def main():
    # LSTM forward: T 3, batch 2, input 2, hidden 2; B, P, initial_h, initial_c; sequence_lens [3, 1]
    # as a graph input.
    T, N, I, H = 3, 2, 2, 2
    X = pattern(T * N * I, 1).reshape(T, N, I)
    W = pattern(4 * H * I, 2).reshape(1, 4 * H, I)
    R = pattern(4 * H * H, 3).reshape(1, 4 * H, H)
    B = pattern(8 * H, 4).reshape(1, 8 * H)
    P = pattern(3 * H, 5).reshape(1, 3 * H)
    h0 = pattern(N * H, 6).reshape(1, N, H)
    c0 = pattern(N * H, 7).reshape(1, N, H)
    Y, Yh, Yc = run("LSTM", X, W, R, B, [3, 1], h0, c0, P, ["forward"], [sigmoid, np.tanh, np.tanh])
    print("lstm forward")
    show("Y", Y), show("Y_h", Yh), show("Y_c", Yc)

    # LSTM reverse, input_forget 1, clip 0.25, activations LeakyRelu(0.5), Tanh, Relu; no B, no
    # initial state; sequence_lens constant [1, 3].
    W = pattern(4 * H * I, 8).reshape(1, 4 * H, I)
    R = pattern(4 * H * H, 9).reshape(1, 4 * H, H)
    Y, Yh, Yc = run("LSTM", X, W, R, None, [1, 3], None, None, None, ["reverse"], [leaky(0.5), np.tanh, relu],
                    clip=0.25, input_forget=True)
    print("lstm reverse")
    show("Y", Y), show("Y_h", Yh), show("Y_c", Yc)

    # GRU bidirectional, layout 1 (X [batch, T, input]), linear_before_reset 1, B, initial_h
    # [batch, D, H]; all lengths.
    Xb = pattern(N * T * I, 10).reshape(N, T, I)
    W = pattern(2 * 3 * H * I, 11).reshape(2, 3 * H, I)
    R = pattern(2 * 3 * H * H, 12).reshape(2, 3 * H, H)
    B = pattern(2 * 6 * H, 13).reshape(2, 6 * H)
    h0b = pattern(N * 2 * H, 14).reshape(N, 2, H)
    Y, Yh, _ = run("GRU", Xb.transpose(1, 0, 2), W, R, B, None, h0b.transpose(1, 0, 2), None, None,
                   ["forward", "reverse"], [sigmoid, np.tanh, sigmoid, np.tanh], lbr=True)
    print("gru bidirectional layout 1")
    show("Y", Y.transpose(2, 0, 1, 3)), show("Y_h", Yh.transpose(1, 0, 2))

    # GRU forward, linear_before_reset 0, B, no initial state, sequence_lens [2, 3] (graph input).
    W = pattern(3 * H * I, 15).reshape(1, 3 * H, I)
    R = pattern(3 * H * H, 16).reshape(1, 3 * H, H)
    B = pattern(6 * H, 0).reshape(1, 6 * H)
    Y, Yh, _ = run("GRU", X, W, R, B, [2, 3], None, None, None, ["forward"], [sigmoid, np.tanh])
    print("gru forward")
    show("Y", Y), show("Y_h", Yh)

    # RNN bidirectional, activations Relu, Tanh; B; initial_h.
    W = pattern(2 * H * I, 3).reshape(2, H, I)
    R = pattern(2 * H * H, 5).reshape(2, H, H)
    B = pattern(2 * 2 * H, 7).reshape(2, 2 * H)
    h0 = pattern(2 * N * H, 9).reshape(2, N, H)
    Y, Yh, _ = run("RNN", X, W, R, B, None, h0, None, None, ["forward", "reverse"], [relu, np.tanh])
    print("rnn bidirectional")
    show("Y", Y), show("Y_h", Yh)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Hand-built NAC v1.6 files for tests/nac_test.cpp, written byte by byte from the spec's layouts
(seeds/nac-v1.6-spec.md) with struct.pack, independently of nnref's writer.

  nac_corpus.py OUT_DIR

writes, into OUT_DIR:
  good.<name>.nac (+ .safetensors), good.<name>.input.npy, good.<name>.expected.npy: valid files
      whose outputs NumPy computes here in float64 (good.no_manifest: two inputs, x and y, and no
      nnref.io.json, with good.no_manifest.{x,y,expected}{2,3}.npy at batch 2 and 3);
  bad.<code>.<k>.nac: malformed files, each breaking one rule; nnref must refuse it with <code>.
"""
import json
import os
import struct
import sys

import numpy as np

TAGS = ["MMAP", "OPS ", "CMAP", "CNST", "PERM", "DATA", "PROC", "ORCH", "RSRC"]
INPUT, OUTPUT = 2, 3
SAVE, FREE, FORWARD, PRELOAD = 10, 20, 30, 40


def nac(sections, storage=0x80, n_in=1, n_out=1, version=1, magic=b"NAC", offsets=None, pad=b""):
    """Header (88 bytes) then the sections in the order given; `offsets` overrides the table."""
    body, table, pos = b"", [0] * 9, 88
    for tag, data in sections:
        table[TAGS.index(tag)] = pos
        chunk = tag.encode() + data
        body += chunk
        pos += len(chunk)
    if offsets:
        for tag, value in offsets.items():
            table[TAGS.index(tag)] = value
    header = magic + bytes([version, storage]) + struct.pack("<HHBH", n_in, n_out, 0, 0)
    header += struct.pack("<9Q", *table) + b"\0" * 4
    assert len(header) == 88
    return header + body + pad


def ins(a, b, c=None, d=()):
    out = bytes([a, b])
    if c is not None:
        out += struct.pack("<%dh" % len(c), *c)
    return out + struct.pack("<%dh" % len(d), *d)


def names_u8(entries):
    out = struct.pack("<I", len(entries))
    for i, name in entries:
        out += struct.pack("<HB", i, len(name)) + name.encode()
    return out


def names_u16(entries):
    out = struct.pack("<I", len(entries))
    for i, name in entries:
        out += struct.pack("<HH", i, len(name)) + name.encode()
    return out


def const(i, type_code, value=None):
    if type_code == 0:
        return struct.pack("<HBH", i, 0, 0)
    if type_code == 1:
        return struct.pack("<HBH", i, 1, 1) + bytes([value])
    if type_code == 2:
        return struct.pack("<HBHq", i, 2, 8, value)
    if type_code == 3:
        return struct.pack("<HBHd", i, 3, 8, value)
    if type_code == 4:
        return struct.pack("<HBH", i, 4, len(value)) + value.encode()
    if type_code == 5:
        return struct.pack("<HBH", i, 5, len(value)) + struct.pack("<%di" % len(value), *value)
    return struct.pack("<HBH", i, 6, len(value)) + struct.pack("<%df" % len(value), *value)


def cnst(records):
    return struct.pack("<I", len(records)) + b"".join(records)


def meta(dtype, shape, quant=0):
    return bytes([dtype, len(shape)]) + struct.pack("<%dI" % len(shape), *shape) + bytes([quant])


def tensor(pid, dtype, shape, data, quant=0, meta_bytes=None, length=None):
    m = meta_bytes if meta_bytes is not None else meta(dtype, shape, quant)
    return struct.pack("<HIQ", pid, len(m), len(data) if length is None else length) + m + data


def data(params, inputs, tensors=None):
    out = names_u16(params) + names_u16(inputs)
    if tensors is not None:
        out += struct.pack("<I", len(tensors)) + b"".join(tensors)
    return out


def rsrc(files):
    out = struct.pack("<I", len(files))
    for name, blob in files:
        out += struct.pack("<H", len(name)) + name.encode() + struct.pack("<I", len(blob)) + blob
    return out


def manifest(inputs, outputs=None):
    m = {"inputs": {name: {"shape": shape} for name, shape in inputs.items()}}
    if outputs:
        m["outputs"] = outputs
    return ("nnref.io.json", json.dumps(m).encode())


def mmap(records):
    out = struct.pack("<I", len(records))
    for tick, commands in records:
        out += struct.pack("<HB", tick, len(commands))
        for action, target in commands:
            out += struct.pack("<BH", action, target)
    return out


def safetensors(tensors):
    """tensors: name -> (dtype string, shape, raw bytes)."""
    header, blob = {}, b""
    for name, (dtype, shape, raw) in tensors.items():
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [len(blob), len(blob) + len(raw)]}
        blob += raw
    text = json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + blob


def f32(a):
    return np.asarray(a, dtype="<f4").tobytes()


# ---------------------------------------------------------------------------------------------
# Valid files


def every_section(out):
    """All nine sections, all seven CNST types, a D offset on a constant-coded argument (softmax's
    dim from a lifted constant), a constant as a tensor operand, a string decimal and a bool."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 4))
    W = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float16)
    ops = b"".join([
        ins(INPUT, 0),                         # 0  x
        ins(INPUT, 1, [2, 0]),                 # 1  W
        ins(INPUT, 1, [2, 1]),                 # 2  b
        ins(201, 1, None, [-3, -2, -1]),       # 3  aten.linear.default "TWB"
        ins(INPUT, 3, [2, 3]),                 # 4  lifted constant 3 = 1 (the softmax dim)
        ins(202, 2, [1, 0], [-2, -1, 0]),      # 5  aten.softmax.int "TAc": dim from instruction 4, dtype null
        ins(20, 3, [1, 4], [-1, 0]),           # 6  nac.mul "Tf" by 2.5
        ins(23, 4, [2, 2, 3], [-1, 0, 0]),     # 7  nac.transpose "TAA" 0, 1
        ins(11, 5, [1, 8], [-1, 0]),           # 8  nac.add "Tc" [0.5, -1.0]
        ins(203, 6, [1, 5], [-1, 0]),          # 9  nnref.leaky_relu "Ts": alpha "0.125"
        ins(204, 7, [2, 6, 1], [-1, 0, 0]),    # 10 aten.mean.dim "TSb": [1], keepdim true
        ins(OUTPUT, 0, [2, 0], [-1]),          # 11
    ])
    constants = cnst([const(0, 0), const(1, 1, 1), const(2, 2, 0), const(3, 2, 1), const(4, 3, 2.5),
                      const(5, 4, "0.125"), const(6, 5, [1]), const(8, 6, [0.5, -1.0])])
    schedule = mmap([(0, [(PRELOAD, 1), (PRELOAD, 2)]), (4, [(FREE, 1), (FREE, 2)]), (5, [(FORWARD, 6)]),
                     (6, [(FREE, 3), (FREE, 4)]), (7, [(FREE, 5), (SAVE, 7)])])
    sections = [
        ("MMAP", schedule), ("OPS ", ops),
        ("CMAP", names_u8([(201, "aten.linear.default"), (202, "aten.softmax.int"), (203, "nnref.leaky_relu"),
                           (204, "aten.mean.dim")])),
        ("CNST", constants),
        ("PERM", names_u8([(1, "TWB"), (2, "TAc"), (3, "Tf"), (4, "TAA"), (5, "Tc"), (6, "Ts"), (7, "TSb")])),
        ("DATA", data([(0, "fc.weight"), (1, "fc.bias")], [(0, "x")],
                      [tensor(0, 0, [3, 4], f32(W)), tensor(1, 2, [3], b.astype("<f2").tobytes())])),
        ("PROC", struct.pack("<I", 4) + b"TISA"),
        ("ORCH", struct.pack("<II", 3, 1) + b"\x01\x02\x03" + b"\x09"),
        ("RSRC", rsrc([manifest({"x": [2, 4]}, ["y"]), ("vocab.txt", b"a\nb\n")])),
    ]
    y = x @ W.astype(np.float64).T + b.astype(np.float64)
    e = np.exp(y - y.max(axis=1, keepdims=True))
    s = e / e.sum(axis=1, keepdims=True) * 2.5
    a = s.T + np.array([0.5, -1.0])
    a = np.where(a < 0, 0.125 * a, a)
    save(out, "every_section", nac(sections, n_in=2), x, a.mean(axis=1, keepdims=True))


def quantized_internal(out):
    """INT8_TENSOR (a float32 scale, then int8 values) and FP16 tensors in DATA; a parameter read as
    a tensor operand (a Const node)."""
    x = np.array([[1.5, -2.0]])
    q = np.array([[127, -3], [64, 0]], dtype=np.int8)
    scale = np.float32(0.02)
    h = np.array([0.25, -1.5], dtype=np.float16)
    ops = b"".join([ins(INPUT, 0), ins(INPUT, 1, [2, 0]), ins(22, 1, None, [-2, -1]), ins(INPUT, 1, [2, 1]),
                    ins(11, 1, None, [-2, -1]), ins(OUTPUT, 0, [2, 0], [-1])])
    sections = [
        ("OPS ", ops), ("PERM", names_u8([(1, "TT")])),
        ("DATA", data([(0, "w"), (1, "h")], [(0, "x")],
                      [tensor(0, 7, [2, 2], f32([scale]) + q.tobytes(), quant=2),
                       tensor(1, 2, [2], h.astype("<f2").tobytes(), quant=1)])),
        ("RSRC", rsrc([manifest({"x": [1, 2]})])),
    ]
    w = q.astype(np.float64) * np.float64(scale)
    save(out, "quantized_internal", nac(sections, storage=0x82), x, x @ w + h.astype(np.float64))


def external_int8_channel(out):
    """External weights: INT8_CHANNEL in a sibling .safetensors, scales in <name>.__scale__;
    aten.convolution.default with a null bias, max_pool2d_with_indices and getitem."""
    rng = np.random.default_rng(2)
    x = rng.standard_normal((1, 1, 4, 4))
    q = rng.integers(-127, 128, size=(2, 1, 3, 3)).astype(np.int8)
    scales = np.array([0.01, 0.03], dtype=np.float32)
    ops = b"".join([
        ins(INPUT, 0), ins(INPUT, 1, [2, 0]),
        # convolution(x, w, None, stride [1,1], padding [1,1], dilation [1,1], False, [0,0], 1)
        ins(201, 1, [7, 0, 1, 2, 1, 3, 4, 7], [-2, -1, 0, 0, 0, 0, 0, 0, 0]),
        ins(202, 2, [2, 6, 6], [-1, 0, 0]),    # max_pool2d_with_indices(x, [2,2], [2,2])
        ins(203, 3, [1, 5], [-1, 0]),           # getitem(., 0)
        ins(OUTPUT, 0, [2, 0], [-1]),
    ])
    constants = cnst([const(0, 0), const(1, 5, [1, 1]), const(2, 5, [1, 1]), const(3, 1, 0), const(4, 5, [0, 0]),
                      const(5, 2, 0), const(6, 5, [2, 2]), const(7, 2, 1)])
    sections = [
        ("OPS ", ops),
        ("CMAP", names_u8([(201, "aten.convolution.default"), (202, "aten.max_pool2d_with_indices.default"),
                           (203, "getitem")])),
        ("CNST", constants),
        ("PERM", names_u8([(1, "TWBSSSbSi"), (2, "TSS"), (3, "Ti")])),
        ("DATA", data([(0, "conv.weight")], [(0, "x")])),
        ("RSRC", rsrc([manifest({"x": [1, 1, 4, 4]})])),
    ]
    # the constant ids of C, in D's order of zeros: null bias, stride, padding, dilation, transposed,
    # output_padding, groups
    w = q.astype(np.float64) * scales.astype(np.float64)[:, None, None, None]
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    conv = np.zeros((1, 2, 4, 4))
    for o in range(2):
        for i in range(4):
            for j in range(4):
                conv[0, o, i, j] = (xp[0, 0, i:i + 3, j:j + 3] * w[o, 0]).sum()
    pooled = conv.reshape(1, 2, 2, 2, 2, 2).max(axis=(3, 5))
    save(out, "external_int8_channel", nac(sections, storage=0x03), x, pooled)
    with open(os.path.join(out, "good.external_int8_channel.safetensors"), "wb") as f:
        f.write(safetensors({"conv.weight": ("I8", [2, 1, 3, 3], q.tobytes()),
                             "conv.weight.__scale__": ("F32", [2], f32(scales))}))


def param_dim(out):
    """A constant-coded argument (softmax's dim) from a one-element int64 parameter, by a D offset."""
    x = np.array([[1.0, 2.0, 4.0], [0.5, -1.0, 0.0]])
    ops = b"".join([ins(INPUT, 0), ins(INPUT, 1, [2, 0]), ins(201, 1, [0], [-2, -1]), ins(OUTPUT, 0, [2, 0], [-1])])
    sections = [
        ("OPS ", ops), ("CMAP", names_u8([(201, "aten._softmax.default")])), ("PERM", names_u8([(1, "TA")])),
        ("DATA", data([(0, "dim")], [(0, "x")], [tensor(0, 5, [], struct.pack("<q", 1))])),
        ("RSRC", rsrc([manifest({"x": [2, 3]})])),
    ]
    e = np.exp(x - x.max(axis=1, keepdims=True))
    save(out, "param_dim", nac(sections), x, e / e.sum(axis=1, keepdims=True))


def no_manifest(out):
    """No RSRC section, so no nnref.io.json: v1.6 records no input shapes, and nnref takes them from
    the arrays given. Two user inputs, x [B, 3] and y [B, 2]: relu(linear(x, W, b) + y), at B = 2
    and at B = 3 (good.no_manifest.{x,y,expected}{2,3}.npy)."""
    W = np.array([[1.0, -2.0, 0.5], [0.25, 1.0, -1.0]], dtype=np.float32)
    b = np.array([0.5, -0.25], dtype=np.float32)
    ops = b"".join([
        ins(INPUT, 0),                        # 0  x
        ins(INPUT, 0),                        # 1  y
        ins(INPUT, 1, [2, 0]),                # 2  W
        ins(INPUT, 1, [2, 1]),                # 3  b
        ins(201, 1, None, [-4, -2, -1]),      # 4  aten.linear.default "TWB"
        ins(11, 2, None, [-1, -4]),           # 5  nac.add "TT" (linear, y)
        ins(202, 3, None, [-1]),              # 6  aten.relu.default "T"
        ins(OUTPUT, 0, [2, 0], [-1]),         # 7
    ])
    sections = [
        ("OPS ", ops),
        ("CMAP", names_u8([(201, "aten.linear.default"), (202, "aten.relu.default")])),
        ("PERM", names_u8([(1, "TWB"), (2, "TT"), (3, "T")])),
        ("DATA", data([(0, "W"), (1, "b")], [(0, "x"), (1, "y")],
                      [tensor(0, 0, [2, 3], f32(W)), tensor(1, 0, [2], f32(b))])),
    ]
    with open(os.path.join(out, "good.no_manifest.nac"), "wb") as f:
        f.write(nac(sections, n_in=2))
    rng = np.random.default_rng(3)
    for batch in (2, 3):
        x = rng.standard_normal((batch, 3))
        y = rng.standard_normal((batch, 2))
        expected = np.maximum(x @ W.astype(np.float64).T + b.astype(np.float64) + y, 0)
        for name, a in (("x", x), ("y", y), ("expected", expected)):
            np.save(os.path.join(out, "good.no_manifest.%s%d.npy" % (name, batch)), a)


def save(out, name, blob, x, expected):
    with open(os.path.join(out, "good.%s.nac" % name), "wb") as f:
        f.write(blob)
    np.save(os.path.join(out, "good.%s.input.npy" % name), x)
    np.save(os.path.join(out, "good.%s.expected.npy" % name), expected)


# ---------------------------------------------------------------------------------------------
# Malformed files: a small valid program (x -> relu -> output), each with one rule broken.

RELU_OPS = ins(INPUT, 0) + ins(201, 1, None, [-1]) + ins(OUTPUT, 0, [2, 0], [-1])


def base(ops=RELU_OPS, cmap=None, perm=None, constants=None, data_=None, io=None, schedule=None, extra=(), **kw):
    sections = []
    if schedule is not None:
        sections.append(("MMAP", schedule))
    sections.append(("OPS ", ops))
    sections.append(("CMAP", cmap if cmap is not None else names_u8([(201, "aten.relu.default")])))
    sections.append(("CNST", constants if constants is not None else cnst([const(0, 2, 1)])))
    sections.append(("PERM", perm if perm is not None else names_u8([(1, "T"), (2, "Ti")])))
    sections.append(("DATA", data_ if data_ is not None else data([(0, "p")], [(0, "x")], [tensor(0, 0, [2], f32([1, 2]))])))
    sections.append(("RSRC", rsrc([io if io is not None else manifest({"x": [1, 2]})])))
    sections.extend(extra)
    return nac(sections, **kw)


def malformed():
    ok = base()
    yield "nac.truncated", ok[:40]
    yield "nac.magic", b"NAX" + ok[3:]
    yield "nac.version", base(version=2)
    yield "nac.version", base(version=7)
    yield "nac.header.quant", base(storage=0x85)
    yield "nac.offset", base(offsets={"PROC": len(ok) + 100})
    yield "nac.offset", base(offsets={"PROC": 20})
    yield "nac.section.tag", base(offsets={"PROC": 88 + 4})  # points into OPS's instructions
    yield "nac.ops.missing", base(offsets={"OPS ": 0})
    yield "nac.count", base(cmap=struct.pack("<I", 1000) + names_u8([(201, "aten.relu.default")])[4:])
    yield "nac.cmap.id", base(cmap=names_u8([(201, "aten.relu.default"), (5, "x")]))
    yield "nac.cmap.duplicate", base(cmap=names_u8([(201, "aten.relu.default"), (201, "aten.relu.default")]))
    yield "nac.perm.code", base(perm=names_u8([(1, "Tz")]))
    yield "nac.perm.duplicate", base(perm=names_u8([(1, "T"), (1, "T")]))
    yield "nac.cnst.type", base(constants=cnst([struct.pack("<HBH", 0, 9, 0)]))
    yield "nac.cnst.length", base(constants=cnst([struct.pack("<HBHi", 0, 2, 4, 1)]))
    yield "nac.cnst.value", base(constants=cnst([struct.pack("<HBHB", 0, 1, 1, 2)]))
    yield "nac.cnst.duplicate", base(constants=cnst([const(0, 2, 1), const(0, 2, 2)]))
    yield "nac.truncated", base(constants=cnst([struct.pack("<HBH", 0, 5, 200) + b"\0" * 8]))
    yield "nac.data.duplicate", base(data_=data([(0, "p"), (0, "q")], [(0, "x")], []))
    yield "nac.data.param-id", base(data_=data([(0, "p")], [(0, "x")], [tensor(3, 0, [2], f32([1, 2]))]))
    yield "nac.data.dtype", base(data_=data([(0, "p")], [(0, "x")], [tensor(0, 12, [2], f32([1, 2]))]))
    yield "nac.data.quant", base(data_=data([(0, "p")], [(0, "x")], [tensor(0, 0, [2], f32([1, 2]), quant=7)]))
    yield "nac.data.metadata", base(data_=data([(0, "p")], [(0, "x")],
                                               [tensor(0, 0, [2], f32([1, 2]), meta_bytes=meta(0, [2]) + b"\0")]))
    yield "nac.data.length", base(data_=data([(0, "p")], [(0, "x")], [tensor(0, 0, [3], f32([1, 2]))]))
    yield "nac.truncated", base(data_=data([(0, "p")], [(0, "x")], [tensor(0, 0, [2], f32([1]), length=8)]))
    yield "nac.ops.unknown-op", base(ops=ins(INPUT, 0) + ins(99, 1, None, [-1]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.ops.signature", base(ops=ins(INPUT, 0) + ins(201, 77, None, [-1]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.ops.c-length", base(ops=ins(INPUT, 0) + ins(201, 2, [-1], [-1, 0]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.ops.d-forward", base(ops=ins(INPUT, 0) + ins(201, 1, None, [1]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.ops.d-range", base(ops=ins(INPUT, 0) + ins(201, 1, None, [-5]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.ops.c-count", base(ops=ins(INPUT, 0) + ins(201, 2, [0], [-1, 0]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.ops.c-count", base(ops=ins(INPUT, 0) + ins(201, 2, [2, 0, 0], [-1, 0]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.ops.constant-id", base(ops=ins(INPUT, 0) + ins(201, 2, [1, 9], [-1, 0]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.ops.param-id", base(ops=ins(INPUT, 0) + ins(INPUT, 1, [2, 7]) + ins(OUTPUT, 0, [2, 0], [-2]))
    yield "nac.ops.c-length", base(ops=ins(INPUT, 0) + ins(INPUT, 1, [3, 0]) + ins(OUTPUT, 0, [2, 0], [-2]))
    yield "nac.ops.constant-id", base(ops=ins(INPUT, 0) + ins(INPUT, 3, [2, 9]) + ins(OUTPUT, 0, [2, 0], [-2]), n_in=2)
    yield "nac.ops.variant", base(ops=ins(INPUT, 5) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.ops.variant", base(ops=ins(INPUT, 0) + ins(OUTPUT, 4, [2, 0], [-1]))
    yield "nac.ops.output-count", base(n_out=2)
    yield "nac.ops.d-range", base(ops=ins(INPUT, 0) + ins(OUTPUT, 0, [2, 0], [0]))
    yield "nac.ops.no-output", base(ops=ins(INPUT, 0) + ins(201, 1, None, [-1]))
    yield "nac.ops.trailing", base(ops=RELU_OPS + b"\0\0\x05")
    yield "nac.ops.special", base(ops=ins(INPUT, 0) + ins(6, 0, [3, 1, 1], [-1]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.ops.special", base(ops=ins(INPUT, 0) + ins(7, 50, [1], [1]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.ops.input-count", base(n_in=3)
    yield "nac.data.input-index", base(data_=data([(0, "p")], [(1, "x")], []))
    yield "nac.mmap.tick", base(schedule=mmap([(99, [(FREE, 0)])]))
    yield "nac.mmap.tick", base(schedule=mmap([(1, []), (1, [])]))
    yield "nac.mmap.action", base(schedule=mmap([(1, [(50, 0)])]))
    yield "nac.mmap.target", base(schedule=mmap([(1, [(FREE, 99)])]))
    yield "nac.mmap.use-after-free", base(schedule=mmap([(1, [(FREE, 0)])]))
    yield "nac.mmap.free-unexecuted", base(schedule=mmap([(0, [(FREE, 1)])]))
    yield "nac.mmap.double-free", base(schedule=mmap([(2, [(FREE, 0), (FREE, 0)])]))
    yield "nac.mmap.forward", base(schedule=mmap([(0, [(FORWARD, 2)])]))
    yield "nac.mmap.preload", base(schedule=mmap([(0, [(PRELOAD, 1)])]))
    yield "nac.mmap.save-target", base(schedule=mmap([(0, [(SAVE, 1)])]))
    yield "nac.op.unsupported", base(ops=ins(INPUT, 0) + ins(13, 3, None, [-1, -1]) + ins(OUTPUT, 0, [2, 0], [-1]),
                                     perm=names_u8([(3, "TT")]))
    yield "nac.op.unsupported", base(ops=ins(INPUT, 0) + ins(INPUT, 2, [2, 0]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.op.unsupported", base(cmap=names_u8([(201, "custom.frobnicate")]))
    yield "nac.op.unsupported", base(cmap=names_u8([(201, "nnref.frobnicate")]))
    yield "nac.input.shape", base(io=manifest({"y": [1, 2]}))
    yield "nac.manifest", base(io=("nnref.io.json", b"{not json"))
    yield "nac.arg.count", base(perm=names_u8([(1, "TT")]), ops=ins(INPUT, 0) + ins(201, 1, None, [-1, -1]) +
                                ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.arg.type", base(cmap=names_u8([(201, "aten.softmax.int")]),
                               constants=cnst([const(0, 4, "one")]),
                               ops=ins(INPUT, 0) + ins(201, 2, [1, 0], [-1, 0]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.arg.dynamic", base(cmap=names_u8([(201, "aten.softmax.int")]),
                                  ops=ins(INPUT, 0) + ins(201, 2, [0], [-1, -1]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.arg.value", base(cmap=names_u8([(201, "nnref.binary_wrong"), (202, "nnref.add")]),
                                perm=names_u8([(1, "TTi")]), constants=cnst([const(0, 2, 9)]),
                                ops=ins(INPUT, 0) + ins(202, 1, [1, 0], [-1, -1, 0]) + ins(OUTPUT, 0, [2, 0], [-1]))
    yield "nac.data.block-fp8", base(data_=data([(0, "p")], [(0, "x")], [tensor(0, 8, [2], b"\1\2", quant=4)]),
                                     ops=ins(INPUT, 0) + ins(INPUT, 1, [2, 0]) + ins(11, 3, None, [-2, -1]) +
                                     ins(OUTPUT, 0, [2, 0], [-1]), perm=names_u8([(3, "TT")]))
    yield "nac.data.missing-tensor", base(data_=data([(0, "p")], [(0, "x")], []),
                                          ops=ins(INPUT, 0) + ins(INPUT, 1, [2, 0]) + ins(11, 3, None, [-2, -1]) +
                                          ins(OUTPUT, 0, [2, 0], [-1]), perm=names_u8([(3, "TT")]))
    external_ops = ins(INPUT, 0) + ins(INPUT, 1, [2, 0]) + ins(11, 3, None, [-2, -1]) + ins(OUTPUT, 0, [2, 0], [-1])
    external = base(data_=data([(0, "p")], [(0, "x")]), ops=external_ops, perm=names_u8([(3, "TT")]), storage=0x02)
    yield "io.weights-missing", external
    yield "nac.safetensors.header", (external, b"\xff" * 8 + b"{}")
    yield "nac.safetensors.header", (external, safetensors({"p": ("F32", [3], f32([1, 2]))}))
    yield "nac.weights.missing", (external, safetensors({"q": ("I8", [2], b"\1\2")}))
    yield "nac.weights.scale", (external, safetensors({"p": ("I8", [2], b"\1\2")}))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    every_section(out)
    quantized_internal(out)
    external_int8_channel(out)
    param_dim(out)
    no_manifest(out)
    counts = {}
    for code, blob in malformed():
        k = counts[code] = counts.get(code, 0) + 1
        stem = os.path.join(out, "bad.%s.%d" % (code, k))
        if isinstance(blob, tuple):
            blob, weights = blob
            with open(stem + ".safetensors", "wb") as f:
                f.write(weights)
        with open(stem + ".nac", "wb") as f:
            f.write(blob)


if __name__ == "__main__":
    main()

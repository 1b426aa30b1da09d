#!/usr/bin/python3
"""Writes the hand-made seeds of fuzz/corpus/nnef_dat (NNEF .dat files, §5.2, one per item type)
and fuzz/corpus/nnef_quant (graph.quant files for the harness's variables w: 8-bit unsigned and
v: 4-bit signed quantized items), byte by byte, independently of nnref's writer.

  /usr/bin/python3 fuzz/make_seeds.py
"""
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def dat(shape, bits, item, data, signed_flag=0):
    """The 128-byte header (magic, version 1.0, data length, rank, extents, bits, item type) + data."""
    h = bytearray(128)
    h[0:4] = bytes([0x4E, 0xEF, 1, 0])
    struct.pack_into('<II', h, 4, len(data), len(shape))
    for k, e in enumerate(shape):
        struct.pack_into('<I', h, 12 + 4 * k, e)
    struct.pack_into('<III', h, 44, bits, item, signed_flag)
    return bytes(h) + data


def bitstream(values, bits):
    """Items of `bits` bits, the first in the most significant bits of the first byte."""
    s = ''.join(format(v & ((1 << bits) - 1), '0%db' % bits) for v in values)
    s += '0' * (-len(s) % 8)
    return bytes(int(s[i:i + 8], 2) for i in range(0, len(s), 8))


DAT = {
    'float32_2x3.dat': dat([2, 3], 32, 0, np.arange(6, dtype='<f4').tobytes()),
    'float16_4.dat': dat([4], 16, 0, np.array([0.5, -2, 65504, 1e-7], dtype='<f2').tobytes()),
    'float64_scalar.dat': dat([], 64, 0, np.array([3.25], dtype='<f8').tobytes()),
    'bool1_10.dat': dat([10], 1, 5, bitstream([1, 0, 1, 1, 0, 0, 1, 0, 1, 1], 1)),
    'bool8_3.dat': dat([3], 8, 5, bytes([1, 0, 1])),
    'qunsigned8_1x4.dat': dat([1, 4], 8, 2, bytes([0, 85, 170, 255])),
    'qsigned4_5.dat': dat([5], 4, 3, bitstream([-8, -1, 0, 3, 7], 4)),
    'signed16_3.dat': dat([3], 16, 4, np.array([-300, 0, 300], dtype='<i2').tobytes()),
    'unsigned64_2.dat': dat([2], 64, 1, np.array([0, 2**53], dtype='<u8').tobytes()),
    'unsigned3_signedflag_4.dat': dat([4], 3, 1, bitstream([0, 1, -1, -4], 3), 1),
}

QUANT = {
    'linear.quant': '"w": linear_quantize(min = -1.0, max = 2.0, bits = 8);\n',
    'min_max.quant': '"w": min_max_linear_quantize(min = -1.0, max = 1.0, bits = 8, signed = false, symmetric = false);\n'
                     '"v": min_max_linear_quantize(min = -4.0, max = 4.0, bits = 4, signed = true, symmetric = true);\n',
    'zero_point.quant': '"w": zero_point_linear_quantize(zero_point = 128, scale = 0.25, bits = 8, signed = false, '
                        'symmetric = false);\n'
                        '"v": zero_point_linear_quantize(zero_point = 0, scale = 0.5, bits = 4, signed = true, '
                        'symmetric = false);\n',
    'logarithmic.quant': '"w": logarithmic_quantize(max = 8.0, bits = 8);\n'
                         '"v": min_max_linear_quantize(min = -1.0, max = 1.0, bits = 4, signed = true, symmetric = false);\n',
    'output.quant': '"w": linear_quantize(min = 0.0, max = 1.0, bits = 8);\n'
                    '"v": zero_point_linear_quantize(zero_point = 0, scale = 1.0, bits = 4, signed = true, symmetric = false);\n'
                    '"output": linear_quantize(min = 0.0, max = 3.0, bits = 2);\n',
}

if __name__ == '__main__':
    for folder, files in (('nnef_dat', DAT), ('nnef_quant', QUANT)):
        os.makedirs(os.path.join(HERE, 'corpus', folder), exist_ok=True)
        for name, content in files.items():
            data = content.encode() if isinstance(content, str) else content
            with open(os.path.join(HERE, 'corpus', folder, name), 'wb') as f:
                f.write(data)

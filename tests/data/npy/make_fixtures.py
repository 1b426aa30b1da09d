#!/usr/bin/python3
"""Makes the .npy/.npz fixtures read by tests/npy_test.cpp.

Run with a Python that has numpy (on Debian: /usr/bin/python3 tests/data/npy/make_fixtures.py).
The values written here are asserted exactly in tests/npy_test.cpp; keep the two in step.
"""
import os
import zipfile

import numpy as np
from numpy.lib import format as npformat

HERE = os.path.dirname(os.path.abspath(__file__))

# One shape (2, 3) array per dtype; row-major values.
VALUES = {
    'f2': [0.0, -1.5, 65504.0, 2.0**-24, 0.0999755859375, -np.inf],  # 0.0999755859375 = float16(0.1)
    'f4': [1.0, -2.5, 3.4028234663852886e38, 2.0**-149, 0.100000001490116119384765625, np.inf],
    'f8': [0.0, -0.0, 1e300, 5e-324, 0.1, np.nan],
    'i1': [-128, 127, 0, -1, 1, 42],
    'i2': [-32768, 32767, 0, -1, 1, 1234],
    'i4': [-2147483648, 2147483647, 0, -1, 1, 123456789],
    'i8': [-(2**53), 2**53, 0, -1, 1, 123456789012345],
    'u1': [0, 255, 1, 2, 3, 128],
    'u2': [0, 65535, 1, 2, 3, 40000],
    'u4': [0, 4294967295, 1, 2, 3, 3000000000],
    'u8': [0, 2**53, 1, 2, 3, 18446744073],
    'b1': [True, False, True, True, False, False],
}


def path(name):
    return os.path.join(HERE, name)


def main():
    for code, vals in VALUES.items():
        if code[1] == '1':
            orders = [('|', '')]
        else:
            orders = [('<', '_le'), ('>', '_be')]
        for order, suffix in orders:
            a = np.array(vals, dtype=np.dtype(order + code)).reshape(2, 3)
            np.save(path(f'{code}{suffix}.npy'), a)

    # Fortran order: 2x3x4 arange (row-major values 0..23), stored column-major.
    f = np.asfortranarray(np.arange(24, dtype='<f8').reshape(2, 3, 4))
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    np.save(path('fortran_f8.npy'), f)
    g = np.asfortranarray(np.arange(6, dtype='>i4').reshape(3, 2))
    np.save(path('fortran_i4_be.npy'), g)

    # Scalar, 1-D and empty shapes.
    np.save(path('scalar_f8.npy'), np.array(3.25, dtype='<f8'))
    np.save(path('vector_i2.npy'), np.array([5, -6, 7, -8, 9], dtype='<i2'))
    np.save(path('empty_f4.npy'), np.zeros((0, 3), dtype='<f4'))

    # Explicit format versions; same array [[1, 2, 3], [4, 5, 6]] float32 each time.
    v = np.array([[1, 2, 3], [4, 5, 6]], dtype='<f4')
    for major in (1, 2, 3):
        with open(path(f'version{major}.npy'), 'wb') as fp:
            npformat.write_array(fp, v, version=(major, 0))

    # Integers too large for a double to hold exactly.
    np.save(path('i8_too_large.npy'), np.array([1, 2**53 + 1], dtype='<i8'))
    np.save(path('u8_too_large.npy'), np.array([2**64 - 1], dtype='<u8'))

    # Unsupported dtypes.
    np.save(path('complex.npy'), np.array([1 + 2j], dtype='<c16'))
    np.save(path('unicode.npy'), np.array(['abc'], dtype='<U3'))
    np.save(path('structured.npy'), np.zeros(2, dtype=[('a', '<f4'), ('b', '<i4')]))
    with open(path('object.npy'), 'wb') as fp:  # np.save pickles object arrays
        npformat.write_array(fp, np.array([None, 1], dtype=object), allow_pickle=True)

    # Archives.
    a = np.arange(6, dtype='<f4').reshape(2, 3)
    b = np.array([-1, 0, 1], dtype='>i8')
    c = np.array(True)
    np.savez(path('savez.npz'), a=a, b=b, c=c)
    np.savez_compressed(path('savez_compressed.npz'), a=a, b=b, c=c)

    # An archive with a member that is not .npy.
    with zipfile.ZipFile(path('not_npy_member.npz'), 'w') as z:
        with z.open('a.npy', 'w') as fp:
            np.lib.format.write_array(fp, np.array([1.0]))
        z.writestr('notes.txt', 'not an array')

    # An archive whose member is a .npy of an unsupported version (9.0).
    with zipfile.ZipFile(path('bad_member.npz'), 'w') as z:
        z.writestr('w.npy', b'\x93NUMPY\x09\x00' + bytes(8))

    # float64 -> float16 rounding, as numpy does it (correctly rounded, ties to even).
    rng = np.random.default_rng(20240601)
    x = np.concatenate([
        rng.uniform(-70000, 70000, 300),
        rng.uniform(-1, 1, 300) * 2.0**-14,  # subnormal range
        rng.uniform(-1, 1, 200) * 2.0**-24,  # around the smallest subnormal
        np.exp(rng.uniform(-20, 11.1, 300)) * rng.choice([-1, 1], 300),
        # exact ties: odd multiples of half an ulp
        (np.arange(1, 101, 2) * 2.0**-11 + 1.0),
        (np.arange(1, 101, 2) * 2.0**-25),
        [65504.0, 65519.99, 65520.0, 2.0**-25, 2.0**-25 * 1.0000001, 0.0, -0.0],
    ]).astype('<f8')
    np.save(path('f2_rounding_in.npy'), x)
    with np.errstate(over='ignore'):  # values >= 65520 round to infinity, as intended
        np.save(path('f2_rounding_out.npy'), x.astype('<f2'))


if __name__ == '__main__':
    main()

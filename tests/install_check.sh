#!/usr/bin/env bash
# `cmake --install` into a scratch prefix: the binary, the man page, the bash completion and the
# documentation land where docs/building.md says, and the installed nnref runs an example. Then,
# when dpkg-shlibdeps is here, CPack's Debian package: its files, and dependencies on the
# runtime libraries (the clean-Debian install check is by hand: docs/building.md).
# Usage: install_check.sh BUILD_DIR (run from the source tree)
set -euo pipefail
build=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
for f in bin/nnref share/man/man1/nnref.1 share/bash-completion/completions/nnref share/doc/nnref/README.md \
         share/doc/nnref/docs/cli.md share/doc/nnref/examples/mlp/model.nnl; do
  [ -e "$scratch/prefix/$f" ] || fail "cmake --install: no $f"
done
"$scratch/prefix/bin/nnref" run examples/mlp/model.nnl --input examples/mlp/input.npy --quiet ||
  fail "the installed nnref does not run examples/mlp"
# The Python module (NNREF_PYTHON), in Debian's dist-packages under the prefix: it imports and runs.
if [ -e "$build/python/nnref/__init__.py" ]; then
  pyver=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  pydir="$scratch/prefix/lib/python$pyver/dist-packages"
  [ -e "$pydir/nnref/__init__.py" ] || fail "cmake --install: no lib/python$pyver/dist-packages/nnref"
  (cd "$scratch" && PYTHONPATH="$pydir" /usr/bin/python3 -c "
import sys, numpy as np, nnref
m = nnref.load(sys.argv[1])
assert m.run({'input': np.load(sys.argv[2])})['output'].shape == (1, 3)" \
    "$OLDPWD/examples/mlp/model.nnl" "$OLDPWD/examples/mlp/input.npy") ||
    fail "the installed Python module does not run examples/mlp"
fi
cmp -s "$scratch/prefix/share/man/man1/nnref.1" <("$scratch/prefix/bin/nnref" --man-page) ||
  fail "the installed man page is not what the installed nnref writes"

if command -v dpkg-shlibdeps >/dev/null && command -v cpack >/dev/null; then
  (cd "$build" && cpack -G DEB -B "$scratch/package" >/dev/null)
  deb=$(ls "$scratch"/package/nnref_*_*.deb)
  depends=$(dpkg-deb --field "$deb" Depends)
  echo "$(basename "$deb"): Depends: $depends"
  for lib in libz3 libmpfi libmpfr libzip libprotobuf libonnx libhwy libstdc++6 libc6; do
    grep -q "$lib" <<<"$depends" || fail "the package does not depend on $lib"
  done
  contents=$(dpkg-deb --contents "$deb")
  for f in ./usr/bin/nnref ./usr/share/man/man1/nnref.1 ./usr/share/bash-completion/completions/nnref \
           ./usr/share/doc/nnref/README.md; do
    grep -q " $f\$" <<<"$contents" || fail "the package holds no $f"
  done
  if [ -e "$build/python/nnref/__init__.py" ]; then
    grep -q " ./usr/lib/python$pyver/dist-packages/nnref/__init__.py\$" <<<"$contents" ||
      fail "the package holds no Python module"
  fi
else
  echo "install_check: no dpkg-shlibdeps or cpack, the Debian package is not checked"
fi
echo "install_check: $failures failures"
[ "$failures" -eq 0 ]

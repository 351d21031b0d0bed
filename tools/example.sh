#!/usr/bin/env bash
# The README's first command: builds fftx (the library and the fftx tool) and runs
# ctest/example/example.c (a 1-D complex DFT through the FFTW API, checked against a direct DFT)
# against it.
#
#   bash tools/example.sh             # CMake when it is installed, else cargo + the C compiler
#   bash tools/example.sh --no-cmake  # cargo + the C compiler even where CMake is installed
#
# With CMake: `cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build --target
# run-example` (the library staged as build/lib/libfftx.so.0 with FFTW's names beside it, the
# tool as build/bin/fftx). Without (a fresh machine with Rust and a C compiler only):
# `cargo build --release --lib --bin fftx` (target/release/libfftx.so, target/release/fftx),
# then the example compiled with $CC (default cc) against include/ into target/example/,
# linked to target/release/libfftx.so with an rpath. Nothing is installed either way (the
# install needs CMake). Needs: cargo, a C compiler; no CUDA. About 3-4 minutes on 2 cores from
# a clean checkout (the dependencies' first build), seconds after that.
set -euo pipefail
cd "$(dirname "$0")/.."

use_cmake=1
for a in "$@"; do
  case "$a" in
    --no-cmake) use_cmake=0 ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "example.sh: unknown argument $a (--no-cmake, --help)" >&2; exit 2 ;;
  esac
done

if ! command -v cargo >/dev/null 2>&1; then
  echo "example.sh: cargo not found: install a Rust toolchain (https://rustup.rs)" >&2
  exit 1
fi
cc=${CC:-cc}
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "example.sh: no C compiler ($cc): install one (Debian: apt-get install gcc) or set CC" >&2
  exit 1
fi

if [ "$use_cmake" = 1 ] && command -v cmake >/dev/null 2>&1; then
  echo "== cmake found: the CMake route (build/)"
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
  cmake --build build --target run-example
  echo "== next: build/bin/fftx info (what fftx finds here), build/bin/fftx bench cf1024 rf256x256"
  exit 0
fi

if [ "$use_cmake" = 1 ]; then
  echo "== cmake not found: building with cargo and $cc alone (the install needs cmake)"
fi
echo "== cargo build --release --lib --bin fftx"
# No soname here (that is CMake's FFTX_SONAME=libfftx.so.0): the example finds libfftx.so itself.
env -u FFTX_SONAME cargo build --release --lib --bin fftx
lib=$PWD/target/release
out=target/example
mkdir -p "$out"
echo "== $cc ctest/example/example.c -> $out/example (linked to $lib/libfftx.so)"
"$cc" -O2 -Iinclude ctest/example/example.c -o "$out/example" \
  -L"$lib" -lfftx -lm -Wl,-rpath,"$lib"
"$out/example"
echo "== next: target/release/fftx info (what fftx finds here), target/release/fftx bench cf1024 rf256x256"

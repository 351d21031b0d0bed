#!/usr/bin/env bash
# Builds what tools/device-many.sh runs: .device-dist (tools/device-dist-build.sh) and
# .device-mpi: lib/ (libfftx.so under FFTW's names), sys/ (this machine's FFTW 3.3.10 with
# its MPI library and headers, FFTW's side of the comparison), fftw_bench linked to lib/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/device-dist-build.sh .device-dist
cp tools/device-many.sh .device-dist/many.sh
cargo build --release --lib
M=.device-mpi
rm -rf $M && mkdir -p $M/lib $M/sys/lib $M/sys/include
cp target/release/libfftx.so $M/lib/ && strip --strip-debug $M/lib/libfftx.so
for n in libfftw3 libfftw3f libfftw3_threads libfftw3f_threads libfftw3_mpi libfftw3f_mpi; do
  ln -sf libfftx.so $M/lib/$n.so.3 && ln -sf libfftx.so $M/lib/$n.so
done
for n in libfftw3 libfftw3_threads libfftw3_mpi; do
  cp -L /usr/lib/x86_64-linux-gnu/$n.so.3 $M/sys/lib/ && ln -sf $n.so.3 $M/sys/lib/$n.so
done
cp /usr/include/fftw3.h /usr/include/fftw3-mpi.h $M/sys/include/
gcc -O2 -std=c99 -Iinclude bench/fftw_bench.c -o $M/fftw_bench -L$M/lib -Wl,-rpath,'$ORIGIN/lib' -lfftw3 -lfftw3f -lfftw3_threads -lfftw3f_threads -lm -lpthread -ldl
du -sh .device-dist $M

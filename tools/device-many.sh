#!/usr/bin/env bash
# One device call for issue 16 on a machine of 2 (or more) cards, after
# tools/device-many-build.sh here (carry [".device-dist", ".device-mpi"]): the GPU tests of the
# distributed, FMM and spread programs, the distributed 3-D bench (1 and 2 cards), the FMM-FFT
# bench (FMM_SIZES), FFTW-MPI under mpirun with one rank per card against FFTW 3.3.10's own
# libfftw3_mpi on the host CPUs, and one FFTW plan from fftw_malloc arrays on one card against
# FFTX_DEVICES=all. Sections as tools/device-dist.sh (SKIP names those to leave out); results
# in $OUT: summary.txt, dist.md, fmm2.md, mpi.txt, spread.txt, logs.tar.gz.
set -u
OUT=${OUT:-$PWD/device-out}
SKIP=${SKIP:-}
L=$OUT/many-logs
mkdir -p "$L"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export NCCL_NVLS_ENABLE=0
D=.device-dist M=$PWD/.device-mpi
# Everything but the sections below (tools/device-dist.sh's gpu, dist and fmm2).
SKIP="$SKIP" D=$D OUT=$OUT GPU_TESTS="${GPU_TESTS:-fmm distributed spread}" \
  DIST_CARDS="${DIST_CARDS:-1 2}" bash $D/run.sh >"$OUT/dist-run.txt" 2>&1
cards=$(nvidia-smi -L | wc -l)
if [[ " $SKIP " != *" mpi "* ]]; then
  export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  mpicc -O2 -I"$M/sys/include" bench/mpi/mpi_bench.c -o /tmp/mb_sys -L"$M/sys/lib" -Wl,-rpath,"$M/sys/lib" -lfftw3_mpi -lfftw3_threads -lfftw3 -lm
  mpicc -O2 -Iinclude bench/mpi/mpi_bench.c -o /tmp/mb_fftx -L"$M/lib" -Wl,-rpath,"$M/lib" -lfftw3_mpi -lfftw3_threads -lfftw3 -lm
  TH=$(( $(nproc) / cards ))
  for k in c2c r2c; do
    for lib in sys fftx; do
      echo "=== [$(date -u +%T)] $k 512^3 $cards ranks $lib" >>"$OUT/mpi.txt"
      FFTX_LOG=info timeout -k 5 120 mpirun --bind-to none -np "$cards" /tmp/mb_$lib $k 512 512 512 "$TH" 5 >"$L/mpi-$k-$lib.log" 2>&1
      grep -E "RESULT|FAIL|rror" "$L/mpi-$k-$lib.log" >>"$OUT/mpi.txt"
      grep -E "chose|node-local" "$L/mpi-$k-$lib.log" | sed 's/^\[[^]]*\] *//' | sort | uniq -c | head -6 >>"$OUT/mpi.txt"
    done
  done
fi
if [[ " $SKIP " != *" spread "* ]]; then
  for flags in --estimate ""; do
    for devs in default all; do
      echo "=== [$(date -u +%T)] spread ${flags:-measure} devices=$devs" >>"$OUT/spread.txt"
      for p in c2c_f32_512^3 r2c_f64_256^3 c2c_f32_2^26; do
        if [ $devs = all ]; then export FFTX_DEVICES=all; else unset FFTX_DEVICES; fi
        FFTX_LOG=info timeout -k 5 60 $M/fftw_bench --exact "$p" --alloc fftw --threads 16 --min-time 0.5 $flags >>"$OUT/spread.txt" 2>&1
      done
    done
  done
  unset FFTX_DEVICES
fi
tar -C "$OUT" -czf "$OUT/logs-many.tar.gz" many-logs && rm -rf "$L"
ls -la "$OUT"

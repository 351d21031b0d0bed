#!/usr/bin/env bash
# FFTW-MPI under mpirun, one rank per GPU (issue 16): bench/mpi/mpi_bench.c linked against fftx
# after the local transforms were planned on their arrays (lib/), against fftx before (base/),
# and against FFTW 3.3.10's own libfftw3_mpi on the host CPUs (sys/), same problems,
# checksums compared.
set -u
OUT=${OUT:-$PWD/device-out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
D=$PWD/.device-mpi
{ date -u; nvidia-smi -L; nproc; } >"$OUT/env.txt" 2>&1; cat "$OUT/env.txt"
for v in lib base; do
  mpicc -O2 -Iinclude bench/mpi/mpi_bench.c -o /tmp/mb_$v -L"$D/$v" -Wl,-rpath,"$D/$v" -lfftw3_mpi -lfftw3_threads -lfftw3 -lm 2>&1 | tail -3
done
mpicc -O2 -I"$D/sys/include" bench/mpi/mpi_bench.c -o /tmp/mb_sys -L"$D/sys/lib" -Wl,-rpath,"$D/sys/lib" -lfftw3_mpi -lfftw3_threads -lfftw3 -lm 2>&1 | tail -3
NP=${NP:-4}; TH=${TH:-16}
run() { local tag=$1; shift; echo "[$(date +%T)] $tag" >>"$OUT/summary.txt"; timeout -k 5 150 mpirun --bind-to none -np "$@" >"$OUT/$tag.log" 2>&1; grep -E "RESULT|FAIL|rror" "$OUT/$tag.log" | tee -a "$OUT/summary.txt"; }
for k in c2c r2c; do
  echo "=== $k 512^3, $NP ranks" | tee -a "$OUT/summary.txt"
  run sys-$k $NP /tmp/mb_sys $k 512 512 512 $TH 5
  run base-$k $NP /tmp/mb_base $k 512 512 512 $TH 5
  FFTX_LOG=info run new-$k $NP /tmp/mb_lib $k 512 512 512 $TH 5
  grep -E "node-local|chose|gpu" "$OUT/new-$k.log" | sed 's/^\[[^]]*\] *//' | sort | uniq -c | head -12 | tee -a "$OUT/summary.txt"
done
echo "=== c2c 512^3, 1 rank" | tee -a "$OUT/summary.txt"
run sys-np1 1 /tmp/mb_sys c2c 512 512 512 $TH 5
FFTX_LOG=info run new-np1 1 /tmp/mb_lib c2c 512 512 512 $TH 5
grep -E "chose" "$OUT/new-np1.log" | sort | uniq -c | head -5 | tee -a "$OUT/summary.txt"
cd "$OUT" && tar czf logs.tgz *.log && rm -f *.log

set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
for side in A B; do
  lib=$([ $side = A ] && echo .device-base/lib || echo .device/lib)
  /usr/local/cuda/bin/nvcc -O3 -std=c++17 -arch=sm_90 bench/hockney.cu -I include -L $lib -lfftx -lcufft -Xlinker -rpath=$PWD/$lib -o /tmp/hk-$side >>$OUT/ab.txt 2>&1
done
for r in 1 2; do for side in A B; do
  echo "== $side round $r" >>$OUT/ab.txt
  timeout 120 /tmp/hk-$side --n ${NS:-128} --pipelines fftx-f64-host,naive-f64-host,fftx-f64-device --min-time 0.5 2>/dev/null | grep ROW >>$OUT/ab.txt
done; done

#!/usr/bin/env bash
# Issue 16 on two (or more) cards, after tools/device-many-build.sh and a dist_bench of a base
# commit copied to .device-dist/dist_bench_old: the 3-D A/B (base against this build, two rounds,
# 1 and 2 cards), then tools/device-many.sh without its own 3-D bench. At most 8 files in $OUT.
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64 FFTX_REQUIRE_GPU=1 FFTX_LOG=warn
D=.device-dist
for round in 1 2; do
  for v in old new; do
    b=$D/dist_bench; [ $v = old ] && b=$D/dist_bench_old
    echo "=== [$(date -u +%T)] round $round $v" >> $OUT/ab.txt
    FFTX_DEVICES=all DIST_CARDS="1 2" DIST_SIZES="512 1024" DIST_PRECISIONS=f32 DIST_PROFILE=$((round==1)) \
      timeout -k 5 70 $b --ignored --nocapture --test-threads=1 > $OUT/ab-$v-$round.log 2>&1
    grep -E "^\| [0-9]+³|^profile" $OUT/ab-$v-$round.log | sort -u >> $OUT/ab.txt
  done
done
mkdir -p $OUT/ablogs && mv $OUT/ab-*.log $OUT/ablogs/
SKIP="dist" FMM_SIZES="24" GPU_SECS=60 FMM2_SECS=40 bash tools/device-many.sh > $OUT/many.txt 2>&1
tar -C $OUT -czf $OUT/ablogs.tar.gz ablogs && rm -rf $OUT/ablogs $OUT/dist-run.txt $OUT/logs.tar.gz $OUT/many.txt
ls $OUT

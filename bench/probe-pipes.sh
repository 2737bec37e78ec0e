#!/usr/bin/env bash
# Why the probe's packed fp16/bf16 FMA and L2 read rates sit where they do: the SASS of the probe kernels and
# what Nsight Compute counts while they run (pipe utilisation and each pipe's own peak per cycle; L2 and
# L2-to-SM bytes against their peaks), next to the probe's own numbers.
#
# usage: bench/probe-pipes.sh PROBE_BINARY OUTDIR      (on the GPU machine: cuobjdump and ncu on PATH)
set -euo pipefail
probe=$1
out=$2
mkdir -p "$out"

cuobjdump -sass "$probe" >"$out/probe.sass"
python3 - "$out/probe.sass" >"$out/sass-summary.txt" <<'EOF'
import collections, re, sys
text = open(sys.argv[1]).read()
parts = re.split(r"\n\s*Function : (\S+)", text)
for name, body in zip(parts[1::2], parts[2::2]):
    if "fmaKernel" not in name and "readL2Kernel" not in name:
        continue
    ops = collections.Counter(re.findall(r"\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", body))
    print(name)
    for op, count in ops.most_common(8):
        print("  %6d %s" % (count, op))
EOF

ncu --query-metrics --chip gh100 >"$out/gh100-metrics.txt"
wanted=(
  sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
  sm__inst_executed_pipe_fma.avg.peak_sustained
  sm__inst_executed_pipe_fmaheavy.avg.pct_of_peak_sustained_active
  sm__inst_executed_pipe_fmaheavy.avg.peak_sustained
  sm__inst_executed_pipe_fmalite.avg.pct_of_peak_sustained_active
  sm__inst_executed_pipe_fp16.avg.pct_of_peak_sustained_active
  sm__inst_executed_pipe_fp16.avg.peak_sustained
  sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
  sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active
  sm__pipe_fp16_cycles_active.avg.pct_of_peak_sustained_active
  sm__sass_thread_inst_executed_op_hfma_pred_on.sum
  sm__sass_thread_inst_executed_op_ffma_pred_on.sum
  smsp__inst_executed.avg.per_cycle_active
  sm__cycles_elapsed.avg.per_second
  gpu__time_duration.sum
  lts__t_bytes.sum.per_second
  lts__t_bytes.sum.pct_of_peak_sustained_elapsed
  lts__t_bytes.sum.peak_sustained
  lts__t_sectors_op_read.sum.per_second
  lts__t_sector_hit_rate.pct
  lts__cycles_elapsed.avg.per_second
  l1tex__m_xbar2l1tex_read_bytes.sum.per_second
  l1tex__m_xbar2l1tex_read_bytes.sum.pct_of_peak_sustained_elapsed
  l1tex__m_xbar2l1tex_read_bytes.sum.peak_sustained
  dram__bytes_read.sum.per_second
)
# Only the metrics this ncu knows for the chip: one unknown name fails the whole collection.
metrics=()
for m in "${wanted[@]}"; do
  if grep -q "^${m%%.*} " "$out/gh100-metrics.txt"; then metrics+=("$m"); else echo "not on gh100: $m" >>"$out/skipped-metrics.txt"; fi
done
list=$(IFS=,; echo "${metrics[*]}")

for group in fp32 fp16 bf16 l2; do
  kernel=fmaKernel
  [ "$group" = l2 ] && kernel=readL2Kernel
  ncu --clock-control none --kernel-name "regex:$kernel" --launch-skip 3 --launch-count 2 --metrics "$list" --csv \
    "$probe" --only "$group" --quick --out "$out/ceilings-$group.json" >"$out/ncu-$group.csv" 2>"$out/ncu-$group.err" ||
    echo "ncu on $group exited $?" >>"$out/ncu-errors.txt"
done
echo done

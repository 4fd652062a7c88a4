#!/bin/sh
# Runs `sgdsim calibrate` on the measured AWS p3.2xlarge collectives (NCCL and Gloo; p2p and all-reduce, unshaped
# network) and on PerfEstimator's VGG13 all-reduce table, and writes the report to docs/calibration.md.
# Usage: tools/calibration_report.sh [build-dir]   (the measurements are in validation/sources/, see their SOURCE.md)
set -eu
cd "$(dirname "$0")/.."
sgdsim=${1:-build}/src/sgdsim
v=validation/sources
aws=$v/aws-p3-collectives-tc-cluster-setting/collectives_aws_tc.csv
out=docs/calibration.md
tmp=$out.tmp
{
  echo "# Network calibration from measured collectives"
  echo
  echo "Made by \`tools/calibration_report.sh\` (\`sgdsim calibrate\`, README \"Calibration\"). Errors are (fit - measured) / measured."
  for lib in nccl gloo; do
    for kind in p2p allreduce; do
      op=$kind; [ "$kind" = p2p ] && op=p2p_send_recv
      echo
      echo "## AWS p3.2xlarge, $lib, $kind (unshaped network)"
      echo
      echo '```'
      echo "sgdsim calibrate --measurements $aws --kind $kind --where op=$op --where library=$lib --where 'setting=AWS default'"
      "$sgdsim" calibrate --measurements "$aws" --kind "$kind" --where "op=$op" --where "library=$lib" \
        --where "setting=AWS default"
      echo '```'
    done
  done
  # The shaped settings: the constant a Gloo transfer alone pays beyond the shaping's delay, split by how the same
  # cluster's Gloo reduce (its all-reduce's ring, K - 1 steps, then a gather) grows with the node count.
  for shaping in "delay 10ms  bandwidth 1Gbps:10ms" "delay 1ms  bandwidth 5Gbps:1ms"; do
    setting=${shaping%%:*}
    latency=${shaping##*:}
    echo
    echo "## AWS p3.2xlarge, gloo, p2p ($setting), split by the reduce at 4 to 32 nodes"
    echo
    echo '```'
    echo "sgdsim calibrate --measurements $aws --kind p2p --where op=p2p_send_recv --where library=gloo --where 'setting=$setting' --latency $latency --node-series op=reduce --node-series library=gloo --node-series 'setting=$setting'"
    "$sgdsim" calibrate --measurements "$aws" --kind p2p --where op=p2p_send_recv --where library=gloo \
      --where "setting=$setting" --latency "$latency" --node-series op=reduce --node-series library=gloo \
      --node-series "setting=$setting"
    echo '```'
  done
  echo
  echo "## PerfEstimator cluster (12 x GTX 1080 Ti, 10 Gbps, Horovod/MPI), all-reduce per tensor"
  echo
  echo '```'
  echo "sgdsim calibrate --measurements $v/perfestimator-vgg13/allreduce_time.csv --kind allreduce"
  "$sgdsim" calibrate --measurements "$v/perfestimator-vgg13/allreduce_time.csv" --kind allreduce
  echo '```'
} > "$tmp"
mv "$tmp" "$out"
echo "wrote $out"

#!/bin/sh
# Issue #23: the same workload on ASTRA-sim 2 (analytical congestion-unaware backend) and on sgdsim, one run after
# the other: 50 all-reduces of 2,097,152 bytes chained by data dependencies, no compute, on N nodes behind one switch
# (12.5 GiB/s links, 5 us per link, so 10 us and one serialization per message). Prints one markdown table: wall
# time, CPU time (user + system), peak RSS and simulated time of ASTRA-sim with 1 and 4 chunks per all-reduce and
# of sgdsim in steps and stream mode. bench/peers/README.md says how to build ASTRA-sim and why the simulated
# times agree.
# Usage: bench/peers/side_by_side.sh [sgdsim-build-dir] [astra-binary] [sizes]
#   defaults: build, AstraSim_Analytical_Congestion_Unaware (from PATH), "128 256"
#   SGDSIM_NET: sgdsim's network options (default: --cfg=network/model:CM02 --cfg=network/crosstraffic:0, the
#   network ASTRA's analytical backend models; SGDSIM_NET= runs SimGrid's default LV08)
#   ASTRA_CHUNKS: which ASTRA-sim runs, "1 4" by default; ASTRA_CHUNKS=1 leaves out the 4-chunk run (about 5 times
#   the 1-chunk one: some 25 minutes at 1,024 nodes on 2 cores); without 1 the ratio column is "-"
set -eu
case ${1:-} in -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-build}
astra=${2:-AstraSim_Analytical_Congestion_Unaware}
sizes=${3:-"128 256"}
net=${SGDSIM_NET-"--cfg=network/model:CM02 --cfg=network/crosstraffic:0"}
chunks=${ASTRA_CHUNKS-"1 4"}
for c in $chunks; do case $c in 1 | 4) ;; *) echo "side_by_side.sh: ASTRA_CHUNKS: 1, 4 or both, not $c" >&2; exit 2 ;; esac; done
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
sgdsim=$build/src/sgdsim
case $astra in */*) case $astra in /*) ;; *) astra=$(pwd)/$astra ;; esac ;; *) astra=$(command -v "$astra" || echo "$astra") ;; esac
{ [ -f "$sgdsim" ] && [ -x "$sgdsim" ]; } || { echo "side_by_side.sh: no sgdsim at $sgdsim (build it, or name the build folder)" >&2; exit 2; }
{ [ -f "$astra" ] && [ -x "$astra" ]; } || { echo "side_by_side.sh: no ASTRA-sim binary at $astra (bench/peers/README.md builds one)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "side_by_side.sh: needs GNU time (/usr/bin/time; Debian package time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
workload=$root/bench/data/astra-50x2MiB-comm.xml

row() { # config K ref-wall: reads $tmp/t (GNU time "%e %M %U %S") and $tmp/sim (seconds)
  sim=$(cat "$tmp/sim")
  awk -v c="$1" -v k="$2" -v s="$sim" -v ref="$3" '{
    printf "| %s | %d | %.2f | %s | %.2f | %.1f | %s |\n", c, k, $1, (ref > 0 ? sprintf("%.2f", $1 / ref) : "-"),
      $3 + $4, $2 / 1024, s }' "$tmp/t"
}
astra_run() { # system-json K
  # ASTRA-sim writes log/log.log and log/err.log into its working folder: run it in the inputs folder.
  (cd "$tmp/in" && /usr/bin/time -o "$tmp/t" -f "%e %M %U %S" "$astra" --workload-configuration=et/allreduce \
    --system-configuration="$1" --network-configuration=network.yml --remote-memory-configuration=memory.json \
    > "$tmp/out" 2>&1) || { echo "side_by_side.sh: ASTRA-sim failed:" >&2; tail -5 "$tmp/out" >&2; exit 1; }
  # Each rank prints "sys[R] finished, T cycles, ..."; a cycle is 1 ns. The simulated time is the last rank's.
  sed -n 's/.*sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' "$tmp/out" |
    awk -v k="$2" '{ if ($1 > m) m = $1; n++ } END {
      if (n != k) { print "side_by_side.sh: " n " of " k " ASTRA-sim ranks finished" > "/dev/stderr"; exit 1 }
      printf "%.6f\n", m / 1e9 }' > "$tmp/sim"
}
sgdsim_run() { # mode K
  # shellcheck disable=SC2086 # $net is a list of options
  /usr/bin/time -o "$tmp/t" -f "%e %M %U %S" "$sgdsim" run --platform "$tmp/p.xml" --workload "$workload" --arch ring \
    --ring-mode "$1" --framework none --allreduce-unit layer --workers "$2" --steps 1 --warmup 0 $net \
    > "$tmp/out" 2>&1 || { echo "side_by_side.sh: sgdsim failed:" >&2; tail -5 "$tmp/out" >&2; exit 1; }
  sed -n 's/^  step time *\([0-9.]*\) s mean.*/\1/p' "$tmp/out" > "$tmp/sim"
}

echo "| simulator / config | nodes | wall s | wall / ASTRA 1 chunk | CPU s | peak RSS MB | simulated s |"
echo "|---|---|---|---|---|---|---|"
for k in $sizes; do
  rm -rf "$tmp/in"
  "$here/make_astra_inputs.py" --npus "$k" --out "$tmp/in"
  "$sgdsim" platform --nodes "$k" --nic 12.5GiBps --latency 5us --speed 1Tf -o "$tmp/p.xml" --force 2>/dev/null
  ref=0
  case " $chunks " in *" 1 "*)
    astra_run system-1chunk.json "$k"; ref=$(cut -d' ' -f1 "$tmp/t")
    row "ASTRA-sim analytical, 1 chunk" "$k" "$ref" ;;
  esac
  case " $chunks " in *" 4 "*) astra_run system-4chunks.json "$k"; row "ASTRA-sim analytical, 4 chunks" "$k" "$ref" ;; esac
  sgdsim_run steps "$k"; row "sgdsim --ring-mode steps" "$k" "$ref"
  sgdsim_run stream "$k"; row "sgdsim --ring-mode stream" "$k" "$ref"
done

#!/bin/sh
# Fuzzes sgdsim's input parsers with libFuzzer (docs/fuzzing.md): builds the harnesses of tests/fuzz with clang
# (SGDSIM_FUZZ=ON: AddressSanitizer, UndefinedBehaviorSanitizer), seeds them from the repository's own files
# (tests/fuzz/make_seeds.py), runs each for SECONDS, PARALLEL at a time, and prints per harness the executions,
# executions per second, coverage and findings, then the total. Exits 1 if any harness has a finding.
#
# Usage: tools/fuzz.sh [-t SECONDS] [-j PARALLEL] [-b BUILD_DIR] [-s SEED] [HARNESS...]
#   -t  seconds per harness (default 60; CI: 30)       -j  harnesses at once (default 2)
#   -s  libFuzzer's random seed, the same for every harness (default: libFuzzer draws one; CI: from the commit), so
#       that a finding from a fresh corpus can be found again from the same seed
#   -b  build folder (default build-fuzz); the corpora grow in BUILD_DIR/fuzz/corpus across runs, the last run's
#       findings are in BUILD_DIR/fuzz/findings/HARNESS/ (reproduce one: BUILD_DIR/tests/fuzz/fuzz_HARNESS FILE)
# Harnesses: workload deployment background platform calibration scenario run_inputs validation_case (default:
# all).
set -eu
cd "$(dirname "$0")/.."

seconds=60
parallel=2
build="build-fuzz"
seed=""
while getopts t:j:b:s: opt; do
  case $opt in
  t) seconds=$OPTARG ;;
  j) parallel=$OPTARG ;;
  b) build=$OPTARG ;;
  s) seed=$OPTARG ;;
  *) sed -n '2,14p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
harnesses=${*:-workload deployment background platform calibration scenario run_inputs validation_case}
cxx=${FUZZ_CXX:-clang++}
if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "tools/fuzz.sh: $cxx not found (apt-get install clang libclang-rt-dev, or FUZZ_CXX=clang++-NN)" >&2
  exit 2
fi

echo "== building the fuzzers in $build"
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DSGDSIM_FUZZ=ON -DSGDSIM_TESTS=OFF -DSGDSIM_BENCHMARKS=OFF >/dev/null
cmake --build "$build" -j2 --target fuzzers

work=$(cd "$build" && pwd)/fuzz
mkdir -p "$work/logs"
/usr/bin/python3 tests/fuzz/make_seeds.py "$work/seeds"
# A small quarantine and no fill of new blocks: the parsers allocate much and briefly, and ASan's defaults (256 MB of
# quarantine, 4 KB filled per block) made every execution fault in fresh pages, 3 times slower; the checks are the
# same.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=16:max_malloc_fill_size=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# The parsers read files by path, so every execution writes its input to a file: in memory where /dev/shm is, in a
# folder of this run that goes at the end, with what a crashed harness left in it.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  TMPDIR=$(mktemp -d /dev/shm/sgdsim-fuzz.XXXXXX)
else
  TMPDIR=$(mktemp -d "$work/tmp.XXXXXX")
fi
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

run_one() { # HARNESS: fuzzes it for $seconds; its log is $work/logs/HARNESS.log
  h=$1
  max_len=8192
  [ "$h" = run_inputs ] && max_len=16384 # several files in one input
  rm -rf "$work/findings/$h" # this run's findings only
  mkdir -p "$work/corpus/$h" "$work/findings/$h"
  "$build/tests/fuzz/fuzz_$h" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=$max_len \
    ${seed:+-seed="$seed"} -dict="tests/fuzz/dict/$h.dict" -print_final_stats=1 -artifact_prefix="$work/findings/$h/" \
    "$work/corpus/$h" "$work/seeds/$h" >"$work/logs/$h.log" 2>&1 || echo "exit $?" >>"$work/logs/$h.log"
}

echo "== fuzzing $(echo "$harnesses" | wc -w) harnesses for $seconds s each, $parallel at a time${seed:+, seed $seed}"
start=$(date +%s)
# POSIX sh has no job pool: the harnesses are dealt into $parallel lanes, each lane runs its share in turn.
lane=0
while [ "$lane" -lt "$parallel" ]; do
  i=0
  share=""
  for h in $harnesses; do
    [ $((i % parallel)) -eq "$lane" ] && share="$share $h"
    i=$((i + 1))
  done
  (for h in $share; do run_one "$h"; done) &
  lane=$((lane + 1))
done
wait
wall=$(($(date +%s) - start))

# The figures of each log: libFuzzer's final stats, the coverage of its last status line, the artifacts written.
printf '%-16s %12s %8s %7s %7s %7s %9s\n' harness executions exec/s cov ft corpus findings
total=0
found=0
for h in $harnesses; do
  log="$work/logs/$h.log"
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  status=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1 || true)
  cov=$(echo "$status" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
  ft=$(echo "$status" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
  [ -n "$runs" ] || runs=$(echo "$status" | sed -n 's/^#\([0-9]*\).*/\1/p')
  corpus=$(find "$work/corpus/$h" -type f | wc -l)
  artifacts=$(find "$work/findings/$h" -type f | wc -l)
  if grep -q '^exit ' "$log" && [ "$artifacts" -eq 0 ]; then
    artifacts=1 # stopped without an artifact (the harness itself failed): the log says why
  fi
  printf '%-16s %12s %8s %7s %7s %7s %9s\n' "$h" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$artifacts"
  total=$((total + ${runs:-0}))
  found=$((found + artifacts))
done
printf '%-16s %12s in %s s of wall time, %s finding(s)\n' total "$total" "$wall" "$found"
if [ "$found" -gt 0 ]; then
  echo "findings: $work/findings/ (logs: $work/logs/)" >&2
  # What a machine that keeps nothing (CI's) must print for the finding to be reproduced elsewhere: libFuzzer's and the
  # sanitizers' report lines, and each input, gzip'd in base64 (decode: base64 -d | gunzip > FILE).
  for h in $harnesses; do
    grep -q -E '^exit |^==[0-9]+==|FINDING|^SUMMARY' "$work/logs/$h.log" || continue
    echo "-- $h: report" >&2
    grep -E '^==[0-9]+==|==sgdsim-fuzz==|^SUMMARY|^ *#[0-9]+ 0x.* in sgdsim|^exit |Test unit written|runtime error|terminate|what\(\)' \
      "$work/logs/$h.log" | head -n 40 >&2
    for f in "$work/findings/$h"/*; do
      [ -f "$f" ] || continue
      echo "-- $h: input $(basename "$f"), $(wc -c <"$f") bytes, gzip | base64:" >&2
      gzip -9 -c "$f" | base64 >&2
    done
  done
  exit 1
fi

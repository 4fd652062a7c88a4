#!/bin/sh
# tools/profile_workload.py on a tiny model (tests/data/tiny_model.py): the workload file it writes has the
# model's 6 layers (one module run twice) and 7 tensors of 899 parameters, parses, and simulates; an existing
# output is refused. Skipped (exit 77) where PyTorch is not installed.
# Usage: profiler_test.sh SGDSIM SRCDIR WORKDIR
set -u
sgdsim=$1 src=$2 work=$3
python=""
for p in /usr/bin/python3 python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c "import torch" >/dev/null 2>&1; then python=$p; break; fi
done
if [ -z "$python" ]; then
  echo "SKIPPED: PyTorch is not installed (apt-get install python3-torch python3-torchvision)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
out=$work/tiny.xml
"$python" "$src/tools/profile_workload.py" --module "$src/tests/data/tiny_model.py:TinyNet" --input-shape 3x16x16 \
  --classes 10 --batch 4 --steps 3 --warmup 1 --reference-speed 1Gf -o "$out" || fail "the profiler failed"
[ "$(grep -c '<layer ' "$out")" -eq 6 ] || fail "expected 6 layers in $out"
[ "$(grep -c '<tensor ' "$out")" -eq 7 ] || fail "expected 7 tensors in $out"
[ "$(grep -c '<sample ' "$out")" -eq 18 ] || fail "expected 3 samples for each of the 6 layers in $out"
bytes=$(sed -n 's/.*<tensor name="[^"]*" size="\([0-9]*\)B".*/\1/p' "$out" | awk '{s += $1} END {print s}')
[ "$bytes" -eq 3596 ] || fail "tensor bytes $bytes, expected 899 parameters x 4 bytes = 3596"
grep -q '<layer name="act#2">' "$out" || fail "the ReLU run twice should be two layers (act, act#2)"
"$sgdsim" run --workload "$out" --platform "$src/platforms/aws-p3.2xlarge.xml" --workers 2 --steps 3 --warmup 1 \
  > "$work/run.txt" 2>&1 || fail "sgdsim cannot simulate the profiled workload: $(cat "$work/run.txt")"
grep -q "throughput" "$work/run.txt" || fail "no throughput in the simulation's output"
if "$python" "$src/tools/profile_workload.py" --module "$src/tests/data/tiny_model.py:TinyNet" --input-shape 3x16x16 \
  --classes 10 --batch 4 --reference-speed 1Gf -o "$out" 2> "$work/err.txt"; then
  fail "an existing output file was overwritten without --force"
fi
grep -q "use --force" "$work/err.txt" || fail "unexpected refusal message: $(cat "$work/err.txt")"
echo "profiler: 6 layers, 7 tensors, 3596 bytes, simulated"

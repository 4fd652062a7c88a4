#!/bin/sh
# What a large call costs among small ones (the reverse of --beside): allreduce --among 4KiB, the timed call of
# 256 KiB, 1 MiB or 4 MiB on one of Gloo's threads while 4 KiB calls run one after another on the other, at every K,
# ranks pinned as in the campaign; and the same sizes alone and back to back beside it for reference (2026-11-30,
# after call_times.sh; results beside this file). Run as root from the repository root.
M=tools/measure
D=${OUT:-validation/testbed/campaign-2026-11-30h/data/1gbit/diagnosis}
$M/emulate up --hosts 8 --rate 1gbit
$M/launch --pin --hosts 8 --logs /tmp/among-logs -- allreduce --among 4KiB --among-calls 64 \
  --sizes 256KiB,1MiB,4MiB --repeats 5 --warmup 2 --out $D/among-4KiB.csv --force < /dev/null >> $D/log 2>&1
$M/launch --pin --hosts 8 --logs /tmp/among-logs -- allreduce --sizes 256KiB,1MiB,4MiB --repeats 5 --warmup 2 \
  --out $D/alone-256k-4m.csv --force < /dev/null >> $D/log 2>&1
$M/emulate down

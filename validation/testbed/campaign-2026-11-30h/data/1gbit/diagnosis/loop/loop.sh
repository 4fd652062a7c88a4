#!/bin/sh
# Gloo's event loop on a shared core (2026-11-30, after among.sh; validation/testbed/README.md "Gloo's event loop on a
# shared core"). Run as root from the repository root, on a quiet machine. The files beside this script were written
# to /tmp and copied here; the *-shim-* rows ran with LD_PRELOAD of tools/measure/loop_yield.c built by hand (launch
# --loop-yield, which builds and loads the same library, came with them: it is what the lines below use).
M=tools/measure
D=${OUT:-validation/testbed/campaign-2026-11-30h/data/1gbit/diagnosis/loop}
# 1. K = 2, 256 KiB-4 MiB among 4 KiB calls and alone: pinned (pin), placed by the kernel (free), pinned with the
#    failed try-locks yielding (shim); twice each.
$M/emulate up --hosts 2 --rate 1gbit
for rep in 1 2; do
  for v in pin free shim; do
    opt=; [ $v = pin ] && opt=--pin; [ $v = shim ] && opt="--pin --loop-yield"
    $M/launch $opt --hosts 2 -- allreduce --among 4KiB --among-calls 64 --nodes 2 --sizes 256KiB,1MiB,4MiB \
      --repeats 9 --warmup 2 --out $D/k2-among-$v-$rep.csv --force < /dev/null
    $M/launch $opt --hosts 2 -- allreduce --nodes 2 --sizes 4KiB,256KiB,1MiB,4MiB --repeats 9 --warmup 2 \
      --out $D/k2-alone-$v-$rep.csv --force < /dev/null
  done
done
# 2. The packets (tcpdump on host 0's NIC, headers only) and the CPU (perf) of the among call, pinned, no yield:
ip netns exec sgdsim-h0 tcpdump -i eth0 -s 200 -w /tmp/among.pcap -U & T=$!; sleep 1
$M/launch --pin --hosts 2 -- allreduce --among 4KiB --among-calls 64 --nodes 2 --sizes 1MiB --repeats 3 --warmup 1 \
  --out $D/pcap-among-k2-1MiB.csv --force < /dev/null
kill $T; python3 $D/pcap_bursts.py /tmp/among.pcap 0 > $D/pcap-among-k2-1MiB.txt   # the same for alone
(sleep 4; perf record -a -g -o /tmp/cpu.data -- sleep 1.5) &
$M/launch --pin --hosts 2 -- allreduce --among 4KiB --among-calls 64 --nodes 2 --sizes 1MiB --repeats 40 --warmup 1 \
  --out /tmp/among-perf.csv --force < /dev/null
perf report -i /tmp/cpu.data --no-children -g none --sort comm,dso,sym > $D/perf-cpu-among-k2.txt
$M/emulate down
# 3. K = 2..8, pinned, with the yield: among 4 KiB calls and alone (the other rows of among.sh, for comparison).
$M/emulate up --hosts 8 --rate 1gbit
$M/launch --pin --loop-yield --hosts 8 -- allreduce --among 4KiB --among-calls 64 --sizes 256KiB,1MiB,4MiB \
  --repeats 5 --warmup 2 --out $D/among-shim.csv --force < /dev/null
$M/launch --pin --loop-yield --hosts 8 -- allreduce --sizes 4KiB,64KiB,256KiB,1MiB,4MiB --repeats 5 --warmup 2 \
  --out $D/alone-shim.csv --force < /dev/null
$M/emulate down

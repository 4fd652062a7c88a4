#!/usr/bin/env python3
"""Random `sgdsim run` command lines over the shipped platforms, workloads and options (fixed seed): every one must
end with exit status 0, or 2 and one line `sgdsim: error: ...` (an input error), never a crash, a SimGrid abort or
a hang (README "Errors"). Valid and invalid combinations both come up: an invalid one must be refused cleanly.
Found a SimGrid abort the curated tests had not: a --background NIC back to its nominal bandwidth under LV08
(docs/design.md, SimGrid fact 17; the 200 runs of seed 2026, the CTest, hit it once on the build before the fix),
and with 1,500 runs of seed 5 a hierarchical PS's relay sending within a host that has no loopback (fact 18).

Usage: random_runs.py SGDSIM REPO_ROOT [RUNS] [SEED]
"""
import os
import random
import subprocess
import sys
import tempfile


def command(rng, repo, tmp, i):
    platforms = sorted(f for f in os.listdir(os.path.join(repo, "platforms")) if f.endswith(".xml"))
    workloads = sorted(f for f in os.listdir(os.path.join(repo, "workloads")) if f.endswith(".xml"))
    arch = rng.choice(["ps-sync", "ps-async", "ring", "ring"])
    args = ["run", "--arch", arch, "--workers", str(rng.choice([1, 2, 3, 4, 6, 8, 16, 24])),
            "--steps", str(rng.randint(1, 3)), "--warmup", str(rng.randint(0, 1)),
            "--platform", os.path.join("platforms", rng.choice(platforms)),
            "--workload", os.path.join("workloads", rng.choice(workloads)), "--seed", str(rng.randint(1, 9))]
    if arch.startswith("ps"):
        args += ["--ps", str(rng.randint(1, 3))]
        if rng.random() < 0.3:
            args += ["--sharing", rng.choice(["fair", "fcfs", "hybrid"])]
        if rng.random() < 0.2:
            args += ["--stream", rng.choice(["on", "off"])]
        if rng.random() < 0.2:
            args += ["--release-quantum", rng.choice(["10us", "1ms"])]
        if rng.random() < 0.2:
            args += ["--framework", rng.choice(["tf-ps", "tf-ps-1.3"])]
    else:
        if rng.random() < 0.4:
            args += ["--collective", rng.choice(["tree", "halving-doubling", "hierarchical"])]
        if rng.random() < 0.3:
            args += ["--ring-mode", rng.choice(["steps", "stream"])]
        if rng.random() < 0.6:
            args += ["--framework", rng.choice(["horovod", "pytorch-ddp", "pytorch-ddp-gloo", "nccl", "gloo", "none"])]
    if rng.random() < 0.15:  # the transport's and the framework's knobs, valid or not for the architecture drawn
        args += rng.choice([["--message-overhead", "20us"], ["--message-overhead-per-byte", "1ns"],
                            ["--sockets-per-peer", "4"], ["--ring-slice", "1MiB"], ["--ring-slices-in-flight", "3"],
                            ["--collectives-in-flight", "2"], ["--allreduce-unit", rng.choice(["layer", "tensor"])],
                            ["--fusion-buffer", "16MiB"], ["--bucket-size", "8MiB"], ["--gpus-per-node", "2"],
                            ["--flow-spread-in", "0.4"], ["--ps-split", "size"], ["--reduce-cost-per-byte", "0.1ns"],
                            ["--egress-fifo", "on"]])
    if rng.random() < 0.2:
        args += ["--overlap", "off"]
    if rng.random() < 0.2:
        args += ["--compute-jitter", "0.2"]
    if rng.random() < 0.3:  # a background file for the default platform: a NIC or a host, once or repeating
        path = os.path.join(tmp, "bg%d.xml" % i)
        host = rng.choice(["p3-0", "p3-1", "p3-2"])
        first, second = rng.choice([0.3, 0.5, 0.9]), rng.choice([0.2, 0.4, 1.0])
        repeat = rng.choice(["", ' repeat="0.5s"'])
        if rng.random() < 0.5:
            body = '<nic host="%s"%s><at time="0.01s" bandwidth="%g"/><at time="0.2s" bandwidth="%g"/></nic>' % (
                host, repeat, first, second)
        else:
            body = '<host name="%s"%s><at time="0.01s" speed="%g"/><at time="0.2s" speed="%g"/></host>' % (
                host, repeat, first, second)
        with open(path, "w") as f:
            f.write("<background>\n  %s\n</background>\n" % body)
        args += ["--background", path]
        args[args.index("--platform") + 1] = "platforms/aws-p3.2xlarge.xml"
        if rng.random() < 0.3:
            args += ["--cfg", "network/crosstraffic:0"]
    return args


def main():
    sgdsim, repo = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 2026)
    failures, ran = 0, 0
    with tempfile.TemporaryDirectory(prefix="sgdsim-random-") as tmp:
        for i in range(runs):
            args = command(rng, repo, tmp, i)
            try:
                r = subprocess.run([sgdsim] + args, cwd=repo, capture_output=True, text=True, timeout=300)
            except subprocess.TimeoutExpired:
                print("FAIL (no end in 300 s): sgdsim " + " ".join(args))
                failures += 1
                continue
            lines = r.stderr.strip().splitlines()
            if r.returncode == 0:
                ran += 1
                continue
            if r.returncode == 2 and len(lines) == 1 and lines[0].startswith("sgdsim: error: "):
                continue
            failures += 1
            print("FAIL (exit %d): sgdsim %s" % (r.returncode, " ".join(args)))
            print("    " + "\n    ".join(lines[:4]))
    print("%d random runs: %d simulated, %d refused as input errors, %d failed" % (
        runs, ran, runs - ran - failures, failures))
    if ran < runs // 2:
        print("FAIL: fewer than half of the runs simulated: the generator no longer exercises the simulation")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

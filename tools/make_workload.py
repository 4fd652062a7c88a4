#!/usr/bin/env python3
"""Writes an sgdsim workload file for a torchvision CNN from its layer and parameter tables.

    tools/make_workload.py --model resnet50 --device V100 --batch 32 -o workloads/resnet50-v100-b32.xml

Compute-time model (documented in README "Workload files"):
  - forward time of a layer = max(2 * MACs * batch / R_compute, bytes_moved * batch / R_memory)   (a roofline);
    bytes_moved = 4 * (input elements + output elements) at batch 1 (fp32 activations read and written);
  - backward time = 2 x forward (gradients w.r.t. the input and the weights each cost about one forward);
  - R_memory = the device's memory bandwidth x MEMORY_EFFICIENCY; R_compute is fitted (bisection) so that the
    whole step (forward + backward) equals the measured single-device step time of the calibration source.
The parameter tensors are exact (torchvision definitions, fp32).
"""
import argparse
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = os.path.join(HERE, "..", "workloads", "sources", "torchvision")

# Device facts: nominal FP32 peak (the platform host speed, sgdsim's convention) and memory bandwidth.
DEVICES = {
    # NVIDIA V100 SXM2 datasheet: 15.7 TFLOP/s FP32, 900 GB/s HBM2.
    "V100": {"peak": "15.7Tf", "peak_flops": 15.7e12, "mem_Bps": 900e9},
}
# Fraction of the memory bandwidth that element-wise layers reach (an assumption; BN/ReLU kernels typically
# reach 60-80% of the peak bandwidth).
MEMORY_EFFICIENCY = 0.7

# Measured single-device training throughput (examples/s) used to calibrate R_compute: (model, device) ->
# (examples/s, where it comes from).
CALIBRATION = {
    ("resnet50", "V100"): (
        367.0,
        "NVIDIA DeepLearningExamples ResNet-50 v1.5 PyTorch README (commit 291f0d02), DGX-1 V100 16GB, 1 GPU, FP32: "
        "367 img/s (../shared/validation/nvidia-deeplearningexamples-rn50-pytorch). Measured at the README's "
        "default batch, larger than 32: at batch 32 the real step is likely a few percent longer",
    ),
}


def elems(shape):
    n = 1
    for d in shape.split("x"):
        n *= int(d)
    return n


def fmt_time(seconds):
    return f"{seconds * 1e6:.4f}us"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", required=True)
    ap.add_argument("--device", required=True, choices=sorted(DEVICES))
    ap.add_argument("--batch", type=int, required=True)
    ap.add_argument("--ps-update", default=None,
                    help="PS update time of the whole model with units (default: 3 x model bytes at the device's "
                         "memory rate)")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()

    key = (args.model, args.device)
    if key not in CALIBRATION:
        sys.exit(f"make_workload.py: no calibration for {key}; known: {sorted(CALIBRATION)}")
    throughput, source = CALIBRATION[key]
    dev = DEVICES[args.device]
    step_s = args.batch / throughput
    r_mem = dev["mem_Bps"] * MEMORY_EFFICIENCY

    with open(os.path.join(TABLES, f"{args.model}_layers.csv")) as f:
        layers = list(csv.DictReader(f))
    with open(os.path.join(TABLES, f"{args.model}_params.csv")) as f:
        params = list(csv.DictReader(f))

    def fwd_time(row, r_compute):
        macs = int(row["fwd_MACs_batch1"]) * args.batch
        moved = 4 * (elems(row["input_shape"]) + elems(row["output_shape"])) * args.batch
        return max(2 * macs / r_compute, moved / r_mem)

    def step_time(r_compute):
        return 3 * sum(fwd_time(r, r_compute) for r in layers)

    lo, hi = 1e9, dev["peak_flops"]
    if step_time(hi) > step_s:
        sys.exit("make_workload.py: even the peak rate is slower than the measurement; check the calibration")
    for _ in range(200):
        mid = (lo * hi) ** 0.5
        if step_time(mid) > step_s:
            lo = mid
        else:
            hi = mid
    r_compute = hi

    # Tensors belong to the module that owns them (the name before the last dot), at its first execution.
    by_module = {}
    for p in params:
        module = p["param_name"].rsplit(".", 1)[0]
        by_module.setdefault(module, []).append(p)
    seen = {}
    out_layers = []
    for row in layers:
        module = row["module"]
        seen[module] = seen.get(module, 0) + 1
        name = module if seen[module] == 1 else f"{module}#{seen[module]}"
        tensors = by_module.pop(module, []) if seen[module] == 1 else []
        t = fwd_time(row, r_compute)
        out_layers.append((name, t, 2 * t, tensors))
    if by_module:
        sys.exit(f"make_workload.py: parameters of modules never executed: {sorted(by_module)}")

    model_bytes = sum(int(p["bytes_fp32"]) for p in params)
    ps_update = args.ps_update or fmt_time(3 * model_bytes / r_mem)
    total = sum(l[1] + l[2] for l in out_layers)
    with open(args.output + ".tmp", "w") as out:
        out.write("<?xml version='1.0'?>\n<!--\n")
        out.write(f"  {args.model}, batch {args.batch} per worker, on {args.device}. Generated by:\n")
        out.write(f"    tools/make_workload.py --model {args.model} --device {args.device} --batch {args.batch}"
                  f"{' --ps-update ' + args.ps_update if args.ps_update else ''} -o {os.path.basename(args.output)}\n")
        out.write(f"  Tensors: torchvision {args.model} parameters, fp32 ({len(params)} tensors, "
                  f"{sum(int(p['numel']) for p in params)} parameters, {model_bytes} bytes), from\n"
                  f"    workloads/sources/torchvision (see its SOURCE.md).\n")
        out.write(f"  Compute: step time {step_s * 1e3:.3f} ms = batch / measured throughput, where the throughput is\n"
                  f"    {throughput} examples/s: {source}.\n")
        out.write(f"    Per layer: roofline max(2*MACs*batch / R_compute, activation bytes*batch / R_memory), backward = 2 x\n"
                  f"    forward; R_memory = {MEMORY_EFFICIENCY} x {dev['mem_Bps'] / 1e9:.0f} GB/s, R_compute fitted: "
                  f"{r_compute / 1e12:.3f} TFLOP/s ({100 * r_compute / dev['peak_flops']:.1f}% of peak).\n")
        out.write(f"  PS update: {ps_update} = {'given' if args.ps_update else '3 x model bytes (read weights and gradients, write weights) / R_memory, an estimate'}.\n")
        out.write(f"  reference_speed: the {args.device}'s FP32 peak, the speed of its hosts in the shipped platforms.\n-->\n")
        out.write(f'<workload name="{args.model}" batch="{args.batch}" device="{args.device}" '
                  f'reference_speed="{dev["peak"]}" ps_update="{ps_update}">\n')
        for name, f_s, b_s, tensors in out_layers:
            if tensors:
                out.write(f'  <layer name="{name}" fwd="{fmt_time(f_s)}" bwd="{fmt_time(b_s)}">\n')
                for p in tensors:
                    out.write(f'    <tensor name="{p["param_name"]}" size="{p["bytes_fp32"]}B"/>\n')
                out.write("  </layer>\n")
            else:
                out.write(f'  <layer name="{name}" fwd="{fmt_time(f_s)}" bwd="{fmt_time(b_s)}"/>\n')
        out.write("</workload>\n")
    os.replace(args.output + ".tmp", args.output)
    print(f"{args.output}: {len(out_layers)} layers, {len(params)} tensors, {model_bytes} bytes, "
          f"step {total * 1e3:.3f} ms", file=sys.stderr)


if __name__ == "__main__":
    main()

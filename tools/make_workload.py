#!/usr/bin/env python3
"""Writes sgdsim workload files of real DNNs: exact parameter tensors, per-layer compute times from FLOPs.

    tools/make_workload.py --model resnet50 --device V100 --batch 32 -o workloads/resnet50-v100-b32.xml
    tools/make_workload.py --catalog workloads/        # regenerates every shipped file (the CATALOG below)
    tools/make_workload.py --report                    # predicted vs measured single-device throughput
    tools/make_workload.py --list                      # models and devices

Models: the 13 torchvision CNNs of workloads/sources/torchvision/ (exact tensors and per-layer MACs), and
BERT-base, BERT-large (Hugging Face BertModel: encoder and pooler, sequence length 128 by default) and GPT-2 124M
(GPT2LMHeadModel with the LM head tied to the token embedding, sequence length 1024), whose tensors are written
out here from the published architectures (test: tests/unit/catalog_test.cpp checks the totals).

Compute-time model (README "Workload catalog"):
  - forward time of a layer = max(2 * MACs * batch / R_compute, bytes_moved * batch / R_memory)   (a roofline);
    bytes_moved = 4 * (input elements + output elements) per example (fp32 activations read and written);
  - backward time = 2 x forward (gradients w.r.t. the input and the weights each cost about one forward);
  - R_memory = the device's memory bandwidth x MEMORY_EFFICIENCY;
  - R_compute, the device's sustained rate, is fitted (bisection) so that the whole step (forward + backward)
    of the device's REFERENCE measurement equals the measured single-device step time. A (model, device) pair
    with its own measurement in MEASUREMENTS is fitted to it instead (a user's single-node throughput).
The file's header states which measurement calibrated it.
"""
import argparse
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = os.path.join(HERE, "..", "workloads", "sources", "torchvision")

# Device facts: nominal FP32 peak (the platform host speed: sgdsim's convention) and memory bandwidth.
DEVICES = {
    # NVIDIA V100 SXM2 datasheet: 15.7 TFLOP/s FP32, 900 GB/s HBM2.
    "V100": {"peak": "15.7Tf", "peak_flops": 15.7e12, "mem_Bps": 900e9, "id": "v100"},
    # NVIDIA T4 datasheet: 8.1 TFLOP/s FP32, 320 GB/s GDDR6.
    "T4": {"peak": "8.1Tf", "peak_flops": 8.1e12, "mem_Bps": 320e9, "id": "t4"},
    # NVIDIA GeForce GTX 1080 Ti: 11.34 TFLOP/s FP32 (boost clock), 484 GB/s GDDR5X.
    "GTX1080Ti": {"peak": "11.34Tf", "peak_flops": 11.34e12, "mem_Bps": 484e9, "id": "gtx1080ti"},
    # NVIDIA Tesla P100 SXM2 (Pascal) datasheet: 10.6 TFLOP/s FP32, 732 GB/s HBM2. Not in the catalog; for
    # Pascal-era clusters (validation/cases/horovod-readme-2017), always with --throughput.
    "P100": {"peak": "10.6Tf", "peak_flops": 10.6e12, "mem_Bps": 732e9, "id": "p100"},
    # NVIDIA K80, one of its two GK210 GPUs (what TensorFlow counts as one GPU): 8.73 TFLOP/s FP32 boost for the
    # board, 4.37 per GPU; 480 GB/s for the board, 240 per GPU.
    "K80": {"peak": "4.37Tf", "peak_flops": 4.37e12, "mem_Bps": 240e9, "id": "k80"},
    # Intel Xeon E5-2630 v3 (CloudLab d430's CPU): 8 cores x 2.4 GHz x 32 FP32 flop/cycle (two AVX2 FMA units)
    # = 614.4 GFLOP/s; 4 channels of DDR4-1866 = 59.7 GB/s.
    "E5-2630v3": {"peak": "614.4Gf", "peak_flops": 614.4e9, "mem_Bps": 59.7e9, "id": "e5-2630v3"},
}
# Fraction of the memory bandwidth that element-wise layers reach (an assumption; BN/ReLU kernels typically
# reach 60-80% of the peak bandwidth).
MEMORY_EFFICIENCY = 0.7

# Where the cited measurements are, relative to the repository root (each folder has a SOURCE.md).
WS = "workloads/sources/"
VS = "validation/sources/"
# Measured single-device FP32 training throughput (examples/s): (model, device) -> list of
# (examples/s, batch, role, source). role "reference": calibrates the device's R_compute for every model without
# a measurement of its own; any other row calibrates its own (model, device) pair (the first one listed), and
# --report shows how well the device's reference alone predicts it (a held-out prediction).
MEASUREMENTS = {
    ("resnet50", "V100"): [
        (367.0, 256, "reference", "NVIDIA DeepLearningExamples ResNet-50 v1.5 PyTorch README (commit 291f0d02), DGX-1 "
         "V100 16GB, 1 GPU, FP32, 367 img/s (" + WS + "nvidia-deeplearningexamples-rn50-pytorch)"),
        (432.0, 192, "model", "Lambda tf_cnn_benchmarks, V100 32GB, 1 GPU, fp32, batch 192 (" + WS +
         "lambda-tf-benchmark)"),
    ],
    ("alexnet", "V100"): [(5132.0, 1536, "model", "Lambda tf_cnn_benchmarks, V100 32GB, fp32, batch 1536")],
    ("inception_v3", "V100"): [(273.0, 192, "model", "Lambda tf_cnn_benchmarks, V100 32GB, fp32, batch 192")],
    ("resnet152", "V100"): [(167.0, 96, "model", "Lambda tf_cnn_benchmarks, V100 32GB, fp32, batch 96")],
    ("vgg16", "V100"): [(249.0, 192, "model", "Lambda tf_cnn_benchmarks, V100 32GB, fp32, batch 192")],
    ("resnet50", "GTX1080Ti"): [
        (209.0, 64, "reference", "Lambda tf_cnn_benchmarks, GTX 1080 Ti, 1 GPU, fp32, batch 64 (" + WS +
         "lambda-tf-benchmark)")],
    ("alexnet", "GTX1080Ti"): [(2636.0, 512, "model", "Lambda tf_cnn_benchmarks, GTX 1080 Ti, fp32, batch 512")],
    ("inception_v3", "GTX1080Ti"): [(131.0, 64, "model", "Lambda tf_cnn_benchmarks, GTX 1080 Ti, fp32, batch 64")],
    ("resnet152", "GTX1080Ti"): [(83.0, 32, "model", "Lambda tf_cnn_benchmarks, GTX 1080 Ti, fp32, batch 32")],
    ("vgg16", "GTX1080Ti"): [(125.0, 56, "model", "Lambda tf_cnn_benchmarks, GTX 1080 Ti, fp32, batch 56")],
    ("vgg13", "GTX1080Ti"): [
        (5.040 * 32, 32, "model", "PerfEstimator Table I: single-node VGG13 on a GTX 1080 Ti, MXNet 1.6, batch 32, "
         "5.040 batch/s (" + VS + "perfestimator-vgg13)")],
    ("resnet50", "K80"): [
        (51.9, 64, "reference", "TensorFlow benchmarks (May 2017), GCE n1-standard-32-k80x8, 1 GPU, synthetic, "
         "batch 64 (" + VS + "tensorflow-benchmarks-2017)")],
    ("inception_v3", "K80"): [(30.5, 64, "model", "TensorFlow benchmarks 2017, GCE K80, 1 GPU, batch 64")],
    ("resnet152", "K80"): [(20.0, 32, "model", "TensorFlow benchmarks 2017, GCE K80, 1 GPU, batch 32")],
    ("alexnet", "K80"): [(656.0, 512, "model", "TensorFlow benchmarks 2017, GCE K80, 1 GPU, batch 512")],
    ("vgg16", "K80"): [(35.4, 32, "model", "TensorFlow benchmarks 2017, GCE K80, 1 GPU, batch 32")],
}
# Devices without a measured training throughput in any source: a derived reference, stated in every file.
DERIVED_REFERENCE = {
    # T4: no T4 training figure exists in the sources. ResNet-50 training on V100 (367 img/s, above) scaled by
    # the T4/V100 FP32 inference ratio at batch 32 from the same NVIDIA README: 420 / 1127.
    "T4": ("resnet50", 367.0 * 420.0 / 1127.0,
           "no measured T4 training throughput in the sources; derived: V100 ResNet-50 training 367 img/s x T4/V100 "
           "FP32 inference at batch 32 (420 / 1127 img/s, " + WS + "nvidia-deeplearningexamples-rn50-pytorch)"),
    # E5-2630 v3: no CPU training figure exists in the sources. Assumed: 25% of the FP32 peak sustained on
    # ResNet-50 (PyTorch CPU training with oneDNN typically sustains 20-35% of peak on AVX2 Xeons): an assumption
    # to replace with a profile (tools/profile_workload.py) of the real machine.
    "E5-2630v3": ("resnet50", None,
                  "no measured CPU training throughput in the sources; ASSUMED: R_compute = 25% of the FP32 peak "
                  "(replace with tools/profile_workload.py run on the real CPU)"),
}
CPU_ASSUMED_EFFICIENCY = 0.25

CNNS = ["alexnet", "vgg11", "vgg13", "vgg16", "vgg19", "resnet18", "resnet34", "resnet50", "resnet101", "resnet152",
        "inception_v3", "googlenet", "densenet121"]
TRANSFORMERS = {
    # name: (layers, hidden, heads, vocabulary, positions, kind, default sequence length, default batch)
    "bert-base": (12, 768, 12, 30522, 512, "bert", 128, 32),
    "bert-large": (24, 1024, 16, 30522, 512, "bert", 128, 32),
    "gpt2": (12, 768, 12, 50257, 1024, "gpt2", 1024, 8),
}
# The shipped catalog: every model on every device, CNNs at batch 32, transformers at their default batch.
CATALOG_DEVICES = ["V100", "T4", "GTX1080Ti", "K80", "E5-2630v3"]


def elems(shape):
    n = 1
    for d in shape.split("x"):
        n *= int(d)
    return n


def fmt_time(seconds):
    return f"{seconds * 1e6:.4f}us"


def cnn_layers(model):
    """[(name, MACs per example, activation elements moved per example, [(tensor, bytes)])] in forward order."""
    with open(os.path.join(TABLES, f"{model}_layers.csv")) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(TABLES, f"{model}_params.csv")) as f:
        params = list(csv.DictReader(f))
    # Tensors belong to the module that owns them (the name before the last dot), at its first execution.
    by_module = {}
    for p in params:
        by_module.setdefault(p["param_name"].rsplit(".", 1)[0], []).append((p["param_name"], int(p["bytes_fp32"])))
    seen, out = {}, []
    for row in rows:
        module = row["module"]
        seen[module] = seen.get(module, 0) + 1
        name = module if seen[module] == 1 else f"{module}#{seen[module]}"
        tensors = by_module.pop(module, []) if seen[module] == 1 else []
        out.append((name, int(row["fwd_MACs_batch1"]), elems(row["input_shape"]) + elems(row["output_shape"]), tensors))
    aux = {m: ts for m, ts in by_module.items() if m.startswith("AuxLogits.")}
    if aux and model == "inception_v3":
        # The layer table is traced in eval mode, where Inception-v3's auxiliary classifier does not run; in
        # training it runs on Mixed_6e's output (768x17x17): 5x5/3 average pool to 5x5, conv0 1x1 768->128
        # (128*768*25 MACs), conv1 5x5 128->768 to 1x1 (768*128*25), fc 768->1000 (768,000): one layer after Mixed_6e.
        after = max(i for i, layer in enumerate(out) if layer[0].startswith("Mixed_6e."))
        tensors = [tt for m in sorted(aux) for tt in aux[m]]
        out.insert(after + 1, ("AuxLogits", 128 * 768 * 25 + 768 * 128 * 25 + 768 * 1000, 768 * 17 * 17 + 1000, tensors))
        for m in aux:
            del by_module[m]
    if by_module:
        sys.exit(f"make_workload.py: parameters of modules never executed: {sorted(by_module)}")
    return out


def transformer_layers(model, seq):
    """The same structure for BERT (BertModel) and GPT-2 (GPT2LMHeadModel, tied LM head), with Hugging Face's
    parameter names. Per block: an attention layer and a feed-forward layer."""
    n_layers, h, heads, vocab, positions, kind, _, _ = TRANSFORMERS[model]
    ff = 4 * h
    f32 = 4
    out = []

    def t(name, *shape):
        n = 1
        for d in shape:
            n *= d
        return (name, n * f32)

    if kind == "bert":
        emb = [t("embeddings.word_embeddings.weight", vocab, h), t("embeddings.position_embeddings.weight", positions, h),
               t("embeddings.token_type_embeddings.weight", 2, h), t("embeddings.LayerNorm.weight", h),
               t("embeddings.LayerNorm.bias", h)]
        out.append(("embeddings", 0, 4 * seq * h, emb))
        for i in range(n_layers):
            p = f"encoder.layer.{i}."
            att = [t(p + f"attention.self.{m}.{w}", *((h, h) if w == "weight" else (h,)))
                   for m in ("query", "key", "value") for w in ("weight", "bias")]
            att += [t(p + "attention.output.dense.weight", h, h), t(p + "attention.output.dense.bias", h),
                    t(p + "attention.output.LayerNorm.weight", h), t(p + "attention.output.LayerNorm.bias", h)]
            ffn = [t(p + "intermediate.dense.weight", ff, h), t(p + "intermediate.dense.bias", ff),
                   t(p + "output.dense.weight", h, ff), t(p + "output.dense.bias", h),
                   t(p + "output.LayerNorm.weight", h), t(p + "output.LayerNorm.bias", h)]
            # MACs: Q, K, V and output projections 4 S H^2; scores and weighted sum 2 S^2 H. Moved: the input, Q, K,
            # V, the context and the output (6 S H) plus the scores and their softmax (2 S^2 heads).
            out.append((p + "attention", 4 * seq * h * h + 2 * seq * seq * h, 6 * seq * h + 2 * seq * seq * heads, att))
            out.append((p + "ffn", 2 * seq * h * ff, 2 * seq * h + 2 * seq * ff, ffn))
        out.append(("pooler", h * h, 2 * h, [t("pooler.dense.weight", h, h), t("pooler.dense.bias", h)]))
    else:
        out.append(("embeddings", 0, 3 * seq * h, [t("transformer.wte.weight", vocab, h),
                                                   t("transformer.wpe.weight", positions, h)]))
        for i in range(n_layers):
            p = f"transformer.h.{i}."
            att = [t(p + "ln_1.weight", h), t(p + "ln_1.bias", h), t(p + "attn.c_attn.weight", h, 3 * h),
                   t(p + "attn.c_attn.bias", 3 * h), t(p + "attn.c_proj.weight", h, h), t(p + "attn.c_proj.bias", h)]
            ffn = [t(p + "ln_2.weight", h), t(p + "ln_2.bias", h), t(p + "mlp.c_fc.weight", h, ff),
                   t(p + "mlp.c_fc.bias", ff), t(p + "mlp.c_proj.weight", ff, h), t(p + "mlp.c_proj.bias", h)]
            out.append((p + "attention", 4 * seq * h * h + 2 * seq * seq * h, 6 * seq * h + 2 * seq * seq * heads, att))
            out.append((p + "ffn", 2 * seq * h * ff, 2 * seq * h + 2 * seq * ff, ffn))
        out.append(("transformer.ln_f", 0, 2 * seq * h, [t("transformer.ln_f.weight", h), t("transformer.ln_f.bias", h)]))
        # The LM head's weight is the token embedding (tied): its gradient joins wte's, in the embeddings layer.
        out.append(("lm_head", seq * h * vocab, seq * h + seq * vocab, []))
    return out


def layers_of(model, seq):
    return cnn_layers(model) if model in CNNS else transformer_layers(model, seq)


def step_time_per_example(layers, r_compute, dev):
    r_mem = dev["mem_Bps"] * MEMORY_EFFICIENCY
    return 3 * sum(max(2 * macs / r_compute, 4 * moved / r_mem) for _, macs, moved, _ in layers)


def fit_rate(layers, examples_per_s, dev):
    """R_compute such that one example's step takes 1 / examples_per_s."""
    target = 1.0 / examples_per_s
    # The effective rate may exceed the nominal peak: cuDNN's Winograd and FFT convolutions do fewer flops than
    # 2 * MACs (the headers show the fitted rate as a percentage of the peak). Beyond 4x the peak, something is off.
    lo, hi = 1e6, 4 * dev["peak_flops"]
    if step_time_per_example(layers, hi, dev) > target:
        sys.exit(f"make_workload.py: {examples_per_s} examples/s is out of reach even at 4x the device's peak "
                 f"(memory-bound layers: {1 / step_time_per_example(layers, 1e30, dev):.1f} examples/s at most)")
    for _ in range(200):
        mid = (lo * hi) ** 0.5
        if step_time_per_example(layers, mid, dev) > target:
            lo = mid
        else:
            hi = mid
    return hi


def device_rate(device):
    """(R_compute, sentence saying where it comes from) from the device's reference measurement."""
    dev = DEVICES[device]
    for (model, d), rows in MEASUREMENTS.items():
        for x, batch, role, source in rows:
            if d == device and role == "reference":
                return fit_rate(cnn_layers(model), x, dev), f"{model} at {x:g} examples/s: {source}"
    model, x, source = DERIVED_REFERENCE[device]
    if x is None:
        return CPU_ASSUMED_EFFICIENCY * dev["peak_flops"], source
    return fit_rate(cnn_layers(model), x, dev), f"{model} at {x:.1f} examples/s, {source}"


def calibration(model, device, layers, throughput=None):
    """(R_compute, sentence): the user's --throughput if given, else the pair's own measurement if it has one, else
    the device's reference rate."""
    dev = DEVICES[device]
    if throughput is not None:
        return fit_rate(layers, throughput, dev), f"the measured single-device throughput given, {throughput:g} examples/s"
    # The pair's own measurement, if any: the reference row first, then the others in the order listed.
    rows = sorted(MEASUREMENTS.get((model, device), []), key=lambda r: r[2] != "reference")
    for x, batch, role, source in rows[:1]:
        return fit_rate(layers, x, dev), f"this model's own measurement, {x:g} examples/s: {source}"
    rate, why = device_rate(device)
    return rate, f"the device's reference, {why}"


def write_workload(model, device, batch, seq, output, ps_update=None, throughput=None):
    dev = DEVICES[device]
    layers = layers_of(model, seq)
    r_compute, why = calibration(model, device, layers, throughput)
    r_mem = dev["mem_Bps"] * MEMORY_EFFICIENCY
    tensors = [tt for _, _, _, ts in layers for tt in ts]
    model_bytes = sum(b for _, b in tensors)
    ps_update = ps_update or fmt_time(3 * model_bytes / r_mem)
    step_s = batch * step_time_per_example(layers, r_compute, dev)
    seq_text = f", sequence length {seq}" if model in TRANSFORMERS else ""
    command = (f"tools/make_workload.py --model {model} --device {device} --batch {batch}"
               + (f" --seq-len {seq}" if model in TRANSFORMERS else "")
               + (f" --throughput {throughput:g}" if throughput is not None else "") + f" -o {os.path.basename(output)}")
    if model in CNNS:
        origin = f"torchvision {model} parameters, fp32, from workloads/sources/torchvision (see its SOURCE.md)"
    else:
        origin = ("Hugging Face BertModel (encoder and pooler)" if TRANSFORMERS[model][5] == "bert"
                  else "Hugging Face GPT2LMHeadModel (LM head tied to wte)") + ", fp32, written out by this tool"
    with open(output + ".tmp", "w") as out:
        out.write("<?xml version='1.0'?>\n<!--\n")
        out.write(f"  {model}, batch {batch} per worker{seq_text}, on {device}. Generated by:\n    {command}\n")
        out.write(f"  Tensors: {origin}; {len(tensors)} tensors, {model_bytes // 4} parameters, {model_bytes} bytes.\n")
        out.write("  Compute: per layer, roofline max(2*MACs*batch / R_compute, activation bytes*batch / R_memory); "
                  "backward = 2 x forward;\n")
        out.write(f"    R_memory = {MEMORY_EFFICIENCY} x {dev['mem_Bps'] / 1e9:g} GB/s; R_compute = "
                  f"{r_compute / 1e12:.4f} TFLOP/s ({100 * r_compute / dev['peak_flops']:.1f}% of the peak), fitted to\n")
        out.write(f"    {why}.\n")
        out.write(f"    Step: {step_s * 1e3:.3f} ms, {batch / step_s:.2f} examples/s on one {device}.\n")
        out.write(f"  PS update: {ps_update} = "
                  f"{'given' if ps_update != fmt_time(3 * model_bytes / r_mem) else '3 x model bytes / R_memory (read weights and gradients, write weights), an estimate'}.\n")
        out.write(f"  reference_speed: the {device}'s FP32 peak, the speed of its hosts in the shipped platforms.\n-->\n")
        out.write(f'<workload name="{model}" batch="{batch}" device="{device}" '
                  f'reference_speed="{dev["peak"]}" ps_update="{ps_update}">\n')
        for name, macs, moved, ts in layers:
            f_s = max(2 * macs * batch / r_compute, 4 * moved * batch / r_mem)
            attrs = f'name="{name}" fwd="{fmt_time(f_s)}" bwd="{fmt_time(2 * f_s)}"'
            if ts:
                out.write(f"  <layer {attrs}>\n")
                for tname, b in ts:
                    out.write(f'    <tensor name="{tname}" size="{b}B"/>\n')
                out.write("  </layer>\n")
            else:
                out.write(f"  <layer {attrs}/>\n")
        out.write("</workload>\n")
    os.replace(output + ".tmp", output)
    return len(layers), len(tensors), model_bytes, step_s


def default_batch(model):
    return TRANSFORMERS[model][7] if model in TRANSFORMERS else 32


def default_seq(model):
    return TRANSFORMERS[model][6] if model in TRANSFORMERS else 0


def catalog(folder):
    # The measurements, for tests/unit/catalog_test.cpp: which row calibrated which shipped file.
    with open(os.path.join(folder, "sources", "calibration.csv.tmp"), "w") as out:
        out.write("model,device,file,measured_examples_per_s,measured_batch,calibrates_file,source\n")
        for (model, device), rows in MEASUREMENTS.items():
            first = sorted(rows, key=lambda r: r[2] != "reference")[0]
            for row in rows:
                x, batch, role, source = row
                path = f"{model}-{DEVICES[device]['id']}-b{default_batch(model)}.xml"
                out.write(f'{model},{device},{path},{x:g},{batch},{"yes" if row is first else "no"},"{source}"\n')
    os.replace(os.path.join(folder, "sources", "calibration.csv.tmp"), os.path.join(folder, "sources", "calibration.csv"))
    for model in CNNS + list(TRANSFORMERS):
        for device in CATALOG_DEVICES:
            batch = default_batch(model)
            path = os.path.join(folder, f"{model}-{DEVICES[device]['id']}-b{batch}.xml")
            n_layers, n_tensors, nbytes, step_s = write_workload(model, device, batch, default_seq(model), path)
            print(f"{path}: {n_layers} layers, {n_tensors} tensors, {nbytes} bytes, step {step_s * 1e3:.3f} ms",
                  file=sys.stderr)


def report():
    """Every measurement: the throughput the shipped calibration gives, and the one the device's reference rate
    alone predicts (for rows that are not the reference: a held-out prediction)."""
    print("| model | device | measured ex/s | role | catalog ex/s | error | device-reference prediction | error |")
    print("|---|---|---|---|---|---|---|---|")
    for (model, device), rows in MEASUREMENTS.items():
        layers = cnn_layers(model)
        dev = DEVICES[device]
        r_cat, _ = calibration(model, device, layers)
        r_dev, _ = device_rate(device)
        for x, batch, role, source in rows:
            cat = 1 / step_time_per_example(layers, r_cat, dev)
            pred = 1 / step_time_per_example(layers, r_dev, dev)
            print(f"| {model} | {device} | {x:g} | {role} | {cat:.1f} | {100 * (cat - x) / x:+.1f}% | {pred:.1f} | "
                  f"{100 * (pred - x) / x:+.1f}% |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", choices=CNNS + list(TRANSFORMERS))
    ap.add_argument("--device", choices=sorted(DEVICES))
    ap.add_argument("--batch", type=int, help="examples per worker per step (default 32; GPT-2: 8)")
    ap.add_argument("--seq-len", type=int, help="transformers: tokens per example (BERT 128, GPT-2 1024)")
    ap.add_argument("--ps-update", default=None,
                    help="PS update time of the whole model with units (default: 3 x model bytes at the device's "
                         "memory rate)")
    ap.add_argument("--throughput", type=float, metavar="EXAMPLES_PER_S",
                    help="your measured single-device training throughput at this batch: R_compute is fitted to it "
                         "(instead of the catalog's measurements)")
    ap.add_argument("-o", "--output")
    ap.add_argument("--catalog", metavar="FOLDER", help="write every shipped workload into FOLDER")
    ap.add_argument("--report", action="store_true", help="print predicted vs measured single-device throughput")
    ap.add_argument("--list", action="store_true", help="print the models and devices")
    args = ap.parse_args()
    if args.list:
        print("models:", " ".join(CNNS + list(TRANSFORMERS)))
        print("devices:", " ".join(sorted(DEVICES)))
        return
    if args.report:
        report()
        return
    if args.catalog:
        catalog(args.catalog)
        return
    if not (args.model and args.device and args.output):
        ap.error("--model, --device and -o are needed (or --catalog, --report, --list)")
    if args.batch is not None and args.batch < 1:
        ap.error("--batch must be at least 1")
    if args.seq_len is not None and (args.model not in TRANSFORMERS or not 1 <= args.seq_len <= TRANSFORMERS[args.model][4]):
        ap.error("--seq-len: transformers only, at most the model's positions (BERT 512, GPT-2 1024)")
    batch = args.batch or default_batch(args.model)
    seq = args.seq_len or default_seq(args.model)
    if args.throughput is not None and not args.throughput > 0:
        ap.error("--throughput must be a positive number of examples/s")
    n_layers, n_tensors, nbytes, step_s = write_workload(args.model, args.device, batch, seq, args.output,
                                                         args.ps_update, args.throughput)
    print(f"{args.output}: {n_layers} layers, {n_tensors} tensors, {nbytes} bytes, step {step_s * 1e3:.3f} ms",
          file=sys.stderr)


if __name__ == "__main__":
    main()

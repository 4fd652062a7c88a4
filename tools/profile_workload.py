#!/usr/bin/env python3
"""Profiles one training step of a PyTorch model on this machine, layer by layer, and writes an sgdsim workload.

    tools/profile_workload.py --model resnet18 --batch 16 --reference-speed 614.4Gf -o resnet18-cpu-b16.xml
    tools/profile_workload.py --module my_net.py:Net --input-shape 3x32x32 --batch 64 \\
        --reference-speed 15.7Tf --device cuda -o my-net.xml

What it measures (README "Profiling a workload"): the model runs --warmup + --steps training steps (forward,
cross-entropy loss against random labels, backward, SGD update) on random inputs. The layers are the leaf modules
(modules without children) in the order of their first execution; a module run twice becomes two layers (NAME#2).
Forward time of a layer = time from the end of the previous leaf module's forward to the end of its own, so the
work between modules (functional ops such as residual additions) is counted in the next layer and the layers add
up to the whole forward. Backward times likewise, in reverse: a layer's backward ends when the gradient of the
previous layer's output arrives (a tensor hook on each output), the first layer's when backward() returns; the
loss counts with the last layer. Each measured step gives one
<sample fwd bwd> per layer, so the simulation replays the measured variability. On CUDA every time stamp is taken
after torch.cuda.synchronize().

Parameter tensors: every trainable parameter of the model, attached to the leaf module that owns it (or, for
parameters of a container, to its first executed leaf), with its exact fp32 size. The PS update time is the
measured time of optimizer.step() (mean over the steps).
`--reference-speed` is the speed that the hosts standing for this machine have in your platform (sgdsim's
convention: the device's nominal FP32 peak, e.g. 614.4Gf for an 8-core 2.4 GHz AVX2 Xeon): a host of that speed
then replays these times as measured.
"""
import argparse
import importlib.util
import os
import platform
import sys
import time


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--model", help="a torchvision model name, e.g. resnet50")
    src.add_argument("--module", help="FILE.py:CLASS, a torch.nn.Module built without arguments")
    ap.add_argument("--input-shape", default="3x224x224",
                    help="shape of one example, CxHxW (default 3x224x224; inception_v3 needs 3x299x299)")
    ap.add_argument("--classes", type=int, default=1000, help="output classes for the loss (default 1000)")
    ap.add_argument("--batch", type=int, required=True)
    ap.add_argument("--steps", type=int, default=5, help="measured steps, one <sample> each (default 5)")
    ap.add_argument("--warmup", type=int, default=2, help="steps run before measuring (default 2)")
    ap.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    ap.add_argument("--threads", type=int, default=0, help="CPU threads for PyTorch (default: PyTorch's choice)")
    ap.add_argument("--reference-speed", required=True,
                    help="speed of this device's hosts in your platform, with a unit, e.g. 614.4Gf or 15.7Tf")
    ap.add_argument("--name", help="workload name (default: the model's)")
    ap.add_argument("--device-name", help="device name written in the file (default: this machine's CPU or GPU)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--force", action="store_true", help="overwrite the output file")
    args = ap.parse_args()
    if args.batch < 1 or args.steps < 1 or args.warmup < 0:
        ap.error("--batch and --steps must be at least 1, --warmup at least 0")
    if os.path.exists(args.output) and not args.force:
        ap.error(f"{args.output}: the file exists (use --force to overwrite it)")
    try:
        args.shape = [int(d) for d in args.input_shape.split("x")]
    except ValueError:
        ap.error(f"--input-shape '{args.input_shape}': expected e.g. 3x224x224")
    unit = args.reference_speed.lstrip("0123456789.eE+-")
    if unit not in ("f", "kf", "Mf", "Gf", "Tf", "Pf") or unit == args.reference_speed:
        ap.error(f"--reference-speed '{args.reference_speed}': expected a number with a unit, e.g. 614.4Gf")
    return args


def build_model(args, torch):
    if args.model:
        import torchvision
        if not hasattr(torchvision.models, args.model):
            sys.exit(f"profile_workload.py: --model {args.model}: not a torchvision model")
        kwargs = {"aux_logits": False, "init_weights": False} if args.model in ("googlenet",) else {}
        if args.model == "inception_v3":
            kwargs = {"init_weights": False}
        return getattr(torchvision.models, args.model)(weights=None, **kwargs), args.model
    path, _, cls = args.module.partition(":")
    if not cls or not os.path.exists(path):
        sys.exit(f"profile_workload.py: --module {args.module}: expected an existing FILE.py:CLASS")
    spec = importlib.util.spec_from_file_location("user_model", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    if not hasattr(mod, cls):
        sys.exit(f"profile_workload.py: --module {args.module}: {path} has no {cls}")
    return getattr(mod, cls)(), cls


def main():
    args = parse_args()
    try:
        import torch
    except ImportError:
        sys.exit("profile_workload.py: PyTorch is not installed (Debian: apt-get install python3-torch "
                 "python3-torchvision)")
    torch.manual_seed(args.seed)
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    cuda = device.type == "cuda"

    def now():
        if cuda:
            torch.cuda.synchronize()
        return time.perf_counter()

    model, default_name = build_model(args, torch)
    model.to(device).train()
    leaves = [(n, m) for n, m in model.named_modules() if not list(m.children())]

    order = []        # layer names in first-execution order of the current step
    fwd_end = {}      # layer name -> time its forward ended (this step)
    grad_out = {}     # layer name -> time the gradient of its output arrived (this step)
    runs = {}         # module name -> executions this step

    def make_hook(name):
        def fwd_hook(module, inputs, output):
            runs[name] = runs.get(name, 0) + 1
            layer = name if runs[name] == 1 else f"{name}#{runs[name]}"
            order.append(layer)
            fwd_end[layer] = now()
            # The gradient of a layer's output arrives when the backward of the layer after it is done. A tensor
            # hook (unlike a module's full backward hook) leaves in-place operations on the output possible.
            if isinstance(output, torch.Tensor) and output.requires_grad:
                def on_grad(grad, layer=layer):
                    grad_out.setdefault(layer, now())
                output.register_hook(on_grad)
        return fwd_hook

    for name, m in leaves:
        m.register_forward_hook(make_hook(name))

    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()
    x = torch.randn([args.batch] + args.shape, device=device)
    y = torch.randint(0, args.classes, (args.batch,), device=device)
    samples = []      # per measured step: {layer: (fwd_s, bwd_s)}
    update_s = []
    layer_order = None
    for step in range(args.warmup + args.steps):
        order.clear(); fwd_end.clear(); grad_out.clear(); runs.clear()
        optimizer.zero_grad(set_to_none=True)
        t0 = now()
        out = model(x)
        if isinstance(out, tuple):  # e.g. inception_v3's (logits, aux_logits) in training
            out = out[0]
        elif hasattr(out, "logits"):
            out = out.logits
        loss = loss_fn(out.reshape(args.batch, -1)[:, : args.classes], y)
        t_fwd = now()
        loss.backward()
        t_bwd = now()
        optimizer.step()
        t_upd = now()
        if layer_order is None:
            layer_order = list(order)
        elif order != layer_order:
            sys.exit("profile_workload.py: the model runs its layers in a different order from step to step; "
                     "such models are not supported")
        if step < args.warmup:
            continue
        fwd, prev = {}, t0
        for i, layer in enumerate(order):
            end = t_fwd if i == len(order) - 1 else fwd_end[layer]  # the loss counts with the last layer
            fwd[layer] = max(end - prev, 0.0)
            prev = end
        # Backward of layer j: from the end of layer j+1's (the arrival of j's output gradient) to the arrival of
        # layer j-1's output gradient (the end of backward for the first layer); the loss counts with the last.
        # A layer whose output gradient never arrives ends with the next one that does.
        n = len(order)
        end = [0.0] * n
        end[0] = t_bwd
        for j in range(1, n):
            end[j] = grad_out.get(order[j - 1], end[j - 1])
        bwd = {}
        for j in range(n):
            start = end[j + 1] if j + 1 < n else t_fwd
            bwd[order[j]] = max(end[j] - start, 0.0)
        samples.append({l: (fwd[l], bwd[l]) for l in order})
        update_s.append(t_upd - t_bwd)

    # Parameters: owned by a leaf (recurse=False), or by a container (then its first executed leaf descendant).
    first_leaf_of = {}
    for layer in layer_order:
        module = layer.split("#")[0]
        parts = module.split(".")
        for k in range(len(parts) + 1):
            first_leaf_of.setdefault(".".join(parts[:k]), layer)
    tensors = {l: [] for l in layer_order}
    for pname, p in model.named_parameters():
        if not p.requires_grad:
            continue
        owner = pname.rsplit(".", 1)[0] if "." in pname else ""
        layer = owner if owner in tensors else first_leaf_of.get(owner)
        if layer is None:
            sys.exit(f"profile_workload.py: parameter {pname} belongs to no executed module")
        tensors[layer].append((pname, p.numel() * p.element_size()))

    name = args.name or default_name
    dev_name = args.device_name or (torch.cuda.get_device_name(device) if cuda else
                                    (platform.processor() or platform.machine()) + f" ({os.cpu_count()} CPUs)")
    n_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
    step_means = [sum(f + b for f, b in s.values()) for s in samples]
    tmp = args.output + ".tmp"
    with open(tmp, "w") as out:
        out.write("<?xml version='1.0'?>\n<!--\n")
        out.write(f"  {name}, batch {args.batch}, profiled on {dev_name} by tools/profile_workload.py\n")
        out.write(f"    ({' '.join(sys.argv[1:])})\n")
        out.write(f"  PyTorch {torch.__version__}, {torch.get_num_threads()} threads, {args.device}; {args.steps} measured "
                  f"steps after {args.warmup} warm-up: one <sample> per step.\n")
        out.write(f"  Step (forward + backward): mean {1e3 * sum(step_means) / len(step_means):.3f} ms, "
                  f"min {1e3 * min(step_means):.3f} ms, max {1e3 * max(step_means):.3f} ms; optimizer step (PS update) "
                  f"{1e3 * sum(update_s) / len(update_s):.3f} ms.\n")
        out.write(f"  {sum(len(t) for t in tensors.values())} parameter tensors, {n_params} parameters (fp32 sizes as "
                  f"stored).\n-->\n")
        out.write(f'<workload name="{name}" batch="{args.batch}" device="{dev_name}" '
                  f'reference_speed="{args.reference_speed}" ps_update="{1e6 * sum(update_s) / len(update_s):.3f}us">\n')
        for layer in layer_order:
            out.write(f'  <layer name="{layer}">\n')
            for s in samples:
                f, b = s[layer]
                out.write(f'    <sample fwd="{f * 1e6:.3f}us" bwd="{b * 1e6:.3f}us"/>\n')
            for pname, nbytes in tensors[layer]:
                out.write(f'    <tensor name="{pname}" size="{nbytes}B"/>\n')
            out.write("  </layer>\n")
        out.write("</workload>\n")
    os.replace(tmp, args.output)
    print(f"{args.output}: {len(layer_order)} layers, {sum(len(t) for t in tensors.values())} tensors, "
          f"{n_params} parameters, step {1e3 * sum(step_means) / len(step_means):.1f} ms", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""One table from a device check's results folder: the card, dpdl4j's correctness verdict, and for every model and
batch the ms per step of dpdl4j's engine and of PyTorch's modes (gpu_step.py), with the ratios the issue's targets
name. Reads the RESULT, ROUND, FIT, CHECK, SKIP and ERROR lines of dpdl4j.txt and torch-*.txt (and Python tracebacks)."""
import glob
import os
import re
import sys

folder = sys.argv[1] if len(sys.argv) > 1 else "."
results = {}   # (model, batch) -> {mode: ms}
rounds = {}    # (topology, nodes) -> {mode: ms}
fit = None
card = {}
checks = {"PASS": 0, "FAIL": 0}
errors = 0
notes = []
for path in sorted(glob.glob(os.path.join(folder, "*.txt"))):
    if os.path.basename(path) == "table.txt":
        continue
    side = "dpdl4j" if os.path.basename(path).startswith("dpdl4j") else "torch"
    in_traceback = False
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if in_traceback and line and not line[0].isspace():
            notes.append(f"{side}: {line}")   # the traceback's last line: which error
            in_traceback = False
        if line.startswith("RESULT "):
            f = dict(kv.split("=", 1) for kv in line[7:].split() if "=" in kv)
            card.setdefault(side, f.get("device", "?").replace("_", " "))
            results.setdefault((f["model"], int(f["batch"])), {})[f["mode"]] = float(f["block_median_ms"])
        elif line.startswith("ROUND "):
            f = dict(kv.split("=", 1) for kv in line[6:].split() if "=" in kv)
            rounds.setdefault((f["topology"], int(f["nodes"])), {})[f["mode"]] = float(f["block_median_ms"])
        elif line.startswith("FIT "):
            fit = dict(kv.split("=", 1) for kv in line[4:].split() if "=" in kv)
        elif line.startswith("CHECK PASS") or line.startswith("CHECK FAIL"):
            checks[line.split()[1]] += 1
        elif line.startswith("Traceback"):
            errors += 1
            in_traceback = True
        elif line.startswith("ERROR ") or line.startswith("Exception in thread"):
            errors += 1
            notes.append(f"{side}: {line}")
        elif line.startswith("UNUSABLE") or line.startswith("SKIP") or line.startswith("CHECK batch="):
            notes.append(f"{side}: {line}")

print("== dpdl4j CUDA engine device check")
print(f"card: {card.get('dpdl4j') or card.get('torch') or 'unknown'}"
      + (f" (torch saw {card['torch']})" if card.get("torch") and card.get("torch") != card.get("dpdl4j") else ""))
print(f"dpdl4j correctness checks: {checks['PASS']} passed, {checks['FAIL']} failed"
      + ("" if checks["PASS"] + checks["FAIL"] else " (none ran: see dpdl4j.txt)")
      + (f"; {errors} parts stopped with an error (the ERROR lines and the tracebacks' errors below)" if errors else ""))
print()
print(f"{'model':<10} {'batch':>6}  {'mode':<28} {'ms/step':>9} {'examples/s':>12}")
for (model, batch) in sorted(results):
    for mode, ms in sorted(results[(model, batch)].items(), key=lambda kv: (not kv[0].startswith("dpdl4j"), kv[0])):
        print(f"{model:<10} {batch:>6}  {mode:<28} {ms:>9.4f} {batch / ms * 1e3:>12.0f}")
print()
print("ratios (dpdl4j DP step with Philox noise on the device; with host noise in parentheses) and the performance targets:")
for (model, batch) in sorted(results):
    r = results[(model, batch)]
    dp, host = r.get("dpdl4j-dp-philox"), r.get("dpdl4j-dp-hostnoise")
    if dp is None:
        continue
    def ratio(other, target=None):
        if other not in r:
            return None
        t = f" (target <= {target})" if target else ""
        return f"{dp / r[other]:.3f} ({host / r[other]:.3f}){t}" if host else f"{dp / r[other]:.3f}{t}"
    rows = [("dpdl4j DP / dpdl4j plain", ratio("dpdl4j-plain")),
            ("dpdl4j DP / torch plain", ratio("plain")),
            ("dpdl4j DP / torch ghost-norm", ratio("torch-ghostnorm", "1.0" if batch <= 256 and model == "mlp" else
                                                   "1.2" if model == "mlp" else None)),
            ("dpdl4j DP / Opacus 1.6 ghost", ratio("opacus-ghost", "0.5" if batch == 256 and model == "mlp" else
                                                   "1.5" if model == "cnn" else None)),
            ("dpdl4j DP / Opacus 1.6 hooks", ratio("opacus-hooks"))]
    for name, value in rows:
        if value:
            print(f"  {model} batch {batch}: {name} = {value}")
if fit or rounds:
    print()
    print("decentralized rounds, every node model on the GPU (MNIST MLP 784-128-10, padded batches of 64):")
    if fit:
        print(f"  about {fit['nodes']} nodes fit in the {int(fit['free_bytes']) / 2**30:.1f} GiB free"
              f" ({int(fit['bytes_per_node']) / 2**20:.2f} MiB a node)")
    print(f"  {'graph':<10} {'nodes':>6}  {'D-SGD ms':>9} {'Decor ms':>9} {'Decor/D-SGD':>11} {'host noise ms':>13} {'as run ms':>9}"
          f" {'Philox ms':>9} {'Philox/D-SGD':>12}  ms per node (Decor)")
    for (topology, nodes) in sorted(rounds):
        r = rounds[(topology, nodes)]
        dsgd, dev, host = r.get("dsgd"), r.get("decor-noise-on-device"), r.get("decor-hostnoise")
        as_run, philox = r.get("decor-as-run"), r.get("decor-philox")
        if dsgd is None or dev is None:
            continue
        print(f"  {topology:<10} {nodes:>6}  {dsgd:>9.3f} {dev:>9.3f} {dev / dsgd:>11.3f} {host or float('nan'):>13.3f}"
              f" {as_run or float('nan'):>9.3f} {philox or float('nan'):>9.3f} {(philox or float('nan')) / dsgd:>12.3f}"
              f"  {dev / nodes:.5f}")
    print("  targets: 1,024 nodes under 50 ms a round on an H100; Decor/D-SGD <= 1.3 (Decor with its noise on the device;"
          " 'host noise' adds the copy of secure noise drawn on the host; 'as run' also gathers the batch on the device"
          " from the data kept there, as a training run does; 'Philox' draws every node's and edge's noise on the GPU,"
          " as --noise philox does)")
for n in notes:
    print(n)

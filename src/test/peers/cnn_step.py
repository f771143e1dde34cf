#!/usr/bin/python3
"""The DP-SGD step of dpdl4j's private CNN written in PyTorch with the same algorithm, to time against
`./dpdl4j bench dp-step --model cnn`.

The model is the end-to-end tanh CNN (conv 16 8x8 stride 2 same, max-pool 2x2 stride 1, conv 32 4x4 stride 2,
max-pool 2x2 stride 1, dense 32, dense 10; 26,010 parameters) on random 28x28 inputs in [0, 1), batch 256, clip
C = 1, noise multiplier 1, SGD lr 0.01, float32: the benchmark's settings. Modes, timed in interleaved blocks
in one process:

- plain:      a non-private torch step (autograd, SGD);
- ghostnorm:  per-example clipping as dpdl4j computes it. One forward pass and one backward pass to the
              pre-activations. Per layer, each example's squared gradient norm comes from the unfolded input U
              and the errors D: dense layers (||a_i||^2 + 1) ||d_i||^2; a convolution either
              <U_i U_i^T, D_i D_i^T> (ghost) or ||U_i^T D_i||^2 (materialised), whichever costs fewer
              multiply-adds. Then the clipped sum U^T diag(c) D and Gaussian noise.

`--check` compares the ghost-norm step without clipping and noise against plain autograd.

Run with one thread for the comparison in the README:
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 /usr/bin/python3 src/test/peers/cnn_step.py
"""
import argparse
import statistics
import time

import torch
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--threads", type=int, default=1)
p.add_argument("--batch", type=int, default=256)
p.add_argument("--blocks", type=int, default=10)
p.add_argument("--steps-per-block", type=int, default=10)
p.add_argument("--warmup-seconds", type=float, default=5.0)
p.add_argument("--check", action="store_true")
args = p.parse_args()
torch.set_num_threads(args.threads)

B, C, Z, LR = args.batch, 1.0, 1.0, 0.01
torch.manual_seed(0)
x = torch.rand(B, 1, 28, 28)
y = torch.arange(B) % 10


def params():
    torch.manual_seed(1234)
    shapes = [(16, 1, 8, 8), (16,), (32, 16, 4, 4), (32,), (32, 512), (32,), (10, 32), (10,)]
    return [(torch.rand(s) - 0.5) * 0.2 for s in shapes]


def forward(w, inputs, keep):
    """Returns the logits and, if keep, the pre-activations (with gradients) and the layer inputs."""
    z1 = F.conv2d(inputs, w[0], w[1], stride=2, padding=3)
    h = F.max_pool2d(torch.tanh(z1), 2, stride=1)
    a2 = h
    z2 = F.conv2d(h, w[2], w[3], stride=2)
    h = F.max_pool2d(torch.tanh(z2), 2, stride=1).flatten(1)
    a3 = h
    z3 = F.linear(h, w[4], w[5])
    a4 = torch.tanh(z3)
    z4 = F.linear(a4, w[6], w[7])
    return z4, [z1, z2, z3, z4], [inputs, a2, a3, a4]


def conv_norms(u, d):
    """u: [B, K, T] unfolded input, d: [B, nOut, T] errors -> [B] squared weight-gradient norms."""
    k, t, n = u.shape[1], u.shape[2], d.shape[1]
    if t * (k + n) < k * n:
        return ((u.transpose(1, 2) @ u) * (d.transpose(1, 2) @ d)).sum((1, 2))
    return (d @ u.transpose(1, 2)).pow(2).sum((1, 2))


def ghost_step(w, clip=C, noise=Z):
    wd = [t.detach().requires_grad_(False) for t in w]
    z1 = F.conv2d(x, wd[0], wd[1], stride=2, padding=3).requires_grad_(True)
    h = F.max_pool2d(torch.tanh(z1), 2, stride=1)
    a2 = h.detach()
    z2 = F.conv2d(h, wd[2], wd[3], stride=2)
    h = F.max_pool2d(torch.tanh(z2), 2, stride=1).flatten(1)
    a3 = h.detach()
    z3 = F.linear(h, wd[4], wd[5])
    a4 = torch.tanh(z3)
    z4 = F.linear(a4, wd[6], wd[7])
    loss = F.cross_entropy(z4, y, reduction="sum")
    # Errors at every pre-activation: the graph links them through the activations and poolings.
    d1, d2, d3, d4 = torch.autograd.grad(loss, [z1, z2, z3, z4])
    with torch.no_grad():
        a4 = a4.detach()
        u1 = F.unfold(x, 8, padding=3, stride=2)            # [B, 64, 196]
        u2 = F.unfold(a2, 4, stride=2)                       # [B, 256, 25]
        d1 = d1.flatten(2)                                   # [B, 16, 196]
        d2 = d2.flatten(2)                                   # [B, 32, 25]
        sq = conv_norms(u1, d1) + d1.sum(2).pow(2).sum(1)
        sq += conv_norms(u2, d2) + d2.sum(2).pow(2).sum(1)
        sq += ((a3 * a3).sum(1) + 1) * (d3 * d3).sum(1)
        sq += ((a4 * a4).sum(1) + 1) * (d4 * d4).sum(1)
        c = torch.clamp(clip / (sq.sqrt() + 1e-12), max=1.0)
        d1, d2 = d1 * c.view(B, 1, 1), d2 * c.view(B, 1, 1)
        d3, d4 = d3 * c.view(B, 1), d4 * c.view(B, 1)
        grads = [torch.einsum("bot,bkt->ok", d1, u1).view_as(w[0]), d1.sum((0, 2)),
                 torch.einsum("bot,bkt->ok", d2, u2).view_as(w[2]), d2.sum((0, 2)),
                 d3.t() @ a3, d3.sum(0), d4.t() @ a4, d4.sum(0)]
        for t, g in zip(w, grads):
            if noise > 0:
                g.add_(torch.randn_like(g), alpha=noise * clip)
            t.add_(g, alpha=-LR / B)


def plain_step(w):
    for t in w:
        t.requires_grad_(True)
    logits, _, _ = forward(w, x, False)
    loss = F.cross_entropy(logits, y)
    grads = torch.autograd.grad(loss, w)
    with torch.no_grad():
        for t, g in zip(w, grads):
            t.add_(g, alpha=-LR)
    for t in w:
        t.requires_grad_(False)


def looped_clipped_step(w, clip):
    """The truth: each example's gradient by autograd on its own, clipped, summed."""
    per_example = []
    for i in range(B):
        ws = [t.detach().clone().requires_grad_(True) for t in w]
        logits, _, _ = forward(ws, x[i:i + 1], False)
        per_example.append(torch.autograd.grad(F.cross_entropy(logits, y[i:i + 1], reduction="sum"), ws))
    norms = torch.stack([torch.sqrt(sum((g * g).sum() for g in gs)) for gs in per_example])
    c = torch.clamp(clip / norms, max=1.0)
    with torch.no_grad():
        for j, t in enumerate(w):
            t.add_(sum(c[i] * per_example[i][j] for i in range(B)), alpha=-LR / B)
    return norms


if args.check:
    a, b = params(), params()
    plain_step(a)
    ghost_step(b, clip=float("inf"), noise=0.0)
    print("CHECK no clipping: max |plain - ghostnorm| =", max((s - t).abs().max().item() for s, t in zip(a, b)))
    a, b = params(), params()
    norms = looped_clipped_step(a, 1.0)
    clip = norms.median().item() * 0.5
    a, b = params(), params()
    looped_clipped_step(a, clip)
    ghost_step(b, clip=clip, noise=0.0)
    print(f"CHECK clip {clip:.4f}: max |one-example loop - ghostnorm| =",
          max((s - t).abs().max().item() for s, t in zip(a, b)))
    raise SystemExit(0)

weights = {"plain": params(), "ghostnorm": params()}
steps = {"plain": lambda: plain_step(weights["plain"]), "ghostnorm": lambda: ghost_step(weights["ghostnorm"])}
t0 = time.perf_counter()
while time.perf_counter() - t0 < args.warmup_seconds:
    for s in steps.values():
        s()
means = {m: [] for m in steps}
for k in range(args.blocks):
    for m in (list(steps) if k % 2 == 0 else list(steps)[::-1]):
        steps[m]()
        a = time.perf_counter_ns()
        for _ in range(args.steps_per_block):
            steps[m]()
        means[m].append((time.perf_counter_ns() - a) / args.steps_per_block / 1e6)
print(f"# torch {torch.__version__} threads={torch.get_num_threads()} batch={B}")
for m in steps:
    print(f"RESULT model=cnn mode={m} block_median_ms={statistics.median(means[m]):.3f}")

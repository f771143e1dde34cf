#!/usr/bin/env python3
"""Prints, colon-separated for LD_LIBRARY_PATH, the lib folders of the CUDA libraries that this Python's PyTorch
installed as pip packages (nvidia-cublas, nvidia-cuda-nvrtc, nvidia-cudnn, ...: CUDA 13 wheels put them in
nvidia/cu13/lib, older ones in nvidia/<package>/lib). It looks under every folder of the nvidia namespace package,
and beside torch's own folder (site-packages/nvidia) in case the namespace does not import; it imports neither torch
nor any CUDA library. Prints nothing when there are none; what it could not import goes to standard error."""
import importlib.util
import os
import sys

bases = []
try:
    import nvidia
    bases += list(nvidia.__path__)
except ImportError as e:
    print(f"# python: import nvidia: {e}", file=sys.stderr)
torch_spec = importlib.util.find_spec("torch")
if torch_spec and torch_spec.origin:
    bases.append(os.path.join(os.path.dirname(os.path.dirname(torch_spec.origin)), "nvidia"))
dirs = set()
for base in dict.fromkeys(os.path.realpath(b) for b in bases):
    if not os.path.isdir(base):
        continue
    depth0 = base.rstrip(os.sep).count(os.sep)
    for root, subdirs, files in os.walk(base):
        if os.path.basename(root) == "lib" and any(f.startswith("lib") and ".so" in f for f in files):
            dirs.add(root)
        if root.count(os.sep) - depth0 >= 3:
            subdirs[:] = []
print(":".join(sorted(dirs)))

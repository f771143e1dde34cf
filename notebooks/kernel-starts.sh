#!/usr/bin/env bash
# Starts the notebooks' kernel again and again, as `jupyter execute` does, and fails if a start hangs.
#
#   notebooks/kernel-starts.sh [COUNT]     (default 50)
#
# Each start launches the kernel, waits for its kernel_info reply (at most 60 s, as run-all.sh), runs one
# trivial cell and shuts the kernel down; the next start follows at once. One line per start gives the time
# to the first reply; the last line counts the hangs. A hung kernel's log (and, when jstack is on the PATH,
# its threads: a healthy kernel has one Heartbeat and two Shell threads) is kept and its path printed.
#
# Environment: DPDL4J_KERNEL_NAME (default dpdl4j-java, as installed by notebooks/install-kernel.sh).
set -euo pipefail

case "${1:-50}" in
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
  *[!0-9]*|0) printf 'kernel-starts: error: COUNT must be a positive number, not %s\n' "'$1'" >&2; exit 1 ;;
esac

command -v jupyter >/dev/null 2>&1 \
  || { printf "kernel-starts: error: no 'jupyter'; run notebooks/install-kernel.sh first\n" >&2; exit 1; }
# The Python that runs Jupyter has jupyter_client (the same lookup as run-all.sh).
jupyter_python="$(sed -n '1s/^#! *//p' "$(command -v jupyter)" | awk '{print $1}')"
[ -x "${jupyter_python:-}" ] || jupyter_python=python3

exec "$jupyter_python" - "${1:-50}" "${DPDL4J_KERNEL_NAME:-dpdl4j-java}" <<'PY'
import os, shutil, subprocess, sys, tempfile, time
from jupyter_client import KernelManager

count, kernel_name = int(sys.argv[1]), sys.argv[2]
startup_s = 60
logs = tempfile.mkdtemp(prefix="kernel-starts-")
hangs, firsts = [], []
for i in range(1, count + 1):
    log_path = os.path.join(logs, f"start-{i}.log")
    with open(log_path, "w") as log:
        km = KernelManager(kernel_name=kernel_name)
        began = time.monotonic()
        km.start_kernel(stdout=log, stderr=log)
        kc = km.client()
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=startup_s)
            first = time.monotonic() - began
            reply = kc.execute_interactive("1 + 1", timeout=startup_s, output_hook=lambda msg: None)
            outcome = "cell " + reply["content"]["status"]
            hung = False
        except RuntimeError as e:  # "Kernel didn't respond in 60 seconds" or "Kernel died before replying"
            first, outcome, hung = time.monotonic() - began, str(e), True
            pid = km.provisioner.pid if getattr(km, "provisioner", None) else km.kernel.pid
            if shutil.which("jstack") and km.is_alive():
                with open(os.path.join(logs, f"start-{i}.threads"), "w") as threads:
                    subprocess.run(["jstack", str(pid)], stdout=threads, stderr=subprocess.STDOUT)
        kc.stop_channels()
        km.shutdown_kernel(now=hung)
    firsts.append(first)
    if hung:
        hangs.append(i)
    else:
        os.remove(log_path)
    print(f"kernel-starts: start {i:3d} {'HUNG' if hung else 'ok  '} first reply after {first:5.1f} s, {outcome}",
          flush=True)

firsts.sort()
print(f"kernel-starts: {count} starts, {len(hangs)} hung{(' (' + ', '.join(map(str, hangs)) + '; logs in ' + logs + ')') if hangs else ''};"
      f" first reply after {firsts[0]:.1f} s at best, {firsts[len(firsts) // 2]:.1f} s median, {firsts[-1]:.1f} s at worst")
if not hangs:
    shutil.rmtree(logs, ignore_errors=True)
sys.exit(1 if hangs else 0)
PY

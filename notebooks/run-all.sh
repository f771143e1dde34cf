#!/usr/bin/env bash
# Runs the dpdl4j notebooks on the Java kernel and fails if any cell fails.
#
#   notebooks/run-all.sh [--save] [--require-data] [NOTEBOOK.ipynb ...]
#
# Builds the project's jars first when they are missing or older than a source file or POM (the
# notebooks load cli/target/dpdl4j.jar, whose manifest puts cli/target/lib/*.jar on the class path).
# Without --save every notebook is executed with `jupyter execute` and nothing is written. With --save
# each notebook is executed in place with `jupyter nbconvert`, so its stored outputs are refreshed; paths
# of this machine in the outputs are then rewritten relative to the notebook (the repository root
# becomes "..", the home directory "~"), so the saved notebooks read the same everywhere.
#
# A notebook that needs real data names its data sets in its metadata ("dpdl4j": {"data": ["a9a"]}). They are
# looked up where the library looks: $DPDL4J_DATA, else ~/.dpdl4j/data. When one is missing the notebook is skipped,
# with the reason, and the others still run (the run succeeds, and its last line counts the skipped notebooks);
# with --require-data a missing data set fails the run instead.
#
# Environment: OMP_NUM_THREADS (default 1: one OpenMP thread is faster on small machines),
# DPDL4J_NOTEBOOK_TIMEOUT (seconds per cell, default 600), DPDL4J_KERNEL_NAME (default: the kernel
# named in each notebook, dpdl4j-java, as installed by notebooks/install-kernel.sh).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
here="$root/notebooks"
say() { printf 'run-all: %s\n' "$*"; }
fail() { printf 'run-all: error: %s\n' "$*" >&2; exit 1; }

save=false
require_data=false
notebooks=()
for arg in "$@"; do
  case "$arg" in
    --save) save=true ;;
    --require-data) require_data=true ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) fail "unknown option '$arg'; use --save, --require-data, --help, or notebook paths" ;;
    *) [ -f "$arg" ] || fail "notebook '$arg' does not exist"
       notebooks+=("$(cd "$(dirname "$arg")" && pwd)/$(basename "$arg")") ;;
  esac
done
if [ ${#notebooks[@]} -eq 0 ]; then
  for nb in "$here"/[0-9]*.ipynb; do
    [ -f "$nb" ] && notebooks+=("$nb")
  done
  [ ${#notebooks[@]} -gt 0 ] || fail "no notebooks found in $here"
fi

# The tools: Jupyter and the kernel the notebooks name.
command -v jupyter >/dev/null 2>&1 && jupyter execute --help >/dev/null 2>&1 \
  || fail "'jupyter execute' is not available; run notebooks/install-kernel.sh first"
execute_kernel=()
nbconvert_kernel=()
if [ -n "${DPDL4J_KERNEL_NAME:-}" ]; then
  execute_kernel=("--kernel_name=$DPDL4J_KERNEL_NAME")
  nbconvert_kernel=("--ExecutePreprocessor.kernel_name=$DPDL4J_KERNEL_NAME")
fi
wanted_kernel="${DPDL4J_KERNEL_NAME:-dpdl4j-java}"
kernel_dir="$(jupyter kernelspec list 2>/dev/null | awk -v k="$wanted_kernel" '$1 == k { sub(/^ *[^ ]+ +/, ""); print }')"
[ -n "$kernel_dir" ] || fail "Jupyter has no kernel '$wanted_kernel'; run notebooks/install-kernel.sh first"
# A kernel installed before its start-up fix still runs, but one start in ten hangs (and is retried).
grep -q '/patch:' "$kernel_dir/kernel.json" 2>/dev/null \
  || say "warning: the kernel '$wanted_kernel' has no start-up fix; run notebooks/install-kernel.sh again"

# The jars, rebuilt when stale (the same rule as the dpdl4j launcher).
jar="$root/cli/target/dpdl4j.jar"
stale() {
  [ -f "$jar" ] || return 0
  [ -d "$root/cli/target/lib" ] || return 0
  [ -n "$(find "$root/pom.xml" "$root"/*/pom.xml "$root"/*/src/main -newer "$jar" -type f -print -quit 2>/dev/null)" ]
}
if stale; then
  say "building the project's jars (./mvnw -q -DskipTests package) ..."
  (cd "$root" && ./mvnw -B -q -DskipTests package) || fail "the build failed; run './mvnw -DskipTests package' in $root to see why"
else
  say "jars up to date: $jar"
fi

export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}"
timeout_s="${DPDL4J_NOTEBOOK_TIMEOUT:-600}"
startup_s=60   # a healthy kernel answers within seconds, even on a busy machine; see the retry below

# The Python that runs Jupyter (it has nbformat) rewrites machine paths in saved outputs.
jupyter_python="$(sed -n '1s/^#! *//p' "$(command -v jupyter)" | awk '{print $1}')"
[ -x "${jupyter_python:-}" ] || jupyter_python=python3
relativise() {
  "$jupyter_python" - "$1" "$root" "$HOME" <<'PY'
import sys, nbformat
path, root, home = sys.argv[1], sys.argv[2], sys.argv[3]
def fix(text):
    text = text.replace(root + "/notebooks/", "").replace(root, "..")
    return text.replace(home, "~") if home not in ("", "/") else text
nb = nbformat.read(path, as_version=4)
for cell in nb.cells:
    for out in cell.get("outputs", []):
        if "text" in out:
            out["text"] = fix(out["text"])
        for mime, value in out.get("data", {}).items():
            if mime.startswith("text/") and isinstance(value, str):
                out["data"][mime] = fix(value)
        if "traceback" in out:
            out["traceback"] = [fix(line) for line in out["traceback"]]
nbformat.write(nb, path)
PY
}

# One execution of a notebook; the kernel's own INFO log lines (and the connection file it echoes) are
# dropped from the terminal, everything else is shown and kept in the log file given as $2.
execute_once() {
  local nb="$1" log="$2"
  {
    if $save; then
      jupyter nbconvert --to notebook --execute --inplace --log-level=WARN \
        --ExecutePreprocessor.timeout="$timeout_s" --ExecutePreprocessor.startup_timeout="$startup_s" \
        --ExecutePreprocessor.record_timing=False ${nbconvert_kernel[@]+"${nbconvert_kernel[@]}"} "$nb"
    else
      jupyter execute --timeout="$timeout_s" --startup_timeout="$startup_s" ${execute_kernel[@]+"${execute_kernel[@]}"} "$nb"
    fi
  } 2>&1 | tee "$log" | sed -e '/\] \[INFO *\] Kernel connection file content/,/^}/d' -e '/^\[[0-9: -]*\] \[INFO *\]/d'
}

# A kernel that never answers at start is a start-up failure, not a notebook failure, so it is retried with
# a fresh kernel. This is only a guard: the known cause (rapaio 3.0.1's socket-polling threads could end as
# soon as they started) is fixed by install-kernel.sh; the run's summary counts the starts that hung, which
# should be none.
kernel_start_failed() {
  grep -q -e "Kernel didn't respond in" -e "Kernel died before replying to kernel_info" "$1"
}

# The data sets a notebook declares in its metadata ("dpdl4j": {"data": [...]}), one per line.
declared_data() {
  "$jupyter_python" - "$1" <<'PY'
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    meta = json.load(f).get("metadata", {}).get("dpdl4j", {})
for name in meta.get("data", []):
    print(name)
PY
}
data_dir="${DPDL4J_DATA:-$HOME/.dpdl4j/data}"
if [ -n "${DPDL4J_DATA:-}" ]; then
  data_source="DPDL4J_DATA=$DPDL4J_DATA"
else
  data_source="$data_dir (DPDL4J_DATA is not set)"
fi

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
failed=()
skipped=()
kernel_starts=0
hung_starts=0
for nb in "${notebooks[@]}"; do
  name="${nb#"$root"/}"
  missing=()
  while IFS= read -r dataset; do
    [ -n "$dataset" ] || continue
    if [ -z "$(ls -A "$data_dir/$dataset" 2>/dev/null)" ]; then
      missing+=("$dataset")
    fi
  done < <(declared_data "$nb")
  if [ ${#missing[@]} -gt 0 ]; then
    reason="it needs the data set(s) ${missing[*]}, not found in $data_source; set DPDL4J_DATA to a directory that holds them (README section Real data)"
    if $require_data; then
      say "FAILED $name: $reason"
      failed+=("$name")
    else
      say "skipped $name: $reason"
      skipped+=("$name")
    fi
    continue
  fi
  start=$(date +%s)
  ok=false
  for attempt in 1 2 3; do
    if $save; then
      say "executing $name and saving its outputs ..."
    else
      say "executing $name ..."
    fi
    kernel_starts=$(( kernel_starts + 1 ))
    if execute_once "$nb" "$log"; then
      ok=true
      if $save; then
        relativise "$nb"
      fi
      break
    fi
    kernel_start_failed "$log" || break
    hung_starts=$(( hung_starts + 1 ))
    say "the kernel did not start properly (attempt $attempt of 3)"
  done
  seconds=$(( $(date +%s) - start ))
  if $ok; then
    say "ok     $name (${seconds}s)"
  else
    say "FAILED $name (${seconds}s)"
    failed+=("$name")
  fi
done

say "kernel starts: $kernel_starts, hung: $hung_starts (a start that hangs is retried with a fresh kernel, up to 3 tries a notebook)"
if [ ${#failed[@]} -gt 0 ]; then
  fail "${#failed[@]} of ${#notebooks[@]} notebooks failed: ${failed[*]}"
fi
if [ ${#skipped[@]} -gt 0 ]; then
  say "$(( ${#notebooks[@]} - ${#skipped[@]} )) of ${#notebooks[@]} notebooks ran without errors; skipped for lack of data: ${skipped[*]}"
else
  say "all ${#notebooks[@]} notebooks ran without errors"
fi

#!/usr/bin/env bash
# The device check of dpdl4j's CUDA engine, for a GPU machine with no JDK and no network.
#
#   gpu/device-check.sh build          here (Maven, a JDK with jlink): builds the self-contained bundle
#                                      gpu/dpdl4j-device-check.tgz (a jlinked Java runtime, the engine's jars, the
#                                      bytedeco CUDA presets for linux-x86_64, this script, table.py, cuda_libraries.py,
#                                      gpu_step.py with Opacus 1.6.0) and prints its size
#   bash device-check.sh run [DIR]     there, inside the unpacked bundle: finds the CUDA 13 libraries of the machine's
#                                      PyTorch, runs the correctness check, dpdl4j's step benchmark and PyTorch's side
#                                      (gpu_step.py), and prints one table; every output goes to DIR (default $OUT, else
#                                      ./device-check-results)
#
# Build settings (environment): JLINK_JDK, the JDK whose jlink makes the runtime (default: Temurin 25, whose builds run
# on glibc 2.17 and later); PEERS_DIR, the folder of gpu_step.py and vendor/opacus-1.6.0 (default: ../shared/peers
# beside the repository). Run settings: PYTHON (default python3, the one with torch), CHECK_TIMEOUT (seconds for the
# Java part, default 260; no benchmark starts in its last 45 s), TORCH_TIMEOUT (seconds for each of PyTorch's four runs,
# default 55). With the defaults a run ends within 570 s whatever hangs, under a 10-minute limit.
set -euo pipefail

NAME=dpdl4j-device-check
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

build() {
    local root stage jdk peers modules size_bundle size_tree
    root="$(cd "$HERE/.." && pwd)"
    jdk="${JLINK_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}"
    peers="${PEERS_DIR:-$root/../shared/peers}"
    [ -x "$jdk/bin/jlink" ] || { echo "no jlink in $jdk/bin: set JLINK_JDK to a JDK 17 or later (Temurin's builds run on glibc 2.17+)" >&2; exit 1; }
    [ -f "$peers/gpu_step.py" ] && [ -d "$peers/vendor/opacus-1.6.0" ] || {
        echo "no gpu_step.py with vendor/opacus-1.6.0 in $peers: set PEERS_DIR to the folder that holds them" >&2; exit 1; }
    stage="$HERE/build/$NAME"
    rm -rf "$HERE/build" "$HERE/$NAME.tgz"
    mkdir -p "$stage/lib"

    # The engine's jar and its bytedeco dependencies (javacpp, the CUDA presets and their linux-x86_64 JNI libraries);
    # no ND4J: the check runs on the engine's core only.
    (cd "$root" && ./mvnw -B -q -pl cuda -am -Dmaven.test.skip=true package dependency:copy-dependencies \
        -DincludeGroupIds=org.bytedeco -DincludeScope=runtime -DoutputDirectory="$stage/lib")
    cp "$root"/cuda/target/dpdl4j-cuda-*.jar "$stage/lib/"
    rm -f "$stage"/lib/openblas-*.jar

    # The fewest modules the check needs (jdeps over its jars), jlinked from a JDK whose builds run on old glibc.
    modules="$("$jdk/bin/jdeps" --ignore-missing-deps --print-module-deps --multi-release 17 "$stage"/lib/*.jar)"
    "$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages --compress zip-9 \
        --output "$stage/runtime"

    cp "$HERE/device-check.sh" "$HERE/table.py" "$HERE/cuda_libraries.py" "$peers/gpu_step.py" "$stage/"
    mkdir -p "$stage/vendor"
    cp -r "$peers/vendor/opacus-1.6.0" "$stage/vendor/"
    find "$stage/vendor" -name '__pycache__' -prune -exec rm -rf {} +
    (cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown) > "$stage/COMMIT"

    tar -C "$HERE/build" -czf "$HERE/$NAME.tgz" "$NAME"
    size_bundle=$(stat -c %s "$HERE/$NAME.tgz")
    size_tree=$(cd "$root" && git ls-files -z | xargs -0 stat -c %s 2>/dev/null | awk '{s+=$1} END {print s+0}')
    echo "bundle: gpu/$NAME.tgz, $((size_bundle / 1024 / 1024)) MiB ($size_bundle bytes; runtime modules: $modules)"
    echo "with the repository's tracked files ($((size_tree / 1024 / 1024)) MiB): $(((size_bundle + size_tree) / 1024 / 1024)) MiB of the 64 MiB a device run takes"
    if [ $((size_bundle + size_tree)) -gt $((64 * 1024 * 1024)) ]; then
        echo "too large for one device run" >&2
        exit 1
    fi
    echo "on the device: tar xzf gpu/$NAME.tgz -C /tmp && bash /tmp/$NAME/device-check.sh run \"\$OUT\""
}

# The lib folders of the CUDA libraries the machine's PyTorch installed (cuda_libraries.py), for LD_LIBRARY_PATH.
cuda_library_path() {
    timeout -k 5 15 "$PYTHON" "$HERE/cuda_libraries.py" || true
}

run() {
    local results libs cache java_status=0
    results="${OUT:-$PWD/device-check-results}"
    if [ $# -gt 0 ]; then
        results="$1"
        shift
    fi
    mkdir -p "$results"
    results="$(cd "$results" && pwd)"
    PYTHON="${PYTHON:-python3}"
    {
        echo "# bundle $(cat "$HERE/COMMIT" 2>/dev/null), $(date -u +%Y-%m-%dT%H:%M:%SZ), $(uname -srm)"
        echo "# $(ldd --version 2>&1 | head -1) (the bytedeco JNI libraries need glibc 2.34 or later)"
        timeout -k 5 15 nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 \
            | sed 's/^/# nvidia-smi: /' || true
    } | tee "$results/machine.txt"
    { timeout -k 5 15 "$PYTHON" - <<'EOF' 2>&1 || echo "$PYTHON does not run, or took over 15 s"; } | sed 's/^/# python: /' \
        | tee -a "$results/machine.txt"
import sys
print(sys.executable, sys.version.split()[0])
try:
    import torch
    print("torch", torch.__version__, "built for CUDA", torch.version.cuda, "sees a GPU:", torch.cuda.is_available())
except Exception as e:
    print("torch does not import:", e)
EOF

    libs="$(cuda_library_path 2>>"$results/machine.txt")"
    echo "# CUDA libraries from pip: ${libs:-none found (is torch with its nvidia-* packages installed for $PYTHON?)}" \
        | tee -a "$results/machine.txt"
    # cuDNN 9 (the nvidia-cudnn-cu13 wheel's lib folder) computes the CNN; without it the CNN is skipped, saying so
    local cudnn_dir
    cudnn_dir="$(for d in ${libs//:/ }; do [ -e "$d/libcudnn_cnn.so.9" ] && echo "$d" && break; done; true)"
    echo "# cuDNN 9: ${cudnn_dir:-libcudnn_cnn.so.9 not found in those folders (pip install nvidia-cudnn-cu13)}" \
        | tee -a "$results/machine.txt"
    export LD_LIBRARY_PATH="${libs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export PYTHONUNBUFFERED=1   # a run stopped by its time limit still leaves what it printed
    local check_timeout="${CHECK_TIMEOUT:-260}" torch_timeout="${TORCH_TIMEOUT:-55}"

    echo "== dpdl4j: correctness check and step benchmark"
    cache="$(mktemp -d "${TMPDIR:-/tmp}/dpdl4j-javacpp.XXXXXX")"   # where JavaCPP unpacks the JNI libraries
    set +e
    # a JVM crash leaves its report with the results (hs_err.log), not in the working directory
    timeout -k 10 "$check_timeout" "$HERE/runtime/bin/java" -Xmx8g -XX:+UseParallelGC -XX:ErrorFile="$results/hs_err.log" \
        --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow \
        -Dorg.bytedeco.javacpp.cachedir="$cache" -cp "$HERE/lib/*" org.dpdl4j.cuda.check.DeviceCheck \
        --deadline-seconds $((check_timeout > 90 ? check_timeout - 45 : check_timeout / 2)) "$@" 2>&1 \
        | tee "$results/dpdl4j.txt"
    java_status=${PIPESTATUS[0]}
    set -e
    rm -rf "$cache"

    echo "== PyTorch on the same GPU (gpu_step.py, Opacus 1.6.0)"
    (
        cd "$HERE"
        set +e
        torch_step() {   # one gpu_step.py run, stopped after its time limit (what it printed so far stays)
            local name="$1"
            shift
            timeout -k 5 "$torch_timeout" "$PYTHON" -u gpu_step.py "$@" 2>&1 | tee "$results/torch-$name.txt"
            case "${PIPESTATUS[0]}" in
                124|137) echo "SKIP torch $name: stopped after $torch_timeout s" | tee -a "$results/torch-$name.txt" ;;
            esac
        }
        torch_step check --model mlp --batches 64 --check
        torch_step mlp --model mlp --batches 256,4096
        torch_step logistic --model logistic --batches 256 --modes plain,torch-ghostnorm,opacus-ghost
        torch_step cnn --model cnn --batches 2048 --modes plain,opacus-ghost --blocks 5
        true
    )

    "$PYTHON" "$HERE/table.py" "$results" | tee "$results/table.txt" || echo "table.py failed: the raw results are in $results"
    case $java_status in
        0) if grep -q '^SKIP cnn:' "$results/dpdl4j.txt"; then
               echo "device check: every correctness check that ran passed; the CNN checks were SKIPPED (SKIP cnn line)"
           else
               echo "device check: every correctness check passed"
           fi ;;
        1) if grep -q '^CHECK FAIL' "$results/dpdl4j.txt"; then
               echo "device check: correctness checks FAILED (CHECK FAIL lines in $results/dpdl4j.txt)"
           else
               echo "device check: the Java part ended with status 1 and no CHECK FAIL line (see $results/dpdl4j.txt)"
           fi ;;
        3) echo "device check: the CUDA engine cannot run here (UNUSABLE line in $results/dpdl4j.txt)" ;;
        4) echo "device check: no check failed, but parts stopped with errors (ERROR lines in $results/dpdl4j.txt)" ;;
        5) echo "device check: the check itself crashed (ERROR line in $results/dpdl4j.txt)" ;;
        124|137)   # reported as 6 (or 1), so that it is not read as the time limit of the command that ran this script
            if grep -q '^CHECK FAIL' "$results/dpdl4j.txt"; then
                echo "device check: correctness checks FAILED (CHECK FAIL lines in $results/dpdl4j.txt), and the Java part"\
                     "then ran past $check_timeout s and was stopped"
                java_status=1
            else
                echo "device check: the Java part ran past $check_timeout s and was stopped (no check had failed)"
                java_status=6
            fi ;;
        *) echo "device check: the Java part failed with status $java_status (see $results/dpdl4j.txt)" ;;
    esac
    exit "$java_status"
}

case "${1:-}" in
    build) shift; build "$@" ;;
    run) shift; run "$@" ;;
    *) echo "usage: gpu/device-check.sh build   (here)   |   bash device-check.sh run [RESULTS_DIR]   (on the GPU machine, in the unpacked bundle)" >&2; exit 2 ;;
esac

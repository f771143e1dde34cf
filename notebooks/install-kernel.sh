#!/usr/bin/env bash
# Installs what the dpdl4j notebooks need: the Jupyter command-line tools (Debian packages) and a Java
# kernel for Jupyter, rapaio-jupyter-kernel, resolved from Maven Central with the project's Maven
# wrapper, with a fix for a race that made one start in ten hang (notebooks/kernel-patch). Safe to run
# again: whatever is already in place is checked and left alone.
#
# Environment:
#   DPDL4J_KERNEL_NAME       name of the kernel (default: dpdl4j-java, the one the notebooks name); with
#                            another name, run the notebooks with the same DPDL4J_KERNEL_NAME
#   DPDL4J_KERNEL_JAVA_OPTS  extra JVM options for the kernel, e.g. "-Xmx8g" (default: none)
#   JUPYTER_DATA_DIR         Jupyter's user data directory (default: what `jupyter --data-dir` says)
set -euo pipefail

KERNEL_GROUP=io.github.padreati
KERNEL_ARTIFACT=rapaio-jupyter-kernel
KERNEL_VERSION=3.0.1
KERNEL_NAME="${DPDL4J_KERNEL_NAME:-dpdl4j-java}"
DEBIAN_PACKAGES=(jupyter-nbconvert jupyter-client python3-nbclient jupyter-core)

case "${1:-}" in
  "") ;;
  -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 0 ;;
  *) printf 'install-kernel: error: unexpected argument %s; the script takes no arguments (settings come from the environment, see --help)\n' "'$1'" >&2; exit 1 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf 'install-kernel: %s\n' "$*"; }
fail() { printf 'install-kernel: error: %s\n' "$*" >&2; exit 1; }

# 1. Java 17 or newer: the kernel is JShell-based and the project targets Java 17.
java_bin="$(command -v java || true)"
[ -n "$java_bin" ] || fail "no 'java' on the PATH; install a JDK 17 or newer (e.g. apt-get install openjdk-17-jdk-headless)"
java_bin="$(readlink -f "$java_bin")"
java_major="$("$java_bin" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')"
[ -n "$java_major" ] || fail "could not read the Java version of $java_bin"
[ "$java_major" -ge 17 ] || fail "$java_bin is Java $java_major; the kernel needs Java 17 or newer (set PATH to a newer JDK)"
"$java_bin" --list-modules 2>/dev/null | grep -q '^jdk\.jshell@' \
  || fail "$java_bin has no jdk.jshell module (a JRE, not a JDK); install a full JDK 17 or newer"
say "Java $java_major: $java_bin"

# 2. The Jupyter tools: `jupyter execute` (nbclient) and `jupyter nbconvert` run the notebooks.
jupyter_ready() {
  command -v jupyter >/dev/null 2>&1 \
    && jupyter execute --help >/dev/null 2>&1 \
    && jupyter nbconvert --help >/dev/null 2>&1 \
    && jupyter kernelspec list >/dev/null 2>&1
}
if jupyter_ready; then
  say "Jupyter tools already present: $(command -v jupyter)"
else
  command -v apt-get >/dev/null 2>&1 \
    || fail "the Jupyter tools are missing and apt-get is not available; install jupyter-core, jupyter-client, nbclient and nbconvert (e.g. pip install nbclient nbconvert) and run this script again"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "the Jupyter tools are missing; run as root: apt-get install -y ${DEBIAN_PACKAGES[*]}"
    sudo=(sudo)
  fi
  say "installing Debian packages: ${DEBIAN_PACKAGES[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q "${DEBIAN_PACKAGES[@]}"
  hash -r
  jupyter_ready || fail "the Debian packages were installed but 'jupyter execute' still does not work; check the PATH (expected /usr/bin/jupyter)"
  say "Jupyter tools installed: $(command -v jupyter)"
fi

# 3. The kernel jar (a self-contained shaded jar), from Maven Central into the local Maven repository.
data_dir="${JUPYTER_DATA_DIR:-$(jupyter --data-dir)}"
kernel_dir="$data_dir/kernels/$KERNEL_NAME"
jar_name="$KERNEL_ARTIFACT-$KERNEL_VERSION.jar"
jar="$kernel_dir/$jar_name"
jar_tool="$(dirname "$java_bin")/jar"
if [ -f "$jar" ] && "$jar_tool" tf "$jar" >/dev/null 2>&1; then
  say "kernel jar already present: $jar"
else
  download="$(mktemp -d)"
  trap 'rm -rf "$download"' EXIT
  say "downloading $KERNEL_GROUP:$KERNEL_ARTIFACT:$KERNEL_VERSION from Maven Central (Maven wrapper) ..."
  # -N: run on the parent POM only; the goal needs no project, and the reactor modules would repeat it.
  (cd "$root" && ./mvnw -B -q -N dependency:copy \
      -Dartifact="$KERNEL_GROUP:$KERNEL_ARTIFACT:$KERNEL_VERSION" -DoutputDirectory="$download") \
    || fail "Maven could not fetch $KERNEL_GROUP:$KERNEL_ARTIFACT:$KERNEL_VERSION; check the network and ~/.m2/settings.xml"
  [ -f "$download/$jar_name" ] || fail "Maven reported success but $download/$jar_name is missing"
  mkdir -p "$kernel_dir"
  # Put the jar in place atomically, so an interrupted run never leaves a truncated jar behind.
  cp "$download/$jar_name" "$kernel_dir/.$jar_name.partial"
  mv -f "$kernel_dir/.$jar_name.partial" "$jar"
  say "kernel jar installed: $jar"
fi

# 4. The kernel's start-up fix. In rapaio 3.0.1 (and up to 3.0.4) each socket-polling thread sets its
#    "running" flag only after it has started, so a thread that gets the CPU first ends at once; about one
#    start in ten on a busy two-core machine then never answers Jupyter (see kernel-patch/.../LoopThread.java).
#    The class is compiled against the jar and put before it on the kernel's class path, where it replaces
#    the jar's own. Written only when the compiled class differs, so a second run changes nothing.
patch_source="$root/notebooks/kernel-patch/org/rapaio/jupyter/kernel/channels/LoopThread.java"
patch_dir="$kernel_dir/patch"
staged="$kernel_dir/.patch.partial"
rm -rf "$staged"
"$(dirname "$java_bin")/javac" --release 17 -cp "$jar" -d "$staged" "$patch_source" \
  || fail "could not compile $patch_source against $jar"
patch_class=org/rapaio/jupyter/kernel/channels/LoopThread.class
if cmp -s "$staged/$patch_class" "$patch_dir/$patch_class"; then
  rm -rf "$staged"
  say "kernel start-up fix already in place: $patch_dir"
else
  rm -rf "$patch_dir"
  mv "$staged" "$patch_dir"
  say "kernel start-up fix installed: $patch_dir"
fi

# 5. kernel.json, the spec Jupyter reads to start the kernel (the same fields rapaio's own installer
#    writes: the RJK_* variables configure the kernel; the Maven cache of %dependency stays in the kernel
#    directory). Written only when it differs, so a second run changes nothing.
json_string() { # a JSON string literal
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  printf '"%s"' "$s"
}
argv="$(json_string "$java_bin")"
for opt in ${DPDL4J_KERNEL_JAVA_OPTS:-}; do
  argv+=", $(json_string "$opt")"
done
# -cp instead of -jar, so that the fix comes first; the jar's manifest names only its main class.
argv+=", \"-cp\", $(json_string "$patch_dir:$jar"), \"org.rapaio.jupyter.kernel.MainApp\", \"{connection_file}\""
kernel_json="$(cat <<EOF
{
  "argv": [$argv],
  "display_name": "Java $java_major (rapaio $KERNEL_VERSION, dpdl4j)",
  "language": "java",
  "interrupt_mode": "message",
  "env": {
    "RJK_CLASSPATH": "",
    "RJK_COMPILER_OPTIONS": "",
    "RJK_INIT_SCRIPT": "",
    "RJK_TIMEOUT_MILLIS": "-1",
    "RJK_MIMA_CACHE": "mima_cache"
  }
}
EOF
)"
if [ -f "$kernel_dir/kernel.json" ] && [ "$(cat "$kernel_dir/kernel.json")" = "$kernel_json" ]; then
  say "kernel.json already up to date: $kernel_dir/kernel.json"
else
  printf '%s\n' "$kernel_json" > "$kernel_dir/kernel.json"
  say "kernel.json written: $kernel_dir/kernel.json"
fi

jupyter kernelspec list 2>/dev/null | grep -q "^ *$KERNEL_NAME " \
  || fail "Jupyter does not list the kernel '$KERNEL_NAME' although $kernel_dir/kernel.json exists; is JUPYTER_PATH or JUPYTER_DATA_DIR set differently for Jupyter?"
say "kernel '$KERNEL_NAME' ready; run the notebooks with notebooks/run-all.sh"

# Sourced by tools/test.sh and tools/quickstart.sh: makes gir and what it needs
# available, installing only what is missing.
# - OpenCL on the CPU (PoCL) through apt when no OpenCL platform is installed;
# - a virtual environment .venv with gir (editable) and its test extras (pip),
#   unless the current Python already has them (e.g. an activated environment);
# - nvcc is used when present (/usr/local/cuda/bin is put on PATH).
_gir_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
_gir_sudo=""; [ "$(id -u)" -ne 0 ] && _gir_sudo="sudo"
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"

_gir_apt() {
  # Wait for another apt process's lock (an unattended upgrade) instead of failing.
  $_gir_sudo apt-get -o DPkg::Lock::Timeout=300 update -qq
  DEBIAN_FRONTEND=noninteractive $_gir_sudo apt-get -o DPkg::Lock::Timeout=300 install -y -qq "$@" >/dev/null
}

if ! ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
  echo "== installing PoCL (OpenCL on the CPU)"
  _gir_apt pocl-opencl-icd ocl-icd-opencl-dev
fi

_gir_ready() {
  # Run from / so that an uninstalled checkout on sys.path does not count.
  (cd / && python3 - <<'PY' 2>/dev/null)
import importlib.metadata as m, gir, xdsl, pyopencl, lit, filecheck, pytest, xdist, networkx, mkdocs
assert m.version("xdsl") == "0.74.0"
PY
}

if ! _gir_ready; then
  if [ -z "${VIRTUAL_ENV:-}" ]; then
    if [ ! -x "$_gir_root/.venv/bin/python3" ]; then
      python3 -m venv --help >/dev/null 2>&1 || _gir_apt python3-venv python3-pip
      echo "== creating $_gir_root/.venv"
      python3 -m venv "$_gir_root/.venv"
    fi
    source "$_gir_root/.venv/bin/activate"
  fi
  if ! _gir_ready; then
    echo "== installing gir and its Python dependencies (pip)"
    python3 -m pip install -q --upgrade pip
    python3 -m pip install -q -e "$_gir_root[test,docs]"
  fi
fi

# Sourced by tools/test.sh and tools/quickstart.sh: makes gir and what it needs
# available, installing only what is missing.
# - a C++ compiler (g++) through apt when there is none (gir builds its graph
#   loader with it);
# - OpenCL on the CPU (PoCL) through apt when no OpenCL platform is installed;
# - a virtual environment .venv with gir (editable) and its test extras (uv,
#   installed with pip, or pip alone), unless the current Python already has
#   them (e.g. an activated environment);
# - nvcc is used when present (/usr/local/cuda/bin is put on PATH).
_gir_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
_gir_sudo=""; [ "$(id -u)" -ne 0 ] && _gir_sudo="sudo"
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"

# Another apt process (unattended-upgrades on a fresh machine) may hold dpkg's lock:
# wait for it up to 5 minutes instead of failing at once.
_gir_apt_lock="-o DPkg::Lock::Timeout=300"
_gir_apt() {
  $_gir_sudo apt-get $_gir_apt_lock update -qq
  DEBIAN_FRONTEND=noninteractive $_gir_sudo apt-get $_gir_apt_lock install -y -qq "$@" >/dev/null
}

_gir_cxx=${CXX:-c++}
if ! command -v "${_gir_cxx%% *}" >/dev/null 2>&1; then
  echo "== installing g++ (gir builds its graph loader with it)"
  _gir_apt g++
fi

if ! ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
  echo "== installing PoCL (OpenCL on the CPU)"
  _gir_apt pocl-opencl-icd ocl-icd-opencl-dev
fi

_gir_ready() {
  # Run from / so that an uninstalled checkout on sys.path does not count.
  (cd / && python3 - <<'PY' 2>/dev/null)
import importlib.metadata as m, gir, xdsl, pyopencl, lit, filecheck, pytest, xdist, networkx, mkdocs, optuna
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
    # uv installs the same packages as pip, byte-compiled, in half the time (on a
    # 2-core machine the whole set-up took 27 s with uv, 53 s with pip: most of
    # CI's first minute); pip installs them where uv cannot be had.
    echo "== installing gir and its Python dependencies (uv, else pip)"
    if ! { python3 -m pip install -q uv 2>/dev/null &&
      python3 -m uv pip install -q --compile-bytecode -e "$_gir_root[opencl,test,docs]"; }; then
      python3 -m pip install -q --upgrade pip
      python3 -m pip install -q -e "$_gir_root[opencl,test,docs]"
    fi
  fi
fi

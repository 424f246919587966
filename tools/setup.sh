# Sourced by tools/test.sh and tools/quickstart.sh: installs gir and what it needs.
# - OpenCL on the CPU (PoCL) through apt when no OpenCL platform is installed;
# - gir itself (editable) with its test extras through pip;
# - nvcc is used when present (/usr/local/cuda/bin is put on PATH).
_gir_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ -d /usr/local/cuda/bin ] && export PATH="/usr/local/cuda/bin:$PATH"
if ! ls /etc/OpenCL/vendors/*.icd >/dev/null 2>&1; then
  echo "== installing PoCL (OpenCL on the CPU)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq pocl-opencl-icd ocl-icd-opencl-dev >/dev/null
fi
if ! python3 -c "import gir, xdsl, pyopencl, lit, filecheck, pytest, networkx" 2>/dev/null \
   || [ "$(python3 -c 'import xdsl, importlib.metadata as m; print(m.version("xdsl"))' 2>/dev/null)" != "0.74.0" ]; then
  echo "== installing gir and its Python dependencies"
  python3 -m pip install -q -e "$_gir_root[test]"
fi

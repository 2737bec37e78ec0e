#!/usr/bin/env bash
# Packs lit, FileCheck, not and GoogleTest from this Debian machine into .gpukit/ (ignored by git), to be
# carried to a GPU machine that has no LLVM 22 (device tool: carry [".gpukit"]).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kit=$root/.gpukit
rm -rf "$kit"
mkdir -p "$kit/bin" "$kit/lib" "$kit/gtest/lib" "$kit/gtest/include"
cp -r /usr/lib/llvm-22/utils/lit/lit "$kit/"
cp /usr/lib/llvm-22/bin/FileCheck /usr/lib/llvm-22/bin/not /usr/lib/llvm-22/bin/count "$kit/bin/"
strip "$kit/bin/FileCheck" "$kit/bin/not"
cp /lib/x86_64-linux-gnu/libz3.so.4 "$kit/lib/"
cp -r /usr/include/gtest /usr/include/gmock "$kit/gtest/include/"
cp /usr/lib/x86_64-linux-gnu/libgtest*.a /usr/lib/x86_64-linux-gnu/libgmock*.a "$kit/gtest/lib/"
cat > "$kit/bin/lit" <<'PY'
#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), ".."))
from lit.main import main
main()
PY
chmod +x "$kit/bin/lit"
du -sh "$kit"

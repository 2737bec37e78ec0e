#!/usr/bin/env python3
"""Runs the GPU lit suite, or exits 77 (ctest: skipped) when no GPU is usable here.

usage: run-gpu-suite.py LIT SITE_CFG SUITE_DIR
"""
import shutil
import subprocess
import sys

lit, site, suite = sys.argv[1:4]
smi = shutil.which("nvidia-smi")
usable = False
if smi:
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
        usable = out.returncode == 0 and "GPU " in out.stdout
    except (OSError, subprocess.SubprocessError):
        pass
if not usable:
    print("no usable GPU here (nvidia-smi -L lists none): GPU suite skipped")
    sys.exit(77)
sys.exit(subprocess.run([lit, "-sv", "--param", "site=" + site, suite]).returncode)

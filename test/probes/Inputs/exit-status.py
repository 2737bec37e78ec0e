"""Runs a command, echoes its stderr then stdout, and prints `exit: N` last, so that a test can check the
exact exit status (lit's `not` accepts any failure).

usage: exit-status.py COMMAND [ARGS...]
"""
import subprocess
import sys

result = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stdout.write(result.stderr)
sys.stdout.write(result.stdout)
print(f"exit: {result.returncode}")

"""Runs a command and succeeds only if it exits with the expected status.

usage: expect-exit.py STATUS COMMAND [ARGS...]
The command's stdout and stderr pass through (for FileCheck); lit's `not` cannot tell 1 from 2.
"""
import subprocess
import sys

expected = int(sys.argv[1])
result = subprocess.run(sys.argv[2:])
if result.returncode != expected:
    sys.stderr.write(f"expect-exit: {sys.argv[2]} exited {result.returncode}, expected {expected}\n")
    sys.exit(1)

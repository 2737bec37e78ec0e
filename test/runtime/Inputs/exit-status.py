"""Runs a command with its standard streams passed through, then prints how it ended: exit=N or signal=N.
usage: exit-status.py COMMAND [ARGS...]"""
import subprocess
import sys

sys.stdout.flush()
code = subprocess.run(sys.argv[1:]).returncode
print(f"signal={-code}" if code < 0 else f"exit={code}")

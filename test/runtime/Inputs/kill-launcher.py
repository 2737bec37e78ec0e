"""Starts `LAUNCHER... -- python3 -c <sleeper>`, waits until the sleeper runs, kills the launcher with SIGKILL
(which it cannot forward) and reports how the orphaned program ended. This script adopts orphans
(PR_SET_CHILD_SUBREAPER), so it can wait for the program itself.
usage: kill-launcher.py LAUNCHER [ARGS...]   (the program is appended after --)"""
import ctypes
import os
import signal
import subprocess
import sys
import tempfile
import time

PR_SET_CHILD_SUBREAPER = 36
if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    sys.exit("kill-launcher: prctl(PR_SET_CHILD_SUBREAPER) failed")

pid_file = os.path.join(tempfile.mkdtemp(), "pid")
sleeper = f"import os, time; open({pid_file!r}, 'w').write(str(os.getpid())); time.sleep(60)"
launcher = subprocess.Popen(sys.argv[1:] + ["--", sys.executable, "-c", sleeper])
deadline = time.monotonic() + 30
while not (os.path.exists(pid_file) and os.path.getsize(pid_file)) and time.monotonic() < deadline:
    time.sleep(0.05)
program = int(open(pid_file).read())
launcher.kill()
launcher.wait()
print(f"launcher ended by signal {-launcher.returncode}")
deadline = time.monotonic() + 10
while time.monotonic() < deadline:
    pid, status = os.waitpid(program, os.WNOHANG)
    if pid == program:
        how = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}"
        print(f"program ended by {how}")
        break
    time.sleep(0.05)
else:
    os.kill(program, signal.SIGKILL)
    os.waitpid(program, 0)
    print("program still running 10 s after the launcher was killed")

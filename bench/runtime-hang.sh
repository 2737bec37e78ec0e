#!/usr/bin/env bash
# Runs one command (normally `roofcheck-run ... -- PROGRAM`) with the shim's trace on (ROOFCHECK_SHIM_TRACE=1)
# and, when it outlives LIMIT_S seconds, shows where it stands before killing it: each thread of each
# process with its state, CPU time used over one second (a spinning thread uses it, a waiting one does not)
# and kernel wait channel (for a thread waiting on a mutex: its owner, read from the process, and whether
# that thread still lives); the GPU's utilisation; with HANG_GDB=1 (and cuda-gdb there) every thread's
# stack; and the end of the shim's trace. Logs: LOG_PREFIX.stdout, .stderr (the trace), .gdb.
# usage: bench/runtime-hang.sh LIMIT_S LOG_PREFIX COMMAND...   exit: the command's status, or 124 when it hung
set -uo pipefail
if [ $# -lt 3 ]; then
  echo "usage: bench/runtime-hang.sh LIMIT_S LOG_PREFIX COMMAND..." >&2
  exit 2
fi
limit=$1 prefix=$2
shift 2
mkdir -p "$(dirname "$prefix")"
start=$SECONDS
# A session of its own, so that everything the command started is found, and killed, as one group.
ROOFCHECK_SHIM_TRACE=1 setsid "$@" >"$prefix.stdout" 2>"$prefix.stderr" &
leader=$!
while kill -0 "$leader" 2>/dev/null && [ $((SECONDS - start)) -lt "$limit" ]; do
  sleep 0.2
done
if ! kill -0 "$leader" 2>/dev/null; then
  wait "$leader"
  status=$?
  echo "finished: exit $status after $((SECONDS - start)) s; $(grep -v '^roofcheck: trace:' "$prefix.stderr" | tail -1)"
  exit "$status"
fi

echo "HUNG: still running after $limit s: $*"
python3 - "$leader" "$prefix.cuda-pids" <<'PY'
import os, struct, sys, time

group = int(sys.argv[1])

def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return "?"

def fields(stat):  # the fields after "(comm)": state, ppid, pgrp, ... utime is [11], stime [12]
    return stat[stat.rindex(")") + 2:].split() if ")" in stat else []

def cpu_ticks(pid, tid):
    f = fields(read(f"/proc/{pid}/task/{tid}/stat"))
    return int(f[11]) + int(f[12]) if len(f) > 12 else 0

def futex_owner(pid, syscall):
    """For a thread waiting in futex(2) (202 on x86-64): the word it waits on and, read as a glibc
    pthread_mutex_t (lock, count, owner), the thread id of the owner and whether that thread still lives."""
    if len(syscall) < 3 or syscall[0] != "202":
        return ""
    address = int(syscall[1], 16)
    try:
        with open(f"/proc/{pid}/mem", "rb") as mem:
            mem.seek(address)
            lock, count, owner = struct.unpack("<iIi", mem.read(12))
    except (OSError, ValueError, struct.error):
        return f" futex={address:#x}"
    alive = os.path.exists(f"/proc/{pid}/task/{owner}")
    return (f" futex={address:#x} in {mapping(pid, address)} (as a mutex: lock={lock} count={count} owner={owner}"
            f"{' alive' if alive else ' NOT a live thread of this process' if owner else ''})")

def mapping(pid, address):
    """The file (or [heap], [stack], anonymous memory) that an address of the process lies in."""
    for line in read(f"/proc/{pid}/maps").splitlines():
        parts = line.split()
        start, end = (int(x, 16) for x in parts[0].split("-"))
        if start <= address < end:
            return os.path.basename(parts[5]) if len(parts) > 5 else "anonymous memory"
    return "?"

members = []
for name in os.listdir("/proc"):
    if name.isdigit():
        f = fields(read(f"/proc/{name}/stat"))
        if len(f) > 2 and int(f[2]) == group:
            members.append(int(name))
before = {(p, t): cpu_ticks(p, t) for p in members for t in os.listdir(f"/proc/{p}/task")}
time.sleep(1)
with open(sys.argv[2], "w") as cuda:  # the processes that use CUDA, for cuda-gdb
    cuda.writelines(f"{p}\n" for p in members if "libcuda" in read(f"/proc/{p}/maps"))
for pid in sorted(members):
    command = read(f"/proc/{pid}/cmdline").replace("\0", " ")[:150]
    print(f"process {pid}: {command}")
    for tid in sorted(os.listdir(f"/proc/{pid}/task"), key=int):
        base = f"/proc/{pid}/task/{tid}"
        state = (fields(read(f"{base}/stat")) or ["?"])[0]
        used = cpu_ticks(pid, tid) - before.get((pid, tid), 0)
        syscall = read(base + "/syscall").split(" ")
        print(f"  thread {tid} {read(base + '/comm'):<16} state={state} cpu_ticks_in_1s={used} "
              f"wchan={read(base + '/wchan')} syscall={syscall[0]}{futex_owner(pid, syscall)}")
PY
timeout 15 nvidia-smi --query-gpu=utilization.gpu,memory.used,clocks.sm --format=csv,noheader 2>&1 | sed 's/^/GPU: /'
if [ "${HANG_GDB:-0}" = 1 ] && command -v cuda-gdb >/dev/null; then
  for pid in $(cat "$prefix.cuda-pids"); do
    timeout 45 cuda-gdb -q -batch -nx -p "$pid" -ex 'thread apply all bt 30' >"$prefix.gdb" 2>&1
    echo "stacks of $pid (cuda-gdb):"
    grep -E '^(Thread|#)' "$prefix.gdb" | cut -c1-200 | head -150
  done
fi
echo "the end of the shim's trace:"
tail -40 "$prefix.stderr"
kill -KILL -- "-$leader" 2>/dev/null
wait "$leader" 2>/dev/null
exit 124

"""Runs a command under a time and a memory bound and prints "exit N" with its exit status.

usage: bounded.py SECONDS MEGABYTES COMMAND...

Running past either bound prints "bounded: ..." and exits 99, which no test expects. The memory bound is the
address-space limit of `ulimit -v`; an AddressSanitizer build reserves terabytes of address space for its
shadow memory and cannot start under one, so for such a build the peak resident size is checked instead,
against four times the bound (the sanitizer's own overhead)."""
import resource
import shutil
import subprocess
import sys

seconds = float(sys.argv[1])
megabytes = int(sys.argv[2])
command = sys.argv[3:]


def sanitized(program):
    path = shutil.which(program) or program
    try:
        with open(path, "rb") as binary:
            return b"__asan_init" in binary.read()
    except OSError:
        return False


asan = sanitized(command[0])


def limit_address_space():
    if not asan:
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))


try:
    status = subprocess.run(command, preexec_fn=limit_address_space, timeout=seconds).returncode
except subprocess.TimeoutExpired:
    print(f"bounded: {command[0]} ran past {seconds:g} s")
    sys.exit(99)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss >> 10
if asan and peak > 4 * megabytes:
    print(f"bounded: {command[0]} peaked at {peak} MiB, past 4 x {megabytes} MiB")
    sys.exit(99)
print(f"exit {status}")

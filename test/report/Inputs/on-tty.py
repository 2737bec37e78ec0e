"""Runs a command with its stdout on a pseudo-terminal COLUMNS wide (the rest of argv) and copies what it
wrote to our stdout, so that a test can see what a user's terminal gets: its width, and colours."""
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios

columns, command = int(sys.argv[1]), sys.argv[2:]
main, terminal = pty.openpty()
fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
attributes = termios.tcgetattr(terminal)
attributes[1] &= ~termios.ONLCR  # keep "\n" as written
termios.tcsetattr(terminal, termios.TCSANOW, attributes)
process = subprocess.Popen(command, stdout=terminal)
os.close(terminal)
output = b""
while True:
    try:
        chunk = os.read(main, 65536)
    except OSError:  # the other end closed
        break
    if not chunk:
        break
    output += chunk
sys.stdout.buffer.write(output)
sys.exit(process.wait())

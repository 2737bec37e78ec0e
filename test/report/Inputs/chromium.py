"""Opens an HTML or SVG file in headless Chromium; prints the DOM after scripts ran and writes a screenshot.

usage: chromium.py FILE SCREENSHOT.png [WIDTH,HEIGHT]   (the window; default 1000,1300)
Fails (exit 1) when the page logs anything to the console (errors, uncaught exceptions) or Chromium fails.
Each run gets a fresh profile directory, no network, no background services.
"""
import os
import shutil
import subprocess
import sys
import tempfile

page, screenshot = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
window = sys.argv[3] if len(sys.argv) > 3 else "1000,1300"
browser = shutil.which("chromium") or shutil.which("chromium-browser")
if not browser:
    sys.exit("chromium.py: chromium not found (Debian: apt-get install chromium)")

def run(extra):
    with tempfile.TemporaryDirectory(prefix="roofcheck-chromium-") as profile:
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                   "--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + profile,
                   "--enable-logging=stderr", "--v=0", "--window-size=" + window] + extra + ["file://" + page]
        result = subprocess.run(command, capture_output=True, text=True, timeout=180)
    console = [line for line in result.stderr.splitlines() if ":CONSOLE" in line]
    if result.returncode != 0 or console:
        sys.stderr.write("chromium.py: exit %d\n%s\n" % (result.returncode, "\n".join(console) or result.stderr[-2000:]))
        sys.exit(1)
    return result.stdout

dom = run(["--dump-dom"])
run(["--screenshot=" + screenshot])
if not os.path.getsize(screenshot) > 0:
    sys.exit("chromium.py: no screenshot written")
sys.stdout.write(dom)

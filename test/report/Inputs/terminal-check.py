"""Reads a roofcheck report from stdin and checks its terminal layout: the table's rows and the roofline's
lines fit WIDTH display columns (ANSI colours aside, which it counts), and every mark the legend names is in the plot exactly once (no mark
hides another). Prints one summary line for FileCheck; exits 1 with the offending line otherwise."""
import re
import sys

width = int(sys.argv[1])
text = sys.stdin.read()
colours = len(re.findall(r"\x1b\[[0-9;]*m", text))
lines = re.sub(r"\x1b\[[0-9;]*m", "", text).split("\n")
errors = []

table = []
start = next(i for i, l in enumerate(lines) if l.startswith("kernel "))
for line in lines[start:]:
    if not line or line.startswith("(") or line.startswith("..."):
        break
    table.append(line)
grid, legend = [], []
plot_start = next((i for i, l in enumerate(lines) if l.startswith("roofline")), len(lines))
axis = next((i for i in range(plot_start, len(lines)) if re.match(r"^ +\+[-+]+$", lines[i])), len(lines))
grid = lines[plot_start + 1:axis + 2]  # the rows, the axis and its labels
for line in lines[axis + 2:]:
    m = re.match(r"^  ([A-Z ])([a-z ]) ", line)
    if m and (m.group(1) != " " or m.group(2) != " "):
        legend.append((m.group(1), m.group(2), line))
for line in table + grid + [l for _, _, l in legend]:
    if len(line) > width:
        errors.append(f"{len(line)} columns: {line}")
cells = "".join(l[14:] for l in grid[:-2])
for measured, predicted, line in legend:
    for mark in (measured, predicted):
        if mark != " " and cells.count(mark) != 1:
            errors.append(f"mark {mark} is in the plot {cells.count(mark)} times: {line}")
if errors:
    print("\n".join(errors))
    sys.exit(1)
print(f"ok: {len(table) - 1} rows, {len(grid)} plot lines and {len(legend)} legend lines within {width} columns, "
      f"{sum((m != ' ') + (p != ' ') for m, p, _ in legend)} marks each drawn once, "
      f"{'colours' if colours else 'no colours'}")

"""Writes an altered or damaged copy of a roofcheck document, for the bad-input tests.

usage: variant.py IN OUT EDIT...
  PATH=JSON   set a field: PATH is /-separated keys and list indexes (kernels/0/flops/total/value); in a
              JSON Lines file (*.jsonl) it starts with the line number, from 1 (1/schema is the header's)
  cut=BYTES   keep the first BYTES bytes, a write stopped mid-record (negative: drop as many from the end)
  nul=COUNT   append COUNT NUL bytes: a file extended but never written, as after a power loss
Edits apply in order; field edits come before the byte edits that follow them.
"""
import json
import sys

source, target, edits = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = source.endswith(".jsonl")
with open(source, "rb") as f:
    data = f.read()


def set_field(document, path, value):
    keys = path.split("/")
    for key in keys[:-1]:
        document = document[int(key)] if isinstance(document, list) else document[key]
    last = keys[-1]
    if isinstance(document, list):
        document[int(last)] = value
    else:
        document[last] = value


for edit in edits:
    name, _, value = edit.partition("=")
    if name == "cut":
        data = data[: int(value)]
    elif name == "nul":
        data += b"\0" * int(value)
    elif lines:
        records = data.decode().splitlines()
        number, _, path = name.partition("/")
        record = json.loads(records[int(number) - 1])
        set_field(record, path, json.loads(value))
        records[int(number) - 1] = json.dumps(record)
        data = ("\n".join(records) + "\n").encode()
    else:
        document = json.loads(data)
        set_field(document, name, json.loads(value))
        data = (json.dumps(document, indent=1) + "\n").encode()
with open(target, "wb") as f:
    f.write(data)

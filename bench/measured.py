"""Launch records of roofcheck measured files for the bench scripts, as dicts: measured/2's kernel
records (docs/contracts.md) are folded into the launches that name them, so a launch has its "name",
"mangled" and "registers" whichever version wrote the file, and its argument records into its "args" (the
hex bytes where the record has {"argument": id})."""
import json


def launches(path):
    kernels, arguments = {}, {}
    with open(path) as f:
        for line in f:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue  # a record cut short by a crash
            kind = record.get("record")
            if kind == "kernel":
                kernels[record["id"]] = record
            elif kind == "argument":
                arguments[record["id"]] = record["bytes"]
            elif kind == "launch":
                if "args" in record:
                    record["args"] = [arguments.get(a["argument"]) if isinstance(a, dict) else a
                                      for a in record["args"]]
                kernel = kernels.get(record.get("kernel"))
                if kernel is not None:
                    for field in ("name", "mangled", "registers", "shared_static"):
                        record[field] = kernel[field]
                yield record

"""Stands in for a measured program without a GPU: writes, where the shim would (ROOFCHECK_OPTIONS'
output_dir, with its session in the header), the launch records of a given measured file and a summary
record, prints one line and exits with the given code. Writes nothing when the file is "none".
usage: stand-in-shim.py MEASURED.jsonl|none EXIT_CODE"""
import json
import os
import sys

options = json.loads(os.environ["ROOFCHECK_OPTIONS"])
if sys.argv[1] != "none":
    with open(sys.argv[1]) as f:
        records = [json.loads(line) for line in f if line.strip()]
    records[0]["pid"] = os.getpid()
    records[0]["options"] = options
    launches = sum(1 for r in records if r.get("record") == "launch")
    profiled = sum(1 for r in records if r.get("record") == "launch" and r.get("profiled"))
    records.append({"record": "summary", "launches_seen": launches, "launches_recorded": launches,
                    "launches_profiled": profiled, "activity_records_dropped": 0, "warnings": []})
    path = os.path.join(options["output_dir"], f"roofcheck.{os.getpid()}.measured.jsonl")
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
print("stand-in program ran", flush=True)
sys.exit(int(sys.argv[2]))

"""Prints each launch record's index, context and stream ids of a measured file, a line each."""
import json
import sys

with open(sys.argv[1]) as f:
    for line in f:
        record = json.loads(line)
        if record.get("record") == "launch":
            print(f"launch {record['index']} context={record['context']} stream={record['stream']}")

#!/usr/bin/python3
"""Validates JSON documents (or JSON Lines, one record a line) against a JSON Schema (the draft its $schema
names; 2020-12 when it names none).

usage: validate-json.py SCHEMA FILE...    exit 0 when every document is valid, 1 otherwise
Runs under Debian's python3 with python3-jsonschema.
"""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
validator = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)(schema)
bad = 0
for path in sys.argv[2:]:
    documents = []
    if path.endswith(".jsonl"):
        documents = [(f"{path}:{n}", json.loads(line)) for n, line in enumerate(open(path), 1) if line.strip()]
    else:
        documents = [(path, json.load(open(path)))]
    for where, document in documents:
        for error in validator.iter_errors(document):
            bad += 1
            location = "/".join(str(p) for p in error.absolute_path) or "(top)"
            print(f"{where}: {location}: {error.message}")
        if not bad:
            print(f"{where}: valid")
sys.exit(1 if bad else 0)

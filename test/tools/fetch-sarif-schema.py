#!/usr/bin/python3
"""Fetches the SARIF 2.1.0 JSON schema (the OASIS TC's final 2.1.0 schema, "sarif-2.1.0-rtm.5", as published
on schemastore.org and shipped in Microsoft's MIT-licensed npm package @microsoft/sarif-matcher-utils) for the
SARIF validation test, checking the package's SHA-256.

usage: fetch-sarif-schema.py DEST.json    exit 0 when DEST holds the schema, 1 when it cannot be fetched
"""
import hashlib
import io
import os
import sys
import tarfile
import urllib.request

URL = "https://registry.npmjs.org/@microsoft/sarif-matcher-utils/-/sarif-matcher-utils-1.0.0-beta.0.tgz"
SHA256 = "2dba0dc3f886e8fe7ee89c31ebfea1a86916f520caf4b0df3ba40e3091edcfda"
MEMBER = "package/lib/schemas/sarif-2.1.0-rtm.5.json"

dest = sys.argv[1]
try:
    with urllib.request.urlopen(URL, timeout=60) as response:
        data = response.read()
except OSError as error:
    print(f"fetch-sarif-schema: cannot download {URL}: {error}", file=sys.stderr)
    sys.exit(1)
if hashlib.sha256(data).hexdigest() != SHA256:
    print(f"fetch-sarif-schema: {URL} does not have the expected SHA-256", file=sys.stderr)
    sys.exit(1)
with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
    schema = archive.extractfile(MEMBER).read()
os.makedirs(os.path.dirname(os.path.abspath(dest)), exist_ok=True)
with open(dest + ".tmp", "wb") as out:
    out.write(schema)
os.replace(dest + ".tmp", dest)

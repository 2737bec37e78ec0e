"""Prints a SARIF log's results one a line for FileCheck: rule, artifact, region, level, fingerprint, number of
related locations and the fix. With a baseline log, the fingerprint column says whether each result's
fingerprint equals the one of the baseline's result at the same place in the list.
usage: show_sarif.py LOG.sarif [BASELINE.sarif]"""
import json
import sys

log = json.load(open(sys.argv[1]))
run = log["runs"][0]
baseline = None
if len(sys.argv) > 2:
    baseline = [r["partialFingerprints"]["roofcheck/v1"] for r in json.load(open(sys.argv[2]))["runs"][0]["results"]]
print("version", log["version"], "tool", run["tool"]["driver"]["name"],
      "rules", ",".join(r["id"] for r in run["tool"]["driver"]["rules"]))
for index, result in enumerate(run["results"]):
    fingerprint = result["partialFingerprints"]["roofcheck/v1"]
    if baseline is not None:
        fingerprint = "same" if index < len(baseline) and baseline[index] == fingerprint else "changed"
    where = result["locations"][0]["physicalLocation"]
    region = where["region"]
    fixes = result.get("fixes", [])
    fix = fixes[0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] if fixes else "-"
    print(result["ruleId"], where["artifactLocation"].get("uriBaseId", "-"), where["artifactLocation"]["uri"],
          f'{region["startLine"]}:{region["startColumn"]}', result["level"],
          "fp=" + fingerprint,
          "related=" + str(len(result.get("relatedLocations", []))), "fix=" + fix)

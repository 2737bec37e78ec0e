"""Prints the parts of a roofcheck.static/1 file that the lit tests check, one fact a line."""
import json
import sys

doc = json.load(open(sys.argv[1]))
print("schema", doc["schema"])
for k in doc["kernels"]:
    print("kernel", k["name"], k["mangled"], k["file"].split("/")[-1], k["line"])
    for p in k["params"]:
        print("param", p["index"], p["name"], p["type"], p["size"])
        if "fields" in p:
            print("param", p["name"], "fields", ", ".join(
                "%s %s @%d+%d" % (f["name"], f["type"], f["offset"], f["size"]) for f in p["fields"]))
    for key in ["total", "fp32", "special"]:
        q = k["flops"][key]
        print("flops." + key, q["expr"] or None, "=", q["value"])
    for key in ["read", "write", "ideal", "predicted"]:
        q = k["bytes"][key]
        where = ["known_when", q["known_when"]] if "known_when" in q else []
        print("bytes." + key, q["expr"] or None, *where, "=", q["value"])
    for a in k["accesses"]:
        print("access", a["pointer"], a["kind"], "stride", a["stride_bytes"], "sectors", a["sectors_per_request"],
              "coalesced", a["coalesced"])
    for d in k.get("divisions", []):
        print("division", d["multiplier"], d["shift"], d["divisor"], d["file"].split("/")[-1], d["line"])
    for u in k["unknowns"]:
        print("unknown", u["reason"], u["file"], u["line"], *(["when", u["when"]] if "when" in u else []))

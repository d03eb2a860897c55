#!/usr/bin/env python3
"""Turns docs/bench/decode.json (JMH, DecodeThroughputBenchmark) into the Markdown table of docs/benchmarks-decode.md."""
import json, sys

path = sys.argv[1] if len(sys.argv) > 1 else "docs/bench/decode.json"
rows = {}
for r in json.load(open(path)):
    name = r["benchmark"].rsplit(".", 1)[1]
    fixture = r["params"]["fixture"]
    sec = r["secondaryMetrics"]
    rows[(fixture, name)] = {
        "mbs": sec["bytes"]["score"] / 1e6,
        "mbs_err": sec["bytes"]["scoreError"] / 1e6,
        "evs": sec["events"]["score"],
        "cpu": sec["cpuNanos"]["score"] / 1e9,
    }

peer = {"lanesHeaderScan": "connectorHeaderScan", "lanesFullDecode": "connectorFullDecode",
        "lanesFullDecodeVerified": "connectorFullDecode"}
print("| fixture | benchmark | MB/s (wall) | events/s (wall) | CPU share | MB per CPU-second | vs connector-java (wall) | vs connector-java (per CPU-second) |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for fixture in ("sakila", "sysbench"):
    for name in ("lanesHeaderScan", "connectorHeaderScan", "lanesFullDecode", "lanesFullDecodeVerified",
                 "connectorFullDecode"):
        r = rows.get((fixture, name))
        if r is None:
            continue
        per_cpu = r["mbs"] / r["cpu"] if r["cpu"] > 0 else float("nan")
        ratio = ratio_cpu = ""
        if name in peer and (fixture, peer[name]) in rows:
            p = rows[(fixture, peer[name])]
            ratio = "%.1fx" % (r["mbs"] / p["mbs"])
            ratio_cpu = "%.1fx" % (per_cpu / (p["mbs"] / p["cpu"]))
        print("| %s | %s | %.0f ± %.0f | %.0f | %.2f | %.0f | %s | %s |" % (
            fixture, name, r["mbs"], r["mbs_err"], r["evs"], r["cpu"], per_cpu, ratio, ratio_cpu))

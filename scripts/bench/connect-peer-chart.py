#!/usr/bin/env python3
"""Draws docs/bench/connect-peer.svg from the JSON lines of connect-peer.sh runs (docs/bench/connect-peer.jsonl):
transactions/s of Debezium's JDBC sink, Confluent's (runs with --confluent-jdbc) and the Lanes sink, a group of bars
per run, with exactness marked (for Confluent's sink: after its fault round too).
  connect-peer-chart.py [SRC] [DST] [--confluent] [--min-transactions=N]
  (--confluent: only the runs that measured Confluent's sink; --min-transactions: leave out smaller smoke runs)"""
import json
import sys
from pathlib import Path

args = [a for a in sys.argv[1:] if not a.startswith("--")]
src = Path(args[0] if len(args) > 0 else "docs/bench/connect-peer.jsonl")
dst = Path(args[1] if len(args) > 1 else "docs/bench/connect-peer.svg")
runs = [json.loads(line) for line in src.read_text().splitlines() if line.strip()]
if "--confluent" in sys.argv:
    runs = [r for r in runs if "confluent_jdbc_tps" in r]
for a in sys.argv[1:]:
    if a.startswith("--min-transactions="):
        runs = [r for r in runs if r["transactions"] >= int(a.split("=", 1)[1])]
SINKS = [("debezium_jdbc_tps", "#999", "Debezium JDBC", "debezium_jdbc_exact"),
         ("confluent_jdbc_tps", "#e08a1e", "Confluent JDBC", "confluent_jdbc_exact"),
         ("lanes_tps", "#2a6ebb", "Lanes", "lanes_exact")]
top = max(max(r.get(k, 0) for k, *_ in SINKS) for r in runs) * 1.15
group = 65 * max(2, max(sum(1 for k, *_ in SINKS if k in r) for r in runs)) + 40
w, h, left, bottom = max(640, 120 + group * len(runs)), 375, 70, 300
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
       f'<text x="{left}" y="20" font-size="14">Transactions/s applied from Kafka (same topic, same tasks.max, MariaDB targets)</text>']
for i in range(5):
    v = top * i / 4
    y = bottom - (bottom - 40) * i / 4
    out.append(f'<line x1="{left}" y1="{y:.0f}" x2="{w - 20}" y2="{y:.0f}" stroke="#ddd"/>')
    out.append(f'<text x="{left - 8}" y="{y + 4:.0f}" text-anchor="end">{v:.0f}</text>')
for k, r in enumerate(runs):
    x0 = left + 20 + group * k
    present = [(key, colour, name, r.get(exact)) for key, colour, name, exact in SINKS if key in r]
    for j, (key, colour, name, exact) in enumerate(present):
        if key == "confluent_jdbc_tps" and "confluent_jdbc_exact_after_faults" in r:
            exact = exact and r["confluent_jdbc_exact_after_faults"]
        if key == "lanes_tps" and "lanes_exact_after_faults" in r:
            exact = exact and r["lanes_exact_after_faults"]
        v = r[key]
        bh = (bottom - 40) * v / top
        x = x0 + j * 65
        out.append(f'<rect x="{x}" y="{bottom - bh:.0f}" width="55" height="{bh:.0f}" fill="{colour}"/>')
        out.append(f'<text x="{x + 27}" y="{bottom - bh - 5:.0f}" text-anchor="middle">{v:.0f}</text>')
        out.append(f'<text x="{x + 27}" y="{bottom + 15}" text-anchor="middle">{name}</text>')
        out.append(f'<text x="{x + 27}" y="{bottom + 30}" text-anchor="middle" fill="{"#080" if exact else "#b00"}">'
                   f'{"exact" if exact else "not exact"}</text>')
    mid = x0 + 65 * len(present) / 2 - 5
    out.append(f'<text x="{mid:.0f}" y="{bottom + 48}" text-anchor="middle">{r["transactions"]} txns, {r["tasks"]} task, {r.get("lanes_workers", "?")} workers'
               f', load {r.get("load_average", "?")}</text>')
    if "commit" in r:
        out.append(f'<text x="{mid:.0f}" y="{bottom + 63}" text-anchor="middle" fill="#555">{r["commit"]}</text>')
out.append("</svg>")
dst.write_text("\n".join(out) + "\n")
print(f"wrote {dst} from {len(runs)} run(s)")

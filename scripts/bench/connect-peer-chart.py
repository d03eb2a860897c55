#!/usr/bin/env python3
"""Draws docs/bench/connect-peer.svg from the JSON lines of connect-peer.sh runs (docs/bench/connect-peer.jsonl):
transactions/s of Debezium's JDBC sink and of the Lanes sink, one pair of bars per run, with exactness marked."""
import json
import sys
from pathlib import Path

src = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/bench/connect-peer.jsonl")
dst = Path(sys.argv[2] if len(sys.argv) > 2 else "docs/bench/connect-peer.svg")
runs = [json.loads(line) for line in src.read_text().splitlines() if line.strip()]
top = max(max(r["lanes_tps"], r["debezium_jdbc_tps"]) for r in runs) * 1.15
w, h, left, bottom = max(640, 120 + 170 * len(runs)), 360, 70, 300
out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
       f'<text x="{left}" y="20" font-size="14">Transactions/s applied from Kafka (same topic, same tasks.max, MariaDB targets)</text>']
for i in range(5):
    v = top * i / 4
    y = bottom - (bottom - 40) * i / 4
    out.append(f'<line x1="{left}" y1="{y:.0f}" x2="{w - 20}" y2="{y:.0f}" stroke="#ddd"/>')
    out.append(f'<text x="{left - 8}" y="{y + 4:.0f}" text-anchor="end">{v:.0f}</text>')
for k, r in enumerate(runs):
    x0 = left + 20 + 170 * k
    for j, (key, colour, name, exact) in enumerate([
            ("debezium_jdbc_tps", "#999", "Debezium JDBC", r.get("debezium_jdbc_exact")),
            ("lanes_tps", "#2a6ebb", "Lanes", r.get("lanes_exact"))]):
        v = r[key]
        bh = (bottom - 40) * v / top
        x = x0 + j * 65
        out.append(f'<rect x="{x}" y="{bottom - bh:.0f}" width="55" height="{bh:.0f}" fill="{colour}"/>')
        out.append(f'<text x="{x + 27}" y="{bottom - bh - 5:.0f}" text-anchor="middle">{v:.0f}</text>')
        out.append(f'<text x="{x + 27}" y="{bottom + 15}" text-anchor="middle">{name}</text>')
        out.append(f'<text x="{x + 27}" y="{bottom + 30}" text-anchor="middle" fill="{"#080" if exact else "#b00"}">'
                   f'{"exact" if exact else "not exact"}</text>')
    out.append(f'<text x="{x0 + 60}" y="{bottom + 48}" text-anchor="middle">{r["transactions"]} txns, {r["tasks"]} task, {r.get("lanes_workers", "?")} workers'
               f', load {r.get("load_average", "?")}</text>')
out.append("</svg>")
dst.write_text("\n".join(out) + "\n")
print(f"wrote {dst} from {len(runs)} run(s)")

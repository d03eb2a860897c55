#!/usr/bin/env python3
"""Judges ApplyScalingProbe JSON files (java -cp jmh/target/benchmarks.jar io.lanes.jmh.apply.ApplyScalingProbe -o F)
the way docs/benchmarks.md's report judges seed 001: per curve (model/workload/scheduler), 1024 workers against each
other count as the median over rounds of the paired per-round ratio, and the worst of them (goal: at least 90%).
One line per file: the worst curve, then every curve's figure.
  scripts/bench/e2e-probe-judge.py FILE.json [FILE.json ...]"""
import json, statistics, sys
for f in sys.argv[1:]:
    d = json.load(open(f))
    by = {}
    for c in d['curves']:
        by.setdefault((c['model'], c['workload'], c['scheduler']), {})[c['workers']] = c['rounds']
    figures = []
    for key, w in sorted(by.items()):
        if 1024 not in w:
            continue
        worst = min(statistics.median([x / y for x, y in zip(w[1024], w[c])]) for c in w if c != 1024)
        figures.append((worst, '/'.join(key)))
    low = min(figures)
    print(f.split('/')[-1], f"worst {low[1]} {low[0]*100:.0f}%;",
          ' '.join(f"{name}:{v*100:.0f}%" for v, name in figures))

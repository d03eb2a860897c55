#!/usr/bin/env python3
"""Judges EngineScalingProbe JSON files (java -cp jmh/target/benchmarks.jar io.lanes.jmh.core.EngineScalingProbe -o F)
the way docs/benchmarks.md's report judges issue 3's goals: per apply model and scheduler, 1024 workers against each
other count as the median over rounds of the paired per-round ratio, the worst of them (goal: at least 90%), and with a
1 ms apply 10 workers against 1 on the medians (goal: at least 9x on the partition scheduler). One line per file.
  scripts/bench/core-probe-judge.py FILE.json [FILE.json ...]"""
import json, sys, statistics
for f in sys.argv[1:]:
    d = json.load(open(f)); res = []
    by = {}
    for m in d['medians']:
        by.setdefault((m['apply'], m['model']), {})[m['workers']] = m['rounds']
    out = []
    for (a, mo), w in sorted(by.items()):
        if 1024 in w:
            worst = min(statistics.median([x / y for x, y in zip(w[1024], w[c])]) for c in w if c != 1024)
            out.append(f"{a}/{mo} 1024:{worst*100:.0f}%")
        if a == 'latency' and 10 in w and 1 in w:
            out.append(f"{a}/{mo} 10v1:{statistics.median(w[10])/statistics.median(w[1]):.2f}x")
    print(f.split('/')[-1], ' '.join(out))

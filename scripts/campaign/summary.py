#!/usr/bin/env python3
"""Summarises CampaignTest's results.tsv (one line per seed and target) as the Markdown tables of docs/reliability.md.

usage: scripts/campaign/summary.py applier/target/campaign/results.tsv [more.tsv ...]
"""
import collections
import sys

OUTCOMES = ["exact", "policy", "known_defect", "open_bug", "bug"]
TARGETS = ["h2", "postgresql", "mariadb", "sink", "mariadb-replica"]

cells = collections.defaultdict(collections.Counter)
per_target = collections.defaultdict(collections.Counter)
reasons = collections.Counter()
seeds = set()
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 7:
                continue
            seed, group, _settings, target, _lanes, outcome, detail = parts[:7]
            seeds.add(seed)
            cells[(group, target)][outcome] += 1
            per_target[target][outcome] += 1
            if outcome not in ("exact", "bug"):
                reasons[(target, outcome, detail.split(":")[0])] += 1

print(f"{len(seeds)} seeds\n")
print("| settings (row image / metadata / compression) | target | runs | exact | policy | known defect | open bug | bug |")
print("|---|---|---|---|---|---|---|---|")
for (group, target) in sorted(cells, key=lambda k: (k[0], TARGETS.index(k[1]) if k[1] in TARGETS else 99)):
    c = cells[(group, target)]
    print(f"| {group} | {target} | {sum(c.values())} | " + " | ".join(str(c[o]) for o in OUTCOMES) + " |")
print("\n| target | runs | exact | policy | known defect | open bug | bug |")
print("|---|---|---|---|---|---|---|")
for target in TARGETS:
    c = per_target[target]
    if c:
        print(f"| {target} | {sum(c.values())} | " + " | ".join(str(c[o]) for o in OUTCOMES) + " |")
print("\n| target | outcome | reason | runs |")
print("|---|---|---|---|")
for (target, outcome, reason), n in sorted(reasons.items()):
    print(f"| {target} | {outcome} | {reason} | {n} |")

#!/usr/bin/env python3
"""Paired ratios of two settings from realistic-workloads.sh's TSV files.

    scripts/bench/paired-ratios.py [--against SETTING] [--setting SETTING] [--unchecked] FILE.tsv [FILE.tsv ...]

For each workload (and variant), every round that ran both settings gives one ratio, SETTING's tx/s over AGAINST's
(defaults: writeset:4:partition, the shipped default, over schema:4:partition). Printed per workload: the rounds, how
many the setting was higher in, the geometric mean of the ratios with a 95% confidence interval (Student's t on the
logarithms: the rounds are independent and the ratio is a product of the run's speeds), the ratio of the sums of
tx/s, and the lowest and highest round. Rounds of several files are pooled (a round number is only unique within
its file). A run that did not end exact (other than 'yes', 'rows' on PostgreSQL, or 'count' from quick-pairs.sh, which
compares row counts only) is reported and left out; --unchecked also takes runs whose final state was not checked
('-', as in round17/precursor-series.tsv). Where the files carry
the Lanes process's CPU seconds (an eleventh column, mixed-workload.sh since it prints them), the same is printed
for them: the setting's CPU over AGAINST's, paired by round, and the mean CPU seconds of each.
"""
import math
import sys

# Student's t, two-sided 95%, by degrees of freedom (1-30; beyond, the normal's 1.96 is within 2%).
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
       2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def t95(df):
    return T95[df - 1] if df <= len(T95) else 1.96 + 2.4 / df


def main(argv):
    setting, against, files, unchecked = "writeset:4:partition", "schema:4:partition", [], False
    i = 0
    while i < len(argv):
        if argv[i] == "--setting":
            setting = argv[i + 1]
            i += 2
        elif argv[i] == "--unchecked":
            unchecked = True
            i += 1
        elif argv[i] == "--against":
            against = argv[i + 1]
            i += 2
        else:
            files.append(argv[i])
            i += 1
    if not files:
        sys.exit(__doc__)
    runs = {}  # (file, round, workload, variant) -> {setting: tx/s}
    cpus = {}  # the same -> {setting: the Lanes process's CPU seconds}
    for f in files:
        with open(f) as lines:
            for line in lines:
                if line.startswith("#") or not line.strip():
                    continue
                cols = line.rstrip("\n").split("\t")
                rnd, workload, variant, s, tps, exact = cols[0], cols[1], cols[2], cols[3], cols[5], cols[9]
                # rows: PostgreSQL, every table's rows equal to MariaDB's copy; count: quick-pairs.sh, row counts equal
                if exact not in ("yes", "rows", "count") and not (unchecked and exact == "-"):
                    print(f"not exact, left out: {f} round {rnd} {workload} {variant} {s}")
                    continue
                runs.setdefault((f, rnd, workload, variant), {})[s] = float(tps)
                if len(cols) > 10 and cols[10] not in ("", "-"):
                    cpus.setdefault((f, rnd, workload, variant), {})[s] = float(cols[10])
    report(f"{setting} over {against}, tx/s", pair(runs, setting, against))
    if cpus:
        print()
        report(f"Lanes process CPU seconds, {setting} over {against}", pair(cpus, setting, against))


def pair(figures, setting, against):
    """(workload, variant) -> [(the setting's figure, against's)] over the rounds that ran both."""
    by_workload = {}
    for (f, rnd, workload, variant), values in figures.items():
        if setting in values and against in values and values[against] > 0:
            by_workload.setdefault((workload, variant), []).append((values[setting], values[against]))
    return by_workload


def report(title, by_workload):
    print(title)
    print("workload\tvariant\trounds\thigher\tgeomean\t95% CI\tsum ratio\tlowest\thighest\tmeans")
    for (workload, variant), pairs in sorted(by_workload.items()):
        logs = [math.log(a / b) for a, b in pairs]
        n = len(logs)
        mean = sum(logs) / n
        ci = ""
        if n > 1:
            sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (n - 1))
            half = t95(n - 1) * sd / math.sqrt(n)
            ci = f"{math.exp(mean - half):.3f}-{math.exp(mean + half):.3f}"
        ahead = sum(1 for a, b in pairs if a > b)
        total = sum(a for a, _ in pairs) / sum(b for _, b in pairs)
        ratios = [a / b for a, b in pairs]
        means = f"{sum(a for a, _ in pairs) / n:.3f} vs {sum(b for _, b in pairs) / n:.3f}"
        print(f"{workload}\t{variant}\t{n}\t{ahead}\t{math.exp(mean):.3f}\t{ci}\t{total:.3f}\t"
              f"{min(ratios):.2f}\t{max(ratios):.2f}\t{means}")


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""Compares the speed of two latsim binaries on a shared machine.

    Benchmarks/compare-binaries.py OLD NEW [--pairs 41] [--duration 20000s]
                                   [--scenario ios9-coalescing-120hz]

Runs `run SCENARIO --duration D` with each binary in turn, in pairs whose
order alternates, and takes each run's CPU time (user + system, from
wait4). A machine that other work shares changes speed by a factor of two
from one second to the next, so each pair's ratio NEW / OLD is taken from
two runs a fraction of a second apart, and the median and quartiles of
the pairs' ratios are printed. A binary against itself gives a median
within 1% of 1 and quartiles within about 10%.

Exit status: 0, or 2 when a binary cannot be run or fails.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile


def cpu_seconds(binary, scenario, duration):
    # the run's messages go to a file, not a pipe: a pipe nobody reads
    # until the run ends could fill and stop it
    with tempfile.TemporaryFile() as err:
        try:
            p = subprocess.Popen([binary, "run", scenario, "--duration", duration],
                                 stdout=subprocess.DEVNULL, stderr=err)
        except OSError as e:
            print(f"compare-binaries: cannot run {binary}: {e.strerror}", file=sys.stderr)
            sys.exit(2)
        _, status, usage = os.wait4(p.pid, 0)
        if status != 0:
            err.seek(0)
            message = err.read().decode(errors="replace").strip()
            print(f"compare-binaries: {binary} run {scenario} --duration {duration} failed: {message}", file=sys.stderr)
            sys.exit(2)
    seconds = usage.ru_utime + usage.ru_stime
    if seconds <= 0:
        print(f"compare-binaries: {binary} run {scenario} --duration {duration} took no measurable CPU time; "
              "give a longer --duration", file=sys.stderr)
        sys.exit(2)
    return seconds


def main():
    ap = argparse.ArgumentParser(description="CPU time of NEW over OLD, by interleaved pairs of runs.")
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--pairs", type=int, default=41)
    ap.add_argument("--duration", default="20000s")
    ap.add_argument("--scenario", default="ios9-coalescing-120hz")
    a = ap.parse_args()
    if a.pairs < 3:
        ap.error("--pairs must be at least 3")
    old, new, ratios = [], [], []
    for i in range(a.pairs):
        if i % 2 == 0:
            o = cpu_seconds(a.old, a.scenario, a.duration)
            n = cpu_seconds(a.new, a.scenario, a.duration)
        else:
            n = cpu_seconds(a.new, a.scenario, a.duration)
            o = cpu_seconds(a.old, a.scenario, a.duration)
        old.append(o)
        new.append(n)
        ratios.append(n / o)
    q1, _, q3 = statistics.quantiles(ratios, n=4)
    print(f"{a.scenario}, --duration {a.duration}, {a.pairs} pairs")
    print(f"  CPU time, median: old {statistics.median(old):.4f} s, new {statistics.median(new):.4f} s")
    print(f"  new / old within a pair: median {statistics.median(ratios):.3f}, quartiles {q1:.3f} to {q3:.3f}")


if __name__ == "__main__":
    main()

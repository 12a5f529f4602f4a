#!/usr/bin/env python3
"""Times commands interleaved: every round runs each command once, in an order shuffled
per round, so a machine that drifts by a millisecond over minutes (this one does) moves
every command alike instead of whichever ran in that block. hyperfine runs one command's
runs in a block, and its ratio then carries the drift between blocks.

    interleave.py ROUNDS WARMUP BASE_LABEL -- BASE_ARGV... -- LABEL -- ARGV... [-- LABEL -- ARGV...]

Each command is started with posix_spawn (output to /dev/null) and reaped with waitpid;
the time is from just before the spawn to just after the reaping, so every command
carries the same few tens of microseconds of Python. Prints each command's median and
its ratio to the base's median, and the median of the per-round ratios with a bootstrap
95% interval (the rounds are paired: both ran within the same few hundred milliseconds).
A command that exits non-zero stops the run: a failing poll is not a fast one.
TARGET=1.05 in the environment adds each command's verdict: its median within TARGET
times the base's.
"""
import os
import random
import statistics
import sys
import time


def parse(argv):
    rounds, warmup = int(argv[0]), int(argv[1])
    rest, commands = argv[2:], []
    while rest:
        label = rest[0]
        if len(rest) < 3 or rest[1] != "--":
            sys.exit("usage: interleave.py ROUNDS WARMUP LABEL -- ARGV... [-- LABEL -- ARGV...]")
        rest = rest[2:]
        end = rest.index("--") if "--" in rest else len(rest)
        commands.append((label, rest[:end]))
        rest = rest[end + 1:]
    if len(commands) < 2:
        sys.exit("interleave.py needs a base command and at least one more")
    return rounds, warmup, commands


def run_once(argv):
    actions = [
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
    ]
    start = time.perf_counter_ns()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    elapsed = time.perf_counter_ns() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} exited with {os.waitstatus_to_exitcode(status)}")
    return elapsed / 1e6


def main():
    rounds, warmup, commands = parse(sys.argv[1:])
    order = random.Random(20261205)
    times = {label: [] for label, _ in commands}
    for n in range(warmup + rounds):
        shuffled = commands[:]
        order.shuffle(shuffled)
        for label, argv in shuffled:
            elapsed = run_once(argv)
            if n >= warmup:
                times[label].append(elapsed)
    base_label = commands[0][0]
    base = times[base_label]
    base_median = statistics.median(base)
    width = max(len(label) for label, _ in commands)
    print(f"{rounds} rounds, each command once per round in a shuffled order; medians:")
    print(f"  {base_label:{width}}  {base_median:8.2f} ms")
    resample = random.Random(7)
    for label, _ in commands[1:]:
        ms = times[label]
        median = statistics.median(ms)
        paired = [a / b for a, b in zip(ms, base)]
        boot = sorted(
            statistics.median(resample.choices(paired, k=len(paired))) for _ in range(2000))
        low, high = boot[50], boot[1949]
        print(f"  {label:{width}}  {median:8.2f} ms  {median / base_median:.3f}x "
              f"(per-round ratio median {statistics.median(paired):.3f}x, 95% {low:.3f}-{high:.3f})")
        if os.environ.get("TARGET"):
            target = float(os.environ["TARGET"])
            print(f"  target met: within {target}x" if median <= target * base_median
                  else f"  TARGET MISSED: slower than {target}x")
    return times


if __name__ == "__main__":
    main()

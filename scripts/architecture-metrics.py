#!/usr/bin/env python3
"""Architecture figures for the renovation's before/after: run from the checkout.

Prints the CLI module's line count, its five longest functions, and every downcast
(`as?`/`as!`) to a concrete reader, plan or store anywhere in Sources/.
Usage: scripts/architecture-metrics.py [SOURCES_DIR]
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "Sources"
CONCRETE = re.compile(
    r"\bas[?!]\s*(LibNFCReader|PCSCReader|SimulatedReader|GridPlan|AdaptivePlan|SpiralPlan|"
    r"SQLiteBenchStore|PostgresLabStore|InMemoryBenchStore|\w+Reader\b|\w+Plan\b|\w+Store\b)")
FUNC = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|static|mutating|"
                  r"nonisolated|override|final|package|consuming|borrowing)\s+)*(func\s+\w+|init[?!]?\s*[(<])")


def swift_files(folder):
    for base, _, names in os.walk(folder):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(base, name)


def functions(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    for i, line in enumerate(lines):
        match = FUNC.match(line)
        if not match:
            continue
        depth, opened = 0, False
        for j in range(i, len(lines)):
            code = re.sub(r'"(?:\\.|[^"\\])*"', '""', lines[j].split("//")[0])
            depth += code.count("{") - code.count("}")
            opened = opened or "{" in code
            if opened and depth <= 0:
                yield j - i + 1, f"{path}:{i + 1}", match.group(1).replace("func ", "").rstrip("(<")
                break


cli = os.path.join(root, "NFCBenchCLI")
cli_lines = sum(len(open(p, encoding="utf-8").read().split("\n")) - 1 for p in swift_files(cli))
print(f"CLI module lines: {cli_lines}")
longest = sorted(functions_ for p in swift_files(cli) for functions_ in functions(p))[::-1][:5]
print("CLI longest functions:")
for length, where, name in longest:
    print(f"  {length:4d}  {name}  {where}")
casts = []
for p in swift_files(root):
    for n, line in enumerate(open(p, encoding="utf-8"), 1):
        if CONCRETE.search(line.split("//")[0]):
            casts.append(f"{p}:{n}: {line.strip()}")
print(f"downcasts to concrete readers, plans and stores: {len(casts)}")
for c in casts:
    print("  " + c)

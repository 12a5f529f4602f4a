#!/usr/bin/env python3
"""Corruption study: random damage to a bench store, then `nfcbench export --all`.
Usage: corrupt_study.py NFCBENCH_BIN WORKDIR N
"""
import os, random, shutil, subprocess, sys

binary, work, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
intact = os.path.join(work, "intact.sqlite")
for seed in range(12):
    subprocess.run([binary, "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid",
                    "--tap-timeout", "0.1", "--sim-seed", str(seed + 1), "--db", intact],
                   check=True, stdout=subprocess.DEVNULL)
reference = subprocess.run([binary, "export", "--all", "--db", intact], capture_output=True, check=True).stdout
size = os.path.getsize(intact)
page = 4096
pages = size // page
rng = random.Random(2026)
KINDS = ["flip bytes", "zero page", "truncate", "random page"]
counts = {k: {"refused": 0, "identical": 0, "different": 0, "other error": 0} for k in KINDS}
baseline = {"error": 0, "identical": 0, "different": 0}
reference_dump = subprocess.run(["sqlite3", intact, ".dump"], capture_output=True).stdout
for trial in range(n):
    kind = KINDS[trial % len(KINDS)]
    damaged = os.path.join(work, f"damaged-{trial}.sqlite")
    shutil.copy(intact, damaged)
    with open(damaged, "r+b") as f:
        target = rng.randrange(pages)
        if kind == "flip bytes":
            for _ in range(rng.randint(1, 8)):
                offset = target * page + rng.randrange(page)
                f.seek(offset); b = f.read(1); f.seek(offset); f.write(bytes([b[0] ^ (1 << rng.randrange(8))]))
        elif kind == "zero page":
            f.seek(target * page); f.write(bytes(page))
        elif kind == "truncate":
            f.truncate(max(1, target) * page)
        else:
            f.seek(target * page); f.write(bytes(rng.randrange(256) for _ in range(page)))
    r = subprocess.run([binary, "export", "--all", "--db", damaged], capture_output=True)
    if r.returncode == 65:
        outcome = "refused"
    elif r.returncode == 0:
        outcome = "identical" if r.stdout == reference else "different"
    else:
        outcome = "other error"
    counts[kind][outcome] += 1
    if outcome in ("different", "other error"):
        print(f"  trial {trial} ({kind}, page {target}): {outcome}, exit {r.returncode}: {r.stderr.decode()[:160]}")
    d = subprocess.run(["sqlite3", damaged, ".dump"], capture_output=True)
    if d.returncode != 0 or b"ERROR" in d.stdout or d.stderr:
        baseline["error"] += 1
    else:
        baseline["identical" if d.stdout == reference_dump else "different"] += 1
    os.remove(damaged)

taps = reference.count(b"\n") - 1
print(f"store: {pages} pages of {page} bytes, {taps} taps; {n} damaged copies")
for kind in KINDS:
    c = counts[kind]
    print(f"  {kind:<12} refused (exit 65) {c['refused']:4}  exported identical {c['identical']:4}  "
          f"exported DIFFERENT {c['different']:4}  other error {c['other error']:4}")
total_different = sum(c["different"] for c in counts.values())
print(f"baseline sqlite3 .dump (no check): error {baseline['error']}, identical {baseline['identical']}, "
      f"silently different {baseline['different']}")
print("target met: no damaged store exported differently with exit 0" if total_different == 0
      else f"TARGET MISSED: {total_different} damaged store(s) exported differently with exit 0")

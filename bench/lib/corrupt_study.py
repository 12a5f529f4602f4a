#!/usr/bin/env python3
"""Corruption study: random damage to a bench store, then every command that reads or
writes it. Usage: corrupt_study.py NFCBENCH_BIN WORKDIR N

Each damaged copy is read by `export` (to standard output and to a file), `sessions`
(text and JSON), `show`, `report --format csv-sessions` and `refine`, and written by
`void`. Every outcome is classified:
- refused: exit 65, the damaged-file error with its recovery hint, nothing on stdout;
- whole: exit 0 and, for exports and reports, exactly the intact store's output;
- partial: exit 4, damaged sessions named on stderr (issue 49, F14);
- DIFFERENT: exit 0 with output that differs from the intact store's (target 0);
- inconsistent: any other exit code, or a raw SQL statement in the message (target 0).
`void` must also leave a file it refused byte for byte as it was (target 0 writes).
`sqlite3 .dump` of the same files, which reads without a check, is the baseline measured
in the same run.
"""
import os, random, shutil, subprocess, sys

binary, work, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
intact = os.path.join(work, "intact.sqlite")
for seed in range(12):
    subprocess.run([binary, "run", "--model", "SM-S921B", "--reader", "sim", "--auto", "--plan", "grid",
                    "--tap-timeout", "0.1", "--sim-seed", str(seed + 1), "--db", intact, "--no-report"],
                   check=True, stdout=subprocess.DEVNULL)
sessions = subprocess.run([binary, "sessions", "--db", intact, "--json"], capture_output=True, check=True).stdout
first_id = sessions.split(b'"sessionId" : "')[1].split(b'"')[0].decode() if b'"sessionId" : "' in sessions else \
    sessions.split(b'"sessionId": "')[1].split(b'"')[0].decode()

COMMANDS = {
    "export": ["export", "--all"],
    "export -o": ["export", "--all", "-o", "{out}"],
    "sessions": ["sessions"],
    "sessions --json": ["sessions", "--json"],
    "show": ["show", first_id],
    "report csv": ["report", "--all", "--include-simulated", "--format", "csv-sessions"],
    "refine": ["refine", "--all", "--include-simulated"],
    "void": ["void", first_id, "--reason", "corruption study"],
}
# Outputs compared with the intact store's: the ones a lab files or feeds a script.
COMPARED = {"export", "export -o", "report csv", "sessions --json"}


def run(name, db, out):
    arguments = [a.replace("{out}", out) for a in COMMANDS[name]]
    r = subprocess.run([binary] + arguments + ["--db", db], capture_output=True)
    content = open(out, "rb").read() if name == "export -o" and os.path.exists(out) else r.stdout
    return r.returncode, content, r.stderr.decode(errors="replace")


reference = {}
for name in COMMANDS:
    if name == "void":
        continue
    scratch = os.path.join(work, "reference.out")
    code, content, err = run(name, intact, scratch)
    assert code == 0, (name, code, err)
    reference[name] = content

size = os.path.getsize(intact)
page = 4096
pages = size // page
rng = random.Random(2026)
KINDS = ["flip bytes", "zero page", "truncate", "random page"]
OUTCOMES = ["refused", "whole", "partial", "DIFFERENT", "inconsistent"]
counts = {c: {o: 0 for o in OUTCOMES} for c in COMMANDS}
by_kind = {k: {o: 0 for o in OUTCOMES} for k in KINDS}
void_wrote = 0
baseline = {"error": 0, "identical": 0, "different": 0}
reference_dump = subprocess.run(["sqlite3", intact, ".dump"], capture_output=True).stdout
for trial in range(n):
    kind = KINDS[trial % len(KINDS)]
    damaged = os.path.join(work, f"damaged-{trial}.sqlite")
    shutil.copy(intact, damaged)
    with open(damaged, "r+b") as f:
        target = rng.randrange(pages)
        if kind == "flip bytes":
            for _ in range(rng.randint(1, 20)):
                offset = target * page + rng.randrange(page)
                f.seek(offset); b = f.read(1); f.seek(offset); f.write(bytes([b[0] ^ (1 << rng.randrange(8))]))
        elif kind == "zero page":
            f.seek(target * page); f.write(bytes(page))
        elif kind == "truncate":
            f.truncate(max(1, target) * page)
        else:
            f.seek(target * page); f.write(bytes(rng.randrange(256) for _ in range(page)))
    damaged_bytes = open(damaged, "rb").read()
    for name in COMMANDS:
        out = os.path.join(work, f"out-{trial}.csv")
        code, content, err = run(name, damaged, out)
        if os.path.exists(out):
            os.remove(out)
        raw_sql = any(word in err for word in ("SELECT ", "INSERT ", "UPDATE ", "PRAGMA "))
        if code == 65 and "is damaged" in err and ".recover" in err and not content and not raw_sql:
            outcome = "refused"
        elif code == 0 and not raw_sql:
            outcome = "whole" if name not in COMPARED or content == reference[name] else "DIFFERENT"
        elif code == 4 and "damaged session" in (err + content.decode(errors="replace")) and not raw_sql:
            outcome = "partial"
        else:
            outcome = "inconsistent"
        if name == "void" and code != 0 and open(damaged, "rb").read() != damaged_bytes:
            void_wrote += 1
            print(f"  trial {trial} ({kind}, page {target}): void exit {code} but wrote into the file")
        counts[name][outcome] += 1
        by_kind[kind][outcome] += 1
        if outcome in ("DIFFERENT", "inconsistent"):
            print(f"  trial {trial} ({kind}, page {target}) {name}: {outcome}, exit {code}: {err[:160]!r}")
    d = subprocess.run(["sqlite3", damaged, ".dump"], capture_output=True)
    if d.returncode != 0 or b"ERROR" in d.stdout or d.stderr:
        baseline["error"] += 1
    else:
        baseline["identical" if d.stdout == reference_dump else "different"] += 1
    os.remove(damaged)

taps = reference["export"].count(b"\n") - 1
print(f"store: {pages} pages of {page} bytes, {taps} taps; {n} damaged copies, {len(COMMANDS)} commands each")
print(f"  {'command':<16}" + "".join(f"{o:>14}" for o in OUTCOMES))
for name in COMMANDS:
    print(f"  {name:<16}" + "".join(f"{counts[name][o]:>14}" for o in OUTCOMES))
for kind in KINDS:
    print(f"  {kind:<16}" + "".join(f"{by_kind[kind][o]:>14}" for o in OUTCOMES))
print(f"void wrote into a file it refused: {void_wrote}")
print(f"baseline sqlite3 .dump (no check): error {baseline['error']}, identical {baseline['identical']}, "
      f"silently different {baseline['different']}")
bad = sum(counts[c]["DIFFERENT"] + counts[c]["inconsistent"] for c in COMMANDS) + void_wrote
print("target met: every damaged copy refused (65), whole (0) or partial and named (4); no writes into one"
      if bad == 0 else f"TARGET MISSED: {bad} outcome(s) different, inconsistent or written")

#!/usr/bin/env python3
"""Crash-safety soak: kill -9 at random moments of runs, exports and refines.
Usage: soak_study.py NFCBENCH_BIN WORKDIR PCSC_READER PCSC_BENCH_DIR N
"""
import os, random, signal, sqlite3, subprocess, sys, time

binary, work, pcsc_reader, pcsc_bench, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
rng = random.Random(2026)
db = os.path.join(work, "bench.sqlite")
stats = {"trials": 0, "runs killed": 0, "exports killed": 0, "refines killed": 0, "taps committed": 0, "lost": 0,
         "duplicated": 0, "corrupt": 0, "partial files": 0, "resume failures": 0}
problems = []

def taps(session_id):
    con = sqlite3.connect(db)
    rows = con.execute("SELECT step, attempt, result, timestamp FROM tap WHERE session_id = ?", (session_id,)).fetchall()
    con.close()
    return rows

def check_store(label):
    out = subprocess.run(["sqlite3", db, "PRAGMA integrity_check"], capture_output=True, text=True).stdout.strip()
    exported = subprocess.run([binary, "export", "--all", "--db", db], capture_output=True)
    if out != "ok" or exported.returncode != 0:
        stats["corrupt"] += 1
        problems.append(f"{label}: integrity {out[:80]}, export exit {exported.returncode} {exported.stderr[:120]}")
    return exported.stdout

def kill_after(cmd, delay, env=None):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    time.sleep(delay)
    if p.poll() is None:
        os.kill(p.pid, signal.SIGKILL)
    p.wait()
    return p.returncode

def run_trial(stack, trial):
    bench_dir = os.path.join(work, f"bench-{trial}")
    serve = None
    if stack == "libnfc":
        serve = subprocess.Popen([binary, "sim", "serve", "--dir", bench_dir, "--antenna", "0.1,0.36,0.8,0.38",
                                  "--miss-rate", "0", "--seed", str(trial + 1)],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        serve.stdout.readline()
        reader = f"libnfc:pn532_uart:{bench_dir}/pn532"
    else:
        subprocess.run([binary, "sim", "ctl", "--dir", pcsc_bench, "antenna", "0.1", "0.36", "0.8", "0.38"], capture_output=True)
        reader = f"pcsc:{pcsc_reader}"
    try:
        con = sqlite3.connect(db) if os.path.exists(db) else None
        before = {r[0] for r in con.execute("SELECT id FROM session")} if con else set()
        if con: con.close()
        kill_after([binary, "run", "--model", "SM-S921B", "--reader", reader, "--positioner", "sim", "--auto",
                    "--plan", "grid", "--tap-timeout", "0.3", "--db", db], rng.uniform(0.3, 6.0))
        stats["runs killed"] += 1
        con = sqlite3.connect(db)
        new = [r[0] for r in con.execute("SELECT id FROM session") if r[0] not in before]
        status = dict(con.execute("SELECT id, status FROM session"))
        con.close()
        check_store(f"run {trial}")
        for sid in new:
            committed = taps(sid)
            stats["taps committed"] += len(committed)
            if status[sid] == "in_progress":
                r = subprocess.run([binary, "run", "--resume", sid, "--reader", reader, "--positioner", "sim", "--auto",
                                    "--db", db], capture_output=True, text=True)
                if r.returncode != 0:
                    stats["resume failures"] += 1
                    problems.append(f"resume {sid}: exit {r.returncode} {r.stderr[-160:]}")
            after = taps(sid)
            keys = [(s, a) for s, a, _, _ in after]
            stats["duplicated"] += len(keys) - len(set(keys))
            stats["lost"] += sum(1 for t in committed if t not in after)
    finally:
        if serve:
            serve.terminate()
            serve.wait()

def file_trial(kind, trial):
    target = os.path.join(work, "report.csv" if kind == "export" else "patch.json")
    cmd = ([binary, "export", "--all", "-o", target, "--db", db] if kind == "export"
           else [binary, "refine", "--model", "SM-S921B", "--include-simulated", "-o", target, "--db", db])
    subprocess.run(cmd, capture_output=True)  # a complete one first
    before = open(target, "rb").read() if os.path.exists(target) else None
    kill_after(cmd, rng.uniform(0.0, 0.4))
    stats["exports killed" if kind == "export" else "refines killed"] += 1
    after = open(target, "rb").read() if os.path.exists(target) else None
    subprocess.run(cmd, capture_output=True)  # what a complete write gives now
    fresh = open(target, "rb").read() if os.path.exists(target) else None
    if not (after == before or after == fresh):
        # refine stamps times: accept any patch that validates; exports must match exactly.
        valid = kind == "refine" and subprocess.run([binary, "catalog", "validate", target], capture_output=True).returncode == 0
        if not valid:
            stats["partial files"] += 1
            problems.append(f"{kind} {trial}: destination neither the old nor a complete file")
    check_store(f"{kind} {trial}")

for trial in range(n):
    stats["trials"] += 1
    choice = trial % 4
    if choice == 0: run_trial("libnfc", trial)
    elif choice == 1: run_trial("pcsc", trial)
    elif choice == 2: file_trial("export", trial)
    else: file_trial("refine", trial)

for key, value in stats.items():
    print(f"{key:<18} {value}")
for p in problems[:10]:
    print("  " + p)
bad = stats["lost"] + stats["duplicated"] + stats["corrupt"] + stats["partial files"] + stats["resume failures"]
print("target met: 0 lost, 0 duplicated, 0 corrupt, no partial file, every killed run resumed" if bad == 0
      else "TARGET MISSED")

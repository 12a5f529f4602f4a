#!/usr/bin/env python3
"""Fault study: reader faults injected during guided runs, through libnfc and PC/SC.

Each session is a real `nfcbench run` (release build) on the virtual bench, with an exec
positioner that injects a fault just before chosen positions are tapped (some where the
phone is, some where it is not) and clears it 1.5 s later, logging both times. After each
session the store is read back: a MISS recorded while the reader was faulty, a position
without a tap, or a position tapped twice is a failure (a HIT during a fault is a phone
that did answer, so it is counted but allowed). Prints the totals.
In tag mode (MODE tag) the emulated PN532 waits as a Type 4 tag and the phone reads it:
libnfc only (PC/SC readers do not emulate here), and the same faults, injected as the
phone is placed and also part way into the window (where only the window's closing link
check can tell a fault from an empty field).
Usage: fault_study.py NFCBENCH_BIN WORKDIR PCSC_READER PCSC_BENCH_DIR SESSIONS_PER_STACK [card|tag]
"""
import json, os, sqlite3, subprocess, sys, time

binary, work, pcsc_reader, pcsc_bench, per_stack = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
mode = sys.argv[6] if len(sys.argv) > 6 else "card"
FAULTS = ["garbage", "slow", "mute", "unplug"]
# S24 grid pass 0: positions 1-3 probe the predicted zone (the phone sits there on this
# bench), 13-15 lie below the coil (no phone).
WITH_PHONE, WITHOUT_PHONE = [0, 1, 2], [12, 13, 14]

HELPER = """#!/bin/sh
# positioner helper: $1 action, $2 index, $3 x, $4 y; env CTL, PLAN (index:fault ...), LOG
for entry in $PLAN; do
  idx=${entry%%:*}; fault=${entry#*:}
  if [ "$1" = place ] && [ "$2" = "$idx" ] && [ ! -e "$LOG.$idx" ]; then
    touch "$LOG.$idx"
    # DELAY: how far into the window the fault starts (0: as the phone is placed).
    (sleep ${DELAY:-0}; $CTL fault $fault > /dev/null; echo "$idx $fault inject $(date +%s.%N)" >> "$LOG";
     sleep 1.5; $CTL fault none; echo "$idx $fault clear $(date +%s.%N)" >> "$LOG") > /dev/null 2>&1 &
  fi
done
$CTL "$1" $3 $4 > /dev/null
"""

def run_session(stack, n, bench_dir, reader):
    session_dir = os.path.join(work, f"{stack}-{n}")
    os.makedirs(session_dir, exist_ok=True)
    helper = os.path.join(session_dir, "move.sh")
    with open(helper, "w") as f:
        f.write(HELPER)
    os.chmod(helper, 0o755)
    log = os.path.join(session_dir, "faults.log")
    plan = []
    for k in range(4):  # two faults where the phone is, two where it is not
        positions = WITH_PHONE if k % 2 == 0 else WITHOUT_PHONE
        plan.append(f"{positions[(n + k) % 3]}:{FAULTS[(n * 4 + k) % len(FAULTS)]}")
    if stack == "pcsc":  # an unplugged vpcd reader needs pcscd to see it again: keep to link faults
        plan = [p.replace("unplug", "garbage") for p in plan]
    db = os.path.join(session_dir, "bench.sqlite")
    # Half the tag-mode sessions start their faults 0.3 s into a 1 s window.
    delay = "0.3" if mode == "tag" and n % 2 == 1 else "0"
    env = dict(os.environ, CTL=f"{binary} sim ctl --dir {bench_dir}", PLAN=" ".join(plan), LOG=log, DELAY=delay)
    start = time.time()
    window = "1" if mode == "tag" else "0.5"
    r = subprocess.run([binary, "run", "--plan", "grid", "--model", "SM-S921B", "--reader", reader, "--positioner",
                        f"exec:{helper} {{action}} {{index}} {{x}} {{y}}", "--auto", "--tap-timeout", window,
                        "--mode", mode, "--fault-timeout", "60", "--db", db, "--json"], env=env, capture_output=True, text=True)
    elapsed = time.time() - start
    faults = {}
    if os.path.exists(log):
        for line in open(log):
            idx, fault, what, at = line.split()
            faults.setdefault(int(idx), {"fault": fault})[what] = float(at)
    con = sqlite3.connect(db)
    status = con.execute("SELECT status FROM session").fetchone()[0]
    positions = json.loads(con.execute("SELECT plan_json FROM session").fetchone()[0])
    taps = con.execute("SELECT step, result, timestamp FROM tap").fetchall()
    con.close()
    during_fault = [t for t in taps for f in faults.values()
                    if "inject" in f and f["inject"] <= t[2] <= f.get("clear", float("inf")) and t[1] in ("MISS", "HIT", "PARTIAL")]
    steps = [t[0] for t in taps]
    return {
        "stack": stack, "exit": r.returncode, "status": status, "faults": len(faults),
        "with_phone": sum(1 for i in faults if i in WITH_PHONE), "taps": len(taps),
        "recorded_while_faulty": len(during_fault),
        "misses_while_faulty": sum(1 for t in during_fault if t[1] == "MISS"),
        "lost": len(positions) - len(set(steps)) if status == "completed" else 0,
        "duplicated": len(steps) - len(set(steps)), "seconds": elapsed, "stderr": r.stderr[-300:],
        "kinds": [f["fault"] for f in faults.values()],
    }

results = []
for n in range(per_stack):
    bench_dir = os.path.join(work, f"bench-{n}")
    serve = subprocess.Popen([binary, "sim", "serve", "--dir", bench_dir, "--antenna", "0.1,0.36,0.8,0.38", "--miss-rate", "0",
                              "--seed", str(n + 1)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    serve.stdout.readline()  # its ready line
    try:
        results.append(run_session("libnfc", n, bench_dir, f"libnfc:pn532_uart:{bench_dir}/pn532"))
    finally:
        serve.terminate()
        serve.wait()
if pcsc_reader and mode == "card":
    subprocess.run([binary, "sim", "ctl", "--dir", pcsc_bench, "antenna", "0.1", "0.36", "0.8", "0.38"], capture_output=True)
    for n in range(per_stack):
        subprocess.run([binary, "sim", "ctl", "--dir", pcsc_bench, "power-cycle"], capture_output=True)
        results.append(run_session("pcsc", n, pcsc_bench, f"pcsc:{pcsc_reader}"))

for stack in ("libnfc", "pcsc"):
    rs = [r for r in results if r["stack"] == stack]
    if not rs:
        continue
    print(f"{stack:7}  mode {mode}  sessions {len(rs):3}  faults {sum(r['faults'] for r in rs):4} "
          f"({sum(r['with_phone'] for r in rs)} with the phone)  taps {sum(r['taps'] for r in rs):5}  "
          f"recorded while faulty {sum(r['recorded_while_faulty'] for r in rs)} "
          f"(MISS {sum(r['misses_while_faulty'] for r in rs)})  lost {sum(r['lost'] for r in rs)}  "
          f"duplicated {sum(r['duplicated'] for r in rs)}  completed {sum(1 for r in rs if r['status'] == 'completed')}"
          f"/{len(rs)}  mean session {sum(r['seconds'] for r in rs) / len(rs):.1f} s")
    kinds = [k for r in rs for k in r["kinds"]]
    print("         by kind: " + ", ".join(f"{k} {kinds.count(k)}" for k in FAULTS if kinds.count(k)))
bad = [r for r in results if r["misses_while_faulty"] or r["lost"] or r["duplicated"]
       or (r["status"] != "completed" and r["exit"] not in (1, 75, 130))]
total = sum(r["faults"] for r in results)
print(f"total faults {total}: " + ("target met: 0 MISS recorded while the reader was faulty, 0 lost, 0 duplicated, every run completed or resumable"
                                    if not bad else f"TARGET MISSED in {len(bad)} session(s): {bad}"))

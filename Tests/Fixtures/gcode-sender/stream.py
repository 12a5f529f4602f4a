#!/usr/bin/env python3
"""An outside G-code sender, written from the firmwares' documented protocols and not
from nfcbench's code, that the emulated machines are checked against.

GRBL 1.1 (gnea/grbl doc/markdown/interface.md, "Streaming Protocol: Simple
Send-Response"): send one line, wait for its `ok` or `error:N`; real-time `?` gets a
`<State|MPos:...>` report at any time; `$X` kills the alarm lock. Marlin: one line, wait
for `ok` (skipping `echo:` and `busy:` lines); `M400` waits for the moves; `M114` reports
the position.

Usage: stream.py grbl|marlin PORT LINE...   Prints one JSON object: the replies to each
line, and the final state and position.
"""
import json
import re
import sys
import time

import serial  # pyserial (Debian's python3-serial)


def read_reply(port, deadline):
    """Lines until `ok` or an error, with everything said before it."""
    said = []
    while time.monotonic() < deadline:
        raw = port.readline()
        if not raw:
            continue
        line = raw.decode("ascii", "replace").strip()
        if not line:
            continue
        if line == "ok" or line.startswith("ok "):
            return said, "ok"
        if line.startswith("error:") or line.startswith("Error:") or line.startswith("ALARM:"):
            return said, line
        said.append(line)
    return said, "timeout"


def grbl_status(port):
    port.write(b"?")
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        line = port.readline().decode("ascii", "replace").strip()
        match = re.match(r"<([A-Za-z]+)[^|]*\|MPos:([-\d.]+),([-\d.]+),([-\d.]+)", line)
        if match:
            return match.group(1), [float(v) for v in match.groups()[1:]]
    return "none", None


def main():
    dialect, path, lines = sys.argv[1], sys.argv[2], sys.argv[3:]
    port = serial.Serial(path, 115200, timeout=0.1)
    replies = []
    for line in lines:
        port.write((line + "\n").encode("ascii"))
        said, end = read_reply(port, time.monotonic() + 20)
        replies.append({"line": line, "said": said, "end": end})
    if dialect == "grbl":
        state, position = grbl_status(port)
        deadline = time.monotonic() + 20
        while state != "Idle" and time.monotonic() < deadline:
            time.sleep(0.05)
            state, position = grbl_status(port)
    else:
        port.write(b"M400\n")
        read_reply(port, time.monotonic() + 20)
        port.write(b"M114\n")
        said, _ = read_reply(port, time.monotonic() + 5)
        state, position = "Idle", None
        for line in said:
            match = re.match(r"X:([-\d.]+) Y:([-\d.]+) Z:([-\d.]+)", line)
            if match:
                position = [float(v) for v in match.groups()]
    print(json.dumps({"replies": replies, "state": state, "position": position}))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Senses for an ISO 14443 A or B target with nfcpy 1.0.4's PN532 driver on a serial port.

Usage: find_phone.py PORT [ITERATIONS]

Prints one line: `found <type> <UID or PUPI hex>`, or `none` after ITERATIONS sense rounds
(default 10, 0.1 s apart), as nfcpy's ContactlessFrontend.sense does them: each round
mutes the field (RFConfiguration 32 01 02) and polls (InListPassiveTarget 4A 01 00, then
4A 01 03 for type B). Exit 0 either way; 2 when nfcpy cannot open the port as a PN532.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[0:0] = [
    os.path.join(HERE, "nfcpy-1.0.4-py3-none-any.whl"),
    os.path.join(HERE, "ndeflib-0.3.3-py2.py3-none-any.whl"),
]

import nfc.clf  # noqa: E402
import nfc.clf.pn532  # noqa: E402
import nfc.clf.transport  # noqa: E402


def main():
    port = os.path.realpath(sys.argv[1])
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    try:
        device = nfc.clf.pn532.init(nfc.clf.transport.TTY(port))
    except IOError as error:
        print(f"cannot open {port} as a PN532: {error}", file=sys.stderr)
        return 2
    device._path = port  # as nfc.clf.device.connect() sets it, for the device's name
    print(f"using {device}", file=sys.stderr)
    clf = nfc.clf.ContactlessFrontend()
    clf.device = device
    try:
        target = clf.sense(nfc.clf.RemoteTarget("106A"), nfc.clf.RemoteTarget("106B"),
                           iterations=iterations, interval=0.1)
    finally:
        device.close()
    if target is None:
        print("none")
    elif target.sdd_res is not None:
        print(f"found 106A {target.sdd_res.hex().upper()}")
    else:
        print(f"found 106B {target.sensb_res[1:5].hex().upper()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

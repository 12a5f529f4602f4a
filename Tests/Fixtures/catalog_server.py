#!/usr/bin/env python3
"""A catalog backend for tests, with faults on demand. Loopback only.

Usage: catalog_server.py SEED_CATALOG.json
Binds 127.0.0.1 on a free port and prints the port on the first line of stdout.
Serves GET /<mode>/v1/catalog, where <mode> is one of:
  ok          200, a catalog derived from the seed (version remote-1), ETag, 304 on a match
  v2          the same catalog one revision later: one entry added, one changed, one removed
  500         HTTP 500
  slow        waits 30 s before answering
  trickle     sends a valid header, then one byte every 0.5 s for 60 s
  truncated   a catalog cut off mid-JSON
  wrongtypes  JSON, but "entries" is not an array
  notjson     text/plain garbage
  oversize    6 MiB body with a Content-Length
  chunked     6 MiB body without a Content-Length (streamed)
  mixed       good rows and bad rows together
GET /stats answers {"requests": {...}, "conditional": {...}}.
"""
import copy
import json
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Test runners may start us with SIGTERM blocked; the fixture must stop when told to.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
seed = json.load(open(sys.argv[1]))
stats = {"requests": {}, "conditional": {}}
lock = threading.Lock()


def catalog(version):
    doc = copy.deepcopy(seed)
    doc["version"] = version
    doc["generatedAt"] = "2026-11-20T00:00:00Z"
    for e in doc["entries"]:
        if e["modelIdentifier"] == "SM-S921B":
            # Where Samsung's illustration puts the S24 coil: near the top.
            e.update(zoneX=0.05, zoneY=0.05, zoneWidth=0.65, zoneHeight=0.3, lastVerifiedAt="2026-11-01T00:00:00Z")
    if version == "remote-2":
        doc["entries"] = [e for e in doc["entries"] if e["modelIdentifier"] != "Pixel 7a"]
        for e in doc["entries"]:
            if e["modelIdentifier"] == "Pixel 8":
                e["zoneY"] = 0.2
        extra = copy.deepcopy(doc["entries"][0])
        extra.update(modelIdentifier="iPhone17,5", displayName="iPhone 16e", bodyWidthMm=71.5, bodyHeightMm=146.7,
                     aspectRatio=0.4874)
        doc["entries"].append(extra)
    return json.dumps(doc).encode()


BODIES = {"ok": catalog("remote-1"), "v2": catalog("remote-2")}
ETAGS = {"ok": '"remote-1"', "v2": '"remote-2"'}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout, size cap): expected in fault modes

    def do_GET(self):
        parts = self.path.strip("/").split("/")
        if parts == ["stats"]:
            with lock:
                return self.send(200, json.dumps(stats).encode())
        if len(parts) != 3 or parts[1:] != ["v1", "catalog"]:
            return self.send(404, b'{"error":"not found"}')
        mode = parts[0]
        inm = self.headers.get("If-None-Match")
        with lock:
            stats["requests"][mode] = stats["requests"].get(mode, 0) + 1
            if inm:
                stats["conditional"][mode] = stats["conditional"].get(mode, 0) + 1
        if mode in BODIES:
            if inm == ETAGS[mode]:
                self.send_response(304)
                self.send_header("ETag", ETAGS[mode])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            return self.send(200, BODIES[mode], headers=[("ETag", ETAGS[mode]), ("Cache-Control", "no-cache")])
        if mode == "500":
            return self.send(500, b'{"error":"boom"}')
        if mode == "slow":
            time.sleep(30)
            return self.send(200, BODIES["ok"])
        if mode == "trickle":
            self.send_response(200)
            self.send_header("Content-Length", str(len(BODIES["ok"])))
            self.end_headers()
            try:
                for b in BODIES["ok"][:120]:
                    self.wfile.write(bytes([b]))
                    self.wfile.flush()
                    time.sleep(0.5)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if mode == "truncated":
            return self.send(200, BODIES["ok"][: len(BODIES["ok"]) // 2])
        if mode == "wrongtypes":
            return self.send(200, b'{"version": "x", "entries": {"not": "an array"}}')
        if mode == "notjson":
            return self.send(200, b"<html>maintenance</html>", content_type="text/html")
        if mode == "oversize":
            return self.send(200, b" " * (6 * 1024 * 1024))
        if mode == "chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b" " * 65536
            try:
                for _ in range(96):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if mode == "mixed":
            doc = json.loads(BODIES["ok"])
            doc["entries"][1]["zoneWidth"] = 0
            doc["entries"][2]["zoneX"] = "NaN"
            del doc["entries"][3]["zoneHeight"]
            return self.send(200, json.dumps(doc).encode())
        return self.send(404, b'{"error":"unknown mode"}')


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
server.serve_forever()

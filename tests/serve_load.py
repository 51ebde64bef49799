#!/usr/bin/env python3
"""A load test of foh serve on 127.0.0.1, bounded in count and time.

    python3 tests/serve_load.py FOH [--tables 50] [--seconds 900]

Starts `foh serve --port 0` with a fresh --tables folder, makes TABLES
tables of 5 seats (one human, 4 greedy bots) on the base set, and drives
every human seat from its own thread as a page would: it asks for the view
(as the page polls), and when the seat is to decide takes one of the legal
actions. Every table must reach the end with no error reply, no table lost
(the list holds them all, each over, each save file a finished game that
`foh replay` reads), within SECONDS. Prints the requests, requests per
second, the server's peak memory (VmHWM) and its memory at the end (VmRSS).
Exit 0 when all holds, 1 otherwise.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request


BUSY = [0]  # 503 replies while a bot was thinking at the table (asked again)


def request(base, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    for tries in range(100):
        req = urllib.request.Request(base + path, data=data, method="POST" if data is not None else "GET",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as e:
            if e.code != 503 or not json.loads(e.read() or b"{}").get("busy"):
                raise
            BUSY[0] += 1
            time.sleep(0.05)
    raise RuntimeError(f"{path}: busy 100 times")


def memory(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields.get("VmHWM", "?"), fields.get("VmRSS", "?")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("foh")
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=900)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="foh-serve-load-")
    server = subprocess.Popen([args.foh, "serve", "--port", "0", "--tables", folder], stdout=subprocess.PIPE,
                              text=True)
    line = server.stdout.readline()
    if "http://127.0.0.1:" not in line:
        print("foh serve did not start:", line)
        server.kill()
        return 1
    base = line.split()[2].rstrip("/")
    counts = {"requests": 0, "errors": []}
    lock = threading.Lock()
    deadline = time.monotonic() + args.seconds

    def count(n=1):
        with lock:
            counts["requests"] += n

    def fail(msg):
        with lock:
            counts["errors"].append(msg)

    def player(i):
        rng = random.Random(i)
        try:
            status, made = request(base, "/api/tables",
                                   {"cards": "base", "seats": ["human", "greedy", "greedy", "greedy", "greedy"],
                                    "seed": 1000 + i})
            count()
            table, token = made["id"], made["links"][0]["token"]
            while time.monotonic() < deadline:
                status, view = request(base, f"/api/tables/{table}?k={token}")
                count()
                if view["over"]:
                    return
                if not view["decides"]:
                    time.sleep(0.05)
                    continue
                action = rng.choice(view["legal"])
                status, view = request(base, f"/api/tables/{table}/actions",
                                       {"token": token, "version": view["version"], "action": action["id"]})
                count()
            fail(f"table {i}: not over after {args.seconds} s")
        except urllib.error.HTTPError as e:
            fail(f"table {i}: {e.code} {e.read()[:200]!r}")
        except Exception as e:  # a connection refused or cut, a bad reply
            fail(f"table {i}: {e!r}")

    start = time.monotonic()
    threads = [threading.Thread(target=player, args=(i,)) for i in range(args.tables)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start
    peak, rss = memory(server.pid)
    ok = not counts["errors"]
    try:
        status, listing = request(base, "/api/tables")
        tables = listing["tables"]
        if len(tables) != args.tables or not all(t["over"] for t in tables):
            ok = False
            print(f"the list holds {len(tables)} tables, {sum(t['over'] for t in tables)} over")
    except Exception as e:
        ok = False
        print("the list of tables:", e)
    server.terminate()
    code = server.wait(timeout=60)
    if code != 0:
        ok = False
        print("foh serve stopped with", code)
    # Every save file is a finished game that foh replay reads.
    saves = [f for f in os.listdir(folder) if f.endswith(".json") and not f.endswith(".table.json")]
    bad = 0
    for f in saves:
        r = subprocess.run([args.foh, "replay", os.path.join(folder, f)], capture_output=True, text=True)
        if r.returncode != 0 or "Game over" not in r.stdout:
            bad += 1
            if bad <= 3:
                print("foh replay", f, "->", r.returncode, r.stderr[-300:])
    if len(saves) != args.tables or bad:
        ok = False
        print(f"{len(saves)} save files, {bad} not a finished game")
    for e in counts["errors"][:10]:
        print(e)
    print(f"{args.tables} tables of 1 human and 4 greedy bots: {'all finished' if ok else 'FAILED'}; "
          f"{counts['requests']} requests in {elapsed:.1f} s = {counts['requests'] / elapsed:.0f} requests/s; "
          f"server memory: peak {peak}, at the end {rss}; {len(counts['errors'])} errors; "
          f"{BUSY[0]} replies 'a bot is thinking' (asked again)")
    subprocess.run(["rm", "-rf", folder])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

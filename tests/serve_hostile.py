#!/usr/bin/env python3
"""Hostile requests to foh serve: each is refused with the 4xx status it
names and changes nothing (the table's actions and its save file stay
byte for byte as they were); the server still answers afterwards.

    python3 tests/serve_hostile.py FOH

Exit 0 when every check holds; each failed check is printed, exit 1.
"""
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time

failures = []
checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failures.append(what)
        print("FAILED:", what)


def raw(port, method, path, body=None, headers=None):
    """One request exactly as written (no client-side path clean-up)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.putrequest(method, path, skip_accept_encoding=True, skip_host="Host" in (headers or {}))
    for k, v in (headers or {}).items():
        c.putheader(k, v)
    if body is not None and "Content-Type" not in (headers or {}):
        c.putheader("Content-Type", "application/json")  # state-changing requests need it (415)
    if body is not None and "Content-Length" not in (headers or {}) and "Transfer-Encoding" not in (headers or {}):
        c.putheader("Content-Length", str(len(body)))
    c.endheaders()
    if body is not None:
        c.send(body)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, data


def api(port, method, path, obj=None):
    status, data = raw(port, method, path, None if obj is None else json.dumps(obj).encode())
    try:
        return status, json.loads(data)
    except ValueError:
        return status, {"raw": data[:200]}


def start(foh, folder, *more):
    server = subprocess.Popen([foh, "serve", "--port", "0", "--tables", folder, "--max-tables", "8", *more],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    return server, line, (int(line.split("127.0.0.1:")[1].split("/")[0]) if "127.0.0.1:" in line else 0)


def stop(server):
    server.terminate()
    server.wait(timeout=60)
    return server.stderr.read()


def restarts(foh, folder, tid, mover):
    """Start-up past broken table files; the away and back lines kept over a restart."""
    with open(os.path.join(folder, "aaaaaaaaaaaa.table.json"), "w") as f:  # a seats file without its game
        f.write("{}")
    with open(os.path.join(folder, "bbbbbbbbbbbb.table.json"), "w") as f:  # unreadable ones
        f.write("not json")
    with open(os.path.join(folder, "bbbbbbbbbbbb.json"), "w") as f:
        f.write("not json")
    server, line, port = start(foh, folder, "--abandon", "1")
    check(port > 0, f"the server starts past two broken tables ({line!r})")
    if not port:
        stop(server)
        return
    status, data = api(port, "GET", f"/api/tables/{tid}")
    check(status == 200, f"the good table is resumed ({status})")
    # Its human seat is away after --abandon 1 (a bounded wait), then back.
    away = False
    for _ in range(300):
        status, view = api(port, "GET", f"/api/tables/{tid}")
        away = any("is away" in x for x in view["log"])
        if away:
            break
        time.sleep(0.1)
    check(away, "a seat left alone is taken by the stand-in (the log says it is away)")
    api(port, "GET", f"/api/tables/{tid}?k={mover}")
    status, view = api(port, "GET", f"/api/tables/{tid}")
    log = [x for x in view["log"] if "is away" in x or "is back" in x]
    err = stop(server)
    check("aaaaaaaaaaaa.table.json" in err and "bbbbbbbbbbbb.table.json" in err,
          f"each table skipped is named by its file ({err!r})")
    server, line, port = start(foh, folder)
    status, view = api(port, "GET", f"/api/tables/{tid}") if port else (0, {"log": []})
    kept = [x for x in view["log"] if "is away" in x or "is back" in x]
    check(len(log) >= 2 and kept[:len(log)] == log, f"the away and back lines come back after a restart ({log} / {kept})")
    stop(server)
    mode = os.stat(os.path.join(folder, tid + ".table.json")).st_mode & 0o777
    check(mode == 0o600, f"the seats file is 0600 once written again (got {oct(mode)})")


def half_written(foh):
    """A table whose game file cannot be written (files over 300 bytes fail,
    RLIMIT_FSIZE) leaves no seats file behind: all or nothing."""
    import resource
    import signal

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (300, 300))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails (EFBIG), the server lives

    folder = tempfile.mkdtemp(prefix="foh-serve-hostile-")
    server = subprocess.Popen([foh, "serve", "--port", "0", "--tables", folder], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, preexec_fn=small_files)
    line = server.stdout.readline()
    port = int(line.split("127.0.0.1:")[1].split("/")[0])
    status, data = api(port, "POST", "/api/tables", {"seats": ["human", "greedy", "greedy"]})
    check(status == 500, f"a table whose game file cannot be written: 500 (got {status} {data})")
    left = os.listdir(folder)
    check(left == [], f"no file of it is left (got {left})")
    stop(server)
    subprocess.run(["rm", "-rf", folder])


def main():
    foh = sys.argv[1]
    folder = tempfile.mkdtemp(prefix="foh-serve-hostile-")
    os.chmod(folder, 0o755)  # a --tables folder that already existed, readable by others
    os.umask(0o022)
    server = subprocess.Popen([foh, "serve", "--port", "0", "--tables", folder, "--max-tables", "3"],
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    port = int(line.split("127.0.0.1:")[1].split("/")[0])

    # Two tables: two humans on the base set, and a finished bots' table.
    status, made = api(port, "POST", "/api/tables", {"cards": "base", "seats": ["human", "human"],
                                                     "variants": ["two-player-banker"], "seed": 4})
    check(status == 201, f"a table is made (201, got {status} {made})")
    tid = made["id"]
    p1, p2 = made["links"][0]["token"], made["links"][1]["token"]
    save = os.path.join(folder, tid + ".json")

    def snapshot():
        status, view = api(port, "GET", f"/api/tables/{tid}")
        with open(save, "rb") as f:
            return view["version"], view["log"], f.read()

    def unchanged(before, what):
        check(snapshot() == before, what + ": the table and its save file are unchanged")

    # One legal move first, so that there is a history to keep.
    status, view = api(port, "GET", f"/api/tables/{tid}?k={p1}")
    mover, other = (p1, p2) if view["decides"] else (p2, p1)
    status, view = api(port, "GET", f"/api/tables/{tid}?k={mover}")
    status, after = api(port, "POST", f"/api/tables/{tid}/actions",
                        {"token": mover, "version": view["version"], "action": view["legal"][0]["id"]})
    check(status == 200 and after["version"] == view["version"] + 1, f"a legal action is applied ({status})")
    status, view = api(port, "GET", f"/api/tables/{tid}?k={p1}")
    mover, other = (p1, p2) if view["decides"] else (p2, p1)
    status, view = api(port, "GET", f"/api/tables/{tid}?k={mover}")
    before = snapshot()

    def refused(method, path, body, want, what, headers=None):
        status, data = raw(port, method, path, body, headers)
        check(status == want, f"{what}: {want} (got {status} {data[:120]!r})")
        check(b"root:" not in data and b"cmake_minimum_required" not in data, f"{what}: no file outside the page")
        unchanged(before, what)
        return data

    # Paths out of the page's folder.
    for path in ["/../../../../etc/passwd", "/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd",
                 "/app.js/../../../CMakeLists.txt", "/static/../../../../CMakeLists.txt", "//etc/passwd",
                 "/api/tables/../../../../etc/passwd", "/CMakeLists.txt", "/tools/serve/page/app.js"]:
        status, data = raw(port, "GET", path)
        check(status in (400, 404), f"GET {path}: 400 or 404 (got {status})")
        check(b"root:" not in data and b"cmake_minimum_required" not in data, f"GET {path}: no file outside the page")
    # A NUL cuts the decoded path: at most the page itself is served.
    status, data = raw(port, "GET", "/index.html%00../../CMakeLists.txt")
    check(status in (200, 400, 404) and b"cmake_minimum_required" not in data, f"a NUL in the path ({status})")
    unchanged(before, "paths out of the page")

    forged = "0123456789abcdef0123456789abcdef"
    body = lambda tok, action=view["legal"][0]["id"], version=view["version"]: json.dumps(
        {"token": tok, "version": version, "action": action}).encode()
    refused("GET", f"/api/tables/{tid}?k={forged}", None, 403, "a forged token")
    refused("GET", f"/api/tables/{tid}?k={'a' * 5000}", None, 403, "a token longer than any")
    refused("POST", f"/api/tables/{tid}/actions", body(forged), 403, "an action with a forged token")
    refused("POST", f"/api/tables/{tid}/actions", json.dumps({"version": view["version"],
            "action": view["legal"][0]["id"]}).encode(), 401, "an action without a token")
    refused("POST", f"/api/tables/{tid}/actions", json.dumps({"token": 7, "version": view["version"],
            "action": view["legal"][0]["id"]}).encode(), 403, "a token that is not a string")
    refused("POST", f"/api/tables/{tid}/actions", body(other), 403, "an action for another seat")
    refused("POST", f"/api/tables/{tid}/actions", body(mover, version=view["version"] - 1), 409, "a stale version")
    refused("POST", f"/api/tables/{tid}/actions", body(mover, action="abc"), 400, "an action id that is not a number")
    refused("POST", f"/api/tables/{tid}/actions", body(mover, action="99999999999999999999999"), 400,
            "an action id beyond 64 bits")
    refused("POST", f"/api/tables/{tid}/actions", body(mover, action="-3"), 400, "a negative action id")
    # A well-formed action the rules refuse here: the rule's message comes back.
    data = refused("POST", f"/api/tables/{tid}/actions", body(mover, action="4"), 422, "an action the rules refuse")
    check(len(json.loads(data)["error"]) > 10, f"the refusal gives the rule's message ({data[:120]!r})")
    refused("POST", f"/api/tables/{tid}/actions", b"{" * 40000, 400, "invalid JSON")
    refused("POST", f"/api/tables/{tid}/actions", b"[" * 30000 + b"]" * 30000, 400, "JSON nested 30,000 deep")
    refused("POST", f"/api/tables/{tid}/actions", b'{"token": "a", "token": "b"}', 400, "JSON with a key twice")
    refused("POST", f"/api/tables/{tid}/actions", b"x" * 70000, 413, "a body over 64 KiB")
    refused("POST", f"/api/tables/{tid}/actions", b"5\r\nhello\r\n0\r\n\r\n", 411, "a body without its length",
            {"Transfer-Encoding": "chunked"})
    refused("POST", f"/api/tables/{tid}/undo", json.dumps({"token": mover}).encode(), 403, "undo at a table not hot seat")
    refused("GET", f"/api/tables/{tid}/replay?step=1", None, 409, "the timeline of a game being played")
    refused("GET", f"/api/tables/{tid}/actions", None, 405, "an action by GET")
    refused("DELETE", f"/api/tables/{tid}", None, 401, "DELETE a table without its owner secret")
    refused("PUT", "/api/tables", b"{}", 405, "PUT the tables")
    refused("GET", f"/api/tables/{tid}?k={mover}", None, 403, "another Host (DNS rebinding)",
            {"Host": f"evil.example:{port}"})
    refused("POST", f"/api/tables/{tid}/actions", body(mover), 403, "an action under another Host",
            {"Host": "evil.example"})
    refused("POST", f"/api/tables/{tid}/actions", body(mover, action=" " + view["legal"][0]["id"]), 400,
            "an action id with a leading space")
    refused("POST", f"/api/tables/{tid}/actions", json.dumps({"token": mover, "version": view["version"],
            "action": view["legal"][0]["id"], "admin": True}).encode(), 400, "an unknown field in an action")
    b = body(mover)
    refused("POST", f"/api/tables/{tid}/actions", b, 400, "two Content-Length headers",
            {"Content-Length": str(len(b)), "Content-length": str(len(b))})
    for host in [f"127.0.0.1:{port}junk", f"localhost:{port}@evil.example"]:
        refused("GET", f"/api/tables/{tid}?k={mover}", None, 403, f"Host {host}", {"Host": host})
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    c.putrequest("GET", f"/api/tables/{tid}?k={mover}", skip_host=True, skip_accept_encoding=True)
    c.putheader("Host", "evil.example")
    c.putheader("Host", f"127.0.0.1:{port}")
    c.endheaders()
    r = c.getresponse()
    r.read()
    c.close()
    check(r.status == 403, f"two Host headers, the last one ours: 403 (got {r.status})")
    refused("GET", "/api/tables/0123456789ab", None, 404, "a table that does not exist")
    refused("GET", "/api/tables/ZZZ", None, 404, "a table id of the wrong form")
    refused("GET", f"/api/tables/{tid}/secrets", None, 404, "a part of a table that does not exist")
    refused("GET", "/api/nothing", None, 404, "an API address that does not exist")

    # Tables that cannot be made, each for its own reason.
    for req, what in [({"cards": "../../etc", "seats": ["human"]}, "a card set named by a path"),
                      ({"cards": "base", "variants": ["../../x"], "seats": ["human", "greedy"]}, "a variant by a path"),
                      ({"cards": "base", "variants": ["no-such-variant"], "seats": ["human", "greedy"]},
                       "a variant that does not exist"),
                      ({"cards": "no-such-set", "seats": ["human", "greedy"]}, "a card set that does not exist"),
                      ({"seats": ["human"] * 9}, "nine seats"),
                      ({"seats": []}, "no seat"),
                      ({"seats": ["human", "greedy"], "players": 3}, "players other than the seats"),
                      ({"seats": ["human", "ismcts:999999999"]}, "a bot over its limits"),
                      ({"seats": ["human", "ismcts:20000"]}, "a bot over a table's budget"),
                      ({"seats": ["human", "ismcts:5000ms"]}, "a bot over a table's time"),
                      ({"seats": ["human", "deep-blue"]}, "a bot that does not exist"),
                      ({"seats": ["human", "ismcts:6e4ms"]}, "a budget in exponent form (ms)"),
                      ({"seats": ["human", "ismcts:1e5"]}, "a budget in exponent form"),
                      ({"seats": ["human", "ismcts:9.9e4"]}, "a budget with a fraction"),
                      ({"seats": ["human", "ismcts:0x186a0"]}, "a budget in hexadecimal"),
                      ({"seats": ["human", "greedy"], "admin": True}, "a field the API does not have"),
                      ({"seats": ["human", "greedy"], "seed": -1}, "a negative seed"),
                      ({"seats": ["greedy", "greedy"], "hotseat": True}, "a hot seat with no human"),
                      ([1, 2, 3], "a request that is not an object")]:
        status, data = api(port, "POST", "/api/tables", req)
        check(status == 400, f"{what}: 400 (got {status} {data})")
    for spec in ["ismcts:6e4ms", "ismcts:1e5", "ismcts:9.9e4", "ismcts:0x186a0"]:
        status, data = api(port, "POST", "/api/tables", {"seats": ["human", spec, "greedy"]})
        check(status == 400 and spec in data.get("error", ""), f"seat {spec}: 400 naming it (got {status} {data})")
        r = subprocess.run([foh, "sim", "--games", "1", "--players", "3", "--seats", spec], capture_output=True,
                           text=True, timeout=60)
        check(r.returncode == 2 and spec in r.stderr, f"--seats {spec}: exit 2 naming it ({r.returncode} {r.stderr})")
    for spec in ["ismcts:8", "ismcts:32:random", "ismcts:5ms", "ismcts:random"]:  # valid specs still are
        r = subprocess.run([foh, "sim", "--games", "1", "--players", "3", "--seats", spec + ",random,random"],
                           capture_output=True, text=True, timeout=120)
        check(r.returncode == 0, f"--seats {spec}: valid ({r.returncode} {r.stderr})")
    status, data = api(port, "POST", "/api/tables", {"cards": "base", "seats": ["human"] * 7})
    check(status == 422, f"more players than the card set allows: 422 (got {status} {data})")
    status, data = api(port, "POST", "/api/tables", {"cards": "civ-draft", "seats": ["human", "greedy"],
                                                     "variants": ["culture-2vp"]})
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    check(status == 422 and root not in json.dumps(data), f"a 422 names no server path (got {status} {data})")
    status, data = api(port, "GET", "/api/sets")
    civ = [x for x in data["sets"] if x["name"] == "civ-draft"]
    check(civ and "culture-2vp" not in civ[0]["variants"] and "negative-vt" in civ[0]["variants"],
          f"the civ draft is offered its own variants alone ({civ})")
    mode = os.stat(os.path.join(folder, tid + ".table.json")).st_mode & 0o777
    check(mode == 0o600, f"the seats file is 0600 in a folder that existed (got {oct(mode)})")

    # The table limit (--max-tables 3): the third is made, the fourth refused.
    status, _ = api(port, "POST", "/api/tables", {"seats": ["greedy", "greedy", "greedy"], "seed": 9})
    check(status == 201, f"a bots' table within --max-tables ({status})")
    status, _ = api(port, "POST", "/api/tables", {"seats": ["greedy", "greedy", "greedy"], "seed": 9})
    check(status == 201, f"the last table within --max-tables ({status})")
    status, data = api(port, "POST", "/api/tables", {"seats": ["greedy", "greedy", "greedy"]})
    check(status == 503, f"a table past --max-tables: 503 (got {status} {data})")
    unchanged(before, "the tables refused")

    # The server still plays: the move refused above for a stale version is taken now.
    status, after = api(port, "POST", f"/api/tables/{tid}/actions",
                        {"token": mover, "version": view["version"], "action": view["legal"][0]["id"]})
    check(status == 200 and after["version"] == view["version"] + 1, f"the server still plays ({status})")
    # The same action again (a retry after a lost reply): 409, not 403 though P2 is to act now.
    status, data = api(port, "POST", f"/api/tables/{tid}/actions",
                       {"token": mover, "version": view["version"], "action": view["legal"][0]["id"]})
    check(status == 409, f"a duplicate action: 409 (got {status} {data})")
    server.terminate()
    check(server.wait(timeout=60) == 0, "foh serve stops with status 0")
    restarts(foh, folder, tid, mover)
    half_written(foh)
    subprocess.run(["rm", "-rf", folder])
    print(f"{checks} checks, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

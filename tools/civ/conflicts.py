#!/usr/bin/env python3
"""Conflicts of the civilization draft, card by card, from the logs of games
played by `foh play` (docs/civ-draft.md, "Are the Conflicts balanced?").

usage: tools/civ/conflicts.py [--foh build/foh] [--games 200] [--players 4]
                              [--seats greedy] [--variant DIR] [--seed 1]

For each Conflict card: how often it started a conflict, how often the
attacker won, lost or tied, and the VT that moved; each rate with its 95%
Wilson interval. Grouped by age, so that the Prestige Values and Military
Bonuses of the four decks can be compared.
"""
import argparse
import collections
import math
import re
import subprocess
import sys


def wilson(k, n):
    if n == 0:
        return (0.0, 0.0)
    z, p = 1.96, k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, mid - half), min(1.0, mid + half))


START = re.compile(r"^  P(\d) starts (.+) against P(\d) \(prestige (\d+)\): (\d+) against (\d+)$")
RESULT = re.compile(r"^  (.+): P(\d) (\d+) against P(\d) (\d+)$")
WIN = re.compile(r"^  P(\d) wins and takes (\d+) VT from P(\d)")
AGE = re.compile(r"^Turn \d+ \((\w+) age\)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--foh", default="build/foh")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seats", default="greedy")
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    stats = collections.defaultdict(lambda: collections.Counter())
    for g in range(a.games):
        cmd = [a.foh, "play", "--cards", "civ-draft", "--players", str(a.players), "--seats", a.seats,
               "--seed", str(a.seed + g)]
        for v in a.variant:
            cmd += ["--variant", v]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit("foh play failed (seed %d): %s" % (a.seed + g, out.stderr.strip()))
        age, card, attacker = "?", None, None
        for line in out.stdout.splitlines():
            m = AGE.match(line)
            if m:
                age = m.group(1)
            m = START.match(line)
            if m:
                attacker, card = int(m.group(1)), (age, m.group(2))
                stats[card]["started"] += 1
                stats[card]["prestige"] = int(m.group(4))
                continue
            m = WIN.match(line)
            if m and card:
                stats[card]["attacker_won" if int(m.group(1)) == attacker else "defender_won"] += 1
                stats[card]["vt_moved"] += int(m.group(2))
                card = None
            elif card and "a tie:" in line:
                stats[card]["tie"] += 1
                card = None
    print("%d games, %d players, seats %s%s" % (a.games, a.players, a.seats,
                                                "".join(" --variant " + v for v in a.variant)))
    print("%-11s %-24s %3s %7s  %-24s %6s %8s" % ("age", "conflict", "PV", "started", "attacker wins [95%]", "ties",
                                                  "VT/won"))
    for (age, name), c in sorted(stats.items(), key=lambda kv: (kv[0][0] != "Ancient", kv[0])):
        n, w = c["started"], c["attacker_won"]
        lo, hi = wilson(w, n)
        won = c["attacker_won"] + c["defender_won"]
        print("%-11s %-24s %3d %7d  %5.1f%% [%5.1f%%, %5.1f%%] %6d %8.1f" % (
            age, name, c["prestige"], n, 100 * w / n if n else 0, 100 * lo, 100 * hi, c["tie"],
            c["vt_moved"] / won if won else 0))


if __name__ == "__main__":
    main()

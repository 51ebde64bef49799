#!/usr/bin/env python3
"""tools/calibrate.py: how often foh compare finds a change it was not told
about (issue 31). Plants known changes in copies of cards/base (a card made
stronger or weaker by a little or a lot, a rule), runs
`foh compare --seats greedy` of the base set against each copy over
independent seeds, and counts in how many seeds the changed card is first
in compare's ranking of cards by how far their figures moved (the ranking
uses the games alone, not the files), and in how many it has a figure that
differs after the Benjamini-Hochberg correction. A planted rule change is
counted as found when the mean score differs. An unchanged copy measures
the false alarms. Prints the power table in Markdown (docs/balance.md).

usage: tools/calibrate.py [--foh build/foh] [--seeds 20] [--games 2000]
                          [--small-games 500] [--threads 2]
"""
import argparse, json, os, re, shutil, subprocess, sys, tempfile

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (label, file, card id or None for game.yaml, key, old, new, VP change per copy)
PLANTS = [
    ("Temple +4 Culture (+4 VP)", "3-age-I.yaml", "temple", "culture", 2, 6, "+4 VP"),
    ("Monastery +4 Culture (+4 VP)", "4-age-II.yaml", "monastery", "culture", 1, 5, "+4 VP"),
    ("Temple +2 Culture (+2 VP)", "3-age-I.yaml", "temple", "culture", 2, 4, "+2 VP"),
    ("Temple +1 Culture (+1 VP)", "3-age-I.yaml", "temple", "culture", 2, 3, "+1 VP"),
    ("Democracy -3 Culture (-3 VP)", "6-age-IV.yaml", "democracy", "culture", 3, 0, "-3 VP"),
    ("Republic +3 Trade", "3-age-I.yaml", "republic", "trade", 2, 5, "+1.5 VP"),
    ("Archers +1 Defense", "3-age-I.yaml", "archers", "defense", 2, 3, "subtle"),
    ("rule: 3 other icons per VP (was 2)", "game.yaml", None, "other_icons_per_vp", 2, 3, "a rule"),
    ("no change (false alarms)", None, None, None, None, None, "none"),
]


def plant(root, name, file, card, key, old, new):
    """A copy of cards/base as ROOT/cards/NAME with one change (ROOT/scripts
    links to the project's scripts, which game.yaml names relatively)."""
    dest = os.path.join(root, "cards", name)
    shutil.copytree(os.path.join(SRC, "cards", "base"), dest)
    if file is None:
        return dest
    path = os.path.join(dest, file)
    text = open(path).read()
    if card is None:
        pat = re.compile(r"^(\s*%s:\s*)%d\b" % (key, old), re.M)
        new_text, n = pat.subn(lambda m: m.group(1) + str(new), text, count=1)
    else:
        start = text.index("- id: %s\n" % card)
        end = text.find("\n- id: ", start + 1)
        end = len(text) if end < 0 else end
        block = text[start:end]
        changed, n = re.subn(r"(params: \{[^}]*\b%s: )%d\b" % (key, old), lambda m: m.group(1) + str(new), block)
        new_text = text[:start] + changed + text[end:]
    if n != 1:
        sys.exit("calibrate: cannot plant %s %s in %s" % (card or "rule", key, file))
    open(path, "w").write(new_text)
    return dest


def run(foh, base, other, games, seed, threads, out):
    subprocess.run([foh, "compare", "--games", str(games), "--seats", "greedy", "--seed", str(seed),
                    "--threads", str(threads), "--a-cards", base, "--b-cards", other, "--json", out],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return json.load(open(out))


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return (max(0.0, c - h), min(1.0, c + h))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--foh", default=os.path.join(SRC, "build", "foh"))
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--small-games", type=int, default=500)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    root = tempfile.mkdtemp(prefix="foh-calibrate.")
    try:
        os.symlink(os.path.join(SRC, "scripts"), os.path.join(root, "scripts"))
        base = plant(root, "unchanged-a", None, None, None, None, None)
        print("| planted change | size | games | changed card ranked first | changed card flagged (BH 5%) | "
              "any card flagged | mean score differs |")
        print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
        for i, (label, file, card, key, old, new, size) in enumerate(PLANTS):
            other = plant(root, "plant%d" % i, file, card, key, old, new)
            for games in (a.small_games, a.games):
                first = flagged = anyflag = score = 0
                for s in range(a.seeds):
                    r = run(a.foh, base, other, games, 1000 + s, a.threads, os.path.join(root, "out.json"))
                    rank = r["card_ranking"]
                    first += bool(card) and rank[0]["card"] == card
                    flagged += bool(card) and any(x["card"] == card and x["figures_differing"] > 0 for x in rank)
                    anyflag += any(x["figures_differing"] > 0 for x in rank)
                    score += any(f["name"] == "score" and f.get("significant") for f in r["figures"])
                n = a.seeds

                def cell(k, applies=True):
                    if not applies:
                        return "-"
                    lo, hi = wilson(k, n)
                    return "%d of %d [%.0f-%.0f%%]" % (k, n, 100 * lo, 100 * hi)
                print("| %s | %s | %d | %s | %s | %s | %s |" % (label, size, games, cell(first, bool(card)),
                                                             cell(flagged, bool(card)), cell(anyflag), cell(score)))
                sys.stdout.flush()
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    main()

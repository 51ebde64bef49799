#!/usr/bin/env python3
"""report_bounds.py: flag intervals of non-negative figures whose low bound < 0
(or, for a share/rate, whose high bound > 1 / 100%) in foh's JSON reports,
and optionally in its text reports.

usage: report_bounds.py [-v] [--all] [--text] FILE...   ('-' reads stdin)

Interval shapes recognised (learnt from foh sim / compare / tune / ladder
output, version 0.31.0):
  S1 {"value": v, "ci95_low": lo, "ci95_high": hi}        foh sim (sim_stats.c estimate_json)
  S2 {"diff": d, "ci95_low": lo, "ci95_high": hi, ...}    foh compare figures (signed: B - A)
  S3 {"value": v, "low": lo, "high": hi}                  foh sim --impact (impact.c), fate.c
  S4 {"<figure>": v, "low": lo, "high": hi, ...}          civ-draft sim (any.c, any_report.c);
                                                          seat_wins has "wins" (a count) and
                                                          no rate next to its low/high
  S5 {"<figure>": v, "ci95": [lo, hi], ...}               civ-draft --skill-ladder (any_ladder.c)
  also generic: lo/hi, lower/upper, <x>_low/<x>_high, <x>_lo/<x>_hi, ci/ci95/interval: [lo, hi]

A figure is "non-negative by nature" when its name (the key holding the
interval, or the figure key next to a flat low/high) matches NONNEG and not
SIGNED; --all also flags unclassified figures. Exit status 1 if anything is
flagged.
"""
import json
import math
import re
import sys

# Names of figures that are signed by nature (differences, impacts, margins...).
SIGNED = re.compile(r"(^|_|\b)(diff|difference|delta|change|impact|margin|effect|minus|vs|"
                    r"correlation|corr|skew)(_|$|\b)", re.I)
# Names of figures that cannot be negative.
NONNEG = re.compile(r"rate|share|spread|band|count|games|turns|length|time|_ms|_ns|_s$|per_s|"
                    r"per_game|sd|std|stdev|variance|var|r2|r_squared|depth|score|wins|price|"
                    r"activations|plays|gains|stalled|fraction|prob|p_value|^p$|chi|mean_options|icc",
                    re.I)
# Shares/rates/probabilities: also bounded above by 1 (or 100 in points/percent).
BOUNDED = re.compile(r"rate|share|fraction|prob|stalled|^p$|p_value|r2|r_squared", re.I)

PAIRS = [("ci95_low", "ci95_high"), ("low", "high"), ("lo", "hi"), ("lower", "upper"),
         ("ci_low", "ci_high"), ("ci_lo", "ci_hi")]
LIST_KEYS = ("ci95", "ci", "interval", "ci_95", "bounds")
META = {"name", "card", "group", "unit", "label", "kind", "seat", "bot", "alone", "among", "verdict",
        "note", "p", "significant", "differs", "outside_all_rows", "same_in_every_game", "age", "score"}


def num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def classify(name, obj):
    """'signed', 'nonneg' or 'unknown' for the figure NAME (OBJ: the holding object)."""
    if isinstance(obj, dict) and "diff" in obj:
        return "signed"
    # a spread, sd, variance, share of variance (ICC) of anything is non-negative
    if re.search(r"(^|_)(sd|std|stdev|var|variance|spread|band|icc|r2)(_|$)", name, re.I):
        return "nonneg"
    if SIGNED.search(name):
        return "signed"
    if NONNEG.search(name):
        return "nonneg"
    # a compare-like 'name' text or a 'unit'
    if isinstance(obj, dict):
        text = " ".join(str(obj.get(k, "")) for k in ("name", "unit", "label"))
        if re.search(r"B - A|difference|impact|margin|change", text):
            return "signed"
        if re.search(r"rate|share|length|turns|count|spread|score|games", text):
            return "nonneg"
    return "unknown"


def intervals(obj, path, parent_key):
    """Yield (path, shape, figure_name, value, lo, hi, obj) for each interval held by OBJ."""
    if not isinstance(obj, dict):
        return
    keys = set(obj)
    for lk, hk in PAIRS:
        if lk in obj and hk in obj:
            lo, hi = obj[lk], obj[hk]
            if "value" in obj:
                fig, v = parent_key, obj["value"]
                shape = "{value,%s,%s}" % (lk, hk)
            elif "diff" in obj:
                fig, v = "diff", obj["diff"]
                shape = "{diff,%s,%s}" % (lk, hk)
            else:
                # flat: the figure is a numeric sibling (win_rate, wins, ...)
                sib = [k for k in obj if k not in (lk, hk) and k not in META and num(obj[k])]
                pref = [k for k in sib if BOUNDED.search(k)] or sib
                fig = pref[0] if pref else parent_key
                v = obj.get(fig)
                shape = "{<%s>,%s,%s}" % (fig, lk, hk)
            yield path, shape, fig, v, lo, hi, obj
    for k in keys:
        m = re.match(r"(.+?)_(low|lo|lower)$", k)
        if m:
            base = m.group(1)
            for hs in ("high", "hi", "upper"):
                hk = base + "_" + hs
                if hk in obj and base not in ("ci95", "ci"):
                    yield path, "{%s,%s,%s}" % (base, k, hk), base, obj.get(base), obj[k], obj[hk], obj
    for lk in LIST_KEYS:
        iv = obj.get(lk)
        if isinstance(iv, list) and len(iv) == 2:
            sib = [k for k in obj if k != lk and k not in META and num(obj[k])]
            pref = [k for k in sib if BOUNDED.search(k)] or sib
            fig = pref[0] if pref else parent_key
            yield path, "{<%s>,%s:[lo,hi]}" % (fig, lk), fig, obj.get(fig), iv[0], iv[1], obj


def walk(obj, path="$", parent_key=""):
    if isinstance(obj, dict):
        yield from intervals(obj, path, parent_key)
        for k, v in obj.items():
            yield from walk(v, "%s.%s" % (path, k), k)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, "%s[%d]" % (path, i), parent_key)


def label_of(obj):
    for k in ("name", "card", "label", "alone", "seat", "kind"):
        if isinstance(obj, dict) and k in obj:
            return "%s=%s" % (k, obj[k])
    return ""


def check_json(fname, doc, opts, out):
    flagged = 0
    shapes = {}
    for path, shape, fig, v, lo, hi, obj in walk(doc):
        generic = re.sub(r"\[\d+\]", "[]", path)
        shapes.setdefault((generic, shape), 0)
        shapes[(generic, shape)] += 1
        cls = classify(fig, obj)
        if fig == "wins" and num(v):
            # civ seat_wins: low/high bound the win RATE (wins / games), not the count
            g = obj.get("games") if num(obj.get("games")) else (doc.get("games") if isinstance(doc, dict) else None)
            if num(g) and g > 0:
                v, fig = v / g, "win_rate(wins/games)"
        problems = []
        if not num(lo) or not num(hi) or (num(lo) and math.isnan(lo)) or (num(hi) and math.isnan(hi)):
            if lo is not None or hi is not None:
                problems.append("non-numeric bound")
        else:
            if cls == "nonneg" or (opts["all"] and cls == "unknown"):
                if lo < 0:
                    problems.append("low %g < 0" % lo)
                if BOUNDED.search(fig):
                    scale = 100.0 if (num(v) and v > 1.0) or hi > 2.0 or \
                        re.search(r"points|percent|pct", fig) else 1.0
                    if hi > scale + 1e-9:
                        problems.append("high %g > %g" % (hi, scale))
            if num(v) and not (lo - 1e-9 <= v <= hi + 1e-9):
                problems.append("value %g outside [%g, %g]" % (v, lo, hi))
        if problems:
            flagged += 1
            out.append("%s: %s  %s  [%s, class %s] value=%s lo=%s hi=%s: %s"
                       % (fname, path, label_of(obj), shape, cls, v, lo, hi, "; ".join(problems)))
    if opts["verbose"]:
        for (g, s), c in sorted(shapes.items()):
            fig = re.sub(r"^\{<?([^,>]*)>?,.*", r"\1", s)
            out.append("  shape %5d x %s %s" % (c, g, s))
    return flagged


# --- text reports ---------------------------------------------------------
TEXT_IV = re.compile(r"\[\s*(?:95% CI\s+)?([-+]?\d+(?:\.\d+)?)%?\s*(?:,|-(?=\s*[-+]?\d))\s*([-+]?\d+(?:\.\d+)?)%?\s*\]")
TEXT_NONNEG = re.compile(r"spread|band|share of the variance|variance|win rate|share|rate|length|turns|"
                         r"stalled|score: mean|winner's score|sd\b|r2|R\^2|depth", re.I)
TEXT_SIGNED = re.compile(r"B - A|difference|impact|margin|change|minus|tuned - base", re.I)


def check_text(fname, text, opts, out):
    """Text reports: foh prints signed figures (differences, impacts, margins) with
    %+.2f, so within a block (lines between blank lines) an interval column (of the
    rows with as many intervals) in which some row shows an explicit '+' (on a bound or on the figure just before it) is
    signed. Any other interval with a negative low bound is flagged when its label,
    or the recent lines without intervals (a section header), names a non-negative
    figure (or always, with --all)."""
    flagged = 0
    lines = text.splitlines()
    blocks, cur = [], []
    for no, line in enumerate(lines, 1):
        if not line.strip():
            if cur:
                blocks.append(cur)
            cur = []
        else:
            cur.append((no, line))
    if cur:
        blocks.append(cur)
    header = ""
    for block in blocks:
        rows, signed = [], set()
        for no, line in block:
            ivs, prev_end = [], 0
            ms = list(TEXT_IV.finditer(line))
            for col, m in enumerate(ms):
                col = (len(ms), col)  # a column of rows of the same shape
                before = line[prev_end:m.start()]
                prev_end = m.end()
                fig = re.search(r"([-+]?\d+(?:\.\d+)?)%?\s*[A-Za-z%]{0,6}\s*$", before)
                if "+" in m.group(0) or (fig and fig.group(1).startswith("+")):
                    signed.add(col)
                # "a -> b (-21.7 [-38.8, -4.7])": the change from a to b, a difference.
                if re.search(r"->[^(]*\(\s*[-+]?\d+(\.\d+)?\s*$", before):
                    signed.add(col)
                ivs.append((col, m, before))
            rows.append((no, line, ivs))
        for no, line, ivs in rows:
            if not ivs:
                header = (header + " " + line.strip())[-300:]  # recent lines without intervals
                continue
            for col, m, before in ivs:
                lo, hi = float(m.group(1)), float(m.group(2))
                if "%" in m.group(0).replace("95% CI", "") and hi > 100 and col not in signed:
                    flagged += 1
                    out.append("%s:%d: high %g > 100%% in %r" % (fname, no, hi, line.strip()[:150]))
                if lo >= 0 or col in signed:
                    continue
                label = before if re.search(r"[A-Za-z]{3}", before) else line[:m.start()]
                if TEXT_SIGNED.search(label):
                    continue
                if TEXT_NONNEG.search(label):
                    hit = True
                elif TEXT_SIGNED.search(header[-120:]):
                    hit = False
                else:
                    hit = bool(TEXT_NONNEG.search(header)) or opts["all"]
                if hit:
                    flagged += 1
                    out.append("%s:%d: low %g < 0 in %r" % (fname, no, lo, line.strip()[:150]))
    return flagged


def main(argv):
    opts = {"verbose": False, "all": False, "text": False}
    files = []
    for a in argv:
        if a in ("-v", "--verbose"):
            opts["verbose"] = True
        elif a == "--all":
            opts["all"] = True
        elif a == "--text":
            opts["text"] = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            files.append(a)
    if not files:
        print(__doc__, file=sys.stderr)
        return 2
    total, out = 0, []
    for f in files:
        data = sys.stdin.read() if f == "-" else open(f, encoding="utf-8").read()
        try:
            doc = json.loads(data)
        except ValueError:
            doc = None
        if doc is not None:
            total += check_json(f, doc, opts, out)
        elif opts["text"]:
            total += check_text(f, data, opts, out)
        else:
            out.append("%s: not JSON (use --text for a text report)" % f)
    print("\n".join(out) if out else "no offending interval")
    print("%d flagged" % total)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

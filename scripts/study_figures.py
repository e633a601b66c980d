"""The estimates the variant study's document reads (scripts/study_tables.py): a value with
its 95% interval as the reports keep it ({"value", "low", "high"}), their differences and
means, and the bots' measured strength from their manifests."""
import math

Z = 1.959964
# A share of games opened by the same moves from which the bots' habit is worth saying.
REPEATED_OPENING_SHARE = 0.05


def est(e, digits=3, signed=False):
    if e is None or e.get("value") is None:
        return "-"
    f = f"{{:+.{digits}f}}" if signed else f"{{:.{digits}f}}"
    return f"{f.format(e['value'])} [{f.format(e['low'])}, {f.format(e['high'])}]"


def playouts(column):
    """A column's playouts: its strength's name ends in @N (0 where it does not)."""
    tail = column["strength"].rsplit("@", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def strongest(columns):
    """The column of the most playouts."""
    return max(columns, key=playouts)


def difference(a, b):
    """a - b of two independent estimates, the half-widths added in quadrature."""
    half = math.hypot((a["high"] - a["low"]) / 2, (b["high"] - b["low"]) / 2)
    d = a["value"] - b["value"]
    return {"value": d, "low": d - half, "high": d + half}


def verdict(d, what, condition="with Deans"):
    if d["low"] > 0:
        return f"{what} higher {condition}"
    if d["high"] < 0:
        return f"{what} lower {condition}"
    return f"{what}: no difference this play can detect"


def read_differences(a, b, condition, detected, name):
    """a − b of two balance columns' first-move advantage and draw rate, each read against
    zero; `name` is added to detected[what] for each figure that differs detectably."""
    readings = []
    for what, key in (("first-move advantage", "first_move_advantage"),
                      ("draw rate", "draw_rate")):
        d = difference(a[key], b[key])
        readings.append(f"{verdict(d, what, condition)} ({est(d, signed=True)})")
        if d["low"] > 0 or d["high"] < 0:
            detected[what].append(name)
    return readings


SIDES = ("the first player", "the second player")


def side_ahead(advantages):
    """The side every first-move advantage puts ahead (each interval clear of zero, all with
    the same sign), or None."""
    if all(a["low"] > 0 for a in advantages):
        return SIDES[0]
    if all(a["high"] < 0 for a in advantages):
        return SIDES[1]
    return None


def counted(groups, count):
    """"what, n of count (names)" for each group of entry names."""
    return "; ".join(f"{what}, {len(names)} of {count}" + (f" ({', '.join(names)})" if names
                                                            else "")
                     for what, names in groups.items())


def sides_text(groups):
    """The entries grouped by the side ahead, or "in no entry"."""
    named = [f"{who} in {', '.join(names)}" for who, names in groups.items() if names]
    return "; ".join(named) if named else "in no entry"


def group_mean(estimates):
    """The mean of independent estimates, its half-width the half-widths added in quadrature
    over their number."""
    k = len(estimates)
    value = sum(e["value"] for e in estimates) / k
    half = math.sqrt(sum(((e["high"] - e["low"]) / 2) ** 2 for e in estimates)) / k
    return {"value": value, "low": value - half, "high": value + half}


def signed(x):
    """A whole number with its sign, never "-0" (a score of exactly 50% is +0 Elo)."""
    return f"{round(x):+d}"


def elo_text(match):
    """A match's Elo and 95% interval, as a manifest's [[strength]] entry keeps them."""
    return (f"{signed(match['elo'])} [{signed(match['elo_low'])}, "
            f"{signed(match['elo_high'])}]")


def match_cell(manifest, opponent):
    for m in (manifest or {}).get("strength", []):
        if m["opponent"] == opponent or m["opponent"].startswith(opponent):
            return (f"{100 * m['score']:.1f}% of {m['games']}, "
                    f"{elo_text(m)}")
    return "-"


def elo(match):
    return {"value": match["elo"], "low": match["elo_low"], "high": match["elo_high"]}


def material_match(manifest):
    return next((m for m in (manifest or {}).get("strength", [])
                 if m["opponent"] == "material"), None)

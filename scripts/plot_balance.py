#!/usr/bin/python3
"""Plots of a FairyZero balance report: reads OUT_DIR/balance.json (written by `fairyzero balance`)
and writes seat_scores.png, terminations.png, game_length.png, piece_values.png, for games of more
than two seats seat_order.png and, when a variant was played at several strengths,
score_vs_strength.png. Uses Debian's python3-matplotlib only."""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def errors(estimates):
    """Lower and upper error-bar lengths of a list of {value, low, high}."""
    return [[e["value"] - e["low"] for e in estimates], [e["high"] - e["value"] for e in estimates]]


def save(fig, out, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=110)
    plt.close(fig)


def score_axes(ax, title):
    """The axes of a plot of scores, 0 to 1, with their intervals."""
    ax.set_ylim(0, 1)
    ax.set_ylabel("team score (95% interval)")
    ax.set_title(title)
    ax.legend(fontsize="small")


def bar_groups(ax, labels, series, width_total=0.8):
    """Grouped bars: `series` is a list of (name, values, estimates-or-None) per bar in a group."""
    width = width_total / max(1, len(series))
    for i, (name, values, estimates) in enumerate(series):
        xs = [x - width_total / 2 + width * (i + 0.5) for x in range(len(labels))]
        ax.bar(xs, values, width, label=name,
               yerr=errors(estimates) if estimates else None, capsize=3)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=15, ha="right")


def seat_scores(columns, out):
    seats = max(len(c["seats"]) for c in columns)
    fig, ax = plt.subplots(figsize=(max(6, 2.2 * len(columns)), 4.5))
    series = []
    for s in range(seats):
        values, estimates, names = [], [], set()
        for c in columns:
            if s < len(c["seats"]):
                e = c["seats"][s]["team"]
                names.add(c["seats"][s]["seat"])
            else:
                e = {"value": 0, "low": 0, "high": 0}
            values.append(e["value"])
            estimates.append(e)
        series.append((f"seat {s + 1} ({'/'.join(sorted(names))})", values, estimates))
    bar_groups(ax, [c["label"] for c in columns], series)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    score_axes(ax, "Score per seat")
    save(fig, out, "seat_scores.png")


def seat_order(columns, out):
    """Games of more than two seats: each column's team score by place in the turn order."""
    columns = [c for c in columns if c.get("seat_order")]
    if not columns:
        return
    movers = max(len(c["seat_order"]) for c in columns)
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * movers * len(columns) + 2), 4.5))
    series = []
    for c in columns:
        order = c["seat_order"]
        series.append((c["label"], [x["team"]["value"] for x in order],
                       [x["team"] for x in order]))
    bar_groups(ax, [f"mover {i + 1}" for i in range(movers)], series)
    # Where each plays for itself a seat's fair share is under 0.5: the mean of all seats.
    scores = [x["team"]["value"] for c in columns for x in c["seat_order"]]
    ax.axhline(sum(scores) / len(scores), color="grey", linestyle="--", linewidth=1,
               label="mean of all seats")
    score_axes(ax, "Score by place in the turn order")
    save(fig, out, "seat_order.png")


def terminations(columns, out):
    names = []
    for c in columns:
        for t in c["terminations"]:
            if t["termination"] not in names:
                names.append(t["termination"])
    fig, ax = plt.subplots(figsize=(10, 1.5 + 0.6 * len(columns)))
    left = [0.0] * len(columns)
    for name in names:
        shares = []
        for c in columns:
            share = sum(t["share"] for t in c["terminations"] if t["termination"] == name)
            shares.append(share)
        ax.barh(range(len(columns)), shares, left=left, label=name)
        left = [a + b for a, b in zip(left, shares)]
    ax.set_yticks(range(len(columns)))
    ax.set_yticklabels([c["label"] for c in columns])
    ax.invert_yaxis()  # the first column on top, as in the report
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of games")
    ax.set_title("How games end")
    ax.legend(fontsize="small", loc="center left", bbox_to_anchor=(1.01, 0.5))
    save(fig, out, "terminations.png")


def common_bins(lengths, count=20):
    """Bin edges shared by every column: about `count` bins of a whole number of plies."""
    low, high = min(lengths), max(lengths) + 1
    width = max(1, -(-(high - low) // count))
    return list(range(low, high + width, width))


def game_length(columns, out):
    everything = [n for c in columns for n in c["length"]["plies"]]
    if not everything:
        return
    edges = common_bins(everything)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for c in columns:
        plies = c["length"]["plies"]
        if not plies:
            continue
        counts = [0] * (len(edges) - 1)
        for n in plies:
            counts[min(len(counts) - 1, (n - edges[0]) // (edges[1] - edges[0]))] += 1
        shares = [k / len(plies) for k in counts]
        ax.stairs(shares, edges, label=f"{c['label']} (median {c['length']['median']:.0f})")
    ax.set_xlabel("plies")
    ax.set_ylabel("share of games")
    ax.set_title("Game length")
    ax.legend(fontsize="small")
    save(fig, out, "game_length.png")


def piece_values(columns, out):
    """Scaled values when a column has a reference piece, else raw coefficients."""
    scaled = [c for c in columns if any(p["scaled"] for p in c["piece_values"]["pieces"])]
    raw = [c for c in columns if any(p["estimated"] for p in c["piece_values"]["pieces"])]
    shown = scaled or raw
    if not shown:
        return
    pieces = []
    for c in shown:
        for p in c["piece_values"]["pieces"]:
            if p["estimated"] and p["piece"] not in pieces:
                pieces.append(p["piece"])
    series = []
    for c in shown:
        values, estimates = [], []
        for name in pieces:
            p = next((p for p in c["piece_values"]["pieces"] if p["piece"] == name), None)
            if p and scaled and p["scaled"]:
                e = p["scaled"]
            elif p and not scaled and p["estimated"]:
                half = 1.96 * p["standard_error"]
                e = {"value": p["coefficient"], "low": p["coefficient"] - half,
                     "high": p["coefficient"] + half}
            else:
                e = {"value": 0, "low": 0, "high": 0}
            values.append(e["value"])
            estimates.append(e)
        reference = c["piece_values"]["reference"]
        series.append((c["label"] + (f" ({reference} = 1)" if scaled else ""), values, estimates))
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(pieces) * max(1, len(shown) / 2)), 4.5))
    bar_groups(ax, pieces, series)
    ax.axhline(0, color="grey", linewidth=1)
    ax.set_ylabel("value (95% interval)" if scaled else "score per extra piece (95% interval)")
    ax.set_title("Piece values from the regression of results on material")
    ax.legend(fontsize="small")
    save(fig, out, "piece_values.png")


def score_vs_strength(columns, out):
    variants = []
    for c in columns:
        if c["variant"] not in variants:
            variants.append(c["variant"])
    by_variant = {v: [c for c in columns if c["variant"] == v] for v in variants}
    if all(len(cs) < 2 for cs in by_variant.values()):
        return
    strengths = []
    for c in columns:
        if c["strength"] not in strengths:
            strengths.append(c["strength"])
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7))
    for v, cs in by_variant.items():
        xs = [strengths.index(c["strength"]) for c in cs]
        fma = [c["first_move_advantage"] for c in cs]
        draws = [c["draw_rate"] for c in cs]
        top.errorbar(xs, [e["value"] for e in fma], yerr=errors(fma), marker="o", capsize=3, label=v)
        bottom.errorbar(xs, [e["value"] for e in draws], yerr=errors(draws), marker="o",
                        capsize=3, label=v)
    for ax in (top, bottom):
        ax.set_xticks(range(len(strengths)))
        ax.set_xticklabels(strengths)
        ax.legend(fontsize="small")
    top.axhline(0, color="grey", linestyle="--", linewidth=1)
    top.set_ylabel("first-move advantage")
    top.set_title("Balance against the bot's strength")
    bottom.set_ylabel("draw rate")
    bottom.set_xlabel("bot and search (strength)")
    save(fig, out, "score_vs_strength.png")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot_balance.py OUT_DIR")
    out = sys.argv[1]
    path = os.path.join(out, "balance.json")
    if not os.path.exists(path):
        sys.exit(f"{path}: missing (run `fairyzero balance` first)")
    with open(path) as f:
        columns = json.load(f)["columns"]
    if not columns:
        sys.exit(f"{path}: no columns")
    seat_scores(columns, out)
    seat_order(columns, out)
    terminations(columns, out)
    game_length(columns, out)
    piece_values(columns, out)
    score_vs_strength(columns, out)


if __name__ == "__main__":
    main()

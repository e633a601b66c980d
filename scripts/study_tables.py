#!/usr/bin/env python3
"""The variant study's document, docs/STUDY.md, generated from the kept reports: every
STUDY_DIR/ENTRY/balance.json (a `fairyzero balance` report of the trained bot), its
records.json where kept (`fairyzero balance --records` of the run's recorded self-play games),
its material.json where kept (the material bot's own balance report), its half-budget.toml
where kept (the manifest of the run's checkpoint at half the training time, measured against
the material bot) and every BOTS_DIR/ENTRY/manifest.toml (how the bot trained, how strong it
measured) and variant.toml (the rules it plays). Nothing in it is typed by hand;
scripts/study.sh runs it, and the ctest `scripts.study_tables` checks that docs/STUDY.md is
what it writes. The Commedia dell'Arte sections are study_commedia.py's.

    scripts/study_tables.py STUDY_DIR BOTS_DIR > docs/STUDY.md
"""
import json
import math
import os
import sys
import tomllib

from study_commedia import ODD_RULES, commedia_forms_lines, commedia_lines
from study_figures import (REPEATED_OPENING_SHARE, SIDES, Z, counted, difference, elo,
                           elo_text, est, match_cell, material_match, playouts,
                           read_differences, side_ahead, sides_text, signed, strongest,
                           verdict)

# The study's entries in the order the document shows them (scripts/study.sh plays the same).
RIVERS_TWO = ["isis", "cam", "wey", "coblache", "great-stour"]
RIVERS_FOUR = ["irwell", "avon", "aire"]
ORDER = (["chess", "very-heavy-chess"] + [r + d for r in RIVERS_TWO + RIVERS_FOUR
                                           for d in ("", "-deans")]
         + ["commedia-" + rule for rule in ODD_RULES]
         + ["commedia-filled", "commedia-chessgi", "commedia-double",
            "commedia-double-individual"])

# Mean game length (plies) under which the strongest bot's games are decided in the opening: no
# chess-like game is judged in under ten moves a side, so such figures speak about the setup.
DECIDED_IN_THE_OPENING = 20

# Tomašev et al., "Assessing Game Balance with AlphaZero" (2020), classical chess at their
# strongest level: the figures the study's chess row is read beside.
ALPHAZERO_CHESS = {"draw_rate": 0.882, "white_score": 0.518}

# Why only chess has a Fairy-Stockfish column (checked against Debian's fairy-stockfish 11.1).
STOCKFISH_NOTE = (
    "Of the study's variants Debian's Fairy-Stockfish (11.1) plays only chess: its variants.ini "
    "(`VariantPath`) has no custom pieces (no `customPiece`, added to Fairy-Stockfish later), so "
    "not Very Heavy Chess's Heroine (RFN) and Popess (BWN), nor the rivers' crossing rules or "
    "Commedia dell'Arte's odd-move rules.")


def listed(folder, file):
    """The names of FOLDER's subfolders that hold FILE."""
    if not os.path.isdir(folder):
        return set()
    return {n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n, file))}


def shipped_odd_rule(bot):
    """The odd-move rule the bot in BOT plays (its variant.toml, overrides applied), if any."""
    path = os.path.join(bot, "variant.toml")
    if not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        return tomllib.load(f).get("rules", {}).get("odd_rule")


def load_entries(study_dir, bots_dir):
    """Every entry with a kept report or a shipped bot: a bot whose balance report is still to
    be played shows its training and strength (its columns are empty)."""
    entries = {}
    names = (listed(study_dir, "balance.json") | listed(study_dir, "records.json")
             | listed(study_dir, "material.json")
             | listed(study_dir, "half-budget.toml") | listed(bots_dir, "manifest.toml"))
    for name in sorted(names):
        path = os.path.join(study_dir, name, "balance.json")
        report = {"columns": []}
        if os.path.isfile(path):
            with open(path) as f:
                report = json.load(f)
        manifest_path = os.path.join(bots_dir, name, "manifest.toml")
        manifest, size = None, None
        if os.path.isfile(manifest_path):
            with open(manifest_path, "rb") as f:
                manifest = tomllib.load(f)
            network = os.path.join(bots_dir, name, "network.pt")
            size = os.path.getsize(network) if os.path.isfile(network) else None
        # The piece values over the run's recorded self-play games (balance --records).
        records_path = os.path.join(study_dir, name, "records.json")
        records = None
        if os.path.isfile(records_path):
            with open(records_path) as f:
                records = json.load(f)["columns"][0]
        # The material bot's own balance report (study.sh): a second opinion on the trained bot's.
        # Its columns by playouts: the arena's first, then the deeper searches (study.sh).
        material_path = os.path.join(study_dir, name, "material.json")
        material, material_deeper = None, None
        if os.path.isfile(material_path):
            with open(material_path) as f:
                material_columns = sorted(json.load(f)["columns"], key=playouts)
            material = material_columns[0]
            material_deeper = material_columns[-1] if len(material_columns) > 1 else None
        # The half-way checkpoint's manifest: what the second half of the budget bought.
        half_path = os.path.join(study_dir, name, "half-budget.toml")
        half = None
        if os.path.isfile(half_path):
            with open(half_path, "rb") as f:
                half = tomllib.load(f)
        entries[name] = {"columns": report["columns"], "manifest": manifest, "size": size,
                         "records": records, "half": half, "material": material,
                         "material_deeper": material_deeper,
                         "odd_rule": shipped_odd_rule(os.path.join(bots_dir, name))}
    rank = {name: i for i, name in enumerate(ORDER)}
    return dict(sorted(entries.items(), key=lambda kv: (rank.get(kv[0], len(ORDER)), kv[0])))


def bots_table(entries):
    rows = ["| entry | generations | games | minutes | machine | network.pt | against material "
            "| against uniform | against Fairy-Stockfish 1000 nodes |",
            "| --- | ---: | ---: | ---: | --- | ---: | --- | --- | --- |"]
    for name, e in entries.items():
        m = e["manifest"]
        if not m:
            rows.append(f"| {name} | no bot in bots/ | | | | | | | |")
            continue
        t = m.get("training", {})
        size = f"{e['size'] / 1e6:.2f} MB" if e["size"] else "-"
        rows.append(f"| {name} | {m['generation']} | {t.get('games', '-')} | "
                    f"{t.get('minutes', 0):.0f} | {t.get('machine', '-')} | {size} | "
                    f"{match_cell(m, 'material')} | {match_cell(m, 'uniform')} | "
                    f"{match_cell(m, 'uci:')} |")
    return rows + ["", STOCKFISH_NOTE]


def balance_table(entries):
    rows = ["| entry | bot | games | first-move advantage | draw rate | decisive | most common "
            "ending | mean length | 4-ply openings (distinct, bits) |",
            "| --- | --- | ---: | --- | --- | ---: | --- | ---: | --- |"]
    for name, e in entries.items():
        if not e["columns"]:
            rows.append(f"| {name} | no balance report yet | | | | | | | |")
        for c in e["columns"]:
            decisive = 1 - c["draw_rate"]["value"] if c["draw_rate"]["value"] is not None else None
            ending = c["terminations"][0] if c["terminations"] else None
            ending_text = f"{ending['termination']} ({100 * ending['share']:.0f}%)" if ending else "-"
            four = c["openings"][1] if len(c["openings"]) > 1 else None
            openings = f"{four['distinct']}, {four['entropy_bits']:.1f}" if four else "-"
            rows.append(f"| {name} | {c['strength'].split('@')[-1]} playouts | {c['games']} | "
                        f"{est(c['first_move_advantage'], signed=True)} | {est(c['draw_rate'])} | "
                        f"{100 * decisive:.1f}% | {ending_text} | {c['length']['mean']:.1f} | "
                        f"{openings} |" if decisive is not None else f"| {name} | - |")
    return rows


def piece_values_cell(pv):
    pieces = [p for p in pv["pieces"] if p.get("scaled")]
    pieces.sort(key=lambda p: -p["scaled"]["value"])
    text = "; ".join(f"{p['piece']} {est(p['scaled'], 2)}" for p in pieces)
    if not text and pv.get("note"):
        return pv["note"]
    if not text:  # no reference piece: the raw change in score per extra piece
        raw = [p for p in pv["pieces"] if p.get("coefficient") is not None]
        raw.sort(key=lambda p: -p["coefficient"])
        text = "; ".join(f"{p['piece']} {p['coefficient']:+.3f} ± "
                         f"{Z * p['standard_error']:.3f}" for p in raw)
        return (f"no piece significantly positive, raw score per piece: {text}" if text
                else pv.get("note") or "no fit")
    return text


# How the values are estimated (docs/BALANCE.md, "Piece values"), said once above the table.
PIECE_VALUES_METHOD = (
    "Estimated by a linear probability model over material snapshots: each game's result "
    "regressed on the material difference every 10 plies (ridge least squares, standard errors "
    "clustered by game), each piece's coefficient divided by the reference piece's (the Pawn "
    "where it is significantly positive), intervals by the delta method (docs/BALANCE.md). The "
    "estimate converges as games are added, its intervals shrinking as 1/sqrt(games); what it "
    "measures is a piece's worth to this bot in these games, blunders included.")


def piece_values_lines(entries, only=None):
    """A row at the stronger bot and, where the study kept one, a row over the run's recorded
    self-play games (thousands of games: the narrower intervals)."""
    rows = ["| entry | games from | games | reference (= 1) | values, highest first [95% interval] |",
            "| --- | --- | ---: | --- | --- |"]
    for name, e in entries.items():
        if only and not only(name):
            continue
        sources = []
        if e["columns"]:
            c = strongest(e["columns"])
            sources.append((f"bot at {c['strength'].split('@')[-1]} playouts", c))
        if e.get("records"):
            sources.append((e["records"]["strength"], e["records"]))
        for label, column in sources:
            pv = column["piece_values"]
            rows.append(f"| {name} | {label} | {column['games']} | "
                        f"{pv.get('reference') or '-'} | {piece_values_cell(pv)} |")
    return rows


def four_player_table(entries):
    rows = ["| entry | bot | team score by turn order | first out (share of games) | mean place "
            "(1 best) |", "| --- | --- | --- | --- | --- |"]
    for name, e in entries.items():
        for c in e["columns"]:
            if not c.get("seat_order"):
                continue
            order = "; ".join(f"{x['position']}. {x['seat']} {est(x['team'], 2)}"
                              for x in c["seat_order"])
            out = "; ".join(f"{x['seat']} {x['first']}/{x['games']}"
                            for x in c.get("dropout_first") or []) or "-"
            rank = "; ".join(f"{x['seat']} {est(x['mean_rank'], 2)}"
                             for x in c.get("ranking") or []) or "-"
            rows.append(f"| {name} | {c['strength'].split('@')[-1]} playouts | {order} | {out} "
                        f"| {rank} |")
    return rows


def deans_lines(entries):
    rows = ["| river game | first-move advantage: with Deans − plain | draw rate: with Deans − "
            "plain | mean length: plain, with Deans | reading |",
            "| --- | --- | --- | --- | --- |"]
    for river in RIVERS_TWO + RIVERS_FOUR:
        if not (entries.get(river, {}).get("columns")
                and entries.get(river + "-deans", {}).get("columns")):
            continue
        a = strongest(entries[river + "-deans"]["columns"])
        b = strongest(entries[river]["columns"])
        fma = difference(a["first_move_advantage"], b["first_move_advantage"])
        draws = difference(a["draw_rate"], b["draw_rate"])
        rows.append(f"| {river} | {est(fma, signed=True)} | {est(draws, signed=True)} | "
                    f"{b['length']['mean']:.1f}, {a['length']['mean']:.1f} | "
                    f"{verdict(fma, 'first-move advantage')}; {verdict(draws, 'draw rate')} |")
    return rows


def chess_lines(entries):
    if not entries.get("chess", {}).get("columns"):
        return ["No chess report yet."]
    c = strongest(entries["chess"]["columns"])
    white = next(t["score"] for t in c["teams"] if t["team"] == "white")
    return [f"Our chess bot at {c['strength'].split('@')[-1]} playouts: draw rate "
            f"{est(c['draw_rate'])}, White's score {est(white)} over {c['games']} games; "
            f"AlphaZero at its strongest (Tomašev et al. 2020): draw rate "
            f"{ALPHAZERO_CHESS['draw_rate']:.3f}, White's score "
            f"{ALPHAZERO_CHESS['white_score']:.3f}."]


MATERIAL_METHOD = (
    "The material bot (a search over the material count alone, at the playouts of the arena "
    "matches) is the yardstick every trained bot met in the arena; where it beat the trained "
    "bot, its self-play is the stronger play this study has of the variant, though still weak: "
    "it counts material and sees no position. Both play the same way (scripts/study.sh: the "
    "first 4 plies at temperature 1, then the most visited move, 200 games); the difference is "
    "material bot − trained bot, whose strongest column is shown.")


def material_lines(entries):
    """Each entry's balance played by the material bot beside the trained bot's."""
    rows = ["| entry | trained bot against material | first-move advantage: trained bot; "
            "material bot | draw rate: trained bot; material bot | mean length | reading |",
            "| --- | --- | --- | --- | ---: | --- |"]
    differing = {"first-move advantage": [], "draw rate": []}
    # Where both players put the same seat ahead, the advantage does not hang on one player.
    both_ahead = {side: [] for side in SIDES}
    for name, e in entries.items():
        if not (e["columns"] and e.get("material")):
            continue
        c, m = strongest(e["columns"]), e["material"]
        readings = read_differences(m, c, "under the material bot", differing, name)
        side = side_ahead([c["first_move_advantage"], m["first_move_advantage"]])
        if side:
            both_ahead[side].append(name)
        rows.append(f"| {name} | {match_cell(e['manifest'], 'material')} | "
                    f"{est(c['first_move_advantage'], signed=True)} ({playouts(c)}); "
                    f"{est(m['first_move_advantage'], signed=True)} | {est(c['draw_rate'])}; "
                    f"{est(m['draw_rate'])} | {c['length']['mean']:.1f}; "
                    f"{m['length']['mean']:.1f} | {'; '.join(readings)} |")
    if len(rows) == 2:
        return rows
    return [MATERIAL_METHOD, ""] + rows + [
        "", "Entries where the material bot's figure differs detectably from the trained bot's: "
        + counted(differing, len(rows) - 2) + ".", "",
        "Both players put the same side ahead (each first-move advantage's interval clear of "
        "zero, with the same sign): " + sides_text(both_ahead) + "."]


MATERIAL_DEEPER_METHOD = (
    "The same material bot plays each variant's 200 games again with four times the playouts "
    "(scripts/study.sh, MATERIAL_VISITS): where its figures move as it searches deeper, the "
    "second opinion above describes its search depth more than the variant; where they hold, "
    "they are the study's firmest figures from this player. The difference is deeper − "
    "shallower.")


def material_deeper_lines(entries):
    """The material bot's balance at the arena's playouts beside its own at more playouts."""
    rows = ["| entry | first-move advantage: shallower; deeper | draw rate: shallower; deeper "
            "| mean length | reading |", "| --- | --- | --- | ---: | --- |"]
    moved = {"first-move advantage": [], "draw rate": []}
    ahead = {side: [] for side in SIDES}
    # Where the trained bot agrees too, the side ahead holds across all the play this study has.
    all_ahead = {side: [] for side in SIDES}
    for name, e in entries.items():
        shallow, deep = e.get("material"), e.get("material_deeper")
        if not (shallow and deep):
            continue
        readings = read_differences(deep, shallow, "searching deeper", moved, name)
        advantages = [shallow["first_move_advantage"], deep["first_move_advantage"]]
        side = side_ahead(advantages)
        if side:
            ahead[side].append(name)
        if e["columns"]:
            side = side_ahead(advantages + [strongest(e["columns"])["first_move_advantage"]])
            if side:
                all_ahead[side].append(name)
        rows.append(f"| {name} ({playouts(shallow)}; {playouts(deep)}) | "
                    f"{est(shallow['first_move_advantage'], signed=True)}; "
                    f"{est(deep['first_move_advantage'], signed=True)} | "
                    f"{est(shallow['draw_rate'])}; {est(deep['draw_rate'])} | "
                    f"{shallow['length']['mean']:.1f}; {deep['length']['mean']:.1f} | "
                    f"{'; '.join(readings)} |")
    if len(rows) == 2:
        return rows
    return [MATERIAL_DEEPER_METHOD, ""] + rows + [
        "", "Entries whose figure moves detectably as the material bot searches deeper: "
        + counted(moved, len(rows) - 2) + ".", "",
        "The same side ahead at both depths (each first-move advantage's interval clear of "
        "zero, with the same sign): " + sides_text(ahead) + ". And by the trained bot's "
        "strongest column too, the study's firmest finding on who moves at an advantage: "
        + sides_text(all_ahead) + "."]


# The strength against the material bot from which an entry's balance figures stop describing
# play weaker than a one-ply material count: +100 Elo (a 64% score), whose 95% interval over the
# study's 100 games (about ±60 Elo there) lies clear of zero.
SETTLED_ELO = 100

# How the training budget that would settle an entry is projected, said once above the figures.
BUDGET_METHOD = (
    "Each run's checkpoint of half its training time (the one written nearest half-way) met "
    "the material bot in the same match as the finished bot (scripts/study.sh, "
    "docs/study/ENTRY/half-budget.toml). The Elo gained over the second half, divided by the "
    "doublings of training time between them, is the gain per doubling; the entries' gains are "
    "pooled by inverse-variance weights (a fixed-effect mean: the variants differ, so read it "
    "as the study's typical gain). The budget that would settle an entry is the time at which "
    f"that gain would bring it to {SETTLED_ELO:+d} Elo against the material bot (a 64% score), "
    "assuming Elo keeps growing linearly in the logarithm of training compute, as Jones "
    "(\"Scaling Scaling Laws with Board Games\", 2021) measured for AlphaZero-style training "
    "until a plateau set by the network's size. The study preset's 4-block network may reach "
    "that plateau first; the `gpu` preset's 10-block network on a GPU is then the route.")


# A match with this share of draws or more says the two bots play alike in a game neither wins:
# its Elo interval is narrow, so inverse-variance pooling would let it outweigh every other
# entry's gain while it measures no learning. Such entries are shown but not pooled.
DRAWN_MATCH_SHARE = 0.9


def drawn_match(match):
    return match.get("draws", 0) >= DRAWN_MATCH_SHARE * match["games"]


def budget_gains(entries):
    """Per entry with a half-budget checkpoint, both measured against the material bot with a
    score the logistic Elo can place (neither 0 nor 1): the Elo gained and the gain per
    doubling of the training minutes."""
    rows = []
    for name, e in entries.items():
        half, full = material_match(e.get("half")), material_match(e["manifest"])
        if not (half and full and 0 < half["score"] < 1 and 0 < full["score"] < 1):
            continue
        minutes_half = e["half"]["training"]["minutes"]
        minutes_full = e["manifest"]["training"]["minutes"]
        if not 0 < minutes_half < minutes_full:
            continue
        gained = difference(elo(full), elo(half))
        doublings = math.log2(minutes_full / minutes_half)
        rows.append({"name": name, "half": e["half"], "full": e["manifest"], "gained": gained,
                     "per_doubling": {k: v / doublings for k, v in gained.items()},
                     "drawn": drawn_match(half) or drawn_match(full)})
    return rows


def pooled_gain(rows):
    """The inverse-variance weighted mean of the gains per doubling, with its 95% interval, over
    the entries whose matches were not nearly all drawn."""
    rows = [r for r in rows if not r["drawn"]]
    if not rows:
        return None
    weights = [(2 * Z / (r["per_doubling"]["high"] - r["per_doubling"]["low"])) ** 2 for r in rows]
    mean = sum(w * r["per_doubling"]["value"] for w, r in zip(weights, rows)) / sum(weights)
    half = Z / math.sqrt(sum(weights))
    return {"value": mean, "low": mean - half, "high": mean + half}


# Beyond this much training a projection says only that the budget is out of reach ("over a
# century").
CENTURY_MINUTES = 100 * 365.25 * 1440


def minutes_to_settle(minutes, elo_now, gain_per_doubling):
    if elo_now >= SETTLED_ELO:
        return minutes
    if gain_per_doubling <= 0:
        return math.inf
    doublings = (SETTLED_ELO - elo_now) / gain_per_doubling
    # A gain barely above zero asks for thousands of doublings: 2 ** that overflows a float.
    if doublings > math.log2(CENTURY_MINUTES / minutes):
        return math.inf
    return minutes * 2 ** doublings


def duration(minutes):
    if minutes >= CENTURY_MINUTES:
        return "over a century"
    if minutes < 120:
        return f"{minutes:.0f} min"
    if minutes < 72 * 60:
        return f"{minutes / 60:.0f} h"
    if minutes < 2 * 365.25 * 1440:
        return f"{minutes / 1440:.0f} days"
    return f"{minutes / (365.25 * 1440):.0f} years"


def settle_text(manifest, gain):
    """The training that would bring a bot to SETTLED_ELO against the material bot, at the pooled
    gain per doubling (the interval from the gain's)."""
    match, minutes = material_match(manifest), (manifest or {}).get("training", {}).get("minutes")
    if not (gain and match and minutes) or gain["low"] <= 0:
        return ""
    need = [minutes_to_settle(minutes, match["elo"], g)
            for g in (gain["value"], gain["high"], gain["low"])]
    about = "" if need[0] >= CENTURY_MINUTES else "about "
    return (f" At the study's {signed(gain['value'])} Elo per doubling of training time, {about}"
            f"{duration(need[0])} [{duration(need[1])}, {duration(need[2])}] of training on "
            f"its machine would bring it to {SETTLED_ELO:+d} against the material bot.")


def budget_lines(entries):
    rows = budget_gains(entries)
    if not rows:
        return ["No entry has a half-budget measurement that Elo can place yet (scripts/study.sh "
                "plays one; a score of 0 or 1 has no Elo)."]

    def cell(manifest):
        m = material_match(manifest)
        return (f"{manifest['training']['minutes']:.0f} min, gen {manifest['generation']}, "
                f"{100 * m['score']:.1f}%, {elo_text(m)}")
    lines = [BUDGET_METHOD, "",
             "| entry | half the budget: minutes, generation, against material | the whole "
             "budget | Elo gained | per doubling of training time |",
             "| --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| {r['name']} | {cell(r['half'])} | {cell(r['full'])} | "
                     f"{est(r['gained'], 0, signed=True)} | "
                     f"{est(r['per_doubling'], 0, signed=True)} |")
    drawn = [r["name"] for r in rows if r["drawn"]]
    left_out = ("" if not drawn else
                f" Left out of the pool: {', '.join(drawn)}, whose matches were "
                f"{100 * DRAWN_MATCH_SHARE:.0f}% drawn or more (the two bots play alike in a "
                "game neither wins; the narrow Elo interval of such a match would outweigh every "
                "other entry while it measures no learning).")
    gain = pooled_gain(rows)
    if gain is None:
        return lines + ["", "No entry to pool." + left_out]
    reading = ("more training measurably helps" if gain["low"] > 0 else
               "the second half of the budget bought no strength this study can detect, so no "
               "budget can be projected from it")
    pooled = len(rows) - len(drawn)
    over = f"{pooled} entries" if pooled > 1 else "1 entry"
    return lines + ["", f"Pooled over {over}: {est(gain, 0, signed=True)} Elo "
                    f"against the material bot per doubling of training time: {reading}."
                    + left_out]


def weakness_lines(entries):
    lines = []
    gain = pooled_gain(budget_gains(entries))
    for name, e in entries.items():
        for m in (e["manifest"] or {}).get("strength", []):
            if m["opponent"] == "material" and m["elo_low"] <= 0:
                lines.append(f"- {name}: not shown stronger than the material bot "
                             f"({elo_text(m)}): its "
                             "balance figures describe weak play, not the game."
                             + settle_text(e["manifest"], gain))
        if not e["columns"]:
            lines.append(f"- {name}: no balance report yet.")
            continue
        c = strongest(e["columns"])
        fma = c["first_move_advantage"]
        half = (fma["high"] - fma["low"]) / 2 if fma.get("value") is not None else 0
        if c["length"]["mean"] < DECIDED_IN_THE_OPENING:
            four = c["openings"][1]["most_common"][0] if len(c["openings"]) > 1 else None
            # An opening is worth naming when the bot keeps choosing it.
            repeated = four and four[1] > 1 and four[1] >= REPEATED_OPENING_SHARE * c["games"]
            opening = (f" (most common 4-ply opening: {four[0]}, {four[1]} of {c['games']})"
                       if repeated else "")
            lines.append(f"- {name}: games last {c['length']['mean']:.1f} plies on average at "
                         f"{c['strength'].split('@')[-1]} playouts, first-move advantage "
                         f"{est(fma, signed=True)}{opening}: the game is over within a few "
                         "moves; read these figures as a finding about the setup and rules as "
                         "played here (docs/RULES.md), not as a balance to quote.")
        if half > 0.02:
            need = math.ceil(c["games"] * (half / 0.02) ** 2)
            lines.append(f"- {name}: the first-move advantage is known to ±{half:.3f}; "
                         f"±0.02 needs about {need} games at this strength.")
    return lines or ["- Every bot measured stronger than the material bot, every interval "
                     "within ±0.02."]


def document(entries):
    out = ["# The variant study", "",
           "Generated by `scripts/study_tables.py docs/study bots` from the kept reports "
           "(docs/study/ENTRY/balance.json, records.json, material.json and half-budget.toml; "
           "bots/ENTRY/manifest.toml); `scripts/study.sh` trains, measures and plays them. "
           "Do not edit by hand. Intervals are 95%; the "
           "definitions are docs/BALANCE.md's and docs/ARENA.md's.", ""]
    if not entries:
        return "\n".join(out + ["No entry has been played yet: run `scripts/study.sh`.", ""])
    sections = [
        ("Bots: training and strength", bots_table(entries)),
        ("Balance with trained play", balance_table(entries)),
        ("Piece values", piece_values_lines(entries)),
        ("Four-player games", four_player_table(entries)),
        ("What Deans change", deans_lines(entries)),
        ("Commedia dell'Arte's six odd-move rules", commedia_lines(entries)),
        ("Commedia dell'Arte's other forms", commedia_forms_lines(entries)),
        ("Very Heavy Chess: the compound pieces",
         piece_values_lines(entries, only=lambda n: n == "very-heavy-chess")),
        ("Chess, the reference", chess_lines(entries)),
        ("A second opinion: the material bot's play", material_lines(entries)),
        ("The material bot searching deeper", material_deeper_lines(entries)),
        ("What more training buys", budget_lines(entries)),
        ("Where the play is too weak for a conclusion", weakness_lines(entries)),
    ]
    for title, lines in sections:
        if len(lines) == 2 and lines[1].startswith("| ---"):  # a table without rows
            lines = ["No entry of this kind yet."]
        elif title == "Piece values":
            lines = [PIECE_VALUES_METHOD, ""] + lines
        out += [f"## {title}", ""] + lines + [""]
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.stdout.write(document(load_entries(sys.argv[1], sys.argv[2])))


if __name__ == "__main__":
    main()

"""The Commedia dell'Arte sections of the variant study's document (scripts/study_tables.py):
the six odd-move rules side by side and against the default form, and the Filled, Chessgi and
Double forms beside the game under the same odd-move rule."""
from study_figures import (REPEATED_OPENING_SHARE, difference, est, group_mean, match_cell,
                           material_match, strongest, verdict)

# The six odd-move rules in the order the document shows them (scripts/study.sh plays the same).
ODD_RULES = ["stepping", "even-leaping", "odd-leaping", "alternate-leaping", "flexi-leaping",
             "maxi-leaping"]
# Moves at the start of `commedia` under each odd-move rule (perft depth 1, docs/RULES.md, held
# by the core perft tests): the first two rules keep the first rank behind the second ("first-rank
# pieces blocked by second-rank ones"), the other four let it leap out at once.
START_MOVES = {"stepping": 12, "even-leaping": 12, "odd-leaping": 21, "alternate-leaping": 21,
               "flexi-leaping": 23, "maxi-leaping": 23}
DEFAULT_ODD_RULE = "even-leaping"  # "the default form for the established Panda" (A21)
# A share of games decided within the miniature bound (docs/BALANCE.md) worth a reading of its own.
MINIATURE_SHARE = 0.10
# A share of games opened by the same two plies from which the bots' habit is the reading.
TRAPPED_OPENING_SHARE = 0.25


def miniature_cells(c):
    m = c.get("miniatures")
    if not m:  # a report from before balance counted them
        return "-", "-"
    return (f"{100 * m['share']['value']:.1f}% [{100 * m['share']['low']:.1f}, "
            f"{100 * m['share']['high']:.1f}]", est(m["longer_first_move_advantage"], signed=True))


COMMEDIA_HEADER = ["first-move advantage", "decided within 20 plies",
                   "first-move advantage in the longer games", "draw rate", "mean length",
                   "most common ending"]


def commedia_row(cells, manifest, c):
    """A table row of Commedia dell'Arte's sections: CELLS, then the bot against material and
    the strongest column's balance figures (COMMEDIA_HEADER)."""
    ending = c["terminations"][0]["termination"] if c["terminations"] else "-"
    short, longer = miniature_cells(c)
    return (f"| {' | '.join(cells)} | {match_cell(manifest, 'material')} | "
            f"{est(c['first_move_advantage'], signed=True)} | {short} | {longer} | "
            f"{est(c['draw_rate'])} | {c['length']['mean']:.1f} | {ending} |")


def weaker_caveat(labelled, entries, what):
    """The caveat over the bots (LABELLED: label, entry name) measured weaker than material."""
    weaker = [label for label, name in labelled
              if (material_match(entries[name]["manifest"]) or {}).get("elo_high", 0) < 0]
    if not weaker:
        return []
    counted = (f"{len(weaker)} of these {len(labelled)} bots" if len(labelled) > 1
               else "The one bot here")
    return [f"{counted} measured weaker than the material bot ({', '.join(weaker)}): the "
            f"readings below describe how bots that weak play {what}.", ""]


def commedia_lines(entries):
    played = [(rule, strongest(entries["commedia-" + rule]["columns"]))
              for rule in ODD_RULES if entries.get("commedia-" + rule, {}).get("columns")]
    rows = [f"| odd-move rule | moves at the start | bot against material | "
            f"{' | '.join(COMMEDIA_HEADER)} |",
            "| --- | ---: | --- | --- | --- | --- | --- | ---: | --- |"]
    for rule, c in played:
        rows.append(commedia_row([rule, str(START_MOVES[rule])],
                                 entries["commedia-" + rule]["manifest"], c))
    if len(played) < 2:
        return rows
    caveat = weaker_caveat([(rule, "commedia-" + rule) for rule, _ in played], entries,
                           "each form, not the forms' balance under strong play")
    return rows + [""] + caveat + commedia_readings(dict(played))


# Commedia dell'Arte's other forms (REFERENCE.md 5.10) and what each changes in the game.
COMMEDIA_FORMS = {
    "commedia-filled": "a Pawn rank a side and the centre's four cells restored",
    "commedia-chessgi": "captured men dropped from the captor's hand",
    "commedia-double": ("four players, each for themselves, one camp each; a King taken hands "
                        "its army to the taker"),
    "commedia-double-individual": ("Double scored by the individual ranking: the armies still "
                                   "playing share a draw's places, those taken rank last"),
}
# Forms that differ from another form only in how a game is scored, and what that one scores by:
# read against it too.
SCORED_AGAINST = {"commedia-double-individual": ("commedia-double", "team scoring")}


def commedia_forms_lines(entries):
    """Filled, Chessgi and Double beside Commedia dell'Arte under the same odd-move rule (the one
    each form's bot plays), and a form scored another way beside the form it rescores, from the
    strongest columns."""
    rows = [f"| form | what it changes | odd-move rule | bot against material | "
            f"{' | '.join(COMMEDIA_HEADER)} |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | ---: | --- |"]
    readings, played = [], []
    for form, change in COMMEDIA_FORMS.items():
        e = entries.get(form, {})
        if not e.get("columns"):
            continue
        c, rule = strongest(e["columns"]), e.get("odd_rule") or "-"
        played.append(form)
        rows.append(commedia_row([form, change, rule], e["manifest"], c))
        plain = entries.get(f"commedia-{rule}", {})
        if plain.get("columns"):
            readings.append(against(f"{form} − commedia-{rule} (the same odd-move rule)", c,
                                    strongest(plain["columns"]), "in " + form))
        other, scoring = SCORED_AGAINST.get(form, (None, None))
        if entries.get(other, {}).get("columns"):
            readings.append(against(f"{form} − {other} ({scoring})", c,
                                    strongest(entries[other]["columns"]), "in " + form))
    if not played:
        return rows
    caveat = weaker_caveat([(form, form) for form in played], entries,
                           "these forms, not their balance under strong play")
    return rows + [""] + caveat + readings


def against(label, c, base, condition):
    """The reading of column C against column BASE: first-move advantage and draw rate, and the
    first-move advantage over the games not decided within the miniature bound."""
    fma = difference(c["first_move_advantage"], base["first_move_advantage"])
    draws = difference(c["draw_rate"], base["draw_rate"])
    longer = ""
    if c.get("miniatures") and base.get("miniatures"):
        d = difference(c["miniatures"]["longer_first_move_advantage"],
                       base["miniatures"]["longer_first_move_advantage"])
        longer = (f"; in the games not decided within {c['miniatures']['plies']} plies, "
                  f"first-move advantage {est(d, signed=True)}: "
                  f"{verdict(d, 'first-move advantage', condition)}")
    return (f"- {label}: first-move advantage {est(fma, signed=True)}, draw rate "
            f"{est(draws, signed=True)}: {verdict(fma, 'first-move advantage', condition)}; "
            f"{verdict(draws, 'draw rate', condition)}{longer}.")


def opening_repeated(c):
    """How often the bots chose their most common 2-ply opening, when they keep choosing it."""
    openings = next((o for o in c.get("openings") or [] if o["plies"] == 2), None)
    if not openings or not openings["most_common"]:
        return ""
    moves, count = openings["most_common"][0]
    if count < 2 or count < REPEATED_OPENING_SHARE * c["games"]:
        return ""
    if count < TRAPPED_OPENING_SHARE * c["games"]:
        return f"; its most common opening, {moves}, began {count} of the {c['games']} games"
    return (f"; {count} of the {c['games']} games began {moves}: the bots walk into the same "
            "line again and again, so that share says as much about their play as about the form")


def rules(columns):
    return f"{len(columns)} rule" + ("s" if len(columns) != 1 else "")


def commedia_readings(columns):
    """Each rule against the default form, and the rules that hold the first rank back against
    those that let it leap out, from the strongest columns."""
    default = columns.get(DEFAULT_ODD_RULE)
    lines = [against(f"{rule} − {DEFAULT_ODD_RULE} (the default form)", c, default,
                     "under " + rule)
             for rule, c in columns.items() if default is not None and rule != DEFAULT_ODD_RULE]
    for rule, c in columns.items():
        m = c.get("miniatures")
        if not m or m["share"]["value"] < MINIATURE_SHARE or m["games"] == 0:
            continue
        # The first seat's mean advantage in the quick games, from the column's and the rest's.
        quick = (c["first_move_advantage"]["value"] * c["games"]
                 - m["longer_first_move_advantage"]["value"] * m["longer_games"]) / m["games"]
        lines.append(
            f"- Under {rule} {100 * m['share']['value']:.0f}% of the games are won or lost "
            f"within {m['plies']} plies, the first player scoring {0.5 + quick:.2f} in them; over "
            f"the other {m['longer_games']} games the first-move advantage is "
            f"{est(m['longer_first_move_advantage'], signed=True)} against "
            f"{est(c['first_move_advantage'], signed=True)} over all{opening_repeated(c)}.")
    held = [c for r, c in columns.items() if START_MOVES[r] == START_MOVES["stepping"]]
    free = [c for r, c in columns.items() if START_MOVES[r] > START_MOVES["stepping"]]
    if held and free:
        condition = "when the first rank leaps out at once"
        parts = []
        for what, key in (("first-move advantage", "first_move_advantage"),
                          ("draw rate", "draw_rate")):
            a, b = group_mean([c[key] for c in free]), group_mean([c[key] for c in held])
            d = difference(a, b)
            signed = key == "first_move_advantage"
            parts.append(f"{what} {est(a, signed=signed)} against {est(b, signed=signed)}, "
                         f"{verdict(d, what, condition)}")
        length = (sum(c["length"]["mean"] for c in free) / len(free),
                  sum(c["length"]["mean"] for c in held) / len(held))
        lines.append(f"- The {rules(free)} that let the first rank leap out at once against "
                     f"the {rules(held)} that hold it behind the second rank (means of their "
                     f"columns): {'; '.join(parts)}; mean length {length[0]:.1f} against "
                     f"{length[1]:.1f} plies.")
    return lines

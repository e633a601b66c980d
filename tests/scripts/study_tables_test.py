#!/usr/bin/env python3
"""scripts/study_tables.py: its tables hold the kept reports' figures (a fixture of real
`fairyzero balance` reports, one of a run's recorded games, and a bot manifest, each figure
recomputed here from the JSON), and
docs/STUDY.md is exactly what the script makes of docs/study/ and bots/ (so it is never typed
by hand or left stale)."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "study_tables.py")
FIXTURE = os.path.join(ROOT, "tests", "scripts", "study_fixture")
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def generate(study, bots):
    return subprocess.run([sys.executable, SCRIPT, study, bots], check=True,
                          capture_output=True, text=True).stdout


def column(entry, playouts):
    with open(os.path.join(FIXTURE, "study", entry, "balance.json")) as f:
        columns = json.load(f)["columns"]
    return next(c for c in columns if c["strength"].endswith(f"@{playouts}"))


def fixture_checks():
    text = generate(os.path.join(FIXTURE, "study"), os.path.join(FIXTURE, "bots"))
    lines = text.splitlines()
    check("| isis | 40 | 5120 | 30 | 2 cores (a test CPU), cpu | - | 60.0% of 100, +70 [+9, +136] "
          "| 92.0% of 100, +424 [+330, +560] | - |" in lines, "the bot row from the manifest")
    check("| isis-deans | no bot in bots/ |" in text, "an entry without a bot says so")
    # One balance row per column of every report, with its first-move advantage.
    for entry in ("isis", "isis-deans"):
        for playouts in (4, 8):
            c = column(entry, playouts)
            fma = c["first_move_advantage"]
            cell = f"{fma['value']:+.3f} [{fma['low']:+.3f}, {fma['high']:+.3f}]"
            check(any(l.startswith(f"| {entry} | {playouts} playouts | {c['games']} | {cell} |")
                      for l in lines), f"balance row {entry}@{playouts}: {cell}")
    # Deans: the stronger columns' difference, half-widths added in quadrature.
    a, b = column("isis-deans", 8)["first_move_advantage"], column("isis", 8)["first_move_advantage"]
    d = a["value"] - b["value"]
    half = (((a["high"] - a["low"]) / 2) ** 2 + ((b["high"] - b["low"]) / 2) ** 2) ** 0.5
    check(f"| isis | {d:+.3f} [{d - half:+.3f}, {d + half:+.3f}] |" in text,
          "the Deans row's first-move advantage difference")
    # The four-player table: seats in turn order, who dropped out first, the ranking.
    irwell = column("irwell", 2)
    first = irwell["seat_order"][0]
    check(f"1. {first['seat']} {first['team']['value']:.2f}" in text, "irwell's turn order")
    check(all(x["seat"] in text for x in irwell["ranking"]), "irwell's ranking")
    check("No chess report yet." in text, "a missing reference row says so")
    check("linear probability model over material snapshots" in text and
          "1/sqrt(games)" in text, "the piece values' method is stated above their table")
    # Piece values: a row at the stronger bot, and one over the run's recorded games.
    isis = column("isis", 8)
    check(any(l.startswith(f"| isis | bot at 8 playouts | {isis['games']} | "
                           f"{isis['piece_values'].get('reference') or '-'} |") for l in lines),
          "the bot's piece values row")
    with open(os.path.join(FIXTURE, "study", "isis", "records.json")) as f:
        records = json.load(f)["columns"][0]
    pv = records["piece_values"]
    scaled = sorted((p for p in pv["pieces"] if p.get("scaled")), key=lambda p: -p["scaled"]["value"])
    best = scaled[0]["scaled"] if scaled else None
    check(any(l.startswith(f"| isis | {records['strength']} | {records['games']} | "
                           f"{pv.get('reference') or '-'} |")
              and (best is None or f"{scaled[0]['piece']} {best['value']:.2f} "
                   f"[{best['low']:.2f}, {best['high']:.2f}]" in l) for l in lines),
          "the recorded games' piece values row")


def bot_without_report_checks():
    """A shipped bot whose balance report is still to be played is listed with its training
    and strength, and the report's absence is said, not skipped."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(FIXTURE, "study"), os.path.join(tmp, "study"))
        shutil.copytree(os.path.join(FIXTURE, "bots"), os.path.join(tmp, "bots"))
        shutil.copytree(os.path.join(tmp, "bots", "isis"), os.path.join(tmp, "bots", "cam"))
        text = generate(os.path.join(tmp, "study"), os.path.join(tmp, "bots"))
    check("| cam | 40 | 5120 | 30 |" in text, "a bot without a report has its bots row")
    check("| cam | no balance report yet |" in text and "- cam: no balance report yet." in text,
          "a bot without a report says so in the balance table and the weakness list")


def decided_in_the_opening_checks():
    """An entry whose strongest games end within a few moves is flagged as a finding about its
    setup, naming its most common opening when the bot keeps choosing it (in two games and 5%
    of them or more); entries of ordinary length are not flagged."""
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(FIXTURE, "study"), os.path.join(tmp, "study"))
        shutil.copytree(os.path.join(FIXTURE, "bots"), os.path.join(tmp, "bots"))
        ordinary = generate(os.path.join(tmp, "study"), os.path.join(tmp, "bots"))
        path = os.path.join(tmp, "study", "isis", "balance.json")

        def rewrite(top_count):
            with open(path) as f:
                report = json.load(f)
            strongest = next(c for c in report["columns"] if c["strength"].endswith("@8"))
            strongest["length"]["mean"] = 6.5
            strongest["openings"][1]["most_common"][0][1] = top_count
            with open(path, "w") as f:
                json.dump(report, f)
            return strongest, generate(os.path.join(tmp, "study"), os.path.join(tmp, "bots"))

        strongest, varied = rewrite(1)
        repeated = rewrite(4)[1]
    opening = strongest["openings"][1]["most_common"][0][0]
    named = f"(most common 4-ply opening: {opening}, 4 of {strongest['games']})"
    check("games last" not in ordinary, "games of ordinary length are not flagged")
    check("- isis: games last 6.5 plies on average at 8 playouts" in varied
          and "most common 4-ply opening" not in varied,
          "short games are flagged; an opening played once is not named")
    check(named in repeated, "an opening the bot keeps choosing is named")


def read_toml(path):
    import tomllib
    with open(path, "rb") as f:
        return tomllib.load(f)


def material(manifest):
    return next(m for m in manifest["strength"] if m["opponent"] == "material")


def budget_checks():
    """The half-budget checkpoint's row: the Elo gained over the second half of the training
    time, divided by its doublings; pooled, that gain projects the training that would bring a
    bot weaker than the material bot to +100 against it, and says so when it cannot."""
    Z = 1.959964
    text = generate(os.path.join(FIXTURE, "study"), os.path.join(FIXTURE, "bots"))
    half = read_toml(os.path.join(FIXTURE, "study", "isis", "half-budget.toml"))
    full = read_toml(os.path.join(FIXTURE, "bots", "isis", "manifest.toml"))
    h, f = material(half), material(full)
    width = ((h["elo_high"] - h["elo_low"]) ** 2 + (f["elo_high"] - f["elo_low"]) ** 2) ** 0.5 / 2
    gained = f["elo"] - h["elo"]
    doublings = math.log2(full["training"]["minutes"] / half["training"]["minutes"])
    per = (gained / doublings, (gained - width) / doublings, (gained + width) / doublings)
    check(f"| +{gained:.0f} [+{gained - width:.0f}, +{gained + width:.0f}] | "
          f"+{per[0]:.0f} [+{per[1]:.0f}, +{per[2]:.0f}] |" in text,
          "the Elo gained over the second half and per doubling of training time")
    check(f"Pooled over 1 entry: +{per[0]:.0f} [+{per[1]:.0f}, +{per[2]:.0f}]" in text,
          "one entry's pooled gain is its own")

    def with_elos(full_elo, half_elo):
        """The fixture with the whole-budget and half-budget bots at these Elo (intervals
        moved with them)."""
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(FIXTURE, "study"), os.path.join(tmp, "study"))
            shutil.copytree(os.path.join(FIXTURE, "bots"), os.path.join(tmp, "bots"))
            files = ((os.path.join(tmp, "bots", "isis", "manifest.toml"), f, full_elo),
                     (os.path.join(tmp, "study", "isis", "half-budget.toml"), h, half_elo))
            for path, m, value in files:
                with open(path) as file:
                    body = file.read()
                for key in ("elo", "elo_low", "elo_high"):
                    body = body.replace(f"{key} = {m[key]}", f"{key} = {m[key] - m['elo'] + value}")
                with open(path, "w") as file:
                    file.write(body)
            return generate(os.path.join(tmp, "study"), os.path.join(tmp, "bots"))

    # Weak now, far weaker at half the budget: a projection, its range from the gain's interval.
    projected = with_elos(-50.0, -400.0)
    gain = 350.0 / doublings
    need = [30.0 * 2 ** (150.0 / g) for g in (gain, (350 + width) / doublings,
                                              (350 - width) / doublings)]
    check(f"about {need[0]:.0f} min [{need[1]:.0f} min, {need[2]:.0f} min] of training on its "
          "machine would bring it to +100 against the material bot" in projected,
          "the budget that would settle a weak bot")
    # A gain barely clear of zero: the interval's far end is over a century, not a float
    # overflow (aire's bot once took the pool's low end to +0.3 Elo a doubling).
    barely = with_elos(-400.0, -400.0 - 1.001 * width)
    check("of training on its machine" in barely and ", over a century] of training" in barely,
          "a gain barely above zero projects over a century, not an overflow")
    # A second half that bought nothing measurable projects nothing.
    flat = with_elos(-50.0, -70.0)
    check("bought no strength this study can detect" in flat
          and "of training on its machine" not in flat,
          "no projection from a gain whose interval reaches zero")
    # A match of 90% draws or more is shown but not pooled: its narrow interval would outweigh
    # every other entry (Double Commedia's 96 and 99 draws of 100 once took the pool to -7).
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(os.path.join(FIXTURE, "study"), os.path.join(tmp, "study"))
        shutil.copytree(os.path.join(FIXTURE, "bots"), os.path.join(tmp, "bots"))
        path = os.path.join(tmp, "study", "isis", "half-budget.toml")
        with open(path) as file:
            body = file.read()
        with open(path, "w") as file:
            file.write(body.replace("draws = 20", "draws = 90"))  # only the draws count here
        drawn = generate(os.path.join(tmp, "study"), os.path.join(tmp, "bots"))
    check(f"| +{gained:.0f} [+{gained - width:.0f}, +{gained + width:.0f}] |" in drawn
          and "No entry to pool. Left out of the pool: isis, whose matches were 90% drawn or "
          "more" in drawn and "Pooled over" not in drawn,
          "an entry of nearly drawn matches is shown but not pooled")


def commedia_checks():
    """The odd-move rules' table and readings, from the strongest columns: each rule against the
    default form (even-leaping), the games decided within 20 plies and the first-move advantage
    without them, and the rules that let the first rank leap out at once against those that
    hold it back; a rule without a report is left out, a report without miniatures shows "-"."""
    def estimate(value, half):
        return {"value": value, "low": value - half, "high": value + half}

    with tempfile.TemporaryDirectory() as tmp:
        study = os.path.join(tmp, "study")

        def entry(rule, fma, draws, miniatures=None, opening=("a2a3 a9a8", 1)):
            c = column("isis", 8)  # a real report's column with these figures
            c.update(strength=f"commedia-{rule}@8", games=200, first_move_advantage=fma,
                     draw_rate=draws)
            c["openings"][0].update(plies=2, most_common=[list(opening)])
            c.pop("miniatures", None)
            if miniatures:
                c["miniatures"] = miniatures
            os.makedirs(os.path.join(study, "commedia-" + rule))
            with open(os.path.join(study, "commedia-" + rule, "balance.json"), "w") as f:
                json.dump({"format": 1, "columns": [c]}, f)

        entry("stepping", estimate(0.02, 0.05), estimate(0.45, 0.07))
        entry("even-leaping", estimate(0.14, 0.05), estimate(0.47, 0.07),
              {"plies": 20, "games": 70, "share": estimate(0.35, 0.06), "longer_games": 130,
               "longer_first_move_advantage": estimate(0.06, 0.045)}, ("d2a5 c9d8", 93))
        entry("odd-leaping", estimate(0.045, 0.045), estimate(0.58, 0.07))
        text = generate(study, os.path.join(tmp, "bots"))
    check("| stepping | 12 | - | +0.020 [-0.030, +0.070] | - | - | 0.450 [0.380, 0.520] |"
          in text, "a rule's row, without miniatures in its report")
    check("| even-leaping | 12 | - | +0.140 [+0.090, +0.190] | 35.0% [29.0, 41.0] | "
          "+0.060 [+0.015, +0.105] |" in text, "the miniatures' share and the rest's advantage")
    check("| maxi-leaping |" not in text, "a rule without a report is left out")
    # odd - even: -0.095, half-widths 0.045 and 0.05 in quadrature (0.067).
    check("- odd-leaping − even-leaping (the default form): first-move advantage -0.095 "
          "[-0.162, -0.028], draw rate +0.110 [+0.011, +0.209]: first-move advantage lower under "
          "odd-leaping; draw rate higher under odd-leaping." in text, "a rule against the default")
    # 0.14 over 200 games less 0.06 over the 130 longer ones leaves 0.289 over the quick 70.
    check("- Under even-leaping 35% of the games are won or lost within 20 plies, the first "
          "player scoring 0.79 in them; over the other 130 games the first-move advantage is "
          "+0.060 [+0.015, +0.105] against +0.140 [+0.090, +0.190] over all; 93 of the 200 "
          "games began d2a5 c9d8: the bots walk into the same line again and again" in text,
          "the miniatures' reading, with the opening the bots keep playing")
    check("- The 1 rule that let the first rank leap out at once against the 2 rules that hold "
          "it behind the second rank (means of their columns): first-move advantage +0.045 "
          "[+0.000, +0.090] against +0.080 [+0.045, +0.115], first-move advantage: no difference "
          "this play can detect;" in text, "the two groups of rules")


def commedia_forms_checks():
    """Filled, Chessgi and Double beside Commedia dell'Arte under the odd-move rule their bots
    play (read from the shipped bot's variant.toml): a row for each form with a report, a
    reading against the plain game where that rule's entry was played, none where it was not."""
    def estimate(value, half):
        return {"value": value, "low": value - half, "high": value + half}

    with tempfile.TemporaryDirectory() as tmp:
        study, bots = os.path.join(tmp, "study"), os.path.join(tmp, "bots")

        def entry(name, fma, draws, odd_rule=None):
            c = column("isis", 8)  # a real report's column with these figures
            c.update(strength=f"{name}@8", games=200, first_move_advantage=fma, draw_rate=draws)
            c.pop("miniatures", None)
            os.makedirs(os.path.join(study, name))
            with open(os.path.join(study, name, "balance.json"), "w") as f:
                json.dump({"format": 1, "columns": [c]}, f)
            if odd_rule:
                os.makedirs(os.path.join(bots, name))
                with open(os.path.join(bots, name, "variant.toml"), "w") as f:
                    f.write(f"[rules]\nodd_rule = '{odd_rule}'\n")

        entry("commedia-even-leaping", estimate(0.14, 0.05), estimate(0.47, 0.07))
        entry("commedia-filled", estimate(0.02, 0.04), estimate(0.60, 0.06), "even-leaping")
        entry("commedia-chessgi", estimate(0.10, 0.03), estimate(0.20, 0.05), "odd-leaping")
        text = generate(study, bots)
        entry("commedia-double", estimate(0.00, 0.01), estimate(0.93, 0.04), "stepping")
        entry("commedia-double-individual", estimate(0.03, 0.02), estimate(0.33, 0.03),
              "stepping")
        rescored = generate(study, bots).split("## Commedia dell'Arte's other forms")[1]
    section = text.split("## Commedia dell'Arte's other forms")[1].split("\n## ")[0]
    # individual - team: +0.03 and -0.60, half-widths in quadrature (0.022 and 0.05).
    check("- commedia-double-individual − commedia-double (team scoring): first-move advantage "
          "+0.030 [+0.008, +0.052], draw rate -0.600 [-0.650, -0.550]" in rescored,
          "a form scored another way against the form it rescores")
    check("| commedia-filled | a Pawn rank a side and the centre's four cells restored | "
          "even-leaping | - | +0.020 [-0.020, +0.060] | - | - | 0.600 [0.540, 0.660] |" in section,
          "a form's row names its odd-move rule")
    # filled - even-leaping: -0.12, half-widths 0.04 and 0.05 in quadrature (0.064).
    check("- commedia-filled − commedia-even-leaping (the same odd-move rule): first-move "
          "advantage -0.120 [-0.184, -0.056], draw rate +0.130 [+0.038, +0.222]: first-move "
          "advantage lower in commedia-filled; draw rate higher in commedia-filled." in section,
          "a form against the plain game under its rule")
    check("| commedia-chessgi | captured men dropped from the captor's hand | odd-leaping |"
          in section and "commedia-chessgi −" not in section,
          "a form whose rule's plain entry was not played: a row, no reading")
    check("| commedia-double |" not in section, "a form without a report is left out")


def material_checks():
    """The material bot's balance beside the trained bot's strongest column: both figures, their
    difference (material bot − trained bot) read against zero, and how many entries differ."""
    def estimate(value, half):
        return {"value": value, "low": value - half, "high": value + half}

    with tempfile.TemporaryDirectory() as tmp:
        study = os.path.join(tmp, "study")
        os.makedirs(os.path.join(study, "isis"))
        trained = [column("isis", 8), column("isis", 8)]
        trained[0].update(strength="isis@8", first_move_advantage=estimate(0.30, 0.1))
        trained[1].update(strength="isis@32", first_move_advantage=estimate(0.02, 0.03),
                          draw_rate=estimate(0.80, 0.05))
        material = column("isis", 8)
        material.update(strength="material@200", first_move_advantage=estimate(0.06, 0.04),
                        draw_rate=estimate(0.40, 0.06))
        for file, columns in (("balance.json", trained), ("material.json", [material])):
            with open(os.path.join(study, "isis", file), "w") as f:
                json.dump({"format": 1, "columns": columns}, f)
        os.makedirs(os.path.join(study, "cam"))  # both players put the first player ahead
        trained, material = column("isis", 8), column("isis", 8)
        trained.update(strength="cam@8", first_move_advantage=estimate(0.10, 0.03))
        material.update(strength="material@200", first_move_advantage=estimate(0.09, 0.02))
        for file, c in (("balance.json", trained), ("material.json", material)):
            with open(os.path.join(study, "cam", file), "w") as f:
                json.dump({"format": 1, "columns": [c]}, f)
        os.makedirs(os.path.join(study, "wey"))  # a trained report without the material bot's
        with open(os.path.join(study, "wey", "balance.json"), "w") as f:
            json.dump({"format": 1, "columns": [column("isis", 8)]}, f)
        text = generate(study, os.path.join(tmp, "bots"))
    section = text.split("## A second opinion: the material bot's play")[1].split("\n## ")[0]
    # fma 0.06 - 0.02 = +0.040, half-widths 0.04 and 0.03 in quadrature (0.05); draws 0.40 -
    # 0.80 = -0.400, half-widths 0.06 and 0.05 (0.078). The 32-playout column is the strongest.
    check("| isis | - | +0.020 [-0.010, +0.050] (32); +0.060 [+0.020, +0.100] | 0.800 [0.750, "
          "0.850]; 0.400 [0.340, 0.460] |" in section, "the two players' figures side by side")
    check("first-move advantage: no difference this play can detect (+0.040 [-0.010, +0.090]); "
          "draw rate lower under the material bot (-0.400 [-0.478, -0.322]) |" in section,
          "the difference read against zero")
    check("| wey |" not in section, "an entry without the material bot's report is left out")
    check("Entries where the material bot's figure differs detectably from the trained bot's: "
          "first-move advantage, 0 of 2; draw rate, 1 of 2 (isis)." in section,
          "the count of entries whose players differ")
    # isis's trained +0.020 [-0.010, +0.050] holds zero: only cam is agreed on.
    check("with the same sign): the first player in cam." in section,
          "the entries where both players put the same side ahead")


def material_deeper_checks():
    """The material bot's balance at the arena's playouts beside its own at four times them:
    the columns ordered by playouts whatever their order in material.json, their difference
    (deeper − shallower) read against zero, and an entry with one column left out."""
    def estimate(value, half):
        return {"value": value, "low": value - half, "high": value + half}

    def material(playouts, fma, draw):
        c = column("isis", 8)
        c.update(strength=f"material@{playouts}", first_move_advantage=fma, draw_rate=draw)
        return c

    with tempfile.TemporaryDirectory() as tmp:
        study = os.path.join(tmp, "study")
        reports = {  # the deeper column first in isis's file
            "isis": [material(800, estimate(0.00, 0.03), estimate(0.60, 0.08)),
                     material(200, estimate(0.06, 0.04), estimate(0.40, 0.06))],
            "wey": [material(200, estimate(0.10, 0.03), estimate(0.40, 0.06)),
                    material(800, estimate(0.12, 0.04), estimate(0.40, 0.06))],
            "cam": [material(200, estimate(0.10, 0.03), estimate(0.40, 0.06))],
        }
        for name, columns in reports.items():
            os.makedirs(os.path.join(study, name))
            with open(os.path.join(study, name, "material.json"), "w") as f:
                json.dump({"format": 1, "columns": columns}, f)
        # wey's trained bot puts the first player ahead too; the "vey" entry's (a copy of wey's
        # material bot) holds zero.
        os.makedirs(os.path.join(study, "vey"))
        with open(os.path.join(study, "vey", "material.json"), "w") as f:
            json.dump({"format": 1, "columns": reports["wey"]}, f)
        for name, fma in (("wey", estimate(0.20, 0.05)), ("vey", estimate(0.02, 0.05))):
            trained = column("isis", 8)
            trained.update(strength=f"{name}@8", first_move_advantage=fma)
            with open(os.path.join(study, name, "balance.json"), "w") as f:
                json.dump({"format": 1, "columns": [trained]}, f)
        text = generate(study, os.path.join(tmp, "bots"))
    section = text.split("## The material bot searching deeper")[1].split("\n## ")[0]
    check("| isis (200; 800) | +0.060 [+0.020, +0.100]; +0.000 [-0.030, +0.030] | 0.400 "
          "[0.340, 0.460]; 0.600 [0.520, 0.680] |" in section,
          "the shallower search's figures, then the deeper's")
    # fma 0.00 - 0.06, half-widths 0.03 and 0.04 in quadrature (0.05); draws 0.60 - 0.40,
    # half-widths 0.08 and 0.06 (0.10).
    check("first-move advantage lower searching deeper (-0.060 [-0.110, -0.010]); draw rate "
          "higher searching deeper (+0.200 [+0.100, +0.300]) |" in section,
          "the difference read against zero")
    check("| cam" not in section, "an entry with the arena's playouts only is left out")
    check("Entries whose figure moves detectably as the material bot searches deeper: "
          "first-move advantage, 1 of 3 (isis); draw rate, 1 of 3 (isis)." in section,
          "the count of entries whose figures move")
    check("with the same sign): the first player in wey, vey. And" in section,
          "the entries where both depths put the same side ahead")
    check("who moves at an advantage: the first player in wey." in section,
          "the entries where the trained bot agrees with both depths")


def figures_checks():
    """Elo is written as a signed whole number, never "-0": a 50% score is +0 (a chessgi bot's
    -0.0 against the material bot once read "-0 [-51, +51]")."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import study_figures
    check([study_figures.signed(x) for x in (-0.0, -0.4, 0.4, -0.6, 111.4)]
          == ["+0", "+0", "+0", "-1", "+111"], "signed whole numbers")
    check(study_figures.elo_text({"elo": -0.0, "elo_low": -51.3, "elo_high": 51.3})
          == "+0 [-51, +51]", "a match's Elo and interval")


def committed_document_is_current():
    expected = generate(os.path.join(ROOT, "docs", "study"), os.path.join(ROOT, "bots"))
    with open(os.path.join(ROOT, "docs", "STUDY.md")) as f:
        check(f.read() == expected, "docs/STUDY.md differs from what scripts/study_tables.py "
              "makes of docs/study and bots: run `scripts/study_tables.py docs/study bots > "
              "docs/STUDY.md`")


fixture_checks()
bot_without_report_checks()
decided_in_the_opening_checks()
budget_checks()
commedia_checks()
commedia_forms_checks()
material_checks()
material_deeper_checks()
figures_checks()
committed_document_is_current()
for failure in failures:
    print("FAILED:", failure)
sys.exit(1 if failures else 0)

#!/usr/bin/python3
"""Learning curves of a FairyZero training run: reads RUN_DIR/training.csv, RUN_DIR/selfplay.csv and
RUN_DIR/validation.csv (held-out games) and writes RUN_DIR/learning_curves.png. Uses Debian's
python3-matplotlib (no numpy needed)."""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def column(rows, name):
    return [float(r[name]) for r in rows]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot_learning.py RUN_DIR")
    run = sys.argv[1]
    training = read(os.path.join(run, "training.csv"))
    selfplay = read(os.path.join(run, "selfplay.csv"))
    if not training and not selfplay:
        sys.exit(f"{run}: no training.csv or selfplay.csv yet")
    validation = read(os.path.join(run, "validation.csv"))
    # One row of two panels per file the run has (an external trainer's run has no selfplay.csv:
    # its workers play).
    present = [(name, rows) for name, rows in
               (("training", training), ("selfplay", selfplay), ("validation", validation)) if rows]
    fig, axes = plt.subplots(len(present), 2, figsize=(11, 3.5 * len(present)), squeeze=False)
    row = {name: axes[i] for i, (name, _) in enumerate(present)}
    fig.suptitle(f"FairyZero run {os.path.basename(os.path.abspath(run))}")
    if training:
        steps = column(training, "step")
        ax = row["training"][0]
        ax.plot(steps, column(training, "policy_loss"), label="policy loss")
        ax.plot(steps, column(training, "policy_entropy"), label="policy entropy", linestyle="--")
        soft = [float(r["soft_policy_loss"]) for r in training if r.get("soft_policy_loss")]
        if len(soft) == len(steps):
            ax.plot(steps, soft, label="soft policy loss", linestyle=":")
        ax.set_xlabel("training step")
        ax.legend()
        ax.set_title("policy")
        ax = row["training"][1]
        ax.plot(steps, column(training, "value_loss"), label="value loss", color="tab:red")
        moves_left = [float(r["moves_left_loss"]) for r in training if r.get("moves_left_loss")]
        if len(moves_left) == len(steps) and any(moves_left):
            ax.plot(steps, moves_left, label="moves-left loss", color="tab:purple", linestyle=":")
            ax.legend(loc="upper right")
        ax2 = ax.twinx()
        ax2.plot(steps, column(training, "value_accuracy"), label="value accuracy", color="tab:green")
        ax2.set_ylim(0, 1)
        ax.set_xlabel("training step")
        ax.set_title("value loss (red) and accuracy (green)")
    if selfplay:
        gens = column(selfplay, "generation")
        ax = row["selfplay"][0]
        ax.plot(gens, column(selfplay, "mean_plies"), marker="o", label="mean game length (plies)")
        ax.set_xlabel("generation")
        ax.set_title("self-play game length")
        ax = row["selfplay"][1]
        ax.plot(gens, column(selfplay, "draw_rate"), marker="o", label="draw rate")
        seats = [k for k in selfplay[0].keys() if k.startswith("score_")]
        for k in seats:
            ax.plot(gens, column(selfplay, k), marker=".", label=k.replace("score_", "score of "))
        ax.set_ylim(0, 1)
        ax.set_xlabel("generation")
        ax.legend()
        ax.set_title("self-play results")
    if validation:
        # The first agent's rows (per-seat runs have one row per seat and generation).
        first = validation[0].get("seat")
        validation = [r for r in validation if r.get("seat") == first]
        gens = [g + 1 for g in column(validation, "generation")]  # the network after training
        ax = row["validation"][0]
        ax.plot(gens, column(validation, "policy_loss"), marker="o", label="held-out games")
        ax.plot(gens, column(validation, "training_policy_loss"), marker=".", linestyle="--",
                label="training batches (mean)")
        ax.set_xlabel("network (generation)")
        ax.legend()
        ax.set_title("policy loss: held out vs trained on")
        ax = row["validation"][1]
        ax.plot(gens, column(validation, "value_loss"), marker="o", color="tab:red",
                label="held-out value loss")
        ax.plot(gens, column(validation, "training_value_loss"), marker=".", linestyle="--",
                color="tab:red", label="training value loss (mean)")
        ax.plot(gens, column(validation, "calibration_error"), marker="s", color="tab:purple",
                label="held-out calibration error")
        ax.set_xlabel("network (generation)")
        ax.legend()
        ax.set_title("value: held out vs trained on")
    fig.tight_layout()
    out = os.path.join(run, "learning_curves.png")
    fig.savefig(out, dpi=90)
    print(out)


if __name__ == "__main__":
    main()

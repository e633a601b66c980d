#!/usr/bin/python3
"""Prints a FairyZero sample file (docs/FORMAT.md): attributes, datasets, summary statistics,
and optionally one sample with its planes unpacked. Needs h5py and numpy (Debian's
python3-h5py), hence /usr/bin/python3.

  scripts/read_samples.py FILE                 attributes, datasets and statistics
  scripts/read_samples.py FILE -i 12           ... and sample 12 in full
  scripts/read_samples.py FILE -i 12 --files 8 ... with the planes drawn as boards of 8 files
"""
import argparse
import sys

import h5py
import numpy as np

SCHEMA_VERSIONS = (1, 2)  # docs/FORMAT.md: 2 added the rules fields (which this script skips)


def unpack_planes(f, i):
    """Planes of sample i as float32 [planes, cells]: bit c of plane p is
    plane_bits[i, p * ceil(cells / 8) + c // 8] >> (c % 8), times plane_scale[i, p]."""
    planes, cells = int(f.attrs["planes"]), int(f.attrs["cells"])
    packed = f["plane_bits"][i].reshape(planes, (cells + 7) // 8)
    bits = np.unpackbits(packed, axis=1, bitorder="little")[:, :cells]
    return bits.astype(np.float32) * f["plane_scale"][i][:, None]


def stats(name, values):
    if values.size == 0:
        return f"{name}: none"
    return (f"{name}: min {values.min():.4g} mean {values.mean():.4g} "
            f"max {values.max():.4g}")


def print_summary(f):
    print("attributes:")
    for key in sorted(f.attrs):
        print(f"  {key} = {f.attrs[key]}")
    print("datasets:")
    for key in sorted(f):
        d = f[key]
        print(f"  {key} {list(d.shape)} {d.dtype} chunks {d.chunks} {d.compression}"
              f"{' shuffle' if d.shuffle else ''}")
    n = int(f.attrs["samples"])
    offsets = f["policy_offsets"][:]
    moves = np.diff(offsets)
    print(f"samples: {n}, policy entries: {offsets[-1]}")
    print(stats("moves per sample", moves))
    print(stats("ply", f["ply"][:]))
    if "plies_left" in f:
        print(stats("plies left", f["plies_left"][:]))
    if n == 0:
        return
    seats = int(f.attrs["seats"])
    seat_counts = np.bincount(f["seat"][:], minlength=seats)
    print("samples per seat to move: " + " ".join(str(c) for c in seat_counts))
    weight_sums = np.add.reduceat(f["policy_weights"][:], offsets[:-1][moves > 0]) \
        if offsets[-1] > 0 else np.zeros(0)
    print(stats("policy weight sum per sample", weight_sums))
    outcome, root = f["outcome"][:], f["root_value"][:]
    for s in range(seats):
        print(f"seat {s}: mean outcome {outcome[:, s].mean():.4f}, "
              f"mean root value {root[:, s].mean():.4f}")
    heads = f["value_target"][:].reshape(n, -1, 3).mean(axis=0)
    for h, (w, d, l) in enumerate(heads):
        print(f"value head {h} (team to move + {h}): mean W {w:.4f} D {d:.4f} L {l:.4f}")


def print_sample(f, i, files):
    n = int(f.attrs["samples"])
    if not 0 <= i < n:
        sys.exit(f"sample {i} out of range: the file has {n}")
    start, end = f["policy_offsets"][i:i + 2]
    left = f", plies left {f['plies_left'][i]}" if "plies_left" in f else ""
    print(f"\nsample {i}: ply {f['ply'][i]}, seat to move {f['seat'][i]}{left}")
    print(f"  outcome {f['outcome'][i]}, root value {f['root_value'][i]}")
    print(f"  value target (W, D, L per head) {f['value_target'][i].reshape(-1, 3).tolist()}")
    order = np.argsort(-f["policy_weights"][start:end])
    indices, weights = f["policy_indices"][start:end], f["policy_weights"][start:end]
    print("  policy (index: weight, by weight): " +
          ", ".join(f"{indices[k]}: {weights[k]:.3f}" for k in order))
    planes = unpack_planes(f, i)
    cells = planes.shape[1]
    for p, plane in enumerate(planes):
        nonzero = np.flatnonzero(plane)
        if nonzero.size == 0:
            text = "all 0"
        elif nonzero.size == cells:
            text = f"constant {plane[0]:g}"
        else:
            text = f"{plane[nonzero[0]]:g} on cells {nonzero.tolist()}"
        print(f"  plane {p}: {text}")
        if files and 0 < nonzero.size < cells:
            # Top rank first, as a board is drawn; ranks are in the frame of the seat to move.
            for rank in reversed(plane.reshape(-1, files)):
                print("    " + " ".join("x" if v else "." for v in rank))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("-i", "--index", type=int, help="also print this sample in full")
    parser.add_argument("--files", type=int, default=0,
                        help="board width, to draw the sample's planes as boards")
    args = parser.parse_args()
    with h5py.File(args.file, "r") as f:
        version = int(f.attrs.get("schema_version", -1))
        if version not in SCHEMA_VERSIONS:
            sys.exit(f"{args.file}: schema version {version}, this script reads "
                     f"{', '.join(map(str, SCHEMA_VERSIONS))}")
        if args.files and int(f.attrs["cells"]) % args.files:
            sys.exit(f"--files {args.files} does not divide cells = {f.attrs['cells']}")
        print_summary(f)
        if args.index is not None:
            print_sample(f, args.index, args.files)


if __name__ == "__main__":
    main()

"""Make tests/data/cube-tosses-sample.npz: the first six tosses of the
ContactNets fit set (../shared/data/cube-tosses/fit.npz beside the
repository), every key of theirs and the file's own keys, unchanged
(see cube-tosses-sample.md beside this script: provenance and licence).

Run: python tests/data/make_cube_tosses_sample.py [--source FIT.npz] [--force]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DEFAULT_SOURCE = HERE.parents[2] / "shared" / "data" / "cube-tosses" / "fit.npz"
TARGET = HERE / "cube-tosses-sample.npz"
#: The tosses kept: the first six of the file, by name.
COUNT = 6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    ap.add_argument("--force", action="store_true", help="overwrite the sample")
    args = ap.parse_args()
    if TARGET.exists() and not args.force:
        sys.exit(f"{TARGET} exists; use --force to overwrite")
    with np.load(args.source, allow_pickle=False) as src:
        names = sorted(m.group(1) for k in src.files if (m := re.match(r"^t_(\d+)$", k)))[:COUNT]
        keep = {}
        for k in src.files:
            m = re.match(r"^[a-z_]+?_(\d+)$", k)
            if m is None or m.group(1) in names:
                keep[k] = src[k]
    keep["n_tosses"] = np.array(len(names))
    np.savez_compressed(TARGET, **keep)
    print(f"wrote {TARGET}: tosses {', '.join(names)}")


if __name__ == "__main__":
    main()

"""``dpspec compress CLASS``: compress a random realizable sample of a class (seed 002 ch. 4).

Draws m points and a random target of CLASS (thresholds, intervals, rectangles, bv,
lipschitz), builds κ(S) with MedBoost + Sparsify, rebuilds ρ(κ(S)) and reports stored points,
side bits, the reconstruction error over the sample, boosting rounds, weak-learner draws,
Sparsify trials and seconds. Exit 0 when the reconstruction is exact (binary) or within η
(real-valued), 1 otherwise, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np


def _cmd_compress(args: argparse.Namespace) -> int:
    from dpspec.impl.compression.schemes import (
        BINARY,
        compress,
        random_realizable_sample,
        reconstruct,
    )
    from dpspec.proofs.cli import _write_json

    rng = np.random.default_rng(args.seed)
    try:
        x, y = random_realizable_sample(args.cls, args.m, rng)
        start = time.perf_counter()
        c = compress(
            args.cls, x, y, rng, gamma=args.gamma, eta=args.eta, n=args.n, subsample=args.subsample
        )
        seconds = time.perf_counter() - start
    except (ValueError, KeyError) as exc:
        print(f"dpspec compress: {exc}", file=sys.stderr)
        return 2
    pred = reconstruct(c, x[c.stored], y[c.stored])(x)
    error = float(np.max(np.abs(pred - y)))
    eta = (0.5 if args.cls in BINARY else 0.1) if args.eta is None else args.eta
    ok = error == 0 if args.cls in BINARY else error <= eta
    payload = {
        "class": args.cls,
        "m": args.m,
        "seed": args.seed,
        "stored_points": c.stored_points,
        "side_bits": c.side_bits,
        "size": c.size,
        "reconstruction_error": error,
        "boosting_rounds": c.rounds,
        "weak_learner_draws": c.weak_draws,
        "sparsify_trials": c.trials,
        "seconds": seconds,
        "ok": ok,
    }
    for key, value in payload.items():
        print(f"{key:>20}: {value}")
    _write_json(args.json, payload)
    return 0 if ok else 1


def register(sub: Any) -> None:
    """Add the ``compress`` subcommand to the ``dpspec`` parser's subparsers ``sub``."""
    p = sub.add_parser("compress", help="sample compression by boosting (seed 002 ch. 4)")
    p.add_argument(
        "cls", metavar="CLASS", choices=("thresholds", "intervals", "rectangles", "bv", "lipschitz")
    )
    p.add_argument("--m", type=int, default=1000, help="sample size")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--gamma", type=float, default=0.25, help="weak-learning edge in (0, 1/2)")
    p.add_argument("--eta", type=float, help="accuracy (real-valued classes; default 0.1)")
    p.add_argument("--n", type=int, default=64, help="hypotheses kept by Sparsify")
    p.add_argument("--subsample", type=int, default=8, help="weak learner sample size")
    p.add_argument("--json", metavar="PATH", help="write the report as JSON")
    p.set_defaults(func=_cmd_compress)

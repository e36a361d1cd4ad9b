"""``dpspec compress CLASS``: compress a random realizable sample of a class (seed 002 ch. 4).

Draws m points and a random target of CLASS (thresholds, intervals, rectangles, bv,
lipschitz), builds κ(S) with MedBoost + Sparsify, rebuilds ρ(κ(S)) and reports stored points,
side bits, the reconstruction error over the sample, boosting rounds, weak-learner draws,
Sparsify trials and seconds. Exit 0 when the reconstruction is exact (binary) or within η
(real-valued), 1 otherwise (also when a bounded loop — weak-learner retries, Sparsify trials —
ran out: no κ(S) within the budget), 2 on usage errors (checked before any work: one line on
stderr naming the option; every option is declared with its domain, ``add_option``), 3 on
internal errors (the JSON could not be written).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

import numpy as np

from dpspec.compression.boosting import MAX_POINT_ROUNDS, MAX_ROUNDS, MAX_SPARSIFY, MAX_SUBSAMPLE
from dpspec.compression.learners import LEARNERS
from dpspec.compression.schemes import BINARY, MAX_SAMPLE
from dpspec.proofs.engine.errors import UsageError, write_json
from dpspec.proofs.engine.options import WritablePath, add_option
from dpspec.validation import Choice, Integer, Real


def validate(args: argparse.Namespace) -> None:
    """The options that depend on each other, before any work (each option's own domain was
    checked by argparse); a :class:`UsageError` names the option."""
    rounds = 4 * math.log(max(args.m, 2)) / args.gamma / args.gamma  # inf for a tiny gamma
    if rounds > MAX_ROUNDS:
        raise UsageError(
            f"--gamma: {args.gamma!r} needs {rounds:.3g} boosting rounds at m = {args.m}, more "
            f"than the limit {MAX_ROUNDS}; use a larger gamma"
        )
    if math.ceil(rounds) * args.m > MAX_POINT_ROUNDS:
        raise UsageError(
            f"--m: T = {math.ceil(rounds)} rounds x m = {args.m} points is beyond the limit of "
            f"{MAX_POINT_ROUNDS} point-rounds; use a smaller --m or a larger --gamma"
        )
    if args.eta is not None and args.cls in BINARY and not args.eta < 1:
        raise UsageError(f"--eta: {args.cls} are binary: eta must be in (0, 1), got {args.eta!r}")


def _cmd_compress(args: argparse.Namespace) -> int:
    from dpspec.compression.boosting import CompressionFailure
    from dpspec.compression.schemes import compress, random_realizable_sample, reconstruct

    validate(args)
    rng = np.random.default_rng(args.seed)
    x, y = random_realizable_sample(args.cls, args.m, rng)
    start = time.perf_counter()
    try:
        c = compress(
            args.cls, x, y, rng, gamma=args.gamma, eta=args.eta, n=args.n, subsample=args.subsample
        )
    except CompressionFailure as exc:  # a bounded loop ran out: no κ(S) within the budget
        print(f"dpspec compress: no compression within the budget: {exc}", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - start
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
    write_json(args.json, payload)
    return 0 if ok else 1


def register(sub: Any) -> None:
    """Add the ``compress`` subcommand to the ``dpspec`` parser's subparsers ``sub``."""
    p = sub.add_parser(
        "compress",
        help="sample compression by boosting (seed 002 ch. 4)",
        description="Exit codes: 0 reconstruction exact / within eta, 1 not, 2 usage error, "
        "3 internal error.",
    )
    add_option(
        p, "cls", domain=Choice(options=tuple(LEARNERS)), example="thresholds", metavar="CLASS"
    )
    add_option(
        p, "--m", domain=Integer(lo=1, hi=MAX_SAMPLE), default=1000, help="sample size, 1..1e7"
    )
    add_option(p, "--seed", domain=Integer(lo=0, hi=2**63 - 1), default=0, help="integer >= 0")
    add_option(
        p,
        "--gamma",
        domain=Real(lo=0.0, hi=0.5, lo_open=True, hi_open=True),
        default=0.25,
        help="weak-learning edge in (0, 1/2); T = 4/gamma^2 ln m rounds must be <= 1e5",
    )
    add_option(
        p,
        "--eta",
        domain=Real(lo=0.0, lo_open=True, hi=2.0**64, optional=True),
        default=None,
        help="accuracy > 0 (real-valued classes; default 0.1; binary classes: < 1)",
    )
    add_option(
        p,
        "--n",
        domain=Integer(lo=1, hi=MAX_SPARSIFY),
        default=64,
        help="hypotheses kept by Sparsify, 1..1e5",
    )
    add_option(
        p,
        "--subsample",
        domain=Integer(lo=1, hi=MAX_SUBSAMPLE),
        default=8,
        help="weak learner sample size, 1..1e5",
    )
    add_option(
        p,
        "--json",
        domain=WritablePath(),
        default=None,
        metavar="PATH",
        help="write the report as JSON",
    )
    p.set_defaults(func=_cmd_compress)

"""``dpspec audit TARGET``: audit a mechanism's (ε, δ) claim; exit 0 consistent, 1 violation,
2 usage error.

TARGET is ``builtin:NAME`` (the bug zoo, ``dpspec audit list`` shows it), ``module:callable``
or ``path/file.py:callable`` (your code), or ``opendp:NAME`` / ``diffprivlib:NAME`` /
``pydp:NAME`` (those libraries' mechanisms, when installed).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm


def _parse_pair(text: str | None) -> tuple[Any, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"pair: expected JSON [D, D'], got {text!r} ({exc})") from exc
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"pair: expected JSON [D, D'], got {text!r}")
    return value[0], value[1]


def _resolve(
    args: argparse.Namespace,
) -> tuple[Any, tuple[Any, Any], float, float, str, dict[str, Any]]:
    """(mechanism, pair, epsilon, delta, description, audit options) for the target."""
    from dpspec.audit.zoo import zoo

    target: str = args.target
    pair = _parse_pair(args.pair)
    if target.startswith("builtin:"):
        name = target.removeprefix("builtin:")
        entries = zoo()
        if name not in entries:
            raise ValueError(f"target: no builtin {name!r}; choose from {sorted(entries)}")
        entry = entries[name]
        eps = entry.epsilon if args.epsilon is None else args.epsilon
        delta = entry.delta if args.delta is None else args.delta
        truth = "correct" if entry.correct else "broken"
        return (
            entry.mechanism,
            pair or entry.pair,
            eps,
            delta,
            f"{name} ({truth}): {entry.why}",
            entry.audit_options(),
        )
    if args.epsilon is None:
        raise ValueError("epsilon: required for non-builtin targets (--epsilon E)")
    delta = 0.0 if args.delta is None else args.delta
    from dpspec.audit.libraries import load_target

    mech = load_target(target, args.epsilon, delta)
    return mech, pair or (0.0, 1.0), args.epsilon, delta, target, {}


def _cmd_audit(args: argparse.Namespace) -> int:
    from dpspec.audit import audit
    from dpspec.audit.zoo import zoo
    from dpspec.proofs.cli import _write_json

    if args.target == "list":
        for name, entry in zoo().items():
            status = "correct" if entry.correct else "broken "
            true = f"{entry.true_epsilon:.4g}"
            print(f"builtin:{name:32s} {status} claims eps={entry.epsilon:g} true {true}")
        return 0
    try:
        mech, pair, eps, delta, what, options = _resolve(args)
        if args.float_attack:
            options["float_bits"] = True
        total = 2 * (args.samples + (args.selection or max(args.samples // 5, 20_000)))
        bar = tqdm(
            total=total,
            desc="audit",
            unit="draw",
            unit_scale=True,
            disable=args.no_progress,
            file=sys.stderr,
        )
        try:
            result = audit(
                mech,
                pair,
                eps,
                delta,
                args.samples,
                args.confidence,
                args.seed,
                selection=args.selection,
                progress=bar.update,
                checkpoint=args.checkpoint,
                jobs=args.jobs,
                **options,
            )
        finally:
            bar.close()
    except ValueError as exc:
        print(f"dpspec audit: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        where = (
            f"; resume with the same command (checkpoint {args.checkpoint})"
            if (args.checkpoint)
            else "; pass --checkpoint PATH to make long audits resumable"
        )
        print(f"dpspec audit: interrupted{where}", file=sys.stderr)
        return 130
    print(what)
    print(
        f"claimed (eps={result.epsilon_claimed:g}, delta={result.delta:g}); "
        f"eps lower bound {result.epsilon_lower:.4f} at confidence {result.confidence} "
        f"(estimate {result.epsilon_estimate:.4f})"
    )
    print(
        f"event: {result.event} [{result.direction}]; p1 = {result.p1:.6g} "
        f"{tuple(round(v, 8) for v in result.p1_interval)}, p2 = {result.p2:.6g} "
        f"{tuple(round(v, 8) for v in result.p2_interval)}; {result.samples_per_side} samples "
        f"per side; {result.seconds:.2f}s"
    )
    print("VIOLATION" if result.violation else "consistent with the claim")
    _write_json(args.json, {"target": args.target, **result.to_json()})
    if args.checkpoint and Path(args.checkpoint).is_file():
        Path(args.checkpoint).unlink()  # finished: nothing left to resume
    return 1 if result.violation else 0


def register(sub: Any) -> None:
    """Add the ``audit`` subcommand to the ``dpspec`` parser's subparsers ``sub``."""
    p = sub.add_parser("audit", help="audit a mechanism's (eps, delta) claim statistically")
    p.add_argument(
        "target",
        help="builtin:NAME | module:callable | opendp:NAME | diffprivlib:NAME | pydp:NAME | list",
    )
    p.add_argument("--epsilon", type=float, help="claimed epsilon (builtin: its own claim)")
    p.add_argument("--delta", type=float, help="claimed delta (default 0; builtin: its own)")
    p.add_argument("--samples", type=int, default=10**6, help="estimation draws per side")
    p.add_argument("--selection", type=int, help="selection draws per side (default N/5)")
    p.add_argument("--confidence", type=float, default=0.95)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--pair", help="JSON [D, D'] (default: the target's own pair, or [0, 1])")
    p.add_argument("--checkpoint", metavar="PATH", help="resumable progress file")
    p.add_argument("--jobs", type=int, default=1, help="parallel workers (joblib)")
    p.add_argument(
        "--float-attack",
        action="store_true",
        help="also test events on the float64 representation (Mironov)",
    )
    p.add_argument("--json", metavar="PATH", help="write the result as JSON")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_audit)

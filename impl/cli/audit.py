"""``dpspec audit TARGET``: audit a mechanism's (ε, δ) claim; exit 0 consistent, 1 violation,
4 inconclusive (the claim beyond the budget's resolution, or with ``--replay`` no upper bound
meeting it),
2 usage error (a bad argument, an unwritable ``--json``/``--checkpoint``, a budget beyond its
limits — refused before the work: :mod:`dpspec.audit._budget` —, a target whose outputs cannot
be audited), 3 internal error (the target raised, I/O failed, interrupted). Dicts, None,
variable-length rows and other containers of numbers, strings and bytes are audited (as shapes
and the numbers in them), not refused.

TARGET is ``builtin:NAME`` (the bug zoo, ``dpspec audit list`` shows it), ``module:callable``
or ``path/file.py:callable`` (your code), ``opendp:NAME`` / ``diffprivlib:NAME`` /
``pydp:NAME`` (those libraries' mechanisms, when installed), or a whole learner:
``learner:NAME`` (the learner zoo) or ``learner:module:factory`` (``factory(seed)`` returns an
unfitted estimator; ``--pair`` gives [[X, y], [X', y']], ``--probe`` the points whose
``--release`` is compared).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

from dpspec.proofs.engine.errors import InternalError, UsageError
from dpspec.proofs.engine.options import JSON_HELP, TEXT, JsonList, WritablePath, add_option
from dpspec.validation import MAX_AUDIT_SAMPLES as MAX_SAMPLES
from dpspec.validation import Choice, Delta, Domain, Epsilon, Integer, Real

EXIT_CODES = """exit codes:
  0  consistent: the eps lower bound does not exceed the claim, and the budget resolves
     it (detects eps x 1.25 on the reported event with probability >= 0.9; with --replay:
     the replay's upper bound meets the claim)
  1  VIOLATION: the eps lower bound exceeds the claim (false alarm <= 1 - confidence), or
     the replay is exact and its eps exceeds the claim
  4  inconclusive: no violation seen, but the claim is beyond what the budget resolves
     (the "resolution" line says what it does), or with --replay no upper bound meets it
  2  usage error: a bad argument, an unwritable --json/--checkpoint (checked before any
     draw), a damaged checkpoint, a budget beyond the limits (checked before the work:
     without --max-seconds at most 2^30 draws of a vectorised target, 5e6 calls of one
     called once per draw or learner fits; memory within 4 GiB after a pilot batch; with
     --max-seconds the pilot's time estimate within it), or outputs that cannot be audited:
     objects other than numbers, strings, bytes, bools and None and dicts, lists and tuples
     of them; a masked array with masked entries; every output None; more than 4096
     leaves or 16 levels in one output; plain outputs (numbers, strings or bytes of one
     shape) that change kind or shape after the selection draws. Dicts, None, ragged
     rows and mixed tuples ARE audited (as shapes and the numbers in them)
  3  internal error: the target raised, a file could not be written, or the audit was
     interrupted (resume it with the same command and --checkpoint)
one line on stderr for 2 and 3; `dpspec --debug audit ...` prints the traceback."""


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


def _json_option(text: str | None, name: str, what: str) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{name}: expected JSON {what}, got {text!r} ({exc})") from exc


def _search(args: argparse.Namespace) -> Any:
    """The :class:`~dpspec.audit.Search` the options ask for, or None (no search option)."""
    from dpspec.audit import Search

    domain = _json_option(args.domain, "domain", "[record, ...] or [lo, hi] with --interval")
    bounds = _json_option(args.bounds, "bounds", "[lo, hi]")
    if args.queries is None and domain is None:
        for flag, value in (("--bounds", bounds), ("--relation", args.relation)):
            if value is not None:
                raise ValueError(f"{flag.lstrip('-')}: needs --queries M or --domain JSON")
        return None
    if args.queries is not None and domain is not None:
        raise ValueError("domain: give --queries M (query answers) or --domain (datasets)")
    if isinstance(domain, list) and args.interval:
        if len(domain) != 2:
            raise ValueError(f"domain: --interval needs [lo, hi], got {args.domain!r}")
        domain = (domain[0], domain[1])
    elif isinstance(domain, list):
        domain = tuple(tuple(r) if isinstance(r, list) else r for r in domain)
    elif domain is not None:
        raise ValueError(f"domain: expected a JSON list of records, got {args.domain!r}")
    extra: dict[str, Any] = {}
    if bounds is not None:
        extra["bounds"] = tuple(bounds) if isinstance(bounds, list) else bounds
    if args.relation is not None:
        extra["relation"] = args.relation
    return Search(
        queries=args.queries,
        domain=domain,
        contribution=args.contribution,
        candidates=args.candidates,
        **extra,
    )


def _resolve(
    args: argparse.Namespace,
) -> tuple[Any, tuple[Any, Any] | None, float, float, str, dict[str, Any]]:
    """(mechanism, pair or None, epsilon, delta, description, audit options) for the target;
    with a search option the options hold ``search`` and the pair is None."""

    target: str = args.target
    pair = _parse_pair(args.pair)
    search = _search(args)
    if search is not None and pair is not None:
        raise ValueError("pair: give --pair or a search (--queries / --domain), not both")
    if search is not None and target.startswith("learner:"):
        raise ValueError(
            "domain: learner targets search pairs with dpspec.audit._learner_search "
            "(canary_pairs); give --pair"
        )
    if search is not None:
        mech, _, eps, delta, what, options = _resolve_given(args, target, (0, 0))
        return mech, None, eps, delta, what, {**options, "search": search}
    return _resolve_given(args, target, pair)


def _resolve_given(
    args: argparse.Namespace, target: str, pair: tuple[Any, Any] | None
) -> tuple[Any, tuple[Any, Any] | None, float, float, str, dict[str, Any]]:
    """The target with its pair: ``pair`` when given, else the pair the target states (zoo
    entries, library mechanisms calibrated on a scalar, diffprivlib's canary pair); a user
    callable without a pair is refused (no pair is invented)."""
    from dpspec.audit.zoo import zoo

    if target.startswith("learner:"):
        return _resolve_learner(args, target.removeprefix("learner:"), pair)
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
    from dpspec.audit.libraries import DIFFPRIVLIB_MODELS, LIBRARIES, load_target
    from dpspec.audit.machinery import model_canary_pair as _model_canary_pair

    mech = load_target(target, args.epsilon, delta)
    library, _, name = target.partition(":")
    if library == "diffprivlib" and name in DIFFPRIVLIB_MODELS:
        D, D2, _ = _model_canary_pair()
        what = f"{target}: fitted with and without the canary (1, 0), predictions at it"
        return mech, pair or (D, D2), args.epsilon, delta, what, {}
    if pair is None and library in LIBRARIES:
        what = f"{target} (calibrated for sensitivity 1 on a scalar: the pair (0, 1))"
        return mech, (0.0, 1.0), args.epsilon, delta, what, {}
    if pair is None:
        raise ValueError(
            "pair: none given for your target; give --pair '[D, D2]', or search for one with "
            "--queries M (a mechanism of M query answers) or --domain JSON --relation "
            "add-remove|substitute (a dataset mechanism)"
        )
    return mech, pair, args.epsilon, delta, target, {}


def _resolve_learner(
    args: argparse.Namespace, name: str, pair: tuple[Any, Any] | None
) -> tuple[Any, tuple[Any, Any], float, float, str, dict[str, Any]]:
    """A learner zoo entry by name, or ``module:factory`` wrapped as a LearnerMechanism."""
    from dpspec.audit.learner_zoo import learner_zoo

    entries = learner_zoo()
    if name in entries:
        entry = entries[name]
        eps = entry.epsilon if args.epsilon is None else args.epsilon
        delta = entry.delta if args.delta is None else args.delta
        truth = "correct" if entry.correct else "broken"
        mech = entry.mechanism
        if args.real_fits:
            mech.vectorised = False
        return mech, pair or entry.pair, eps, delta, f"{name} ({truth}): {entry.why}", {}
    if ":" not in name:
        raise ValueError(
            f"target: no learner {name!r}; choose from {sorted(entries)} or give "
            "learner:module:factory"
        )
    if args.epsilon is None:
        raise ValueError("epsilon: required for your own learner (--epsilon E)")
    if pair is None:
        raise ValueError("pair: required for your own learner (--pair '[[X, y], [X2, y2]]')")
    from dpspec.audit.learners import LearnerMechanism
    from dpspec.audit.libraries import load_factory

    probe = None
    if args.probe is not None:
        try:
            probe = json.loads(args.probe)
        except json.JSONDecodeError as exc:
            raise ValueError(f"probe: expected JSON [[x1, ...], ...], got {args.probe!r}") from exc
    delta = 0.0 if args.delta is None else args.delta
    factory = load_factory(name, args.epsilon, args.delta)
    mech = LearnerMechanism(factory, args.release, probe, vectorised=not args.real_fits, name=name)
    return mech, pair, args.epsilon, delta, f"learner {name}", {}


def _cmd_audit(args: argparse.Namespace) -> int:
    from dpspec.audit import MechanismError, audit, default_selection
    from dpspec.audit.zoo import zoo
    from dpspec.proofs.engine.errors import write_json

    if args.target == "list":
        for name, entry in zoo().items():
            status = "correct" if entry.correct else "broken "
            true = f"{entry.true_epsilon:.4g}"
            print(f"builtin:{name:32s} {status} claims eps={entry.epsilon:g} true {true}")
        from dpspec.audit.learner_zoo import learner_zoo

        for name, lentry in learner_zoo().items():
            status = "correct" if lentry.correct else "broken "
            known = lentry.true_epsilon
            true = "<= claim" if known is None else f"{known:.4g}"
            print(f"learner:{name:32s} {status} claims eps={lentry.epsilon:g} true {true}")
        return 0
    try:
        mech, pair, eps, delta, what, options = _resolve(args)
        if args.float_attack:
            options["float_bits"] = True
        samples_ok = isinstance(args.samples, int) and args.samples >= 1 and pair is not None
        selection = args.selection or (default_selection(args.samples) if samples_ok else 0)
        bars: list[Any] = []

        def progress(draws: int) -> None:
            # the bar starts with the first draws, so argument errors stay one line on stderr
            if not bars:
                bars.append(
                    tqdm(
                        total=2 * (args.samples + selection) if samples_ok else None,
                        desc="audit",
                        unit="draw",
                        unit_scale=True,
                        disable=args.no_progress,
                        file=sys.stderr,
                    )
                )
            bars[0].update(draws)

        told: list[Any] = []

        def planned(plan: Any) -> None:
            # the budget passed (dpspec.audit._budget): its estimate, once, before the work
            if not told:
                told.append(plan)
                print(f"audit: {plan.describe()}", file=sys.stderr)

        if not args.no_progress:  # the plan's timed pilot is for the display
            progress.planned = planned  # type: ignore[attr-defined]

        try:
            result = audit(
                mech,
                pair,
                eps,
                delta,
                samples=args.samples,
                confidence=args.confidence,
                seed=args.seed,
                selection=args.selection,
                progress=progress,
                checkpoint=args.checkpoint,
                jobs=args.jobs,
                replay=args.replay,
                replay_runs=args.replay_runs,
                max_seconds=args.max_seconds,
                **options,
            )
        finally:
            for bar in bars:
                bar.close()
    except MechanismError as exc:
        raise InternalError(f"the target raised: {exc.__cause__!r}") from exc
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from exc
    except OSError as exc:
        raise InternalError(str(exc)) from exc
    except KeyboardInterrupt as exc:
        where = (
            f"; resume with the same command (checkpoint {args.checkpoint})"
            if args.checkpoint
            else "; pass --checkpoint PATH to make long audits resumable"
        )
        raise InternalError(f"interrupted{where}") from exc
    write_json(args.json, {"target": args.target, **result.to_json()})
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
    print(f"pair: {result.pair_text} ({_source(result)})")
    print(f"sampling: {result.sampling}")
    for warning in result.warnings:
        print(f"warning: {warning}")
    print(f"resolution: {result.power}")
    if result.replay is not None:
        _print_replay(result)
    if result.verdict == "inconclusive":
        print(
            "inconclusive: "
            + (
                "the replay gives no upper bound within the claim and the lower bound does not "
                "exceed it"
                if result.replay is not None
                else f"the claim eps={result.epsilon_claimed:g} is beyond what this budget "
                "resolves (more --samples, or --replay for an upper bound)"
            )
        )
        return 4
    print("VIOLATION" if result.violation else "consistent with the claim")
    return 1 if result.violation else 0


def _print_replay(result: Any) -> None:
    """The bracket and what the replay found, with its per-site table."""
    found = result.replay
    upper = "no upper bound" if found.epsilon_upper is None else f"{found.epsilon_upper:.6g}"
    print(
        f"eps in [{result.epsilon_lower:.4f}, {upper}] (lower: statistical at confidence "
        f"{result.confidence}; upper: replay of {found.runs} runs)"
    )
    where = f" at {found.site}" if found.site else ""
    print(f"replay: {found.finding}{where}: {found.detail}")
    if found.epsilon_exact is not None and found.exact:
        print(f"replay: exact, the pair's eps(delta) >= {found.epsilon_exact:.6g}")
    for call in found.calls:
        scale = "varies" if call.scale is None else f"{call.scale:g}"
        print(
            f"  {call.site}: {call.method} x{call.size}, scale {scale}, shift L1 "
            f"{call.sensitivity_l1:.6g} L2 {call.sensitivity_l2:.6g}, eps {call.epsilon:.6g}"
        )
    print(f"replay rests on: {found.rests_on}")


def _source(result: Any) -> str:
    if result.pair_source != "search":
        return "given"
    search = result.extra["search"]
    alpha = search["alpha"]
    return (
        f"found by a search of {search['screened_pairs']} candidate pairs; alpha "
        f"{alpha['final']:.3g} split over {len(search['finalists'])} finalists, "
        f"{alpha['per_finalist']:.3g} each"
    )


@dataclass(frozen=True)
class SampleCount(Domain):
    """``--samples``: draws per side, an integer in [1, 10^10] (``1e6`` accepted), or ``auto``
    (sized from the claim by the auditor)."""

    def convert(self, value: Any, name: str) -> int | str:
        if value == "auto":
            return "auto"
        try:
            number = float(value) if isinstance(value, str) else math.nan
        except ValueError:
            number = math.nan
        if not (math.isfinite(number) and number.is_integer() and 1 <= number <= MAX_SAMPLES):
            raise ValueError(f"{name}: expected an integer in [1, 1e10] or auto, got {value!r}")
        return int(number)

    def hostile(self) -> tuple[Any, ...]:
        return ("0", "-1", "1.5", "1e11", "nan", "inf", "", "many")

    def describe(self) -> str:
        return "an integer in [1, 1e10] or auto"


def register(sub: Any) -> None:
    """Add the ``audit`` subcommand to the ``dpspec`` parser's subparsers ``sub``."""
    p = sub.add_parser(
        "audit",
        help="audit a mechanism's (eps, delta) claim statistically",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_option(
        p,
        "target",
        domain=TEXT,
        example="builtin:laplace",
        help=(
            "builtin:NAME | module:callable | opendp:NAME | diffprivlib:NAME | pydp:NAME | "
            "learner:NAME | learner:module:factory | list"
        ),
    )
    add_option(p, "--epsilon", domain=Epsilon(), help="claimed epsilon (builtin: its own claim)")
    add_option(p, "--delta", domain=Delta(), help="claimed delta (default 0; builtin: its own)")
    add_option(
        p,
        "--samples",
        domain=SampleCount(),
        default=10**6,
        help="estimation draws per side N (<= 1e10), or auto: sized from the claim",
    )
    add_option(
        p,
        "--selection",
        domain=Integer(1, hi=MAX_SAMPLES),
        help="selection draws per side (default N/5, at least min(N, 1000))",
    )
    add_option(
        p,
        "--confidence",
        domain=Real(0, 1, lo_open=True, hi_open=True),
        default=0.95,
        help="in (0, 1); false alarm <= 1 - it",
    )
    add_option(p, "--seed", domain=Integer(0, hi=2**63 - 1), default=0, help="seed")
    add_option(
        p,
        "--pair",
        domain=JsonList(length=2),
        help=(
            "JSON [D, D']: the neighbouring pair (zoo and library targets have their own; "
            "your code needs --pair or a search)"
        ),
    )
    add_option(
        p,
        "--queries",
        domain=Integer(1, hi=10**6),
        metavar="M",
        help="search for a pair: the target takes M query answers (sensitivity 1 each)",
    )
    add_option(
        p,
        "--bounds",
        domain=JsonList(length=2),
        metavar="JSON",
        help="with --queries: [lo, hi] of each answer",
    )
    add_option(
        p,
        "--domain",
        domain=JsonList(),
        metavar="JSON",
        help=(
            "search for a pair: the target takes datasets of these records, e.g. [0, 1, 2] "
            "(with --interval: [lo, hi], real-valued records)"
        ),
    )
    p.add_argument("--interval", action="store_true", help="--domain is an interval [lo, hi]")
    add_option(
        p,
        "--relation",
        domain=Choice(options=("substitute", "add-remove")),
        help="with --domain: the neighbouring relation (default substitute)",
    )
    add_option(
        p,
        "--contribution",
        domain=Integer(1, hi=10**6),
        default=1,
        metavar="K",
        help="with --domain: records per user (user-level privacy: K records differ)",
    )
    add_option(
        p,
        "--candidates",
        domain=Integer(1, hi=10**6),
        default=40,
        help="with a search: candidate pairs screened (10^4 draws per side each)",
    )
    add_option(
        p,
        "--probe",
        domain=JsonList(),
        help="learner targets: JSON [[x1, ...], ...], the points the release is made on",
    )
    add_option(
        p,
        "--release",
        domain=Choice(
            options=("predict", "predict_proba", "decision_function", "pdf", "score_samples")
        ),
        default="predict",
        help="learner targets: what is compared (default predict on --probe)",
    )
    p.add_argument(
        "--real-fits",
        action="store_true",
        help=(
            "learner targets: run the learner's own fit + predict for every draw, even for a "
            "class with a conformance-bound vectorised shortcut (subclasses never take it)"
        ),
    )
    add_option(
        p,
        "--checkpoint",
        domain=WritablePath(),
        metavar="PATH",
        help=(
            "resumable progress file: refused by any other audit, removed when the audit "
            "finishes; set DPSPEC_CHECKPOINT_KEY to seal it with an HMAC"
        ),
    )
    add_option(
        p,
        "--jobs",
        domain=Integer(1, hi=1024),
        default=1,
        help="parallel workers (joblib, <= 1024); the result does not depend on it",
    )
    p.add_argument(
        "--float-attack",
        action="store_true",
        help="also test events on the float64 representation (Mironov)",
    )
    p.add_argument(
        "--replay",
        action="store_true",
        help=(
            "also bound eps from above by replaying the target's own draws on the pair "
            "(dpspec.audit.replay): the verdict is then the bracket's"
        ),
    )
    add_option(
        p,
        "--replay-runs",
        domain=Integer(1, hi=1000),
        default=32,
        help="--replay: independent runs recorded and replayed (<= 1000; default 32)",
    )
    add_option(
        p,
        "--max-seconds",
        domain=Real(0, lo_open=True),
        metavar="S",
        help=(
            "allow a plan beyond the unattended caps when a pilot batch estimates the "
            "target's draws within S seconds (refused before the work otherwise)"
        ),
    )
    add_option(p, "--json", domain=WritablePath(), metavar="PATH", help=JSON_HELP)
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_audit)

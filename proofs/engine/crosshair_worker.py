"""One CrossHair worker process: check many lemma functions, time every condition in CPU seconds.

Run as ``python -m dpspec.proofs.engine.crosshair_worker --budget B --per-path P TARGET...`` (a
TARGET is what ``crosshair check`` accepts: ``module.function`` or ``file.py:LINE``). For each
target the worker asks CrossHair for its checkables — one per ``post:`` condition — and analyses
them one after the other, measuring each with :func:`time.process_time` around CrossHair's own
analysis. It prints one JSON object per condition on stdout:

    {"filename", "post_line", "cpu", "lines": ["<file>:<line>: <info|error>: <text>", ...]}

``lines`` are CrossHair's own short messages (the format of ``crosshair check --report_all``).

Why a worker of our own rather than ``crosshair check``: one interpreter start-up and one
import of CrossHair (≈ 1–2 s of CPU) serve many functions, and the CPU time of each condition
is measured, so ``dpspec prove`` can report it against the budget.

The budget does not depend on wall-clock speed: ``per_condition_timeout`` and
``per_path_timeout`` are CPU seconds of this process, and ``max_uninteresting_iterations`` is
switched off (0), so exploration ends only by exhausting every path (→ confirmed), by a
counterexample, or by the CPU budget (→ "Not confirmed.", reported with its budget). The
path search is seeded by CrossHair (a fixed ``random.Random`` seed), so the paths explored and
their number are the same on every machine; only their CPU cost varies.

The side-effect wall and the pure-Python import preference of ``crosshair check`` are engaged
as CrossHair's own command does.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any


def _checkables(target: str, options: Any) -> list[Any]:
    from crosshair.core_and_libs import analyze_any
    from crosshair.fnutil import load_files_or_qualnames

    return [c for e in load_files_or_qualnames([target]) for c in analyze_any(e, options)]


def run(targets: Sequence[str], budget: float, per_path: float) -> int:
    """Analyse every condition of ``targets`` and print one JSON line each; exit status 0, or 2
    when a target could not be loaded (named on stderr; its conditions get no record)."""
    from crosshair.main import short_describe_message
    from crosshair.options import DEFAULT_OPTIONS, AnalysisOptionSet
    from crosshair.pure_importer import prefer_pure_python_imports

    options = AnalysisOptionSet(
        per_condition_timeout=budget,
        per_path_timeout=per_path,
        max_uninteresting_iterations=0,
        report_all=True,
        report_verbose=False,
    )
    full = DEFAULT_OPTIONS.overlay(options)
    status = 0
    for target in targets:
        try:
            with prefer_pure_python_imports():
                checkables = _checkables(target, options)
        except Exception as exc:  # reported; the other targets are still checked
            sys.stderr.write(f"cannot load {target}: {type(exc).__name__}: {exc}\n")
            status = 2
            continue
        for checkable in checkables:
            conditions = getattr(checkable, "conditions", None)
            post = conditions.post[0] if conditions is not None and conditions.post else None
            start = time.process_time()
            messages = list(checkable.analyze())
            cpu = time.process_time() - start
            lines = [
                line
                for line in (short_describe_message(m, full) for m in messages)
                if line is not None
            ]
            record = {
                "target": target,
                "filename": getattr(post, "filename", ""),
                "post_line": getattr(post, "line", 0),
                "cpu": round(cpu, 4),
                "lines": lines,
            }
            sys.stdout.write(json.dumps(record) + "\n")
            sys.stdout.flush()
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dpspec.proofs.engine.crosshair_worker")
    parser.add_argument("--budget", type=float, required=True, help="CPU s per condition")
    parser.add_argument("--per-path", type=float, required=True, help="CPU s per path")
    parser.add_argument("targets", nargs="+")
    args = parser.parse_args(argv)
    from crosshair.auditwall import engage_auditwall

    engage_auditwall()
    return run(args.targets, args.budget, args.per_path)


if __name__ == "__main__":
    sys.exit(main())

"""The runner of ``dpspec verify``: every selected obligation's check, one row each.

The CrossHair runs the selected lemma obligations need start first, in the background, so they
overlap the other checks; a check that raises is a failed obligation with its traceback.
"""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Sequence
from typing import Any

from tqdm import tqdm

from dpspec.proofs.cli.errors import UsageError
from dpspec.proofs.engine.registry import CheckOutcome, VerifyConfig, obligations


def run_verify(
    config: VerifyConfig,
    only: str | None = None,
    progress: bool = True,
    ids: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Run every registered obligation (or those whose id contains ``only`` / is in ``ids``)."""
    selected = [ob for ob in obligations() if only is None or only in ob.id]
    if ids is not None:
        from dpspec.proofs.engine.legacy_ids import LEGACY_IDS

        ids = [LEGACY_IDS.get(i, i) for i in ids]  # ids cited before the topic layout resolve
        unknown = sorted(set(ids) - {ob.id for ob in selected})
        if unknown:
            raise UsageError(f"--ids: no obligation {unknown[0]!r}")
        selected = [ob for ob in selected if ob.id in set(ids)]
    from dpspec.proofs.engine.crosshair import prefetch_crosshair

    prefetch_crosshair(selected, config.crosshair_timeout)  # CrossHair overlaps other checks
    rows: list[dict[str, Any]] = []
    bar = tqdm(selected, desc="verify", unit="obligation", disable=not progress, file=sys.stderr)
    for ob in bar:
        bar.set_postfix_str(ob.id)
        start, cpu = time.perf_counter(), time.process_time()
        if ob.check is None:
            outcome = CheckOutcome(True, "documented: nothing to run")
            status = "documented"
        else:
            try:
                outcome = ob.check(config)
            except Exception as exc:  # a crashing check is a failed obligation, with its trace
                outcome = CheckOutcome(
                    False,
                    f"check raised {type(exc).__name__}: {exc}",
                    {"traceback": traceback.format_exc()},
                )
            status = "passed" if outcome.passed else "failed"
        rows.append(
            {
                "id": ob.id,
                "source": ob.source,
                "claim": ob.claim,
                "method": ob.method.value,
                "status": status,
                "seconds": round(time.perf_counter() - start, 3),
                "cpu_seconds": round(time.process_time() - cpu, 3),
                "detail": outcome.detail,
                "numbers": outcome.numbers,
            }
        )
    return {
        "obligations": rows,
        "passed": sum(r["status"] == "passed" for r in rows),
        "failed": sum(r["status"] == "failed" for r in rows),
        "documented": sum(r["status"] == "documented" for r in rows),
        "thorough": config.thorough,
    }

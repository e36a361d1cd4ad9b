"""The entries of this topic without a check function (none: the one obligation is declared
on its check in ``checks.py``, see ``note.md``)."""

from __future__ import annotations

from dpspec.proofs.engine.registry import Obligation

OBLIGATIONS: tuple[Obligation, ...] = ()

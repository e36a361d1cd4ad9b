"""dpspec.spec: the guarantees of the seed papers as executable predicates.

Modules here are small, typed and pure Python on ``int`` and ``Fraction`` wherever CrossHair
has to reason about them: no numpy, no ``exp``/``log``, no randomness. A predicate takes the
objects a theorem talks about (datasets, output distributions, bounds) and returns ``bool``.
"""

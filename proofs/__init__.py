"""dpspec.proofs: the registry linking each theorem to its predicate, code, method and tests.

``engine/`` holds the shared machinery (registry and discovery, exact enumeration, statistical
tests, CrossHair, mutation testing, reports); ``topics/<family>/`` one guarantee family each
(obligations, checks, lemmas, errata, mutants, note); ``notes/`` the notes on the method
(binding, lemmas, mutation, errata). The ``dpspec`` command is :mod:`dpspec.cli` (``cli/`` here
is its deprecated 0.3 alias).
"""

"""dpspec.proofs: the registry linking each theorem to its predicate, code, method and tests.

``registry`` (the data model), ``obligations*`` (the entries), ``checks*`` (what ``dpspec
verify`` runs), ``verifiers`` (exact enumeration), ``lemmas`` + ``prove`` (the CrossHair layer),
``errata`` (statements false as printed), ``notes/`` (short proof notes), ``cli`` (``dpspec``).
"""

"""The machinery the topics share, by job (every module of this package is named below; a test
walks the package and fails on one left out).

**The registry** — what is claimed and where it is checked:
``registry`` (the :class:`~dpspec.proofs.engine.registry.Obligation` declaration and the topic
discovery), ``links`` (objects kept as dotted names), ``discovery`` (what the package contains,
found by walking it), ``index`` (``proofs/index.json``, read by the fast commands),
``legacy_ids`` (the ids of earlier releases), ``seeds`` (the seed papers' citations),
``layout`` (where each import name lives in the repository).

**Check kits** — what a topic's check is built from:
``exact`` (output laws on every neighbouring pair, the spec predicate decided on each),
``enumeration`` (a sampler's law derived from its own code), ``law_checks`` (enumerated laws
against the stated ones), ``finite`` (lemmas settled on finite domains), ``bindings``
(differential tests binding a lemma to the code that runs), ``conformance`` and ``stats``
(the entry point's draws against its exact law, with a stated false alarm), ``cells`` (the
one-bit-per-cell learners' shared checks), ``consistency_runs`` (the trend runs),
``reports`` (privacy reports against the theorems), ``sweep`` (the hostile-input sweep),
``controls`` (bug controls planted in the code that runs), ``edits`` (the one edit type of a
bug control and of a ``dpspec mutate`` mutant: a snippet of a function, class or module).

**Runners** — what executes them:
``verify`` (``dpspec verify``), ``crosshair`` and ``crosshair_worker`` (``dpspec prove``),
``mutation`` (``dpspec mutate``), ``fork_server`` and ``preload`` (processes that import the
heavy modules once), ``command`` (the installed ``dpspec`` command, in-process), ``options``
(command-line options with declared domains), ``errors`` (exit codes and error reporting).

**Reports** — what is written from the results:
``report`` (``dpspec report``: Markdown and HTML), ``report_schema`` (the schema of a
``verify --json`` report, checked by ``report --from``), ``mutation_note`` (the results section
of ``proofs/notes/mutation.md``).
"""

"""The guarantee families, one package each, discovered by :mod:`dpspec.proofs.engine.registry`.

A topic is a folder ``<family>/`` whose modules declare its obligations — each on its check
function (``@Obligation(...)`` in ``checks.py`` and further modules), the check-less ones in
``obligations.py`` (``OBLIGATIONS``) — with ``lemmas.py`` (CrossHair), ``errata.py``
(``ERRATA``), ``mutants.py`` (``MUTANTS``) and ``note.md``. Adding a family means adding a
folder here (and its code under ``impl/`` and ``spec/``); no other file lists it.
"""

"""Meta-tests: the registry covers every impl module and public algorithm, and every name it
gives (predicates, impls, tests, notes) exists."""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import re
from pathlib import Path

import pytest

import dpspec
import dpspec.audit
from dpspec.proofs.engine.discovery import leaf_modules
from dpspec.proofs.engine.legacy_ids import LEGACY_ERRATA, LEGACY_IDS
from dpspec.proofs.engine.registry import (
    ID_PATTERN,
    TOPICS_PACKAGE,
    Method,
    by_id,
    errata,
    obligations,
    topic_folder,
    topic_module,
    topic_prefix,
    topics,
)

ROOT = Path(__file__).resolve().parent.parent


def _resolve(dotted: str) -> object:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


def _impl_modules() -> list[str]:
    """Every module of the algorithms (``impl/``: dpspec.*, the auditor dpspec.audit.* included;
    not the mounted dpspec.spec, dpspec.proofs, dpspec.strategies)."""
    return list(leaf_modules())


def _registered_impls() -> set[str]:
    return {name for ob in obligations() for name in ob.impls}


def test_ids_unique_and_readable() -> None:
    """One id scheme, ``<topic>.<claim>``; ids are unique; every old id maps to a current one,
    and no old id is a current one (it would hide it)."""
    ids = [ob.id for ob in obligations()]
    assert len(ids) == len(set(ids))
    bad = [i for i in ids if not ID_PATTERN.match(i)]
    assert not bad, f"ids outside the <topic>.<claim> scheme: {bad}"
    assert set(LEGACY_IDS.values()) <= set(ids), set(LEGACY_IDS.values()) - set(ids)
    assert not set(LEGACY_IDS) & set(ids), set(LEGACY_IDS) & set(ids)
    errata_ids = {e.id for e in errata()}
    assert set(LEGACY_ERRATA.values()) <= errata_ids, set(LEGACY_ERRATA.values()) - errata_ids
    assert not set(LEGACY_ERRATA) & errata_ids, set(LEGACY_ERRATA) & errata_ids
    assert all(ID_PATTERN.match(e) for e in errata_ids)
    assert by_id("000.alg2.thm3.1.pcl-privacy").id == "pcl.privacy"  # an id cited before 0.2
    assert by_id("laplace.privacy").id == "mechanisms.laplace.privacy"  # an id of 0.2


def test_ids_start_with_their_topic() -> None:
    """Every obligation id, and every erratum id, starts with the folder name of the topic that
    declares it (``_`` written ``-``) and a dot: the id says where the entry lives."""
    outside = [
        (ob.topic, ob.id)
        for ob in obligations()
        if not ob.id.startswith(topic_prefix(ob.topic) + ".")
    ]
    for topic in topics():
        module = topic_module(topic, "errata")
        for e in getattr(module, "ERRATA", ()):
            if not e.id.startswith(topic_prefix(topic) + "."):
                outside.append((topic, e.id))
    assert not outside, f"ids that do not start with their topic's folder: {outside}"


def test_topics_are_complete_folders() -> None:
    """Every topic package has its obligations and its note; every check is a function of the
    topic's own package, declared there; the seed citations parse."""
    for topic in topics():
        folder = topic_folder(topic)
        assert (folder / "obligations.py").is_file(), topic
        assert (folder / "note.md").is_file(), f"{topic}: note.md missing"
    for ob in obligations():
        for part in ob.parts:
            assert part.__module__.startswith(f"{TOPICS_PACKAGE}.{ob.topic}."), (ob.id, part)
        if ".txt:" in ob.source:
            assert ob.citations, f"{ob.id}: source {ob.source!r} has no parsable citation"


def _defines_code(module: str) -> bool:
    """Whether a module defines a function or class of its own (a module that only gathers
    names from others, as ``dpspec.audit.core`` does for 0.2's import path, has nothing to link:
    the registry links the defining modules)."""
    found = vars(importlib.import_module(module)).values()
    return any(
        (inspect.isfunction(v) or inspect.isclass(v)) and v.__module__ == module for v in found
    )


def test_every_impl_module_has_an_entry() -> None:
    registered = _registered_impls()
    missing = [
        m
        for m in _impl_modules()
        if _defines_code(m) and not any(r == m or r.startswith(m + ".") for r in registered)
    ]
    assert not missing, f"impl modules without a registry entry: {missing}"


@pytest.mark.parametrize("ob", obligations(), ids=[ob.id for ob in obligations()])
def test_entry_names_exist(ob) -> None:  # type: ignore[no-untyped-def]
    for dotted in (*ob.predicates, *ob.impls):
        assert _resolve(dotted) is not None, dotted
    for node in ob.tests:
        path, _, func = node.partition("::")
        assert "[" not in func, f"{ob.id}: name the test function, not a parametrised case"
        file = ROOT / path
        assert file.is_file(), f"{ob.id}: test file {path} does not exist"
        tree = ast.parse(file.read_text(encoding="utf-8"))
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert func in defined, f"{ob.id}: {func} is not defined in {path}"
    if ob.note:
        assert (ROOT / "proofs" / ob.note).is_file(), f"{ob.id}: note {ob.note} missing"
    assert ob.source.split(":")[0] and ob.claim


@pytest.mark.parametrize("ob", obligations(), ids=[ob.id for ob in obligations()])
def test_runnable_unless_documented(ob) -> None:  # type: ignore[no-untyped-def]
    """Only documented entries have nothing to run; every runnable one is run (with its negative
    controls) by ``tests/test_verifiers.py::test_registry_checks_pass``, and ``tests`` names
    the further tests of its code."""
    assert (not ob.runs) == (ob.method == Method.DOCUMENTED), ob.id


@pytest.mark.parametrize("ob", obligations(), ids=[ob.id for ob in obligations()])
def test_running_entries_name_a_predicate_or_a_reason(ob) -> None:  # type: ignore[no-untyped-def]
    """Every running entry (not documented, not proven by its lemmas alone) names the spec
    function its check evaluates or says in ``no_predicate`` what it is checked against
    instead; a reason beside named predicates is a contradiction. Derived from the registry,
    so a new obligation without either fails here (and at its declaration)."""
    assert not (ob.predicates and ob.no_predicate), f"{ob.id}: predicates and a reason"
    if ob.needs_predicate:
        assert ob.predicates or ob.no_predicate.strip(), f"{ob.id}: no predicate, no reason"


def test_an_obligation_without_predicate_or_reason_is_refused() -> None:
    """The declaration itself refuses a running entry with neither a predicate nor a reason,
    and one with both; a documented entry and a lemma-only one need neither."""
    import dpspec.spec.privacy as spec_privacy
    from dpspec.proofs.engine.registry import RECOMPUTED, Obligation

    common = {"source": "README", "claim": "a claim"}
    with pytest.raises(ValueError, match="no_predicate="):
        Obligation(id="scratch.claim", method=Method.EXACT, **common)
    with pytest.raises(ValueError, match=r"predicates .* are named"):
        Obligation(
            id="scratch.claim",
            method=Method.EXACT,
            predicates=(spec_privacy.satisfies_pure_dp,),
            no_predicate=RECOMPUTED,
            **common,
        )
    assert Obligation(id="scratch.claim", method=Method.DOCUMENTED, **common)
    assert Obligation(id="scratch.claim", method=Method.CROSSHAIR, lemmas=("a_lemma",), **common)
    given = Obligation(id="scratch.claim", method=Method.EXACT, no_predicate=RECOMPUTED, **common)
    assert given.no_predicate == RECOMPUTED


def test_privacy_obligations_name_entry_points() -> None:
    """A privacy obligation names the real callables it exercises (``test_verifiers`` runs each
    check traced and fails when one of them is never called); each resolves to a function."""
    privacy = [ob for ob in obligations() if ob.privacy]
    assert privacy, "no obligation is marked privacy"
    for ob in privacy:
        assert ob.entry_points, f"{ob.id}: a privacy obligation with no real entry point"
        for dotted in ob.entry_points:
            assert callable(_resolve(dotted)), f"{ob.id}: {dotted} is not callable"


def test_exact_privacy_obligations_are_marked() -> None:
    """Every exact obligation about an impl algorithm that decides a DP predicate is a privacy
    obligation (so the entry-point rule applies to it)."""
    dp_predicates = {
        "dpspec.spec.privacy.satisfies_pure_dp",
        "dpspec.spec.privacy.satisfies_approx_dp",
        "dpspec.spec.privacy.satisfies_ldp",
        "dpspec.spec.privacy.satisfies_pure_dp_losses",
    }
    unmarked = [
        ob.id
        for ob in obligations()
        if ob.method == Method.EXACT
        and ob.impls
        and dp_predicates & set(ob.predicates)
        and not ob.privacy
        and not ob.id.startswith(f"{topic_prefix(ob.topic)}.erratum.")
    ]
    assert not unmarked, f"exact DP obligations not marked privacy: {unmarked}"


def test_seed_citations_point_into_the_seeds() -> None:
    """Every citation names a seed of ``SEED_FILES`` and lines inside it; when the seed folder
    is beside the clone, its files are exactly the recorded ones (line count and SHA-256)."""
    from dpspec.proofs.engine.seeds import SEED_FILES

    for ob in obligations():
        for c in ob.citations:
            assert c.seed in SEED_FILES, f"{ob.id}: unknown seed {c.seed}"
            assert 1 <= c.first <= c.last <= SEED_FILES[c.seed][0], f"{ob.id}: {c}"
    for e in errata():
        for part in e.source.split(";"):
            name = part.strip().split(":")[0]
            assert not name.endswith(".txt") or name in SEED_FILES, f"{e.id}: {name}"
    seeds = ROOT.parent / "shared" / "seeds"
    for name, (lines, digest) in SEED_FILES.items():
        path = seeds / name
        if path.is_file():
            data = path.read_bytes()
            assert (data.count(b"\n"), hashlib.sha256(data).hexdigest()) == (lines, digest), name


def test_errata_are_registered_obligations() -> None:
    ids = {ob.id for ob in obligations()}
    for e in errata():
        assert e.obligation in ids, f"erratum {e.id} has no registered obligation"
        for node in e.tests:
            assert (ROOT / node.split("::")[0]).is_file()


def test_package_root_exports_resolve() -> None:
    """``dpspec.__all__`` is the lazily loaded public API: each name resolves to its object."""
    exported = set(dpspec.__all__) - {"__version__"}
    assert exported == set(dpspec._EXPORTS)
    for name in exported:
        module = importlib.import_module(dpspec._EXPORTS[name])
        assert getattr(dpspec, name) is getattr(module, name)
    with pytest.raises(AttributeError, match="no attribute"):
        _ = dpspec.not_a_name


def test_citation_file_matches_the_package_version() -> None:
    """CITATION.cff states the version of the distribution (pyproject.toml)."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    version = next(
        line.split("=")[1].strip().strip('"')
        for line in pyproject.splitlines()
        if line.startswith("version")
    )
    assert f"\nversion: {version}\n" in citation
    assert dpspec.__version__ == version


def test_guarantee_report_lists_the_registry() -> None:
    """``proofs/guarantees.md`` (``dpspec report`` of the release) has one row per registered
    obligation, with its current method, and one per erratum: regenerate it when they change."""
    text = (ROOT / "proofs" / "guarantees.md").read_text(encoding="utf-8")
    cells = [[c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in text.splitlines()]
    header = next(c for c in cells if c[:1] == ["id"])
    method, kind = header.index("method"), header.index("kind")
    table = [c for c in cells if len(c) == len(header) and c[0] not in ("id", "---")]
    assert {c[0]: c[method] for c in table} == {ob.id: ob.method.value for ob in obligations()}
    assert {c[0]: c[kind].split(" (")[0] for c in table} == {
        ob.id: ob.effective_kind.value for ob in obligations()
    }
    for e in errata():
        assert f"| {e.id} |" in text, e.id


def test_the_report_says_why_an_obligation_names_no_predicate() -> None:
    """An obligation without a predicate shows ``— (<its no_predicate>)`` in the predicate
    column of ``dpspec report``, in the Markdown and the HTML page, and in the committed
    ``proofs/guarantees.md``; one with predicates shows them."""
    import html

    from dpspec.proofs.engine.index import entries
    from dpspec.proofs.engine.report import build_rows, html_page, markdown

    rows = {r.id: r for r in build_rows(None)}
    without = [ob for ob in entries() if not ob.predicates and not ob.lemmas and ob.no_predicate]
    assert without, "no obligation gives a reason for naming no predicate"
    for ob in without:
        assert rows[ob.id].predicate == f"— ({ob.no_predicate})", ob.id
    some = next(ob for ob in entries() if ob.predicates)
    assert rows[some.id].predicate.startswith(some.predicates[0].rsplit(".", 1)[-1])
    page = html_page(list(rows.values()), [], "t")
    text = markdown(list(rows.values()), [], "t")
    committed = (ROOT / "proofs" / "guarantees.md").read_text(encoding="utf-8")
    for ob in without:
        cell = f"— ({ob.no_predicate})"
        assert html.escape(cell) in page, ob.id
        assert f"| {cell.replace('|', chr(92) + '|')} |" in text, ob.id
        assert cell in committed, f"{ob.id}: regenerate proofs/guarantees.md"

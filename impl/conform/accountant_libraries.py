"""Third-party privacy accountants as targets of ``conform_accountant``.

``LIBRARY:NAME`` (``dpspec conform dp_accounting:pld --as accountant``) names one entry of
:data:`ACCOUNTANT_TARGETS`: a function ``(composition, delta) -> ε`` that states the
composition in the library's own calls, or raises
:class:`~dpspec.conform.accountants.NotExpressible` where the library has no call for it.
Each library is imported on first use; an entry of a library that is not installed says so
(``pip install …``): none of them is a dependency of dpspec. What each maps, read from the
libraries' sources (dp-accounting 0.6, prv-accountant 0.2, autodp 0.2.3, Opacus 1.6):

The compositions' units (``dpspec.accounting.Composition``): the noise multiplier σ is the
standard deviation (the Laplace scale) over the sensitivity *under the composition's relation*.

* **dp_accounting** (Google): ``GaussianDpEvent`` / ``LaplaceDpEvent``, wrapped in
  ``PoissonSampledDpEvent(q, ·)`` or ``SampledWithoutReplacementDpEvent(n, m, ·)`` (n =
  :data:`POPULATION`, m = q·n), and ``SelfComposedDpEvent(·, T)``; the relation is the
  accountant's ``neighboring_relation``: add/remove → ``ADD_OR_REMOVE_ONE``, substitution →
  ``REPLACE_ONE``. What the library does not account (its ``supports``) is not expressible.
  Its two accountants read ``REPLACE_ONE`` differently (their sources): the PLD accountant
  (``PLDAccountant``, discretisation 10^-4) builds the REPLACE pair with *twice* the
  sensitivity, so its noise multiplier is relative to the add/remove sensitivity and a
  substitution composition of σ is passed as 2σ; the RDP accountant (``RdpAccountant``) adds
  the Gaussian's RDP at the noise multiplier whatever the relation, and its sampling without
  replacement (Wang, Balle & Kasiviswanathan 2019) takes the replace-one sensitivity: σ is
  passed as it is.
* **prv_accountant** (Microsoft, Gopi, Lee & Wutschitz 2021): ``PRVAccountant`` of
  ``PoissonSubsampledGaussianMechanism(q, σ)`` (q = 1: ``GaussianMechanism(σ)``) or
  ``LaplaceMechanism(1/b)``, ``eps_error`` 0.01, ``delta_error`` δ/1000; it reports
  (lower, estimate, upper): ``prv_accountant:prv`` reports the upper bound,
  ``prv_accountant:prv-estimate`` the estimate. Add/remove only; no sampling without
  replacement.
* **autodp** (Zhu & Wang): ``ExactGaussianMechanism(σ)`` / ``LaplaceMechanism(b)`` (σ, b over
  the sensitivity of the relation), ``AmplificationBySampling(PoissonSampling=True)``
  (Poisson, add/remove) or ``False`` (without replacement, substitution: the base
  mechanism's ``neighboring`` set to ``"replace_one"``, which autodp requires there),
  ``Composition`` of T copies, ``get_approxDP(δ)``.
* **opacus** (Meta): ``RDPAccountant``, ``PRVAccountant``, ``GaussianAccountant`` (GDP, the
  central limit theorem; its own warning: "can underestimate privacy expenditure"), their
  ``history`` set to [(σ, q, T)] — what T calls of ``step(noise_multiplier=σ,
  sample_rate=q)`` leave — then ``get_epsilon(δ)``. Gaussian, Poisson, add/remove only.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dpspec.conform.accountants import NotExpressible
from dpspec.conform.libraries import _entry, _installed

#: the PyPI package of each library
PACKAGES = {
    "dp_accounting": "dp-accounting",
    "prv_accountant": "prv-accountant",
    "autodp": "autodp",
    "opacus": "opacus",
}
#: the population n of a sample drawn without replacement (m = q·n records)
POPULATION = 10**6


@dataclass(frozen=True)
class AccountantTarget:
    """One library accountant: its name in ``LIBRARY:NAME``, what is called, the relations it
    states and ``epsilon(composition, delta)``; calling the entry calls ``epsilon`` with the
    library imported."""

    __dpspec_declarative__ = "one row of the accountant table (a record)"

    name: str
    call: str
    relation: str
    epsilon: Callable[[Any, float], float]

    @property
    def library(self) -> str:
        return self.name.partition(":")[0]

    def __call__(self, composition: Any, delta: float) -> float:
        if importlib.util.find_spec(self.library) is None:
            raise NotExpressible(f"{self.library} is not installed")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return float(self.epsilon(composition, delta))


def _version(library: str) -> str:
    """The installed version of ``library`` (its PyPI package), or "not installed"."""
    return _installed(PACKAGES[library])


def _sample_size(c: Any) -> int:
    """m = q·n, refused unless it is an integer (the library takes record counts)."""
    m = float(c.rate) * POPULATION
    if m != round(m) or m < 1:
        raise NotExpressible(f"q·n = {m:g} records is not a whole sample of n = {POPULATION}")
    return round(m)


# --- dp_accounting --------------------------------------------------------------------------


def _dp_event(c: Any, noise: float) -> Any:
    dp_accounting = importlib.import_module("dp_accounting")
    base = (
        dp_accounting.GaussianDpEvent(noise)
        if c.mechanism == "gaussian"
        else dp_accounting.LaplaceDpEvent(noise)
    )
    if c.sampling == "poisson":
        base = dp_accounting.PoissonSampledDpEvent(c.rate, base)
    elif c.sampling == "without_replacement":
        base = dp_accounting.SampledWithoutReplacementDpEvent(POPULATION, _sample_size(c), base)
    elif c.sampling != "none":
        raise NotExpressible(f"dp_accounting has no {c.sampling} sampling event")
    return dp_accounting.SelfComposedDpEvent(base, c.steps)


def _dp_accounting(kind: str) -> Callable[[Any, float], float]:
    def epsilon(c: Any, delta: float) -> float:
        dp_accounting = importlib.import_module("dp_accounting")
        pld = importlib.import_module("dp_accounting.pld")
        rdp = importlib.import_module("dp_accounting.rdp")
        relation = dp_accounting.NeighboringRelation
        neighbours = (
            relation.REPLACE_ONE if c.relation == "substitution" else relation.ADD_OR_REMOVE_ONE
        )
        accountant = (
            pld.PLDAccountant(neighboring_relation=neighbours)
            if kind == "pld"
            else rdp.RdpAccountant(neighboring_relation=neighbours)
        )
        doubled = kind == "pld" and c.relation == "substitution"  # the module docstring
        event = _dp_event(c, 2 * c.noise if doubled else c.noise)
        if not accountant.supports(event):
            raise NotExpressible(
                f"dp_accounting's {kind.upper()} accountant does not support {c.mechanism} "
                f"with {c.sampling} sampling under {neighbours.name}"
            )
        accountant.compose(event)
        return float(accountant.get_epsilon(delta))

    return epsilon


# --- prv_accountant -------------------------------------------------------------------------


def _prv(which: int) -> Callable[[Any, float], float]:
    def epsilon(c: Any, delta: float) -> float:
        prv_accountant = importlib.import_module("prv_accountant")
        prvs = importlib.import_module("prv_accountant.privacy_random_variables")

        if c.relation != "add_remove":
            raise NotExpressible("prv_accountant states add/remove neighbours only")
        if c.sampling not in ("none", "poisson"):
            raise NotExpressible(f"prv_accountant has no {c.sampling} sampling")
        if delta == 0:
            raise NotExpressible("prv_accountant needs δ > 0 (its δ error is δ/1000)")
        if c.mechanism == "gaussian":
            prv = (
                prvs.GaussianMechanism(c.noise)
                if c.sampling == "none"
                else prvs.PoissonSubsampledGaussianMechanism(c.rate, c.noise)
            )
        elif c.sampling == "none":
            prv = prvs.LaplaceMechanism(1 / c.noise)
        else:
            raise NotExpressible("prv_accountant has no subsampled Laplace mechanism")
        accountant = prv_accountant.PRVAccountant(
            prvs=[prv], max_self_compositions=[c.steps], eps_error=0.01, delta_error=delta / 1000
        )
        return float(accountant.compute_epsilon(delta, [c.steps])[which])

    return epsilon


# --- autodp ---------------------------------------------------------------------------------


def _autodp(c: Any, delta: float) -> float:
    mechanism_zoo = importlib.import_module("autodp.mechanism_zoo")
    transformer_zoo = importlib.import_module("autodp.transformer_zoo")
    if delta == 0:
        raise NotExpressible("autodp's approximate-DP conversion needs δ > 0")
    if c.sampling not in ("none", "poisson", "without_replacement"):
        raise NotExpressible(f"autodp has no {c.sampling} sampling")
    poisson = c.sampling == "poisson"
    mech = (
        mechanism_zoo.ExactGaussianMechanism(sigma=c.noise)
        if c.mechanism == "gaussian"
        else mechanism_zoo.LaplaceMechanism(b=c.noise)
    )
    if c.sampling == "without_replacement":
        mech.neighboring = "replace_one"  # σ is over the substitution sensitivity (the units)
    if c.sampling != "none":
        sample = transformer_zoo.AmplificationBySampling(PoissonSampling=poisson)
        mech = sample(mech, c.rate, improved_bound_flag=c.mechanism == "gaussian")
    composed = transformer_zoo.Composition()([mech], [c.steps])
    return float(composed.get_approxDP(delta))


# --- opacus ---------------------------------------------------------------------------------


def _opacus(kind: str) -> Callable[[Any, float], float]:
    def epsilon(c: Any, delta: float) -> float:
        found = importlib.import_module("opacus.accountants")
        if c.mechanism != "gaussian":
            raise NotExpressible("Opacus accounts the Gaussian mechanism only")
        if c.relation != "add_remove" or c.sampling not in ("none", "poisson"):
            raise NotExpressible("Opacus states Poisson sampling under add/remove only")
        if delta == 0:
            raise NotExpressible("Opacus' accountants need δ > 0")
        name = {"rdp": "RDPAccountant", "prv": "PRVAccountant", "gdp": "GaussianAccountant"}[kind]
        accountant = getattr(found, name)()
        accountant.history = [(c.noise, c.rate, c.steps)]
        return float(accountant.get_epsilon(delta))

    return epsilon


#: every library accountant, by ``LIBRARY:NAME``
ACCOUNTANT_TARGETS: tuple[AccountantTarget, ...] = (
    AccountantTarget(
        "dp_accounting:pld",
        "pld.PLDAccountant(neighboring_relation).compose(SelfComposedDpEvent(...)).get_epsilon",
        "ADD_OR_REMOVE_ONE or REPLACE_ONE (as asked)",
        _dp_accounting("pld"),
    ),
    AccountantTarget(
        "dp_accounting:rdp",
        "rdp.RdpAccountant(neighboring_relation).compose(SelfComposedDpEvent(...)).get_epsilon",
        "ADD_OR_REMOVE_ONE or REPLACE_ONE (as asked)",
        _dp_accounting("rdp"),
    ),
    AccountantTarget(
        "prv_accountant:prv",
        "PRVAccountant(prvs, eps_error=0.01, delta_error=δ/1000).compute_epsilon (upper)",
        "add/remove",
        _prv(2),
    ),
    AccountantTarget(
        "prv_accountant:prv-estimate",
        "PRVAccountant(prvs, eps_error=0.01, delta_error=δ/1000).compute_epsilon (estimate)",
        "add/remove",
        _prv(1),
    ),
    AccountantTarget(
        "autodp:rdp",
        "Composition()([AmplificationBySampling()(mech, q)], [T]).get_approxDP",
        "add/remove (Poisson), substitution (without replacement)",
        _autodp,
    ),
    AccountantTarget(
        "opacus:rdp",
        "RDPAccountant with history [(σ, q, T)], get_epsilon",
        "add/remove",
        _opacus("rdp"),
    ),
    AccountantTarget(
        "opacus:prv",
        "PRVAccountant with history [(σ, q, T)], get_epsilon",
        "add/remove",
        _opacus("prv"),
    ),
    AccountantTarget(
        "opacus:gdp",
        "GaussianAccountant with history [(σ, q, T)], get_epsilon",
        "add/remove",
        _opacus("gdp"),
    ),
)


def _accountant_target(name: str) -> AccountantTarget:
    """The entry ``LIBRARY:NAME``; ValueError naming ``target`` when unknown or not installed."""
    return _entry(name, ACCOUNTANT_TARGETS, PACKAGES)


def _is_accountant_library(name: str) -> bool:
    """Whether ``name`` is ``LIBRARY:NAME`` for a library of the accountant table."""
    return name.partition(":")[0] in PACKAGES


__all__ = ["ACCOUNTANT_TARGETS", "PACKAGES", "POPULATION", "AccountantTarget"]

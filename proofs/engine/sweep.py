"""The hostile-input sweep, derived from the package: every public callable, every declared
parameter, the values its domain refuses and the values equal to a clean one in another type.

For each public class and function found by :mod:`dpspec.proofs.engine.discovery`, the clean
call is assembled from its :class:`~dpspec.validation.Example` (declared beside it), the
parameters' defaults and their domains' examples. One argument at a time is then replaced:

* by each value its domain refuses (:meth:`Domain.refused`): the call must raise a
  ``ValueError`` / ``TypeError`` naming the parameter — an accepted value, another exception or
  a warning is a failure;
* by each value equal to the clean one in another type (numpy scalars, ``Fraction``; from
  :meth:`Domain.equivalents`): the call must return what the clean call returns (same seeds);
* by values a Hypothesis strategy draws around the domain: a named refusal or a result free of
  NaN, never another exception.

Each call runs with warnings as errors and a bound on the **CPU time** it may use (a profiling
timer, so the verdict does not depend on how loaded the machine is). A refusal must come within
:data:`REFUSAL_CPU_SECONDS`, a bound some 2000 times what a refusal at the gate costs (about
50 µs); the cyclic garbage collector is paused while a case runs, and a refusal measured over the
bound is run twice more and judged by its least time, so a collection, a one-time import or a
clock tick cannot decide it, while work done before the check is done every time.
"""

from __future__ import annotations

import copy
import gc
import inspect
import math
import signal
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from dpspec.proofs.engine.discovery import (
    PublicObject,
    declarative_kind,
    public_methods,
    public_objects,
)
from dpspec.validation import (
    EXAMPLE_ATTRIBUTE,
    NO_EXAMPLE,
    Domain,
    Example,
    Unresolved,
    parameter_domains,
)

#: CPU seconds one hostile call may use before it counts as a hang.
CASE_CPU_SECONDS = 5.0

#: CPU seconds within which a refusal must come: it is made before any work.
REFUSAL_CPU_SECONDS = 0.1

#: More runs of a refusal measured over :data:`REFUSAL_CPU_SECONDS`; the least time decides.
REFUSAL_RERUNS = 2

#: Exceptions that are a clean refusal when their message names the parameter.
REFUSALS = (ValueError, TypeError)


class CaseTimeout(BaseException):
    """Raised by the profiling timer when one call exceeds its CPU budget."""


@dataclass(frozen=True)
class Entry:
    """One public callable: ``owner`` (a class, or None for a function) and ``method``
    (``__init__``, a method name, or ``__call__`` for a function)."""

    public: PublicObject
    method: str

    @property
    def label(self) -> str:
        if self.method == "__call__":
            return self.public.dotted
        return f"{self.public.dotted}.{self.method}"

    @property
    def function(self) -> Callable[..., Any]:
        obj = self.public.obj
        if self.method == "__call__":
            return obj  # type: ignore[no-any-return]
        member = inspect.getattr_static(obj, self.method)
        raw: Callable[..., Any] = (
            member.__func__ if isinstance(member, staticmethod | classmethod) else member
        )
        return raw

    @property
    def domains(self) -> dict[str, Domain | Unresolved | None]:
        return parameter_domains(self.function)


def entries(objects: tuple[PublicObject, ...] | None = None) -> list[Entry]:
    """Every public callable: each function, each computing class's constructor and public
    methods (enums, Protocols and exception types declare, they do not compute)."""
    out = []
    for public in public_objects() if objects is None else objects:
        if declarative_kind(public.obj) is not None:
            continue
        if inspect.isfunction(public.obj):
            out.append(Entry(public, "__call__"))
        else:
            out.append(Entry(public, "__init__"))
            out.extend(Entry(public, m) for m in public_methods(public.obj))
    return out


def example_of(public: PublicObject) -> Example:
    found = getattr(public.obj, EXAMPLE_ATTRIBUTE, None)
    return found if isinstance(found, Example) else Example()


def _clean_arguments(
    function: Callable[..., Any], given: dict[str, Any], label: str
) -> dict[str, Any]:
    """The clean keyword arguments of one call: the example's, then the domains' examples for
    required parameters (defaults are left to the function). Raises LookupError naming a
    required parameter nothing supplies."""
    args: dict[str, Any] = {}
    domains = parameter_domains(function)
    for name, param in inspect.signature(inspect.unwrap(function)).parameters.items():
        if name not in domains:
            continue
        if name in given:
            args[name] = given[name]
            continue
        if param.default is not inspect.Parameter.empty:
            continue
        domain = domains[name]
        value = domain.example if isinstance(domain, Domain) else NO_EXAMPLE
        if value is NO_EXAMPLE:
            raise LookupError(f"{label}: no clean value for required parameter {name!r}")
        args[name] = value
    return args


@dataclass
class Plan:
    """How to make one call of an entry: the instance's constructor arguments and the calls
    made on it, the entry's own call last."""

    entry: Entry
    init: dict[str, Any]
    calls: list[tuple[str, dict[str, Any]]]

    def target(self) -> dict[str, Any]:
        """The arguments of the call under test (the constructor's for ``__init__``)."""
        if self.entry.method in ("__init__",):
            return self.init
        return self.calls[-1][1]


def plan(entry: Entry) -> Plan:
    """The clean call sequence of ``entry`` (LookupError when it cannot be assembled)."""
    public = entry.public
    ex = example_of(public)
    if entry.method == "__call__":
        given = ex.arguments("__call__")
        return Plan(entry, {}, [("__call__", _clean_arguments(public.obj, given, entry.label))])
    cls = public.obj
    init = _clean_arguments(cls.__init__, ex.arguments("__init__"), f"{public.dotted}.__init__")
    order = list(ex.calls)
    calls: list[tuple[str, dict[str, Any]]] = []
    if entry.method == "__init__":
        names = order  # the constructor's arguments may be checked by a later call (fit)
    else:
        before = order[: order.index(entry.method)] if entry.method in order else order
        names = [*before, entry.method] if entry.method not in before else before
    for name in names:
        function = Entry(public, name).function
        calls.append((name, _clean_arguments(function, ex.arguments(name), entry.label)))
    return Plan(entry, init, calls)


#: values a call cannot change: passed on as they are, not copied
_IMMUTABLE = (int, float, complex, str, bytes, bool, type(None), Fraction, np.generic)


def _copy(value: Any) -> Any:
    """A copy of one clean argument that the call may consume or change: a Generator restarts
    from the same state (its bit generator's state copied, not pickled), an immutable value
    is itself, anything else a deep copy."""
    if isinstance(value, _IMMUTABLE):
        return value
    if type(value) is np.random.Generator:
        bits = type(value.bit_generator)()
        bits.state = value.bit_generator.state
        return np.random.Generator(bits)
    return copy.deepcopy(value)


def _fresh(args: dict[str, Any]) -> dict[str, Any]:
    """A copy of clean arguments (generators restart from the same state)."""
    return {k: _copy(v) for k, v in args.items()}


def execute(plan_: Plan, param: str | None = None, value: Any = None) -> Any:
    """Run the plan with ``param`` of the call under test replaced by ``value``; the result of
    the last call."""
    entry = plan_.entry
    public = entry.public
    init = _fresh(plan_.init)
    calls = [(name, _fresh(args)) for name, args in plan_.calls]
    if param is not None:
        target = init if entry.method == "__init__" else calls[-1][1]
        target[param] = value
    if entry.method == "__call__":
        return public.obj(**calls[0][1])
    instance = public.obj(**init)
    result: Any = instance
    for name, args in calls:
        result = getattr(instance, name)(**args)
    return result


# ---------------------------------------------------------------------------------------------
# Running one case under a CPU budget, with warnings as errors


def _cpu_timer_available() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _on_timer(signum: int, frame: Any) -> None:
    raise CaseTimeout(f"over {CASE_CPU_SECONDS} s of CPU")


@dataclass
class Outcome:
    """How one case ended: ``refused`` (exception text), ``result``, or ``failure``."""

    refused: BaseException | None = None
    result: Any = None
    failure: str | None = None
    cpu_seconds: float = 0.0


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block (a collection of everything the process
    holds is not the work of the call being measured)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def least_seconds(first: float, again: Callable[[], float], bound: float) -> float:
    """``first``, or when it is over ``bound`` the least of it and up to :data:`REFUSAL_RERUNS`
    more measurements ``again()`` (work before a check recurs on every run; a collection, a
    one-time import or a clock tick does not)."""
    seconds = first
    for _ in range(REFUSAL_RERUNS):
        if seconds <= bound:
            break
        seconds = min(seconds, again())
    return seconds


def cpu_seconds(call: Callable[[], Any]) -> float:
    """The CPU seconds ``call()`` takes with the collector paused."""
    with gc_paused():
        start = time.process_time()
        call()
        return time.process_time() - start


def least_cpu_seconds(call: Callable[[], Any], bound: float) -> float:
    """The CPU seconds of ``call()`` judged against ``bound`` as the sweep judges a refusal."""
    return least_seconds(cpu_seconds(call), partial(cpu_seconds, call), bound)


def run(call: Callable[[], Any]) -> Outcome:
    """Run ``call`` with warnings as errors under the CPU budget, the collector paused."""
    timer = _cpu_timer_available()
    previous: Any = None
    if timer:
        previous = signal.signal(signal.SIGPROF, _on_timer)
        signal.setitimer(signal.ITIMER_PROF, CASE_CPU_SECONDS)
    start = time.process_time()
    out = Outcome()
    try:
        with gc_paused(), warnings.catch_warnings():
            warnings.simplefilter("error")
            warnings.filterwarnings("ignore", category=DeprecationWarning)
            out.result = call()
    except REFUSALS as exc:
        out.refused = exc
    except CaseTimeout as exc:
        out.failure = str(exc)
    except Exception as exc:  # every other exception is a failure
        out.failure = f"{type(exc).__name__}: {str(exc)[:160]}"
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
    out.cpu_seconds = time.process_time() - start
    return out


def names_parameter(exc: BaseException, param: str) -> bool:
    """Whether a refusal's message names the parameter (``param:`` or ``param[`` or the word)."""
    text = str(exc)
    return param in text


def same_result(a: Any, b: Any) -> bool:
    """Structural equality of two results (arrays exactly, NaN equal to NaN; objects by their
    fitted attributes — names ending in ``_``)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        try:
            return bool(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True))
        except TypeError:
            return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_result(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same_result(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a).__module__.startswith("dpspec") and type(a) is type(b):
        fitted = [k for k in vars(a) if k.endswith("_") and not k.startswith("_")]
        state = fitted or [k for k in vars(a) if not k.startswith("_")]
        return all(same_result(getattr(a, k), getattr(b, k, None)) for k in state)
    try:
        return bool(a == b)
    except Exception:  # an object with no equality: identity only
        return a is b


def has_nan(result: Any, depth: int = 0) -> bool:
    """Whether a result carries NaN in a float array or float (a silent wrong answer)."""
    if depth > 3:
        return False
    if isinstance(result, float):
        return math.isnan(result)
    if isinstance(result, np.ndarray) and result.dtype.kind == "f":
        return bool(np.isnan(result).any())
    if isinstance(result, dict):
        return any(has_nan(v, depth + 1) for v in list(result.values())[:64])
    if isinstance(result, list | tuple):
        return any(has_nan(v, depth + 1) for v in list(result)[:64])
    return False


# ---------------------------------------------------------------------------------------------
# The sweep


@dataclass
class Tally:
    """Counts of one sweep, per family (the subpackage)."""

    calls: int = 0
    refused: int = 0
    equivalent: int = 0
    accepted: int = 0
    failures: list[str] = field(default_factory=list)
    slowest_cpu: float = 0.0
    slowest_refusal_cpu: float = 0.0
    by_family: dict[str, dict[str, int]] = field(default_factory=dict)

    def count(self, family: str, kind: str) -> None:
        self.calls += 1
        row = self.by_family.setdefault(
            family, {"calls": 0, "refused": 0, "equivalent": 0, "accepted": 0, "failures": 0}
        )
        row["calls"] += 1
        row[kind] += 1
        if kind != "failures":
            setattr(self, kind, getattr(self, kind) + 1)


def _short(value: Any) -> str:
    text = repr(value).replace("\n", " ")
    return text if len(text) <= 40 else text[:37] + "..."


def sweep_entry(entry: Entry, tally: Tally) -> None:
    """Every refused and equivalent value of every declared parameter of one entry."""
    family = entry.public.package
    try:
        the_plan = plan(entry)
    except LookupError as exc:
        tally.count(family, "failures")
        tally.failures.append(f"{entry.label}: cannot assemble a clean call ({exc})")
        return
    clean = run(lambda: execute(the_plan))
    if clean.failure is not None or clean.refused is not None:
        tally.count(family, "failures")
        why = clean.failure or f"{type(clean.refused).__name__}: {clean.refused}"
        tally.failures.append(f"{entry.label}: the clean call fails ({why[:200]})")
        return
    for param, domain in entry.domains.items():
        if not isinstance(domain, Domain):
            continue
        for value in domain.refused():
            case(entry, the_plan, param, value, None, tally)
        target = the_plan.target()
        reference, clean_value = clean, target.get(param, NO_EXAMPLE)
        if param not in target:  # the default ran: compare equivalents of the domain's example
            clean_value = domain.example
            if clean_value is NO_EXAMPLE or clean_value is None:
                continue
            reference = run(partial(execute, the_plan, param, clean_value))
            if reference.failure is not None or reference.refused is not None:
                continue  # the example is not a clean value of this call (a cross constraint)
        for value in domain.equivalents(clean_value):
            case(entry, the_plan, param, value, reference, tally)


def case(
    entry: Entry, the_plan: Plan, param: str, value: Any, clean: Outcome | None, tally: Tally
) -> None:
    """One hostile case: ``clean`` is None for a refused value, else the clean outcome the
    equivalent value must reproduce."""
    family = entry.public.package
    label = f"{entry.label}[{param}={_short(value)}]"
    out = run(lambda: execute(the_plan, param, value))
    tally.slowest_cpu = max(tally.slowest_cpu, out.cpu_seconds)
    problem: str | None = None
    kind = "refused"
    if out.failure is not None:
        problem = out.failure
    elif clean is None:
        if out.refused is None:
            problem = "accepted a value outside its declared domain"
        elif not names_parameter(out.refused, param):
            problem = f"{type(out.refused).__name__} not naming {param}: {str(out.refused)[:120]}"
        elif entry.method != "__init__" or not _fits_at_init(entry):
            seconds = refusal_cpu_seconds(
                partial(run, partial(execute, the_plan, param, value)), out
            )
            tally.slowest_refusal_cpu = max(tally.slowest_refusal_cpu, seconds)
            if seconds > REFUSAL_CPU_SECONDS:
                problem = f"refused after {seconds:.2f} s of CPU (work before the check)"
    else:
        kind = "equivalent"
        if out.refused is not None:
            problem = f"refused an equivalent of the clean value: {str(out.refused)[:120]}"
        elif not same_result(out.result, clean.result):
            problem = "a different result from the clean value's"
    if problem is None:
        tally.count(family, kind)
    else:
        tally.count(family, "failures")
        tally.failures.append(f"{label}: {problem}")


def refusal_seconds(out: Outcome) -> float:
    """The CPU seconds of a refusal; unbounded for an outcome that is not one."""
    return out.cpu_seconds if out.refused is not None else math.inf


def refusal_cpu_seconds(attempt: Callable[[], Outcome], first: Outcome | None = None) -> float:
    """The CPU seconds of the refusal ``attempt()`` makes (``first``, when it has run already),
    judged by :func:`least_seconds` against :data:`REFUSAL_CPU_SECONDS`."""
    out = attempt() if first is None else first
    return least_seconds(
        refusal_seconds(out), lambda: refusal_seconds(attempt()), REFUSAL_CPU_SECONDS
    )


def _fits_at_init(entry: Entry) -> bool:
    """An estimator's constructor argument is refused by ``fit`` after the calls the example
    makes first (so its refusal time includes them)."""
    return getattr(entry.public.obj, "validate_params_at", "") == "fit"


def sweep(selected: list[Entry] | None = None) -> Tally:
    """Sweep every public callable (or ``selected``)."""
    tally = Tally()
    for entry in entries() if selected is None else selected:
        sweep_entry(entry, tally)
    return tally


def undeclared(selected: list[Entry] | None = None) -> Iterator[str]:
    """Parameters of public callables with no declared domain (or an annotation that does not
    resolve)."""
    for entry in entries() if selected is None else selected:
        for name, domain in entry.domains.items():
            if domain is None:
                yield f"{entry.label}: parameter {name!r} has no declared domain"
            elif isinstance(domain, Unresolved):
                yield f"{entry.label}: parameter {name!r}: annotation {domain.text!r} unresolved"


# ---------------------------------------------------------------------------------------------
# Hypothesis: values drawn around each declared domain


def _strategies() -> Any:
    """Values of every kind a hostile caller sends (numbers at their edges, numpy scalars of
    every width, text, containers, arrays of awkward dtypes and shapes)."""
    from hypothesis import strategies as st
    from hypothesis.extra import numpy as hnp

    numbers = st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.floats(width=16).map(np.float16),
        st.floats(width=32).map(np.float32),
        st.integers(-(2**70), 2**70),
        st.integers(-3, 3),
        st.integers(-(2**63), 2**63 - 1).map(np.int64),
        st.fractions(),
        st.booleans(),
        st.complex_numbers(allow_nan=True),
    )
    arrays = st.one_of(
        hnp.arrays(
            st.sampled_from([np.float64, np.float32, np.int64, np.int8, np.uint64, np.bool_]),
            hnp.array_shapes(min_dims=0, max_dims=3, max_side=5),
        ),
        hnp.arrays(
            np.float64,
            hnp.array_shapes(min_dims=1, max_dims=2, max_side=6),
            elements=st.floats(allow_nan=True, allow_infinity=True),
        ),
        st.lists(st.one_of(st.integers(-5, 5), st.text(max_size=2), st.none()), max_size=5).map(
            lambda v: np.array(v, dtype=object)
        ),
    )
    return st.one_of(numbers, arrays, st.none(), st.text(max_size=4), st.lists(numbers, max_size=3))


#: Integer arguments above this are workloads, not hostile values: their cost is what the
#: domain's limit allows (checked at the limit by the thorough obligations).
WORKLOAD = 2**12


def _legitimate_workload(domain: Domain, value: Any) -> bool:
    """An in-domain integer of a capped domain above :data:`WORKLOAD` (a large request)."""
    from dpspec.validation import Integer

    if not isinstance(domain, Integer) or isinstance(value, bool | np.bool_):
        return False
    if not isinstance(value, int | np.integer) or int(value) <= WORKLOAD:
        return False
    try:
        domain.check(value, "value")
    except (ValueError, TypeError):
        return False
    return True


@dataclass
class FuzzTally:
    calls: int = 0
    refused: int = 0
    accepted: int = 0
    failures: list[str] = field(default_factory=list)


def fuzz_entry(entry: Entry, examples: int, tally: FuzzTally) -> None:
    """``examples`` Hypothesis-drawn cases of one entry: each replaces one declared parameter
    by a drawn value (or one of its domain's refused or equivalent values); the call must end
    with a named refusal or a result free of NaN — never another exception, a warning, or the
    CPU budget exceeded. Derandomised: the same cases every run."""
    from hypothesis import HealthCheck, assume, given, settings
    from hypothesis import strategies as st

    try:
        the_plan = plan(entry)
    except LookupError:
        return  # reported by the discovery obligation
    declared = [(n, d) for n, d in entry.domains.items() if isinstance(d, Domain)]
    if not declared:
        return
    known = st.sampled_from(declared).flatmap(
        lambda nd: st.tuples(
            st.just(nd[0]),
            st.one_of(
                _strategies(),
                st.sampled_from((*nd[1].refused(), None)),
            ),
        )
    )

    @settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(known)
    def one(case_: tuple[str, Any]) -> None:
        param, value = case_
        assume(not _legitimate_workload(dict(declared)[param], value))
        out = run(partial(execute, the_plan, param, value))
        tally.calls += 1
        label = f"{entry.label}[{param}={_short(value)}]"
        if out.failure is not None:
            tally.failures.append(f"{label}: {out.failure}")
        elif out.refused is not None:
            tally.refused += 1
        elif has_nan(out.result):
            tally.failures.append(f"{label}: a result with NaN")
        else:
            tally.accepted += 1

    one()


def fuzz(examples: int, selected: list[Entry] | None = None) -> FuzzTally:
    """:func:`fuzz_entry` over every public callable (or ``selected``)."""
    tally = FuzzTally()
    for entry in entries() if selected is None else selected:
        fuzz_entry(entry, examples, tally)
    return tally


# ---------------------------------------------------------------------------------------------
# Calls that may ask for too much: in a child process with a memory cap


#: Address space a probe of a declared limit may add to the process's (a request refused
#: before any work needs almost none; one that starts work is stopped by the cap instead of the
#: machine).
PROBE_MEMORY_BYTES = 2**30


def _address_space() -> int:
    """The process's current virtual size in bytes (``/proc/self/status``; 0 when unknown)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run_isolated(call: Callable[[], Any], cpu_seconds: float) -> Outcome:
    """Run ``call`` in a forked child whose address space may grow by at most
    :data:`PROBE_MEMORY_BYTES` and whose CPU time is capped at ``cpu_seconds``; the outcome
    (refused with its message, a result, or the failure) comes back through a pipe. Where
    ``fork`` is missing, the call runs here under :func:`run`."""
    import os
    import pickle
    import resource

    if not hasattr(os, "fork"):  # pragma: no cover - Windows
        return run(call)
    read, write = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: cap, run, report, exit without cleanup handlers
        os.close(read)
        code = 0
        try:
            cap = _address_space() + PROBE_MEMORY_BYTES
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            limit = max(1, math.ceil(cpu_seconds))
            resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
            out = run(call)
            message = (
                ("refused", f"{type(out.refused).__name__}: {out.refused}")
                if out.refused is not None
                else ("failure", out.failure)
                if out.failure is not None
                else ("result", None)
            )
            payload = pickle.dumps((*message, out.cpu_seconds))
        except BaseException as exc:
            payload = pickle.dumps(("failure", f"{type(exc).__name__}: {exc}", 0.0))
            code = 1
        with os.fdopen(write, "wb") as fh:
            fh.write(payload)
        os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as fh:
        data = fh.read()
    _, status = os.waitpid(pid, 0)
    outcome = Outcome()
    if not data:
        signal_number = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
        outcome.failure = f"the call was killed (signal {signal_number}) after " + (
            f"{time.perf_counter() - start:.1f} s: it exceeded its memory or CPU cap"
        )
        return outcome
    kind, text, cpu = pickle.loads(data)
    outcome.cpu_seconds = cpu
    if kind == "refused":
        outcome.refused = ValueError(text)
    elif kind == "failure":
        outcome.failure = text
    return outcome

"""Checkpoints: the state of an interrupted audit, and what that state is for.

An audit saves its state after every estimation block — the events and their directions, the
root seed of the estimation blocks, the draws done and the hits per event and side — so that an
interrupted audit resumes where it stopped and reproduces the uninterrupted counts exactly.

**What a checkpoint is for.** The file records the audit's :class:`AuditIdentity`: the target
(its qualified name and :func:`~dpspec.audit._identity.fingerprint`, a SHA-256 of its code and
data — for a learner target, of the estimator factory's code and of the release and probe), the
pair (a SHA-256 of its contents, not a repr that elides the middle of large arrays), the claim
(ε, δ), the sample plan (samples, selection, confidence, block size, event families) and the
seed. A checkpoint is refused, with an error naming ``checkpoint`` and the fields that differ,
by any audit whose identity differs. A finished audit removes its checkpoint (if the removal
fails, the file is marked finished and holds the final counts, which give the same result).

**Integrity and threat model.** Every field is validated on load (format, keys, counts in whole
blocks, hits ≤ draws, events well formed). The seal is a SHA-256 of the content, which detects
damage and casual edits but not a forger: whoever can write the file can recompute it and
change counts within their valid ranges. Set the environment variable
``DPSPEC_CHECKPOINT_KEY`` to seal with HMAC-SHA256 under that key instead: a file edited by
anyone who does not hold the key is refused, and so is an unkeyed file while the key is set.
Neither protects against someone who controls the auditing process or knows the key; the
checkpoint is not confidential (events and counts are in clear); the target's identity covers
the code and data reachable from it within :mod:`dpspec.audit._identity`'s bounds, not the code
of other installed packages it calls.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from dpspec.audit._events import Event
from dpspec.audit._identity import fingerprint, qualified_name
from dpspec.spec.audit import checkpoint_counts_valid

#: the format of the checkpoint files this version writes and reads
CHECKPOINT_FORMAT = "dpspec-audit-checkpoint/4"
#: the environment variable holding the HMAC key of checkpoints (unset: unkeyed SHA-256)
KEY_VARIABLE = "DPSPEC_CHECKPOINT_KEY"


@dataclass(frozen=True)
class AuditIdentity:
    """What an audit is: target, pair, claim, sample plan and seed (see the module docstring).
    Two audits with equal identities draw the same outputs and count the same events."""

    target: str
    target_sha256: str
    pair_sha256: str
    epsilon: float
    delta: float
    samples: int
    selection: int
    confidence: float
    block: int
    seed: str
    event: str
    options: str

    @classmethod
    def of(
        cls,
        target: Any,
        pair: Any,
        epsilon: float,
        delta: float,
        plan: tuple[int, int, float, int],
        seed: int | np.random.Generator,
        event: Event | None,
        options: dict[str, Any],
    ) -> AuditIdentity:
        """The identity of an audit of ``target`` on ``pair``; ``plan`` = (samples, selection,
        confidence, block); ``options`` the remaining audit options that change what is drawn
        or counted (their repr)."""
        samples, selection, confidence, block = plan
        if isinstance(seed, np.random.Generator):
            state = repr(seed.bit_generator.state).encode("utf-8")
            seed_text = "generator state sha256:" + hashlib.sha256(state).hexdigest()
        else:
            seed_text = f"integer {int(seed)}"
        return cls(
            target=_target_name(target),
            target_sha256=fingerprint(target),
            pair_sha256=fingerprint(pair),
            epsilon=float(epsilon),
            delta=float(delta),
            samples=int(samples),
            selection=int(selection),
            confidence=float(confidence),
            block=int(block),
            seed=seed_text,
            event="" if event is None else repr(event),
            options=repr(sorted(options.items())),
        )

    @classmethod
    def from_json(cls, data: Any) -> AuditIdentity:
        """The identity stored in a checkpoint, or a ValueError naming what is malformed."""
        names = {f.name: f.type for f in fields(cls)}
        if not isinstance(data, dict) or set(data) != set(names):
            raise ValueError(f"audit: expected the fields {sorted(names)}")
        for name, value in data.items():
            kind = names[name]
            ok = (
                isinstance(value, str)
                if kind == "str"
                else _is_int(value)
                if kind == "int"
                else isinstance(value, int | float) and not isinstance(value, bool)
            )
            if not ok:
                raise ValueError(f"audit: field {name} has a value of the wrong type")
        return cls(**data)

    def differences(self, other: AuditIdentity) -> list[str]:
        """The fields in which two identities differ, readable (``target`` with both names)."""
        out = []
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if mine != theirs:
                if f.name in ("target", "target_sha256"):
                    out.append(f"target ({theirs if f.name == 'target' else 'its code or data'})")
                else:
                    out.append(f.name)
        return sorted(set(out))


def _target_name(target: Any) -> str:
    """A readable name of an audit target: the callable a wrapper holds (``fn`` of a
    callable target, ``factory`` of a learner target), else the target's class."""
    for attribute in ("fn", "factory"):
        inner = getattr(target, attribute, None)
        if callable(inner):
            return f"{qualified_name(target)}({qualified_name(inner)})"
    return qualified_name(target)


def _value_json(v: Any) -> Any:
    if isinstance(v, tuple | list):
        return [_value_json(u) for u in v]
    if isinstance(v, bytes):
        return {"bytes": v.hex()}
    if isinstance(v, np.generic):
        return _value_json(v.item())
    if v is None or isinstance(v, bool | int | float | str):
        return v
    raise TypeError(f"checkpoint: cannot store an event value {v!r}")


def _value_back(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_value_back(u) for u in v)
    if isinstance(v, dict) and set(v) == {"bytes"} and isinstance(v["bytes"], str):
        return bytes.fromhex(v["bytes"])
    if v is None or isinstance(v, bool | int | float | str):
        return v
    raise ValueError(f"an event value {v!r} of type {type(v).__name__}")


def _event_json(event: Event) -> dict[str, Any]:
    return {
        "kind": event.kind,
        "values": [_value_json(v) for v in event.values],
        "lo": event.lo,
        "hi": event.hi,
        "weights": list(event.weights),
        "bits": event.bits,
        "inner": None if event.inner is None else _event_json(event.inner),
    }


def _event_back(d: Any) -> Event:
    keys = {"kind", "values", "lo", "hi", "weights", "bits", "inner"}
    if not isinstance(d, dict) or set(d) != keys:
        raise ValueError(f"event: expected the fields {sorted(keys)}")
    if not isinstance(d["values"], list) or not isinstance(d["weights"], list):
        raise ValueError("event: values and weights must be lists")
    if not isinstance(d["kind"], str):
        raise ValueError("event: kind must be a string")
    return Event(
        d["kind"],
        tuple(_value_back(v) for v in d["values"]),
        d["lo"],
        d["hi"],
        tuple(d["weights"]),
        d["bits"],
        None if d["inner"] is None else _event_back(d["inner"]),
    )


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _canonical(body: dict[str, Any]) -> bytes:
    return json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=True).encode("utf-8")


def _digest(body: dict[str, Any]) -> str:
    """The unkeyed seal: SHA-256 of the canonical JSON of ``body``."""
    return hashlib.sha256(_canonical(body)).hexdigest()


def _key() -> bytes | None:
    """The HMAC key; None when the variable is unset. Set but empty (or blank) is refused: it
    would seal with the unkeyed SHA-256 while the user asked for a key."""
    value = os.environ.get(KEY_VARIABLE)
    if value is None:
        return None
    if not value.strip():
        raise ValueError(
            f"checkpoint: {KEY_VARIABLE} is set but empty; give the key, or unset it for an "
            "unkeyed SHA-256 seal"
        )
    return value.encode("utf-8")


def _mac(body: dict[str, Any], key: bytes) -> str:
    """The keyed seal: HMAC-SHA256 under ``key`` of the canonical JSON of ``body``."""
    return hmac.new(key, _canonical(body), hashlib.sha256).hexdigest()


def _seal(body: dict[str, Any]) -> dict[str, str]:
    key = _key()
    return {"sha256": _digest(body)} if key is None else {"hmac_sha256": _mac(body, key)}


#: the fields of a checkpoint besides its seal
_BODY_FIELDS = frozenset(
    {"format", "audit", "events", "swapped", "root", "done", "hits", "finished"}
)


@dataclass
class Progress:
    """Estimation state of one audit (its :class:`AuditIdentity`, None when it is not
    checkpointed; ``selection`` draws per side chose its events): the events and their
    directions, the root seed of the estimation blocks, per side the draws done (whole blocks)
    and per event and side the hits; ``finished`` once every draw is counted."""

    identity: AuditIdentity | None
    selection: int
    events: list[Event]
    swapped: list[bool]
    root: int
    done: list[int] = field(default_factory=lambda: [0, 0])
    hits: list[list[int]] = field(default_factory=list)
    finished: bool = False

    def __post_init__(self) -> None:
        if not self.hits:
            self.hits = [[0, 0] for _ in self.events]

    def save(self, path: Path | None) -> None:
        """Write atomically (temporary file, then rename), sealed (see the module docstring)."""
        if path is None or self.identity is None:
            return
        body = {
            "format": CHECKPOINT_FORMAT,
            "audit": asdict(self.identity),
            "events": [_event_json(e) for e in self.events],
            "swapped": list(self.swapped),
            "root": self.root,
            "done": list(self.done),
            "hits": [list(h) for h in self.hits],
            "finished": self.finished,
        }
        body = json.loads(json.dumps(body, allow_nan=True))  # exactly what a load will see
        payload = {**body, **_seal(body)}
        tmp = path.with_name(path.name + ".tmp")
        try:
            tmp.write_text(json.dumps(payload), encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            raise OSError(f"checkpoint: cannot write {path} ({exc.strerror or exc})") from exc

    def finish(self, path: Path | None) -> None:
        """The audit is done: mark the file finished, then remove it (nothing is left to
        resume; a file that cannot be removed holds the final counts, marked finished)."""
        if path is None:
            return
        self.finished = True
        with contextlib.suppress(OSError):
            self.save(path)
            path.unlink()

    @classmethod
    def load(cls, path: Path, identity: AuditIdentity) -> Progress | None:
        """The saved state of the audit ``identity``, None when there is none; a ValueError
        naming ``checkpoint`` for a damaged, edited or unsealed file, or one of another audit
        (the message names the fields that differ)."""
        if not path.is_file() or path.stat().st_size == 0:
            return None

        def bad(why: str) -> ValueError:
            return ValueError(
                f"checkpoint: {path} is not a valid checkpoint of this audit ({why}); remove "
                "it to start again"
            )

        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise bad(f"unreadable: {exc}") from exc
        if not isinstance(data, dict) or not set(data) >= _BODY_FIELDS:
            raise bad("unexpected content or fields")
        seals = set(data) - _BODY_FIELDS
        if seals not in ({"sha256"}, {"hmac_sha256"}):
            raise bad("unexpected fields, or no single seal (sha256 or hmac_sha256)")
        if data["format"] != CHECKPOINT_FORMAT:
            raise bad(f"format {data['format']!r}, expected {CHECKPOINT_FORMAT!r}")
        body = {k: data[k] for k in _BODY_FIELDS}
        key = _key()
        if key is None and "hmac_sha256" in data:
            raise bad(f"it is sealed with a key: set {KEY_VARIABLE} to the key it was written with")
        if key is not None and "sha256" in data:
            raise bad(f"it is not sealed with a key while {KEY_VARIABLE} is set")
        if key is None and data["sha256"] != _digest(body):
            raise bad("its SHA-256 does not match its content: edited or damaged")
        if key is not None and not (
            isinstance(data["hmac_sha256"], str)
            and hmac.compare_digest(data["hmac_sha256"], _mac(body, key))
        ):
            raise bad(f"its HMAC does not verify under {KEY_VARIABLE}: edited, or another key")
        try:
            stored = AuditIdentity.from_json(data["audit"])
        except ValueError as exc:
            raise bad(str(exc)) from exc
        if stored != identity:
            raise ValueError(
                f"checkpoint: {path} belongs to a different audit (differs in: "
                f"{', '.join(identity.differences(stored))}); remove it or pick another path"
            )
        return cls._parsed(data, identity, bad)

    @classmethod
    def _parsed(cls, data: dict[str, Any], identity: AuditIdentity, bad: Any) -> Progress:
        n = identity.samples
        done, hits, swapped, events = data["done"], data["hits"], data["swapped"], data["events"]
        if not (isinstance(events, list) and events and isinstance(swapped, list)):
            raise bad("events and swapped must be non-empty lists")
        if not (isinstance(done, list) and len(done) == 2 and isinstance(hits, list)):
            raise bad("done must be two counts and hits one pair of counts per event")
        if not (len(hits) == len(swapped) == len(events)):
            raise bad("events, swapped and hits must have one entry per event")
        for pair in hits:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise bad("hits must be one pair of counts per event")
            for d, h in zip(done, pair, strict=True):
                if not checkpoint_counts_valid(d, h, n, identity.block):
                    raise bad(
                        f"draws done {d!r} and hits {h!r}: need whole blocks of "
                        f"{identity.block} draws in [0, {n}] and 0 <= hits <= done"
                    )
        if not all(isinstance(v, bool) for v in swapped):
            raise bad("swapped must be true or false for every event")
        if not (_is_int(data["root"]) and 0 <= data["root"] < 2**63):
            raise bad("root seed must be an integer in [0, 2^63)")
        if not isinstance(data["finished"], bool) or (data["finished"] and done != [n, n]):
            raise bad("finished must be true (with every draw done) or false")
        try:
            back = [_event_back(e) for e in events]
        except (ValueError, TypeError) as exc:
            raise bad(str(exc)) from exc
        return cls(
            identity,
            identity.selection,
            back,
            list(swapped),
            data["root"],
            list(done),
            [list(h) for h in hits],
            data["finished"],
        )


def _checkpoint_path(checkpoint: Any) -> Path | None:
    """The checkpoint path, refused up front (before any draw) when it cannot be written."""
    if checkpoint is None:
        return None
    if not isinstance(checkpoint, str | os.PathLike):
        raise TypeError(f"checkpoint: expected a path, got {type(checkpoint).__name__}")
    if str(checkpoint) == "":
        raise ValueError("checkpoint: empty path")
    _key()  # an empty key is refused before any draw
    path = Path(checkpoint)
    if path.is_dir():
        raise ValueError(f"checkpoint: {path} is a directory")
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8"):
            pass
        tmp.unlink()
    except OSError as exc:
        raise ValueError(f"checkpoint: cannot write {path} ({exc.strerror or exc})") from exc
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise ValueError(f"checkpoint: {path} exists but cannot be read and replaced")
    return path

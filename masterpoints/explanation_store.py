"""How an award's explanation is stored: what a group's awards share once, what each award adds, a narrow ledger.

The explanation of an award is a function of its tournament's scale and the entry's place and participation
(design.md § Invariants: "the ledger row stays narrow"). A group of awards (one tournament part)
is split into its **scale**, the top-level items and the inputs every award of the group has with the same
value (rules, field, boards, factors), and each award's **own** values (place, boards played, share, …).
Both are stored content-addressed, keyed by the SHA-256 of their canonical JSON, so the same scale of
another tournament, or the same place of a pair's two players, is one row; the ledger row keeps one foreign
key to its explanation (``Award.explanation_ref``, ``NULL`` for an empty explanation). Rows of either table
are written once and never updated: a new content is a new row.

:func:`join` rebuilds exactly the dict :func:`split` was given, key order included. :func:`store` writes
through the model classes it is given, so the data migration runs it with the historical models.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

_MISSING = object()
#: Rows looked up or inserted per query (well below SQLite's 999 bound parameters).
CHUNK = 500


def canonical(value: Any) -> str:
    """The JSON text that identifies ``value``: sorted keys, no spaces, characters as they are."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def digest(value: Any) -> str:
    return hashlib.sha256(canonical(value).encode()).hexdigest()


def _same(a: Any, b: Any) -> bool:
    return a is not _MISSING and b is not _MISSING and canonical(a) == canonical(b)


def split(group: Sequence[Mapping]) -> tuple[dict, list[dict]]:
    """The scale shared by every explanation of ``group`` (non-empty dicts) and each one's own part.

    The scale holds ``top`` (items other than the inputs, equal in all), ``inputs`` (inputs equal in all),
    ``keys`` and ``order`` (the first one's key orders); an own part holds what differs, and its key orders
    only where they differ from the scale's. Inputs are split by name when every explanation has them as
    a mapping; otherwise ``inputs`` is one item like the others.
    """
    first = group[0]
    by_input = all(isinstance(e.get("inputs"), Mapping) for e in group)
    top = {
        k: v
        for k, v in first.items()
        if not (by_input and k == "inputs") and all(_same(e.get(k, _MISSING), v) for e in group)
    }
    scale: dict[str, Any] = {"top": top, "keys": list(first)}
    if by_input:
        inputs = first["inputs"]
        shared = {k: v for k, v in inputs.items() if all(_same(e["inputs"].get(k, _MISSING), v) for e in group)}
        scale |= {"inputs": shared, "order": list(inputs)}
    owns = []
    for explanation in group:
        own: dict[str, Any] = {}
        rest = {k: v for k, v in explanation.items() if k not in top and not (by_input and k == "inputs")}
        if rest:
            own["top"] = rest
        if list(explanation) != scale["keys"]:
            own["keys"] = list(explanation)
        if by_input:
            inputs = {k: v for k, v in explanation["inputs"].items() if k not in scale["inputs"]}
            if inputs:
                own["inputs"] = inputs
            if list(explanation["inputs"]) != scale["order"]:
                own["order"] = list(explanation["inputs"])
        owns.append(own)
    return scale, owns


def join(scale: Mapping, own: Mapping) -> dict:
    """The explanation :func:`split` took apart into ``scale`` and ``own``, keys in their first order."""
    items = {**scale["top"], **own.get("top", {})}
    if "order" in scale:
        inputs = {**scale["inputs"], **own.get("inputs", {})}
        items["inputs"] = {k: inputs[k] for k in own.get("order", scale["order"])}
    return {k: items[k] for k in own.get("keys", scale["keys"])}


def loaded(scale_text: str, own_text: str) -> dict:
    """:func:`join` of the two parts as their stored JSON text (a ledger read that decodes only what it shows)."""
    return join(json.loads(scale_text), json.loads(own_text))


def _insert_missing(model, rows: dict[str, dict]) -> dict[str, int]:
    """The primary keys of the rows with these digests, inserting those not stored yet (write-once: a stored
    digest is never written again; a racing insert of the same digest is ignored and read back)."""
    found: dict[str, int] = {}
    keys = list(rows)
    for start in range(0, len(keys), CHUNK):
        chunk = keys[start : start + CHUNK]
        found |= dict(model.objects.filter(digest__in=chunk).values_list("digest", "pk"))
    missing = [model(digest=key, **fields) for key, fields in rows.items() if key not in found]
    if missing:
        model.objects.bulk_create(missing, batch_size=CHUNK, ignore_conflicts=True)
        new = [obj.digest for obj in missing]
        for start in range(0, len(new), CHUNK):
            found |= dict(model.objects.filter(digest__in=new[start : start + CHUNK]).values_list("digest", "pk"))
    return found


def store(scale_model, explanation_model, explanations: Sequence[tuple[Hashable, Mapping]]) -> list[int | None]:
    """Store ``explanations``, each ``(group, explanation)``, as scales and own parts: one scale per group
    (the awards of one tournament part), and return each one's explanation row id (``None`` when empty)."""
    groups: dict[Hashable, list[int]] = {}
    for index, (group, explanation) in enumerate(explanations):
        if explanation:
            groups.setdefault(group, []).append(index)
    scales: dict[str, dict] = {}
    parts: dict[str, tuple[str, dict]] = {}
    of_index: dict[int, str] = {}
    for indexes in groups.values():
        scale, owns = split([explanations[i][1] for i in indexes])
        scale_key = digest(scale)
        scales[scale_key] = {"data": scale}
        for index, own in zip(indexes, owns, strict=True):
            key = digest({"scale": scale_key, "own": own})
            parts[key] = (scale_key, own)
            of_index[index] = key
    scale_ids = _insert_missing(scale_model, scales)
    part_ids = _insert_missing(
        explanation_model, {key: {"scale_id": scale_ids[s], "own": own} for key, (s, own) in parts.items()}
    )
    return [part_ids[of_index[i]] if i in of_index else None for i in range(len(explanations))]

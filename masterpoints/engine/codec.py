"""The rule sets' JSON form, driven by the type hints: exact numbers as text, dates as ISO strings.

A rule set (``dbf.rules.DbfRuleSet``) is a frozen dataclass of exact values; :func:`encode` turns a value of
a given type into plain JSON types (``Fraction`` → ``"0.1"`` or ``"2/3"``, ``date`` → ``"2023-09-01"``,
``tuple[tuple[str, X], ...]`` → an object, nested dataclasses → objects) and :func:`decode` reads it back,
refusing what does not fit the type, so a stored set round-trips exactly (``dbf.md`` § 2, D-Q settings).
Pure Python, as the whole engine.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import types
import typing
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any


def fraction_text(value: Fraction) -> str:
    """``Fraction`` as the shortest exact text: a decimal when it terminates (``"0.1"``), else ``"2/3"``."""
    value = Fraction(value)
    den = value.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den != 1:
        return f"{value.numerator}/{value.denominator}"
    text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def parse_fraction(raw: Any, name: str = "value") -> Fraction:
    """An exact number from a JSON value: an int, a decimal string (``"0.1"``) or a ratio (``"2/3"``)."""
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise ValueError(f"{name}: expected a number as a string, not {raw!r}")
    try:
        if isinstance(raw, str) and "/" in raw:
            num, den = raw.split("/", 1)
            return Fraction(int(num.strip()), int(den.strip()))
        return Fraction(Decimal(str(raw).strip()))
    except (InvalidOperation, ValueError, ZeroDivisionError):
        raise ValueError(f"{name}: {raw!r} is not an exact number") from None


def encode(hint: Any, value: Any) -> Any:
    """Encode ``value`` of type ``hint`` as plain JSON types (driven by the type, so it round-trips)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None:
            return None
        others = [o for o in typing.get_args(hint) if o is not type(None)]
        return encode(others[0], value)
    if hint is Fraction:
        return fraction_text(value)
    if hint is dt.date:
        return value.isoformat()
    if hint in (bool, int, str):
        return value
    if dataclasses.is_dataclass(hint):
        sub = typing.get_type_hints(hint)
        return {f.name: encode(sub[f.name], getattr(value, f.name)) for f in dataclasses.fields(hint)}
    if origin is tuple:
        args = typing.get_args(hint)
        if is_pairs(hint):
            value_hint = typing.get_args(args[0])[1]
            return {key: encode(value_hint, item) for key, item in value}
        if len(args) == 2 and args[1] is Ellipsis:
            return [encode(args[0], item) for item in value]
        return [encode(a, item) for a, item in zip(args, value, strict=True)]
    raise TypeError(f"cannot store {value!r} as {hint!r} in a rule set")


def is_pairs(hint: Any) -> bool:
    """``tuple[tuple[str, X], ...]``: a mapping stored as pairs."""
    if typing.get_origin(hint) is not tuple:
        return False
    args = typing.get_args(hint)
    if len(args) != 2 or args[1] is not Ellipsis:
        return False
    inner = args[0]
    return typing.get_origin(inner) is tuple and len(typing.get_args(inner)) == 2 and typing.get_args(inner)[0] is str


def decode(hint: Any, raw: Any, name: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = typing.get_args(hint)
        if raw is None and type(None) in options:
            return None
        others = [o for o in options if o is not type(None)]
        return decode(others[0], raw, name)
    if hint is Fraction:
        return parse_fraction(raw, name)
    if hint is bool:
        if not isinstance(raw, bool):
            raise ValueError(f"{name}: expected true or false")
        return raw
    if hint is int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise ValueError(f"{name}: expected a whole number")
        return raw
    if hint is str:
        if not isinstance(raw, str):
            raise ValueError(f"{name}: expected text")
        return raw
    if hint is dt.date:
        return dt.date.fromisoformat(raw)
    if dataclasses.is_dataclass(hint):
        sub = typing.get_type_hints(hint)
        return hint(**{key: decode(sub[key], value, f"{name}.{key}") for key, value in raw.items()})
    if origin is tuple:
        args = typing.get_args(hint)
        if is_pairs(hint) and isinstance(raw, Mapping):
            value_hint = typing.get_args(args[0])[1]
            return tuple((str(key), decode(value_hint, value, f"{name}.{key}")) for key, value in raw.items())
        if not isinstance(raw, list):
            raise ValueError(f"{name}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], item, f"{name}[{i}]") for i, item in enumerate(raw))
        if len(args) != len(raw):
            raise ValueError(f"{name}: expected {len(args)} items")
        return tuple(decode(a, item, f"{name}[{i}]") for i, (a, item) in enumerate(zip(args, raw, strict=True)))
    raise TypeError(f"{name}: cannot read type {hint!r}")

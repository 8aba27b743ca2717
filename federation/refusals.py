"""Refusals of the services: each service module keeps a catalogue ``REFUSALS`` (code → message, translated)
and raises ``refusal(code, **params)``. The code lets tests, views and the API tell refusals apart; the
message says what is wrong and where, in the user's language."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.core.exceptions import ValidationError


def refusals(messages: Mapping[str, str]) -> Callable[..., ValidationError]:
    """The ``refusal(code, **params)`` of a catalogue: a ``ValidationError`` with the code's message."""

    def refusal(code: str, **params) -> ValidationError:
        return ValidationError(messages[code], code=code, params=params or None)

    return refusal

"""The rules options among an environment's keyword arguments, checked by name."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from ..core import Rules

RULES_OPTIONS = tuple(field.name for field in fields(Rules))


def rules_of(options: dict[str, Any], settings: Iterable[str]) -> Rules:
    """The rules an environment was given: an unknown keyword is refused with a message naming it,
    the environment's own ``settings`` and every rules option (rather than ``Rules``' bare
    ``TypeError``)."""
    unknown = sorted(set(options) - set(RULES_OPTIONS))
    if unknown:
        names = ", ".join(repr(name) for name in unknown)
        own = ", ".join(settings)
        takes = f"{own} and the rules options" if own else "the rules options"
        raise TypeError(f"unknown option {names}: this environment takes {takes} {', '.join(RULES_OPTIONS)}")
    return Rules(**options)

"""What the server refuses, each named by its reason alone: its words in every language are the
catalogue's (`pasur.i18n.REFUSALS`), filled in with what the refusal names."""

from __future__ import annotations

from typing import Any

from ..core import Refusal
from ..i18n import refusal_words


class TableError(Refusal):
    """A request the server refuses for ``reason``, with the ``details`` its words name."""

    def __init__(self, reason: str, **details: Any) -> None:
        super().__init__(refusal_words(reason, "en", details), reason, **details)


class PassedOn(TableError):
    """The core's refusal (an illegal move) passed on, in the core's own words."""

    def __init__(self, refusal: Refusal) -> None:
        Refusal.__init__(self, str(refusal), refusal.reason, **refusal.details)


class NoSuchTable(TableError):
    """A table id this server does not know."""


class NoSuchPuzzle(TableError):
    """A puzzle this server does not have."""


class TooManyRequests(TableError):
    """Requests coming faster than this server takes them."""


class VersionTaken(TableError):
    """Another server process stored a move of that version first: this one was not applied."""


class ChangedElsewhere(TableError):
    """Another server process changed the table itself first: this change was not made."""


class StorageUnavailable(TableError):
    """The database did not answer: nothing was changed, and the request may be tried again."""


class NotSignedIn(TableError):
    """A request that needs an account, from a browser not signed in to one."""


class Forbidden(TableError):
    """A request its session may not make as it came: without the session's CSRF token."""


def status_of(error: TableError) -> int:
    """The HTTP status of a refusal."""
    if isinstance(error, NoSuchTable | NoSuchPuzzle):
        return 404
    if isinstance(error, TooManyRequests):
        return 429
    if isinstance(error, NotSignedIn):
        return 401
    if isinstance(error, Forbidden):
        return 403
    return 503 if isinstance(error, StorageUnavailable) else 400

"""What the server refuses, each with a reason the page can say in every language."""

from __future__ import annotations

from ..core import Refusal


class TableError(Refusal):
    """A request the server refuses, with a message for the person."""


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

"""What a password must be: long enough, not absurdly long (hashing is bounded work), not one of
the commonest passwords, and not the account's name."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from .errors import TableError

#: The fewest characters a password has (NIST SP 800-63B asks at least 8; we ask 10).
SHORTEST = 10
#: The most characters: a longer one is refused before it is hashed.
LONGEST = 256

#: Among the commonest passwords in public breach lists (common-passwords.txt, beside this file); a
#: password that is one of these, ignoring case (or one of them with digits added), is refused.
COMMONEST = frozenset(
    line.strip().casefold()
    for line in (Path(__file__).parent / "common-passwords.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
)


def check_password(password: str, name: str) -> None:
    """TableError unless ``password`` is acceptable for the account ``name``: at least
    `SHORTEST` and at most `LONGEST` characters, not a common one, not the name."""
    if len(password) < SHORTEST:
        raise TableError("password_short", limit=SHORTEST)
    if len(password) > LONGEST:
        raise TableError("password_long", limit=LONGEST)
    folded = unicodedata.normalize("NFKC", password).casefold()
    if folded.rstrip("0123456789!.") in COMMONEST or folded in COMMONEST:
        raise TableError("password_common")
    plain_name = "".join(unicodedata.normalize("NFKC", name).casefold().split())
    if plain_name and plain_name in "".join(folded.split()):
        raise TableError("password_has_name")

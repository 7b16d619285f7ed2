"""Names: what a person may be called at a table (visible characters of any script, nothing
hidden), and account names, unique ignoring case, blanks and look-alike characters (ours, and
Unicode's confusables of UTS #39), and never passing for a bot: no bot's name, no level's name,
nothing that says "bot". Two names are the same account name when their skeletons are equal."""

from __future__ import annotations

import functools
import unicodedata

from confusables import CONFUSABLE_MAP, is_confusable
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..i18n import BOT_PERSONAS, PERSIAN_LEVELS
from .errors import TableError
from .rows import AccountRow

#: The longest name, in characters a person sees, and in code points with its marks and joiners
#: (what the database keeps, on SQLite and PostgreSQL alike).
NAME_LENGTH = 32
NAME_CODE_POINTS = 64
#: Format characters a name or a line may hold: the zero-width non-joiner (Persian writes with it)
#: and joiner (emoji sequences).
_JOINERS = frozenset("\u200c\u200d")
#: Characters that show nothing though they are not spaces (Hangul fillers, the blank braille cell).
_BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: The most combining marks one character may carry.
MARKS_IN_A_ROW = 3


def has_controls(text: str) -> bool:
    """Whether ``text`` holds what is never shown to others: control characters, format characters
    (text-direction marks and embeddings, zero-width spaces, tags; not the joiners), line and
    paragraph separators, private-use and unassigned code points, or a character under more than
    `MARKS_IN_A_ROW` combining marks."""
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if category in ("Cc", "Zl", "Zp", "Co", "Cn", "Cs") or (category == "Cf" and char not in _JOINERS):
            return True
        marks = marks + 1 if category in ("Mn", "Me") else 0
        if marks > MARKS_IN_A_ROW:
            return True
    return False


def shows(char: str) -> bool:
    """Whether a character shows as something (not a space, a joiner, a mark or a blank)."""
    return char not in _BLANKS and unicodedata.category(char) not in ("Cf", "Zs", "Zl", "Zp", "Mn", "Me")


def person_name(raw: str) -> str:
    """A person's name as the tables keep it: trimmed, 1 to `NAME_LENGTH` visible
    characters of any script with ordinary punctuation. TableError refuses what is never shown
    (`has_controls()`: ``name_control``), a name nothing of which shows (``name_empty``)
    and a longer one (``name_too_long``)."""
    name = unicodedata.normalize("NFC", raw).strip()
    if has_controls(name):
        raise TableError("name_control")
    visible = [char for char in name if shows(char)]
    if not visible:
        raise TableError("name_empty")
    if len(visible) > NAME_LENGTH or len(name) > NAME_CODE_POINTS:
        limit = NAME_LENGTH
        raise TableError("name_too_long", limit=limit)
    return name


#: Characters that look like another, each mapped to the one it passes for: Cyrillic and Greek
#: letters that look Latin, digits and signs that look like letters, and the Arabic forms of
#: Persian letters. After case folding (so only lower case is needed).
LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "з": "3",
        "і": "l",
        "ї": "l",
        "ј": "j",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "ь": "b",
        "п": "n",
        "г": "r",
        # Greek
        "α": "a",
        "β": "b",
        "ε": "e",
        "η": "n",
        "ι": "l",
        "κ": "k",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ω": "w",
        "μ": "u",
        # digits and signs that pass for letters, and letters that pass for each other
        "0": "o",
        "1": "l",
        "i": "l",
        "|": "l",
        "!": "l",
        "5": "s",
        "$": "s",
        "@": "a",
        "8": "b",
        # Arabic forms of Persian letters, and the Arabic-Indic digits
        "ي": "ی",
        "ى": "ی",
        "ئ": "ی",
        "ك": "ک",
        "ة": "ه",
        "ە": "ه",
        "ۀ": "ه",
        "أ": "ا",
        "إ": "ا",
        "آ": "ا",
        "ٱ": "ا",
    }
)
#: Capital letters that look like a Latin capital, mapped before case folding (a Greek capital Eta
#: looks like H, its small letter like n).
CAPITAL_LOOK_ALIKES = str.maketrans(
    dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧАВЕКМНОРСТХЅІЈ", "ABEZHIKMNOPTYXABEKMHOPCTXSIJ", strict=True))
)
#: What a skeleton leaves out: spaces, joiners, marks, the tatweel and punctuation between words.
IGNORED = frozenset(" _-.'·ـ")


def _arabic(char: str) -> bool:
    """Whether ``char`` is of the Arabic script's blocks (Persian's look-alikes are `LOOK_ALIKES`')."""
    return "\u0600" <= char <= "\u06ff" or "\ufb50" <= char <= "\ufdff" or "\ufe70" <= char <= "\ufeff"


@functools.lru_cache(maxsize=4096)
def latin_twin(char: str) -> str:
    """The ASCII letter or digit that Unicode's confusables (UTS #39) say ``char`` passes for, in
    lower case (``char`` itself when none, or when it is ASCII or Arabic): "ɑ" → "a", "օ" → "o"."""
    if char.isascii() or _arabic(char) or not char.isalnum():
        return char
    twins = sorted(str(other).lower() for other in CONFUSABLE_MAP.get(char, ()) if other.isascii() and other.isalnum())
    letters = [twin for twin in twins if twin.isalpha() and len(twin) == 1]
    return str((letters or [twin for twin in twins if len(twin) == 1] or [char])[0])


def skeleton(name: str) -> str:
    """What a name looks like: compatibility-normalised, case-folded, look-alikes mapped to one
    character (ours, then UTS #39's), digits in every script as ASCII, "rn" as "m", and spaces,
    blanks (Hangul fillers, the braille blank), joiners, marks and punctuation between words left
    out. Names with equal skeletons are one account name."""
    capitals = unicodedata.normalize("NFKC", name).translate(CAPITAL_LOOK_ALIKES)
    folded = unicodedata.normalize("NFKD", capitals.casefold())
    kept = []
    for char in folded:
        if char in IGNORED or not shows(char):
            continue
        digit = unicodedata.digit(char, None)
        kept.append(str(digit) if digit is not None else char)
    mapped = "".join(kept).translate(LOOK_ALIKES)
    return "".join(latin_twin(char) for char in mapped).replace("rn", "m").replace("vv", "w")


#: The skeletons of the bots' names in every language: no account may pass for a bot.
BOT_NAMES = frozenset(skeleton(persona) for personas in BOT_PERSONAS.values() for persona in personas)
#: The skeletons of the levels' names in every language, and of the words for a bot.
LEVEL_NAMES = frozenset(skeleton(name) for pair in PERSIAN_LEVELS.items() for name in pair)
BOT_WORDS = (skeleton("bot"), skeleton("ربات"))
#: What marks a bot wherever it stands in a name.
ROBOT = "🤖"


def passes_for_a_bot(name: str) -> bool:
    """Whether ``name`` reads as a bot's: a bot's name ("5hirin 2", "Shirin (master)"), a level's
    ("grandmaster", "Shirin: hard"), or one that starts or ends with "bot" or "ربات" or holds 🤖
    ("bot: grandmaster", "ShirinBot")."""
    key = skeleton(name)
    plain = key.rstrip("0123456789")
    if plain in BOT_NAMES or plain in LEVEL_NAMES or ROBOT in key:
        return True
    if any(key.startswith(bot + "(") for bot in BOT_NAMES):
        return True
    if any(plain.startswith(word) or plain.endswith(word) for word in BOT_WORDS):
        return True
    return any(plain.endswith(tail + level) for level in LEVEL_NAMES for tail in (":", "(", "-"))


def account_name(raw: str) -> str:
    """A name an account may take: a table's name (`person_name()`) that
    does not pass for a bot's (`passes_for_a_bot()`: ``name_reserved``)."""
    name = person_name(raw)
    if passes_for_a_bot(name):
        raise TableError("name_reserved")
    return name


def seat_name(raw: str, others: list[str]) -> str:
    """The name a person sits down under: a table's name (`person_name()`)
    that is not shown as a bot is ("Shirin (medium)", ``name_reserved``; a plain "Shirin" is a
    person's name too, and the bot then takes another) nor a look-alike of ``others``, the names
    of the people at the table (``name_taken_here``): by our skeleton, or by Unicode's table of
    confusable characters (UTS #39, through the ``confusables`` library: a Cherokee Ꭺ for an A)."""
    name = person_name(raw)
    key = skeleton(name)
    if any(key.startswith(bot + "(") for bot in BOT_NAMES):
        raise TableError("name_reserved")
    if key in {skeleton(other) for other in others} or any(is_confusable(name, other) for other in others):
        raise TableError("name_taken_here")
    return name


def account_named(session: Session, name: str) -> AccountRow | None:
    """The account a typed name means: the one of exactly that name, else the one whose skeleton
    it shares. (A look-alike made before the skeleton saw through it keeps its exact name; the
    name's skeleton is the older account's.)"""
    name = name[:200]
    exact = session.scalars(select(AccountRow).where(AccountRow.name == name)).first()
    return exact or session.scalars(select(AccountRow).where(AccountRow.name_key == skeleton(name))).first()

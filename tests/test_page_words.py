"""The page's words (static/js/words.js) against the Python catalogue (pasur.i18n): each language
complete, no key said twice, the same placeholders in English and Persian, and a key the two
catalogues share means the same words in both, placeholders and all (so a word is changed in one
place: "Round {number}" cannot drift from "Round {n}")."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from pasur.i18n import CATALOG, LANGUAGES

WORDS = Path(__file__).parent.parent / "src" / "pasur" / "server" / "static" / "js" / "words.js"
ENTRY = re.compile(r'(?<![\w.$])(\w+): "((?:[^"\\]|\\.)*)"')
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def language_blocks(source: str) -> dict[str, list[tuple[str, str]]]:
    """Each language's entries of ``I18N`` in words.js, in order (a key said twice is there twice)."""
    catalogue = source[source.index("export const I18N = {") :]
    blocks = {}
    for lang in LANGUAGES:
        start = catalogue.index(f"\n  {lang}: {{") + len(f"\n  {lang}: {{")
        end = catalogue.index("\n  },", start)
        blocks[lang] = [(key, json.loads(f'"{value}"')) for key, value in ENTRY.findall(catalogue[start:end])]
    return blocks


def placeholders(words: str) -> set[str]:
    return set(PLACEHOLDER.findall(words))


def test_the_pages_words_are_complete_in_each_language_and_each_key_is_said_once():
    blocks = language_blocks(WORDS.read_text(encoding="utf-8"))
    assert len(blocks["en"]) > 200  # the catalogue was read
    for lang, entries in blocks.items():
        twice = [key for key, count in Counter(key for key, _ in entries).items() if count > 1]
        assert twice == [], f"{lang}: said twice: {twice}"
    english, persian = (dict(blocks[lang]) for lang in ("en", "fa"))
    # a singular of its own ("1 card") is English's alone: Persian says the plural's words
    assert set(persian) == {key for key in english if not key.endswith("_one")}
    assert all(key[: -len("_one")] in english for key in english if key.endswith("_one"))
    for key, words in persian.items():
        assert placeholders(words) == placeholders(english[key]), key


def test_a_key_both_catalogues_hold_says_the_same_words_in_both():
    blocks = {lang: dict(entries) for lang, entries in language_blocks(WORDS.read_text(encoding="utf-8")).items()}
    shared = set(blocks["en"]) & set(CATALOG)
    assert {"round", "round_over", "surs", "pack", "deal"} <= shared
    for key in shared:
        assert (blocks["en"][key], blocks["fa"][key]) == CATALOG[key], key


def test_a_key_said_twice_is_found():
    source = 'export const I18N = {\n  en: {\n    a: "x", b: "y", a: "z",\n  },\n  fa: {\n    a: "x",\n  },\n};'
    entries = language_blocks(source)["en"]
    assert [key for key, count in Counter(key for key, _ in entries).items() if count > 1] == ["a"]


def test_the_persian_words_hold_no_middle_dot():
    """Beside Persian digits a middle dot reads as the digit zero (۰): Persian sets parts apart with
    a bar, in the page's words and in the catalogue alike."""
    page = language_blocks(WORDS.read_text(encoding="utf-8"))["fa"]
    assert [key for key, words in page if "·" in words] == []
    assert [key for key, (_, persian) in CATALOG.items() if "·" in persian] == []

"""The site's pages and what every page reads: the page itself (the lobby, a table, a player's
page, the leaderboard or the puzzles: it reads which from its address), its service worker and
manifest, the rules in brief, the bot levels, players' pages and the leaderboard."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi import Path as PathParameter
from fastapi.responses import FileResponse

from ..i18n import LANGUAGES, RULES_EXAMPLES, RULES_SUMMARY, text
from .bots import BOT_RATINGS, BOT_RATINGS_AT
from .offline import offline_about
from .players import leaderboard, player_record
from .store import Store

STATIC = Path(__file__).parent / "static"
#: What offline play reads, made once.
ABOUT_OFFLINE = offline_about()


def site_routes(store: Store, levels: list[str]) -> APIRouter:
    """The routes, over the results in ``store``, offering the bot ``levels``."""
    router = APIRouter()

    @router.get("/", include_in_schema=False)
    @router.get("/t/{table_id}", include_in_schema=False)
    @router.get("/p/{name}", include_in_schema=False)
    @router.get("/leaders", include_in_schema=False)
    @router.get("/puzzles", include_in_schema=False)
    @router.get("/offline", include_in_schema=False)
    async def page(table_id: str | None = None, name: str | None = None) -> FileResponse:
        """The page: the lobby, a table, a player's page, the leaderboard, the puzzles or the table
        on this device (it reads which from its address)."""
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @router.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        """The page's service worker, from the root so that it serves every page of the site."""
        return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @router.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> FileResponse:
        """What installing the page on a phone or a desktop needs: its name, colours and icons."""
        return FileResponse(STATIC / "manifest.webmanifest", media_type="application/manifest+json")

    @router.get("/api/help")
    async def rules_help() -> dict[str, Any]:
        """The rules in brief, in every language of the page, with pictures of captures (``examples``:
        the card played, the table, what it takes, the caption in each language)."""
        examples = [
            {"card": card, "table": table, "take": take, "caption": {lang: text(key, lang) for lang in LANGUAGES}}
            for card, table, take, key in RULES_EXAMPLES
        ]
        return {
            "examples": examples,
            **{lang: {"title": title, "lines": lines} for lang, (title, lines) in RULES_SUMMARY.items()},
        }

    @router.get("/api/offline")
    async def offline() -> dict[str, Any]:
        """What playing on the device with no server reads besides the engine (engine.wasm): the
        levels offered and their bots, the bots' names, the refusals' words, the rules' defaults,
        and the version the service worker checks."""
        return ABOUT_OFFLINE

    @router.get("/api/levels")
    async def bot_levels() -> dict[str, Any]:
        """The bot levels a table may seat, weakest first, each with its rating at two players and
        at each kind of rated table (on the people's scale; none for a level the operator added, which
        was never measured)."""
        return {
            "levels": [
                {
                    "level": level,
                    "rating": BOT_RATINGS.get(level),
                    "ratings": {kind: measured[level] for kind, measured in BOT_RATINGS_AT.items()}
                    if level in BOT_RATINGS
                    else None,
                }
                for level in levels
            ]
        }

    @router.get("/api/players/{name}")
    def player(name: Annotated[str, PathParameter(max_length=200)]) -> dict[str, Any]:
        """A player's page: ratings, figures, the rating's course and their matches (read in a thread)."""
        return player_record(store, name)

    @router.get("/api/leaderboard")
    def leaders(
        period: Annotated[str, Query(max_length=8)] = "all", table: Annotated[str, Query(max_length=8)] = "2"
    ) -> dict[str, Any]:
        """The leaderboard of rated matches: all time or this week, at a kind of table ("2", "3",
        "4" in partnership, "4-each") (read in a thread)."""
        return leaderboard(store, period, table)

    return router

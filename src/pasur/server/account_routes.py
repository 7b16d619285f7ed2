"""The accounts' HTTP API: signing up, in and out, the account signed in, its password, its data,
the matches played on a device it adds, and its deletion; and friends: inviting a player to a
table, one's invitations, blocking. Each handler that only reads and writes the database is a
plain function, so FastAPI runs it in a thread: hashing a password (Argon2id, some tens of
milliseconds) never holds up the tables' event loop; those that touch the tables held in memory
run on the loop."""

from __future__ import annotations

import functools
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from . import device_games, friends
from .accounts import COOKIE, CSRF_HEADER, Accounts, SignedIn
from .errors import NotSignedIn, TableError, TooManyRequests
from .lobby import Lobby
from .messages import ChangePassword, ClaimMatches, Credentials, DeleteAccount, DeviceGame, NamedPlayer
from .players import player_record
from .results import claim_guest_matches
from .seats import TableStatus
from .visitors import RateLimit, visitor

#: Matches a page of the account's data download lists.
DATA_PAGE = 1000
#: Matches played on a device one visitor may add in a minute (each is replayed here).
DEVICE_GAMES_A_MINUTE = 20


def _welcome(request: Request, response: Response, signed: SignedIn, accounts: Accounts) -> dict[str, Any]:
    """Set the session's cookie (HttpOnly, SameSite=Lax, Secure behind TLS); the account and the
    CSRF token its page repeats."""
    response.set_cookie(
        COOKIE,
        signed.token,
        max_age=accounts.settings.session_days * 86400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return {"name": signed.account.name, "created": signed.account.created, "csrf": signed.csrf}


def _farewell(response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")


def _signed_in(accounts: Accounts, request: Request, changes: bool = True) -> SignedIn:
    """The session the request's cookie names; a request that ``changes`` something must also
    repeat its CSRF token in the ``X-CSRF-Token`` header (a page elsewhere cannot)."""
    token = request.cookies.get(COOKIE)
    signed = accounts.changing_as(token, request.headers.get(CSRF_HEADER)) if changes else accounts.signed_in(token)
    if signed is None:
        raise NotSignedIn("not_signed_in")
    return signed


def _account_data(accounts: Accounts, signed: SignedIn, page: int) -> dict[str, Any]:
    """Page ``page`` of everything kept about the signed-in account."""
    record = player_record(accounts.store, signed.account.name, DATA_PAGE + 1, page * DATA_PAGE)
    more = len(record["history"]) > DATA_PAGE
    record["history"] = record["history"][:DATA_PAGE]
    return {
        **accounts.data(signed),
        "record": record,
        "page": page,
        "next_page": page + 1 if more else None,
        "blocked": friends.blocked_names(accounts.store, signed.account.id),
    }


def account_routes(accounts: Accounts, lobby: Lobby) -> APIRouter:
    """The routes, over ``accounts`` and the tables of ``lobby``: the account's own, and friends'
    (`friend_routes()`)."""
    router = APIRouter()
    router.include_router(friend_routes(accounts, lobby))
    router.include_router(device_game_routes(accounts))
    signed_in = functools.partial(_signed_in, accounts)

    @router.post("/api/account", status_code=201)
    def sign_up(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
        """A new account, and this browser signed in to it."""
        signed = accounts.sign_up(body.name, body.password, visitor(request, accounts.settings))
        return _welcome(request, response, signed, accounts)

    @router.post("/api/session")
    def log_in(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
        """Sign in: a new session (a new cookie, whatever the browser brought)."""
        signed = accounts.log_in(body.name, body.password, visitor(request, accounts.settings))
        return _welcome(request, response, signed, accounts)

    @router.delete("/api/session")
    def log_out(request: Request, response: Response) -> dict[str, Any]:
        ended = accounts.log_out(signed_in(request))
        _farewell(response)
        return {"ended": ended}

    @router.delete("/api/sessions")
    def log_out_everywhere(request: Request, response: Response) -> dict[str, Any]:
        """End every session of the account, in every browser."""
        ended = accounts.log_out(signed_in(request), everywhere=True)
        _farewell(response)
        return {"ended": ended}

    @router.get("/api/me")
    def me(request: Request) -> dict[str, Any]:
        """The account this browser is signed in to, and the CSRF token its page repeats."""
        signed = signed_in(request, changes=False)
        return {"name": signed.account.name, "created": signed.account.created, "csrf": signed.csrf}

    @router.post("/api/account/password")
    def change_password(request: Request, response: Response, body: ChangePassword) -> dict[str, Any]:
        signed = accounts.change_password(signed_in(request), body.old, body.new)
        return _welcome(request, response, signed, accounts)

    @router.post("/api/account/matches")
    def claim_matches(request: Request, body: ClaimMatches) -> dict[str, Any]:
        """Keep the matches this browser played as a guest (its seat tokens) under the account."""
        signed = signed_in(request)
        return {"claimed": claim_guest_matches(accounts.store, signed.account.id, signed.account.name, body.tokens)}

    @router.delete("/api/account")
    async def delete_account(request: Request, response: Response, body: DeleteAccount) -> dict[str, Any]:
        """Delete the account signed in; its games stay, without its name attached (the copies
        of its finished tables held here are let go, to be read back anonymised). A rated match
        it plays is resigned first: leaving never voids a match nor spares a rating."""
        signed = await run_in_threadpool(signed_in, request)
        await run_in_threadpool(accounts.check_own_password, signed, body.password)
        await lobby.forfeit(signed.account.id)
        tables = await run_in_threadpool(accounts.delete, signed)
        for table_id in tables:
            room = lobby.rooms.get(table_id)
            if room is not None and room.status is TableStatus.FINISHED:
                del lobby.rooms[table_id]
        _farewell(response)
        return {"deleted": True}

    @router.get("/api/account/data")
    def account_data(request: Request, page: Annotated[int, Query(ge=0, le=1_000_000)] = 0) -> JSONResponse:
        """Everything kept about the account, as a JSON file to download: the account, its
        ratings, figures and every match (`DATA_PAGE` a page: ``next_page`` says where the
        rest are), and whom it blocked."""
        data = _account_data(accounts, signed_in(request, changes=False), page)
        headers = {"Content-Disposition": 'attachment; filename="pasur-account.json"'}
        return JSONResponse(data, headers=headers)

    return router


def device_game_routes(accounts: Accounts) -> APIRouter:
    """Adding a match played on a device with no server to the account signed in."""
    router = APIRouter()
    signed_in = functools.partial(_signed_in, accounts)
    device_adds = RateLimit(DEVICE_GAMES_A_MINUTE, 60.0)

    @router.post("/api/account/device-games", status_code=201)
    def add_device_game(request: Request, body: DeviceGame) -> dict[str, Any]:
        """Add a match played on a device with no server to the account's history (unrated): its
        table, whose record, replay and review then work as any finished table's."""
        if not device_adds.allow(visitor(request, accounts.settings)):
            raise TooManyRequests("too_many_device_adds")
        signed = signed_in(request)
        device = device_games.device_match(body, signed.account.id, signed.account.name)
        device_games.add_device_game(accounts.store, signed.account.id, device)
        return {"table": device.table_id}

    return router


def friend_routes(accounts: Accounts, lobby: Lobby) -> APIRouter:
    """Inviting a player to a table, one's invitations, blocking."""
    router = APIRouter()
    signed_in = functools.partial(_signed_in, accounts)

    @router.post("/api/tables/{table_id}/invite")
    async def invite(request: Request, table_id: str, body: NamedPlayer) -> dict[str, Any]:
        """A signed-in player seated at an open table invites another account to it."""
        signed = await run_in_threadpool(signed_in, request)  # the session is read from the store
        room = lobby.get(table_id)
        if room.status is not TableStatus.OPEN:
            raise TableError("already_started")
        if not any(seat.account == signed.account.id for seat in room.seats):
            raise TableError("not_seated")
        name = await run_in_threadpool(friends.invite, accounts.store, table_id, signed.account.id, body.name)
        return {"invited": name}

    @router.get("/api/invitations")
    def invitations(request: Request) -> dict[str, Any]:
        """The invitations to the account signed in, to tables still waiting for people."""
        signed = signed_in(request, changes=False)
        return {"invitations": friends.invitations(accounts.store, signed.account.id)}

    @router.delete("/api/invitations/{invitation_id}")
    def decline(request: Request, invitation_id: int) -> dict[str, Any]:
        friends.decline(accounts.store, signed_in(request).account.id, invitation_id)
        return {"declined": True}

    @router.get("/api/blocks")
    def blocked(request: Request) -> dict[str, Any]:
        return {"blocked": friends.blocked_names(accounts.store, signed_in(request, changes=False).account.id)}

    @router.post("/api/blocks")
    def block(request: Request, body: NamedPlayer) -> dict[str, Any]:
        """Block a player: they can no longer invite you, and neither reads the other's chat."""
        return {"blocked": friends.block(accounts.store, signed_in(request).account.id, body.name)}

    @router.delete("/api/blocks/{name}")
    def unblock(request: Request, name: Annotated[str, Path(max_length=200)]) -> dict[str, Any]:
        friends.unblock(accounts.store, signed_in(request).account.id, name)
        return {"unblocked": True}

    return router

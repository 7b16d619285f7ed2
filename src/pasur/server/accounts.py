"""Accounts, optional: a lasting name (`names`) and a password hashed with Argon2id, and the
browsers signed in to one. A session is a random token in an HttpOnly cookie; the database keeps
only its SHA-256, with a second token (CSRF) that every state-changing request the cookie
authorises must repeat in a header. Log-ins (successes too) and failed log-ins are throttled per
account and per address, and sign-ups per address, in the database (so every process on one
PostgreSQL counts together); passwords are hashed a few at a time (`Hashing`), so memory
stays bounded whatever arrives; an account holds a bounded number of sessions. An unknown name
and a wrong password are refused alike, after the same work."""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .errors import Forbidden, TableError, TooManyRequests
from .friends import forget
from .names import account_name, account_named, skeleton
from .passwords import LONGEST, check_password
from .results import DELETED as ANONYMOUS
from .rows import AccountRow, PuzzleRatingRow, RatingRow, ResultSeatRow, SessionRow, TableRow, ThrottleRow
from .settings import ServerSettings
from .store import Store, storage

#: The name of the session cookie.
COOKIE = "pasur_session"
#: The header that repeats the session's CSRF token.
CSRF_HEADER = "x-csrf-token"
#: Seconds in the window that failed log-ins are counted over.
LOG_IN_WINDOW = 15 * 60
#: Seconds in the window that sign-ups from one address are counted over.
SIGN_UP_WINDOW = 24 * 3600

#: One statement that counts an event under a key (a new window when the last one has passed)
#: and says the count: atomic on PostgreSQL and SQLite alike.
_COUNT = text(
    "INSERT INTO throttles (key, started, count) VALUES (:key, :now, 1) "
    "ON CONFLICT (key) DO UPDATE SET "
    "count = CASE WHEN throttles.started < :since THEN 1 ELSE throttles.count + 1 END, "
    "started = CASE WHEN throttles.started < :since THEN :now ELSE throttles.started END "
    "RETURNING count"
)
#: One statement that takes back one event counted under a key.
_UNCOUNT = text("UPDATE throttles SET count = count - 1 WHERE key = :key AND count > 0")


@dataclass(frozen=True, slots=True)
class Account:
    """An account as the app sees it: never its password."""

    id: int
    name: str
    created: str


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A browser signed in: its account, its session's token (for the cookie; shown once) and
    the CSRF token its requests repeat."""

    account: Account
    token: str
    csrf: str


class Hashing:
    """Password hashing bounded in concurrency: at most ``at_once`` Argon2id hashes run together
    (each takes 64 MiB), with at most ``waiting`` more waiting for a turn; one more is refused
    as busy (``busy_signing_in``), so the memory and the threads hashing takes stay bounded."""

    def __init__(self, at_once: int, waiting: int) -> None:
        self._turns = threading.BoundedSemaphore(at_once)
        self._lock = threading.Lock()
        self._inside = 0  # hashing or waiting to
        self.most = at_once + waiting
        #: The most hashes that ran together (for tests and benchmarks).
        self.peak = 0
        self._running = 0

    @contextmanager
    def turn(self) -> Iterator[None]:
        with self._lock:
            if self._inside >= self.most:
                raise TooManyRequests("busy_signing_in")
            self._inside += 1
        try:
            with self._turns:
                with self._lock:
                    self._running += 1
                    self.peak = max(self.peak, self._running)
                try:
                    yield
                finally:
                    with self._lock:
                        self._running -= 1
        finally:
            with self._lock:
                self._inside -= 1


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _now() -> int:
    return int(time.time())


@functools.cache
def _decoy_hash() -> str:
    """A hash checked when a name is unknown, so that refusing it takes as long as a wrong
    password: one a process (the server's accounts, and every test's, share it)."""
    return PasswordHasher().hash(secrets.token_urlsafe(16))


class Accounts:
    """Signing up, in and out; the account behind a cookie; changing and deleting an account."""

    def __init__(self, store: Store, settings: ServerSettings) -> None:
        self.store = store
        self.settings = settings
        self.hasher = PasswordHasher()  # Argon2id, the library's recommended costs
        self.hashing = Hashing(settings.hashes_at_once, settings.hashes_waiting)
        self._decoy = _decoy_hash()

    # -- throttles --------------------------------------------------------------------------------

    @storage
    def _count(self, key: str, window: int) -> int:
        """Count one event under ``key`` in a window of ``window`` seconds; the count so far."""
        now = _now()
        with self.store.engine.begin() as connection:
            return int(connection.execute(_COUNT, {"key": key, "now": now, "since": now - window}).scalar_one())

    @storage
    def _uncount(self, key: str) -> None:
        """Take back one event counted under ``key``."""
        with self.store.engine.begin() as connection:
            connection.execute(_UNCOUNT, {"key": key})

    @storage
    def _forget(self, key: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(delete(ThrottleRow).where(ThrottleRow.key == key))

    # -- signing up and in ------------------------------------------------------------------------

    def sign_up(self, raw_name: str, password: str, address: str) -> SignedIn:
        """A new account, signed in. Refused: a bad or taken name (``name_taken``: taken ignoring
        case and look-alikes), a weak password, or too many sign-ups from ``address``."""
        name = account_name(raw_name)
        check_password(password, name)
        limit = self.settings.sign_ups_per_day
        if self._count(f"sign-up {address}", SIGN_UP_WINDOW) > limit:
            raise TooManyRequests("too_many_sign_ups", limit=limit)
        account = self._create(name, self._hash(password))
        return self._open_session(account)

    @storage
    def _create(self, name: str, hashed: str) -> Account:
        created = datetime.now(UTC).isoformat(timespec="seconds")
        try:
            with Session(self.store.engine) as session, session.begin():
                row = AccountRow(name=name, name_key=skeleton(name), password=hashed, created=created)
                session.add(row)
                session.flush()
                return Account(row.id, name, created)
        except IntegrityError:
            raise TableError("name_taken") from None

    def log_in(self, raw_name: str, password: str, address: str) -> SignedIn:
        """A new session for the account, with a new token (never one the browser brought).
        Refused alike whether the name is unknown or the password wrong (``bad_log_in``), and
        without looking once the account or the address has tried, or failed, too often. Each
        count is taken before its check, so log-ins arriving together cannot pass a limit."""
        key = skeleton(raw_name[:200])
        limits = self.settings
        tries = {f"log-in try {key}": limits.log_ins_per_account, f"log-in try {address}": limits.log_ins_per_address}
        failures = {f"log-in {key}": limits.log_in_failures, f"log-in {address}": limits.log_in_failures_per_address}
        for throttle, limit in tries.items():
            if self._count(throttle, LOG_IN_WINDOW) > limit:
                raise TooManyRequests("too_many_log_ins")
        # a failure is counted before the password is looked at, and taken back when it matches
        for throttle, limit in failures.items():
            if self._count(throttle, LOG_IN_WINDOW) > limit:
                raise TooManyRequests("too_many_log_ins")
        row = self._account_named(raw_name)
        if not self._verify(row.password if row else self._decoy, password) or row is None:
            raise TableError("bad_log_in")
        self._forget(f"log-in {key}")
        self._uncount(f"log-in {address}")
        account = Account(row.id, row.name, row.created)
        if self.hasher.check_needs_rehash(row.password):
            self._set_password(account.id, self._hash(password))
        return self._open_session(account)

    def _hash(self, password: str) -> str:
        with self.hashing.turn():
            return self.hasher.hash(password)

    def _verify(self, hashed: str, password: str) -> bool:
        if len(password) > LONGEST:
            return False
        try:
            with self.hashing.turn():
                return self.hasher.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False

    @storage
    def _account_named(self, name: str) -> AccountRow | None:
        with Session(self.store.engine, expire_on_commit=False) as session:
            return account_named(session, name)

    @storage
    def _open_session(self, account: Account) -> SignedIn:
        """A new session of ``account``; past `sessions_per_account` the
        oldest end (and every session past its time)."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        mine = SessionRow.account_id == account.id
        with Session(self.store.engine) as session, session.begin():
            session.add(
                SessionRow(
                    id=_digest(token),
                    account_id=account.id,
                    csrf=csrf,
                    created=datetime.now(UTC).isoformat(timespec="seconds"),
                    expires=_now() + self.settings.session_days * 86400,
                )
            )
            session.flush()
            newest = select(SessionRow.id).where(mine).order_by(SessionRow.expires.desc(), SessionRow.id)
            kept = set(session.scalars(newest.limit(self.settings.sessions_per_account)))
            session.execute(delete(SessionRow).where(mine, SessionRow.id.not_in(kept) | (SessionRow.expires < _now())))
        return SignedIn(account, token, csrf)

    # -- the account behind a cookie --------------------------------------------------------------

    @storage
    def signed_in(self, token: str | None) -> SignedIn | None:
        """The account and CSRF token of a session's cookie, or None (none, unknown or ended)."""
        if not token or len(token) > 100:
            return None
        with Session(self.store.engine) as session:
            found = session.execute(
                select(SessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.id == _digest(token))
            ).first()
            if found is None or found[0].expires < _now():
                return None
            row, account = found
            return SignedIn(Account(account.id, account.name, account.created), token, row.csrf)

    @staticmethod
    def csrf_ok(signed: SignedIn, presented: str | None) -> bool:
        """Whether a request repeated its session's CSRF token (compared in constant time)."""
        return presented is not None and hmac.compare_digest(signed.csrf.encode(), presented.encode())

    def changing_as(self, token: str | None, presented: str | None) -> SignedIn | None:
        """The session of a request that changes something (None without one); Forbidden
        (``bad_csrf``) when it does not repeat the session's CSRF token (a page elsewhere cannot)."""
        signed = self.signed_in(token)
        if signed is not None and not self.csrf_ok(signed, presented):
            raise Forbidden("bad_csrf")
        return signed

    @storage
    def log_out(self, signed: SignedIn, everywhere: bool = False) -> int:
        """End this session (``everywhere``: every session of the account); how many ended."""
        with self.store.engine.begin() as connection:
            which = SessionRow.account_id == signed.account.id if everywhere else SessionRow.id == _digest(signed.token)
            return int(connection.execute(delete(SessionRow).where(which)).rowcount)

    # -- changing and deleting --------------------------------------------------------------------

    def change_password(self, signed: SignedIn, old: str, new: str) -> SignedIn:
        """A new password (checked as at sign-up) for the one given now: every session ends, and
        this browser is given a new one."""
        self.check_own_password(signed, old)
        check_password(new, signed.account.name)
        self._set_password(signed.account.id, self._hash(new))
        self.log_out(signed, everywhere=True)
        return self._open_session(signed.account)

    def delete(self, signed: SignedIn) -> list[str]:
        """Delete the account (its password checked first: `check_own_password()`) and its
        sessions; its games stay, anonymised. The tables whose records changed."""
        return self._delete(signed.account.id)

    def check_own_password(self, signed: SignedIn, password: str) -> None:
        """TableError (``wrong_password``) unless ``password`` is the account's."""
        if not self._verify(self._password_of(signed.account.id), password):
            raise TableError("wrong_password")

    @storage
    def _password_of(self, account_id: int) -> str:
        """The account's password hash ("" once the account is gone: nothing verifies against it)."""
        with Session(self.store.engine) as session:
            row = session.get(AccountRow, account_id)
            return row.password if row is not None else ""

    @storage
    def _set_password(self, account_id: int, hashed: str) -> None:
        with Session(self.store.engine) as session, session.begin():
            row = session.get(AccountRow, account_id)
            if row is not None:
                row.password = hashed

    @storage
    def _delete(self, account_id: int) -> list[str]:
        """The account, its sessions, ratings (the puzzles' too), invitations and blocks go; its matches stay in
        others' histories and in the tables' own records, anonymised. The tables it sat at."""
        with Session(self.store.engine) as session, session.begin():
            tables = set(session.scalars(select(ResultSeatRow.table_id).where(ResultSeatRow.account_id == account_id)))
            session.execute(
                update(ResultSeatRow)
                .where(ResultSeatRow.account_id == account_id)
                .values(account_id=None, name=ANONYMOUS)
            )
            for table in session.scalars(select(TableRow).where(TableRow.id.in_(tables))):
                settings = json.loads(table.settings)
                for seat in settings.get("seats", []):
                    if seat.get("account") == account_id:
                        seat.update(account=None, name=ANONYMOUS)
                table.settings = json.dumps(settings)
            forget(session, account_id)
            session.execute(delete(RatingRow).where(RatingRow.account_id == account_id))
            session.execute(delete(PuzzleRatingRow).where(PuzzleRatingRow.account_id == account_id))
            session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            session.execute(delete(AccountRow).where(AccountRow.id == account_id))
        return sorted(tables)

    @storage
    def data(self, signed: SignedIn) -> dict[str, Any]:
        """Everything kept about the account, as JSON: its name, when it was made, its sessions
        (when each began and ends; never a token)."""
        with Session(self.store.engine) as session:
            sessions = session.scalars(
                select(SessionRow).where(SessionRow.account_id == signed.account.id).order_by(SessionRow.created)
            )
            began = [
                {"began": row.created, "ends": datetime.fromtimestamp(row.expires, UTC).isoformat()} for row in sessions
            ]
        return {"name": signed.account.name, "created": signed.account.created, "sessions": began}

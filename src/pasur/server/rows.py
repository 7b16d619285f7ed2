"""The database's rows, one class a table (SQLAlchemy's declarative models), as the newest schema
version holds them (`schema`; a test keeps the two the same): tables, their moves and chat;
accounts, their sessions, throttles; results, their seats and ratings; invitations and blocks;
kept judgements. The store (`store`) and the domains that read them (accounts, results,
players, friends) query these."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """A table's settings: rules, seats (names, bots, hashed seat tokens), seed, timer, status."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    settings: Mapped[str] = mapped_column(Text)  # JSON
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[str] = mapped_column(String(40))
    #: How many times the table itself (not its moves) was changed: a change names the revision
    #: it was made on, and is refused when another process changed the table first.
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class MoveRow(Base):
    """One move of a table, by version (1, 2, …), in pasur-record/1's move form."""

    __tablename__ = "moves"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[str] = mapped_column(String(64))  # the short text
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Whether the turn timer played it for a person (their stand-in's move).
    timed: Mapped[bool] = mapped_column(Boolean, server_default=false())


class ChatRow(Base):
    """One chat line of a table, in the order said."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    channel: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    said: Mapped[str] = mapped_column(String(40))


class AccountRow(Base):
    """An account: its name as chosen, the name's skeleton (unique: no two names that look
    alike), the password's Argon2id hash, and when it was made."""

    __tablename__ = "accounts"
    __table_args__ = ({"sqlite_autoincrement": True},)  # a deleted account's id is never given again

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(256), unique=True)
    password: Mapped[str] = mapped_column(String(256))
    created: Mapped[str] = mapped_column(String(40))


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its cookie's token (the token itself is never stored),
    its account, the token its state-changing requests must repeat (CSRF), and when it ends."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[str] = mapped_column(String(40))
    expires: Mapped[int] = mapped_column(Integer)  # Unix seconds


class ThrottleRow(Base):
    """A count of events (failed log-ins, sign-ups) under one key since a window began, shared
    by every server process on one database."""

    __tablename__ = "throttles"

    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    started: Mapped[int] = mapped_column(Integer)  # Unix seconds
    count: Mapped[int] = mapped_column(Integer)


class AnalysisRow(Base):
    """The judgement of a finished match's people's moves, kept once it is whole, so that reading
    it again never thinks it out again."""

    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    moves: Mapped[str] = mapped_column(Text)  # JSON: each judged move, as /api/tables/{id}/analysis
    made: Mapped[str] = mapped_column(String(40))


class ResultRow(Base):
    """A finished match's result, stored once (its table is the key: a second process that
    finishes the same table stores nothing): when, how many players and the kind of table, the
    sides' scores, the winning side, whether it was rated or played on a device."""

    __tablename__ = "results"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    finished: Mapped[str] = mapped_column(String(40), index=True)
    players: Mapped[int] = mapped_column(Integer)
    #: The kind of table (`pasur.Rules.table`): "2", "3", "4" (in partnership) or "4-each".
    kind: Mapped[str] = mapped_column(String(8))
    scores: Mapped[str] = mapped_column(Text)  # JSON: a score a side
    winner: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean, server_default=false())
    #: How it ended, when not by the score (`results.Ended`): resigned, abandoned or aborted.
    ended: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: Whether it was played on a device with no server and added to an account afterwards
    #: (`device_games`): never rated, never counted in a player's figures.
    device: Mapped[bool] = mapped_column(Boolean, server_default=false())


class ResultSeatRow(Base):
    """Who sat where in a finished match: the name shown, the account (when signed in) or the
    bot level, the side and whether that side won; a rated match's rating before and after;
    and the side's rounds, points, Surs and rounds with Haft Khaj (for the player's figures)."""

    __tablename__ = "result_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("results.table_id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True, index=True)
    name: Mapped[str] = mapped_column(String(64))
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    side: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    rating_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    rating_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    deviation_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    rounds: Mapped[int] = mapped_column(Integer, server_default="0")
    points: Mapped[int] = mapped_column(Integer, server_default="0")
    surs: Mapped[int] = mapped_column(Integer, server_default="0")
    haft_khaj: Mapped[int] = mapped_column(Integer, server_default="0")


class RatingRow(Base):
    """An account's rating at one kind of table (`pasur.Rules.table`: "2", "3", "4" in partnership
    or "4-each"): its value, deviation, rated matches and when it last changed."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_kind_value", "kind", "value"),)

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    value: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[str] = mapped_column(String(40))


class InvitationRow(Base):
    """A signed-in player at an open table asked another account to it (shown in their lobby)."""

    __tablename__ = "invitations"
    __table_args__ = (UniqueConstraint("table_id", "to_account"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    from_account: Mapped[int] = mapped_column(ForeignKey("accounts.id"))
    to_account: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    made: Mapped[str] = mapped_column(String(40))


class BlockRow(Base):
    """An account blocked another: it can no longer invite them, and neither reads the other's chat."""

    __tablename__ = "blocks"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True, index=True)
    made: Mapped[str] = mapped_column(String(40))


class PuzzleRatingRow(Base):
    """An account's puzzle rating: its value and deviation, its streak of right answers, and the
    puzzles it has tried (JSON: their ids; each is rated on its first try only)."""

    __tablename__ = "puzzle_ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    value: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    streak: Mapped[int] = mapped_column(Integer)
    tried: Mapped[str] = mapped_column(Text)

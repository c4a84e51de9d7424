"""Failed reviewer logins, counted per account and per client address, in the database.

Past the limit within the window, that account (or address) is locked out for a while, even
with the right password: guessing a password at 30 tries in 4 s, or trying one password on
many accounts from one address, stops after a handful. The counts live in the
`login_failures` table, so every API process of a scale-out sees the same count (kept in one
process's memory, N processes allowed N times the limit).

    throttle = LoginThrottle.from_settings(settings, database)
    wait = throttle.retry_after(email, address)   # seconds, or None: allowed
    throttle.failed(email, address) / throttle.succeeded(email, address)
    clear_account(session, email)                 # `labreport reviewer reset-password`

A count is one row per key (a fixed window from its first failure) bumped by a single UPDATE,
so two processes failing at once both count. Rows whose window and lockout are over are
deleted on the next failure anywhere. Without a database (unit tests) the throttle keeps
its table in a private in-memory SQLite database: the same code, one process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from sqlalchemy import and_, case, create_engine, delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from service.auth import normalize_email, sha256_hex
from service.review_tables import LoginFailures

ACCOUNT, ADDRESS = "account", "address"


def _keys(email: str, address: str | None) -> list[tuple[str, str]]:
    return [(ACCOUNT, sha256_hex(normalize_email(email))), (ADDRESS, sha256_hex(address or "unknown"))]


def clear_account(session: Session, email: str) -> None:
    """Forget the failures and the lockout of the account `email` (a new password was set)."""
    kind, key_hash = _keys(email, None)[0]
    session.execute(delete(LoginFailures).where(LoginFailures.kind == kind, LoginFailures.key_hash == key_hash))


def _private_sessions() -> sessionmaker:
    engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
    LoginFailures.__table__.create(engine)
    return sessionmaker(engine)


class LoginThrottle:
    def __init__(
        self,
        *,
        max_per_account: int,
        max_per_address: int,
        window_seconds: float,
        lockout_seconds: float,
        database=None,
        clock: Callable[[], float] = time.time,
    ):
        self.limits = {ACCOUNT: max_per_account, ADDRESS: max_per_address}
        self.window = window_seconds
        self.lockout = lockout_seconds
        # Wall-clock time: the processes sharing the table share no monotonic clock.
        self.clock = clock
        self._sessions = database.sessionmaker if database is not None else _private_sessions()
        # Only the private in-memory database needs it (one connection for all threads).
        self._local_lock = threading.Lock() if database is None else None

    @classmethod
    def from_settings(cls, settings, database) -> LoginThrottle:
        return cls(
            max_per_account=settings.login_max_failures_per_account,
            max_per_address=settings.login_max_failures_per_address,
            window_seconds=settings.login_window_seconds,
            lockout_seconds=settings.login_lockout_seconds,
            database=database,
        )

    def _run(self, work: Callable[[Session], object]):
        if self._local_lock is None:
            return self._transaction(work)
        with self._local_lock:
            return self._transaction(work)

    def _transaction(self, work: Callable[[Session], object]):
        with self._sessions() as session, session.begin():
            return work(session)

    def retry_after(self, email: str, address: str | None) -> float | None:
        """Seconds until a login of `email` from `address` may be tried, or None: allowed."""
        now = self.clock()

        def read(session: Session) -> float | None:
            return session.scalar(
                select(LoginFailures.locked_until).where(
                    _matching(_keys(email, address)), LoginFailures.locked_until > now
                ).order_by(LoginFailures.locked_until.desc()).limit(1)
            )

        until = self._run(read)
        return until - now if until is not None else None

    def failed(self, email: str, address: str | None) -> None:
        now = self.clock()

        def count(session: Session) -> None:
            # Always the account's row before the address's: two processes lock in one order.
            for kind, key_hash in _keys(email, address):
                self._count_failure(session, kind, key_hash, now)

        self._run(count)
        # The sweep in a transaction of its own, holding no other row's lock meanwhile.
        self._run(lambda session: session.execute(delete(LoginFailures).where(LoginFailures.expires_at < now)))

    def succeeded(self, email: str, address: str | None) -> None:
        """A right password clears the account's count (not the address's: a guesser who owns
        one account must not reset the count of the others it tries)."""
        self._run(lambda session: clear_account(session, email))

    def _count_failure(self, session: Session, kind: str, key_hash: str, now: float) -> None:
        _insert_missing(session, kind, key_hash, now, now + self.window)
        fresh = LoginFailures.window_start < now - self.window  # the old window is over
        row = LoginFailures.__table__.c
        failures = session.execute(
            update(LoginFailures)
            .where(LoginFailures.kind == kind, LoginFailures.key_hash == key_hash)
            .values(
                failures=case((fresh, 1), else_=row.failures + 1),
                window_start=case((fresh, now), else_=row.window_start),
                # A lockout longer than the window keeps its row until it ends.
                expires_at=case(
                    (fresh & (row.locked_until > now + self.window), row.locked_until),
                    (fresh, now + self.window),
                    else_=row.expires_at,
                ),
            )
            .returning(LoginFailures.failures)
        ).scalar_one()
        if failures >= self.limits[kind]:
            session.execute(
                update(LoginFailures)
                .where(LoginFailures.kind == kind, LoginFailures.key_hash == key_hash)
                .values(failures=0, window_start=now, locked_until=now + self.lockout,
                        expires_at=now + max(self.window, self.lockout))
            )


def _matching(keys: list[tuple[str, str]]):
    return or_(*(and_(LoginFailures.kind == kind, LoginFailures.key_hash == key_hash) for kind, key_hash in keys))


def _insert_missing(session: Session, kind: str, key_hash: str, now: float, expires_at: float) -> None:
    """The key's row with no failures yet, unless another request (or process) has it."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    session.execute(
        dialect.insert(LoginFailures)
        .values(kind=kind, key_hash=key_hash, failures=0, window_start=now, expires_at=expires_at)
        .on_conflict_do_nothing()
    )

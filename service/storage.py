"""Where uploaded reports live: files under LABREPORT_HOME, or the database (scale-out).

    storage = make_storage(settings)
    path = storage.new_incoming_path()            # the upload streams here (local scratch)
    ref = storage.keep(session, job_id, 0, path, ".pdf")   # in the job's transaction
    data = storage.read(session, ref)
    with storage.job_files(database, job_id) as root: ...  # root / ref is a readable file
    storage.delete_job(session, job_id)

`FileStore` keeps a job's files under `files/<job_id>/`; the database keeps only their
paths (relative, so a LABREPORT_HOME can be moved). `DatabaseStore` keeps the bytes in
the `blobs` table (a report is at most 10 MB), written in the same transaction as the
job, so the API and the workers share nothing but the database and the broker.

Both hold patient data: folders are 0700 and files 0600 whatever the umask.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from service.settings import Settings
from service.tables import Blob

if TYPE_CHECKING:
    from service.db import Database

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


def private_dir(path: Path) -> Path:
    """Create `path` (and missing parents) readable by the service only; tighten it if it exists."""
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
    os.chmod(path, PRIVATE_DIR)
    return path


def open_private(path: Path) -> int:
    """A new file descriptor for writing `path`, created 0600 (the umask cannot widen it)."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)


def write_private(path: Path, data: bytes) -> None:
    with os.fdopen(open_private(path), "wb") as sink:
        sink.write(data)


class Storage(Protocol):
    def new_incoming_path(self) -> Path: ...
    def keep(self, session: Session, job_id: str, position: int, temp_path: Path, extension: str) -> str: ...
    def read(self, session: Session, ref: str) -> bytes: ...
    def delete_job(self, session: Session, job_id: str) -> None: ...
    def job_files(self, database: Database, job_id: str) -> AbstractContextManager[Path]: ...


class _IncomingFiles:
    """Uploads stream into `incoming/` on the receiving machine before they are kept."""

    def __init__(self, incoming: Path):
        self.incoming = private_dir(incoming)

    def new_incoming_path(self) -> Path:
        return self.incoming / uuid.uuid4().hex


class FileStore(_IncomingFiles):
    def __init__(self, root: Path):
        self.root = private_dir(root)
        super().__init__(root / "incoming")

    def keep(self, session: Session | None, job_id: str, position: int, temp_path: Path, extension: str) -> str:
        private_dir(self.root / job_id)
        relative = f"{job_id}/{position}{extension}"
        os.chmod(temp_path, PRIVATE_FILE)
        temp_path.replace(self.root / relative)
        return relative

    def path(self, relative: str) -> Path:
        return self.root / relative

    def read(self, session: Session | None, ref: str) -> bytes:
        return self.path(ref).read_bytes()

    def delete_job(self, session: Session | None, job_id: str) -> None:
        job_dir = self.root / job_id
        if job_dir.exists():
            shutil.rmtree(job_dir)

    @contextmanager
    def job_files(self, database: Database, job_id: str) -> Iterator[Path]:
        yield self.root


class DatabaseStore(_IncomingFiles):
    """Uploads in the `blobs` table, keyed by the same `<job_id>/<position><ext>` refs."""

    def __init__(self, scratch: Path):
        # Local scratch of this machine: uploads being received, a job's files while it parses.
        self.scratch = private_dir(scratch)
        super().__init__(scratch / "incoming")

    def keep(self, session: Session, job_id: str, position: int, temp_path: Path, extension: str) -> str:
        ref = f"{job_id}/{position}{extension}"
        data = temp_path.read_bytes()
        session.flush()  # the job's row first: the blob refers to it (no ORM relationship orders them)
        session.add(Blob(key=ref, job_id=job_id, size=len(data), data=data))
        temp_path.unlink()
        return ref

    def read(self, session: Session, ref: str) -> bytes:
        data = session.scalar(select(Blob.data).where(Blob.key == ref))
        if data is None:
            raise FileNotFoundError(f"no stored file {ref}")
        return bytes(data)

    def delete_job(self, session: Session, job_id: str) -> None:
        session.execute(delete(Blob).where(Blob.job_id == job_id))

    @contextmanager
    def job_files(self, database: Database, job_id: str) -> Iterator[Path]:
        """The job's blobs copied to a private scratch folder for the parser, removed after."""
        root = Path(tempfile.mkdtemp(prefix="job-", dir=self.scratch))
        try:
            with database.session_scope() as session:
                rows = session.execute(select(Blob.key, Blob.data).where(Blob.job_id == job_id))
                for key, data in rows:
                    private_dir((root / key).parent)
                    write_private(root / key, bytes(data))
            yield root
        finally:
            shutil.rmtree(root, ignore_errors=True)


def make_storage(settings: Settings) -> FileStore | DatabaseStore:
    """The storage the settings choose; LABREPORT_HOME is made private either way."""
    private_dir(settings.home)
    if settings.storage_backend == "database":
        return DatabaseStore(settings.home / "scratch")
    return FileStore(settings.files_dir)

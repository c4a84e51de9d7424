"""Uploaded files on disk under LABREPORT_HOME/files, one directory per job.

Paths stored in the database are relative to the files directory so a whole
LABREPORT_HOME can be moved.
"""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path


class FileStore:
    def __init__(self, root: Path):
        self.root = root
        self.incoming = root / "incoming"
        self.incoming.mkdir(parents=True, exist_ok=True)

    def new_incoming_path(self) -> Path:
        """A fresh path for a file still being received (moved into a job by `keep`)."""
        return self.incoming / uuid.uuid4().hex

    def keep(self, job_id: str, position: int, temp_path: Path, extension: str) -> str:
        job_dir = self.root / job_id
        job_dir.mkdir(parents=True, exist_ok=True)
        relative = f"{job_id}/{position}{extension}"
        temp_path.replace(self.root / relative)
        return relative

    def path(self, relative: str) -> Path:
        return self.root / relative

    def read(self, relative: str) -> bytes:
        return self.path(relative).read_bytes()

    def delete_job(self, job_id: str) -> None:
        job_dir = self.root / job_id
        if job_dir.exists():
            shutil.rmtree(job_dir)

"""Where uploads live (files or the database) and who may read them (the service only)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from pydantic import ValidationError

from service.jobs import create_job
from service.settings import Settings
from service.storage import DatabaseStore, FileStore, make_storage
from service.tables import Team, User
from tests.service.helpers import DIGITAL_REPORT, upload, wait_for_job


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def permissive_umask():
    """The umask of a careless start script: everything would be world-readable."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_database_uploads_and_folders_are_private(permissive_umask, client, settings, headers, user_id):
    response = upload(client, headers, user_id, [("r.pdf", DIGITAL_REPORT.read_bytes(), "application/pdf")])
    assert response.status_code == 200, response.text
    job = wait_for_job(client, headers, response.json()["id"])
    stored = settings.files_dir / job["id"]
    folders = [settings.home, settings.files_dir, settings.files_dir / "incoming", stored]
    assert {str(p): oct(_mode(p)) for p in folders} == {str(p): "0o700" for p in folders}
    files = [*stored.iterdir(), settings.home / "labreport.db"]
    files += [p for p in settings.home.glob("labreport.db-*")]  # WAL and shared-memory files
    assert len(files) >= 2
    assert {str(p): oct(_mode(p)) for p in files} == {str(p): "0o600" for p in files}


def test_an_existing_world_readable_home_is_tightened(tmp_path, permissive_umask):
    home = tmp_path / "home"
    (home / "files").mkdir(parents=True, mode=0o755)
    os.chmod(home, 0o755)
    make_storage(Settings(home=home))
    assert _mode(home) == 0o700 and _mode(home / "files") == 0o700


def test_scale_out_keeps_uploads_in_the_database(tmp_path, app, client, settings):
    store = DatabaseStore(tmp_path / "worker-scratch")
    database = app.state.database
    incoming = store.new_incoming_path()
    incoming.write_bytes(b"%PDF-1.4 report bytes")
    with database.session_scope() as session:
        team = Team(name="t", api_key_hash="0" * 64, webhook_secret="s")
        session.add(team)
        session.flush()
        user = User(team_id=team.id)
        session.add(user)
        session.flush()
        job = create_job(session, team=team, user=user, needs_human_review=False)
        ref = store.keep(session, job.id, 0, incoming, ".pdf")
    assert not incoming.exists()  # nothing stays on this machine's disk
    with database.session_scope() as session:
        assert store.read(session, ref) == b"%PDF-1.4 report bytes"
    with store.job_files(database, job.id) as root:  # what a worker parses
        assert (root / ref).read_bytes() == b"%PDF-1.4 report bytes"
        assert _mode(root / ref) == 0o600 and _mode(root) == 0o700
    assert not root.exists()
    with database.session_scope() as session:
        store.delete_job(session, job.id)
    with database.session_scope() as session, pytest.raises(FileNotFoundError):
        store.read(session, ref)


def test_settings_choose_the_storage(tmp_path):
    assert isinstance(make_storage(Settings(home=tmp_path)), FileStore)
    scale_out = Settings(home=tmp_path, broker_url="redis://127.0.0.1:6379/0")
    assert isinstance(make_storage(scale_out), DatabaseStore)
    files_anyway = Settings(home=tmp_path, broker_url="redis://127.0.0.1:6379/0", storage="files")
    assert isinstance(make_storage(files_anyway), FileStore)
    with pytest.raises(ValidationError, match="needs LABREPORT_BROKER_URL"):
        Settings(home=tmp_path, storage="database")

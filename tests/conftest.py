"""Fixtures shared by the service and review tests: a real app on a temp LABREPORT_HOME,
with thread workers and a retry schedule in fractions of a second."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        home=tmp_path / "home",
        executor="thread",
        workers=1,
        allow_private_webhooks=True,
        poll_interval_seconds=0.05,
        webhook_retry_schedule=[0.2, 0.2],
        webhook_timeout_seconds=5,
        max_pages=5,
    )


@pytest.fixture
def app(settings: Settings):
    return create_app(settings)


@pytest.fixture
def client(app) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client

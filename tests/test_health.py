"""/healthz and /readyz (config.health): unauthenticated probes; /readyz names
each dependency that is down (issue 27 §1: a dead broker shows here)."""
from __future__ import annotations

import socket
from unittest import mock

import pytest
from django.db import OperationalError


def _closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"  # nothing listens once the socket is closed


def test_healthz_answers_anyone(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_is_ready_with_its_dependencies_up(client, settings):
    r = client.get("/readyz")
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["status"] == "ok" and body["database"] == "ok"
    assert ("broker" in body) == bool(settings.REDIS_URL)


@pytest.mark.django_db
def test_readyz_is_503_naming_a_database_that_does_not_answer(client):
    with mock.patch("config.health.connections") as conns:
        conns.__getitem__.return_value.cursor.side_effect = OperationalError("down")
        r = client.get("/readyz")
    assert r.status_code == 503 and r.json()["database"] == "down" and r.json()["status"] == "unavailable"


@pytest.mark.django_db
def test_readyz_is_503_naming_unapplied_migrations(client):
    from config import health

    health._migrated.clear()
    with mock.patch("config.health.MigrationExecutor") as executor:
        executor.return_value.migration_plan.return_value = [("battles", "9999_new")]
        r = client.get("/readyz")
    assert r.status_code == 503 and r.json()["database"] == "down"


@pytest.mark.django_db
def test_readyz_is_503_naming_redis_and_the_broker_when_redis_is_down(client, settings):
    url = _closed_port_url()
    settings.REDIS_URL = settings.CELERY_BROKER_URL = url
    r = client.get("/readyz")
    body = r.json()
    assert r.status_code == 503 and body["redis"] == "down" and body["broker"] == "down"
    assert body["database"] == "ok"


def test_readyz_refuses_writes(client):
    assert client.post("/readyz").status_code == 405

"""A request's session is read by one plain query (``config.sessions``): the same session Django's database
engine stores, an expired or unknown one answered as Django answers it (empty, the browser's key forgotten:
a session saved next gets a key of its own, never the one the browser offered)."""
from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.sessions import SessionStore


@pytest.mark.django_db
def test_a_stored_session_reads_back_whole_in_one_query():
    stored = SessionStore()
    stored.update({"n": 7, "word": "штаб"})
    stored.create()
    with CaptureQueriesContext(connection) as ctx:
        read = SessionStore(session_key=stored.session_key)
        assert dict(read.load()) == {"n": 7, "word": "штаб"}
    (sql,) = [q["sql"] for q in ctx.captured_queries]
    assert "django_session" in sql and '"django_session"."expire_date"' not in sql  # the plain query
    assert read.session_key == stored.session_key


@pytest.mark.django_db
@pytest.mark.parametrize("when", ["expired", "unknown"])
def test_an_expired_or_unknown_session_is_empty_and_its_key_is_not_reused(when):
    stored = SessionStore()
    stored.update({"secret": "yes"})
    stored.create()
    key = stored.session_key if when == "expired" else "k" * 32
    Session.objects.filter(session_key=stored.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    read = SessionStore(session_key=key)
    assert dict(read.load()) == {}
    assert read.session_key is None  # forgotten: saved next, it gets a new key
    read["x"] = 1
    read.save()
    assert read.session_key not in (None, key)


@pytest.mark.django_db
def test_a_signed_in_player_stays_signed_in_and_is_signed_out_when_his_session_expires(player):
    client = Client()
    client.force_login(player)
    assert client.get("/").wsgi_request.user.pk == player.pk
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    assert not client.get("/").wsgi_request.user.is_authenticated

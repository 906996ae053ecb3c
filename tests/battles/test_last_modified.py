"""Last-Modified on the read-only API (issue 29 §4): a battle's state and log
carry the time of their last change (the last event's recording, or the
projection's update), a campaign's standings their projection's; a client's
If-Modified-Since is answered 304 until a later append or result changes the
answer. A change younger than config.conditional.SETTLE_SECONDS gives no
Last-Modified yet (the ETag still revalidates), so two changes in one second
never hide the second behind a 304. The clock is frozen: no timed test."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.utils.http import http_date, parse_http_date
from freezegun import freeze_time

from battles.services import NewEvent, battle_event_append

pytestmark = pytest.mark.django_db
T0 = datetime(2031, 5, 9, 10, 0, 0, 250000, tzinfo=UTC)


def _append(battle, seq: int, at: datetime, event: NewEvent) -> None:
    with freeze_time(at):
        battle_event_append(battle_id=battle.id, events=[event], expected_seq=seq, as_game_master=True)


@pytest.fixture
def played(battle, defender, attacker):
    """A battle started at T0 (seq 1)."""
    _append(battle, 0, T0, NewEvent("battle_started", {"attacker": "Вермахт", "defender": "РККА"}))
    return battle


def _get(url: str, at: datetime, **headers):
    with freeze_time(at):
        return Client().get(url, **headers)


@pytest.mark.parametrize("suffix", ["state", "events"])
def test_if_modified_since_answers_304_until_a_later_append(played, suffix):
    url = f"/api/battles/{played.pk}/{suffix}/"
    first = _get(url, T0 + timedelta(minutes=1))
    assert first.status_code == 200 and first["ETag"]
    assert parse_http_date(first["Last-Modified"]) >= int(T0.timestamp())
    assert parse_http_date(first["Last-Modified"]) <= int((T0 + timedelta(minutes=1)).timestamp())
    same = _get(url, T0 + timedelta(minutes=2), HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert same.status_code == 304 and same.content == b""
    assert same["ETag"] == first["ETag"]  # a 304 carries the validators the 200 would (RFC 9110 §15.4.5)

    _append(played, 1, T0 + timedelta(minutes=3), NewEvent("turn_ended", {"side": "defender", "turn": 1}))
    changed = _get(url, T0 + timedelta(minutes=4), HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert changed.status_code == 200 and changed.content
    assert parse_http_date(changed["Last-Modified"]) > parse_http_date(first["Last-Modified"])
    assert _get(url, T0 + timedelta(minutes=5),
                HTTP_IF_MODIFIED_SINCE=changed["Last-Modified"]).status_code == 304


def test_a_change_in_the_last_seconds_gives_no_last_modified_yet(played):
    """Two appends in one second: a client holding the first answer's date must not be told 304
    after the second, so an answer whose last change has not settled carries no date (its ETag does)."""
    url = f"/api/battles/{played.pk}/events/"
    fresh = _get(url, T0 + timedelta(milliseconds=100))
    assert fresh.status_code == 200 and fresh["ETag"] and not fresh.has_header("Last-Modified")
    _append(played, 1, T0 + timedelta(milliseconds=500), NewEvent("turn_ended", {"side": "defender", "turn": 1}))
    assert not _get(url, T0 + timedelta(milliseconds=700)).has_header("Last-Modified")
    # The client revalidates by the ETag, the only validator it was given, and gets the second append.
    assert _get(url, T0 + timedelta(seconds=10), HTTP_IF_NONE_MATCH=fresh["ETag"]).status_code == 200
    settled = _get(url, T0 + timedelta(seconds=10))
    # Why: the settled date names the same second the first answer would have carried.
    assert settled["Last-Modified"] == http_date(T0.timestamp())


def test_an_etag_wins_over_the_date(played):
    """RFC 9110 §13.2.2: with If-None-Match the date is not looked at."""
    url = f"/api/battles/{played.pk}/state/"
    first = _get(url, T0 + timedelta(minutes=1))
    answer = _get(url, T0 + timedelta(minutes=2), HTTP_IF_MODIFIED_SINCE=first["Last-Modified"],
                  HTTP_IF_NONE_MATCH='"another"')
    assert answer.status_code == 200


@pytest.mark.parametrize("suffix", ["state", "events"])
def test_a_missing_battle_carries_no_date(db, suffix):
    missing = _get(f"/api/battles/424242/{suffix}/", T0)
    assert missing.status_code == 404 and not missing.has_header("Last-Modified")


def test_the_standings_answer_304_until_a_campaign_event(running):
    from campaign import services
    from campaign.models import Award

    url = f"/api/campaigns/{running.pk}/standings/"
    first = _get(url, datetime.now(UTC) + timedelta(minutes=1))
    assert first.status_code == 200 and first.has_header("Last-Modified")
    later = datetime.now(UTC) + timedelta(minutes=2)
    assert _get(url, later, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]).status_code == 304
    _user, character = running.cast["petrov"]
    with freeze_time(later + timedelta(minutes=1)):
        services.campaign_event_append(type="award_granted", campaign=running, character=character,
                                       data={"award": Award.objects.get(code="for-courage").pk})
    changed = _get(url, later + timedelta(minutes=2), HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert changed.status_code == 200
    assert parse_http_date(changed["Last-Modified"]) > parse_http_date(first["Last-Modified"])

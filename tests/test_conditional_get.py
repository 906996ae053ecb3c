"""ETag and Last-Modified answered with 304 (issue 29 §4): a feed reader or an
API client that already holds the answer revalidates for a few hundred bytes
(``ConditionalGetMiddleware``: an ETag of the body, compared with If-None-Match,
and the feed's Last-Modified compared with If-Modified-Since); a changed answer
comes whole with its new ETag."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils.http import http_date, parse_http_date


@pytest.fixture
def demo(db):
    from django.core.management import call_command

    from campaign.models import Campaign

    call_command("loaddemo")
    return Campaign.objects.order_by("pk").first()


def test_the_feed_answers_304_to_its_etag_and_to_its_last_modified(demo):
    client, url = Client(), f"/campaigns/{demo.pk}/feed/"
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] and first["Last-Modified"]
    by_tag = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert by_tag.status_code == 304 and by_tag.content == b"" and by_tag["ETag"] == first["ETag"]
    by_date = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert by_date.status_code == 304 and by_date.content == b""
    earlier = http_date(parse_http_date(first["Last-Modified"]) - timedelta(minutes=1).total_seconds())
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=earlier).status_code == 200
    assert client.get(url, HTTP_IF_NONE_MATCH='"another"').status_code == 200


def test_a_gzipped_answer_revalidates_with_its_weak_etag(demo):
    client, url = Client(HTTP_ACCEPT_ENCODING="gzip"), f"/campaigns/{demo.pk}/feed/"
    first = client.get(url)
    assert first["Content-Encoding"] == "gzip" and first["ETag"].startswith('W/"')
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_the_read_only_api_answers_304_until_the_answer_changes(demo, anon_client):
    from campaign.models import Campaign

    first = Client().get("/api/campaigns/")
    assert first.status_code == 200 and first["ETag"]
    again = Client().get("/api/campaigns/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    Campaign.objects.create(name="Вторая кампания")
    changed = Client().get("/api/campaigns/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert "Вторая кампания" in changed.content.decode()


def test_the_battle_state_and_log_revalidate(demo):
    from battles.models import Battle

    battle = Battle.objects.filter(campaign=demo, head_seq__gt=0).order_by("pk").first()
    for url in (f"/api/battles/{battle.pk}/state/", f"/api/battles/{battle.pk}/events/"):
        first = Client().get(url)
        assert first.status_code == 200 and first["ETag"], url
        assert Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304, url


@pytest.mark.django_db
def test_only_a_successful_read_is_ever_a_304(player_client):
    assert not player_client.post("/api/characters/", {}, format="json").has_header("ETag")  # a write
    missing = Client().get("/api/battles/424242/")
    assert Client().get("/api/battles/424242/", HTTP_IF_NONE_MATCH=missing["ETag"]).status_code == 404
    assert not Client().get("/healthz").has_header("ETag")  # never cached

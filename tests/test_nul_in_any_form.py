"""A NUL in a form never reaches the database whatever the method (issue 27 §3). The API takes JSON
bodies only (issue 29): a form, a PATCH's included (no API operation takes PUT), is a 415 and nothing is written; a POST's
form is still read by ApiErrorMiddleware (the pages post forms), whose NUL is a 400 naming the field."""
from __future__ import annotations

import pytest
from django.test.client import encode_multipart
from rest_framework.test import APIClient

from rosters.models import Roster

BOUNDARY = "BoUnDaRy"


@pytest.fixture
def owned(player):
    from campaign.models import Character, Nationality
    from rosters import services

    character = Character.objects.create(owner=player, name="Иван", nationality=Nationality.objects.get(code="su"))
    roster = services.roster_create(user=player, character=character, name="Отряд")
    client = APIClient()
    client.force_authenticate(player)
    return client, roster


def _form(encoding: str, name: str) -> tuple[bytes, str]:
    if encoding == "multipart":
        return encode_multipart(BOUNDARY, {"name": name}), f"multipart/form-data; boundary={BOUNDARY}"
    return f"name={name}".encode().replace(b"\x00", b"%00"), "application/x-www-form-urlencoded"


@pytest.mark.django_db
@pytest.mark.parametrize("encoding", ["multipart", "urlencoded"])
@pytest.mark.parametrize("name", ["a\x00b", "Рота"])
def test_a_patch_form_is_a_415_and_nothing_is_written(owned, encoding, name):
    client, roster = owned
    body, content_type = _form(encoding, name)
    r = client.generic("PATCH", f"/api/rosters/{roster.pk}/", body, content_type=content_type)
    assert r.status_code == 415, r.content[:300]
    assert r.json()["error"]["code"] == "unsupported_media_type"
    assert Roster.objects.get(pk=roster.pk).name == "Отряд"


@pytest.mark.django_db
def test_a_nul_in_a_post_form_is_a_400_naming_the_field(owned):
    client, roster = owned
    body, content_type = _form("urlencoded", "a\x00b")
    r = client.generic("POST", "/api/rosters/", body, content_type=content_type)
    assert r.status_code == 400 and r.json()["error"]["field"] == "name", r.content[:300]
    assert r.json()["error"]["code"] == "invalid_text"


@pytest.mark.django_db
def test_the_same_change_as_json_goes_through(owned):
    client, roster = owned
    r = client.patch(f"/api/rosters/{roster.pk}/", {"name": "Рота"}, format="json")
    assert r.status_code == 200, r.content[:300]
    assert Roster.objects.get(pk=roster.pk).name == "Рота"

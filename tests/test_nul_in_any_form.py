"""A NUL in a form is refused whatever the method (issue 27 §3): Django parses only a POST's form, which
ApiErrorMiddleware checks; a PATCH's or PUT's form is parsed by DRF's own form parsers, so the middleware
reads it too. Before, the NUL reached the database (PostgreSQL refuses it in text: a 500)."""
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


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["patch", "put"])
@pytest.mark.parametrize("encoding", ["multipart", "urlencoded"])
def test_a_nul_in_a_patch_or_put_form_is_a_400_naming_the_field(owned, method, encoding):
    client, roster = owned
    if encoding == "multipart":
        body, content_type = encode_multipart(BOUNDARY, {"name": "a\x00b"}), f"multipart/form-data; boundary={BOUNDARY}"
    else:
        body, content_type = b"name=a%00b", "application/x-www-form-urlencoded"
    r = client.generic(method.upper(), f"/api/rosters/{roster.pk}/", body, content_type=content_type)
    assert r.status_code == 400, r.content[:300]
    assert r.json()["error"]["field"] == "name" and r.json()["error"]["code"] == "invalid_text"
    assert Roster.objects.get(pk=roster.pk).name == "Отряд"


@pytest.mark.django_db
def test_a_clean_patch_form_still_goes_through(owned):
    client, roster = owned
    r = client.generic("PATCH", f"/api/rosters/{roster.pk}/", encode_multipart(BOUNDARY, {"name": "Рота"}),
                       content_type=f"multipart/form-data; boundary={BOUNDARY}")
    assert r.status_code == 200, r.content[:300]
    assert Roster.objects.get(pk=roster.pk).name == "Рота"

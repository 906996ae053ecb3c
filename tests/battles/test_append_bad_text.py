"""Text the database cannot store, sent in a token's append: a lone surrogate
or a NUL anywhere in the body is a 400 naming the field, and nothing is written."""
from __future__ import annotations

import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from battles.models import BattleEvent
from tests.battles.test_append_api import TURN1, url


@pytest.fixture
def defender_client(defender):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=defender)[0].key}")
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(("inside", "field"), [
    (b"\xed\xa0\x80", "body"),  # not UTF-8 to DRF's parser, which answers it
    (b"\\ud800", "events[0].data.attacker"), (b"\\u0000", "events[0].data.attacker")],
    ids=["raw bytes", "escape", "nul"])
def test_a_lone_surrogate_or_nul_in_an_append_is_400_naming_the_field(defender_client, started, inside, field):
    battle = started  # by the game master: before the muster a participant records nothing (V-TURN-2)
    body = b'{"expected_seq": 0, "events": [{"type": "battle_started", "data": {"attacker": "a' + inside + \
        b'", "defender": "x"}}]}'
    r = defender_client.generic("POST", url(battle), body, content_type="application/json")
    assert r.status_code == 400, r.content
    assert r.json()["error"]["field"] == field
    assert BattleEvent.objects.filter(battle=battle).count() == 1
    ok = defender_client.generic("POST", url(battle), json.dumps({"expected_seq": 1, "events": [TURN1]}).encode(),
                                 content_type="application/json")
    assert ok.status_code == 201

"""A number no payload holds, sent in a token's append (issue 27 §3): 400 digits or ``1e400`` anywhere in
an event's data is a 400 naming the field, in Russian and English, from the engine's payload check (1e400,
which Python's JSON reads as infinity, from the JSON parser's), and nothing is written."""
from __future__ import annotations

import pytest

from battles.models import BattleEvent
from tests.battles.test_append_api import url

HUGE = "1" + "0" * 400


def body(turn: str) -> bytes:
    return ('{"expected_seq": 0, "events": [{"type": "battle_started", "data": {"attacker": "a", "defender": "b"}},'
            ' {"type": "turn_ended", "data": {"side": "defender", "turn": TURN}}]}').replace("TURN", turn).encode()


@pytest.mark.django_db
@pytest.mark.parametrize("turn", [HUGE, "-" + HUGE, "1e400", "9007199254740992"],
                         ids=["400 digits", "400 digits negative", "1e400", "2**53"])
def test_a_number_no_payload_holds_is_a_400_naming_the_field(defender_client, battle, turn):
    r = defender_client.generic("POST", url(battle), body(turn), content_type="application/json")
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    # 1e400 is read as infinity by the JSON parser, which refuses it there (config.inputs), naming the same field
    assert error["code"] == ("invalid_number" if turn == "1e400" else "invalid_event")
    assert error["field"] == "events[1].data.turn"
    assert "data.turn" in error["message_ru"] and "data.turn" in error["message_en"]
    assert HUGE not in r.content.decode()
    assert not BattleEvent.objects.filter(battle=battle).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("distance", [HUGE, "1e400"], ids=["400 digits", "1e400"])
def test_a_distance_no_payload_holds_is_a_400_naming_it(defender_client, battle, distance):
    fire = ('{"type": "fire", "data": {"shooter": "a1", "weapon": "rifle", "target": "fighters", "distance": D,'
            ' "struck": [{"fighter": "d1", "die": {"source": "rolled"}}]}}').replace("D,", f"{distance},")
    r = defender_client.generic("POST", url(battle), f'{{"expected_seq": 0, "events": [{fire}]}}'.encode(),
                                content_type="application/json")
    assert r.status_code == 400, r.content
    assert r.json()["error"]["field"] == "events[0].data.distance"
    assert not BattleEvent.objects.filter(battle=battle).exists()


@pytest.mark.django_db
def test_an_expected_seq_past_the_largest_integer_is_a_400_naming_it(defender_client, battle):
    r = defender_client.generic("POST", url(battle), body("1").replace(b'"expected_seq": 0', b'"expected_seq": ' + HUGE.encode()),
                                content_type="application/json")
    assert r.status_code == 400 and r.json()["error"]["field"] == "expected_seq"
    assert HUGE not in r.content.decode()  # the answer does not echo the number
    assert not BattleEvent.objects.filter(battle=battle).exists()

"""A client cannot pass off a die of its own as one the service rolled
(issue 27 §4, docs/verify.md "Committed dice"): a die sent with a service's
``rng`` ("hmac-sha256", derived from the battle's secret; "secrets", drawn by
the service), entered or not, or sent as rolled with a face, is refused with
a 400 naming that field, in Russian and English, on the API and on every
append path, and nothing is stored. Asking the service (``{"source":
"rolled"}``) and entering a die (``{"value": v, "source": "entered"}``) still work."""
from __future__ import annotations

import pytest

from battles.models import BattleEvent
from battles.services import NewEvent, battle_event_append
from config.errors import InvalidInput
from tests.battles import test_log_chain

path = test_log_chain.path  # the fixture: both append paths

FIELD = "events[0].data.struck[0].die"
SENT = {  # the die sent -> the field named, the code
    "derived, with a face": ({"value": 20, "source": "rolled", "rng": "hmac-sha256"}, "rng", "derived_die_sent"),
    "derived, asked": ({"source": "rolled", "rng": "hmac-sha256"}, "rng", "derived_die_sent"),
    "entered as derived": ({"value": 20, "source": "entered", "rng": "hmac-sha256"}, "rng", "derived_die_sent"),
    "drawn, with a face": ({"value": 20, "source": "rolled", "rng": "secrets"}, "rng", "service_die_sent"),
    "entered as drawn": ({"value": 20, "source": "entered", "rng": "secrets"}, "rng", "service_die_sent"),
    "rolled, with a face": ({"value": 20, "source": "rolled"}, "value", "service_die_sent"),
    "rolled by a phone": ({"value": 20, "source": "rolled", "rng": "my-phone"}, "value", "service_die_sent"),
    "derived, no source": ({"value": 20, "rng": "hmac-sha256"}, "rng", "derived_die_sent"),  # the rng tells it
    "rolled, a face of 0": ({"value": 0, "source": "rolled"}, "value", "service_die_sent"),  # any face, even 0
}


def _fire(die):
    return {"type": "fire", "data": {"shooter": "a1", "weapon": "rifle", "target": "fighters", "distance": 5,
                                     "struck": [{"fighter": "d1", "die": die}]}}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(SENT))
def test_a_die_sent_as_the_services_is_refused_naming_its_field(defender_client, battle, case):
    die, part, code = SENT[case]
    for lang in ("ru", "en"):
        r = defender_client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": 0, "events": [_fire(die)]},
                                 format="json", HTTP_ACCEPT_LANGUAGE=lang)
        assert r.status_code == 400, r.content
        error = r.json()["error"]
        assert error["field"] == f"{FIELD}.{part}" and error["code"] == code
        assert f"{FIELD}.{part}" in error["message_ru"] and f"{FIELD}.{part}" in error["message_en"]
        assert "сервис" in error["message_ru"] and "service" in error["message_en"]
        assert error["message"] == error[f"message_{lang}"]
    assert not BattleEvent.objects.filter(battle=battle).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("case", ["drawn, with a face", "rolled, with a face", "entered as derived"])
def test_the_game_master_and_trusted_callers_are_refused_alike(battle, path, case):
    die, part, _code = SENT[case]
    for as_game_master in (True, False):
        with pytest.raises(InvalidInput) as exc:
            battle_event_append(battle_id=battle.id, events=[NewEvent("fire", _fire(die)["data"])], expected_seq=0,
                                as_game_master=as_game_master)
        assert exc.value.field == f"{FIELD}.{part}"
    assert not BattleEvent.objects.filter(battle=battle).exists()


@pytest.mark.django_db(transaction=True)
def test_a_die_asked_of_the_service_or_entered_is_stored(campaign, path):
    """The two ways a client sends a die still store: the service's face and rng, or the table's face alone."""
    from tests.battles.test_committed_dice import first_die, played

    i, ask = first_die()
    asked, entered = played(campaign, "asked", upto=i), played(campaign, "entered", upto=i)
    r = battle_event_append(battle_id=asked.id, events=[ask], expected_seq=None, as_game_master=True)
    dice = list(_all_dice(r.events[0].data))
    assert r.created and dice and all(d["source"] == "rolled" and d["rng"] == "hmac-sha256" for d in dice)
    r = battle_event_append(battle_id=entered.id, events=[NewEvent(ask.type, _entered(ask.data))], expected_seq=None,
                            as_game_master=True)
    dice = list(_all_dice(r.events[0].data))
    assert r.created and dice and all((d["value"], d["source"], d.get("rng")) == (1, "entered", None) for d in dice)


def _all_dice(data):
    if isinstance(data, dict):
        if data.get("source") in ("rolled", "entered"):
            yield data
            return
        for v in data.values():
            yield from _all_dice(v)
    elif isinstance(data, list):
        for v in data:
            yield from _all_dice(v)


def _entered(data):
    if isinstance(data, dict):
        if data.get("source") == "rolled":
            return {"value": 1, "source": "entered"}
        return {k: _entered(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_entered(v) for v in data]
    return data

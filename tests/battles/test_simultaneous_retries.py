"""Simultaneous retries of one append are answered as one append (issue 27
§3): eight identical keyed requests at once get one 201 and seven 200s with
the same stored event, never a 500, 422 or 409, and the key is stored once.

PostgreSQL only: there the optimistic path and the row locks race for real
(SQLite serialises the whole database). Each thread has its own connection,
closed when it ends."""
import threading

import pytest
from django.contrib.auth.models import Group, User
from django.db import close_old_connections, connection
from rest_framework.test import APIClient

from battles.access import battle_role
from battles.models import Battle, BattleEvent, BattleParticipant
from battles.services import NewEvent, battle_create, battle_event_append
from campaign.models import Campaign, Character, Membership, Nationality
from config.errors import ApplicationError

from .test_authorization import SETUP

pytestmark = pytest.mark.skipif("connection.vendor != 'postgresql'",
                                reason="the races of the optimistic path and the row locks need PostgreSQL")

OPENING = SETUP[:4]  # terrain, both forces, battle_started
THREADS = 8


def _player(campaign, battle, name, side):
    user = User.objects.create_user(username=name, password="pw-" + name)
    user.groups.add(Group.objects.get(name="player"))
    character = Character.objects.create(owner=user, name=name.title(), nationality=Nationality.objects.get(code="su"))
    Membership.objects.create(campaign=campaign, player=user, character=character, side=side, status="active")
    BattleParticipant.objects.create(battle=battle, side=side, character=character)
    return user


def _turns(n):
    """Each side's turn as the table records it: its postures, then its «Ход» (V-TURN-9, V-TURN-12)."""
    units = {"defender": {"D": "dug_in", "D2": "dug_in"}, "attacker": {"A": "recon"}}
    for turn in range(1, n + 1):
        for side in ("defender", "attacker"):
            yield side, NewEvent("postures_declared", {"side": side, "units": units[side]}, key=f"p-{side}-{turn}")
            yield side, NewEvent("turn_ended", {"side": side, "turn": turn}, key=f"t-{side}-{turn}")


def _all_at_once(battle_id, user, event, expected_seq, via):
    """``THREADS`` identical appends released together, through the service or HTTP; each answer as
    (status, the stored event's seq) or (status, error code)."""
    gate = threading.Barrier(THREADS)
    answers = []
    lock = threading.Lock()

    def send():
        close_old_connections()
        try:
            role = battle_role(battle_id=battle_id, user=user)
            client = APIClient()
            client.force_authenticate(user)
            body = {"expected_seq": expected_seq,
                    "events": [{"type": event.type, "data": event.data, "key": event.key}]}
            gate.wait(timeout=30)
            try:
                if via == "http":
                    r = client.post(f"/api/battles/{battle_id}/events/", body, format="json")
                    out = r.json()
                    answer = (r.status_code, out[0]["seq"] if r.status_code < 300 else out["error"]["code"])
                else:
                    res = battle_event_append(battle_id=battle_id, events=[event], expected_seq=expected_seq,
                                              recorded_by=user, role=role)
                    answer = (201 if res.created else 200, res.events[0].seq)
            except ApplicationError as exc:
                answer = (exc.status_code, exc.code)
            except Exception as exc:  # noqa: BLE001 - a 500: reported by the test
                answer = (500, repr(exc))
            with lock:
                answers.append(answer)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return answers


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("via", ["service", "http"])
@pytest.mark.parametrize("check_seq", [False, True], ids=["expected_seq-null", "expected_seq-right"])
def test_identical_keyed_appends_at_once_are_one_append(game_master, check_seq, via):
    campaign = Campaign.objects.create(name="Кампания", attacker_name="Вермахт", defender_name="РККА")
    battle = battle_create(campaign=campaign, name="Бой у переправы")
    users = {side: _player(campaign, battle, f"p_{side}", side) for side in ("attacker", "defender")}
    battle_event_append(battle_id=battle.id, events=[NewEvent(t, d) for t, d in OPENING], expected_seq=0,
                        as_game_master=True)
    for side, event in _turns(2):
        head = Battle.objects.values_list("head_seq", flat=True).get(pk=battle.id)
        answers = _all_at_once(battle.id, users[side], event, head if check_seq else None, via)
        statuses = sorted(a[0] for a in answers)
        assert statuses == [200] * (THREADS - 1) + [201], (event.type, event.key, answers)
        stored = list(BattleEvent.objects.filter(battle=battle, key=event.key).values_list("seq", flat=True))
        assert len(stored) == 1, event.key
        assert {a[1] for a in answers} == set(stored), "every answer is the one stored event"
        assert Battle.objects.values_list("head_seq", flat=True).get(pk=battle.id) == head + 1

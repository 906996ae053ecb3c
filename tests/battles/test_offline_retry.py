"""The battle table keeps working when the Wi-Fi drops (issue 30, docs/offline.md): the answers the
page's offline queue builds on. The connection drops after the server stored an entry but before the
page saw the answer: the page sends it again with the same key (``token``) and the head it expected,
and is answered as already stored (``already``), with the stored seq; nothing is stored twice. A
queued entry whose expected head another player moved on meanwhile gets the stale answer (409, the
fresh regions): the page shows them, and sends the entry again against the new head."""
from __future__ import annotations

import json

import pytest

from battles.models import BattleEvent
from battles.services import NewEvent, battle_event_append
from tests.battles import test_recording
from tests.battles.test_recording import _replayed, client_for, declare, hidden, last

table_battle = test_recording.table_battle  # a mustered battle, the defender to move, a player on each side

SCRIPT = {"HTTP_X_REQUESTED_WITH": "fetch", "HTTP_ACCEPT": "application/json", "HTTP_ACCEPT_LANGUAGE": "ru"}


def _body(page: str, form: str, data: dict, *, token: str) -> dict:
    return {"form": form, "expected_seq": hidden(page, "expected_seq"), "token": token, **data}


def _record(client, battle, body):
    return client.post(f"/battles/{battle.id}/record/", body, **SCRIPT)


def _moved(table_battle, token):
    """The defender's move stored under ``token`` and replayed: (his client, the form's body, the entry,
    how many events the battle holds)."""
    battle, users = table_battle
    c = client_for(users["defender"])
    declare(c, battle)
    page = c.get(f"/battles/{battle.id}/").content.decode()
    body = _body(page, "quick_move", {"quick_move-who": "f:d-r1", "quick_move-distance": "2"}, token=token)
    assert _record(c, battle, body).status_code == 200  # stored; the page may never see this answer
    stored = last(battle)
    _replayed(battle)
    return c, body, stored, BattleEvent.objects.filter(battle=battle).count()


@pytest.mark.django_db(transaction=True)
class TestARetriedKey:
    def test_an_entry_stored_before_the_drop_is_answered_as_stored_and_not_stored_twice(self, table_battle):
        battle, _users = table_battle
        c, body, stored, count = _moved(table_battle, "k-drop-1")  # the page never saw the answer (dropped)
        again = _record(c, battle, body)  # the queue's retry: the same key, the head it expected then (now stale)
        assert again.status_code == 200, again.content.decode()[:2000]
        assert json.loads(again.content) == {"recorded": stored.seq, "head_seq": stored.seq, "already": True}
        assert BattleEvent.objects.filter(battle=battle).count() == count
        assert BattleEvent.objects.filter(battle=battle, key="k-drop-1:quick_move").count() == 1

    def test_a_retry_whose_form_the_battle_no_longer_offers_is_still_answered_as_stored(self, table_battle):
        """The move ended the unit's movement: the retried form would now fail to validate (the fighter
        has moved), yet its key is stored by this player, so the answer is «already stored»."""
        battle, _users = table_battle
        c, body, stored, count = _moved(table_battle, "k-drop-2")
        broken = {**body, "quick_move-distance": ""}  # what a form the battle moved past might fail on
        again = _record(c, battle, broken)
        assert again.status_code == 200 and json.loads(again.content)["already"] is True
        assert json.loads(again.content)["recorded"] == stored.seq
        assert BattleEvent.objects.filter(battle=battle).count() == count

    def test_another_players_key_is_no_retry_of_his(self, table_battle):
        """A key is a retry only for whoever stored it (docs/events.md): the opponent's form under the
        same token is judged as a new entry (here: not his turn), and learns nothing of the stored one."""
        battle, users = table_battle
        _c, body, _stored, count = _moved(table_battle, "k-mine")
        other = _record(client_for(users["attacker"]), battle, {**body, "quick_move-distance": ""})
        assert other.status_code in (400, 403, 409, 422) and b'"already"' not in other.content
        assert BattleEvent.objects.filter(battle=battle).count() == count


@pytest.mark.django_db(transaction=True)
class TestAStaleHead:
    def test_a_queued_entry_behind_the_opponents_gets_the_fresh_regions_then_goes_against_the_new_head(
            self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        page = c.get(f"/battles/{battle.id}/").content.decode()
        # meanwhile, at the table, an entry by someone else (the game master records a morale test)
        battle_event_append(battle_id=battle.id, expected_seq=None, as_game_master=True, events=[NewEvent(
            "morale_test", {"unit": "att-sq", "die": {"value": 12, "source": "entered"}, "officer_distances": {}})])
        _replayed(battle)
        moved_to = last(battle).seq
        body = _body(page, "quick_move", {"quick_move-who": "f:d-r1", "quick_move-distance": "2"}, token="k-stale")
        stale = _record(c, battle, body)
        d = json.loads(stale.content)
        assert stale.status_code == 409 and d["head_seq"] == moved_to and "state_html" in d
        assert not BattleEvent.objects.filter(battle=battle, key__startswith="k-stale").exists()
        again = _record(c, battle, {**body, "expected_seq": str(d["head_seq"])})  # the page rebases it, same key
        assert again.status_code == 200
        assert json.loads(again.content)["recorded"] == moved_to + 1
        assert last(battle).recorded_by == users["defender"] and last(battle).key == "k-stale:quick_move"

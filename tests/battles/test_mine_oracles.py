"""No oracle for the enemy's hidden mines, byte for byte (issue 27 §2; V-SAP-3,
V-MINE-13, V-MINE-14). Each test compares whole answers, status and body, so
any difference a reader could see (a field, a word, an id, the order of a
check) turns it red:

* a key of a mine-laying event reaches nobody who may not see the event's
  content (no read of the battle holds it), and replaying that key, with a
  right or a wrong guess of the payload, answers exactly as the same event
  sent under a new key or none;
* a sapper's work on a guessed id of an unrevealed enemy mine, and the owner's
  events (revealed, triggered, detonated) named by the other side on it,
  answer exactly as the same on an id that does not exist, and change
  nothing.

On both paths of the event store (``store.OPTIMISTIC``; the optimistic one on
PostgreSQL only).
"""
from __future__ import annotations

import json

import pytest
from django.test import Client

from battles.models import Battle, BattleEvent, BattleParticipant, BattleProjection
from battles.services import NewEvent, battle_event_append

from . import test_hidden_information_answers as hidden
from .test_hidden_information_answers import LAY, LAY_KEY, OPENING, _client, _post, _remove_scenario

mined, path = hidden.mined, hidden.path  # the fixtures: the defender's mine laid with a key; both append paths
WORKER = []  # the replay worker of the running test (``replay_worker``: a real one under CI)


@pytest.fixture(autouse=True)
def _worker(replay_worker):
    WORKER[:] = [replay_worker]
    yield
    WORKER.clear()


def _settled(battle):
    """Wait until the battle's projection has folded its whole log: who may see what, and the state these
    tests compare, are read from it (it fails closed while a real worker is behind)."""
    head = Battle.objects.get(pk=battle.pk).head_seq
    assert WORKER[0].wait(battle.pk, head) is not None, f"battle {battle.pk} was not replayed up to {head}"
    return battle


def _answer(r):
    return r.status_code, r.content


def _snapshot(battle):
    """Everything an answer could have changed: the rows and the projected state."""
    _settled(battle)
    return (list(BattleEvent.objects.filter(battle=battle).order_by("seq").values_list("seq", "type", "data", "key")),
            BattleProjection.objects.get(battle=battle).state)


def _twin(battle):
    """A second battle with the same table and opening, and the defender's mine laid as ``m1`` is in ``battle``,
    but without it: what the attacker would see if ``m1`` did not exist (``m7`` stands for it, never laid)."""
    other = Battle.objects.create(campaign=battle.campaign, name="Второй бой", number=2)
    BattleProjection.objects.create(battle=other, state={}, engine_version=0)
    for p in BattleParticipant.objects.filter(battle=battle):
        BattleParticipant.objects.create(battle=other, side=p.side, character=p.character)
    battle_event_append(battle_id=other.id, events=[NewEvent(t, d) for t, d in OPENING], expected_seq=0,
                        as_game_master=True)
    other.users = battle.users
    r = _post(_client(other.users, "defender"), other.id, [{"type": "sapper_worked", "data": LAY}])
    assert r.status_code == 201, r.json()
    return other


# --- (a) the key ------------------------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ["attacker", "bystander", "anonymous"])
@pytest.mark.parametrize("guess", [LAY, {**LAY, "kind": "at"}, {**LAY, "object": "m2"}], ids=["right", "kind", "id"])
def test_v_mine_14_a_replayed_key_answers_byte_for_byte_as_a_new_event(mined, path, role, guess):
    before = _snapshot(mined)
    client = _client(mined.users, role)
    sent = {"type": "sapper_worked", "data": guess}
    replayed = _answer(_post(client, mined.id, [{**sent, "key": LAY_KEY}]))
    fresh = _answer(_post(client, mined.id, [{**sent, "key": "never-used"}]))
    bare = _answer(_post(client, mined.id, [sent]))
    assert replayed == fresh == bare
    assert replayed[0] in (401, 403) and b"m1" not in replayed[1] and LAY_KEY.encode() not in replayed[1]
    assert _snapshot(mined) == before


def _reads(battle, client):
    """Every read of the battle a reader can make: the API's events, state, verdict and feed, the page, its
    live answer."""
    _settled(battle)
    urls = [f"/api/battles/{battle.id}/events/", f"/api/battles/{battle.id}/state/",
            f"/api/battles/{battle.id}/log/verify/", "/api/events/", f"/api/battles/{battle.id}/",
            f"/battles/{battle.id}/", f"/battles/{battle.id}/live/?since=-1&state=-1"]
    return {url: client.get(url) for url in urls}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("role", ["attacker", "bystander", "anonymous", "defender", "game_master"])
def test_v_mine_14_the_key_of_a_mine_laying_reaches_only_those_who_see_its_content(mined, role):
    client = Client()
    if role != "anonymous":
        client.force_login(mined.users[role])
    seen = False
    for url, r in _reads(mined, client).items():
        assert r.status_code == 200, (url, r.status_code)
        seen |= LAY_KEY.encode() in r.content
    assert seen == (role in ("defender", "game_master"))


# --- (b) work on a guessed id -----------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_v_sap_3_removing_a_guessed_enemy_mine_answers_byte_for_byte_as_a_missing_id(mined, path):
    ghost_battle = _twin(mined)
    real = _remove_scenario(mined, "m1")
    ghost = _remove_scenario(ghost_battle, "m7")
    before = _snapshot(mined)
    assert real.status_code == ghost.status_code == 422
    assert real.content.replace(b"m1", b"m7") == ghost.content
    again = _post(_client(mined.users, "attacker"), mined.id,
                  [{"type": "sapper_worked", "data": {"sapper": "a_sap", "action": "remove", "object": "m1"}}])
    assert _answer(again) == _answer(real) and _snapshot(mined) == before
    mine = BattleProjection.objects.get(battle=_settled(mined)).state["mines"]["m1"]
    assert mine["active"] and not mine["revealed"] and mine["side"] == "defender"


OWNERS_EVENTS = {  # the defender's events on his mine, named by the attacker: (payload with the id as MINE)
    "mine_revealed": {"mine": "MINE", "sapper": "a_sap", "distance": 3},
    "mine_triggered": {"mine": "MINE", "distance": 1, "victims": [{"fighter": "a1", "distance": 1}]},
    "charge_detonated": {"charge": "MINE", "sapper": "a_sap", "officer": "a_sgt"},
}


def _named(payload, mine):
    return {k: (mine if v == "MINE" else v) for k, v in payload.items()}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("type_", sorted(OWNERS_EVENTS))
def test_v_mine_14_the_owners_events_on_a_guessed_mine_answer_as_on_a_missing_one(mined, path, type_):
    ghost_battle = _twin(mined)
    before = _snapshot(mined)
    attacker = _client(mined.users, "attacker")
    real = _post(attacker, mined.id, [{"type": type_, "data": _named(OWNERS_EVENTS[type_], "m1")}])
    ghost = _post(attacker, ghost_battle.id, [{"type": type_, "data": _named(OWNERS_EVENTS[type_], "m7")}])
    assert real.status_code == ghost.status_code, (real.json(), ghost.json())
    assert real.content.replace(b"m1", b"m7") == ghost.content
    assert _snapshot(mined) == before


def _stored(r, mine):
    """An append's answer without what differs between two battles (when and where the row was written)."""
    return [{k: v for k, v in e.items() if k not in ("position", "recorded_at")} for e in r.json()], mine


def _view(battle, role, mine):
    """What ``role`` reads of the battle's state and log, the id ``mine`` written as MINE."""
    _settled(battle)
    client = _client(battle.users, role)
    state = client.get(f"/api/battles/{battle.id}/state/").json()["state"]
    log = [{k: v for k, v in e.items() if k not in ("position", "recorded_at")}
           for e in client.get(f"/api/battles/{battle.id}/events/").json()["results"]]
    return json.dumps([state, log], sort_keys=True, ensure_ascii=False).replace(mine, "MINE")


@pytest.mark.django_db(transaction=True)
def test_v_sap_3_laying_a_mine_under_a_guessed_enemy_id_answers_as_under_a_new_one(mined, path):
    """The attacker's sapper lays a mine under the name of the defender's hidden one, or under a name nobody
    used: the answers match (201, the same stored event), the attacker reads the same of either battle, and
    the defender's mine stays his, active and hidden, beside the attacker's (``battles.engine.mines``)."""
    ghost_battle = _twin(mined)
    answers = {}
    for battle, mine in ((mined, "m1"), (ghost_battle, "m7")):
        r = _remove_scenario(battle, mine)  # the approach, then a remove (refused alike: nothing there he knows)
        assert r.status_code == 422
        r = _post(_client(battle.users, "attacker"), battle.id, [{"type": "sapper_worked", "data": {
            "sapper": "a_sap", "action": "lay", "object": mine, "kind": "ap"}}])
        assert r.status_code == 201, r.json()
        answers[mine] = r
    real, ghost = _stored(answers["m1"], "m1"), _stored(answers["m7"], "m7")
    assert json.dumps(real[0]).replace("m1", "m7") == json.dumps(ghost[0])
    assert _view(mined, "attacker", "m1") == _view(ghost_battle, "attacker", "m7")
    mines = BattleProjection.objects.get(battle=_settled(mined)).state["mines"]
    theirs, ours = mines["m1"], mines["m1~"]
    assert (theirs["side"], theirs["active"], theirs["revealed"]) == ("defender", True, False)
    assert (ours["id"], ours["side"], ours["laid_by"]) == ("m1", "attacker", "a_sap")
    # the defender reads the attacker's work as hidden work, and his own mine as before
    defender = _client(mined.users, "defender")
    last = defender.get(f"/api/battles/{mined.id}/events/").json()["results"][-1]
    assert last["data"] == {"sapper": "a_sap", "redacted": True}
    seen = defender.get(f"/api/battles/{mined.id}/state/").json()["state"]["mines"]
    assert seen["m1"]["side"] == "defender" and all(m["side"] == "defender" for m in seen.values())


@pytest.mark.django_db(transaction=True)
def test_v_mine_2_two_mines_of_one_name_each_go_off_for_their_own_side(mined):
    """After the attacker laid his ``m1`` beside the defender's hidden ``m1``, each side's ``mine_triggered``
    (recorded by the mine's owner, V-MINE-2) means the mine of the enemy of whoever set it off."""
    r = _remove_scenario(mined, "m1")
    assert r.status_code == 422
    r = _post(_client(mined.users, "attacker"), mined.id, [{"type": "sapper_worked", "data": {
        "sapper": "a_sap", "action": "lay", "object": "m1", "kind": "ap"}}])
    assert r.status_code == 201, r.json()

    def live():
        mines = BattleProjection.objects.get(battle=_settled(mined)).state["mines"]
        return {m["side"]: m["active"] for m in mines.values() if m["id"] == "m1"}

    assert live() == {"defender": True, "attacker": True}
    r = _post(_client(mined.users, "defender"), mined.id, [{"type": "mine_triggered", "data": {
        "mine": "m1", "distance": 1, "victims": [{"fighter": "a1", "distance": 1}]}}])
    assert r.status_code == 201, r.json()
    assert live() == {"defender": False, "attacker": True}
    r = _post(_client(mined.users, "attacker"), mined.id, [{"type": "mine_triggered", "data": {
        "mine": "m1", "distance": 1, "victims": [{"fighter": "d1", "distance": 1}]}}])
    assert r.status_code == 201, r.json()
    assert live() == {"defender": False, "attacker": False}

"""An armoured-train battle of a Flames of War campaign, appended through the
HTTP API by the game master and the two players and replayed by the Celery
task (eager here, a real worker process under CI). The expected outcomes were
worked out by hand from the F-TRAIN rows (comments cite them)."""
import pytest
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from battles.models import BattleParticipant
from battles.services import battle_create
from campaign.models import Campaign, Character, Membership, Nationality

D = lambda v: {"value": v, "source": "entered"}  # noqa: E731


def T(tid, kind="tank", **kw):  # noqa: N802
    return {"id": tid, "kind": kind, "armoured": kind != "infantry", **kw}


SETUP = [  # the game master: the table and both forces from the rosters
    {"type": "battle_started", "data": {"attacker": "РККА", "defender": "Вермахт", "ruleset": "fow", "units": "in"}},
    {"type": "force_mustered", "data": {"side": "attacker", "platoons": [
        {"id": "BP", "kind": "armoured_train", "name": "Бронепоезд «Илья Муромец»", "escorts": ["TS"],
         "teams": [T("loco", "train", locomotive=True, name="Паровоз"), T("w1", "train", name="Артвагон"),
                   T("w2", "train", name="Зенитная площадка")]},
        {"id": "TS", "kind": "tank", "name": "Танковый взвод поддержки", "teams": [T("ts1"), T("ts2")]}]}},
    {"type": "force_mustered", "data": {"side": "defender", "platoons": [
        {"id": "PZ", "kind": "tank", "name": "Взвод Pz IV", "teams": [T("pz1"), T("pz2")]},
        {"id": "GR", "kind": "infantry", "name": "Гренадеры", "teams": [T("gr1", "infantry")]}]}},
]
# laying the line before anything else happens (F-TRAIN-3): attacker, defender, attacker, attacker (F-TRAIN-4..7)
EDGES = [{"type": "railway_edges_chosen", "data": {"side": "attacker", "edges": "east_west"}}]
OPPONENT_POINT = [{"type": "railway_point_chosen", "data": {"side": "defender", "edge": "west", "position": 14}}]
OWN_POINT_AND_LINE = [
    {"type": "railway_point_chosen", "data": {"side": "attacker", "edge": "east", "position": 30}},
    {"type": "railway_line_laid", "data": {"side": "attacker", "length": 48, "bridges": 1,
                                           "buildings_moved": ["Водокачка"]}},
]
ATTACKER_1 = [
    # enters 12" for a 10" train with its escorts aboard (F-TRAIN-14, F-TRAIN-15, F-TRAIN-16)
    {"type": "train_entered", "data": {"train": "BP", "distance": 12, "train_length": 10}},
    {"type": "escort_left_train", "data": {"platoon": "TS", "distance": 4}},  # F-TRAIN-25: the extra 4"
    {"type": "team_shot", "data": {"shooter": "w1", "target": "pz1", "dice": [D(5)]}},  # moved: 1 die (G-F1)
    {"type": "status_set", "data": {"subject": "pz1", "status": "destroyed", "reason": "Артвагон"}},
    {"type": "turn_ended", "data": {"side": "attacker", "turn": 1}},
]
DEFENDER_1 = [
    {"type": "team_shot", "data": {"shooter": "pz2", "target": "loco", "dice": [D(6), D(2)]}},  # stationary: 2 dice
    {"type": "status_set", "data": {"subject": "loco", "status": "bailed_out", "reason": "Pz IV"}},
    {"type": "turn_ended", "data": {"side": "defender", "turn": 1}},
]
ATTACKER_2 = [
    {"type": "status_set", "data": {"subject": "loco", "status": "bailed_out", "value": False, "reason": "Remounted"}},
    # 16" forward, pushing the burning Pz IV off the track (F-TRAIN-19, F-TRAIN-23): front at 28"
    {"type": "train_moved", "data": {"train": "BP", "distance": 16, "wrecks_pushed": ["pz1"]}},
    {"type": "team_moved", "data": {"team": "ts1", "distance": 10}},
    {"type": "turn_ended", "data": {"side": "attacker", "turn": 2}},
]
DEFENDER_2 = [{"type": "turn_ended", "data": {"side": "defender", "turn": 2}}]
ATTACKER_3 = [
    # 16" more: the front at 44" of a 48" line, still on the table; then it runs off next turn
    {"type": "train_moved", "data": {"train": "BP", "distance": 16}},
    {"type": "turn_ended", "data": {"side": "attacker", "turn": 3}},
]
DEFENDER_3 = [{"type": "turn_ended", "data": {"side": "defender", "turn": 3}}]
ATTACKER_4 = [
    {"type": "train_moved", "data": {"train": "BP", "distance": 5}},  # front at 49" > 48": the train left (F-TRAIN-22)
    {"type": "battle_ended", "data": {"winner": "attacker", "reason": "Бронепоезд прорвался"}},
]


def _player(name, campaign, battle, side):
    user = User.objects.create_user(username=name, password="pw-" + name)
    user.groups.add(Group.objects.get(name="player"))
    character = Character.objects.create(owner=user, name=name.title(), nationality=Nationality.objects.get(code="su"))
    Membership.objects.create(campaign=campaign, player=user, character=character, side=side, status="active")
    BattleParticipant.objects.create(battle=battle, side=side, character=character)
    client = APIClient()
    client.force_authenticate(user)
    return client


def post(client, battle, events, expected_seq, status=201):
    r = client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": expected_seq, "events": events},
                    format="json")
    assert r.status_code == status, r.json()
    return expected_seq + len(events) if status == 201 else r.json()["error"]


@pytest.mark.django_db(transaction=True)
def test_an_armoured_train_battle_end_to_end_through_the_api_and_the_worker(game_master, replay_worker):
    campaign = Campaign.objects.create(name="Бронепоезда", ruleset="fow", attacker_name="РККА",
                                       defender_name="Вермахт")
    battle = battle_create(campaign=campaign, name="Бой у разъезда")
    red, blue = _player("petrov", campaign, battle, "attacker"), _player("hans", campaign, battle, "defender")
    gm = APIClient()
    gm.force_authenticate(game_master)

    seq = post(gm, battle, SETUP, 0)
    seq = post(red, battle, EDGES, seq)
    # the first point is the opponent's: the train's player is refused by the rule (F-TRAIN-5) ...
    err = post(red, battle, [{"type": "railway_point_chosen", "data": {"side": "attacker", "edge": "west",
                                                                      "position": 1}}], seq, status=422)
    assert err["rule_id"] == "F-TRAIN-5"
    # ... and nobody records the other player's choice (the recorder check, before the rules)
    err = post(red, battle, OPPONENT_POINT, seq, status=403)
    assert err["code"] == "not_your_side"
    seq = post(blue, battle, OPPONENT_POINT, seq)
    seq = post(red, battle, OWN_POINT_AND_LINE, seq)

    seq = post(red, battle, ATTACKER_1, seq)
    seq = post(blue, battle, DEFENDER_1, seq)
    # a Bailed Out Locomotive holds the train (F-TRAIN-20)
    err = post(red, battle, [{"type": "train_moved", "data": {"train": "BP", "distance": 5}}], seq, status=422)
    assert err["rule_id"] == "F-TRAIN-20"
    seq = post(red, battle, ATTACKER_2, seq)
    seq = post(blue, battle, DEFENDER_2, seq)
    # 16"/40 cm a turn at most (F-TRAIN-19)
    err = post(red, battle, [{"type": "train_moved", "data": {"train": "BP", "distance": 16.5}}], seq, status=422)
    assert err["rule_id"] == "F-TRAIN-19"
    seq = post(red, battle, ATTACKER_3, seq)
    seq = post(blue, battle, DEFENDER_3, seq)
    seq = post(red, battle, ATTACKER_4[:1], seq)
    # gone for good: its wagons no longer shoot (F-TRAIN-22)
    err = post(red, battle, [{"type": "team_shot", "data": {"shooter": "w2", "target": "pz2", "dice": [D(4)]}}],
               seq, status=422)
    assert err["rule_id"] == "F-TRAIN-22"
    seq = post(gm, battle, ATTACKER_4[1:], seq)

    assert replay_worker.wait(battle.id, seq) is not None
    body = red.get(f"/api/battles/{battle.id}/state/").json()
    assert body["seq"] == seq == body["head_seq"]
    s = body["state"]
    assert (s["ruleset"], s["status"], s["winner"], s["turn"]) == ("fow", "ended", "attacker", 4)
    line = s["railway_lines"]["attacker"]
    assert (line["laid"], line["edges"], line["opponent_edge"], line["opponent_point"], line["own_edge"],
            line["own_point"], line["length"], line["bridges"], line["buildings_moved"]) == (
        True, "east_west", "west", 14, "east", 30, 48, 1, ["Водокачка"])
    bp = s["trains"]["BP"]
    assert (bp["where"], bp["line"], bp["position"], bp["length"], bp["entered_ply"]) == ("left", "attacker", 49, 10, 0)
    assert bp["escorts_aboard"] == [] and bp["wrecks_pushed"] == ["pz1"]
    assert s["platoons"]["TS"]["train"] == "BP"
    t = s["teams"]
    assert t["pz1"]["destroyed"] and t["pz1"]["wreck"] and not t["pz2"]["destroyed"]
    assert not t["loco"]["bailed_out"] and t["loco"]["moved_ply"] == 6 == t["w2"]["moved_ply"]
    assert t["ts1"]["moved_ply"] == 2 and t["ts2"]["moved_ply"] == 0  # left the train in turn 1, moved on in turn 2

"""Only the people at the table write the log (issue 8, section 2).

Per event type and per role: anonymous, a player of each side, a player of
the campaign who is not in this battle, a player of another campaign, and
the game master. A refused request stores nothing. The expected recorder of
each sample below is written by hand from the rules (battles/engine/actors.py
cites them), so a wrong policy turns these red; a newly registered type
without a sample fails ``test_every_registered_type_has_a_sample``.
"""
import json

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from battles import engine
from battles.access import battle_role
from battles.models import Battle, BattleEvent, BattleParticipant
from battles.services import NewEvent, battle_create, battle_event_append
from campaign.models import Campaign, Character, Membership, Nationality
from campaign.roles import GAME_MASTER

D = lambda v: {"value": v, "source": "entered"}  # noqa: E731


def F(fid, unit="", cls="rifleman", rank="", **kw):  # noqa: N802
    return {"id": fid, "unit": unit, "cls": "officer" if rank and cls == "rifleman" else cls, "rank": rank, **kw}


# The game master sets the table up; the defender's sappers lay a mine m1 and a
# charge c1 (V-SAP-2, V-SAP-3); a morale test of 1 makes d9 the attacker's prisoner (V-TEST-3).
SETUP = [
    ("terrain_placed", {"houses": ["H"], "wire": ["W1"]}),
    ("force_mustered", {"side": "attacker", "units": [{"id": "A", "commander": "a_sgt", "posture": "recon"}],
                        "fighters": [F("a_sgt", "A", rank="sergeant"), F("a1", "A"), F("a2", "A"),
                                     F("a_sap", "A", "sapper"), F("a_tc", rank="corporal"), F("a_tp", cls="personnel")],
                        "vehicles": [{"id": "T34", "armour": 3, "gun": 4, "crew": ["a_tc", "a_tp"]}]}),
    ("force_mustered", {"side": "defender", "units": [{"id": "D", "commander": "d_sgt"}, {"id": "D2"}],
                        "fighters": [F("d_sgt", "D", rank="sergeant"), F("d1", "D"), F("d_sap1", "D", "sapper"),
                                     F("d_sap2", "D", "sapper"), F("d9", "D2"), F("d_tc", rank="corporal"),
                                     F("d_tp", cls="personnel")],
                        "vehicles": [{"id": "PzIV", "armour": 4, "gun": 4, "crew": ["d_tc", "d_tp"]}]}),
    ("battle_started", {"attacker": "Вермахт", "defender": "РККА"}),
    ("postures_declared", {"side": "defender", "units": {"D": "dug_in", "D2": "dug_in"}}),
    ("sapper_approached", {"sapper": "d_sap1", "object": "m1", "distance": 2}),
    ("sapper_approached", {"sapper": "d_sap2", "object": "c1", "distance": 2}),
    ("turn_ended", {"side": "defender", "turn": 1}),
    ("postures_declared", {"side": "attacker", "units": {"A": "recon"}}),
    ("turn_ended", {"side": "attacker", "turn": 1}),
    ("postures_declared", {"side": "defender", "units": {"D": "dug_in", "D2": "dug_in"}}),
    ("sapper_worked", {"sapper": "d_sap1", "action": "lay", "object": "m1", "kind": "ap"}),
    ("sapper_worked", {"sapper": "d_sap2", "action": "lay", "object": "c1", "kind": "charge"}),
    ("morale_test", {"unit": "D2", "die": D(1), "enemy_distances": {"d9": 5}}),
]

# type -> (payload, who records it: "attacker" | "defender" | "either" | "game_master")
SAMPLES = {
    "battle_started": ({"attacker": "A", "defender": "D"}, "either"),
    "battle_ended": ({"winner": "draw", "reason": "ничья"}, "either"),
    "terrain_placed": ({"houses": ["H2"]}, "either"),
    "morale_test": ({"unit": "D", "die": D(15), "officer_distances": {"d_sgt": 30}}, "either"),
    "correction": ({"voids_seq": 5, "reason": "ошибка"}, "game_master"),  # the first entry after the set-up
    "force_mustered": ({"side": "attacker", "fighters": [F("a9")]}, "game_master"),
    "turn_ended": ({"side": "defender", "turn": 2}, "defender"),
    "player_done": ({"side": "defender", "turn": 2, "player": "ivan"}, "defender"),
    "postures_declared": ({"side": "attacker", "units": {"A": "assault"}}, "attacker"),
    "fighters_moved": ({"side": "defender", "fighters": ["d1"], "distance": 0}, "defender"),
    "vehicle_moved": ({"vehicle": "PzIV", "distance": 1}, "defender"),
    "fire": ({"shooter": "d1", "weapon": "rifle", "target": "fighters", "distance": 6,
              "struck": [{"fighter": "a1", "die": D(5)}]}, "defender"),
    "smoke_fired": ({"shooter": "a1", "officer": "a_sgt", "officer_distance": 3, "smoke": "s1"}, "attacker"),
    "fire_corrected": ({"corrector": "a_sgt", "shooter": "T34", "target": "x"}, "attacker"),
    "melee": ({"attacker": "d1", "defender": "a1", "distance": 1,
               "rolls": [{"attacker": D(12), "defender": D(3)}]}, "defender"),
    "wound_test": ({"fighter": "a1", "die": D(12)}, "attacker"),
    "order_given": ({"officer": "d_sgt", "unit": "D", "distance": 1}, "defender"),
    "prisoner_taken": ({"captor": "a1", "prisoner": "d1", "distance": 1}, "attacker"),
    # V-POW-7: the prisoner's own army frees him
    "prisoner_freed": ({"prisoner": "d9", "officer": "d_sgt", "officer_distance": 1}, "defender"),
    # V-POW-2, V-POW-4: his captors (the attacker) decide about the defender's d9
    "prisoner_handled": ({"prisoner": "d9", "action": "leave"}, "attacker"),
    # V-CAPT-5: the side capturing the defender's tank rolls the test
    "capture_attempted": ({"vehicle": "PzIV", "infantry": {"a1": 1}, "surrounded": True, "nearest_friendly": None,
                           "die": D(12)}, "attacker"),
    "embarked": ({"vehicle": "T34", "fighters": ["a1"], "role": "riders"}, "attacker"),
    "disembarked": ({"vehicle": "PzIV", "fighters": ["d1"], "distance": 1}, "defender"),
    "crew_boarded": ({"vehicle": "T34", "fighters": ["a2"]}, "attacker"),
    "crew_dismounted": ({"vehicle": "T34", "fighters": ["a_tc"], "distance": 1}, "attacker"),
    "vehicle_boarded": ({"vehicle": "PzIV", "fighter": "a1"}, "attacker"),
    "sapper_approached": ({"sapper": "a_sap", "object": "W1", "distance": 2}, "attacker"),
    "sapper_worked": ({"sapper": "a_sap", "action": "remove", "object": "W1"}, "attacker"),
    "charge_detonated": ({"charge": "c1", "sapper": "d_sap2", "officer": "d_sgt"}, "defender"),
    # V-MINE-2, V-MINE-14: the mine's owner records its blast and must show it to an enemy sapper
    "mine_triggered": ({"mine": "m1", "distance": 1, "victims": [{"fighter": "a1", "distance": 1}]}, "defender"),
    "mine_revealed": ({"mine": "m1", "sapper": "a_sap", "distance": 5}, "defender"),
}
HIDDEN = {"mine_triggered": "mine", "mine_revealed": "mine", "charge_detonated": "charge"}  # V-MINE-14
ROLES = ("anonymous", "attacker", "defender", "bystander", "foreigner", "game_master")


def _user(name, group="player"):
    user = User.objects.create_user(username=name, password="pw-" + name)
    if group:
        user.groups.add(Group.objects.get(name=group))
    return user


def _member(campaign, user, side):
    character = Character.objects.create(owner=user, name=user.username.title(),
                                         nationality=Nationality.objects.get(code="su"))
    Membership.objects.create(campaign=campaign, player=user, character=character, side=side, status="active")
    return character


@pytest.fixture
def table(db, game_master):
    """A battle of two participants; a member of the same campaign who does not
    fight in it; a player of another campaign, who fights in a battle there."""
    campaign = Campaign.objects.create(name="Кампания", attacker_name="Вермахт", defender_name="РККА")
    battle = battle_create(campaign=campaign, name="Бой за мост")
    users = {"game_master": game_master}
    for side in ("attacker", "defender"):
        users[side] = _user(f"p_{side}")
        BattleParticipant.objects.create(battle=battle, side=side, character=_member(campaign, users[side], side))
    users["bystander"] = _user("bystander")
    _member(campaign, users["bystander"], "attacker")
    other = Campaign.objects.create(name="Другая кампания")
    users["foreigner"] = _user("foreigner")
    there = battle_create(campaign=other, name="Чужой бой")
    BattleParticipant.objects.create(battle=there, side="defender", character=_member(other, users["foreigner"],
                                                                                        "defender"))
    battle_event_append(battle_id=battle.id, events=[NewEvent(t, d) for t, d in SETUP], expected_seq=0,
                        as_game_master=True)
    battle.refresh_from_db()
    battle.users = users
    return battle


def client_of(table, role):
    c = APIClient()
    if role != "anonymous":
        c.force_authenticate(table.users[role])
    return c


def post(client, battle, events, expected_seq=None):
    return client.post(f"/api/battles/{battle.id}/events/", {"expected_seq": expected_seq, "events": events},
                       format="json")


def stored(battle):
    return BattleEvent.objects.filter(battle=battle).count(), Battle.objects.get(pk=battle.pk).head_seq


def test_every_registered_type_has_a_sample():
    assert set(SAMPLES) == set(engine.REGISTRY)


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("type_", sorted(engine.REGISTRY))
def test_who_records_each_event_type(table, type_, role):
    payload, recorder = SAMPLES[type_]
    before = stored(table)
    r = post(client_of(table, role), table, [{"type": type_, "data": payload}])
    body = r.json()
    if role == "anonymous":
        assert r.status_code in (401, 403)
    elif role in ("bystander", "foreigner"):
        assert r.status_code == 403 and body["error"]["code"] == "not_a_participant"
    elif role == "game_master" or recorder in ("either", role):
        # allowed: stored, or refused by the rules themselves (never 403)
        assert r.status_code in (201, 422), body
    elif type_ in HIDDEN:
        # an enemy's unrevealed mine or charge is refused as if it did not exist (V-MINE-14)
        assert r.status_code == 422 and body["error"]["rule_id"] == "S-UNKNOWN", body
    else:
        assert r.status_code == 403, body
        err = body["error"]
        assert err["code"] == ("game_master_only" if recorder == "game_master" else "not_your_side")
        assert err["index"] == 0 and err["field"] == "events[0].type"
        assert err["recorded_by"] == recorder
        title = engine.REGISTRY[type_]
        assert title.title_ru in err["message_ru"] and title.title_en in err["message_en"]
        assert "attacker" not in err["message_en"] and "defender" not in err["message_en"]  # names, not enums
    if r.status_code == 201:
        assert stored(table) == (before[0] + 1, before[1] + 1)
    else:
        assert stored(table) == before


@pytest.mark.django_db
class TestStrangers:
    @pytest.mark.parametrize("role", ["bystander", "foreigner"])
    def test_a_stranger_is_403_even_for_malformed_json_and_learns_nothing(self, table, role):
        c = client_of(table, role)
        before = stored(table)
        r = c.post(f"/api/battles/{table.id}/events/", "{not json", content_type="application/json")
        assert r.status_code == 403
        stale = post(c, table, [{"type": "battle_ended", "data": {"winner": "draw"}}], expected_seq=0)
        assert stale.status_code == 403
        assert stale.json() == r.json()  # the same answer, whatever the body and the battle's state
        assert "current_seq" not in stale.json()["error"]
        assert stored(table) == before

    def test_anonymous_is_refused_before_the_body_is_read(self, table):
        r = APIClient().post(f"/api/battles/{table.id}/events/", "{not json", content_type="application/json")
        assert r.status_code in (401, 403)
        assert stored(table)[0] == len(SETUP)

    def test_a_participant_of_another_battle_of_the_campaign_may_not_write_here(self, table):
        elsewhere = battle_create(campaign=table.campaign, name="Соседний бой")
        BattleParticipant.objects.create(battle=elsewhere, side="attacker",
                                         character=table.users["bystander"].characters.get())
        r = post(client_of(table, "bystander"), table, [{"type": "battle_ended", "data": {"winner": "draw"}}])
        assert r.status_code == 403 and stored(table)[0] == len(SETUP)

    def test_reads_stay_open(self, table):
        assert APIClient().get(f"/api/battles/{table.id}/events/").status_code == 200


@pytest.mark.django_db
class TestParticipants:
    def test_a_batch_with_one_enemy_event_is_refused_whole_naming_its_index(self, table):
        before = stored(table)
        r = post(client_of(table, "defender"), table, [
            {"type": "fire", "data": SAMPLES["fire"][0]},
            {"type": "wound_test", "data": SAMPLES["wound_test"][0]},
        ])
        assert r.status_code == 403
        err = r.json()["error"]
        assert err["index"] == 1 and err["field"] == "events[1].type"
        assert "Вермахт" in err["message_ru"] and "Вермахт" in err["message_en"]  # the side's name, not its enum
        assert stored(table) == before

    def test_each_event_is_judged_against_the_state_before_it(self, table):
        """The defender ends his turn and... may not then move for the attacker,
        but the attacker's own events after a side change are his."""
        r = post(client_of(table, "defender"), table, [{"type": "turn_ended", "data": {"side": "defender", "turn": 2}}])
        assert r.status_code == 201
        r = post(client_of(table, "attacker"), table, [
            {"type": "postures_declared", "data": {"side": "attacker", "units": {"A": "assault"}}},
            {"type": "fire", "data": {"shooter": "a1", "weapon": "rifle", "target": "fighters", "distance": 6,
                                      "struck": [{"fighter": "d1", "die": D(14)}]}},
        ])
        assert r.status_code == 201, r.json()
        assert [e["recorded_by"] for e in r.json()] == ["p_attacker", "p_attacker"]

    def test_an_unknown_piece_is_refused_by_the_rules_not_by_the_recorder_check(self, table):
        for role in ("attacker", "defender"):
            r = post(client_of(table, role), table, [{"type": "fire", "data": {
                "shooter": "ghost", "weapon": "rifle", "target": "fighters", "distance": 6,
                "struck": [{"fighter": "a1", "die": D(5)}]}}])
            assert r.status_code == 422 and r.json()["error"]["rule_id"] == "S-UNKNOWN"
        assert stored(table)[0] == len(SETUP)

    @pytest.mark.parametrize("type_", sorted(HIDDEN))
    def test_an_enemy_hidden_mine_is_refused_exactly_as_a_missing_one(self, table, type_):
        """V-MINE-14: until revealed, the attacker cannot tell the defender's
        mine from no mine at all: same status, rule and text."""
        payload = dict(SAMPLES[type_][0])
        field = HIDDEN[type_]
        real = post(client_of(table, "attacker"), table, [{"type": type_, "data": payload}]).json()["error"]
        ghost = post(client_of(table, "attacker"), table,
                     [{"type": type_, "data": {**payload, field: "nope"}}]).json()["error"]
        assert real["rule_id"] == ghost["rule_id"] == "S-UNKNOWN"
        assert real["message_en"].replace(payload[field], "nope") == ghost["message_en"]
        assert real["message_ru"].replace(payload[field], "nope") == ghost["message_ru"]
        assert stored(table)[0] == len(SETUP)

    def test_the_owner_records_the_blast_of_his_mine(self, table):
        """V-MINE-2: a1 ended his move within 2" of the defender's mine: the
        defender (the mine's owner, a1's opponent) records it; a1 is wounded."""
        r = post(client_of(table, "defender"), table, [{"type": "mine_triggered",
                                                       "data": SAMPLES["mine_triggered"][0]}])
        assert r.status_code == 201, r.json()

    def test_the_captors_decide_about_their_prisoner(self, table):
        """V-POW-4: d9 surrendered to the attacker, who leaves him in place."""
        body = {"type": "prisoner_handled", "data": {"prisoner": "d9", "action": "leave"}}
        assert post(client_of(table, "defender"), table, [body]).status_code == 403
        assert post(client_of(table, "attacker"), table, [body]).status_code in (201, 422)


@pytest.mark.django_db
class TestService:
    def test_a_role_that_may_not_record_is_refused_before_the_batch_is_read(self, table):
        from battles.access import ONLOOKER
        from config.errors import Forbidden

        with pytest.raises(Forbidden) as exc:
            battle_event_append(battle_id=table.id, events=[NewEvent("no_such_type", "junk")], expected_seq=0,
                                role=ONLOOKER)
        assert exc.value.code == "not_a_participant"
        assert exc.value.message_ru != exc.value.message_en
        assert stored(table)[0] == len(SETUP)

    def test_a_side_role_may_not_record_the_other_sides_event(self, table):
        from battles.access import battle_role
        from config.errors import Forbidden

        role = battle_role(battle_id=table.pk, user=table.users["attacker"])
        assert role.side == "attacker"
        with pytest.raises(Forbidden) as exc:
            battle_event_append(battle_id=table.id, events=[NewEvent("fire", SAMPLES["fire"][0])],
                                expected_seq=None, role=role)
        assert exc.value.extra["recorded_by"] == "defender"
        assert stored(table)[0] == len(SETUP)

    def test_the_game_master_role_records_anything(self, table):
        from battles.access import battle_role

        role = battle_role(battle_id=table.pk, user=table.users["game_master"])
        r = battle_event_append(battle_id=table.id, events=[NewEvent("correction", SAMPLES["correction"][0])],
                                expected_seq=None, role=role)
        assert r.created


@pytest.mark.django_db
def test_event_types_say_who_records_them(anon_client):
    body = {t["type"]: t for t in anon_client.get("/api/event-types/").json()["results"]}
    for name, (_, recorder) in SAMPLES.items():
        who = body[name]["recorded_by"]
        assert who["kind"] in engine.actors.KINDS and who["text_ru"] and who["text_en"]
        assert who["text_ru"] != who["text_en"]
        if recorder in ("either", "game_master"):
            assert who["kind"] == recorder
    assert body["force_mustered"]["game_master_only"] and body["correction"]["game_master_only"]
    assert body["mine_triggered"]["recorded_by"]["kind"] == "opponent"
    assert json.dumps(body)  # plain JSON


@pytest.mark.django_db
def test_the_game_master_role_not_the_admin_flag_runs_the_table():
    """Who runs every battle is the game-master role (or a superuser), not Django's staff flag: a staff
    member without the role is an onlooker at a battle he does not play in, and a game master without
    the flag records anything."""
    battle = battle_create(campaign=Campaign.objects.create(name="Роли"), name="Бой")
    clerk = User.objects.create_user("clerk", password="not-a-secret", is_staff=True)
    master = User.objects.create_user("master2", password="not-a-secret")
    master.groups.add(Group.objects.get(name=GAME_MASTER))
    clerk_role, master_role = battle_role(battle_id=battle.id, user=clerk), battle_role(battle_id=battle.id, user=master)
    assert not clerk_role.is_game_master and not clerk_role.may_record
    assert master_role.is_game_master and master_role.may_record

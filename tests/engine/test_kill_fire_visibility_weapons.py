"""Issue 11: the pure helpers next to fire. ``visibility`` (V-MINE-1, V-SAP-3,
V-MINE-14: who may know of a mine, a charge or a sapper's secret target) on
hand-built JSON states, and ``weapons`` (V-SMOKE-1, V-ROCKET-1, V-AA-4, V-AA-5:
the weapon table shared with the roster)."""
import pytest

from battles.engine import weapons
from battles.engine.visibility import REDACTED, _object_known, event_for, mine_known, state_for

# --- mine_known (V-MINE-14) ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("mine", "side", "gm", "known"), [
    (None, "attacker", True, True), (None, None, True, True), (None, "attacker", False, False),
    ({"side": "defender"}, "defender", False, True), ({"side": "defender"}, "attacker", False, False),
    ({"side": "defender"}, None, False, False), ({"side": "defender", "revealed": True}, "attacker", False, True),
    ({"side": "defender", "revealed": True}, None, False, True), ({"side": "defender", "revealed": False}, None, False,
                                                                  False),
    ({"side": "defender"}, "defender", True, True), ({}, None, False, False),
])
def test_v_mine_14_who_knows_a_mine(mine, side, gm, known):
    assert mine_known(mine, side, game_master=gm) is known


# --- _object_known (V-SAP-3) ----------------------------------------------------------------------------------------


STATE = {"wire": {"W": {"id": "W"}}, "mines": {"m1": {"side": "defender"}, "m2": {"side": "defender", "revealed": True}}}


@pytest.mark.parametrize(("obj", "owner", "side", "gm", "known"), [
    ("W", "defender", "attacker", False, True), ("W", "defender", None, False, True),
    ("m1", "defender", "attacker", False, False), ("m1", "attacker", "attacker", False, False),
    ("m1", "defender", "defender", False, True), ("m2", "defender", "attacker", False, True),
    ("spot", "defender", "defender", False, True), ("spot", "defender", "attacker", False, False),
    ("spot", None, None, False, False), ("spot", "defender", None, False, False),
    ("m1", "defender", "attacker", True, True), ("spot", "defender", None, True, True),
])
def test_v_sap_3_a_sappers_object_is_known_by_its_kind(obj, owner, side, gm, known):
    assert _object_known(STATE, obj, owner, side, game_master=gm) is known


def test_v_sap_3_a_state_without_wire_or_mines_keys_knows_only_the_own_side_s_spot():
    assert _object_known({"wire": None, "mines": None}, "W", "defender", "defender", game_master=False) is True
    assert _object_known({}, "W", "defender", "attacker", game_master=False) is False


# --- state_for (V-MINE-1) -------------------------------------------------------------------------------------------


def full_state():
    return {
        "turn": 3,
        "wire": {"W": {"id": "W"}},
        "mines": {"m1": {"side": "defender"}, "m2": {"side": "attacker"}, "m3": {"side": "defender", "revealed": True}},
        "fighters": {
            "d_sap": {"side": "defender", "sapper_object": "m1"},
            "d_sap2": {"side": "defender", "sapper_object": "W"},
            "a_sap": {"side": "attacker", "sapper_object": "spot"},
            "d1": {"side": "defender", "sapper_object": ""},
        },
    }


def test_v_mine_1_the_game_master_sees_the_state_itself():
    s = full_state()
    assert state_for(s, None, game_master=True) is s


def test_v_mine_1_each_side_sees_its_own_and_the_revealed_mines_and_its_own_sappers_targets():
    s = full_state()
    att = state_for(s, "attacker", game_master=False)
    assert sorted(att["mines"]) == ["m2", "m3"] and att["turn"] == 3 and att["wire"] == s["wire"]
    assert att["fighters"]["d_sap"] == {"side": "defender", "sapper_object": ""}
    assert att["fighters"]["d_sap2"]["sapper_object"] == "W"  # wire is in plain sight
    assert att["fighters"]["a_sap"]["sapper_object"] == "spot"
    assert att["fighters"]["d1"] == {"side": "defender", "sapper_object": ""}
    dfn = state_for(s, "defender", game_master=False)
    assert sorted(dfn["mines"]) == ["m1", "m3"]
    assert dfn["fighters"]["d_sap"]["sapper_object"] == "m1" and dfn["fighters"]["a_sap"]["sapper_object"] == ""
    onlooker = state_for(s, None, game_master=False)
    assert sorted(onlooker["mines"]) == ["m3"]
    assert onlooker["fighters"]["d_sap"]["sapper_object"] == "" == onlooker["fighters"]["a_sap"]["sapper_object"]
    assert s == full_state()  # the input is left as it was


def test_v_mine_1_nothing_hidden_keeps_the_fighters_as_they_are():
    s = full_state()
    s["fighters"] = {"d1": {"side": "defender", "sapper_object": "W"}}
    out = state_for(s, "attacker", game_master=False)
    assert out["fighters"] is s["fighters"] and out is not s


def test_v_mine_1_a_state_without_mines_or_fighters():
    out = state_for({"turn": 1}, "attacker", game_master=False)
    assert out == {"turn": 1, "mines": {}}


# --- event_for (V-MINE-1, V-SAP-3) ----------------------------------------------------------------------------------


@pytest.mark.parametrize("type_", ["sapper_worked", "sapper_approached"])
def test_v_sap_3_the_enemy_sees_a_sapper_at_work_without_the_object(type_):
    s = full_state()
    data = {"sapper": "d_sap", "object": "m1", "distance": 2.0, "kind": "ap", "action": "lay"}
    assert event_for(type_, data, side="attacker", game_master=False, state=s) == {
        "sapper": "d_sap", "distance": 2.0, REDACTED: True}
    assert event_for(type_, data, side=None, game_master=False, state=s) == {
        "sapper": "d_sap", "distance": 2.0, REDACTED: True}
    assert event_for(type_, data, side="defender", game_master=False, state=s) is data
    assert event_for(type_, data, side="attacker", game_master=True, state=s) is data


def test_v_sap_3_without_a_distance_only_the_sapper_is_kept():
    s = full_state()
    data = {"sapper": "d_sap", "object": "m1", "action": "lay"}
    assert event_for("sapper_worked", data, side="attacker", game_master=False, state=s) == {
        "sapper": "d_sap", REDACTED: True}


def test_v_mine_14_work_on_a_revealed_mine_or_on_wire_is_seen_whole():
    s = full_state()
    for obj in ("m3", "W"):
        data = {"sapper": "d_sap", "object": obj, "distance": 1.0}
        assert event_for("sapper_worked", data, side="attacker", game_master=False, state=s) is data


def test_other_events_are_never_redacted():
    s = full_state()
    data = {"sapper": "d_sap", "object": "m1"}
    assert event_for("mine_triggered", data, side="attacker", game_master=False, state=s) is data


def test_v_sap_3_an_unknown_sapper_fails_closed():
    s = full_state()
    data = {"sapper": "ghost", "object": "spot", "distance": 3.0}
    assert event_for("sapper_approached", data, side="attacker", game_master=False, state=s)[REDACTED] is True
    assert event_for("sapper_approached", data, side=None, game_master=False, state={})[REDACTED] is True


# --- weapons (V-SMOKE-1, V-ROCKET-1, V-AA-4, V-AA-5) ------------------------------------------------------------------


@pytest.mark.parametrize(("weapon", "gun", "minimum", "smoke"), [
    ("howitzer", None, 3, True), ("rocket_mortar", 1, 3, True), ("mortar", 0, 3, True),
    ("heavy_tank_howitzer", 1, 9, True), ("gun", 3, 3, True), ("gun", 2, 3, False), ("gun", None, 3, False),
    ("gun", 2, 2, True), ("aa_gun", 3, 3, True), ("aa_gun", 2, 3, False), ("at_gun", 6, 3, False),
    ("aa_autocannon", 6, 3, False), ("vehicle_mg", 6, 3, False), ("none", 6, 0, False),
])
def test_v_smoke_1_which_weapons_have_smoke(weapon, gun, minimum, smoke):
    assert weapons.has_smoke(weapon, gun, minimum) is smoke


@pytest.mark.parametrize(("kind", "gun_type", "gun_class", "weapon"), [
    ("tank", "howitzer", 4, "tank_howitzer"), ("artillery", "howitzer", 4, "howitzer"),
    ("tank", "", 3, "gun"), ("tank", "", None, "none"), ("tank", "", 0, "none"), ("artillery", "at", 4, "at_gun"),
    ("artillery", "aa", 3, "aa_gun"), ("artillery", "aa_autocannon", 1, "aa_autocannon"),
    ("artillery", "mortar", 2, "mortar"), ("artillery", "rocket_mortar", 3, "rocket_mortar"),
    ("artillery", "flak88", 3, "none"), ("tank", "mortar", 2, "mortar"),
])
def test_v_rocket_1_v_aa_4_roster_gun_types_map_to_engine_weapons(kind, gun_type, gun_class, weapon):
    assert weapons.roster_weapon(kind, gun_type, gun_class) == weapon


def test_v_rocket_1_the_rocket_mortar_is_a_howitzer_and_only_aa_weapons_fire_at_aircraft():
    assert "rocket_mortar" in weapons.HOWITZERS and "mortar" not in weapons.HOWITZERS
    assert weapons.AA_WEAPONS == {"aa_gun", "aa_autocannon"}


def test_v_sap_3_a_side_sees_its_own_sapper_going_to_a_spot_where_no_mine_is_yet():
    s = full_state()
    data = {"sapper": "a_sap", "object": "spot", "distance": 2.0}
    assert event_for("sapper_approached", data, side="attacker", game_master=False, state=s) is data
    assert event_for("sapper_approached", data, side="defender", game_master=False, state=s) == {
        "sapper": "a_sap", "distance": 2.0, REDACTED: True}

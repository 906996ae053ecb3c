"""Forces mustered (V-OFF-5, V-OFF-9, V-SNIP-1 and the structural S- checks): each
refusal, and every field of a unit, fighter and vehicle as the event states it."""
import pytest

from .table import F, Table, attacker_turn, standard


def table():
    t = Table()
    t.add("terrain_placed", houses=["H"], bunkers=["B"])
    return t


def refused(t, side="attacker", **kw):
    return t.refused("force_mustered", side=side, **kw).rule_id


# --- S-DUPLICATE ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("what", ["units", "fighters", "vehicles"])
def test_s_duplicate_an_id_twice_in_one_event(what):
    t = table()
    item = {"units": {"id": "X"}, "fighters": F("x"), "vehicles": {"id": "X"}}[what]
    assert refused(t, **{what: [item, item]}) == "S-DUPLICATE"


@pytest.mark.parametrize("what", ["units", "fighters", "vehicles"])
def test_s_duplicate_an_id_already_mustered_even_by_the_other_side(what):
    t = table()
    item = {"units": {"id": "X"}, "fighters": F("x"), "vehicles": {"id": "X"}}[what]
    t.add("force_mustered", side="attacker", **{what: [item]})
    assert refused(t, side="defender", **{what: [item]}) == "S-DUPLICATE"
    other = {"units": {"id": "Y"}, "fighters": F("y"), "vehicles": {"id": "Y"}}[what]
    t.add("force_mustered", side="defender", **{what: [other]})  # a new id is fine


def test_s_duplicate_the_same_id_may_be_a_unit_a_fighter_and_a_vehicle():
    t = table()
    t.add("force_mustered", side="attacker", units=[{"id": "X"}], fighters=[F("X")], vehicles=[{"id": "X"}])
    assert set(t.state.units) == set(t.state.fighters) == set(t.state.vehicles) == {"X"}


# --- S-UNKNOWN: the fighter's unit, house, pillbox -----------------------------------------------------------
def test_s_unknown_a_fighter_joins_a_unit_of_this_event_or_an_earlier_one_of_his_side():
    t = table()
    t.add("force_mustered", side="attacker", units=[{"id": "A"}], fighters=[F("a1", "A")])
    t.add("force_mustered", side="attacker", fighters=[F("a2", "A")])
    t.add("force_mustered", side="defender", units=[{"id": "D"}], fighters=[F("d1", "D")])
    assert refused(t, side="defender", fighters=[F("d2", "A")]) == "S-UNKNOWN"
    assert refused(t, fighters=[F("a3", "NOWHERE")]) == "S-UNKNOWN"
    assert t.f("a2").unit == "A"


@pytest.mark.parametrize(("field", "known", "unknown"), [("building", "H", "H9"), ("bunker", "B", "B9")])
def test_s_unknown_a_fighter_placed_in_a_house_or_pillbox_that_is_on_the_table(field, known, unknown):
    t = table()
    assert refused(t, fighters=[F("a1", **{field: unknown})]) == "S-UNKNOWN"
    t.add("force_mustered", side="attacker", fighters=[F("a1", **{field: known})])
    assert getattr(t.f("a1"), field) == known


def test_s_rank_an_officer_has_a_rank():
    t = table()
    assert refused(t, fighters=[F("o1", cls="officer")]) == "S-RANK"
    t.add("force_mustered", side="attacker", fighters=[F("o1", cls="officer", rank="sergeant"), F("r1")])
    assert (t.f("o1").rank, t.f("r1").rank) == ("sergeant", "")


# --- V-OFF-5, V-OFF-9, V-SNIP-1: an own posture ----------------------------------------------------------------
@pytest.mark.parametrize(("fighter", "ok"), [
    (F("s1", "U", "sniper", posture="recon"), True),
    (F("l1", rank="lieutenant", posture="march"), True),
    (F("c1", rank="captain", posture="assault"), True),
    (F("l2", "U", rank="lieutenant", posture="march"), False),
    (F("g1", rank="sergeant", posture="march"), False),
    (F("r1", "U", posture="recon"), False),
    (F("r2", posture="recon"), False),
])
def test_v_off_5_only_snipers_and_officers_outside_units_are_mustered_with_a_posture(fighter, ok):
    t = table()
    t.add("force_mustered", side="attacker", units=[{"id": "U"}])
    if ok:
        t.add("force_mustered", side="attacker", fighters=[fighter])
        assert t.f(fighter["id"]).posture == fighter["posture"]
    else:
        assert refused(t, fighters=[fighter]) == "V-OFF-5"


def test_v_off_5_without_a_posture_anyone_is_mustered():
    t = table()
    t.add("force_mustered", side="attacker", units=[{"id": "U"}], fighters=[F("r1", "U"), F("g1", "U", rank="sergeant")])
    assert t.f("r1").posture == "" and t.f("g1").posture == ""


# --- the crew ---------------------------------------------------------------------------------------------------
def test_s_unknown_a_crew_is_of_fighters_of_this_event_each_in_one_crew():
    t = table()
    t.add("force_mustered", side="attacker", fighters=[F("old")])
    assert refused(t, fighters=[F("c1")], vehicles=[{"id": "V", "crew": ["c1", "old"]}]) == "S-UNKNOWN"
    assert refused(t, fighters=[F("c1")], vehicles=[{"id": "V", "crew": ["c1", "c1"]}]) == "S-UNKNOWN"
    assert refused(t, fighters=[F("c1")], vehicles=[{"id": "V", "crew": ["c1"]}, {"id": "W", "crew": ["c1"]}]) \
        == "S-UNKNOWN"
    t.add("force_mustered", side="attacker", fighters=[F("c1"), F("c2"), F("x")], vehicles=[{"id": "V", "crew": ["c1", "c2"]}])
    assert [(t.f(c).aboard, t.f(c).aboard_as) for c in ("c1", "c2", "x")] == [("V", "crew"), ("V", "crew"), ("", "")]


def test_s_ended_nothing_is_mustered_after_the_battle():
    t = standard()
    t.add("battle_ended", winner="draw")
    assert refused(t, fighters=[F("late")]) == "S-ENDED"
    assert t.refused("terrain_placed", houses=["H9"]).rule_id == "S-ENDED"


def test_reinforcements_are_mustered_during_the_battle():
    t = standard()
    t.add("force_mustered", side="attacker", fighters=[F("late")])
    assert t.f("late").side == "attacker"


# --- every field as stated --------------------------------------------------------------------------------------
def test_every_field_of_a_mustered_unit_fighter_and_vehicle_is_kept():
    t = table()
    t.add("force_mustered", side="defender", units=[
        {"id": "S", "commander": "s_sgt", "posture": "march"},
        {"id": "T", "kind": "fire_team", "parent": "S", "posture": "assault", "commander": "t_cpl", "name": "Team"},
    ], fighters=[
        F("s_sgt", "S", rank="sergeant"),
        F("t_cpl", "T", "sapper", rank="corporal", character="char-x", morale_bonus=3, melee_bonus=-2, building="H",
          bunker="B"),
        F("lt", rank="lieutenant", posture="recon"),
        F("tc", rank="corporal"), F("tp", cls="personnel"),
    ], vehicles=[
        {"id": "V", "kind": "apc", "drive": "half_tracked", "armour": 2, "gun": 3, "weapon": "vehicle_mg", "seats": 7,
         "skirts": True, "specialisations": ["spotter", "tractor"], "crew": ["tc", "tp"]},
    ])
    u = t.state.units["T"]
    assert (u.id, u.side, u.kind, u.parent, u.posture, u.commander, u.under) == \
        ("T", "defender", "fire_team", "S", "assault", "t_cpl", "t_cpl")
    assert (t.state.units["S"].kind, t.state.units["S"].posture, t.state.units["S"].parent) == ("squad", "march", "")
    f = t.f("t_cpl")
    assert (f.id, f.side, f.unit, f.cls, f.rank, f.character, f.posture) == \
        ("t_cpl", "defender", "T", "sapper", "corporal", "char-x", "")
    assert (f.morale_bonus, f.melee_bonus, f.building, f.bunker) == (3, -2, "H", "B")
    assert (t.f("lt").posture, t.f("lt").unit) == ("recon", "")
    v = t.v("V")
    assert (v.id, v.side, v.kind, v.drive, v.armour, v.gun, v.weapon) == \
        ("V", "defender", "apc", "half_tracked", 2, 3, "vehicle_mg")
    assert (v.seats, v.skirts, v.specialisations, v.crew) == (7, True, ["spotter", "tractor"], ["tc", "tp"])


# --- terrain (V-TURN-5, V-BUNK-7) ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("first", "second"), [
    ({"houses": ["X", "X"]}, None), ({"houses": ["X"], "wire": ["X"]}, None), ({"bunkers": ["X"], "fences": ["X"]}, None),
    ({"houses": ["X"]}, {"bunkers": ["X"]}), ({"bunkers": ["X"]}, {"wire": ["X"]}),
    ({"spotter_bunkers": ["X"]}, {"houses": ["X"]}), ({"fences": ["X"]}, {"spotter_bunkers": ["X"]}),
])
def test_s_duplicate_a_terrain_id_once_on_the_table(first, second):
    t = Table()
    if second is None:
        assert t.refused("terrain_placed", **first).rule_id == "S-DUPLICATE"
    else:
        t.add("terrain_placed", **first)
        assert t.refused("terrain_placed", **second).rule_id == "S-DUPLICATE"


def test_v_bunk_7_terrain_placed_keeps_each_kind_apart():
    t = Table()
    t.add("terrain_placed", houses=["H"], bunkers=["B"], spotter_bunkers=["SB"], wire=["W"], fences=["FN"])
    t.add("terrain_placed", houses=["H2"])
    s = t.state
    assert set(s.buildings) == {"H", "H2"} and s.buildings["H"].damage == 0
    assert {b.id: b.spotter for b in s.bunkers.values()} == {"B": False, "SB": True}
    assert {w.id: (w.kind, w.removed) for w in s.wire.values()} == {"W": ("wire", False), "FN": ("fence", False)}


def test_s_unknown_a_fighter_mustered_into_a_unit_that_does_not_exist():
    t = attacker_turn(standard())
    err = t.refused("force_mustered", side="attacker", fighters=[F("x1", "NOWHERE")])
    assert err.rule_id == "S-UNKNOWN"
    assert "x1" not in t.state.fighters

"""Smoke (V-SMOKE-1..8, V-ATGL-2, V-CREW-4): who fires smoke, how many rounds, the designating officer, and
the screen's life; each refusal with its rule ID."""
import pytest

from .fire_helpers import smoke, wound
from .table import D, F, at_turn, attacker_turn, defender_turn, standard, tank


def test_v_smoke_records_the_screen_the_round_and_the_shot():
    t = at_turn()
    t.add("smoke_fired", **smoke())
    s = t.state.smoke["S"]
    assert (s.id, s.side, s.ply, s.by) == ("S", "attacker", t.state.ply, "a1")
    a1 = t.f("a1")
    assert (a1.shot_ply, a1.shots, a1.shot_target) == (t.state.ply, 1, "smoke")
    assert (t.state.units["A"].smoke_used, t.state.units["A"].smoke_ply) == (1, t.state.ply)
    assert t.state.phase == "fire"
    assert t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                     struck=[{"fighter": "d1", "die": D(3)}]).rule_id == "V-TURN-11"  # his shot of the turn


def test_v_smoke_a_fire_team_s_round_is_its_squad_s():
    t = at_turn()
    t.add("smoke_fired", **smoke("a5", "a_cpl"))
    assert t.state.units["A"].smoke_used == 1 and t.state.units["A2"].smoke_used == 0


def test_v_smoke_1_a_vehicle_records_its_own_rounds():
    t = defender_turn()
    t.add("smoke_fired", **smoke("DM", "d_lt"))
    dm = t.v("DM")
    assert (dm.smoke_used, dm.smoke_ply, dm.shots, dm.shot_target) == (1, t.state.ply, 1, "smoke")
    assert t.state.smoke["S"].side == "defender" and t.state.smoke["S"].by == "DM"
    t.next_turn()
    t.next_turn()
    t.add("smoke_fired", **smoke("DM", "d_lt", "S2"))
    t.next_turn()
    t.next_turn()
    assert t.refused("smoke_fired", **smoke("DM", "d_lt", "S3")).rule_id == "V-SMOKE-3"


def test_v_smoke_3_reading_per_turn_the_vehicle_s_count_starts_again():
    t = defender_turn({"smoke_period": "turn"})
    t.add("smoke_fired", **smoke("DM", "d_lt"))
    t.next_turn()
    t.next_turn()
    t.add("smoke_fired", **smoke("DM", "d_lt", "S2"))
    assert t.v("DM").smoke_used == 1


def test_v_smoke_3_the_limit_is_rules_data():
    t = at_turn({"smoke_limit": 1})
    t.add("smoke_fired", **smoke())
    assert t.refused("smoke_fired", **smoke("a2", sid="S2")).rule_id == "V-SMOKE-3"


def test_s_duplicate_a_screen_id_already_on_the_table():
    t = at_turn()
    t.add("smoke_fired", **smoke())
    assert t.refused("smoke_fired", **smoke("a2")).rule_id == "S-DUPLICATE"


def test_v_turn_12_smoke_is_fired_in_one_s_own_turn():
    t = at_turn()
    assert t.refused("smoke_fired", **smoke("d1", "d_sgt")).rule_id == "V-TURN-12"


def test_v_turn_9_smoke_after_the_postures():
    t = standard()
    assert t.refused("smoke_fired", **smoke("d1", "d_sgt")).rule_id == "V-TURN-9"


def test_s_unknown_a_smoke_shooter_not_on_the_table():
    t = at_turn()
    assert t.refused("smoke_fired", **smoke("zz")).rule_id == "S-UNKNOWN"
    assert t.refused("smoke_fired", **smoke(officer="zz")).rule_id == "S-UNKNOWN"


def test_v_med_3_a_wounded_rifleman_fires_no_smoke():
    t = defender_turn()
    wound(t, "a1")
    t.next_turn(A="recon")
    assert t.refused("smoke_fired", **smoke("a1")).rule_id == "V-MED-3"


def test_v_med_3_a_wounded_officer_designates_no_smoke_point():
    t = defender_turn()
    t.fire("d6", "rifle", struck=[{"fighter": "a_lt", "die": D(20)}])
    t.next_turn(A="recon")
    assert t.refused("smoke_fired", **smoke(officer="a_lt")).rule_id == "V-MED-3"


@pytest.mark.parametrize("cls", ["scout", "sniper", "sapper", "radio_operator", "medic"])
def test_v_smoke_2_only_the_rifleman_fires_smoke(cls):
    t = at_turn()
    t.add("force_mustered", side="attacker", fighters=[F("x", "A", cls)])
    assert t.refused("smoke_fired", **smoke("x")).rule_id == "V-SMOKE-2"


@pytest.mark.parametrize(("weapon", "gun", "ok"), [("gun", 3, True), ("gun", 2, False), ("aa_gun", 3, True),
                                                   ("aa_gun", 2, False), ("at_gun", 5, False),
                                                   ("vehicle_mg", 1, False), ("rocket_mortar", 1, True)])
def test_v_smoke_1_which_pieces_have_smoke(weapon, gun, ok):
    t = defender_turn()
    tank(t, "defender", "P", armour=1, gun=gun, weapon=weapon, kind="artillery")
    if ok:
        t.add("smoke_fired", **smoke("P", "d_lt"))
    else:
        assert t.refused("smoke_fired", **smoke("P", "d_lt")).rule_id == "V-SMOKE-1"


def test_v_smoke_1_the_minimum_gun_class_is_rules_data():
    t = defender_turn({"smoke_min_gun_class": 2})
    tank(t, "defender", "P", armour=1, gun=2, kind="artillery")
    t.add("smoke_fired", **smoke("P", "d_lt"))


def test_v_crew_4_a_piece_with_one_crewman_fires_no_smoke():
    t = defender_turn()
    tank(t, "defender", "P", armour=1, gun=3, kind="artillery", crew=1)
    assert t.refused("smoke_fired", **smoke("P", "d_lt")).rule_id == "V-CREW-4"


def test_v_smoke_8_the_designating_officer_is_of_one_s_own_side():
    t = at_turn()
    assert t.refused("smoke_fired", **smoke(officer="d_lt")).rule_id == "V-SMOKE-8"


@pytest.mark.parametrize(("dist", "ok"), [(20.0, True), (20.01, False)])
def test_v_smoke_8_the_officer_s_observation_distance_is_rules_data(dist, ok):
    t = at_turn({"observation_distance": {"officer": 20.0, "rifleman": 12.0}})
    if ok:
        t.add("smoke_fired", **smoke(dist=dist))
    else:
        assert t.refused("smoke_fired", **smoke(dist=dist)).rule_id == "V-SMOKE-8"


def test_v_crew_4_the_crew_is_checked_before_the_turn_for_smoke():
    """A piece with one crewman may move but not fire (V-CREW-4), and smoke is fire: the crew rule is cited
    first, out of turn too."""
    t = at_turn()
    tank(t, "defender", "P", armour=1, gun=3, kind="artillery", crew=1)
    assert t.refused("smoke_fired", **smoke("P", "d_lt")).rule_id == "V-CREW-4"
    tank(t, "defender", "P2", armour=1, gun=2, kind="artillery", crew=1)
    t.next_turn()
    assert t.refused("smoke_fired", **smoke("P2", "d_lt")).rule_id == "V-CREW-4"


def test_v_smoke_3_a_rifleman_outside_any_squad_has_no_smoke_rounds():
    """V-SMOKE-3: smoke rounds are the squad's two (a fire team shares its squad's); a rifleman
    outside any unit has no squad, so no rounds: his smoke is refused at the limit."""
    t = attacker_turn(standard())
    t.add("force_mustered", side="attacker", fighters=[F("lone")])
    err = t.refused("smoke_fired", shooter="lone", officer="a_sgt", officer_distance=5, smoke="s1")
    assert err.rule_id == "V-SMOKE-3"
    assert "s1" not in t.state.smoke


# --- smoke ------------------------------------------------------------------
def lay_smoke(t, shooter, sid, officer="a_sgt", dist=10.0):
    t.add("smoke_fired", shooter=shooter, officer=officer, officer_distance=dist, smoke=sid)


def test_v_smoke_2_only_riflemen_fire_smoke_and_v_atgl_2_at_launchers_never():
    t = at_turn()
    err = t.refused("smoke_fired", shooter="a_lmg", officer="a_sgt", officer_distance=5, smoke="s")
    assert err.rule_id == "V-SMOKE-2"
    err = t.refused("smoke_fired", shooter="a_at", officer="a_sgt", officer_distance=5, smoke="s")
    assert err.rule_id == "V-ATGL-2"
    lay_smoke(t, "a1", "s1")
    assert "s1" in t.state.smoke


def test_v_smoke_3_a_third_smoke_round_is_refused():
    t = at_turn()
    lay_smoke(t, "a1", "s1")
    lay_smoke(t, "a2", "s2")
    err = t.refused("smoke_fired", shooter="a3", officer="a_sgt", officer_distance=5, smoke="s3")
    assert err.rule_id == "V-SMOKE-3"
    assert t.state.units["A"].smoke_used == 2
    err = t.refused("smoke_fired", shooter="a5", officer="a_cpl", officer_distance=5, smoke="s3")
    assert err.rule_id == "V-SMOKE-3"  # the squad's fire team shares its two rounds
    t.add("force_mustered", side="attacker", units=[{"id": "TG", "kind": "tactical_group", "commander": "g_cpl"}],
          fighters=[F("g_cpl", "TG", rank="corporal"), F("g1", "TG")])
    lay_smoke(t, "g1", "s4", officer="g_cpl")  # a separate tactical group has its own


def test_v_smoke_1_guns_of_class_3_howitzers_and_mortars_have_smoke_not_at_guns():
    t = standard()
    t.postures("defender")
    lay_smoke(t, "DM", "m1", officer="d_sgt")
    err = t.refused("smoke_fired", shooter="DG", officer="d_sgt", officer_distance=5, smoke="g1")
    assert err.rule_id == "V-SMOKE-1"
    tank(t, "defender", "C2", armour=2, gun=2)
    assert t.refused("smoke_fired", shooter="C2", officer="d_sgt", officer_distance=5, smoke="g2").rule_id == "V-SMOKE-1"


@pytest.mark.parametrize(("dist", "ok"), [(12.0, True), (12.01, False)])
def test_v_smoke_8_an_officer_designates_the_point_within_observation(dist, ok):
    t = at_turn()
    if ok:
        lay_smoke(t, "a1", "s1", dist=dist)
    else:
        err = t.refused("smoke_fired", shooter="a1", officer="a_sgt", officer_distance=dist, smoke="s1")
        assert err.rule_id == "V-SMOKE-8"
    err = t.refused("smoke_fired", shooter="a2", officer="a3", officer_distance=1, smoke="s9")
    assert err.rule_id == "V-SMOKE-8"


def test_v_smoke_6_7_no_test_no_wounds_and_v_smoke_5_removed_at_the_owners_next_turn():
    """V-SMOKE-6, V-SMOKE-7: no die, no harm; V-SMOKE-5: removed at the start of the owner's next turn."""
    t = at_turn()
    before = {k: (f.wounded, f.dead) for k, f in t.state.fighters.items()}
    lay_smoke(t, "a1", "s1")
    assert {k: (f.wounded, f.dead) for k, f in t.state.fighters.items()} == before
    t.end_turn()
    assert "s1" in t.state.smoke  # still there in the defender's turn
    t.postures("defender")
    t.end_turn()
    assert "s1" not in t.state.smoke


def test_v_smoke_7_a_gun_s_smoke_round_places_its_screen_with_no_test_too():
    """V-SMOKE-7: no test, the screen is placed: for a howitzer's round as for a rifleman's."""
    t = at_turn()
    lay_smoke(t, "AH", "s2")
    assert t.state.smoke["s2"].by == "AH" and t.state.smoke["s2"].side == "attacker"

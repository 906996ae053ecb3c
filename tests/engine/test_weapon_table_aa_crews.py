"""Issue 11 (seed 003 edges): one weapon table for the roster and the engine
(V-SMOKE-1, V-ROCKET-1), AA fire once per appearance and before the attack
(V-AA-3, G-8), and crews that leave their piece (V-CREW-3..5, V-CAPT-1)."""
import pytest

from battles.engine import weapons

from .table import D, standard, tank


def at_turn_defender():
    """The defender's first turn, postures declared (its lieutenant d_lt corrects smoke)."""
    t = standard()
    t.postures("defender")
    return t


# --- V-ROCKET-1, V-SMOKE-1 --------------------------------------------------------------------------------------


def smoke(t, shooter, sid="S1"):
    return dict(shooter=shooter, officer="d_lt", officer_distance=5, smoke=sid)


def test_v_rocket_1_a_rocket_mortar_is_a_howitzer_for_smoke_v_smoke_1():
    t = at_turn_defender()
    tank(t, "defender", "RM", armour=1, gun=2, weapon="rocket_mortar", kind="artillery", drive="towed")
    t.add("smoke_fired", **smoke(t, "RM"))
    assert t.v("RM").smoke_used == 1 and "S1" in t.state.smoke


@pytest.mark.parametrize("gun", [3, 4, 6])
def test_v_smoke_1_an_aa_autocannon_has_no_smoke_whatever_its_class_v_aa_5(gun):
    """V-AA-5: an AA autocannon is a heavy MG, not a gun of class 3+."""
    t = at_turn_defender()
    tank(t, "defender", "AC", armour=1, gun=gun, weapon="aa_autocannon", kind="artillery", drive="towed")
    assert t.refused("smoke_fired", **smoke(t, "AC")).rule_id == "V-SMOKE-1"


def test_v_smoke_1_the_roster_report_and_the_engine_agree_for_every_gun_type_kind_and_class():
    """One table: what the roster report promises, the engine lets the piece fire."""
    from battles.engine import weapons
    from rosters import domain
    from tests.rosters.builders import Build

    for gun_type in domain.GUN_TYPES:
        for kind in ("artillery", "tank"):
            for gun in range(1, 7):
                b = Build()
                ref = b.vehicle(kind, armour=1, gun=gun, gun_type=gun_type)
                promised = b.report().smoke[f"vehicle:{ref}"]
                t = at_turn_defender()
                tank(t, "defender", "P", armour=1, gun=gun, weapon=weapons.roster_weapon(kind, gun_type, gun),
                     kind=kind, drive="towed" if kind == "artillery" else "tracked")
                try:
                    t.add("smoke_fired", **smoke(t, "P"))
                    fired = True
                except Exception as exc:  # noqa: BLE001 - a refusal
                    assert getattr(exc, "rule_id", "") == "V-SMOKE-1", exc
                    fired = False
                assert promised is fired, (gun_type, kind, gun)


# --- V-AA-3, G-8 ------------------------------------------------------------------------------------------------


def aircraft_over(weapon="ground_attack_aircraft"):
    """The attacker's aircraft appears in the attacker's turn; the defender has DAA and an AA gun AAG."""
    t = standard()
    tank(t, "defender", "AAG", armour=1, gun=3, weapon="aa_gun", kind="artillery", drive="towed")
    t.postures("defender")
    t.end_turn()
    t.postures("attacker", A="recon", A2="recon")
    t.add("force_mustered", side="attacker", vehicles=[{"id": "AIR", "kind": "aircraft", "drive": "none",
                                                        "weapon": weapon}])
    return t


def aa(shooter="DAA", weapon="aa_autocannon", die=5):
    return dict(shooter=shooter, weapon=weapon, target="aircraft", target_id="AIR", distance=30, hit=D(die))


def test_v_aa_3_one_aa_shot_per_gun_at_each_appearance_of_an_aircraft_g8():
    t = aircraft_over()
    t.add("fire", **aa())  # missed
    t.add("fire", **aa("AAG", "aa_gun"))  # another AA gun may engage the same appearance
    assert t.refused("fire", **aa()).rule_id == "V-AA-3"
    assert not t.v("AIR").driven_off


def test_v_aa_3_no_aa_fire_once_the_aircraft_has_attacked_g8():
    t = aircraft_over()
    t.add("fire_corrected", corrector="a_sgt", shooter="AIR", target="H", distance=5)
    t.fire("AIR", "ground_attack_aircraft", target="house", target_id="H", distance=50, visual_contact=False,
           corrected=True, hit=D(14))
    err = t.refused("fire", **aa(die=15))
    assert err.rule_id == "V-AA-3"
    assert not t.v("AIR").driven_off


def test_g8_the_aa_shot_limit_is_rules_data():
    t = aircraft_over()
    t.rules = {"aa_shots_per_appearance": 2}
    t.add("fire", **aa())
    t.add("fire", **aa())
    assert t.refused("fire", **aa()).rule_id == "V-AA-3"


# --- V-CREW-3..5, V-CAPT-1: crews leave their piece ----------------------------------------------------------


def test_v_crew_4_a_gun_crew_dismounts_and_the_crewless_gun_cannot_fire_v_crew_5():
    """The men leave (V-CREW-4 lets a piece with fewer men only move); firing needs two, one an
    officer: the refusal cites the firing rule, V-CREW-5 (issue: refusals cite the rule broken)."""
    t = at_turn_defender()
    t.add("crew_dismounted", vehicle="DG", fighters=["d_gc", "d_gp"], distance=1)
    assert t.v("DG").crew == [] and t.f("d_gc").aboard == "" and t.f("d_gp").aboard_as == ""
    err = t.refused("fire", shooter="DG", weapon="at_gun", target="vehicle", target_id="AT3", distance=10, hit=D(12))
    assert err.rule_id == "V-CREW-5"


def test_v_crew_5_other_men_of_the_side_man_an_abandoned_gun_and_fire_it():
    t = at_turn_defender()
    t.add("crew_dismounted", vehicle="DG", fighters=["d_gc", "d_gp"], distance=1)
    t.add("crew_boarded", vehicle="DG", fighters=["d_sgt", "d1"])
    t.fire("DG", "at_gun", target="vehicle", target_id="AT3", distance=10, hit=D(12))
    assert t.v("AT3").destroyed  # class 4 gun against armour 3 (V-VDMG-5)


def test_v_crew_6_a_dismounted_crew_survives_its_vehicles_destruction():
    t = at_turn_defender()
    tank(t, "defender", "X2", armour=2, gun=0)
    t.add("crew_dismounted", vehicle="X2", fighters=["X2_c"], distance=1)
    t.end_turn()
    t.postures("attacker", A="recon", A2="recon")
    t.fire("AT3", "gun", target="vehicle", target_id="X2", distance=10, hit=D(12))
    assert t.v("X2").destroyed and t.f("X2_p").dead and not t.f("X2_c").dead


def test_crew_dismounting_is_refused_for_a_man_not_in_its_crew_and_off_turn():
    t = at_turn_defender()
    assert t.refused("crew_dismounted", vehicle="DG", fighters=["d1"], distance=1).rule_id == "S-UNKNOWN"
    assert t.refused("crew_dismounted", vehicle="DG", fighters=["d_gc"], distance=3).rule_id == "V-TRANS-3"
    assert t.refused("crew_dismounted", vehicle="AT3", fighters=["a_tc"], distance=1).rule_id == "V-TURN-12"


def test_v_capt_1_an_enemy_cannot_just_board_an_abandoned_vehicle():
    """Only the capture rules (V-CAPT-2..5) or a flamed crew (V-FLAME-3) give a vehicle to the enemy."""
    t = at_turn_defender()
    t.add("crew_dismounted", vehicle="DG", fighters=["d_gc", "d_gp"], distance=1)
    t.end_turn()
    t.postures("attacker", A="recon", A2="recon")
    assert t.refused("crew_boarded", vehicle="DG", fighters=["a1", "a_sgt"]).rule_id == "V-CAPT-1"


def test_v_capt_7_a_captured_abandoned_gun_is_manned_by_the_capturers():
    t = at_turn_defender()
    t.add("crew_dismounted", vehicle="DG", fighters=["d_gc", "d_gp"], distance=1)
    t.end_turn()
    t.postures("attacker", A="assault", A2="assault")
    t.v("DG").running_gear = True  # a towed gun's wheels shot away (V-CAPT-2); set here, not the point
    t.add("capture_attempted", vehicle="DG", infantry={f: 1.0 for f in ("a1", "a2", "a3", "a4", "a_sgt")},
          surrounded=True, nearest_friendly=None, die=D(15))
    assert t.v("DG").side == "attacker" and not t.f("d_gc").captured  # the crew had left (V-CAPT-7)
    t.add("crew_boarded", vehicle="DG", fighters=["a5", "a_cpl"])
    assert t.v("DG").crew == ["a5", "a_cpl"]


@pytest.mark.parametrize(("kind", "gun_type", "gun_class", "weapon"), [
    ("tank", "howitzer", 3, "tank_howitzer"),  # V-GUN: a tank's howitzer fires as a tank gun with HE
    ("artillery", "howitzer", 3, "howitzer"),
    ("artillery", "rocket_mortar", 3, "rocket_mortar"),
    ("tank", "", 2, "gun"),
    ("car", "", None, "none"),
])
def test_roster_gun_types_map_to_the_engine_weapon(kind, gun_type, gun_class, weapon):
    """The roster and the engine agree on each piece's weapon (issue 11: one table)."""
    from battles.engine.weapons import roster_weapon

    assert roster_weapon(kind, gun_type, gun_class) == weapon


def test_v_crew_a_dead_crewman_does_not_leave_his_piece():
    """V-CREW, V-MED-1: the dead do not act; the refusal says so (S-DEAD), in both languages."""
    t = at_turn_defender()
    t.f("d_gp").dead = True
    assert t.refused("crew_dismounted", vehicle="DG", fighters=["d_gc", "d_gp"], distance=1).rule_id == "S-DEAD"


@pytest.mark.parametrize(("crew", "rule"), [(["RM_c", "RM_p"], None), (["RM_c"], "V-CREW-4"),
                                            (["RM_p"], "V-CREW-4"), ([], "V-CREW-5")])
def test_v_crew_5_smoke_is_fire_a_piece_needs_two_crew_one_an_officer(crew, rule):
    """V-CREW-5: firing smoke (V-SMOKE-1) is firing: it needs two crew, one an officer; one crewman left
    may only move the piece (V-CREW-4); with nobody the firing rule is cited (V-CREW-5)."""

    t = at_turn_defender()
    tank(t, "defender", "RM", armour=1, gun=3, weapon="howitzer", kind="artillery", drive="towed")
    gone = [m for m in ("RM_c", "RM_p") if m not in crew]
    if gone:
        t.add("crew_dismounted", vehicle="RM", fighters=gone, distance=1)
    if rule:
        assert t.refused("smoke_fired", **smoke(t, "RM")).rule_id == rule
    else:
        t.add("smoke_fired", **smoke(t, "RM"))
        assert t.v("RM").smoke_used == 1


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

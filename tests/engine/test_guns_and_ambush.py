"""Guns and AT weapons (V-GUN-1..5, V-ATGL-1..4): the AT ambush in the enemy's movement phase, single
targets, direct hits and the AT rifle."""
import pytest

from .fire_helpers import ambush, corr, enemy_moving, shot, smoke, vfire, vshot
from .table import D, F, at_turn, attacker_turn, defender_turn, standard, tank


def test_v_gun_4_no_ambush_in_ones_own_turn():
    t = at_turn()
    t.add("vehicle_moved", vehicle="AP", distance=4)
    err = t.refused("fire", shooter="AT3", weapon="gun", target="vehicle", target_id="DT4", distance=10, hit=D(3),
                    ambush=True, path_distance=1)
    assert err.rule_id == "V-GUN-4"


def test_v_gun_4_a_rifleman_has_no_at_ambush():
    t = enemy_moving()
    err = t.refused("fire", shooter="d1", weapon="rifle", target="vehicle", target_id="AT3", distance=5, hit=D(3),
                    ambush=True, path_distance=1)
    assert err.rule_id == "V-GUN-4"


@pytest.mark.parametrize(("specs", "ok"), [([], False), (["at_fire"], True)])
def test_v_gun_4_v_aa_7_an_aa_gun_ambushes_only_with_the_at_ability(specs, ok):
    t = enemy_moving()
    tank(t, "defender", "AAG", armour=1, gun=2, weapon="aa_gun", specialisations=specs, kind="artillery")
    data = ambush("AAG", "aa_gun")
    if ok:
        t.add("fire", **data)
        assert t.v("AAG").ambush_shots == 1
    else:
        assert t.refused("fire", **data).rule_id == "V-GUN-4"


def test_v_atgl_1_reading_allowed_ambush_still_needs_the_movement_phase_and_the_path():
    """With the master's reading on, an AT grenadier's ambush follows V-GUN-4 and V-GUN-5."""
    t = enemy_moving({"at_grenade_ambush": True})
    t.add("force_mustered", side="defender", fighters=[F("d_at", "D", "at_grenadier")])
    base = ambush("d_at", "at_grenade_launcher", distance=5)
    assert t.refused("fire", **{**base, "path_distance": 2.0}).rule_id == "V-GUN-5"
    t.add("fire", **{**base, "path_distance": 1.99})
    assert t.f("d_at").ambush_shots == 1 and t.f("d_at").ambush_ply == t.state.ply
    assert t.refused("fire", **base).rule_id == "V-GUN-4"  # one per phase (G-24)


def test_v_gun_5_an_ambush_states_the_tanks_path_distance():
    t = enemy_moving()
    assert t.refused("fire", **ambush(path_distance=None)).rule_id == "V-GUN-5"


@pytest.mark.parametrize(("path", "ok"), [(2.99, True), (3.0, False)])
def test_v_gun_5_the_path_limit_is_rules_data(path, ok):
    t = enemy_moving({"ambush_path_distance": 3.0})
    if ok:
        t.add("fire", **ambush(path_distance=path))
    else:
        assert t.refused("fire", **ambush(path_distance=path)).rule_id == "V-GUN-5"


def test_v_gun_4_an_ambush_is_not_fired_at_fighters():
    t = enemy_moving()
    err = t.refused("fire", shooter="DG", weapon="at_gun", target="fighters", distance=12, hit=D(3),
                    ambush=True, path_distance=1, struck=[{"fighter": "a1"}])
    assert err.rule_id == "V-GUN-4"


def test_v_gun_4_the_ambush_before_the_movement_phase_is_refused():
    t = at_turn()
    assert t.state.phase == "posture"
    assert t.refused("fire", **ambush()).rule_id == "V-GUN-4"


def test_v_atgl_4_an_at_rifleman_fires_the_at_rifle_not_the_launcher():
    t = at_turn()
    t.add("force_mustered", side="attacker", fighters=[F("a_atr", "A", "at_rifleman")])
    data = dict(shooter="a_atr", target="fighters", distance=3, hit=D(3), struck=[{"fighter": "d1"}])
    assert t.refused("fire", weapon="at_grenade_launcher", **data).rule_id == "S-WEAPON"
    t.add("fire", weapon="at_rifle", **data)


@pytest.mark.parametrize(("distance", "ok"), [(6.0, True), (6.01, False)])
def test_v_atgl_4_an_at_rifle_has_the_launcher_s_fire_distance(distance, ok):
    """V-ATGL-4: the AT rifle is treated as an AT grenade launcher, so it fires up to the launcher's 6 in
    (V-ATGL-1), not a rifle's 8 in."""
    t = at_turn()
    data = dict(shooter="a_at", weapon="at_rifle", target="fighters", distance=distance, hit=D(3),
                struck=[{"fighter": "d1"}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


@pytest.mark.parametrize("weapon", ["at_gun", "aa_gun"])
def test_v_gun_1_no_gun_fires_on_a_correction(weapon):
    t = defender_turn()
    tank(t, "defender", "G", armour=1, gun=3, weapon=weapon, kind="artillery")
    err = t.refused("fire", shooter="G", weapon=weapon, target="vehicle", target_id="AT3", distance=10, hit=D(11),
                    corrected=True, visual_contact=False)
    assert err.rule_id == "V-GUN-1"
    err = t.refused("fire", shooter="G", weapon=weapon, target="vehicle", target_id="AT3", distance=10, hit=D(11),
                    visual_contact=False)
    assert err.rule_id == "V-GUN-1"


def test_v_atgl_1_the_at_class_is_rules_data():
    t = at_turn({"atgl_class": 4})
    vfire(t, "a_at", "at_rifle", "DT4", 11)
    assert t.v("DT4").damage == 1 and not t.v("DT4").destroyed


@pytest.mark.parametrize(("shooter", "weapon", "target", "rule"), [
    ("a_at", "at_grenade_launcher", "vehicle", "V-ATGL-3"), ("AT3", "gun", "vehicle", "V-GUN-3"),
    ("a_lmg", "lmg", "vehicle", "S-TARGET"), ("AH", "howitzer", "house", "S-TARGET"),
])
def test_v_gun_3_v_atgl_3_only_an_area_shot_at_fighters_or_a_vehicle_has_a_radius(shooter, weapon, target, rule):
    t = at_turn()
    tank(t, "defender", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    tid = "H" if target == "house" else "DT4"
    err = t.refused("fire", shooter=shooter, weapon=weapon, target=target, target_id=tid, distance=5, hit=D(15),
                    vehicles_struck=[{"vehicle": "C1", "distance": 0.5}])
    assert err.rule_id == rule


@pytest.mark.parametrize(("die", "killed"), [(10, False), (11, True)])
def test_v_atgl_1_v_gun_3_a_direct_hit_kills_one_infantryman_whatever_his_cover(die, killed):
    t = at_turn()
    t.fire("a_at", "at_grenade_launcher", distance=5, hit=D(die), struck=[{"fighter": "d1", "light_cover": True}])
    assert t.f("d1").dead is killed
    assert t.f("a_at").credit.kills == (1 if killed else 0)


@pytest.mark.parametrize("weapon", ["gun", "at_gun", "aa_gun"])
def test_v_gun_1_no_gun_is_directed_by_a_correction(weapon):
    t = at_turn()
    tank(t, "attacker", "G", armour=1, gun=3, weapon=weapon, kind="artillery")
    assert t.refused("fire_corrected", **corr(shooter="G")).rule_id == "V-GUN-1"


def test_v_atgl_2_an_at_rifleman_fires_no_smoke():
    t = at_turn()
    t.add("force_mustered", side="attacker", fighters=[F("a_atr", "A", "at_rifleman")])
    assert t.refused("smoke_fired", **smoke("a_atr")).rule_id == "V-ATGL-2"


@pytest.mark.parametrize("weapon", ["at_gun", "aa_gun"])
def test_v_gun_3_an_at_or_aa_gun_strikes_one_fighter(weapon):
    t = defender_turn()
    tank(t, "defender", "G", armour=1, gun=3, weapon=weapon, kind="artillery")
    two = [{"fighter": "a1"}, {"fighter": "a2"}]
    assert t.refused("fire", **shot("G", weapon, two, distance=10, hit=D(15))).rule_id == "V-GUN-3"
    t.add("fire", **shot("G", weapon, two[:1], distance=10, hit=D(15)))
    # V-GUN-3: the direct hit itself kills the one man struck (no wound die is asked), credited once
    assert t.f("a1").dead and t.f("G_c").credit.kills == 1


def test_v_gun_5_the_ambushed_tank_is_the_one_that_moved_this_phase():
    t = at_turn()
    t.add("vehicle_moved", vehicle="AT3", distance=6)
    t.add("vehicle_moved", vehicle="AP", distance=6)
    t.add("fire", **vshot("DG", "at_gun", "AP", die=3, distance=12, ambush=True, path_distance=1))
    t.next_turn()
    t.next_turn(A="recon")
    t.add("vehicle_moved", vehicle="AP", distance=2)
    err = t.refused("fire", **vshot("DG", "at_gun", "AT3", distance=12, ambush=True, path_distance=1))
    assert err.rule_id == "V-GUN-5"  # AT3 moved in an earlier phase, not this one


def test_v_atgl_3_an_at_grenade_has_no_damage_radius_for_vehicles():
    """V-ATGL-3: an AT grenade launcher strikes one target; it names no vehicles in a radius."""
    t = attacker_turn(standard())
    err = t.refused("fire", shooter="a_at", weapon="at_grenade_launcher", target="vehicle", target_id="DT4",
                    distance=5, hit=D(11), vehicles_struck=[{"vehicle": "DM", "distance": 1}])
    assert err.rule_id == "V-ATGL-3"

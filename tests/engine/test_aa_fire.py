"""Fire at aircraft (V-AA-2..6, G-8): who may shoot at an aircraft and when, the AA autocannon's hits."""
import pytest

from .fire_helpers import shot, vfire
from .table import D, at_turn, attacker_turn, defender_turn, standard, tank


# --- aircraft ---------------------------------------------------------------------------------------------------------
def air(t, side, vid, kind="ground_attack_aircraft"):
    t.add("force_mustered", side=side, vehicles=[{"id": vid, "kind": "aircraft",
                                                  "drive": "none", "weapon": kind}])


def ashot(shooter, target_id, weapon="aa_autocannon", die=11):
    return dict(shooter=shooter, weapon=weapon, target="aircraft", target_id=target_id, distance=30, hit=D(die))


def test_v_aa_3_fire_at_an_aircraft_in_the_enemy_turn_does_not_move_the_phase():
    t = at_turn()
    t.add("force_mustered", side="attacker", vehicles=[{"id": "AIR", "kind": "aircraft", "drive": "none",
                                                        "weapon": "dive_bomber"}])
    t.add("fire", shooter="DAA", weapon="aa_autocannon", target="aircraft", target_id="AIR", distance=30,
          hit=D(10), visual_contact=False)
    assert t.state.phase == "posture"
    assert (t.v("DAA").shots, t.v("DAA").shot_target) == (0, "")
    assert t.v("AIR").aa_by == ["DAA"] and t.v("AIR").aa_ply == t.state.ply and not t.v("AIR").driven_off


@pytest.mark.parametrize(("die", "damage"), [(10, 0), (11, 1)])
def test_v_aa_5_an_aa_autocannon_at_a_vehicle_is_a_class_1_mg_with_the_hit_test(die, damage):
    t = defender_turn()
    tank(t, "attacker", "C1", armour=1, gun=0, kind="car", drive="wheeled")
    vfire(t, "DAA", "aa_autocannon", "C1", die, distance=20)
    assert (t.v("C1").damage, t.v("C1").running_gear) == (damage, False)


def test_v_aa_5_an_aa_autocannon_strikes_as_a_class_1_mg_whatever_gun_class_its_mount_has():
    """V-AA-5: the autocannon is a heavy MG, so at a vehicle it is a class-1 MG (V-MG-2) even on a mount
    whose card carries a gun class: against armour 2 it has no effect (V-VDMG-2), it never destroys it."""
    t = defender_turn()
    tank(t, "defender", "DAA4", armour=1, gun=4, weapon="aa_autocannon", kind="artillery", drive="towed")
    tank(t, "attacker", "C2", armour=2, gun=0, kind="car", drive="wheeled")
    vfire(t, "DAA4", "aa_autocannon", "C2", 15, distance=20)
    assert not t.v("C2").destroyed and t.v("C2").damage == 0


def test_v_aa_5_an_aa_autocannon_strikes_every_fighter_in_a_heavy_mg_s_radius():
    """V-AA-5: a heavy MG (V-MG-3): every enemy fighter in its 2 in radius is struck, not one."""
    t = defender_turn()
    t.add("fire", **shot("DAA", "aa_autocannon", [{"fighter": "a1", "die": D(11), "distance": 1.0},
                                                   {"fighter": "a2", "die": D(11), "distance": 2.0}], distance=30))
    assert t.f("a1").wounded and t.f("a2").wounded


def test_s_target_aa_fire_is_at_a_live_enemy_aircraft():
    t = at_turn()
    air(t, "attacker", "AIR")
    air(t, "defender", "OWN")
    assert t.refused("fire", **ashot("DAA", "OWN")).rule_id == "S-TARGET"
    assert t.refused("fire", **ashot("DAA", "AP")).rule_id == "S-TARGET"  # not an aircraft
    t.add("fire", **ashot("DAA", "AIR"))
    assert t.v("AIR").driven_off
    tank(t, "defender", "AAG", armour=1, gun=2, weapon="aa_gun", kind="artillery")
    assert t.refused("fire", **ashot("AAG", "AIR", "aa_gun")).rule_id == "S-TARGET"  # driven off already


def test_v_aa_3_an_aircraft_that_has_flown_its_sorties_is_no_longer_engaged():
    t = at_turn()
    air(t, "attacker", "AIR")
    t.add("fire_corrected", corrector="a_sgt", shooter="AIR", target="H", distance=5)
    t.fire("AIR", "ground_attack_aircraft", target="house", target_id="H", distance=50, visual_contact=False,
           corrected=True, hit=D(3))
    assert t.v("AIR").sorties == 1 and t.v("AIR").shot_ply == t.state.ply
    t.next_turn()
    t.next_turn()  # the attacker's next turn: the aircraft has attacked, its sortie is over
    assert t.refused("fire", **ashot("DAA", "AIR")).rule_id == "V-AA-3"


def test_v_aa_3_with_two_sorties_the_aircraft_is_engaged_again_on_its_next_appearance():
    t = at_turn({"air_sorties_per_battle": 2})
    air(t, "attacker", "AIR")
    t.add("fire_corrected", corrector="a_sgt", shooter="AIR", target="H", distance=5)
    t.fire("AIR", "ground_attack_aircraft", target="house", target_id="H", distance=50, visual_contact=False,
           corrected=True, hit=D(3))
    t.next_turn()
    t.next_turn()
    t.add("fire", **ashot("DAA", "AIR", die=10))
    assert t.v("AIR").aa_by == ["DAA"] and not t.v("AIR").driven_off


def test_g8_the_aa_shots_at_one_appearance_count_per_aa_weapon():
    t = at_turn()
    air(t, "attacker", "AIR")
    t.add("fire", **ashot("DAA", "AIR", die=10))
    assert t.refused("fire", **ashot("DAA", "AIR", die=10)).rule_id == "V-AA-3"
    tank(t, "defender", "AAG", armour=1, gun=2, weapon="aa_gun", kind="artillery")
    t.add("fire", **ashot("AAG", "AIR", "aa_gun", die=10))
    assert t.v("AIR").aa_by == ["DAA", "AAG"]
    t.next_turn()
    t.next_turn()  # a new appearance: the list starts again
    t.add("fire", **ashot("DAA", "AIR", die=10))
    assert t.v("AIR").aa_by == ["DAA"] and t.v("AIR").aa_ply == t.state.ply


def test_v_aa_6_the_autocannon_targets_are_rules_data():
    t = at_turn({"aa_autocannon_targets": ["bomber"]})
    air(t, "attacker", "B", "bomber")
    air(t, "attacker", "G", "ground_attack_aircraft")
    assert t.refused("fire", **ashot("DAA", "G")).rule_id == "V-AA-6"
    t.add("fire", **ashot("DAA", "B"))
    assert t.v("B").driven_off
    tank(t, "defender", "AAG", armour=1, gun=2, weapon="aa_gun", kind="artillery")
    t.add("fire", **ashot("AAG", "G", "aa_gun"))  # an AA gun fires at every aircraft
    assert t.v("G").driven_off


@pytest.mark.parametrize(("target", "ru", "en"), [("house", "Дом 'ZZ'", "No house 'ZZ'"),
                                                  ("bunker", "ДОТ 'ZZ'", "No pillbox 'ZZ'")])
def test_s_unknown_a_shot_at_an_object_not_on_the_table_names_it_in_both_languages(target, ru, en):
    t = at_turn()
    refusal = t.refused("fire", shooter="AH", weapon="howitzer", target=target, target_id="ZZ", distance=30,
                        hit=D(15))
    assert refusal.rule_id == "S-UNKNOWN"
    assert ru in refusal.message_ru and en in refusal.message_en


def test_g_4_a_postures_defence_counts_against_fire():
    """G-4: the posture table's defence (0 in every posture by default) is added to the target's defence."""
    from battles.engine.rules_data import DEFAULT_RULES

    hard = {name: {**p, "defence": 20} for name, p in DEFAULT_RULES["postures"].items()}
    for postures, wounded in ((None, True), (hard, False)):
        t = attacker_turn(standard({"postures": postures} if postures else None))
        t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
        assert bool(t.f("d1").wounded or t.f("d1").dead) is wounded


def test_v_trans_6_only_carried_infantry_fire_the_mounted_mg():
    t = attacker_turn(standard())
    err = t.refused("fire", shooter="a1", weapon="vehicle_mg", target="fighters", distance=10,
                    struck=[{"fighter": "d1", "die": D(11)}])
    assert err.rule_id == "V-TRANS-6"


def test_a_dead_fighter_is_not_a_target_and_an_unknown_one_is_not_found():
    t = attacker_turn(standard())
    t.f("d1").dead = True
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(15)}])
    assert err.rule_id == "S-TARGET"
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "nobody", "die": D(15)}])
    assert err.rule_id == "S-UNKNOWN"

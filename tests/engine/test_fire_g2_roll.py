"""The hit roll and the G-2 roll (S-DIE, G-1, G-2, G-4): the rolls a shot needs, the shooter's attack and the
target's defence by class and posture."""
from types import MappingProxyType

import pytest

from .fire_helpers import passengers
from .table import D, at_turn, attacker_turn, standard

# --- the hit roll (S-DIE) -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("shooter", "weapon", "target", "extra"), [
    ("a1", "grenade", "fighters", {"struck": [{"fighter": "d1"}]}),
    ("a_at", "at_grenade_launcher", "fighters", {"struck": [{"fighter": "d1"}]}),
    ("a_at", "at_rifle", "fighters", {"struck": [{"fighter": "d1"}]}),
    ("AT3", "gun", "fighters", {"struck": [{"fighter": "d1"}]}),
    ("AH", "howitzer", "fighters", {"struck": [{"fighter": "d1", "die": D(3)}], "target_id": "d1"}),
    ("a_lmg", "lmg", "vehicle", {"target_id": "DT4"}),
    ("a_fl", "flamethrower", "house", {"target_id": "H"}),
    ("a_fl", "flamethrower", "bunker", {"target_id": "B"}),
    ("a1", "rifle", "vehicle", {"target_id": "DT4"}),
])
def test_s_die_a_hit_test_needs_its_roll(shooter, weapon, target, extra):
    t = at_turn()
    err = t.refused("fire", shooter=shooter, weapon=weapon, target=target, distance=4, **extra)
    assert err.rule_id == "S-DIE"


def test_s_die_small_arms_and_mgs_at_fighters_need_no_hit_roll():
    t = at_turn()
    t.fire("a_lmg", "lmg", distance=4, struck=[{"fighter": "d1", "die": D(11)}])
    t.fire("a1", "rifle", distance=4, struck=[{"fighter": "d2", "die": D(11)}])
    assert t.f("d1").wounded and t.f("d2").wounded


# --- the G-2 roll -------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("die", "wounded"), [(8, False), (9, True)])
def test_g1_g2_the_shooter_s_attack_by_class_adds(die, wounded):
    t = at_turn({"attack": {"rifleman": 2}})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded


def test_g1_a_vehicle_shooter_has_no_class_attack():
    t = at_turn({"attack": {"officer": 5, "personnel": 5}})
    t.fire("AP", "vehicle_mg", distance=5, struck=[{"fighter": "d1", "die": D(10)}])
    assert not t.f("d1").wounded


@pytest.mark.parametrize(("die", "wounded"), [(12, False), (13, True)])
def test_g1_g2_the_target_s_defence_by_class_subtracts(die, wounded):
    t = at_turn({"defence": {"rifleman": 2}})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded


@pytest.mark.parametrize(("die", "wounded"), [(11, False), (12, True)])
def test_g4_the_target_s_posture_defence_subtracts(die, wounded):
    postures = {"march": {"move": 12.0, "fire": False, "melee": False, "defence": 0},
                "recon": {"move": 6.0, "fire": True, "melee": False, "defence": 0},
                "assault": {"move": 6.0, "fire": True, "melee": True, "defence": 0},
                "dug_in": {"move": 0.0, "fire": True, "melee": False, "defence": 1}}
    t = at_turn({"postures": postures})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded


@pytest.mark.parametrize(("die", "wounded"), [(10, False), (11, True)])
def test_g1_g2_a_class_missing_from_the_tables_has_no_attack_or_defence(die, wounded):
    t = at_turn({"attack": {}, "defence": {}})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded


@pytest.mark.parametrize(("die", "wounded"), [(10, False), (11, True)])
def test_g4_a_posture_without_a_defence_entry_adds_nothing(die, wounded):
    postures = {"march": {"move": 12.0, "fire": False, "melee": False},
                "recon": {"move": 6.0, "fire": True, "melee": False},
                "assault": {"move": 6.0, "fire": True, "melee": True},
                "dug_in": {"move": 0.0, "fire": True, "melee": False}}
    t = at_turn({"postures": postures})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded


# --- correction, credits, the hit roll -------------------------------------------------------------------
def test_s_unknown_a_player_does_not_correct_the_enemys_battery():
    """V-CORR: an officer corrects his own side's battery; the enemy's mortar is not his to direct."""
    t = attacker_turn(standard())
    err = t.refused("fire_corrected", corrector="a_sgt", shooter="DM", target="H", distance=1)
    assert err.rule_id == "S-UNKNOWN"
    assert t.state.fire_corrections == []


def test_s_die_a_rifle_hit_needs_its_roll():
    t = attacker_turn(standard())
    assert t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                     struck=[{"fighter": "d1"}]).rule_id == "S-DIE"


# --- G-1 / G-2: a class the master's defence table does not list defends with 0 --------------------------------
@pytest.mark.parametrize(("die", "wounded"), [(10, False), (11, True)])
def test_g1_g2_a_defence_table_without_the_target_s_class_gives_defence_0(die, wounded):
    """G-1, G-2: the master's defence table (a read-only mapping, taken whole) has a row for snipers
    only; a rifleman, absent from it, is hit on d20 + 0 - 0 >= 11: the fire resolves, it is not set
    aside as having nothing to act on."""
    t = at_turn({"defence": MappingProxyType({"sniper": 5})})
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded
    assert t.state.unapplied == []
    t.fire("a2", "rifle", struck=[{"fighter": "d_snp", "die": D(15)}])
    assert not t.f("d_snp").wounded  # 15 - 5 < 11: the sniper's row is read


def test_v_crew_6_a_vehicle_destroyed_with_passengers_kills_everyone_inside():
    t = passengers()  # a1, a2 inside AP; riders on a destroyed tank: test_vehicle_fire.py
    t.end_turn()
    t.postures("defender")
    t.fire("DT4", "gun", target="vehicle", target_id="AP", distance=10, hit=D(12))  # class 4 > armour 2 (V-VDMG-5)
    assert t.v("AP").destroyed
    assert all(t.f(x).dead for x in ("a1", "a2", "a_pd", "a_pc"))  # V-CREW-6

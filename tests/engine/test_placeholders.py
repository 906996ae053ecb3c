"""Placeholders flagged honestly (issue 11): seed numbers are not placeholders
(V-VDMG-4), gaps are (G-26), and a missing rules-data value is refused, never
replaced by a hidden fallback."""
import pytest

from battles.engine import rules_data

from .table import D, attacker_turn, standard, tank


def test_v_vdmg_4_the_tanks_reserve_is_seed_text_and_g_26_the_other_vehicles_is_a_placeholder():
    assert "vehicle_reserve" not in rules_data.PLACEHOLDERS
    assert rules_data.DEFAULT_RULES["vehicle_reserve"] == 1
    assert rules_data.PLACEHOLDERS["non_tank_reserve"] == "G-26"


@pytest.mark.parametrize(("kind", "non_tank_reserve", "destroyed"), [
    ("tank", 0, False),  # V-VDMG-4: a tank keeps its reserve of 1 whatever G-26 says
    ("artillery", 1, False),  # G-26 default: 1
    ("artillery", 0, True),  # G-26 set to 0: the first damage destroys
    ("car", 0, True),
])
def test_g_26_non_tank_reserve_applies_to_every_vehicle_but_the_tank(kind, non_tank_reserve, destroyed):
    t = attacker_turn(standard({"non_tank_reserve": non_tank_reserve}))
    tank(t, "defender", "X3", armour=3, gun=0, kind=kind)
    t.fire("AT3", "gun", target="vehicle", target_id="X3", distance=5, hit=D(12))
    x = t.v("X3")
    assert x.destroyed is destroyed and (destroyed or x.damage == 1)


def test_v_cmd_9_a_class_without_an_observation_distance_is_refused_not_given_12_in():
    """G-1: observation_distance has no hidden 12 in fallback."""
    t = attacker_turn(standard({"observation_distance": {"rifleman": None}}))
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=3,
                    struck=[{"fighter": "d1", "die": D(15)}])
    assert err.rule_id == "S-RULES" and "observation_distance" in err.message_en


def test_v_cmd_9_every_infantry_class_has_an_explicit_observation_distance():
    table = rules_data.DEFAULT_RULES["observation_distance"]
    assert set(rules_data.INFANTRY_CLASSES) <= set(table) and all(v is not None for v in table.values())

"""The infantry table as the engine reads it (G-1, G-3): per-class tables with
rank-specific entries for officers (``"officer:lieutenant"`` before
``"officer"``), and ``infantry_fire``, the fire distance of a class's own
small arm by posture (V-CMD-11), where ``None`` means no fire in that posture."""
import pytest

from battles import engine
from battles.engine.rules.fire import own_weapon
from battles.engine.state import Fighter

from .table import D, attacker_turn, standard


def at_turn_rules(rules=None, **postures):
    return attacker_turn(standard(rules), **postures)


def test_g1_officer_rank_entry_prevails_over_the_class_for_observation_v_cmd_8():
    t = at_turn_rules({"observation_distance": {"officer": 12.0, "officer:lieutenant": 20.0},
                       "infantry_fire": {"officer": {"dug_in": 30.0}}})
    t.fire("a_lt", "rifle", distance=15, struck=[{"fighter": "d1", "die": D(3)}])  # 15 <= 20: in sight
    err = t.refused("fire", shooter="a_cpt", weapon="rifle", target="fighters", distance=15,
                    struck=[{"fighter": "d2", "die": D(3)}])
    assert err.rule_id == "V-CMD-8"  # the captain has no rank entry: the officer's 12 in


def test_g1_g2_officer_rank_attack_coefficient():
    t = at_turn_rules({"attack": {"officer": 0, "officer:captain": 3}})
    t.fire("a_cpt", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(8)}])
    t.fire("a_lt", "rifle", distance=5, struck=[{"fighter": "d2", "die": D(8)}])
    assert t.f("d1").wounded, "8 + 3 >= 11"
    assert not t.f("d2").wounded, "the lieutenant falls back to the officer's 0"


def test_g1_g2_officer_rank_defence_coefficient():
    t = at_turn_rules({"defence": {"officer": 0, "officer:lieutenant": 2}})
    t.fire("a1", "rifle", distance=5, struck=[{"fighter": "d_lt", "die": D(12)}])
    t.fire("a2", "rifle", distance=5, struck=[{"fighter": "d_sgt", "die": D(12)}])
    assert not t.f("d_lt").wounded, "12 - 2 < 11"
    assert t.f("d_sgt").wounded


def test_g3_v_cmd_11_a_posture_without_fire_distance_refuses_fire():
    rules = {"infantry_fire": {"rifleman": {"dug_in": 8.0, "recon": None, "assault": 8.0}}}
    t = at_turn_rules(rules)  # squad A is in recon
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=2,
                    struck=[{"fighter": "d1", "die": D(15)}])
    assert err.rule_id == "V-CMD-11" and "G-3" in err.message_en and "в разведке" in err.message_ru
    t2 = at_turn_rules(rules, A="assault")
    t2.fire("a1", "rifle", distance=2, struck=[{"fighter": "d1", "die": D(15)}])
    assert t2.f("d1").wounded


@pytest.mark.parametrize(("distance", "ok"), [(4.0, True), (4.01, False)])
def test_g3_v_cmd_11_the_class_fire_distance_prevails_over_the_weapons(distance, ok):
    t = at_turn_rules({"infantry_fire": {"lmg_gunner": {"recon": 4.0}}})
    data = dict(shooter="a_lmg", weapon="lmg", target="fighters", distance=distance,
                struck=[{"fighter": "d1", "die": D(3)}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


def test_g3_officer_rank_fire_distance():
    t = at_turn_rules({"infantry_fire": {"officer": {"dug_in": 8.0}, "officer:captain": {"dug_in": 12.0}}})
    t.fire("a_cpt", "rifle", distance=12, struck=[{"fighter": "d1", "die": D(3)}])
    assert t.refused("fire", shooter="a_lt", weapon="rifle", target="fighters", distance=12,
                     struck=[{"fighter": "d2", "die": D(3)}]).rule_id == "V-CMD-11"


def test_g3_a_weapon_not_of_the_class_keeps_the_weapons_fire_distance():
    """The LMG gunner's row gives his LMG's distance, not a rifle's (V-CMD-11)."""
    t = at_turn_rules({"infantry_fire": {"lmg_gunner": {"recon": 20.0}}})
    err = t.refused("fire", shooter="a_lmg", weapon="rifle", target="fighters", distance=10,
                    struck=[{"fighter": "d1", "die": D(3)}])
    assert err.rule_id == "V-CMD-11"  # fire_distance["rifle"] is 8


def test_g3_own_small_arm_of_each_class():
    def f(cls, rank=""):
        return Fighter(id="x", side="attacker", unit="", cls=cls, rank=rank)

    assert own_weapon(f("rifleman"), "rifle") and own_weapon(f("officer", "captain"), "rifle")
    assert own_weapon(f("sniper"), "sniper_rifle") and not own_weapon(f("sniper"), "rifle")
    assert own_weapon(f("at_grenadier"), "at_rifle") and own_weapon(f("at_grenadier"), "at_grenade_launcher")
    assert own_weapon(f("hmg_gunner"), "hmg") and not own_weapon(f("lmg_gunner"), "hmg")
    assert not own_weapon(f("rifleman"), "grenade") and not own_weapon(f("rifleman"), "vehicle_mg")


def test_g3_no_infantry_fire_by_default_so_old_logs_replay_identically():
    assert engine.DEFAULT_RULES["infantry_fire"] == {}
    t = at_turn_rules()
    t.fire("a1", "rifle", distance=8, struck=[{"fighter": "d1", "die": D(3)}])
    assert t.refused("fire", shooter="a2", weapon="rifle", target="fighters", distance=8.01,
                     struck=[{"fighter": "d2", "die": D(3)}]).rule_id == "V-CMD-11"

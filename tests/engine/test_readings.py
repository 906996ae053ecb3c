"""Every catalog ``reading:`` the engine adopts is rules data: the default
follows the catalog, and the game master's alternative takes effect."""
import pytest

from battles.engine import READINGS

from .table import D, F, attacker_turn, standard, tank


def test_every_reading_key_is_documented():
    assert all(v.startswith("V-") for v in READINGS.values())


@pytest.mark.parametrize(("mode", "top"), [("set", 12.0), ("add", 20.0)])
def test_v_house_10_reading_set_or_add(mode, top):
    t = standard({"house_fire_distance": mode, "observation_distance": {"rifleman": 30.0}})
    t.postures("defender", D="dug_in")
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    assert t.refused("fire", shooter="h1", weapon="rifle", target="fighters", distance=top + 0.01,
                     struck=[{"fighter": "a1", "die": D(3)}]).rule_id == "V-CMD-11"
    t.fire("h1", "rifle", distance=top, struck=[{"fighter": "a1", "die": D(3)}])


@pytest.mark.parametrize(("per_hit", "damage", "wounded"), [(1, 1, False), (2, 2, True)])
def test_v_house_2_reading_damage_per_hit(per_hit, damage, wounded):
    t = attacker_turn(standard({"house_damage_per_hit": per_hit}))
    t.add("force_mustered", side="defender", fighters=[F("h1", "D", building="H")])
    t.fire("a_fl", "flamethrower", target="house", target_id="H", distance=4, hit=D(15))
    assert t.state.buildings["H"].damage == damage and t.f("h1").wounded is wounded


def test_v_bunk_2_reading_can_be_switched_to_v_snip_3():
    t = attacker_turn(standard({"bunker_sniper_needs_spot": False}))
    t.add("force_mustered", side="defender", fighters=[F("b1", "D", bunker="B")])
    t.fire("a_snp", "sniper_rifle", distance=12, struck=[{"fighter": "b1", "die": D(13), "embrasure": True}])
    assert t.f("b1").wounded


@pytest.mark.parametrize(("all_", "wounded"), [(True, {"a1", "a2"}), (False, {"a2"})])
def test_v_mine_4_reading_every_infantryman_or_only_the_nearest(all_, wounded):
    t = standard({"ap_mine_wounds_all": all_})
    t.postures("defender")
    t.add("sapper_approached", sapper="d_sap", object="M", distance=2)
    t.next_turn()
    t.next_turn()
    t.add("sapper_worked", sapper="d_sap", action="lay", object="M", kind="ap")
    t.add("mine_triggered", mine="M", distance=1, victims=[{"fighter": "a1", "distance": 1.5},
                                                           {"fighter": "a2", "distance": 0.5}])
    assert {f for f in ("a1", "a2") if t.f(f).wounded} == wounded


@pytest.mark.parametrize(("allowed", "rule"), [(False, "V-ATGL-1"), (True, None)])
def test_v_atgl_1_reading_no_ambush_unless_the_master_allows_it(allowed, rule):
    t = attacker_turn(standard({"at_grenade_ambush": allowed}))
    t.add("force_mustered", side="defender", fighters=[F("d_at", "D", "at_grenadier")])
    t.add("vehicle_moved", vehicle="AT3", distance=6)
    data = dict(shooter="d_at", weapon="at_grenade_launcher", target="vehicle", target_id="AT3", distance=5,
                hit=D(12), ambush=True, path_distance=1)
    if rule:
        assert t.refused("fire", **data).rule_id == rule
    else:
        t.add("fire", **data)
        assert t.v("AT3").destroyed  # class 5 > 3
        assert t.refused("fire", **data).rule_id == "V-GUN-4"  # one per phase (G-24)


@pytest.mark.parametrize(("stop", "destroyed"), [(True, False), (False, True)])
def test_v_vdmg_8_reading_skirts_and_at_rifles(stop, destroyed):
    t = attacker_turn(standard({"skirts_stop_at_rifles": stop}))
    tank(t, "defender", "SK", armour=4, gun=0, skirts=True)
    t.fire("a_at", "at_rifle", target="vehicle", target_id="SK", distance=5, hit=D(12))
    assert t.v("SK").destroyed is destroyed


@pytest.mark.parametrize(("gear", "expected"), [(False, False), (True, True)])
def test_v_test_10_reading_running_gear_from_a_lower_class_gun(gear, expected):
    t = attacker_turn(standard({"running_gear_when_outclassed": gear}))
    t.fire("AT3", "gun", target="vehicle", target_id="DT4", distance=10, hit=D(18))
    assert t.v("DT4").running_gear is expected and t.v("DT4").damage == 0


@pytest.mark.parametrize(("bonus", "top"), [(True, 28.0), (False, 24.0)])
def test_v_scout_2_reading_height_bonus_for_scouts(bonus, top):
    t = attacker_turn(standard({"scout_height_bonus": bonus, "fire_distance": {"rifle": 40.0}}))
    assert t.refused("fire", shooter="a_sc", weapon="rifle", target="fighters", distance=top + 0.01, on_height=True,
                     struck=[{"fighter": "d1", "die": D(3)}]).rule_id == "V-CMD-8"
    t.fire("a_sc", "rifle", distance=top, on_height=True, struck=[{"fighter": "d1", "die": D(3)}])


@pytest.mark.parametrize(("per_fighter", "captured"), [(True, {"a1"}), (False, None)])
def test_v_test_3_reading_surrender_per_fighter_or_whole_unit(per_fighter, captured):
    t = attacker_turn(standard({"surrender_per_fighter": per_fighter}))
    t.add("morale_test", unit="A", die=D(3), officer_distances={}, enemy_distances={"a1": 5.0})
    got = {f.id for f in t.state.fighters.values() if f.captured}
    members = {f.id for f in t.state.fighters.values() if f.unit == "A" and f.cls != "sniper"}
    assert got == (captured if captured is not None else members)


@pytest.mark.parametrize(("period", "third_ok"), [("battle", False), ("turn", True)])
def test_v_smoke_3_reading_per_battle_or_per_turn(period, third_ok):
    t = attacker_turn(standard({"smoke_period": period}))
    for i, shooter in enumerate(("a1", "a2")):
        t.add("smoke_fired", shooter=shooter, officer="a_sgt", officer_distance=5, smoke=f"s{i}")
    t.next_turn()
    t.next_turn(A="recon")
    data = dict(shooter="a3", officer="a_sgt", officer_distance=5, smoke="s9")
    if third_ok:
        t.add("smoke_fired", **data)
    else:
        assert t.refused("smoke_fired", **data).rule_id == "V-SMOKE-3"

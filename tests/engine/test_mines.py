"""Mines (V-MINE-1..9): laid in the sappers' scheme, going off under infantry and vehicles, the damage, the
wounds and the credits."""
import pytest

from battles.engine.state import Mine

from .engineering_helpers import V, _mine_laid, approached, laid_mine, mined
from .table import standard, tank


def test_v_mine_1_only_sappers_lay_mines_and_v_sap_1_2_3_two_turn_scheme():
    t = standard()
    t.postures("defender")
    err = t.refused("sapper_approached", sapper="d1", object="M1", distance=1)
    assert err.rule_id == "V-SAP-1"
    assert t.refused("sapper_approached", sapper="d_sap", object="M1", distance=4.01).rule_id == "V-SAP-2"
    t.add("sapper_approached", sapper="d_sap", object="M1", distance=4)
    err = t.refused("sapper_worked", sapper="d_sap", action="lay", object="M1", kind="ap")
    assert err.rule_id == "V-SAP-3"  # not in the same turn
    err = t.refused("sapper_worked", sapper="d1", action="lay", object="M1", kind="ap")
    assert err.rule_id == "V-MINE-1"
    t.next_turn()
    t.next_turn()
    t.add("sapper_worked", sapper="d_sap", action="lay", object="M1", kind="ap")
    assert t.state.mines["M1"].side == "defender" and t.state.mines["M1"].active


def test_v_mine_1_the_mine_is_the_sappers_who_laid_it():
    """V-MINE-1: a sapper places the mine: it is his, and the man it wounds is credited to him."""
    t = laid_mine()
    assert t.state.mines["M1"].laid_by == "d_sap"
    t.add("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "a1", "distance": 1}])
    assert t.f("a1").wounded and t.f("d_sap").credit.wounds == 1


@pytest.mark.parametrize(("dist", "ok"), [(2.0, True), (2.01, False)])
def test_v_mine_2_goes_off_when_an_enemy_ends_its_move_within_2(dist, ok):
    t = laid_mine()
    data = dict(mine="M1", distance=dist, victims=[{"fighter": "a1", "distance": dist}])
    if ok:
        t.add("mine_triggered", **data)
        assert t.f("a1").wounded and not t.state.mines["M1"].active
    else:
        assert t.refused("mine_triggered", **data).rule_id == "V-MINE-2"


def test_v_mine_3_4_ap_mine_wounds_every_infantryman_within_2():
    """V-MINE-3 (radius 2\"), V-MINE-4 (reading: every infantryman within 2\" is wounded)."""
    t = laid_mine()
    t.add("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "a1", "distance": 1},
                                                            {"fighter": "a2", "distance": 2}])
    assert t.f("a1").wounded and t.f("a2").wounded
    t2 = laid_mine()
    err = t2.refused("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "a1", "distance": 2.01}])
    assert err.rule_id == "V-MINE-3"


def test_v_mine_8_a_vehicle_does_not_set_off_an_ap_mine():
    t = laid_mine()
    assert t.refused("mine_triggered", mine="M1", distance=1, vehicle="AT3").rule_id == "V-MINE-8"


def test_v_mine_7_infantry_does_not_set_off_an_at_mine():
    t = laid_mine("at")
    err = t.refused("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "a1", "distance": 1}])
    assert err.rule_id == "V-MINE-7"


@pytest.mark.parametrize(("armour", "destroyed"), [(1, True), (2, True), (3, False), (6, False)])
def test_v_mine_5_6_at_mine_destroys_class_1_2_and_damages_3_6_with_running_gear(armour, destroyed):
    """V-MINE-5 (class 3-6: 1 damage + running gear), V-MINE-6 (class 1-2 destroyed)."""
    t = laid_mine("at")
    tank(t, "attacker", "V", armour=armour, gun=0)
    t.add("mine_triggered", mine="M1", distance=0.5, vehicle="V")
    v = t.v("V")
    assert v.destroyed is destroyed
    if not destroyed:
        assert v.damage == 1 and v.running_gear


def test_v_mine_9_a_trawl_takes_the_blast_and_the_tank_moves_on():
    t = laid_mine("at")
    tank(t, "attacker", "V", armour=3, gun=0, specialisations=["mine_trawl"])
    t.add("mine_triggered", mine="M1", distance=0.5, vehicle="V", trawl=True)
    v = t.v("V")
    assert (v.damage, v.running_gear, "mine_trawl" in v.specialisations) == (0, False, False)
    t.add("vehicle_moved", vehicle="V", distance=5)
    assert t.refused("mine_triggered", mine="M1", distance=0.5, vehicle="V").rule_id == "S-UNKNOWN"  # spent


def test_v_mine_2_only_an_enemy_of_the_owner_sets_off_a_mine():
    t = laid_mine()
    err = t.refused("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "d1", "distance": 1}])
    assert err.rule_id == "V-MINE-2"
    t.add("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "a1", "distance": 1},
                                                            {"fighter": "d1", "distance": 2}])
    assert t.f("a1").wounded and t.f("d1").wounded  # V-MINE-4 reading: every infantryman within 2"


# Every branch of the sapper, mine and charge checks pinned (issue 11): the two-turn scheme
# (V-SAP-1..4, V-MINE-1, G-22), mines going off (V-MINE-2..9, V-RIDE-7), charges (V-MINE-10..12)
# and detection (V-MINE-13, -14). Each refusal's rule ID is asserted, with the case just inside
# and just outside every threshold; thresholds of the rules data are also moved to show they are read.






# --- mine_triggered ---------------------------------------------------------------------------------------
def test_v_mine_2_a_mine_before_the_battle_starts_is_refused():
    t = standard(start=False)
    t.state.mines["M"] = Mine("M", "defender", "ap", "d_sap")
    assert t.refused("mine_triggered", mine="M", distance=1, victims=[V("a1")]).rule_id == "S-NOT-STARTED"


@pytest.mark.parametrize("case", ["unknown", "spent", "charge"])
def test_v_mine_2_only_a_live_mine_goes_off(case):
    t = mined("charge" if case == "charge" else "ap")
    if case == "spent":
        t.state.mines["M"].active = False
    mid = "NOPE" if case == "unknown" else "M"
    assert t.refused("mine_triggered", mine=mid, distance=1, victims=[V("a1")]).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("dist", "ok"), [(3.0, True), (3.01, False)])
def test_v_mine_2_the_masters_trigger_distance_counts(dist, ok):
    t = mined(rules={"mine_trigger_distance": 3.0})
    data = dict(mine="M", distance=dist, victims=[V("a1")])
    if ok:
        t.add("mine_triggered", **data)
        assert t.f("a1").wounded
    else:
        assert t.refused("mine_triggered", **data).rule_id == "V-MINE-2"


def test_v_mine_2_goes_off_in_any_turn_and_spends_the_mine():
    t = mined()
    t.next_turn()  # the defender's turn: the attacker's man ended a move earlier
    t.add("mine_triggered", mine="M", distance=2.0, victims=[V("a1", 0.0)])
    assert t.f("a1").wounded and t.state.mines["M"].active is False
    assert t.refused("mine_triggered", mine="M", distance=1, victims=[V("a2")]).rule_id == "S-UNKNOWN"


def test_v_mine_2_an_ap_mine_needs_an_enemy_among_the_men_named():
    t = mined()
    assert t.refused("mine_triggered", mine="M", distance=1, victims=[]).rule_id == "V-MINE-2"
    assert t.refused("mine_triggered", mine="M", distance=1, victims=[V("d1"), V("d2")]).rule_id == "V-MINE-2"


def test_v_mine_4_one_enemy_sets_it_off_and_the_blast_wounds_every_man_in_it_friend_or_foe():
    t = mined()
    t.add("mine_triggered", mine="M", distance=1, victims=[V("d1", 0.5), V("a1", 1.5)])
    assert t.f("a1").wounded and t.f("d1").wounded


def test_v_mine_2_an_unknown_victim_is_refused_s_unknown():
    t = mined()
    assert t.refused("mine_triggered", mine="M", distance=1, victims=[V("a1"), V("ghost")]).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("dist", "ok"), [(2.0, True), (2.01, False)])
def test_v_mine_3_every_victim_is_within_the_2_inch_radius(dist, ok):
    t = mined()
    data = dict(mine="M", distance=0.5, victims=[V("a1", 0.5), V("a2", dist)])
    if ok:
        t.add("mine_triggered", **data)
        assert t.f("a2").wounded
    else:
        assert t.refused("mine_triggered", **data).rule_id == "V-MINE-3"


@pytest.mark.parametrize(("dist", "ok"), [(1.0, True), (1.01, False)])
def test_v_mine_3_the_masters_radius_counts(dist, ok):
    t = mined(rules={"mine_radius": 1.0})
    data = dict(mine="M", distance=0.5, victims=[V("a1", dist)])
    if ok:
        t.add("mine_triggered", **data)
    else:
        assert t.refused("mine_triggered", **data).rule_id == "V-MINE-3"


def test_v_mine_4_a_man_aboard_a_vehicle_is_not_on_the_ground():
    t = mined()
    t.add("embarked", vehicle="AP", fighters=["a2"])
    err = t.refused("mine_triggered", mine="M", distance=1, victims=[V("a1"), V("a2")])
    assert err.rule_id == "V-MINE-4" and "a2" in err.message_en


def test_v_mine_4_reading_off_only_the_nearest_man_is_wounded_ties_by_id():
    t = mined(rules={"ap_mine_wounds_all": False})
    t.add("mine_triggered", mine="M", distance=1, victims=[V("a3", 1.5), V("a2", 0.5), V("a1", 0.5)])
    assert [t.f(x).wounded for x in ("a1", "a2", "a3")] == [True, False, False]


def test_v_med_1_an_ap_mine_kills_a_man_wounded_this_turn_and_credits_the_layer():
    t = mined()
    t.f("a1").wounded, t.f("a1").wounded_turn = True, t.state.turn
    t.add("mine_triggered", mine="M", distance=1, victims=[V("a1"), V("a2")])
    assert t.f("a1").dead and t.f("a2").wounded
    assert t.f("d_sap").credit.kills == 1 and t.f("d_sap").credit.wounds == 1


def test_v_mine_8_an_ap_mine_refuses_a_vehicle_even_with_men_named():
    t = mined()
    assert t.refused("mine_triggered", mine="M", distance=1, vehicle="AT3", victims=[V("a1")]).rule_id == "V-MINE-8"


def test_v_mine_7_an_at_mine_refuses_infantry_even_with_no_men_named():
    t = mined("at")
    assert t.refused("mine_triggered", mine="M", distance=1).rule_id == "V-MINE-7"


def test_v_mine_5_an_at_mine_refuses_an_unknown_or_destroyed_vehicle():
    t = mined("at")
    assert t.refused("mine_triggered", mine="M", distance=1, vehicle="NOPE").rule_id == "S-UNKNOWN"
    t.state.vehicles["AT3"].destroyed = True
    assert t.refused("mine_triggered", mine="M", distance=1, vehicle="AT3").rule_id == "V-MINE-2"


def test_v_mine_2_an_attackers_mine_is_set_off_by_the_defenders_vehicle_not_its_own():
    t = mined("at", side="attacker", laid_by="a_sap")
    assert t.refused("mine_triggered", mine="M", distance=1, vehicle="AT3").rule_id == "V-MINE-2"
    t.add("mine_triggered", mine="M", distance=1, vehicle="DT4")
    assert t.v("DT4").damage == 1 and t.v("DT4").running_gear


def test_v_mine_9_a_trawl_named_on_a_tank_without_one_is_refused_even_for_an_ap_free_mine():
    t = mined("at")
    assert t.refused("mine_triggered", mine="M", distance=1, vehicle="AT3", trawl=True).rule_id == "V-MINE-9"
    t.add("mine_triggered", mine="M", distance=1, vehicle="AT3", trawl=False)
    assert t.v("AT3").damage == 1


def test_v_mine_9_the_trawl_is_spent_and_the_riders_are_spared():
    t = mined("at")
    tank(t, "attacker", "TR", armour=3, gun=0, specialisations=["mine_trawl", "spotter"])
    t.add("embarked", vehicle="TR", fighters=["a1"], role="riders")
    t.add("mine_triggered", mine="M", distance=1, vehicle="TR", trawl=True)
    tr = t.v("TR")
    assert tr.specialisations == ["spotter"] and not tr.destroyed and tr.damage == 0 and not tr.running_gear
    assert not t.f("a1").wounded
    assert t.state.mines["M"].active is False


@pytest.mark.parametrize(("armour", "destroyed"), [(2, True), (3, False)])
def test_v_mine_5_6_the_armour_class_2_3_boundary_and_v_ride_7_riders_wounded(armour, destroyed):
    t = mined("at", rules={"riders_min_armour": 1})
    tank(t, "attacker", "T", armour=armour, gun=0)
    t.add("embarked", vehicle="T", fighters=["a1"], role="riders")
    t.add("mine_triggered", mine="M", distance=1, vehicle="T")
    assert t.v("T").destroyed is destroyed
    assert t.v("T").damage == (0 if destroyed else 1)
    assert t.f("a1").wounded or t.f("a1").dead


def test_v_mine_5_a_tank_with_its_reserve_spent_is_destroyed_by_an_at_mine():
    """V-MINE-5 (one damage) and V-VDMG-4 (a tank's reserve is 1): the second damage destroys it."""
    t = mined("at")
    t.state.vehicles["AT3"].damage = 1  # damaged earlier (given)
    t.add("mine_triggered", mine="M", distance=1, vehicle="AT3")
    assert t.v("AT3").destroyed and t.f("a_tc").dead
    assert t.f("d_sap").credit.vehicles_destroyed == 1


def test_v_mine_5_a_first_damage_leaves_the_tank_running():
    t = mined("at")
    t.add("mine_triggered", mine="M", distance=1, vehicle="AT3")
    assert not t.v("AT3").destroyed and t.v("AT3").damage == 1 and t.v("AT3").running_gear


def test_v_mine_1_a_non_sapper_laying_is_refused_v_mine_1_removing_v_sap_1():
    t = approached()
    assert t.refused("sapper_worked", sapper="a1", action="lay", object="N", kind="ap").rule_id == "V-MINE-1"
    assert t.refused("sapper_worked", sapper="d1", action="lay", object="N", kind="ap").rule_id == "V-MINE-1"
    assert t.refused("sapper_worked", sapper="a1", action="remove", object="W").rule_id == "V-SAP-1"


@pytest.mark.parametrize("kind", ["ap", "at", "charge"])
def test_v_mine_1_a_sapper_lays_each_kind(kind):
    t = approached(obj="N")
    t.add("sapper_worked", sapper="a_sap", action="lay", object="N", kind=kind)
    assert t.state.mines["N"].kind == kind and t.state.mines["N"].side == "attacker"


def test_v_mine_9_a_tank_without_a_trawl_cannot_take_the_blast_on_one():
    t = laid_mine("at")
    tank(t, "attacker", "V", armour=3, gun=0)
    assert t.refused("mine_triggered", mine="M1", distance=0.5, vehicle="V", trawl=True).rule_id == "V-MINE-9"


def test_v_mine_2_a_vehicle_of_the_mines_own_side_does_not_set_it_off():
    t = laid_mine("at")
    tank(t, "defender", "DV", armour=3, gun=0)
    assert t.refused("mine_triggered", mine="M1", distance=0.5, vehicle="DV").rule_id == "V-MINE-2"


def test_v_mine_4_the_wounds_of_an_ap_mine_are_its_layers():
    """V-MINE-4: the AP mine wounds the infantryman; the wound is credited to the sapper who laid it."""
    t = _mine_laid("ap")
    t.add("mine_triggered", mine="M", distance=1, victims=[{"fighter": "a1", "distance": 1}])
    assert t.f("a1").wounded
    assert t.f("d_sap").credit.wounds == 1 and t.f("a1").credit.wounded == 1

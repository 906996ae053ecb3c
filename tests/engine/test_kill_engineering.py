"""Every branch of the sapper, mine and charge checks pinned (issue 11): the two-turn scheme
(V-SAP-1..4, V-MINE-1, G-22), mines going off (V-MINE-2..9, V-RIDE-7), charges (V-MINE-10..12)
and detection (V-MINE-13, -14). Each refusal's rule ID is asserted, with the case just inside
and just outside every threshold; thresholds of the rules data are also moved to show they are read."""
import pytest

from battles.engine.state import Mine

from .table import D, F, attacker_turn, standard, tank


def mined(kind="ap", mid="M", rules=None, side="defender", laid_by="d_sap"):
    """A live mine of the defender (laid earlier: given) and the attacker's turn open."""
    t = attacker_turn(standard(rules))
    t.state.mines[mid] = Mine(mid, side, kind, laid_by)
    return t


def V(fid, distance=1.0, **kw):  # noqa: N802
    return {"fighter": fid, "distance": distance, **kw}


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


# --- sapper_worked ----------------------------------------------------------------------------------------
def approached(sapper="a_sap", obj="W", rules=None):
    """The attacker's sapper stopped at ``obj`` last turn; his next turn is open."""
    t = attacker_turn(standard(rules))
    t.add("sapper_approached", sapper=sapper, object=obj, distance=4)
    assert (t.f(sapper).sapper_object, t.f(sapper).sapper_ply) == (obj, t.state.ply)
    t.next_turn()
    t.next_turn(A="recon")
    return t


def test_v_sap_3_work_before_the_battle_starts_is_refused():
    t = standard(start=False)
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "S-NOT-STARTED"


def test_v_sap_3_an_unknown_sapper_is_refused_s_unknown():
    t = approached()
    assert t.refused("sapper_worked", sapper="ghost", action="remove", object="W").rule_id == "S-UNKNOWN"


def test_v_mine_1_a_non_sapper_laying_is_refused_v_mine_1_removing_v_sap_1():
    t = approached()
    assert t.refused("sapper_worked", sapper="a1", action="lay", object="N", kind="ap").rule_id == "V-MINE-1"
    assert t.refused("sapper_worked", sapper="d1", action="lay", object="N", kind="ap").rule_id == "V-MINE-1"
    assert t.refused("sapper_worked", sapper="a1", action="remove", object="W").rule_id == "V-SAP-1"


@pytest.mark.parametrize(("status", "rule"), [("dead", "S-DEAD"), ("captured", "V-POW-6"), ("wounded", "V-MED-3")])
def test_v_sap_3_an_unfit_sapper_does_not_work_in_or_out_of_turn(status, rule):
    t = approached()
    setattr(t.f("a_sap"), status, True)
    setattr(t.f("d_sap"), status, True)
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == rule
    assert t.refused("sapper_worked", sapper="d_sap", action="remove", object="W").rule_id == rule


def test_v_med_5_a_sapper_recovered_this_turn_does_not_work_it_is_not_a_move():
    t = approached()
    t.f("a_sap").recovering_ply = t.state.ply
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "V-MED-5"


def test_v_turn_12_a_fit_sapper_works_in_his_sides_turn_only():
    t = approached()
    assert t.refused("sapper_worked", sapper="d_sap", action="remove", object="W").rule_id == "V-TURN-12"


def test_v_sap_3_he_works_on_the_object_he_approached_only():
    t = approached(obj="W")
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="FN").rule_id == "V-SAP-3"
    t.add("sapper_worked", sapper="a_sap", action="remove", object="W")
    a_sap = t.f("a_sap")
    assert t.state.wire["W"].removed and not t.state.wire["FN"].removed
    assert (a_sap.sapper_work_ply, a_sap.sapper_object) == (t.state.ply, "")


def test_v_sap_3_without_approaching_first_there_is_no_work():
    t = attacker_turn(standard())
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "V-SAP-3"
    t.f("a_sap").sapper_object = "W"  # named, but never stopped there (given)
    assert t.f("a_sap").sapper_ply == -1
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "V-SAP-3"


def test_v_sap_3_work_is_the_next_turn_one_ply_later_is_enough():
    t = attacker_turn(standard())
    t.add("sapper_approached", sapper="a_sap", object="W", distance=4)
    t.f("a_sap").sapper_ply = t.state.ply - 1  # approached one ply earlier (given)
    t.add("sapper_worked", sapper="a_sap", action="remove", object="W")
    assert t.state.wire["W"].removed


def test_v_sap_3_the_work_is_once_a_second_time_needs_a_new_approach():
    t = approached(obj="W")
    t.add("sapper_worked", sapper="a_sap", action="remove", object="W")
    t.next_turn()
    t.next_turn(A="recon")
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "V-SAP-3"


def test_v_sap_4_a_sapper_who_fired_this_turn_lays_no_mine():
    t = approached(obj="N")
    t.fire("a_sap", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(3)}])
    assert t.refused("sapper_worked", sapper="a_sap", action="lay", object="N", kind="ap").rule_id == "V-SAP-4"


def test_v_sap_4_fire_in_an_earlier_turn_does_not_stop_the_work():
    t = attacker_turn(standard())
    t.fire("a_sap", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(3)}])
    t.add("sapper_approached", sapper="a_sap", object="N", distance=4)
    t.next_turn()
    t.next_turn(A="recon")
    t.add("sapper_worked", sapper="a_sap", action="lay", object="N", kind="at")
    m = t.state.mines["N"]
    assert (m.id, m.side, m.kind, m.laid_by, m.active, m.revealed) == ("N", "attacker", "at", "a_sap", True, False)


@pytest.mark.parametrize("kind", ["ap", "at", "charge"])
def test_v_mine_1_a_sapper_lays_each_kind(kind):
    t = approached(obj="N")
    t.add("sapper_worked", sapper="a_sap", action="lay", object="N", kind=kind)
    assert t.state.mines["N"].kind == kind and t.state.mines["N"].side == "attacker"


def test_v_sap_3_laying_needs_a_kind_and_a_new_id():
    t = approached(obj="M")
    assert t.refused("sapper_worked", sapper="a_sap", action="lay", object="M").rule_id == "V-SAP-3"
    t.state.mines["M"] = Mine("M", "defender", "ap", "d_sap")
    assert t.refused("sapper_worked", sapper="a_sap", action="lay", object="M", kind="ap").rule_id == "V-SAP-3"


@pytest.mark.parametrize(("earlier", "ok"), [(0, True), (1, False)])
def test_g_22_the_limit_counts_this_sappers_own_mines_only(earlier, ok):
    t = approached(obj="N", rules={"mines_per_sapper": 1})
    t.state.mines["O"] = Mine("O", "defender", "ap", "a_sap" if earlier else "d_sap")  # laid earlier (given)
    t.state.mines["P"] = Mine("P", "attacker", "ap", "a_sap2")
    data = dict(sapper="a_sap", action="lay", object="N", kind="ap")
    if ok:
        t.add("sapper_worked", **data)
        assert "N" in t.state.mines
    else:
        assert t.refused("sapper_worked", **data).rule_id == "V-SAP-3"


def test_g_22_a_limit_of_two_allows_the_second():
    t = approached(obj="N", rules={"mines_per_sapper": 2})
    t.state.mines["O"] = Mine("O", "attacker", "ap", "a_sap")
    t.add("sapper_worked", sapper="a_sap", action="lay", object="N", kind="ap")
    assert "N" in t.state.mines


def test_v_sap_3_removing_needs_a_known_object():
    t = approached(obj="Q")
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="Q").rule_id == "S-UNKNOWN"


def test_v_sap_1_a_removed_mine_is_spent_but_still_there():
    t = approached(obj="M")
    t.state.mines["M"] = Mine("M", "defender", "at", "d_sap")
    t.add("sapper_worked", sapper="a_sap", action="remove", object="M")
    assert t.state.mines["M"].active is False and t.state.mines["M"].kind == "at"


# --- charge_detonated -------------------------------------------------------------------------------------
def charge(t, **kw):
    return dict({"charge": "C", "sapper": "d_sap", "officer": "d_sgt", "victims": [], "objects": []}, **kw)


def test_v_mine_10_a_charge_before_the_battle_starts_is_refused():
    t = standard(start=False)
    t.state.mines["C"] = Mine("C", "defender", "charge", "d_sap")
    assert t.refused("charge_detonated", **charge(t)).rule_id == "S-NOT-STARTED"


@pytest.mark.parametrize("case", ["unknown", "spent", "mine"])
def test_v_mine_10_only_a_live_charge_is_detonated(case):
    t = mined("ap" if case == "mine" else "charge", mid="C")
    if case == "spent":
        t.state.mines["C"].active = False
    cid = "NOPE" if case == "unknown" else "C"
    assert t.refused("charge_detonated", **charge(t, charge=cid)).rule_id == "S-UNKNOWN"


def test_v_mine_10_an_unknown_sapper_or_officer_is_refused_s_unknown():
    t = mined("charge", mid="C")
    assert t.refused("charge_detonated", **charge(t, sapper="ghost")).rule_id == "S-UNKNOWN"
    assert t.refused("charge_detonated", **charge(t, officer="ghost")).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("status", "rule"), [("dead", "S-DEAD"), ("captured", "V-POW-6"), ("wounded", "V-MED-3")])
def test_v_mine_10_an_unfit_sapper_does_not_detonate(status, rule):
    t = mined("charge", mid="C")
    setattr(t.f("d_sap"), status, True)
    assert t.refused("charge_detonated", **charge(t)).rule_id == rule


def test_v_med_5_a_sapper_recovered_this_turn_does_not_detonate():
    t = mined("charge", mid="C")
    t.f("d_sap").recovering_ply = t.state.ply
    assert t.refused("charge_detonated", **charge(t)).rule_id == "V-MED-5"


def test_v_mine_10_a_sapper_of_the_charges_side_only():
    t = mined("charge", mid="C")
    assert t.refused("charge_detonated", **charge(t, sapper="d1")).rule_id == "V-MINE-10"
    assert t.refused("charge_detonated", **charge(t, sapper="a_sap")).rule_id == "V-MINE-10"


@pytest.mark.parametrize("officer", ["d1", "a_lt", "a_sgt"])
def test_v_mine_10_an_officer_of_the_charges_side_orders_it(officer):
    t = mined("charge", mid="C")
    assert t.refused("charge_detonated", **charge(t, officer=officer)).rule_id == "V-MINE-10"


def test_v_mine_10_a_lieutenant_of_the_side_orders_it_in_the_enemys_turn():
    t = mined("charge", mid="C")
    t.add("charge_detonated", **charge(t, officer="d_lt", victims=[V("a1", 3.0)]))
    assert t.f("a1").dead and t.state.mines["C"].active is False
    assert t.f("d_sap").credit.kills == 1
    assert t.refused("charge_detonated", **charge(t)).rule_id == "S-UNKNOWN"  # spent


def test_v_mine_11_an_unknown_victim_is_refused_s_unknown():
    t = mined("charge", mid="C")
    assert t.refused("charge_detonated", **charge(t, victims=[V("ghost")])).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("dist", "ok"), [(4.0, True), (4.01, False)])
def test_v_mine_11_the_masters_charge_radius_counts(dist, ok):
    t = mined("charge", mid="C", rules={"charge_radius": 4.0})
    data = charge(t, victims=[V("a1", 1.0), V("a2", dist)])
    if ok:
        t.add("charge_detonated", **data)
        assert t.f("a2").dead
    else:
        assert t.refused("charge_detonated", **data).rule_id == "V-MINE-11"


def test_v_mine_11_on_the_objects_base_at_any_distance():
    t = mined("charge", mid="C")
    t.add("charge_detonated", **charge(t, victims=[V("a1", 9.0, on_object_base=True)]))
    assert t.f("a1").dead


def test_v_mine_11_reading_charge_affects_friends_kills_the_own_side_too():
    t = mined("charge", mid="C", rules={"charge_affects_friends": True})
    t.add("charge_detonated", **charge(t, victims=[V("a1"), V("d2")]))
    assert t.f("a1").dead and t.f("d2").dead


def test_v_mine_11_by_default_friends_in_the_blast_live():
    t = mined("charge", mid="C")
    t.add("charge_detonated", **charge(t, victims=[V("d2"), V("a1")]))
    assert t.f("a1").dead and not t.f("d2").dead and t.f("d_sap").credit.kills == 1


def test_v_mine_12_a_pillbox_becomes_light_cover_and_an_unknown_object_is_refused():
    t = mined("charge", mid="C")
    assert t.refused("charge_detonated", **charge(t, objects=["B", "NOPE"])).rule_id == "S-UNKNOWN"
    assert t.refused("charge_detonated", **charge(t, objects=["W"])).rule_id == "S-UNKNOWN"  # wire is no object
    t.add("charge_detonated", **charge(t, objects=["B"]))
    assert t.state.bunkers["B"].light_cover and not t.state.buildings["H"].light_cover
    assert t.state.buildings["H"].damage == 0 and t.f("d_sap").credit.buildings_damaged == 1


def test_v_mine_12_a_house_already_light_cover_is_not_counted_again():
    t = mined("charge", mid="C")
    t.state.mines["C2"] = Mine("C2", "defender", "charge", "d_sap")
    t.add("charge_detonated", **charge(t, objects=["H", "B"]))
    assert t.state.buildings["H"].damage == 3 and t.f("d_sap").credit.buildings_damaged == 2
    t.add("charge_detonated", **charge(t, charge="C2", objects=["H"]))
    assert t.f("d_sap").credit.buildings_damaged == 2


# --- mine_revealed ----------------------------------------------------------------------------------------
def test_v_mine_14_revealing_before_the_battle_starts_is_refused():
    t = standard(start=False)
    t.state.mines["M"] = Mine("M", "defender", "ap", "d_sap")
    assert t.refused("mine_revealed", mine="M", sapper="a_sap", distance=1).rule_id == "S-NOT-STARTED"


@pytest.mark.parametrize("case", ["unknown", "spent"])
def test_v_mine_14_only_a_live_mine_is_revealed(case):
    t = mined()
    t.state.mines["M"].active = case != "spent"
    mid = "NOPE" if case == "unknown" else "M"
    assert t.refused("mine_revealed", mine=mid, sapper="a_sap", distance=1).rule_id == "S-UNKNOWN"


def test_v_mine_14_a_charge_is_revealed_too_in_any_turn():
    t = mined("charge", mid="C")
    t.next_turn()
    t.add("mine_revealed", mine="C", sapper="a_sap", distance=6.0)
    assert t.state.mines["C"].revealed and t.state.mines["C"].active


def test_v_mine_13_an_unknown_sapper_is_refused_s_unknown():
    t = mined()
    assert t.refused("mine_revealed", mine="M", sapper="ghost", distance=1).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("who", "status", "rule"), [
    ("a1", None, "V-MINE-13"), ("d_sap", None, "V-MINE-14"), ("a_sap", "dead", "V-MINE-14"),
    ("a_sap", "captured", "V-MINE-14"),
])
def test_v_mine_13_14_a_live_free_enemy_sapper_reveals(who, status, rule):
    t = mined()
    if status:
        setattr(t.f(who), status, True)
    if rule:
        assert t.refused("mine_revealed", mine="M", sapper=who, distance=1).rule_id == rule
        assert not t.state.mines["M"].revealed
    else:
        t.add("mine_revealed", mine="M", sapper=who, distance=1)
        assert t.state.mines["M"].revealed


def test_v_mine_13_a_dead_non_sapper_is_refused_as_no_sapper():
    t = mined()
    t.f("a1").dead = True
    assert t.refused("mine_revealed", mine="M", sapper="a1", distance=1).rule_id == "V-MINE-13"


@pytest.mark.parametrize(("dist", "ok"), [(3.0, True), (3.01, False)])
def test_v_mine_14_the_masters_reveal_distance_counts(dist, ok):
    t = mined(rules={"sapper_reveal_distance": 3.0})
    if ok:
        t.add("mine_revealed", mine="M", sapper="a_sap", distance=dist)
        assert t.state.mines["M"].revealed
    else:
        assert t.refused("mine_revealed", mine="M", sapper="a_sap", distance=dist).rule_id == "V-MINE-14"


# --- sapper_approached (the rest of the module) -----------------------------------------------------------
@pytest.mark.parametrize(("dist", "ok"), [(5.0, True), (5.01, False)])
def test_v_sap_2_the_masters_sapper_reach_counts(dist, ok):
    t = attacker_turn(standard({"sapper_reach": 5.0}))
    if ok:
        t.add("sapper_approached", sapper="a_sap", object="W", distance=dist)
        assert t.f("a_sap").sapper_object == "W"
    else:
        assert t.refused("sapper_approached", sapper="a_sap", object="W", distance=dist).rule_id == "V-SAP-2"


def test_v_sap_2_approaching_before_the_battle_starts_is_refused_and_an_unfit_sapper_too():
    t = standard(start=False)
    assert t.refused("sapper_approached", sapper="a_sap", object="W", distance=1).rule_id == "S-NOT-STARTED"
    t = attacker_turn(standard())
    t.f("a_sap").recovering_ply = t.state.ply
    assert t.refused("sapper_approached", sapper="a_sap", object="W", distance=1).rule_id == "V-MED-5"
    assert t.refused("sapper_approached", sapper="d_sap", object="W", distance=1).rule_id == "V-TURN-12"
    t.add("force_mustered", side="attacker", fighters=[F("a_sap2", "A", "sapper")])
    t.add("sapper_approached", sapper="a_sap2", object="W", distance=0)

"""Demolition charges (V-MINE-10..12): set, detonated and what they destroy, wound and credit."""
import pytest

from battles.engine.state import Mine

from .engineering_helpers import V, laid_mine, mined
from .table import F, standard


# --- charge_detonated -------------------------------------------------------------------------------------
def charge(t, **kw):
    return dict({"charge": "C", "sapper": "d_sap", "officer": "d_sgt", "victims": [], "objects": []}, **kw)


def test_v_mine_10_11_12_charge_on_an_officers_order_kills_enemy_infantry_makes_light_cover():
    """V-MINE-10, V-MINE-11, V-MINE-12."""
    t = laid_mine("charge", "C1")
    t.add("force_mustered", side="attacker", fighters=[F("h1", "A", building="H")])
    err = t.refused("charge_detonated", charge="C1", sapper="d_sap", officer="d1", victims=[])
    assert err.rule_id == "V-MINE-10"
    t.add("charge_detonated", charge="C1", sapper="d_sap", officer="d_sgt",  # in the enemy's turn, any distance
          victims=[{"fighter": "a1", "distance": 3.0}, {"fighter": "h1", "distance": 5, "on_object_base": True},
                   {"fighter": "d2", "distance": 1.0}], objects=["H"])
    assert t.f("a1").dead and t.f("h1").dead  # regardless of cover and walls
    assert not t.f("d2").dead  # reading: enemy infantry only
    assert t.state.buildings["H"].light_cover  # V-MINE-12


def test_v_mine_11_beyond_3_inches_off_the_base_is_refused():
    t = laid_mine("charge", "C1")
    err = t.refused("charge_detonated", charge="C1", sapper="d_sap", officer="d_sgt",
                    victims=[{"fighter": "a1", "distance": 3.01}])
    assert err.rule_id == "V-MINE-11"


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


# --- what charges, mines, riders, capture and crews leave in the state and the credits ------------------------
def test_v_mine_11_12_a_charge_credits_its_sapper_with_the_kills_and_the_damaged_house():
    """V-MINE-11: the men the charge kills are the sapper's kills; V-MINE-12: the house it wrecks (light
    cover, damage 3) is a building he damaged (campaign credits, V-RANK)."""
    t = laid_mine("charge", "C1")
    t.add("charge_detonated", charge="C1", sapper="d_sap", officer="d_sgt",
          victims=[{"fighter": "a1", "distance": 1.0}, {"fighter": "a2", "distance": 2.0}], objects=["H"])
    assert t.f("a1").dead and t.f("a2").dead
    assert t.f("d_sap").credit.kills == 2
    assert t.f("d_sap").credit.buildings_damaged == 1
    assert t.state.buildings["H"].damage == 3


def test_v_mine_12_a_charge_names_only_objects_on_the_table():
    t = laid_mine("charge", "C1")
    err = t.refused("charge_detonated", charge="C1", sapper="d_sap", officer="d_sgt", victims=[], objects=["nowhere"])
    assert err.rule_id == "S-UNKNOWN"

"""Sappers (V-SAP-1..4, G-22): the two-turn scheme of laying and clearing, approaching, and the sapper's fire."""
import pytest

from battles.engine.state import Mine

from .engineering_helpers import approached, laid_mine
from .table import D, F, attacker_turn, standard


def test_v_sap_1_sapper_defuses_a_mine_v_mine_14_once_shown():
    t = laid_mine()
    t.add("sapper_approached", sapper="a_sap", object="M1", distance=3)
    t.add("mine_revealed", mine="M1", sapper="a_sap", distance=3)
    t.next_turn()
    t.next_turn(A="recon")
    t.add("sapper_worked", sapper="a_sap", action="remove", object="M1")
    assert not t.state.mines["M1"].active


def test_v_sap_3_work_before_the_battle_starts_is_refused():
    t = standard(start=False)
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "S-NOT-STARTED"


def test_v_sap_3_an_unknown_sapper_is_refused_s_unknown():
    t = approached()
    assert t.refused("sapper_worked", sapper="ghost", action="remove", object="W").rule_id == "S-UNKNOWN"


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


@pytest.mark.parametrize("taken", ["own", "revealed"])
def test_v_sap_3_laying_needs_a_kind_and_a_new_id(taken):
    """A name is taken by a mine the sapper's side knows of: its own, or an enemy's it was shown (V-MINE-14)."""
    t = approached(obj="M")
    assert t.refused("sapper_worked", sapper="a_sap", action="lay", object="M").rule_id == "V-SAP-3"
    t.state.mines["M"] = Mine("M", "attacker", "ap", "a_sap2") if taken == "own" else \
        Mine("M", "defender", "ap", "d_sap", revealed=True)
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
    t.state.mines["M"] = Mine("M", "defender", "at", "d_sap", revealed=True)  # shown to his side (V-MINE-14)
    t.add("sapper_worked", sapper="a_sap", action="remove", object="M")
    assert t.state.mines["M"].active is False and t.state.mines["M"].kind == "at"


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


def test_v_sap_4_a_sapper_who_fired_in_turn_two_does_not_finish_his_work():
    t = attacker_turn(standard())
    t.add("sapper_approached", sapper="a_sap", object="W", distance=4)
    t.next_turn()
    t.next_turn(A="recon")
    t.fire("a_sap", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(3)}])
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "V-SAP-4"

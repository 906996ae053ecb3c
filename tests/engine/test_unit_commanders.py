"""Who commands a unit (V-CMD-5, V-CMD-6, V-OFF-3): the living, free commander with his unit."""
import pytest

from .table import D, at_turn, standard


# --- who commands a unit: the living, free commander with his unit (V-CMD-5, V-CMD-6) -------
def sergeant_lost(how):
    """The defender's turn: sergeant a_sgt of squad A is killed or taken prisoner; then the attacker's turn."""
    t = standard()
    t.postures("defender")
    if how == "dead":
        t.fire("DG", "at_gun", distance=5, hit=D(15), struck=[{"fighter": "a_sgt"}])
        assert t.f("a_sgt").dead
    else:
        t.fire("d_snp", "sniper_rifle", distance=5, struck=[{"fighter": "a_sgt", "die": D(20)}])
        assert t.f("a_sgt").wounded
        t.add("prisoner_taken", captor="d1", prisoner="a_sgt", distance=1)
        assert t.f("a_sgt").captured
    t.end_turn()
    t.postures("attacker")
    return t


@pytest.mark.parametrize("how", ["dead", "captured"])
def test_v_cmd_6_a_unit_whose_sergeant_is_lost_is_rank_and_file_the_captain_has_18_in_for_its_morale(how):
    """V-CMD-5, V-CMD-6: a dead or captured sergeant no longer makes the squad "commanded by officers"."""
    t = sergeant_lost(how)
    err = t.refused("morale_test", unit="A", die=D(12), officer_distances={"a_cpt": 18.0})
    assert err.rule_id == "V-MORALE-1"  # within the lieutenant's 18"
    t.add("morale_test", unit="A", die=D(12), officer_distances={"a_cpt": 20.0})  # 24" no longer applies
    assert t.state.units["A"].morale == "dug_in"


def test_v_cmd_5_a_living_sergeant_keeps_the_captains_24_in_for_the_morale_check():
    t = at_turn()
    err = t.refused("morale_test", unit="A", die=D(12), officer_distances={"a_cpt": 20.0})
    assert err.rule_id == "V-MORALE-1"


@pytest.mark.parametrize("how", ["dead", "captured"])
def test_v_off_3_a_lieutenant_does_not_order_a_squad_whose_sergeant_is_lost(how):
    """V-OFF-3: the lieutenant orders sergeants; a captured one commands nothing, like a dead one."""
    t = sergeant_lost(how)
    assert t.refused("order_given", officer="a_lt", unit="A", distance=5).rule_id == "V-OFF-3"


def test_unit_commander_is_the_one_answer_living_free_and_with_his_unit():
    """V-CMD-5, V-CMD-6, V-SQUAD-4: one function decides who commands a unit."""
    from battles.engine.rules.common import unit_commander
    from battles.engine.rules.movement import team_led

    t = at_turn()
    assert unit_commander(t.state, "A").id == "a_sgt" and unit_commander(t.state, "A2").id == "a_cpl"
    assert unit_commander(t.state, "nope") is None
    t.state.fighters["a_cpl"].captured = True
    assert unit_commander(t.state, "A2") is None and not team_led(t.state, "A2")
    t.state.fighters["a_sgt"].dead = True
    assert unit_commander(t.state, "A") is None

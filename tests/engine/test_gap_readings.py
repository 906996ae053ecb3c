"""Readings of the seed's gaps that were hard-coded are rules data (issue 11):
each default follows the catalog's placeholder, and the game master's
alternative takes effect (G-2, G-9, G-11, G-13, G-22)."""
import pytest

from battles.engine import rules_data

from .table import D, attacker_turn, standard


@pytest.mark.parametrize("key", ["infantry_fire_min", "grenade_test", "spotting_test_everywhere", "melee_tie",
                                 "mines_per_sapper"])
def test_each_gap_reading_is_a_marked_placeholder(key):
    assert key in rules_data.DEFAULT_RULES and rules_data.PLACEHOLDERS[key].startswith("G-")


@pytest.mark.parametrize(("rules", "die", "wounded"), [
    ({}, 11, True), ({}, 10, False),  # G-2 default: d20 + attack - defence >= 11
    ({"infantry_fire_min": 14}, 13, False), ({"infantry_fire_min": 14}, 14, True),
])
def test_g_2_fire_formula_threshold(rules, die, wounded):
    t = attacker_turn(standard(rules))
    t.fire("a1", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(die)}])
    assert t.f("d1").wounded is wounded


@pytest.mark.parametrize(("grenade_test", "die", "wounded"), [
    (True, 12, False), (True, 13, True),  # G-11 default: the grenade test, 13-20 (V-TEST-2)
    (False, 11, True), (False, 10, False),  # switched off: the hit test, 11-20 (V-TEST-1)
])
def test_g_11_use_of_the_grenade_test(grenade_test, die, wounded):
    t = attacker_turn(standard({"grenade_test": grenade_test}))
    t.fire("a1", "grenade", distance=3, hit=D(die), struck=[{"fighter": "d1"}])
    assert t.f("d1").wounded is wounded


def test_g_9_by_default_no_spotting_test_in_the_open():
    t = attacker_turn(standard())
    t.fire("a1", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(15)}])
    assert t.f("d1").wounded


@pytest.mark.parametrize(("spot", "wounded"), [(15, True), (10, False)])
def test_g_9_everywhere_needs_a_spotting_test_and_a_failed_one_has_no_effect(spot, wounded):
    t = attacker_turn(standard({"spotting_test_everywhere": True}))
    err = t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "d1", "die": D(15)}])
    assert err.rule_id == "V-HOUSE-9"
    t.fire("a1", "rifle", distance=5, spot=D(spot), struck=[{"fighter": "d1", "die": D(15)}])
    assert t.f("d1").wounded is wounded


def test_g_9_everywhere_still_exempts_the_sniper_v_snip_3():
    t = attacker_turn(standard({"spotting_test_everywhere": True}))
    t.fire("a_snp", "sniper_rifle", distance=12, struck=[{"fighter": "d1", "die": D(15)}])
    assert t.f("d1").wounded


def _melee(rules):
    return attacker_turn(standard(rules), A="assault", A2="assault")


def test_g_13_default_a_tie_is_rerolled():
    t = _melee({})
    assert t.refused("melee", attacker="a1", defender="d1", distance=1,
                     rolls=[{"attacker": D(9), "defender": D(9)}]).rule_id == "V-MELEE-2"


@pytest.mark.parametrize(("tie", "wounded"), [("attacker", {"d1"}), ("defender", {"a1"}), ("none", set())])
def test_g_13_a_tie_settled_by_the_rules_data(tie, wounded):
    t = _melee({"melee_tie": tie})
    t.add("melee", attacker="a1", defender="d1", distance=1, rolls=[{"attacker": D(9), "defender": D(9)}])
    assert {f for f in ("a1", "d1") if t.f(f).wounded} == wounded
    assert t.refused("melee", attacker="a2", defender="d2", distance=1,
                     rolls=[{"attacker": D(9), "defender": D(9)}, {"attacker": D(5), "defender": D(3)}]
                     ).rule_id == "V-MELEE-2"


def _lay_two(rules):
    t = standard(rules)
    t.postures("defender")
    for mine in ("M1", "M2"):
        t.add("sapper_approached", sapper="d_sap", object=mine, distance=4)
        t.next_turn()
        t.next_turn()
        data = dict(sapper="d_sap", action="lay", object=mine, kind="ap")
        if mine == "M2" and rules:
            return t, t.refused("sapper_worked", **data)
        t.add("sapper_worked", **data)
        t.next_turn()
        t.next_turn()
    return t, None


def test_g_22_by_default_no_limit_on_mines():
    t, _ = _lay_two({})
    assert {"M1", "M2"} <= set(t.state.mines)


def test_g_22_a_mine_limit_per_sapper():
    t, err = _lay_two({"mines_per_sapper": 1})
    assert err.rule_id == "V-SAP-3" and "G-22" in err.message_en
    assert set(t.state.mines) == {"M1"}

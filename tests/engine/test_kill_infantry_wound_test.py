"""The wound test and the medic's re-roll (V-MED-3..6, V-TEST-1): every refusal
with its rule, both sides of each threshold, and what a passed or failed test
leaves in the state and the credits (issue 11: mutation kill rate)."""
import pytest

from .table import D, F, attacker_turn, standard


def wounded_d1(rules=None):
    """d1 wounded in the attacker's turn 1; the defender's turn 2 is open."""
    t = attacker_turn(standard(rules))
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    t.end_turn()
    t.postures("defender")
    return t


def medic_test(t, die=5, reroll=14, medic="d_med", dist=2.0):
    return dict(fighter="d1", die=D(die), medic=medic, medic_distance=dist, reroll=D(reroll) if reroll else None)


def test_s_dead_the_dead_take_no_wound_test():
    t = wounded_d1()
    t.f("d1").dead = True
    assert t.refused("wound_test", fighter="d1", die=D(15)).rule_id == "S-DEAD"


def test_v_med_3_a_fighter_wounded_in_his_own_turn_tests_only_on_his_next():
    """V-MED-3: a1 loses the melee he starts; the test comes on his side's next turn, not this one."""
    t = attacker_turn(standard(), A="assault", A2="assault")
    t.add("melee", attacker="a1", defender="d1", distance=1, rolls=[{"attacker": D(3), "defender": D(15)}])
    assert t.f("a1").wounded
    assert t.refused("wound_test", fighter="a1", die=D(15)).rule_id == "V-MED-3"
    t.next_turn()
    t.next_turn(A="assault", A2="assault")
    t.add("wound_test", fighter="a1", die=D(15))
    assert not t.f("a1").wounded


@pytest.mark.parametrize(("die", "wounded"), [(10, True), (11, False)])
def test_v_med_3_v_test_1_the_test_passes_from_11(die, wounded):
    t = wounded_d1()
    t.add("wound_test", fighter="d1", die=D(die))
    d1 = t.f("d1")
    assert d1.wounded is wounded and d1.tested_ply == t.state.ply
    assert d1.recovering_ply == (-1 if wounded else t.state.ply)  # V-MED-5: recovering this turn
    assert t.f("d_med").credit.saves == 0


def test_v_med_3_the_failed_test_is_rolled_again_next_turn_g10():
    t = wounded_d1()
    t.add("wound_test", fighter="d1", die=D(4))
    assert t.refused("wound_test", fighter="d1", die=D(15)).rule_id == "V-MED-3"
    t.next_turn()
    t.next_turn()
    t.add("wound_test", fighter="d1", die=D(15))
    assert not t.f("d1").wounded


# --- V-MED-4: the medic's re-roll -------------------------------------------------------------------
@pytest.mark.parametrize(("die", "rule"), [(10, None), (11, "V-MED-4")])
def test_v_med_4_only_a_failed_test_is_rerolled(die, rule):
    t = wounded_d1()
    if rule:
        assert t.refused("wound_test", **medic_test(t, die=die)).rule_id == rule
    else:
        t.add("wound_test", **medic_test(t, die=die))
        assert not t.f("d1").wounded


@pytest.mark.parametrize(("medic", "dist"), [(None, 2.0), ("d_med", None), (None, None)])
def test_v_med_4_a_reroll_names_the_medic_and_his_distance(medic, dist):
    t = wounded_d1()
    assert t.refused("wound_test", **medic_test(t, medic=medic, dist=dist)).rule_id == "V-MED-4"


def test_v_med_4_only_ones_own_medic_rerolls():
    t = wounded_d1()
    assert t.refused("wound_test", **medic_test(t, medic="d2")).rule_id == "V-MED-4"  # not a medic
    assert t.refused("wound_test", **medic_test(t, medic="a_med")).rule_id == "V-MED-4"  # the enemy's
    assert t.refused("wound_test", **medic_test(t, medic="ghost")).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("how", "rule"), [("wounded", "V-MED-3"), ("dead", "S-DEAD"), ("captured", "V-POW-6")])
def test_v_med_4_a_medic_who_cannot_act_allows_no_reroll(how, rule):
    t = wounded_d1()
    setattr(t.f("d_med"), how, True)
    assert t.refused("wound_test", **medic_test(t)).rule_id == rule


@pytest.mark.parametrize(("dist", "ok"), [(4.0, True), (4.01, False)])
def test_v_med_4_the_medic_within_4_inches(dist, ok):
    t = wounded_d1()
    if ok:
        t.add("wound_test", **medic_test(t, dist=dist))
        assert not t.f("d1").wounded
    else:
        assert t.refused("wound_test", **medic_test(t, dist=dist)).rule_id == "V-MED-4"


@pytest.mark.parametrize(("rerolls", "ok"), [(0, False), (1, True)])
def test_v_med_4_rerolls_switched_off_by_the_rules_data(rerolls, ok):
    t = wounded_d1({"medic_rerolls": rerolls})
    if ok:
        t.add("wound_test", **medic_test(t))
        assert not t.f("d1").wounded
    else:
        assert t.refused("wound_test", **medic_test(t)).rule_id == "V-MED-4"


@pytest.mark.parametrize(("reroll", "saved"), [(10, False), (11, True)])
def test_v_med_4_the_reroll_decides_and_a_save_is_credited_to_the_medic_and_his_character(reroll, saved):
    t = standard(start=False)
    t.add("force_mustered", side="defender", fighters=[F("d_med2", "D", "medic", character="char-doc")])
    t.add("battle_started", attacker="A", defender="D")
    t = attacker_turn(t)
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    t.end_turn()
    t.postures("defender")
    t.add("wound_test", **medic_test(t, die=3, reroll=reroll, medic="d_med2"))
    assert t.f("d1").wounded is not saved
    assert t.f("d_med2").credit.saves == int(saved)
    assert (t.state.characters["char-doc"].saves if "char-doc" in t.state.characters else 0) == int(saved)
    assert t.f("d1").credit.saves == 0 and t.f("d_med").credit.saves == 0

"""Wounds and the medic (V-MED-1..6, V-TEST-1, G-10): two wounds kill, the wound test and the medic's re-roll,
the recovered fighter."""
import pytest

from battles.engine.state import Fighter

from .medicine_helpers import ready, refused, refused_take, shoot, wounded_d1_to_take
from .table import D, F, attacker_turn, standard


def wounded_defender():
    t = attacker_turn(standard())
    shoot(t, "a1", "d1", 15)
    t.end_turn()
    t.postures("defender")
    return t


def wounded_d1(rules=None):
    """d1 wounded in the attacker's turn 1; the defender's turn 2 is open."""
    t = attacker_turn(standard(rules))
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    t.end_turn()
    t.postures("defender")
    return t


def medic_test(t, die=5, reroll=14, medic="d_med", dist=2.0):
    return dict(fighter="d1", die=D(die), medic=medic, medic_distance=dist, reroll=D(reroll) if reroll else None)


@pytest.mark.parametrize(("die", "wounded"), [(10, False), (11, True), (1, False), (20, True)])
def test_v_test_1_band_1_10_fails_11_20_succeeds(die, wounded):
    """V-TEST-1 (and G-2 with equal coefficients): 1-10 fail, 11-20 succeed."""
    t = attacker_turn(standard())
    shoot(t, "a1", "d1", die)
    assert t.f("d1").wounded is wounded


def test_v_med_1_two_wounds_in_one_turn_kill():
    t = attacker_turn(standard())
    shoot(t, "a1", "d1", 15)
    assert t.f("d1").wounded and not t.f("d1").dead
    shoot(t, "a2", "d1", 12)
    assert t.f("d1").dead
    assert t.f("a2").credit.kills == 1 and t.f("a1").credit.wounds == 1


def test_g10_second_wound_in_a_later_turn_kills_only_by_rules_data():
    """G-10 (V-MED-1 companion): the placeholder kills; the master may switch it off."""
    for kills in (True, False):
        t = attacker_turn(standard({"wounded_again_later_killed": kills}))
        shoot(t, "a1", "d1", 15)
        t.next_turn()
        t.next_turn()  # attacker's turn 2
        shoot(t, "a2", "d1", 15)
        assert t.f("d1").dead is kills


@pytest.mark.parametrize(("die", "recovered"), [(10, False), (11, True)])
def test_v_med_3_wound_test_on_the_owners_next_turn(die, recovered):
    t = wounded_defender()
    t.add("wound_test", fighter="d1", die=D(die))
    assert t.f("d1").wounded is not recovered


def test_v_med_3_no_wound_test_in_the_turn_of_the_wound_or_twice():
    t = attacker_turn(standard())
    shoot(t, "a1", "d1", 15)
    assert t.refused("wound_test", fighter="d1", die=D(15)).rule_id == "V-TURN-12"
    t.end_turn()
    t.postures("defender")
    t.add("wound_test", fighter="d1", die=D(3))
    assert t.refused("wound_test", fighter="d1", die=D(15)).rule_id == "V-MED-3"
    assert t.refused("wound_test", fighter="d2", die=D(15)).rule_id == "V-MED-3"  # not wounded


@pytest.mark.parametrize(("dist", "ok"), [(4.0, True), (4.01, False)])
def test_v_med_4_medic_within_4_allows_one_reroll(dist, ok):
    t = wounded_defender()
    data = dict(fighter="d1", die=D(5), medic="d_med", medic_distance=dist, reroll=D(14))
    if ok:
        t.add("wound_test", **data)
        assert not t.f("d1").wounded
        assert t.f("d_med").credit.saves == 1  # credited for the campaign's awards
    else:
        assert t.refused("wound_test", **data).rule_id == "V-MED-4"


def test_v_med_4_reroll_only_after_a_failure_and_only_with_a_medic():
    t = wounded_defender()
    assert t.refused("wound_test", fighter="d1", die=D(12), medic="d_med", medic_distance=1,
                     reroll=D(3)).rule_id == "V-MED-4"
    assert t.refused("wound_test", fighter="d1", die=D(2), medic="d2", medic_distance=1,
                     reroll=D(13)).rule_id == "V-MED-4"
    t.add("wound_test", fighter="d1", die=D(2), medic="d_med", medic_distance=1, reroll=D(9))
    assert t.f("d1").wounded  # the re-roll failed too: stays wounded (G-10)
    assert t.f("d_med").credit.saves == 0


def test_v_med_5_recovered_fighter_may_only_move_this_turn_and_v_med_6_all_functions_next_turn():
    t = wounded_defender()
    assert t.refused("fire", shooter="d1", weapon="rifle", target="fighters", distance=5,
                     struck=[{"fighter": "a1", "die": D(15)}]).rule_id == "V-MED-3"
    t.add("wound_test", fighter="d1", die=D(18))
    err = t.refused("fire", shooter="d1", weapon="rifle", target="fighters", distance=5,
                    struck=[{"fighter": "a1", "die": D(15)}])
    assert err.rule_id == "V-MED-5"
    t.add("fighters_moved", side="defender", fighters=["d1"], distance=0)  # dug_in moves 0: a move is allowed
    t.next_turn(A="recon", A2="recon")
    t.next_turn(D="dug_in")
    t.fire("d1", "rifle", struck=[{"fighter": "a1", "die": D(15)}])  # V-MED-6
    assert t.f("a1").wounded


# --- who may fight -----------------------------------------------------------------------------
def test_v_med_3_a_wounded_fighter_starts_no_melee():
    t = ready()
    t.f("a1").wounded = True
    assert refused(t, rolls=[(15, 4)]) == "V-MED-3"


# --- V-POW-1: taking a prisoner -------------------------------------------------------------------
def test_v_med_3_a_wounded_captor_takes_no_prisoner():
    t = wounded_d1_to_take()
    t.f("a1").wounded = True
    assert refused_take(t) == "V-MED-3"


# The wound test and the medic's re-roll (V-MED-3..6, V-TEST-1): every refusal
# with its rule, both sides of each threshold, and what a passed or failed test
# leaves in the state and the credits.






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


@pytest.mark.parametrize("later_kills", [True, False])
def test_v_med_1_two_wounds_in_one_turn_kill_whatever_g10_says(later_kills):
    """V-MED-1 is seed text; G-10 (a second wound in a later turn) is a placeholder the master may
    switch off. With G-10 off, two wounds in the same turn still kill."""
    t = attacker_turn(standard({"wounded_again_later_killed": later_kills}))
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    assert t.f("d1").wounded and not t.f("d1").dead
    t.fire("a2", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    assert t.f("d1").dead
    assert t.f("a2").credit.kills == 1


def test_g10_off_a_second_wound_in_a_later_turn_only_wounds_again():
    """G-10 off: the fighter wounded in turn 1 and again in turn 2 is wounded, not dead (V-MED-1 is
    only about one turn)."""
    t = attacker_turn(standard({"wounded_again_later_killed": False}))
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    t.next_turn()
    t.next_turn()
    t.fire("a2", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    assert t.f("d1").wounded and not t.f("d1").dead
    assert t.f("d1").wounded_turn == t.state.turn


def test_v_med_1_credits_count_every_wound_for_the_shooter_and_the_wounded():
    """The campaign's awards read these credits (V-FORM, G-10 off so the second wound only wounds)."""
    t = attacker_turn(standard({"wounded_again_later_killed": False}))
    t.fire("a_lmg", "lmg", struck=[{"fighter": "d1", "die": D(15)}, {"fighter": "d2", "die": D(15)}])
    assert t.f("a_lmg").credit.wounds == 2
    assert t.f("d1").credit.wounded == 1 and t.state.characters["char-fritz"].wounded == 1
    t.next_turn()
    t.next_turn()
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    assert t.f("a1").credit.wounds == 1 and t.state.characters["char-petr"].wounds == 1
    assert t.f("d1").credit.wounded == 2 and t.state.characters["char-fritz"].wounded == 2
    assert t.f("a1").credit.kills == 0
    assert t.f("d1").wounded_ply == t.state.ply


def test_v_med_5_a_fighter_wounded_again_after_recovering_is_not_still_recovering():
    """V-MED-5/6 with the reading ``wounded_may_act`` on: a wound clears the recovery mark, so the
    fighter is wounded (and may act by that reading), not 'recovered this turn'."""
    t = attacker_turn(standard({"wounded_may_act": True, "wounded_again_later_killed": False}))
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    t.next_turn()
    t.add("wound_test", fighter="d1", die=D(15))
    assert not t.f("d1").wounded and t.f("d1").recovering_ply == t.state.ply
    from battles.engine.rules.common import wound

    wound(t.state, t.f("d1"), t.f("a1"), {**t.rules, "wounded_again_later_killed": False})
    assert t.f("d1").wounded and t.f("d1").recovering_ply == -1


def test_v_med_4_a_medic_named_without_a_reroll_saves_no_one():
    """V-MED-4: the medic's save is the re-roll; a first roll that passes is the fighter's own."""
    t = attacker_turn(standard())
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    t.next_turn()
    t.add("wound_test", fighter="d1", die=D(15), medic="d_med", medic_distance=1)
    assert not t.f("d1").wounded and t.f("d_med").credit.saves == 0


def test_g_12_a_class_or_rank_without_a_melee_bonus_adds_nothing():
    """G-12: the melee bonus is by class or rank, as the game master sets it; a class he left out adds 0."""
    from battles.engine.rules.infantry import melee_bonus

    rules = {"melee_bonus": {"sapper": 2, "sergeant": 1}}
    assert melee_bonus(Fighter(id="r", side="attacker", unit="A", cls="rifleman"), rules) == 0
    assert melee_bonus(Fighter(id="s", side="attacker", unit="A", cls="sapper"), rules) == 2
    assert melee_bonus(Fighter(id="g", side="attacker", unit="A", cls="rifleman", rank="sergeant"), rules) == 1


def test_v_med_4_a_medic_is_credited_with_every_save():
    """V-MED-4: each successful re-roll with the medic is one save to his credit (the campaign's awards)."""
    t = attacker_turn(standard())
    t.fire("a1", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    t.fire("a2", "rifle", struck=[{"fighter": "d2", "die": D(15)}])
    t.next_turn()
    for fid in ("d1", "d2"):
        t.add("wound_test", fighter=fid, die=D(5), medic="d_med", medic_distance=1, reroll=D(14))
    assert not t.f("d1").wounded and not t.f("d2").wounded
    assert t.f("d_med").credit.saves == 2


def test_s_target_no_one_takes_his_own_side_prisoner():
    """V-POW-1: a prisoner is an enemy."""
    t = attacker_turn(standard())
    assert t.refused("prisoner_taken", captor="a1", prisoner="a2", distance=1).rule_id == "S-TARGET"

"""Melee (V-MELEE-1..5, G-12 bonuses, G-13 ties): who may fight whom, the rolls, ties, and who is wounded,
killed and credited."""
import pytest

from .medicine_helpers import ready, refused, roll, shoot
from .table import D, F, attacker_turn, standard


# --- melee -------------------------------------------------------------------
def melee_ready(**rules):
    t = attacker_turn(standard(rules or None), A="assault", A2="assault")
    return t


def melee(t, a="a1", d="d1", rolls=(), distance=1.0):
    return t.add("melee", attacker=a, defender=d, distance=distance, rolls=[roll(*x) for x in rolls])


@pytest.mark.parametrize(("dist", "ok"), [(1.0, True), (1.01, False)])
def test_v_melee_1_only_at_one_inch(dist, ok):
    t = melee_ready()
    data = dict(attacker="a1", defender="d1", distance=dist, rolls=[{"attacker": D(15), "defender": D(4)}])
    if ok:
        t.add("melee", **data)
    else:
        assert t.refused("melee", **data).rule_id == "V-MELEE-1"


@pytest.mark.parametrize(("a", "d", "loser"), [(15, 4, "d1"), (4, 15, "a1"), (11, 10, "d1")])
def test_v_melee_2_lower_roll_loses_and_is_wounded(a, d, loser):
    t = melee_ready()
    t.add("melee", attacker="a1", defender="d1", distance=1, rolls=[{"attacker": D(a), "defender": D(d)}])
    assert t.f(loser).wounded
    assert not t.f({"a1": "d1", "d1": "a1"}[loser]).wounded


def test_v_melee_2_ties_are_rerolled_g13():
    t = melee_ready()
    assert t.refused("melee", attacker="a1", defender="d1", distance=1,
                     rolls=[{"attacker": D(9), "defender": D(9)}]).rule_id == "V-MELEE-2"
    assert t.refused("melee", attacker="a1", defender="d1", distance=1,
                     rolls=[{"attacker": D(9), "defender": D(3)}, {"attacker": D(5), "defender": D(6)}]).rule_id == "V-MELEE-2"
    t.add("melee", attacker="a1", defender="d1", distance=1,
          rolls=[{"attacker": D(9), "defender": D(9)}, {"attacker": D(5), "defender": D(6)}])
    assert t.f("a1").wounded


def test_v_melee_3_bonuses_are_added_to_the_rolls():
    t = melee_ready(melee_bonus={"rifleman": 0, "sergeant": 3})
    t.add("melee", attacker="a_sgt", defender="d1", distance=1, rolls=[{"attacker": D(8), "defender": D(10)}])
    assert t.f("d1").wounded and not t.f("a_sgt").wounded  # 8 + 3 > 10


def test_v_melee_4_wounded_opponent_is_killed_without_a_test():
    t = melee_ready()
    shoot(t, "a2", "d1", 15)
    assert t.refused("melee", attacker="a1", defender="d1", distance=1,
                     rolls=[{"attacker": D(3), "defender": D(4)}]).rule_id == "V-MELEE-4"
    t.add("melee", attacker="a1", defender="d1", distance=1)
    assert t.f("d1").dead and t.f("a1").credit.kills == 1


def test_v_melee_5_one_melee_per_fighter_per_turn():
    t = melee_ready()
    t.add("melee", attacker="a1", defender="d1", distance=1, rolls=[{"attacker": D(15), "defender": D(4)}])
    assert t.refused("melee", attacker="a1", defender="d2", distance=1,
                     rolls=[{"attacker": D(15), "defender": D(4)}]).rule_id == "V-MELEE-5"
    assert t.refused("melee", attacker="a2", defender="d1", distance=1).rule_id == "V-MELEE-5"


def test_melee_needs_the_assault_posture_g4():
    t = attacker_turn(standard())  # recon
    assert t.refused("melee", attacker="a1", defender="d1", distance=1,
                     rolls=[{"attacker": D(15), "defender": D(4)}]).rule_id == "V-MELEE-1"


# Melee (V-MELEE-1..5, G-12 bonuses, G-13 ties) checked and applied branch by
# branch: who may fight whom, the rolls each tie rule needs, and who is wounded,
# killed and credited.












def test_s_dead_and_v_pow_6_the_dead_and_prisoners_are_not_fought():
    t = ready()
    t.f("d1").dead = True
    t.f("d2").captured = True
    assert refused(t, d="d1", rolls=[(15, 4)]) == "S-DEAD"
    assert refused(t, d="d2", rolls=[(15, 4)]) == "V-POW-6"


def test_s_target_melee_only_with_an_enemy():
    t = ready()
    assert refused(t, d="a2", rolls=[(15, 4)]) == "S-TARGET"


def test_v_melee_1_just_inside_one_inch_and_only_in_assault_g4():
    t = ready()
    assert refused(t, distance=1.01, rolls=[(15, 4)]) == "V-MELEE-1"
    melee(t, distance=1.0, rolls=[(15, 4)])
    assert t.f("d1").wounded
    t2 = attacker_turn(standard(), A="recon", A2="assault")
    assert refused(t2, a="a1", rolls=[(15, 4)]) == "V-MELEE-1"
    melee(t2, a="a5", rolls=[(15, 4)])  # fire team A2 is in assault
    assert t2.f("d1").wounded


def test_v_melee_5_the_defender_who_fought_this_turn_is_not_fought_again_but_next_turn_is():
    t = ready()
    melee(t, a="a1", d="d1", rolls=[(4, 15)])  # a1 loses and is wounded
    assert refused(t, a="a2", d="d1", rolls=[(15, 4)]) == "V-MELEE-5"
    t.next_turn()
    t.next_turn(A="assault", A2="assault")
    melee(t, a="a2", d="d1", rolls=[(15, 4)])
    assert t.f("d1").wounded and t.f("d1").melee_turn == t.state.turn == 2


def test_v_melee_2_an_unwounded_opponent_needs_the_rolls():
    t = ready()
    assert refused(t, rolls=[]) == "V-MELEE-2"


# --- G-13 ties, re-rolled (the seed's default) ----------------------------------------------------
def test_g13_every_roll_but_the_last_must_be_a_tie_whatever_its_place():
    t = ready()
    assert refused(t, rolls=[(9, 9), (9, 3), (5, 6)]) == "V-MELEE-2"
    assert refused(t, rolls=[(9, 3), (9, 9), (5, 6)]) == "V-MELEE-2"
    assert refused(t, rolls=[(9, 9), (8, 8), (7, 7)]) == "V-MELEE-2"
    melee(t, rolls=[(9, 9), (8, 8), (6, 5)])
    assert t.f("d1").wounded and not t.f("a1").wounded


@pytest.mark.parametrize("who", ["attacker", "defender"])
def test_g12_v_melee_3_a_bonus_makes_a_tie_of_unequal_dice(who):
    """Totals decide a tie: 10 + 2 against 12 is a tie and must be re-rolled."""
    t = ready({"melee_bonus": {"sergeant": 2}})
    a, d, rolls = ("a_sgt", "d1", (10, 12)) if who == "attacker" else ("a1", "d_sgt", (12, 10))
    assert refused(t, a=a, d=d, rolls=[rolls]) == "V-MELEE-2"
    melee(t, a=a, d=d, rolls=[rolls, (12, 10) if who == "attacker" else (10, 12)])
    assert t.f(d if who == "attacker" else a).wounded  # the bonus side wins the re-roll by 2 + 2
    assert not t.f(a if who == "attacker" else d).wounded


@pytest.mark.parametrize(("bonus_of", "dice", "loser"), [("a1", (9, 10), "d1"), ("d1", (10, 9), "a1"),
                                                        ("a1", (7, 10), "a1"), ("d1", (10, 7), "d1")])
def test_g12_v_melee_3_a_fighters_own_bonus_counts_for_either_side(bonus_of, dice, loser):
    """A fighter's own melee bonus (G-12: e.g. an award) of +2 turns a one-point loss into a win,
    not a three-point one."""
    t = standard(start=False)
    t.add("force_mustered", side="attacker", units=[{"id": "X", "posture": "assault"}],
          fighters=[F("x1", "X", melee_bonus=2 if bonus_of == "a1" else 0)])
    t.add("force_mustered", side="defender", units=[{"id": "Y"}],
          fighters=[F("y1", "Y", melee_bonus=2 if bonus_of == "d1" else 0)])
    t.add("battle_started", attacker="A", defender="D")
    t = attacker_turn(t, A="assault", A2="assault", X="assault")
    melee(t, a="x1", d="y1", rolls=[dice])
    assert t.f({"a1": "x1", "d1": "y1"}[loser]).wounded
    assert not t.f({"a1": "y1", "d1": "x1"}[loser]).wounded


def test_g12_class_and_rank_bonuses_add_up():
    """melee_bonus: the fighter's own + his class's + his rank's (G-12)."""
    t = ready({"melee_bonus": {"rifleman": 1, "sergeant": 2}})
    # a_sgt is an officer: class "officer" (0) + rank sergeant 2 = 2; d1 rifleman: 1. 9 + 2 = 11 > 10 + 1? no: tie
    assert refused(t, a="a_sgt", d="d1", rolls=[(9, 10)]) == "V-MELEE-2"
    melee(t, a="a_sgt", d="d1", rolls=[(9, 10), (10, 10)])
    assert t.f("d1").wounded


# --- G-13 ties settled by the rules data ----------------------------------------------------------
@pytest.mark.parametrize("tie", ["attacker", "defender", "none"])
def test_g13_without_rerolls_one_roll_only(tie):
    t = ready({"melee_tie": tie})
    assert refused(t, rolls=[(9, 9), (6, 5)]) == "V-MELEE-2"
    assert refused(t, rolls=[(6, 5), (6, 5)]) == "V-MELEE-2"


@pytest.mark.parametrize(("tie", "wounded"), [("attacker", {"d1"}), ("defender", {"a1"}), ("none", set())])
def test_g13_a_tie_goes_as_the_rules_data_say(tie, wounded):
    t = ready({"melee_tie": tie})
    melee(t, rolls=[(9, 9)])
    assert {x for x in ("a1", "d1") if t.f(x).wounded} == wounded
    assert t.f("a1").melee_turn == t.f("d1").melee_turn == 1
    winner = {"attacker": "a1", "defender": "d1"}.get(tie)
    if winner:
        assert t.f(winner).credit.wounds == 1


@pytest.mark.parametrize("tie", ["attacker", "defender", "none"])
@pytest.mark.parametrize(("dice", "loser"), [((5, 6), "a1"), ((6, 5), "d1")])
def test_g13_v_melee_2_without_a_tie_the_lower_loses_whatever_the_tie_rule(tie, dice, loser):
    t = ready({"melee_tie": tie})
    melee(t, rolls=[dice])
    assert {x for x in ("a1", "d1") if t.f(x).wounded} == {loser}


# --- the result ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("dice", "winner", "loser"), [((12, 11), "a1", "d1"), ((11, 12), "d1", "a1")])
def test_v_melee_2_the_loser_is_wounded_and_both_are_credited(dice, winner, loser):
    t = ready()
    melee(t, rolls=[dice])
    w, lo = t.f(winner), t.f(loser)
    assert (w.wounded, lo.wounded, lo.dead) == (False, True, False)
    assert (w.credit.wounds, lo.credit.wounded, lo.credit.wounds, w.credit.wounded) == (1, 1, 0, 0)
    assert lo.wounded_turn == 1 and lo.wounded_ply == t.state.ply


def test_v_melee_2_g10_a_wounded_attacker_who_loses_again_is_killed():
    """With wounded_may_act on, a fighter wounded in an earlier turn may start a melee;
    losing wounds him again, and a second wound kills (G-10, rules data)."""
    t = standard({"wounded_may_act": True})
    t = attacker_turn(t, A="assault", A2="assault")
    t.fire("a1", "rifle", struck=[{"fighter": "d2", "die": D(15)}])
    t.end_turn()
    t.postures("defender", D="assault")  # the defender's turn 2: d2 was wounded in turn 1
    melee(t, a="d2", d="a1", rolls=[(3, 15)])
    assert t.f("d2").dead and t.f("a1").credit.kills == 1 and t.f("d2").credit.killed == 1


def test_v_melee_4_a_wounded_opponent_is_killed_and_both_marked_as_having_fought():
    t = ready()
    t.fire("a2", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    melee(t)
    assert t.f("d1").dead and t.f("a1").credit.kills == 1 and t.f("d1").credit.killed == 1
    assert t.f("a1").melee_turn == 1
    assert refused(t, a="a1", d="d2", rolls=[(15, 4)]) == "V-MELEE-5"

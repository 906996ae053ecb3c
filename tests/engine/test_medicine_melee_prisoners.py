"""Wounds, the wound test and the medic (V-MED), melee (V-MELEE), prisoners
(V-POW), and the d20 band of V-TEST-1 as the G-2 fire roll uses it."""
import pytest

from battles.engine.state import Fighter

from .table import D, F, attacker_turn, standard


def shoot(t, shooter, target, die, **kw):
    t.fire(shooter, kw.pop("weapon", "rifle"), struck=[{"fighter": target, "die": D(die)}], **kw)


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


def wounded_defender():
    t = attacker_turn(standard())
    shoot(t, "a1", "d1", 15)
    t.end_turn()
    t.postures("defender")
    return t


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


# --- melee -------------------------------------------------------------------
def melee_ready(**rules):
    t = attacker_turn(standard(rules or None), A="assault", A2="assault")
    return t


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


# --- prisoners -----------------------------------------------------------------
def with_wounded_d1():
    t = attacker_turn(standard())
    shoot(t, "a2", "d1", 15)
    return t


@pytest.mark.parametrize(("dist", "enemy", "rule"), [(1.0, None, None), (1.01, None, "V-POW-1"),
                                                     (1.0, 4.0, "V-POW-1"), (1.0, 4.01, None)])
def test_v_pow_1_capture_at_melee_distance_with_no_fit_enemy_within_4(dist, enemy, rule):
    t = with_wounded_d1()
    data = dict(captor="a1", prisoner="d1", distance=dist, nearest_fit_enemy=enemy)
    if rule:
        assert t.refused("prisoner_taken", **data).rule_id == rule
    else:
        t.add("prisoner_taken", **data)
        assert t.f("d1").captured


def test_v_pow_1_only_a_wounded_soldier():
    t = attacker_turn(standard())
    assert t.refused("prisoner_taken", captor="a1", prisoner="d2", distance=1).rule_id == "V-POW-1"


def test_v_pow_2_prisoner_under_the_capturing_unit_and_v_pow_3_stays_wounded():
    t = with_wounded_d1()
    t.add("prisoner_taken", captor="a5", prisoner="d1", distance=0.5)
    d1 = t.f("d1")
    assert (d1.captor_side, d1.captor_unit) == ("attacker", "A2")
    assert d1.wounded  # V-POW-3
    assert t.f("a5").credit.prisoners_taken == 1
    assert t.state.characters["char-fritz"].captured == 1
    t.next_turn()
    t.add("wound_test", fighter="d1", die=D(12))  # V-POW-3: still needs medical help
    assert not t.f("d1").wounded and t.f("d1").captured


@pytest.mark.parametrize("action", ["kill", "leave", "send"])
def test_v_pow_4_prisoner_killed_left_or_sent(action):
    t = with_wounded_d1()
    t.add("prisoner_taken", captor="a1", prisoner="d1", distance=0.5)
    t.add("prisoner_handled", prisoner="d1", action=action)
    assert t.f("d1").dead is (action == "kill")
    assert t.f("a_sgt").credit.kills == (action == "kill")  # the capturing unit's commander (V-POW-2)


def test_v_pow_5_prisoner_cannot_escape_and_v_pow_6_not_sent_into_combat():
    t = with_wounded_d1()
    t.add("prisoner_taken", captor="a1", prisoner="d1", distance=0.5)
    t.next_turn()
    t.add("wound_test", fighter="d1", die=D(15))
    assert t.refused("fighters_moved", side="defender", fighters=["d1"], distance=0).rule_id == "V-POW-5"
    t.next_turn(A="recon")
    t.next_turn()
    assert t.refused("fire", shooter="d1", weapon="rifle", target="fighters", distance=3,
                     struck=[{"fighter": "a1", "die": D(15)}]).rule_id == "V-POW-6"


@pytest.mark.parametrize(("enemy", "officer_d", "rule"), [(None, 12.0, None), (4.0, 12.0, "V-POW-7"),
                                                          (4.01, 12.0, None), (None, 12.01, "V-POW-7")])
def test_v_pow_7_freed_with_no_enemy_within_4_inside_friendly_command_distance(enemy, officer_d, rule):
    t = with_wounded_d1()
    t.add("prisoner_taken", captor="a1", prisoner="d1", distance=0.5)
    t.next_turn()
    data = dict(prisoner="d1", officer="d_sgt", officer_distance=officer_d, nearest_enemy=enemy)
    if rule:
        assert t.refused("prisoner_freed", **data).rule_id == rule
    else:
        t.add("prisoner_freed", **data)
        assert not t.f("d1").captured


def test_a_dead_fighter_cannot_act_and_a_prisoner_is_not_sent_into_combat():
    t = attacker_turn(standard())
    shoot(t, "a1", "d1", 15)
    shoot(t, "a2", "d1", 15)
    t.fire("a3", "rifle", struck=[{"fighter": "d2", "die": D(15)}])
    t.add("prisoner_taken", captor="a4", prisoner="d2", distance=1)
    t.next_turn()
    for fid, rule in (("d1", "S-DEAD"), ("d2", "V-POW-6")):
        err = t.refused("fire", shooter=fid, weapon="rifle", target="fighters", distance=3,
                        struck=[{"fighter": "a1", "die": D(20)}])
        assert err.rule_id == rule


# Melee (V-MELEE-1..5, G-12 bonuses, G-13 ties) checked and applied branch by
# branch: who may fight whom, the rolls each tie rule needs, and who is wounded,
# killed and credited.


def ready(rules=None):
    return attacker_turn(standard(rules), A="assault", A2="assault")


def roll(a, d):
    return {"attacker": D(a), "defender": D(d)}


def melee(t, a="a1", d="d1", rolls=(), distance=1.0):
    return t.add("melee", attacker=a, defender=d, distance=distance, rolls=[roll(*x) for x in rolls])


def refused(t, a="a1", d="d1", rolls=(), distance=1.0):
    return t.refused("melee", attacker=a, defender=d, distance=distance, rolls=[roll(*x) for x in rolls]).rule_id


# --- who may fight -----------------------------------------------------------------------------
def test_v_med_3_a_wounded_fighter_starts_no_melee():
    t = ready()
    t.f("a1").wounded = True
    assert refused(t, rolls=[(15, 4)]) == "V-MED-3"


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


# Prisoners taken, handled and freed (V-POW-1..7): each refusal with its rule,
# both sides of each threshold, the captor's unit and the credits.


def wounded_d1_to_take(rules=None):
    t = attacker_turn(standard(rules))
    t.fire("a2", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    return t


def take(t, captor="a1", prisoner="d1", distance=1.0, **kw):
    return t.add("prisoner_taken", captor=captor, prisoner=prisoner, distance=distance, **kw)


def refused_take(t, captor="a1", prisoner="d1", distance=1.0, **kw):
    return t.refused("prisoner_taken", captor=captor, prisoner=prisoner, distance=distance, **kw).rule_id


# --- V-POW-1: taking a prisoner -------------------------------------------------------------------
def test_v_med_3_a_wounded_captor_takes_no_prisoner():
    t = wounded_d1_to_take()
    t.f("a1").wounded = True
    assert refused_take(t) == "V-MED-3"


@pytest.mark.parametrize(("how", "rule"), [("dead", "S-DEAD"), ("captured", "V-POW-6")])
def test_v_pow_1_the_dead_and_prisoners_already_taken_are_not_taken(how, rule):
    t = wounded_d1_to_take()
    setattr(t.f("d1"), how, True)
    assert refused_take(t) == rule


def test_s_unknown_and_s_target_the_prisoner_is_a_known_enemy():
    t = wounded_d1_to_take()
    t.f("a3").wounded = True
    assert refused_take(t, prisoner="a3") == "S-TARGET"
    assert refused_take(t, prisoner="ghost") == "S-UNKNOWN"


@pytest.mark.parametrize(("distance", "enemy", "rule"), [(1.0, 4.01, None), (1.01, 4.01, "V-POW-1"),
                                                         (1.0, 4.0, "V-POW-1"), (0.0, 0.0, "V-POW-1"),
                                                         (0.0, None, None)])
def test_v_pow_1_melee_distance_and_no_fit_enemy_within_4(distance, enemy, rule):
    t = wounded_d1_to_take()
    if rule:
        assert refused_take(t, distance=distance, nearest_fit_enemy=enemy) == rule
    else:
        take(t, distance=distance, nearest_fit_enemy=enemy)
        assert t.f("d1").captured


def test_v_pow_1_the_distances_come_from_the_rules_data():
    t = wounded_d1_to_take({"melee_distance": 2.0, "prisoner_enemy_clear": 6.0})
    assert refused_take(t, distance=2.0, nearest_fit_enemy=6.0) == "V-POW-1"
    take(t, distance=2.0, nearest_fit_enemy=6.01)
    assert t.f("d1").captured


def test_v_pow_2_the_captor_and_his_unit_and_character_are_credited():
    t = wounded_d1_to_take()
    take(t, captor="a1")
    d1 = t.f("d1")
    assert (d1.captured, d1.captor_side, d1.captor_unit, d1.wounded, d1.dead) == (True, "attacker", "A", True, False)
    assert t.f("a1").credit.prisoners_taken == 1 and t.state.characters["char-petr"].prisoners_taken == 1
    assert d1.credit.captured == 1 and t.state.characters["char-fritz"].captured == 1


# --- V-POW-4: what the captors do -------------------------------------------------------------------
def test_v_pow_4_only_a_living_prisoner_is_handled_in_his_captors_turn():
    t = wounded_d1_to_take()
    assert t.refused("prisoner_handled", prisoner="d2", action="kill").rule_id == "V-POW-4"
    take(t)
    t.end_turn()
    t.postures("defender")
    assert t.refused("prisoner_handled", prisoner="d1", action="kill").rule_id == "V-TURN-12"
    t.end_turn()
    t.postures("attacker")
    t.add("prisoner_handled", prisoner="d1", action="kill")
    assert t.refused("prisoner_handled", prisoner="d1", action="leave").rule_id == "V-POW-4"


def test_v_pow_4_a_prisoner_killed_is_credited_to_the_capturing_units_commander_and_counted_killed():
    t = wounded_d1_to_take()
    take(t, captor="a5")  # fire team A2: its commander is a_cpl
    t.add("prisoner_handled", prisoner="d1", action="kill")
    assert t.f("d1").dead and t.f("a_cpl").credit.kills == 1 and t.f("a5").credit.kills == 0
    assert t.f("d1").credit.killed == 1 and t.state.characters["char-fritz"].killed == 1


def test_v_pow_4_a_prisoner_of_a_surrender_is_killed_with_no_one_credited():
    t = attacker_turn(standard())
    t.add("morale_test", unit="A", die=D(2), officer_distances={}, enemy_distances={"a1": 1.0})
    t.end_turn()
    t.postures("defender")
    t.add("prisoner_handled", prisoner="a1", action="kill")
    assert t.f("a1").dead and t.f("a1").credit.killed == 1
    assert sum(f.credit.kills for f in t.state.fighters.values()) == 0


@pytest.mark.parametrize("action", ["leave", "send"])
def test_v_pow_4_a_prisoner_left_or_sent_stays_a_living_prisoner(action):
    t = wounded_d1_to_take()
    take(t)
    t.add("prisoner_handled", prisoner="d1", action=action)
    assert (t.f("d1").dead, t.f("d1").captured, t.f("d1").credit.killed) == (False, True, 0)


# --- V-POW-7: freed ------------------------------------------------------------------------------------
def prisoner_d1():
    t = wounded_d1_to_take()
    take(t)
    t.next_turn()
    return t


def freed(t, officer="d_sgt", distance=5.0, enemy=None, prisoner="d1"):
    return t.add("prisoner_freed", prisoner=prisoner, officer=officer, officer_distance=distance, nearest_enemy=enemy)


def refused_free(t, officer="d_sgt", distance=5.0, enemy=None, prisoner="d1"):
    return t.refused("prisoner_freed", prisoner=prisoner, officer=officer, officer_distance=distance,
                     nearest_enemy=enemy).rule_id


@pytest.mark.parametrize("who", ["free", "dead"])
def test_v_pow_7_only_a_living_prisoner_is_freed(who):
    t = prisoner_d1()
    if who == "dead":
        t.f("d1").dead = True
        assert refused_free(t) == "V-POW-7"
    else:
        assert refused_free(t, prisoner="d2") == "V-POW-7"


@pytest.mark.parametrize("officer", ["a_sgt", "d2"])
def test_v_pow_7_a_friendly_officer_frees_him(officer):
    t = prisoner_d1()
    assert refused_free(t, officer=officer) == "V-POW-7"


@pytest.mark.parametrize(("how", "rule"), [("wounded", "V-MED-3"), ("dead", "S-DEAD"), ("captured", "V-POW-6")])
def test_v_pow_7_the_officer_must_be_fit(how, rule):
    t = prisoner_d1()
    setattr(t.f("d_sgt"), how, True)
    assert refused_free(t) == rule


@pytest.mark.parametrize(("distance", "ok"), [(18.0, True), (18.01, False)])
def test_v_pow_7_a_captains_command_distance_here_is_his_18_over_rank_and_file(distance, ok):
    """V-POW-7 with V-CMD-6: the prisoner is one man, not a unit led by an officer."""
    t = standard(start=False)
    t.add("force_mustered", side="defender", fighters=[F("d_cpt", rank="captain")])
    t.add("battle_started", attacker="A", defender="D")
    t = attacker_turn(t)
    t.fire("a2", "rifle", struck=[{"fighter": "d1", "die": D(15)}])
    take(t)
    t.next_turn()
    if ok:
        freed(t, officer="d_cpt", distance=distance)
        assert not t.f("d1").captured
    else:
        assert refused_free(t, officer="d_cpt", distance=distance) == "V-POW-7"


@pytest.mark.parametrize(("distance", "ok"), [(18.0, True), (18.01, False)])
def test_v_pow_7_a_lieutenants_18_inches(distance, ok):
    t = prisoner_d1()
    if ok:
        freed(t, officer="d_lt", distance=distance)
        assert not t.f("d1").captured
    else:
        assert refused_free(t, officer="d_lt", distance=distance) == "V-POW-7"


def test_v_pow_7_freed_he_is_nobodys_prisoner_and_still_wounded():
    t = prisoner_d1()
    assert refused_free(t, enemy=4.0) == "V-POW-7"
    freed(t, enemy=4.01, distance=12.0)
    d1 = t.f("d1")
    assert (d1.captured, d1.captor_side, d1.captor_unit, d1.wounded) == (False, "", "", True)


# The wound test and the medic's re-roll (V-MED-3..6, V-TEST-1): every refusal
# with its rule, both sides of each threshold, and what a passed or failed test
# leaves in the state and the credits.


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

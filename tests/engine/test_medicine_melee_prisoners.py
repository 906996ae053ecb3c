"""Wounds, the wound test and the medic (V-MED), melee (V-MELEE), prisoners
(V-POW), and the d20 band of V-TEST-1 as the G-2 fire roll uses it."""
import pytest

from .table import D, attacker_turn, standard


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

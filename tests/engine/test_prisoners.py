"""Prisoners (V-POW-1..7): taken, handled and freed, the captor's unit and the credits."""
import pytest

from .medicine_helpers import refused_take, shoot, wounded_d1_to_take
from .table import D, F, attacker_turn, standard


# --- prisoners -----------------------------------------------------------------
def with_wounded_d1():
    t = attacker_turn(standard())
    shoot(t, "a2", "d1", 15)
    return t


def take(t, captor="a1", prisoner="d1", distance=1.0, **kw):
    return t.add("prisoner_taken", captor=captor, prisoner=prisoner, distance=distance, **kw)


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


# Prisoners taken, handled and freed (V-POW-1..7): each refusal with its rule,
# both sides of each threshold, the captor's unit and the credits.










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

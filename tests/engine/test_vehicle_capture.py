"""Capturing vehicles (V-CAPT-1..7): who captures, when, the crew, the credits, and what capture leaves in
the state."""
import pytest

from .engineering_helpers import RING, capture_table, flamed
from .table import D, at_turn, attacker_turn, standard, tank


# --- capture_attempted ------------------------------------------------------------------------------------
def damaged(rules=None, vid="X"):
    """A defender's tank X with running-gear damage (given) in the attacker's turn."""
    t = at_turn(rules)
    tank(t, "defender", vid, armour=3, gun=0)
    t.state.vehicles[vid].running_gear = True
    return t


def capture(t, vid="X", infantry=None, surrounded=True, nearest=None, die=15):
    return dict(vehicle=vid, infantry=RING if infantry is None else infantry, surrounded=surrounded,
                nearest_friendly=nearest, die=D(die))


def test_v_capt_1_5_7_all_conditions_and_a_successful_capture_test_take_the_tank():
    """V-CAPT-1, V-CAPT-5, V-CAPT-7."""
    t = capture_table()
    t.add("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=8.01, die=D(11))
    x = t.v("X")
    assert x.side == "attacker" and x.captured
    assert t.f("X_c").captured and t.f("X_p").captured  # V-CAPT-7
    assert t.f("a1").credit.vehicles_captured == 1 and t.f("X_c").credit.vehicles_lost == 1
    from battles.engine import prisoners

    assert prisoners(t.state, held_by="attacker") == ["X_c", "X_p"] and prisoners(t.state, held_by="defender") == []


def test_v_capt_2_needs_running_gear_damage():
    t = at_turn()
    err = t.refused("capture_attempted", vehicle="DT4", infantry=RING, surrounded=True, nearest_friendly=None, die=D(15))
    assert err.rule_id == "V-CAPT-2"


@pytest.mark.parametrize(("ring", "surrounded"), [({**RING, "a5": 2.01}, True), (RING, False),
                                                  ({k: v for k, v in RING.items() if k != "a5"}, True)])
def test_v_capt_3_five_enemy_infantry_within_2_all_round(ring, surrounded):
    t = capture_table()
    err = t.refused("capture_attempted", vehicle="X", infantry=ring, surrounded=surrounded, nearest_friendly=None,
                    die=D(15))
    assert err.rule_id == "V-CAPT-3"


def test_v_capt_4_no_unit_friendly_to_the_vehicle_within_8():
    t = capture_table()
    err = t.refused("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=8.0, die=D(15))
    assert err.rule_id == "V-CAPT-4"


def test_v_capt_5_capture_test_10_fails_and_v_capt_6_retry_next_turn():
    t = capture_table()
    t.add("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=None, die=D(10))
    assert t.v("X").side == "defender"
    err = t.refused("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=None, die=D(15))
    assert err.rule_id == "V-CAPT-6"
    t.next_turn()
    t.next_turn(A="assault")
    err = t.refused("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=3, die=D(15))
    assert err.rule_id == "V-CAPT-4"  # the conditions must hold again
    t.add("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=None, die=D(15))
    assert t.v("X").side == "attacker"


def test_capture_credit_does_not_depend_on_the_order_of_json_keys():
    """PostgreSQL jsonb reorders object keys; replay must not depend on it."""
    results = []
    for ring in (RING, dict(reversed(list(RING.items())))):
        t = capture_table()
        t.add("capture_attempted", vehicle="X", infantry=ring, surrounded=True, nearest_friendly=None, die=D(12))
        results.append({k: f.credit.vehicles_captured for k, f in t.state.fighters.items() if k in RING})
    assert results[0] == results[1] == {"a1": 1, "a2": 0, "a3": 0, "a4": 0, "a5": 0}


def test_v_capt_1_capture_before_the_battle_starts_is_refused():
    t = standard(start=False)
    assert t.refused("capture_attempted", **capture(t, "DT4")).rule_id == "S-NOT-STARTED"


def test_v_capt_1_a_destroyed_vehicle_cannot_be_captured_s_target():
    t = damaged()
    t.state.vehicles["X"].destroyed = True
    assert t.refused("capture_attempted", **capture(t)).rule_id == "S-TARGET"


def test_v_capt_1_a_damaged_vehicle_surrounded_by_five_is_taken():
    t = damaged()
    t.add("capture_attempted", **capture(t))
    assert t.v("X").side == "attacker" and t.v("X").captured and t.v("X").crew == []


def test_v_capt_1_capture_is_in_the_capturers_turn_only():
    t = damaged()
    t.next_turn()  # the defender's turn
    assert t.refused("capture_attempted", **capture(t)).rule_id == "V-TURN-12"


@pytest.mark.parametrize(("status", "rule"), [("dead", "S-DEAD"), ("captured", "V-POW-6"), ("wounded", "V-MED-3")])
def test_v_capt_3_an_unfit_capturer_is_refused_for_his_status_in_and_out_of_turn(status, rule):
    t = damaged()
    setattr(t.f("a3"), status, True)
    assert t.refused("capture_attempted", **capture(t)).rule_id == rule
    t.next_turn()
    assert t.refused("capture_attempted", **capture(t)).rule_id == rule


def test_v_med_5_a_man_recovered_this_turn_does_not_capture_it_is_not_a_move():
    t = damaged()
    t.f("a3").recovering_ply = t.state.ply
    assert t.refused("capture_attempted", **capture(t)).rule_id == "V-MED-5"


def test_v_capt_3_an_unknown_capturer_is_refused_s_unknown():
    t = damaged()
    assert t.refused("capture_attempted", **capture(t, infantry={**RING, "ghost": 1.0})).rule_id == "S-UNKNOWN"


def test_v_capt_2_is_checked_before_the_ring():
    t = at_turn()
    tank(t, "defender", "X", armour=3, gun=0)
    assert t.refused("capture_attempted", **capture(t, infantry={"a1": 1.0}, surrounded=False)).rule_id == "V-CAPT-2"


@pytest.mark.parametrize(("ring", "ok"), [(2.0, True), (2.01, False)])
def test_v_capt_3_within_2_inches_is_the_ring(ring, ok):
    t = damaged()
    infantry = {**RING, "a5": ring}
    if ok:
        t.add("capture_attempted", **capture(t, infantry=infantry))
        assert t.v("X").captured
    else:
        assert t.refused("capture_attempted", **capture(t, infantry=infantry)).rule_id == "V-CAPT-3"


@pytest.mark.parametrize(("ring", "ok"), [(1.0, True), (1.01, False)])
def test_v_capt_3_the_masters_capture_ring_counts(ring, ok):
    t = damaged({"capture_ring": 1.0})
    infantry = {k: 0.5 for k in RING} | {"a5": ring}
    if ok:
        t.add("capture_attempted", **capture(t, infantry=infantry))
    else:
        assert t.refused("capture_attempted", **capture(t, infantry=infantry)).rule_id == "V-CAPT-3"


def test_v_capt_3_a_sixth_man_beyond_the_ring_does_not_spoil_five_within_it():
    t = damaged()
    t.add("capture_attempted", **capture(t, infantry={**RING, "a6": 5.0}))
    assert t.v("X").captured


def test_v_capt_3_men_aboard_a_vehicle_are_not_in_the_ring():
    t = damaged()
    t.add("embarked", vehicle="AP", fighters=["a5"])
    err = t.refused("capture_attempted", **capture(t))
    assert err.rule_id == "V-CAPT-3"
    t.add("capture_attempted", **capture(t, infantry={**RING, "a6": 1.0}))  # a5 still named, a6 makes five
    assert t.v("X").captured


@pytest.mark.parametrize(("n", "ok"), [(4, True), (3, False)])
def test_v_capt_3_the_masters_minimum_of_infantry_counts(n, ok):
    t = damaged({"capture_min_infantry": 4})
    infantry = dict(list(RING.items())[:n])
    if ok:
        t.add("capture_attempted", **capture(t, infantry=infantry))
    else:
        assert t.refused("capture_attempted", **capture(t, infantry=infantry)).rule_id == "V-CAPT-3"


def test_v_capt_3_five_within_2_but_not_all_round_is_refused():
    t = damaged()
    assert t.refused("capture_attempted", **capture(t, surrounded=False)).rule_id == "V-CAPT-3"


@pytest.mark.parametrize(("nearest", "ok"), [(8.01, True), (8.0, False), (0.0, False), (None, True)])
def test_v_capt_4_no_friendly_unit_within_8_inches(nearest, ok):
    t = damaged()
    if ok:
        t.add("capture_attempted", **capture(t, nearest=nearest))
    else:
        assert t.refused("capture_attempted", **capture(t, nearest=nearest)).rule_id == "V-CAPT-4"


@pytest.mark.parametrize(("nearest", "ok"), [(4.01, True), (4.0, False)])
def test_v_capt_4_the_masters_clear_distance_counts(nearest, ok):
    t = damaged({"capture_friendly_clear": 4.0})
    if ok:
        t.add("capture_attempted", **capture(t, nearest=nearest))
    else:
        assert t.refused("capture_attempted", **capture(t, nearest=nearest)).rule_id == "V-CAPT-4"


def test_v_capt_6_a_failed_test_sets_the_turn_and_blocks_only_this_turn():
    t = damaged()
    turn = t.state.turn
    t.add("capture_attempted", **capture(t, die=10))
    assert t.v("X").capture_failed_turn == turn and t.v("X").side == "defender" and not t.v("X").captured
    assert t.refused("capture_attempted", **capture(t, die=20)).rule_id == "V-CAPT-6"
    t.next_turn()
    t.next_turn(A="assault")
    assert t.state.turn == turn + 1
    t.add("capture_attempted", **capture(t, die=11))
    assert t.v("X").captured


def test_v_capt_1_one_enemy_among_the_boarders_is_enough_to_refuse():
    t = at_turn()
    err = t.refused("crew_boarded", vehicle="AT3", fighters=["a1", "d1"])
    assert err.rule_id == "V-CAPT-1"
    assert t.refused("crew_boarded", vehicle="DT4", fighters=["d1", "a1"]).rule_id == "V-CAPT-1"  # out of turn too


def test_v_capt_1_a_destroyed_or_own_flamed_vehicle_is_not_boarded_this_way():
    t = at_turn()
    flamed(t).destroyed = True
    flamed(t, "AT3")
    t.next_turn()
    t.next_turn(A="recon")
    assert t.refused("vehicle_boarded", vehicle="DT4", fighter="a1").rule_id == "V-CAPT-1"
    assert t.refused("vehicle_boarded", vehicle="AT3", fighter="a1").rule_id == "V-CAPT-1"


# --- vehicle capture (V-CAPT) and crews boarding (V-FLAME-4, V-CREW) -------------------------------------------
def test_v_capt_7_the_captors_unit_holds_the_prisoners_and_credits_add_up():
    """V-CAPT-7: the crew are prisoners of the first capturer's unit; two captures count two."""
    t = attacker_turn(standard())
    for vid in ("X", "Y"):
        tank(t, "defender", vid, armour=3, gun=0)
    for gun, target in (("G", "X"), ("H", "Y")):
        tank(t, "attacker", gun, armour=3, gun=3)
        t.fire(gun, "gun", target="vehicle", target_id=target, distance=5, hit=D(17))
    assert t.v("X").running_gear and t.v("Y").running_gear
    t.add("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=None, die=D(15))
    t.add("capture_attempted", vehicle="Y", infantry=RING, surrounded=True, nearest_friendly=None, die=D(15))
    assert t.f("X_c").captor_unit == "A" and t.f("X_c").captor_side == "attacker"
    assert t.f("a1").credit.vehicles_captured == 2
    assert t.f("a1").credit.prisoners_taken == 4  # both crews, credited to the first capturer
    assert t.f("X_c").credit.vehicles_lost == 1 and t.f("Y_c").credit.vehicles_lost == 1


def test_v_capt_3_a_wounded_capturer_is_refused_for_his_wound():
    t = attacker_turn(standard())
    tank(t, "defender", "X", armour=3, gun=0)
    t.state.fighters["a1"].wounded = True  # wounded earlier (given)
    err = t.refused("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=None,
                    die=D(15))
    assert err.rule_id == "V-MED-3"


def test_v_capt_3_only_enemy_infantry_captures():
    t = attacker_turn(standard())
    tank(t, "defender", "X", armour=3, gun=0)
    t.state.vehicles["X"].running_gear = True  # damaged earlier (given)
    err = t.refused("capture_attempted", vehicle="X", infantry={**RING, "d1": 1.0}, surrounded=True,
                    nearest_friendly=None, die=D(15))
    assert err.rule_id == "V-CAPT-3" and "d1" in err.message_en


def test_the_defender_captures_an_attackers_vehicle_in_the_defenders_turn():
    """V-CAPT-1: either side may capture; the capturing side is the vehicle's enemy."""
    t = standard()
    t.postures("defender")
    t.state.vehicles["AT3"].running_gear = True  # damaged earlier (given)
    ring = {f"d{i}": 1.0 for i in range(1, 6)}
    t.add("capture_attempted", vehicle="AT3", infantry=ring, surrounded=True, nearest_friendly=None, die=D(15))
    assert t.v("AT3").side == "defender" and t.v("AT3").captured


def test_an_aircraft_cannot_be_captured():
    t = attacker_turn(standard())
    tank(t, "defender", "AIR", armour=1, gun=0, kind="aircraft")
    err = t.refused("capture_attempted", vehicle="AIR", infantry=RING, surrounded=True, nearest_friendly=None,
                    die=D(15))
    assert err.rule_id == "S-TARGET"


def test_v_vdmg_4_no_crew_boards_a_destroyed_vehicle_and_no_one_boards_twice():
    t = attacker_turn(standard())
    t.state.vehicles["AP"].destroyed = True  # destroyed earlier (given)
    assert t.refused("crew_boarded", vehicle="AP", fighters=["a1"]).rule_id == "V-VDMG-4"
    err = t.refused("crew_boarded", vehicle="AT3", fighters=["a_pd"])  # already the APC's driver
    assert err.rule_id == "S-UNKNOWN" and "a_pd" in err.message_en


def test_v_med_5_a_fighter_recovered_this_turn_may_board_a_crew_it_is_a_move():
    t = attacker_turn(standard())
    t.state.fighters["a1"].recovering_ply = t.state.ply  # recovered this turn (given)
    t.add("crew_boarded", vehicle="AT3", fighters=["a1"])
    assert "a1" in t.v("AT3").crew and t.f("a1").aboard == "AT3"


def test_wounded_may_act_reading_lets_a_wounded_man_capture_and_board():
    """The reading ``wounded_may_act`` (V-MED-5/6) on: a wounded fighter is fit to capture and to board."""
    t = attacker_turn(standard({"wounded_may_act": True}))
    tank(t, "defender", "X", armour=3, gun=0)
    t.state.vehicles["X"].running_gear = True  # damaged earlier (given)
    t.state.fighters["a1"].wounded = True
    t.state.fighters["a6"].wounded = True
    t.add("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=None, die=D(15))
    assert t.v("X").side == "attacker"
    t.add("crew_boarded", vehicle="AT3", fighters=["a6"])
    assert "a6" in t.v("AT3").crew


def test_v_vdmg_4_no_one_embarks_on_a_destroyed_vehicle():
    t = attacker_turn(standard())
    t.state.vehicles["AT3"].destroyed = True  # destroyed earlier (given)
    assert t.refused("embarked", vehicle="AT3", fighters=["a1"], role="riders").rule_id == "V-VDMG-4"

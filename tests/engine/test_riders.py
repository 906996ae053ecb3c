"""Riders on armour (V-RIDE-1..3, V-RIDE-7): who may ride, how many, and the wounds of a mine."""
import pytest

from .engineering_helpers import _mine_laid, car, laid_mine, men
from .table import F, at_turn, attacker_turn, standard, tank


@pytest.mark.parametrize(("armour", "ok"), [(3, True), (2, False)])
def test_v_ride_1_riders_on_armour_class_3_or_higher(armour, ok):
    t = at_turn()
    tank(t, "attacker", "R", armour=armour, gun=0)
    if ok:
        t.add("embarked", vehicle="R", fighters=["a1"], role="riders")
    else:
        assert t.refused("embarked", vehicle="R", fighters=["a1"], role="riders").rule_id == "V-RIDE-1"


def test_v_ride_1_up_to_14_riders_and_v_ride_2_3_placed_by_announcement_standard_embarkation():
    t = at_turn()
    men = [f"m{i}" for i in range(15)]
    t.add("force_mustered", side="attacker", units=[{"id": "M"}], fighters=[F(m, "M") for m in men])
    t.add("embarked", vehicle="AT3", fighters=men[:14], role="riders")  # V-RIDE-2: the event is the announcement
    assert t.v("AT3").riders == men[:14]
    assert t.refused("embarked", vehicle="AT3", fighters=men[14:], role="riders").rule_id == "V-RIDE-1"
    assert t.refused("vehicle_moved", vehicle="AT3", distance=2).rule_id == "V-TRANS-4"  # V-RIDE-3


def test_v_ride_7_at_mine_wounds_all_riders():
    t = laid_mine("at", "M")
    t.add("embarked", vehicle="AT3", fighters=["a1", "a2"], role="riders")
    t.add("mine_triggered", mine="M", distance=1, vehicle="AT3")
    assert t.f("a1").wounded and t.f("a2").wounded
    assert t.v("AT3").damage == 1 and t.v("AT3").running_gear  # V-MINE-5


def test_v_ride_2_riders_go_onto_the_card_as_riders_not_passengers():
    t = at_turn()
    t.add("embarked", vehicle="AT3", fighters=["a1", "a2"], role="riders")
    at3 = t.v("AT3")
    assert at3.riders == ["a1", "a2"] and at3.passengers == [] and at3.embark_ply == t.state.ply
    assert (t.f("a2").aboard, t.f("a2").aboard_as) == ("AT3", "rider")


@pytest.mark.parametrize(("armour", "ok"), [(4, True), (3, False)])
def test_v_ride_1_the_masters_minimum_armour_class_counts(armour, ok):
    t = at_turn({"riders_min_armour": 4})
    tank(t, "attacker", "R", armour=armour, gun=0)
    if ok:
        t.add("embarked", vehicle="R", fighters=["a1"], role="riders")
    else:
        assert t.refused("embarked", vehicle="R", fighters=["a1"], role="riders").rule_id == "V-RIDE-1"


@pytest.mark.parametrize(("more", "ok"), [(1, True), (2, False)])
def test_v_ride_1_riders_already_aboard_count_towards_14(more, ok):
    t = at_turn()
    crew = men(t, 15)
    t.add("embarked", vehicle="AT3", fighters=crew[:13], role="riders")
    if ok:
        t.add("embarked", vehicle="AT3", fighters=crew[13:13 + more], role="riders")
        assert len(t.v("AT3").riders) == 14
    else:
        assert t.refused("embarked", vehicle="AT3", fighters=crew[13:13 + more], role="riders").rule_id == "V-RIDE-1"


@pytest.mark.parametrize(("n", "ok"), [(2, True), (3, False)])
def test_v_ride_1_the_masters_riders_max_counts(n, ok):
    t = at_turn({"riders_max": 2})
    crew = men(t, n)
    if ok:
        t.add("embarked", vehicle="AT3", fighters=crew, role="riders")
    else:
        assert t.refused("embarked", vehicle="AT3", fighters=crew, role="riders").rule_id == "V-RIDE-1"


def test_v_ride_1_passengers_do_not_count_towards_the_riders():
    t = at_turn({"riders_max": 2})
    car(t, kind="apc", armour=3, seats=10)
    crew = men(t, 5)
    t.add("embarked", vehicle="C", fighters=crew[:3])
    t.add("embarked", vehicle="C", fighters=crew[3:], role="riders")
    assert t.v("C").riders == crew[3:]


def test_v_ride_disembarking_riders_leave_the_others_riding():
    """V-RIDE-2/3, V-TRANS-3: riders who get off are off the tank; the rest still ride it."""
    t = attacker_turn(standard())
    tank(t, "attacker", "T4", armour=4, gun=2)
    t.add("embarked", vehicle="T4", fighters=["a1", "a2"], role="riders")
    assert t.v("T4").riders == ["a1", "a2"]
    t.next_turn()
    t.next_turn(A="recon")
    t.add("vehicle_moved", vehicle="T4", distance=4)
    t.add("disembarked", vehicle="T4", fighters=["a1"], distance=1.0)
    assert t.v("T4").riders == ["a2"] and not t.f("a1").aboard and t.f("a2").aboard == "T4"


def test_v_ride_7_the_wounds_of_an_at_mine_to_riders_are_its_layers():
    """V-RIDE-7: an AT mine wounds every rider; each wound is credited to the sapper who laid it."""
    t = _mine_laid("at")
    t.add("embarked", vehicle="AT3", fighters=["a1", "a2"], role="riders")
    t.add("mine_triggered", mine="M", distance=1, vehicle="AT3")
    assert t.f("a1").wounded and t.f("a2").wounded
    assert t.f("d_sap").credit.wounds == 2


def test_v_ride_7_v_med_1_a_wounded_rider_killed_by_an_at_mine_is_its_layers_kill():
    """A rider already wounded dies of the mine's wound (V-MED-1): the kill is the layer's credit."""
    t = _mine_laid("at")
    t.add("embarked", vehicle="AT3", fighters=["a1", "a2"], role="riders")
    t.f("a1").wounded = True
    t.add("mine_triggered", mine="M", distance=1, vehicle="AT3")
    assert t.f("a1").dead and t.f("a2").wounded and not t.f("a2").dead
    assert (t.f("d_sap").credit.kills, t.f("d_sap").credit.wounds) == (1, 1)


def test_v_ride_3_riders_too_must_touch_the_vehicle():
    """V-RIDE-3: riders embark by the standard rules, so they too are brought into contact (V-TRANS-2)."""
    t = at_turn()
    err = t.refused("embarked", vehicle="AT3", fighters=["a1"], role="riders", in_contact=False)
    assert err.rule_id == "V-TRANS-2"
    t.add("embarked", vehicle="AT3", fighters=["a1"], role="riders")
    assert t.v("AT3").riders == ["a1"]

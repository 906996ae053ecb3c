"""Transport (V-TRANS-1..5): embarking and disembarking, capacity, distances and turns."""
import pytest

from .engineering_helpers import car, men
from .table import F, at_turn, attacker_turn, standard, tank


# --- disembarked ------------------------------------------------------------------------------------------
def carried(role="passengers", vid="AP"):
    """a1 and a2 embarked in the attacker's turn; the attacker's next turn is open."""
    t = at_turn()
    t.add("embarked", vehicle=vid, fighters=["a1", "a2"], role=role)
    t.next_turn()
    t.next_turn(A="recon")
    return t


# --- transport ----------------------------------------------------------------------
def test_v_trans_2_embarking_puts_the_men_on_the_card_and_v_trans_4_no_move_that_turn():
    t = at_turn()
    assert t.refused("embarked", vehicle="AP", fighters=["a1"], in_contact=False).rule_id == "V-TRANS-2"
    t.add("embarked", vehicle="AP", fighters=["a1", "a2"])
    assert t.v("AP").passengers == ["a1", "a2"] and t.f("a1").aboard == "AP"
    assert t.refused("vehicle_moved", vehicle="AP", distance=4).rule_id == "V-TRANS-4"
    assert t.refused("fighters_moved", side="attacker", fighters=["a1"], distance=1).rule_id == "V-TRANS-3"


def test_v_trans_3_next_turn_the_vehicle_moves_and_disembarks_them_dug_in_within_1():
    t = at_turn()
    t.add("embarked", vehicle="AP", fighters=["a1", "a2"])
    assert t.refused("disembarked", vehicle="AP", fighters=["a1"], distance=1).rule_id == "V-TRANS-3"
    t.next_turn()
    t.next_turn(A="recon")
    t.add("vehicle_moved", vehicle="AP", distance=8)
    assert t.refused("disembarked", vehicle="AP", fighters=["a1"], distance=1.01).rule_id == "V-TRANS-3"
    t.add("disembarked", vehicle="AP", fighters=["a1", "a2"], distance=1.0)
    assert t.f("a1").posture == "dug_in" and not t.f("a1").aboard and t.v("AP").passengers == []


@pytest.mark.parametrize(("seats", "n", "ok"), [(10, 10, True), (10, 11, False)])
def test_v_trans_1_never_more_than_the_seats_g25(seats, n, ok):
    t = at_turn()
    men = [f"m{i}" for i in range(n)]
    t.add("force_mustered", side="attacker", units=[{"id": "M"}], fighters=[F(m, "M") for m in men])
    if ok:
        t.add("embarked", vehicle="AP", fighters=men)
    else:
        assert t.refused("embarked", vehicle="AP", fighters=men).rule_id == "V-TRANS-1"


def test_v_trans_1_at_most_15_even_with_more_seats():
    t = at_turn({"seats": {"apc": 20}})
    tank(t, "attacker", "BIG", armour=2, gun=0, kind="apc", seats=0)
    men = [f"m{i}" for i in range(16)]
    t.add("force_mustered", side="attacker", units=[{"id": "M"}], fighters=[F(m, "M") for m in men])
    t.add("embarked", vehicle="BIG", fighters=men[:15])
    assert t.refused("embarked", vehicle="BIG", fighters=men[15:]).rule_id == "V-TRANS-1"


def test_v_trans_5_tanks_carry_no_passengers_only_riders():
    t = at_turn()
    assert t.refused("embarked", vehicle="AT3", fighters=["a1"]).rule_id == "V-TRANS-5"
    t.add("embarked", vehicle="AT3", fighters=["a1"], role="riders")


# Every branch of the vehicle checks: embarking (V-TRANS-1, -2, -5, V-RIDE-1), disembarking (V-TRANS-3), capture (V-CAPT-1..6),
# crews boarding and leaving (V-CAPT-1, V-CREW-4..6, V-FLAME-3, -4). Each refusal's rule ID is
# asserted, with the case just inside and just outside every threshold.






# --- embarked ---------------------------------------------------------------------------------------------
def test_v_trans_2_embarking_before_the_battle_starts_is_refused_s_not_started():
    t = standard(start=False)
    assert t.refused("embarked", vehicle="AP", fighters=["a1"]).rule_id == "S-NOT-STARTED"


def test_v_trans_2_embarking_an_unknown_vehicle_or_fighter_is_refused_s_unknown():
    t = at_turn()
    assert t.refused("embarked", vehicle="NOPE", fighters=["a1"]).rule_id == "S-UNKNOWN"
    err = t.refused("embarked", vehicle="AP", fighters=["a1", "ghost"])
    assert err.rule_id == "S-UNKNOWN" and "ghost" in err.message_en


def test_v_trans_2_passengers_go_onto_the_card_with_their_role_and_the_ply():
    """V-TRANS-2 (on the card), V-TRANS-4 (the ply of embarking is kept)."""
    t = at_turn()
    t.f("a1").building = "H"
    t.add("embarked", vehicle="AP", fighters=["a1", "a2"])
    ap, a1 = t.v("AP"), t.f("a1")
    assert ap.passengers == ["a1", "a2"] and ap.riders == [] and ap.embark_ply == t.state.ply
    assert (a1.aboard, a1.aboard_as, a1.building) == ("AP", "passenger", "")
    assert t.f("a2").aboard_as == "passenger"


@pytest.mark.parametrize("role", ["passengers", "riders"])
def test_v_vdmg_4_no_one_embarks_on_a_destroyed_vehicle_even_out_of_turn(role):
    """The vehicle's own status comes before turn order (issue 11)."""
    t = at_turn()
    t.state.vehicles["AP"].destroyed = True  # destroyed earlier (given)
    t.state.vehicles["DT4"].destroyed = True
    assert t.refused("embarked", vehicle="AP", fighters=["a1"], role=role).rule_id == "V-VDMG-4"
    assert t.refused("embarked", vehicle="DT4", fighters=["d1"], role=role).rule_id == "V-VDMG-4"


@pytest.mark.parametrize(("status", "rule"), [("dead", "S-DEAD"), ("captured", "V-POW-6"), ("wounded", "V-MED-3")])
def test_v_trans_2_an_unfit_man_does_not_embark_in_or_out_of_turn(status, rule):
    t = at_turn()
    setattr(t.f("a2"), status, True)
    setattr(t.f("d2"), status, True)
    assert t.refused("embarked", vehicle="AP", fighters=["a1", "a2"]).rule_id == rule
    assert t.refused("embarked", vehicle="DT4", fighters=["d1", "d2"], role="riders").rule_id == rule


def test_v_med_5_a_man_recovered_this_turn_may_embark_it_is_a_move():
    t = at_turn()
    t.f("a1").recovering_ply = t.state.ply
    t.add("embarked", vehicle="AP", fighters=["a1"])
    assert t.f("a1").aboard == "AP"


def test_v_med_3_reading_wounded_may_act_lets_a_wounded_man_embark():
    t = at_turn({"wounded_may_act": True})
    t.f("a1").wounded = True
    t.add("embarked", vehicle="AP", fighters=["a1"])
    assert t.v("AP").passengers == ["a1"]


def test_v_turn_12_a_fit_man_embarks_only_in_his_sides_turn():
    t = at_turn()
    assert t.refused("embarked", vehicle="DT4", fighters=["d1"], role="riders").rule_id == "V-TURN-12"


def test_v_trans_2_not_in_contact_is_refused_before_anything_about_the_men():
    t = at_turn()
    assert t.refused("embarked", vehicle="AP", fighters=["a1", "d1"], in_contact=False).rule_id == "V-TRANS-2"


@pytest.mark.parametrize("role", ["passengers", "riders"])
def test_v_trans_2_only_the_vehicles_own_side_embarks(role):
    t = at_turn()
    tank(t, "attacker", "T3", armour=3, gun=0)
    vid = "AP" if role == "passengers" else "T3"
    err = t.refused("embarked", vehicle=vid, fighters=["a1", "d1"], role=role)
    assert err.rule_id == "S-UNKNOWN" and "d1" in err.message_en
    assert t.v(vid).passengers == [] and t.v(vid).riders == []


@pytest.mark.parametrize("role", ["passengers", "riders"])
def test_v_trans_2_a_man_already_aboard_does_not_embark_again(role):
    t = at_turn()
    tank(t, "attacker", "T3", armour=3, gun=0)
    t.add("embarked", vehicle="AP", fighters=["a1"])
    vid = "AP" if role == "passengers" else "T3"
    err = t.refused("embarked", vehicle=vid, fighters=["a2", "a1"], role=role)
    assert err.rule_id == "V-TRANS-2" and "a1" in err.message_en
    crewman = t.refused("embarked", vehicle=vid, fighters=["a_pd"], role=role)  # the APC's driver
    assert crewman.rule_id == "V-TRANS-2"


@pytest.mark.parametrize("kind", ["tank", "artillery"])
def test_v_trans_5_only_cars_and_apcs_carry_passengers(kind):
    t = at_turn()
    tank(t, "attacker", "K", armour=3, gun=0, kind=kind, seats=10)
    assert t.refused("embarked", vehicle="K", fighters=["a1"]).rule_id == "V-TRANS-5"


@pytest.mark.parametrize(("n", "ok"), [(4, True), (5, False)])
def test_v_trans_1_a_car_has_4_seats_by_g25(n, ok):
    t = at_turn()
    car(t)
    crew = men(t, n)
    if ok:
        t.add("embarked", vehicle="C", fighters=crew)
        assert t.v("C").passengers == crew
    else:
        assert t.refused("embarked", vehicle="C", fighters=crew).rule_id == "V-TRANS-1"


@pytest.mark.parametrize(("n", "ok"), [(10, True), (11, False)])
def test_v_trans_1_an_apc_without_its_own_seats_has_10_by_g25(n, ok):
    t = at_turn()
    car(t, "P", kind="apc")
    crew = men(t, n)
    if ok:
        t.add("embarked", vehicle="P", fighters=crew)
    else:
        assert t.refused("embarked", vehicle="P", fighters=crew).rule_id == "V-TRANS-1"


@pytest.mark.parametrize(("n", "ok"), [(2, True), (3, False)])
def test_v_trans_1_g25_the_masters_seats_table_counts(n, ok):
    t = at_turn({"seats": {"car": 2}})
    car(t)
    crew = men(t, n)
    if ok:
        t.add("embarked", vehicle="C", fighters=crew)
    else:
        assert t.refused("embarked", vehicle="C", fighters=crew).rule_id == "V-TRANS-1"


@pytest.mark.parametrize(("n", "ok"), [(6, True), (7, False)])
def test_v_trans_1_a_vehicles_own_seats_win_over_the_table(n, ok):
    t = at_turn()
    car(t, seats=6)
    crew = men(t, n)
    if ok:
        t.add("embarked", vehicle="C", fighters=crew)
    else:
        assert t.refused("embarked", vehicle="C", fighters=crew).rule_id == "V-TRANS-1"


@pytest.mark.parametrize(("n", "ok"), [(3, True), (4, False)])
def test_v_trans_1_never_more_than_transport_max(n, ok):
    t = at_turn({"transport_max": 3})
    crew = men(t, n)
    if ok:
        t.add("embarked", vehicle="AP", fighters=crew)
    else:
        assert t.refused("embarked", vehicle="AP", fighters=crew).rule_id == "V-TRANS-1"


@pytest.mark.parametrize(("more", "ok"), [(1, True), (2, False)])
def test_v_trans_1_men_already_aboard_take_seats(more, ok):
    t = at_turn()
    car(t)
    crew = men(t, 5)
    t.add("embarked", vehicle="C", fighters=crew[:3])
    if ok:
        t.add("embarked", vehicle="C", fighters=crew[3:3 + more])
        assert t.v("C").passengers == crew[:4]
    else:
        assert t.refused("embarked", vehicle="C", fighters=crew[3:3 + more]).rule_id == "V-TRANS-1"


def test_v_trans_1_riders_do_not_take_seats():
    t = at_turn()
    car(t, kind="apc", armour=3, seats=2)
    crew = men(t, 4)
    t.add("embarked", vehicle="C", fighters=crew[:2], role="riders")
    t.add("embarked", vehicle="C", fighters=crew[2:])
    assert t.v("C").passengers == crew[2:] and t.v("C").riders == crew[:2]


def test_v_trans_3_disembarking_before_the_battle_starts_is_refused():
    t = standard(start=False)
    assert t.refused("disembarked", vehicle="AP", fighters=["a1"], distance=1).rule_id == "S-NOT-STARTED"


def test_v_trans_3_disembarked_men_stand_dug_in_at_this_ply_and_leave_the_card():
    t = carried()
    t.add("disembarked", vehicle="AP", fighters=["a2"], distance=0.5)
    a2 = t.f("a2")
    assert (a2.aboard, a2.aboard_as, a2.posture, a2.posture_ply) == ("", "", "dug_in", t.state.ply)
    assert t.v("AP").passengers == ["a1"] and t.f("a1").aboard == "AP" and t.f("a1").aboard_as == "passenger"


@pytest.mark.parametrize(("dist", "ok"), [(1.0, True), (1.01, False)])
def test_v_trans_3_within_1_inch_of_the_vehicle(dist, ok):
    t = carried()
    if ok:
        t.add("disembarked", vehicle="AP", fighters=["a1"], distance=dist)
    else:
        assert t.refused("disembarked", vehicle="AP", fighters=["a1"], distance=dist).rule_id == "V-TRANS-3"


@pytest.mark.parametrize(("dist", "ok"), [(2.0, True), (2.01, False)])
def test_v_trans_3_the_masters_disembark_distance_counts(dist, ok):
    t = attacker_turn(standard({"disembark_distance": 2.0}))
    t.add("embarked", vehicle="AP", fighters=["a1"])
    t.next_turn()
    t.next_turn(A="recon")
    if ok:
        t.add("disembarked", vehicle="AP", fighters=["a1"], distance=dist)
    else:
        assert t.refused("disembarked", vehicle="AP", fighters=["a1"], distance=dist).rule_id == "V-TRANS-3"


def test_v_trans_3_not_in_the_turn_of_embarking_even_within_1_inch():
    t = at_turn()
    t.add("embarked", vehicle="AP", fighters=["a1"])
    assert t.refused("disembarked", vehicle="AP", fighters=["a1"], distance=0).rule_id == "V-TRANS-3"


def test_v_trans_3_men_embarked_on_another_vehicle_in_this_turn_do_not_block_disembarking():
    t = carried()
    t.add("embarked", vehicle="AT3", fighters=["a3"], role="riders")
    t.add("disembarked", vehicle="AP", fighters=["a1", "a2"], distance=1)
    assert t.v("AP").passengers == []


def test_v_turn_12_disembarking_only_in_the_vehicles_sides_turn():
    t = carried()
    t.next_turn()
    assert t.refused("disembarked", vehicle="AP", fighters=["a1"], distance=1).rule_id == "V-TURN-12"


def test_v_trans_3_riders_get_off_as_passengers_do():
    t = carried("riders", "AT3")
    t.add("disembarked", vehicle="AT3", fighters=["a1", "a2"], distance=1)
    assert t.v("AT3").riders == [] and t.f("a1").posture == "dug_in"


def test_v_trans_3_only_the_vehicles_own_passengers_get_off_it():
    t = carried()
    t.add("embarked", vehicle="AT3", fighters=["a3"], role="riders")
    t.next_turn()
    t.next_turn(A="recon")
    err = t.refused("disembarked", vehicle="AP", fighters=["a1", "a3"], distance=1)  # a3 rides another vehicle
    assert err.rule_id == "V-TRANS-3" and "a3" in err.message_en
    crew = t.refused("disembarked", vehicle="AP", fighters=["a_pd"], distance=1)  # its crew: crew_dismounted
    assert crew.rule_id == "V-TRANS-3" and "a_pd" in crew.message_en


@pytest.mark.parametrize("status", ["dead", "captured"])
def test_v_trans_3_the_dead_and_the_captured_do_not_get_off(status):
    t = carried()
    setattr(t.f("a2"), status, True)
    err = t.refused("disembarked", vehicle="AP", fighters=["a1", "a2"], distance=1)
    assert err.rule_id == "S-DEAD" and "a2" in err.message_en


@pytest.mark.parametrize(("dist", "ok"), [(1.0, True), (1.01, False)])
def test_v_trans_3_a_crew_is_put_down_within_1_inch(dist, ok):
    t = at_turn()
    if ok:
        t.add("crew_dismounted", vehicle="AT3", fighters=["a_tc"], distance=dist)
    else:
        assert t.refused("crew_dismounted", vehicle="AT3", fighters=["a_tc"], distance=dist).rule_id == "V-TRANS-3"


def test_v_trans_3_only_men_the_vehicle_carries_get_off_it():
    t = attacker_turn(standard())
    t.add("embarked", vehicle="AP", fighters=["a1"])
    t.next_turn()
    t.next_turn(A="recon")
    t.add("vehicle_moved", vehicle="AP", distance=4)
    assert t.refused("disembarked", vehicle="AP", fighters=["a2"], distance=1.0).rule_id == "V-TRANS-3"

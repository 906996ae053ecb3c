"""Every branch of the vehicle checks pinned (issue 11: a fresh random sample of their mutants is
killed): embarking (V-TRANS-1, -2, -5, V-RIDE-1), disembarking (V-TRANS-3), capture (V-CAPT-1..6),
crews boarding and leaving (V-CAPT-1, V-CREW-4..6, V-FLAME-3, -4). Each refusal's rule ID is
asserted, with the case just inside and just outside every threshold."""
import pytest

from .table import D, F, attacker_turn, standard, tank


def at_turn(rules=None):
    return attacker_turn(standard(rules))


def men(t, n, unit="M", side="attacker", prefix="m"):
    names = [f"{prefix}{i}" for i in range(n)]
    t.add("force_mustered", side=side, units=[{"id": unit}], fighters=[F(m, unit) for m in names])
    return names


def car(t, vid="C", seats=0, side="attacker", kind="car", armour=1):
    return tank(t, side, vid, armour=armour, gun=0, kind=kind, seats=seats)


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


def test_v_ride_2_riders_go_onto_the_card_as_riders_not_passengers():
    t = at_turn()
    t.add("embarked", vehicle="AT3", fighters=["a1", "a2"], role="riders")
    at3 = t.v("AT3")
    assert at3.riders == ["a1", "a2"] and at3.passengers == [] and at3.embark_ply == t.state.ply
    assert (t.f("a2").aboard, t.f("a2").aboard_as) == ("AT3", "rider")


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


# --- disembarked ------------------------------------------------------------------------------------------
def carried(role="passengers", vid="AP"):
    """a1 and a2 embarked in the attacker's turn; the attacker's next turn is open."""
    t = at_turn()
    t.add("embarked", vehicle=vid, fighters=["a1", "a2"], role=role)
    t.next_turn()
    t.next_turn(A="recon")
    return t


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


# --- capture_attempted ------------------------------------------------------------------------------------
RING = {"a1": 2.0, "a2": 1.0, "a3": 1.5, "a4": 0.5, "a5": 2.0}


def damaged(rules=None, vid="X"):
    """A defender's tank X with running-gear damage (given) in the attacker's turn."""
    t = at_turn(rules)
    tank(t, "defender", vid, armour=3, gun=0)
    t.state.vehicles[vid].running_gear = True
    return t


def capture(t, vid="X", infantry=None, surrounded=True, nearest=None, die=15):
    return dict(vehicle=vid, infantry=RING if infantry is None else infantry, surrounded=surrounded,
                nearest_friendly=nearest, die=D(die))


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


# --- crew_boarded -----------------------------------------------------------------------------------------
def test_v_crew_4_boarding_before_the_battle_starts_is_refused():
    t = standard(start=False)
    assert t.refused("crew_boarded", vehicle="AT3", fighters=["a1"]).rule_id == "S-NOT-STARTED"


def test_v_crew_4_men_of_the_side_join_the_crew_in_order():
    t = at_turn()
    t.add("crew_boarded", vehicle="AT3", fighters=["a1", "a2"])
    assert t.v("AT3").crew == ["a_tc", "a_tp", "a1", "a2"]
    assert (t.f("a2").aboard, t.f("a2").aboard_as) == ("AT3", "crew")


def test_v_capt_1_one_enemy_among_the_boarders_is_enough_to_refuse():
    t = at_turn()
    err = t.refused("crew_boarded", vehicle="AT3", fighters=["a1", "d1"])
    assert err.rule_id == "V-CAPT-1"
    assert t.refused("crew_boarded", vehicle="DT4", fighters=["d1", "a1"]).rule_id == "V-CAPT-1"  # out of turn too


def test_v_turn_12_own_men_board_only_in_their_turn():
    t = at_turn()
    assert t.refused("crew_boarded", vehicle="DT4", fighters=["d1"]).rule_id == "V-TURN-12"


@pytest.mark.parametrize(("status", "rule"), [("dead", "S-DEAD"), ("captured", "V-POW-6"), ("wounded", "V-MED-3")])
def test_v_crew_4_an_unfit_man_does_not_board_in_or_out_of_turn(status, rule):
    t = at_turn()
    setattr(t.f("a2"), status, True)
    setattr(t.f("d2"), status, True)
    assert t.refused("crew_boarded", vehicle="AT3", fighters=["a1", "a2"]).rule_id == rule
    assert t.refused("crew_boarded", vehicle="DT4", fighters=["d1", "d2"]).rule_id == rule


def test_v_vdmg_4_a_destroyed_vehicle_takes_no_crew_but_after_turn_order():
    t = at_turn()
    t.state.vehicles["DT4"].destroyed = True
    assert t.refused("crew_boarded", vehicle="DT4", fighters=["d1"]).rule_id == "V-TURN-12"
    t.state.vehicles["AT3"].destroyed = True
    assert t.refused("crew_boarded", vehicle="AT3", fighters=["a1"]).rule_id == "V-VDMG-4"


def test_v_crew_4_a_man_aboard_as_a_passenger_does_not_join_a_crew():
    t = at_turn()
    t.add("embarked", vehicle="AP", fighters=["a1"])
    err = t.refused("crew_boarded", vehicle="AT3", fighters=["a2", "a1"])
    assert err.rule_id == "S-UNKNOWN" and "a1" in err.message_en


# --- crew_dismounted and vehicle_boarded (the rest of the module) -----------------------------------------
def test_v_crew_6_dismounting_before_the_battle_starts_is_refused():
    t = standard(start=False)
    assert t.refused("crew_dismounted", vehicle="AT3", fighters=["a_tc"], distance=1).rule_id == "S-NOT-STARTED"


def test_v_crew_6_a_dismounted_crewman_stands_dug_in_and_leaves_the_crew():
    t = at_turn()
    t.add("crew_dismounted", vehicle="AT3", fighters=["a_tp"], distance=1.0)
    tp = t.f("a_tp")
    assert t.v("AT3").crew == ["a_tc"]
    assert (tp.aboard, tp.aboard_as, tp.posture, tp.posture_ply) == ("", "", "dug_in", t.state.ply)


@pytest.mark.parametrize(("dist", "ok"), [(1.0, True), (1.01, False)])
def test_v_trans_3_a_crew_is_put_down_within_1_inch(dist, ok):
    t = at_turn()
    if ok:
        t.add("crew_dismounted", vehicle="AT3", fighters=["a_tc"], distance=dist)
    else:
        assert t.refused("crew_dismounted", vehicle="AT3", fighters=["a_tc"], distance=dist).rule_id == "V-TRANS-3"


def test_v_vdmg_4_no_crew_dismounts_from_a_destroyed_vehicle():
    t = at_turn()
    t.state.vehicles["AT3"].destroyed = True
    assert t.refused("crew_dismounted", vehicle="AT3", fighters=["a_tc"], distance=1).rule_id == "V-VDMG-4"


def test_v_crew_6_only_the_crew_dismounts_not_passengers_nor_another_vehicles_crew():
    t = at_turn()
    t.add("embarked", vehicle="AP", fighters=["a1"])
    for who, vid in (("a1", "AP"), ("a_pd", "AT3")):
        err = t.refused("crew_dismounted", vehicle=vid, fighters=[who], distance=1)
        assert err.rule_id == "S-UNKNOWN" and who in err.message_en
    t.f("a2").aboard, t.f("a2").aboard_as = "AT3", "crew"  # claims the seat, not on the crew list (given)
    assert t.refused("crew_dismounted", vehicle="AT3", fighters=["a2"], distance=1).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize("status", ["dead", "captured"])
def test_v_crew_6_the_dead_and_the_captured_do_not_dismount(status):
    t = at_turn()
    setattr(t.f("a_tp"), status, True)
    assert t.refused("crew_dismounted", vehicle="AT3", fighters=["a_tp"], distance=1).rule_id == "S-DEAD"


def flamed(t, vid="DT4"):
    """DT4's crew burnt by a flamethrower in this turn (given)."""
    v = t.state.vehicles[vid]
    v.crew_flamed_turn = t.state.turn
    for c in v.crew:
        t.state.fighters[c].dead = True
    return v


def test_v_flame_3_boarding_before_the_battle_starts_is_refused():
    t = standard(start=False)
    assert t.refused("vehicle_boarded", vehicle="DT4", fighter="a1").rule_id == "S-NOT-STARTED"


def test_v_flame_3_the_tank_is_taken_the_next_turn_not_this_one():
    t = at_turn()
    flamed(t)
    assert t.refused("vehicle_boarded", vehicle="DT4", fighter="a1").rule_id == "V-FLAME-3"
    t.next_turn()
    assert t.refused("vehicle_boarded", vehicle="DT4", fighter="a1").rule_id == "V-TURN-12"
    t.next_turn(A="recon")
    t.add("vehicle_boarded", vehicle="DT4", fighter="a1")
    dt4, a1 = t.v("DT4"), t.f("a1")
    assert (dt4.side, dt4.captured, dt4.crew) == ("attacker", True, ["a1"])
    assert (a1.aboard, a1.aboard_as, a1.credit.vehicles_captured) == ("DT4", "crew", 1)


def test_v_capt_1_a_destroyed_or_own_flamed_vehicle_is_not_boarded_this_way():
    t = at_turn()
    flamed(t).destroyed = True
    flamed(t, "AT3")
    t.next_turn()
    t.next_turn(A="recon")
    assert t.refused("vehicle_boarded", vehicle="DT4", fighter="a1").rule_id == "V-CAPT-1"
    assert t.refused("vehicle_boarded", vehicle="AT3", fighter="a1").rule_id == "V-CAPT-1"


@pytest.mark.parametrize(("status", "rule"), [("dead", "S-DEAD"), ("wounded", "V-MED-3")])
def test_v_flame_3_an_unfit_boarder_is_refused_for_his_status_even_out_of_turn(status, rule):
    t = at_turn()
    flamed(t)
    setattr(t.f("d1"), status, True)
    assert t.refused("vehicle_boarded", vehicle="AT3", fighter="d1").rule_id == rule


def test_v_med_5_a_man_recovered_this_turn_may_board_a_flamed_tank():
    t = at_turn()
    flamed(t)
    t.next_turn()
    t.next_turn(A="recon")
    t.f("a1").recovering_ply = t.state.ply
    t.add("vehicle_boarded", vehicle="DT4", fighter="a1")
    assert t.v("DT4").side == "attacker"

"""Transport and riders (V-TRANS, V-RIDE), vehicle capture (V-CAPT), mines,
charges and sappers (V-MINE, V-SAP), wire (V-WIRE) and terrain (V-TERR,
V-HOUSE-8, V-HOUSE-11)."""
import pytest

from .table import D, F, attacker_turn, standard, tank


def at_turn(rules=None, **postures):
    return attacker_turn(standard(rules), **postures)


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


# --- vehicle capture --------------------------------------------------------------------
def capture_table():
    t = standard()
    t.postures("defender")
    tank(t, "defender", "X", armour=3, gun=0)
    t.end_turn()
    t.postures("attacker", A="assault")
    tank(t, "attacker", "G", armour=3, gun=3)
    t.fire("G", "gun", target="vehicle", target_id="X", distance=5, hit=D(17))
    assert t.v("X").running_gear
    return t


RING = {"a1": 2.0, "a2": 1.0, "a3": 1.5, "a4": 0.5, "a5": 2.0}


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


# --- mines, charges, sappers -------------------------------------------------------------
def laid_mine(kind="ap", mine="M1"):
    """The defender's sapper lays a mine with the two-turn scheme; then it is the attacker's turn."""
    t = standard()
    t.postures("defender")
    t.add("sapper_approached", sapper="d_sap", object=mine, distance=4)
    t.next_turn()
    t.next_turn()
    t.add("sapper_worked", sapper="d_sap", action="lay", object=mine, kind=kind)
    t.next_turn(A="recon")
    return t


def test_v_mine_1_only_sappers_lay_mines_and_v_sap_1_2_3_two_turn_scheme():
    t = standard()
    t.postures("defender")
    err = t.refused("sapper_approached", sapper="d1", object="M1", distance=1)
    assert err.rule_id == "V-SAP-1"
    assert t.refused("sapper_approached", sapper="d_sap", object="M1", distance=4.01).rule_id == "V-SAP-2"
    t.add("sapper_approached", sapper="d_sap", object="M1", distance=4)
    err = t.refused("sapper_worked", sapper="d_sap", action="lay", object="M1", kind="ap")
    assert err.rule_id == "V-SAP-3"  # not in the same turn
    err = t.refused("sapper_worked", sapper="d1", action="lay", object="M1", kind="ap")
    assert err.rule_id == "V-MINE-1"
    t.next_turn()
    t.next_turn()
    t.add("sapper_worked", sapper="d_sap", action="lay", object="M1", kind="ap")
    assert t.state.mines["M1"].side == "defender" and t.state.mines["M1"].active


@pytest.mark.parametrize(("dist", "ok"), [(2.0, True), (2.01, False)])
def test_v_mine_2_goes_off_when_an_enemy_ends_its_move_within_2(dist, ok):
    t = laid_mine()
    data = dict(mine="M1", distance=dist, victims=[{"fighter": "a1", "distance": dist}])
    if ok:
        t.add("mine_triggered", **data)
        assert t.f("a1").wounded and not t.state.mines["M1"].active
    else:
        assert t.refused("mine_triggered", **data).rule_id == "V-MINE-2"


def test_v_mine_3_4_ap_mine_wounds_every_infantryman_within_2():
    """V-MINE-3 (radius 2\"), V-MINE-4 (reading: every infantryman within 2\" is wounded)."""
    t = laid_mine()
    t.add("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "a1", "distance": 1},
                                                            {"fighter": "a2", "distance": 2}])
    assert t.f("a1").wounded and t.f("a2").wounded
    t2 = laid_mine()
    err = t2.refused("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "a1", "distance": 2.01}])
    assert err.rule_id == "V-MINE-3"


def test_v_mine_8_a_vehicle_does_not_set_off_an_ap_mine():
    t = laid_mine()
    assert t.refused("mine_triggered", mine="M1", distance=1, vehicle="AT3").rule_id == "V-MINE-8"


def test_v_mine_7_infantry_does_not_set_off_an_at_mine():
    t = laid_mine("at")
    err = t.refused("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "a1", "distance": 1}])
    assert err.rule_id == "V-MINE-7"


@pytest.mark.parametrize(("armour", "destroyed"), [(1, True), (2, True), (3, False), (6, False)])
def test_v_mine_5_6_at_mine_destroys_class_1_2_and_damages_3_6_with_running_gear(armour, destroyed):
    """V-MINE-5 (class 3-6: 1 damage + running gear), V-MINE-6 (class 1-2 destroyed)."""
    t = laid_mine("at")
    tank(t, "attacker", "V", armour=armour, gun=0)
    t.add("mine_triggered", mine="M1", distance=0.5, vehicle="V")
    v = t.v("V")
    assert v.destroyed is destroyed
    if not destroyed:
        assert v.damage == 1 and v.running_gear


def test_v_mine_9_a_trawl_takes_the_blast_and_the_tank_moves_on():
    t = laid_mine("at")
    tank(t, "attacker", "V", armour=3, gun=0, specialisations=["mine_trawl"])
    t.add("mine_triggered", mine="M1", distance=0.5, vehicle="V", trawl=True)
    v = t.v("V")
    assert (v.damage, v.running_gear, "mine_trawl" in v.specialisations) == (0, False, False)
    t.add("vehicle_moved", vehicle="V", distance=5)
    assert t.refused("mine_triggered", mine="M1", distance=0.5, vehicle="V").rule_id == "S-UNKNOWN"  # spent


def test_v_mine_10_11_12_charge_on_an_officers_order_kills_enemy_infantry_makes_light_cover():
    """V-MINE-10, V-MINE-11, V-MINE-12."""
    t = laid_mine("charge", "C1")
    t.add("force_mustered", side="attacker", fighters=[F("h1", "A", building="H")])
    err = t.refused("charge_detonated", charge="C1", sapper="d_sap", officer="d1", victims=[])
    assert err.rule_id == "V-MINE-10"
    t.add("charge_detonated", charge="C1", sapper="d_sap", officer="d_sgt",  # in the enemy's turn, any distance
          victims=[{"fighter": "a1", "distance": 3.0}, {"fighter": "h1", "distance": 5, "on_object_base": True},
                   {"fighter": "d2", "distance": 1.0}], objects=["H"])
    assert t.f("a1").dead and t.f("h1").dead  # regardless of cover and walls
    assert not t.f("d2").dead  # reading: enemy infantry only
    assert t.state.buildings["H"].light_cover  # V-MINE-12


def test_v_mine_11_beyond_3_inches_off_the_base_is_refused():
    t = laid_mine("charge", "C1")
    err = t.refused("charge_detonated", charge="C1", sapper="d_sap", officer="d_sgt",
                    victims=[{"fighter": "a1", "distance": 3.01}])
    assert err.rule_id == "V-MINE-11"


@pytest.mark.parametrize(("sapper", "dist", "rule"), [("a_sap", 6.0, None), ("a_sap", 6.01, "V-MINE-14"),
                                                      ("a1", 1.0, "V-MINE-13")])
def test_v_mine_13_only_sappers_detect_v_mine_14_revealed_within_6(sapper, dist, rule):
    t = laid_mine()
    data = dict(mine="M1", sapper=sapper, distance=dist)
    if rule:
        assert t.refused("mine_revealed", **data).rule_id == rule
    else:
        t.add("mine_revealed", **data)
        assert t.state.mines["M1"].revealed


def test_v_sap_1_sapper_defuses_a_mine():
    t = laid_mine()
    t.add("sapper_approached", sapper="a_sap", object="M1", distance=3)
    t.next_turn()
    t.next_turn(A="recon")
    t.add("sapper_worked", sapper="a_sap", action="remove", object="M1")
    assert not t.state.mines["M1"].active


# --- wire and terrain ---------------------------------------------------------------------
def test_v_wire_1_4_5_infantry_crosses_wire_only_after_a_sapper_removed_it():
    """V-WIRE-1, V-WIRE-4, V-WIRE-5: the sapper within 4\"; next turn the section counts as removed."""
    t = at_turn()
    assert t.refused("fighters_moved", side="attacker", fighters=["a1"], distance=3, wire=["W"]).rule_id == "V-WIRE-4"
    t.add("sapper_approached", sapper="a_sap", object="W", distance=4)
    t.next_turn()
    t.next_turn(A="recon")
    t.add("sapper_worked", sapper="a_sap", action="remove", object="W")
    t.add("fighters_moved", side="attacker", fighters=["a1"], distance=3, wire=["W"])


def test_v_wire_1_wheeled_vehicles_stop_v_wire_3_tracked_drive_through_and_remove_it():
    t = at_turn()
    tank(t, "attacker", "CAR", armour=1, gun=0, kind="car", drive="wheeled")
    assert t.refused("vehicle_moved", vehicle="CAR", distance=5, wire=["FN"]).rule_id == "V-WIRE-1"
    t.add("vehicle_moved", vehicle="AT3", distance=5, wire=["FN"])
    assert t.state.wire["FN"].removed
    t.add("vehicle_moved", vehicle="CAR", distance=5, wire=["FN"])


def test_v_terr_5_no_armour_class_1_on_the_railway():
    t = at_turn()
    tank(t, "attacker", "CAR", armour=1, gun=0, kind="car", drive="wheeled")
    assert t.refused("vehicle_moved", vehicle="CAR", distance=5, railway=True).rule_id == "V-TERR-5"
    t.add("vehicle_moved", vehicle="AT3", distance=5, railway=True)


@pytest.mark.parametrize(("dist", "road", "ok"), [(8.0, False, True), (8.01, False, False), (10.0, True, True)])
def test_v_terr_7_road_adds_two_inches_to_a_vehicles_move_g18(dist, road, ok):
    t = at_turn()
    data = dict(vehicle="AT3", distance=dist, road=road)
    if ok:
        t.add("vehicle_moved", **data)
    else:
        assert t.refused("vehicle_moved", **data).rule_id == "V-TURN-10"


@pytest.mark.parametrize(("height", "ok"), [(1.5, True), (1.51, False)])
def test_v_terr_10_objects_over_1_5_inches_are_impassable_for_infantry(height, ok):
    t = at_turn()
    data = dict(side="attacker", fighters=["a1"], distance=3, obstacle_height=height)
    if ok:
        t.add("fighters_moved", **data)
    else:
        assert t.refused("fighters_moved", **data).rule_id == "V-TERR-10"


def test_v_terr_3_water_is_crossed_by_bridges_g21():
    t = at_turn()
    assert t.refused("fighters_moved", side="attacker", fighters=["a1"], distance=3, water=True).rule_id == "V-TERR-3"
    t.add("fighters_moved", side="attacker", fighters=["a1"], distance=3, water=True, bridge=True)


def test_v_house_8_in_and_out_only_through_agreed_openings_and_v_house_11_one_floor_not_deducted():
    t = at_turn()
    err = t.refused("fighters_moved", side="attacker", fighters=["a1"], distance=3, enter_house="H",
                    through_opening=False)
    assert err.rule_id == "V-HOUSE-8"
    t.add("fighters_moved", side="attacker", fighters=["a1"], distance=6, enter_house="H", floors=1)
    assert t.f("a1").building == "H"
    assert t.refused("fighters_moved", side="attacker", fighters=["a2"], distance=1, floors=2).rule_id == "V-HOUSE-11"


def test_capture_credit_does_not_depend_on_the_order_of_json_keys():
    """PostgreSQL jsonb reorders object keys; replay must not depend on it."""
    results = []
    for ring in (RING, dict(reversed(list(RING.items())))):
        t = capture_table()
        t.add("capture_attempted", vehicle="X", infantry=ring, surrounded=True, nearest_friendly=None, die=D(12))
        results.append({k: f.credit.vehicles_captured for k, f in t.state.fighters.items() if k in RING})
    assert results[0] == results[1] == {"a1": 1, "a2": 0, "a3": 0, "a4": 0, "a5": 0}


def test_v_mine_2_only_an_enemy_of_the_owner_sets_off_a_mine():
    t = laid_mine()
    err = t.refused("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "d1", "distance": 1}])
    assert err.rule_id == "V-MINE-2"
    t.add("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "a1", "distance": 1},
                                                            {"fighter": "d1", "distance": 2}])
    assert t.f("a1").wounded and t.f("d1").wounded  # V-MINE-4 reading: every infantryman within 2"

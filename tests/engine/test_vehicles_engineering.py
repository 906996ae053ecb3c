"""Transport and riders (V-TRANS, V-RIDE), vehicle capture (V-CAPT), mines,
charges and sappers (V-MINE, V-SAP), wire (V-WIRE) and terrain (V-TERR,
V-HOUSE-8, V-HOUSE-11)."""
import pytest

from battles.engine.state import Mine

from .table import D, F, at_turn, attacker_turn, standard, tank


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


def test_v_flame_4_a_tank_taken_by_the_capture_rules_needs_no_personnel():
    """V-FLAME-4 is for a tank taken the flamethrower's way (V-FLAME-3): one taken by the capture rules fires
    manned by a sergeant and a rifleman, no personnel aboard."""
    t = capture_table()
    t.add("capture_attempted", vehicle="X", infantry=RING, surrounded=True, nearest_friendly=8.01, die=D(11))
    t.add("crew_boarded", vehicle="X", fighters=["a_sgt", "a1"])
    t.fire("X", "gun", target="vehicle", target_id="DT4", distance=5, hit=D(3))
    assert t.v("X").shots == 1


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


def test_v_mine_1_the_mine_is_the_sappers_who_laid_it():
    """V-MINE-1: a sapper places the mine: it is his, and the man it wounds is credited to him."""
    t = laid_mine()
    assert t.state.mines["M1"].laid_by == "d_sap"
    t.add("mine_triggered", mine="M1", distance=1, victims=[{"fighter": "a1", "distance": 1}])
    assert t.f("a1").wounded and t.f("d_sap").credit.wounds == 1


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


def test_v_sap_1_sapper_defuses_a_mine_v_mine_14_once_shown():
    t = laid_mine()
    t.add("sapper_approached", sapper="a_sap", object="M1", distance=3)
    t.add("mine_revealed", mine="M1", sapper="a_sap", distance=3)
    t.next_turn()
    t.next_turn(A="recon")
    t.add("sapper_worked", sapper="a_sap", action="remove", object="M1")
    assert not t.state.mines["M1"].active


def test_v_mine_14_an_unshown_enemy_mine_is_refused_as_a_missing_one():
    """V-MINE-13, V-MINE-14: the attacker's sapper cannot lift (nor learn of) a mine his side was not shown:
    the refusal is the one for no mine at all, and the mine stays live."""
    answers = {}
    for target in ("M1", "M7"):
        t = laid_mine()
        t.add("sapper_approached", sapper="a_sap", object=target, distance=3)
        t.next_turn()
        t.next_turn(A="recon")
        err = t.refused("sapper_worked", sapper="a_sap", action="remove", object=target)
        answers[target] = (err.rule_id, err.message_ru.replace(target, "?"), err.message_en.replace(target, "?"))
        assert t.state.mines["M1"].active
    assert answers["M1"] == answers["M7"] and answers["M1"][0] == "S-UNKNOWN"


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


def test_v_wire_4_the_section_is_not_open_while_the_sapper_only_stands_at_it():
    """V-WIRE-4: infantry crosses once the sapper has done his work (scheme turn 2, V-WIRE-5), not when he
    reaches the section, nor in his next turn before the work."""
    t = at_turn()
    t.add("sapper_approached", sapper="a_sap", object="W", distance=4)
    assert t.refused("fighters_moved", side="attacker", fighters=["a1"], distance=3, wire=["W"]).rule_id == "V-WIRE-4"
    t.next_turn()
    t.next_turn(A="recon")
    assert t.refused("fighters_moved", side="attacker", fighters=["a1"], distance=3, wire=["W"]).rule_id == "V-WIRE-4"
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


# Every branch of the sapper, mine and charge checks pinned (issue 11): the two-turn scheme
# (V-SAP-1..4, V-MINE-1, G-22), mines going off (V-MINE-2..9, V-RIDE-7), charges (V-MINE-10..12)
# and detection (V-MINE-13, -14). Each refusal's rule ID is asserted, with the case just inside
# and just outside every threshold; thresholds of the rules data are also moved to show they are read.


def mined(kind="ap", mid="M", rules=None, side="defender", laid_by="d_sap"):
    """A live mine of the defender (laid earlier: given) and the attacker's turn open."""
    t = attacker_turn(standard(rules))
    t.state.mines[mid] = Mine(mid, side, kind, laid_by)
    return t


def V(fid, distance=1.0, **kw):  # noqa: N802
    return {"fighter": fid, "distance": distance, **kw}


# --- mine_triggered ---------------------------------------------------------------------------------------
def test_v_mine_2_a_mine_before_the_battle_starts_is_refused():
    t = standard(start=False)
    t.state.mines["M"] = Mine("M", "defender", "ap", "d_sap")
    assert t.refused("mine_triggered", mine="M", distance=1, victims=[V("a1")]).rule_id == "S-NOT-STARTED"


@pytest.mark.parametrize("case", ["unknown", "spent", "charge"])
def test_v_mine_2_only_a_live_mine_goes_off(case):
    t = mined("charge" if case == "charge" else "ap")
    if case == "spent":
        t.state.mines["M"].active = False
    mid = "NOPE" if case == "unknown" else "M"
    assert t.refused("mine_triggered", mine=mid, distance=1, victims=[V("a1")]).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("dist", "ok"), [(3.0, True), (3.01, False)])
def test_v_mine_2_the_masters_trigger_distance_counts(dist, ok):
    t = mined(rules={"mine_trigger_distance": 3.0})
    data = dict(mine="M", distance=dist, victims=[V("a1")])
    if ok:
        t.add("mine_triggered", **data)
        assert t.f("a1").wounded
    else:
        assert t.refused("mine_triggered", **data).rule_id == "V-MINE-2"


def test_v_mine_2_goes_off_in_any_turn_and_spends_the_mine():
    t = mined()
    t.next_turn()  # the defender's turn: the attacker's man ended a move earlier
    t.add("mine_triggered", mine="M", distance=2.0, victims=[V("a1", 0.0)])
    assert t.f("a1").wounded and t.state.mines["M"].active is False
    assert t.refused("mine_triggered", mine="M", distance=1, victims=[V("a2")]).rule_id == "S-UNKNOWN"


def test_v_mine_2_an_ap_mine_needs_an_enemy_among_the_men_named():
    t = mined()
    assert t.refused("mine_triggered", mine="M", distance=1, victims=[]).rule_id == "V-MINE-2"
    assert t.refused("mine_triggered", mine="M", distance=1, victims=[V("d1"), V("d2")]).rule_id == "V-MINE-2"


def test_v_mine_4_one_enemy_sets_it_off_and_the_blast_wounds_every_man_in_it_friend_or_foe():
    t = mined()
    t.add("mine_triggered", mine="M", distance=1, victims=[V("d1", 0.5), V("a1", 1.5)])
    assert t.f("a1").wounded and t.f("d1").wounded


def test_v_mine_2_an_unknown_victim_is_refused_s_unknown():
    t = mined()
    assert t.refused("mine_triggered", mine="M", distance=1, victims=[V("a1"), V("ghost")]).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("dist", "ok"), [(2.0, True), (2.01, False)])
def test_v_mine_3_every_victim_is_within_the_2_inch_radius(dist, ok):
    t = mined()
    data = dict(mine="M", distance=0.5, victims=[V("a1", 0.5), V("a2", dist)])
    if ok:
        t.add("mine_triggered", **data)
        assert t.f("a2").wounded
    else:
        assert t.refused("mine_triggered", **data).rule_id == "V-MINE-3"


@pytest.mark.parametrize(("dist", "ok"), [(1.0, True), (1.01, False)])
def test_v_mine_3_the_masters_radius_counts(dist, ok):
    t = mined(rules={"mine_radius": 1.0})
    data = dict(mine="M", distance=0.5, victims=[V("a1", dist)])
    if ok:
        t.add("mine_triggered", **data)
    else:
        assert t.refused("mine_triggered", **data).rule_id == "V-MINE-3"


def test_v_mine_4_a_man_aboard_a_vehicle_is_not_on_the_ground():
    t = mined()
    t.add("embarked", vehicle="AP", fighters=["a2"])
    err = t.refused("mine_triggered", mine="M", distance=1, victims=[V("a1"), V("a2")])
    assert err.rule_id == "V-MINE-4" and "a2" in err.message_en


def test_v_mine_4_reading_off_only_the_nearest_man_is_wounded_ties_by_id():
    t = mined(rules={"ap_mine_wounds_all": False})
    t.add("mine_triggered", mine="M", distance=1, victims=[V("a3", 1.5), V("a2", 0.5), V("a1", 0.5)])
    assert [t.f(x).wounded for x in ("a1", "a2", "a3")] == [True, False, False]


def test_v_med_1_an_ap_mine_kills_a_man_wounded_this_turn_and_credits_the_layer():
    t = mined()
    t.f("a1").wounded, t.f("a1").wounded_turn = True, t.state.turn
    t.add("mine_triggered", mine="M", distance=1, victims=[V("a1"), V("a2")])
    assert t.f("a1").dead and t.f("a2").wounded
    assert t.f("d_sap").credit.kills == 1 and t.f("d_sap").credit.wounds == 1


def test_v_mine_8_an_ap_mine_refuses_a_vehicle_even_with_men_named():
    t = mined()
    assert t.refused("mine_triggered", mine="M", distance=1, vehicle="AT3", victims=[V("a1")]).rule_id == "V-MINE-8"


def test_v_mine_7_an_at_mine_refuses_infantry_even_with_no_men_named():
    t = mined("at")
    assert t.refused("mine_triggered", mine="M", distance=1).rule_id == "V-MINE-7"


def test_v_mine_5_an_at_mine_refuses_an_unknown_or_destroyed_vehicle():
    t = mined("at")
    assert t.refused("mine_triggered", mine="M", distance=1, vehicle="NOPE").rule_id == "S-UNKNOWN"
    t.state.vehicles["AT3"].destroyed = True
    assert t.refused("mine_triggered", mine="M", distance=1, vehicle="AT3").rule_id == "V-MINE-2"


def test_v_mine_2_an_attackers_mine_is_set_off_by_the_defenders_vehicle_not_its_own():
    t = mined("at", side="attacker", laid_by="a_sap")
    assert t.refused("mine_triggered", mine="M", distance=1, vehicle="AT3").rule_id == "V-MINE-2"
    t.add("mine_triggered", mine="M", distance=1, vehicle="DT4")
    assert t.v("DT4").damage == 1 and t.v("DT4").running_gear


def test_v_mine_9_a_trawl_named_on_a_tank_without_one_is_refused_even_for_an_ap_free_mine():
    t = mined("at")
    assert t.refused("mine_triggered", mine="M", distance=1, vehicle="AT3", trawl=True).rule_id == "V-MINE-9"
    t.add("mine_triggered", mine="M", distance=1, vehicle="AT3", trawl=False)
    assert t.v("AT3").damage == 1


def test_v_mine_9_the_trawl_is_spent_and_the_riders_are_spared():
    t = mined("at")
    tank(t, "attacker", "TR", armour=3, gun=0, specialisations=["mine_trawl", "spotter"])
    t.add("embarked", vehicle="TR", fighters=["a1"], role="riders")
    t.add("mine_triggered", mine="M", distance=1, vehicle="TR", trawl=True)
    tr = t.v("TR")
    assert tr.specialisations == ["spotter"] and not tr.destroyed and tr.damage == 0 and not tr.running_gear
    assert not t.f("a1").wounded
    assert t.state.mines["M"].active is False


@pytest.mark.parametrize(("armour", "destroyed"), [(2, True), (3, False)])
def test_v_mine_5_6_the_armour_class_2_3_boundary_and_v_ride_7_riders_wounded(armour, destroyed):
    t = mined("at", rules={"riders_min_armour": 1})
    tank(t, "attacker", "T", armour=armour, gun=0)
    t.add("embarked", vehicle="T", fighters=["a1"], role="riders")
    t.add("mine_triggered", mine="M", distance=1, vehicle="T")
    assert t.v("T").destroyed is destroyed
    assert t.v("T").damage == (0 if destroyed else 1)
    assert t.f("a1").wounded or t.f("a1").dead


def test_v_mine_5_a_tank_with_its_reserve_spent_is_destroyed_by_an_at_mine():
    """V-MINE-5 (one damage) and V-VDMG-4 (a tank's reserve is 1): the second damage destroys it."""
    t = mined("at")
    t.state.vehicles["AT3"].damage = 1  # damaged earlier (given)
    t.add("mine_triggered", mine="M", distance=1, vehicle="AT3")
    assert t.v("AT3").destroyed and t.f("a_tc").dead
    assert t.f("d_sap").credit.vehicles_destroyed == 1


def test_v_mine_5_a_first_damage_leaves_the_tank_running():
    t = mined("at")
    t.add("mine_triggered", mine="M", distance=1, vehicle="AT3")
    assert not t.v("AT3").destroyed and t.v("AT3").damage == 1 and t.v("AT3").running_gear


# --- sapper_worked ----------------------------------------------------------------------------------------
def approached(sapper="a_sap", obj="W", rules=None):
    """The attacker's sapper stopped at ``obj`` last turn; his next turn is open."""
    t = attacker_turn(standard(rules))
    t.add("sapper_approached", sapper=sapper, object=obj, distance=4)
    assert (t.f(sapper).sapper_object, t.f(sapper).sapper_ply) == (obj, t.state.ply)
    t.next_turn()
    t.next_turn(A="recon")
    return t


def test_v_sap_3_work_before_the_battle_starts_is_refused():
    t = standard(start=False)
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "S-NOT-STARTED"


def test_v_sap_3_an_unknown_sapper_is_refused_s_unknown():
    t = approached()
    assert t.refused("sapper_worked", sapper="ghost", action="remove", object="W").rule_id == "S-UNKNOWN"


def test_v_mine_1_a_non_sapper_laying_is_refused_v_mine_1_removing_v_sap_1():
    t = approached()
    assert t.refused("sapper_worked", sapper="a1", action="lay", object="N", kind="ap").rule_id == "V-MINE-1"
    assert t.refused("sapper_worked", sapper="d1", action="lay", object="N", kind="ap").rule_id == "V-MINE-1"
    assert t.refused("sapper_worked", sapper="a1", action="remove", object="W").rule_id == "V-SAP-1"


@pytest.mark.parametrize(("status", "rule"), [("dead", "S-DEAD"), ("captured", "V-POW-6"), ("wounded", "V-MED-3")])
def test_v_sap_3_an_unfit_sapper_does_not_work_in_or_out_of_turn(status, rule):
    t = approached()
    setattr(t.f("a_sap"), status, True)
    setattr(t.f("d_sap"), status, True)
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == rule
    assert t.refused("sapper_worked", sapper="d_sap", action="remove", object="W").rule_id == rule


def test_v_med_5_a_sapper_recovered_this_turn_does_not_work_it_is_not_a_move():
    t = approached()
    t.f("a_sap").recovering_ply = t.state.ply
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "V-MED-5"


def test_v_turn_12_a_fit_sapper_works_in_his_sides_turn_only():
    t = approached()
    assert t.refused("sapper_worked", sapper="d_sap", action="remove", object="W").rule_id == "V-TURN-12"


def test_v_sap_3_he_works_on_the_object_he_approached_only():
    t = approached(obj="W")
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="FN").rule_id == "V-SAP-3"
    t.add("sapper_worked", sapper="a_sap", action="remove", object="W")
    a_sap = t.f("a_sap")
    assert t.state.wire["W"].removed and not t.state.wire["FN"].removed
    assert (a_sap.sapper_work_ply, a_sap.sapper_object) == (t.state.ply, "")


def test_v_sap_3_without_approaching_first_there_is_no_work():
    t = attacker_turn(standard())
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "V-SAP-3"
    t.f("a_sap").sapper_object = "W"  # named, but never stopped there (given)
    assert t.f("a_sap").sapper_ply == -1
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "V-SAP-3"


def test_v_sap_3_work_is_the_next_turn_one_ply_later_is_enough():
    t = attacker_turn(standard())
    t.add("sapper_approached", sapper="a_sap", object="W", distance=4)
    t.f("a_sap").sapper_ply = t.state.ply - 1  # approached one ply earlier (given)
    t.add("sapper_worked", sapper="a_sap", action="remove", object="W")
    assert t.state.wire["W"].removed


def test_v_sap_3_the_work_is_once_a_second_time_needs_a_new_approach():
    t = approached(obj="W")
    t.add("sapper_worked", sapper="a_sap", action="remove", object="W")
    t.next_turn()
    t.next_turn(A="recon")
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "V-SAP-3"


def test_v_sap_4_a_sapper_who_fired_this_turn_lays_no_mine():
    t = approached(obj="N")
    t.fire("a_sap", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(3)}])
    assert t.refused("sapper_worked", sapper="a_sap", action="lay", object="N", kind="ap").rule_id == "V-SAP-4"


def test_v_sap_4_fire_in_an_earlier_turn_does_not_stop_the_work():
    t = attacker_turn(standard())
    t.fire("a_sap", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(3)}])
    t.add("sapper_approached", sapper="a_sap", object="N", distance=4)
    t.next_turn()
    t.next_turn(A="recon")
    t.add("sapper_worked", sapper="a_sap", action="lay", object="N", kind="at")
    m = t.state.mines["N"]
    assert (m.id, m.side, m.kind, m.laid_by, m.active, m.revealed) == ("N", "attacker", "at", "a_sap", True, False)


@pytest.mark.parametrize("kind", ["ap", "at", "charge"])
def test_v_mine_1_a_sapper_lays_each_kind(kind):
    t = approached(obj="N")
    t.add("sapper_worked", sapper="a_sap", action="lay", object="N", kind=kind)
    assert t.state.mines["N"].kind == kind and t.state.mines["N"].side == "attacker"


@pytest.mark.parametrize("taken", ["own", "revealed"])
def test_v_sap_3_laying_needs_a_kind_and_a_new_id(taken):
    """A name is taken by a mine the sapper's side knows of: its own, or an enemy's it was shown (V-MINE-14)."""
    t = approached(obj="M")
    assert t.refused("sapper_worked", sapper="a_sap", action="lay", object="M").rule_id == "V-SAP-3"
    t.state.mines["M"] = Mine("M", "attacker", "ap", "a_sap2") if taken == "own" else \
        Mine("M", "defender", "ap", "d_sap", revealed=True)
    assert t.refused("sapper_worked", sapper="a_sap", action="lay", object="M", kind="ap").rule_id == "V-SAP-3"


def test_v_mine_14_laying_under_the_name_of_a_hidden_enemy_mine_lays_a_second_beside_it():
    """Refusing would tell the sapper the enemy's mine is there: his stands beside it, under a key of its own,
    and the enemy's is unchanged (``battles.engine.mines``)."""
    t = approached(obj="M")
    t.state.mines["M"] = Mine("M", "defender", "ap", "d_sap")
    t.add("sapper_worked", sapper="a_sap", action="lay", object="M", kind="at")
    assert [(k, m.id, m.side, m.kind, m.active) for k, m in t.state.mines.items()] == [
        ("M", "M", "defender", "ap", True), ("M~", "M", "attacker", "at", True)]


@pytest.mark.parametrize(("earlier", "ok"), [(0, True), (1, False)])
def test_g_22_the_limit_counts_this_sappers_own_mines_only(earlier, ok):
    t = approached(obj="N", rules={"mines_per_sapper": 1})
    t.state.mines["O"] = Mine("O", "defender", "ap", "a_sap" if earlier else "d_sap")  # laid earlier (given)
    t.state.mines["P"] = Mine("P", "attacker", "ap", "a_sap2")
    data = dict(sapper="a_sap", action="lay", object="N", kind="ap")
    if ok:
        t.add("sapper_worked", **data)
        assert "N" in t.state.mines
    else:
        assert t.refused("sapper_worked", **data).rule_id == "V-SAP-3"


def test_g_22_a_limit_of_two_allows_the_second():
    t = approached(obj="N", rules={"mines_per_sapper": 2})
    t.state.mines["O"] = Mine("O", "attacker", "ap", "a_sap")
    t.add("sapper_worked", sapper="a_sap", action="lay", object="N", kind="ap")
    assert "N" in t.state.mines


def test_v_sap_3_removing_needs_a_known_object():
    t = approached(obj="Q")
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="Q").rule_id == "S-UNKNOWN"


def test_v_sap_1_a_removed_mine_is_spent_but_still_there():
    t = approached(obj="M")
    t.state.mines["M"] = Mine("M", "defender", "at", "d_sap", revealed=True)  # shown to his side (V-MINE-14)
    t.add("sapper_worked", sapper="a_sap", action="remove", object="M")
    assert t.state.mines["M"].active is False and t.state.mines["M"].kind == "at"


# --- charge_detonated -------------------------------------------------------------------------------------
def charge(t, **kw):
    return dict({"charge": "C", "sapper": "d_sap", "officer": "d_sgt", "victims": [], "objects": []}, **kw)


def test_v_mine_10_a_charge_before_the_battle_starts_is_refused():
    t = standard(start=False)
    t.state.mines["C"] = Mine("C", "defender", "charge", "d_sap")
    assert t.refused("charge_detonated", **charge(t)).rule_id == "S-NOT-STARTED"


@pytest.mark.parametrize("case", ["unknown", "spent", "mine"])
def test_v_mine_10_only_a_live_charge_is_detonated(case):
    t = mined("ap" if case == "mine" else "charge", mid="C")
    if case == "spent":
        t.state.mines["C"].active = False
    cid = "NOPE" if case == "unknown" else "C"
    assert t.refused("charge_detonated", **charge(t, charge=cid)).rule_id == "S-UNKNOWN"


def test_v_mine_10_an_unknown_sapper_or_officer_is_refused_s_unknown():
    t = mined("charge", mid="C")
    assert t.refused("charge_detonated", **charge(t, sapper="ghost")).rule_id == "S-UNKNOWN"
    assert t.refused("charge_detonated", **charge(t, officer="ghost")).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("status", "rule"), [("dead", "S-DEAD"), ("captured", "V-POW-6"), ("wounded", "V-MED-3")])
def test_v_mine_10_an_unfit_sapper_does_not_detonate(status, rule):
    t = mined("charge", mid="C")
    setattr(t.f("d_sap"), status, True)
    assert t.refused("charge_detonated", **charge(t)).rule_id == rule


def test_v_med_5_a_sapper_recovered_this_turn_does_not_detonate():
    t = mined("charge", mid="C")
    t.f("d_sap").recovering_ply = t.state.ply
    assert t.refused("charge_detonated", **charge(t)).rule_id == "V-MED-5"


def test_v_mine_10_a_sapper_of_the_charges_side_only():
    t = mined("charge", mid="C")
    assert t.refused("charge_detonated", **charge(t, sapper="d1")).rule_id == "V-MINE-10"
    assert t.refused("charge_detonated", **charge(t, sapper="a_sap")).rule_id == "V-MINE-10"


@pytest.mark.parametrize("officer", ["d1", "a_lt", "a_sgt"])
def test_v_mine_10_an_officer_of_the_charges_side_orders_it(officer):
    t = mined("charge", mid="C")
    assert t.refused("charge_detonated", **charge(t, officer=officer)).rule_id == "V-MINE-10"


def test_v_mine_10_a_lieutenant_of_the_side_orders_it_in_the_enemys_turn():
    t = mined("charge", mid="C")
    t.add("charge_detonated", **charge(t, officer="d_lt", victims=[V("a1", 3.0)]))
    assert t.f("a1").dead and t.state.mines["C"].active is False
    assert t.f("d_sap").credit.kills == 1
    assert t.refused("charge_detonated", **charge(t)).rule_id == "S-UNKNOWN"  # spent


def test_v_mine_11_an_unknown_victim_is_refused_s_unknown():
    t = mined("charge", mid="C")
    assert t.refused("charge_detonated", **charge(t, victims=[V("ghost")])).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("dist", "ok"), [(4.0, True), (4.01, False)])
def test_v_mine_11_the_masters_charge_radius_counts(dist, ok):
    t = mined("charge", mid="C", rules={"charge_radius": 4.0})
    data = charge(t, victims=[V("a1", 1.0), V("a2", dist)])
    if ok:
        t.add("charge_detonated", **data)
        assert t.f("a2").dead
    else:
        assert t.refused("charge_detonated", **data).rule_id == "V-MINE-11"


def test_v_mine_11_on_the_objects_base_at_any_distance():
    t = mined("charge", mid="C")
    t.add("charge_detonated", **charge(t, victims=[V("a1", 9.0, on_object_base=True)]))
    assert t.f("a1").dead


def test_v_mine_11_reading_charge_affects_friends_kills_the_own_side_too():
    t = mined("charge", mid="C", rules={"charge_affects_friends": True})
    t.add("charge_detonated", **charge(t, victims=[V("a1"), V("d2")]))
    assert t.f("a1").dead and t.f("d2").dead


def test_v_mine_11_by_default_friends_in_the_blast_live():
    t = mined("charge", mid="C")
    t.add("charge_detonated", **charge(t, victims=[V("d2"), V("a1")]))
    assert t.f("a1").dead and not t.f("d2").dead and t.f("d_sap").credit.kills == 1


def test_v_mine_12_a_pillbox_becomes_light_cover_and_an_unknown_object_is_refused():
    t = mined("charge", mid="C")
    assert t.refused("charge_detonated", **charge(t, objects=["B", "NOPE"])).rule_id == "S-UNKNOWN"
    assert t.refused("charge_detonated", **charge(t, objects=["W"])).rule_id == "S-UNKNOWN"  # wire is no object
    t.add("charge_detonated", **charge(t, objects=["B"]))
    assert t.state.bunkers["B"].light_cover and not t.state.buildings["H"].light_cover
    assert t.state.buildings["H"].damage == 0 and t.f("d_sap").credit.buildings_damaged == 1


def test_v_mine_12_a_house_already_light_cover_is_not_counted_again():
    t = mined("charge", mid="C")
    t.state.mines["C2"] = Mine("C2", "defender", "charge", "d_sap")
    t.add("charge_detonated", **charge(t, objects=["H", "B"]))
    assert t.state.buildings["H"].damage == 3 and t.f("d_sap").credit.buildings_damaged == 2
    t.add("charge_detonated", **charge(t, charge="C2", objects=["H"]))
    assert t.f("d_sap").credit.buildings_damaged == 2


# --- mine_revealed ----------------------------------------------------------------------------------------
def test_v_mine_14_revealing_before_the_battle_starts_is_refused():
    t = standard(start=False)
    t.state.mines["M"] = Mine("M", "defender", "ap", "d_sap")
    assert t.refused("mine_revealed", mine="M", sapper="a_sap", distance=1).rule_id == "S-NOT-STARTED"


@pytest.mark.parametrize("case", ["unknown", "spent"])
def test_v_mine_14_only_a_live_mine_is_revealed(case):
    t = mined()
    t.state.mines["M"].active = case != "spent"
    mid = "NOPE" if case == "unknown" else "M"
    assert t.refused("mine_revealed", mine=mid, sapper="a_sap", distance=1).rule_id == "S-UNKNOWN"


def test_v_mine_14_a_charge_is_revealed_too_in_any_turn():
    t = mined("charge", mid="C")
    t.next_turn()
    t.add("mine_revealed", mine="C", sapper="a_sap", distance=6.0)
    assert t.state.mines["C"].revealed and t.state.mines["C"].active


def test_v_mine_13_an_unknown_sapper_is_refused_s_unknown():
    t = mined()
    assert t.refused("mine_revealed", mine="M", sapper="ghost", distance=1).rule_id == "S-UNKNOWN"


@pytest.mark.parametrize(("who", "status", "rule"), [
    ("a1", None, "V-MINE-13"), ("d_sap", None, "V-MINE-14"), ("a_sap", "dead", "V-MINE-14"),
    ("a_sap", "captured", "V-MINE-14"),
])
def test_v_mine_13_14_a_live_free_enemy_sapper_reveals(who, status, rule):
    t = mined()
    if status:
        setattr(t.f(who), status, True)
    if rule:
        assert t.refused("mine_revealed", mine="M", sapper=who, distance=1).rule_id == rule
        assert not t.state.mines["M"].revealed
    else:
        t.add("mine_revealed", mine="M", sapper=who, distance=1)
        assert t.state.mines["M"].revealed


def test_v_mine_13_a_dead_non_sapper_is_refused_as_no_sapper():
    t = mined()
    t.f("a1").dead = True
    assert t.refused("mine_revealed", mine="M", sapper="a1", distance=1).rule_id == "V-MINE-13"


@pytest.mark.parametrize(("dist", "ok"), [(3.0, True), (3.01, False)])
def test_v_mine_14_the_masters_reveal_distance_counts(dist, ok):
    t = mined(rules={"sapper_reveal_distance": 3.0})
    if ok:
        t.add("mine_revealed", mine="M", sapper="a_sap", distance=dist)
        assert t.state.mines["M"].revealed
    else:
        assert t.refused("mine_revealed", mine="M", sapper="a_sap", distance=dist).rule_id == "V-MINE-14"


# --- sapper_approached (the rest of the module) -----------------------------------------------------------
@pytest.mark.parametrize(("dist", "ok"), [(5.0, True), (5.01, False)])
def test_v_sap_2_the_masters_sapper_reach_counts(dist, ok):
    t = attacker_turn(standard({"sapper_reach": 5.0}))
    if ok:
        t.add("sapper_approached", sapper="a_sap", object="W", distance=dist)
        assert t.f("a_sap").sapper_object == "W"
    else:
        assert t.refused("sapper_approached", sapper="a_sap", object="W", distance=dist).rule_id == "V-SAP-2"


def test_v_sap_2_approaching_before_the_battle_starts_is_refused_and_an_unfit_sapper_too():
    t = standard(start=False)
    assert t.refused("sapper_approached", sapper="a_sap", object="W", distance=1).rule_id == "S-NOT-STARTED"
    t = attacker_turn(standard())
    t.f("a_sap").recovering_ply = t.state.ply
    assert t.refused("sapper_approached", sapper="a_sap", object="W", distance=1).rule_id == "V-MED-5"
    assert t.refused("sapper_approached", sapper="d_sap", object="W", distance=1).rule_id == "V-TURN-12"
    t.add("force_mustered", side="attacker", fighters=[F("a_sap2", "A", "sapper")])
    t.add("sapper_approached", sapper="a_sap2", object="W", distance=0)


# Every branch of the vehicle checks: embarking (V-TRANS-1, -2, -5, V-RIDE-1), disembarking (V-TRANS-3), capture (V-CAPT-1..6),
# crews boarding and leaving (V-CAPT-1, V-CREW-4..6, V-FLAME-3, -4). Each refusal's rule ID is
# asserted, with the case just inside and just outside every threshold.


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


# --- what charges, mines, riders, capture and crews leave in the state and the credits ------------------------
def test_v_mine_11_12_a_charge_credits_its_sapper_with_the_kills_and_the_damaged_house():
    """V-MINE-11: the men the charge kills are the sapper's kills; V-MINE-12: the house it wrecks (light
    cover, damage 3) is a building he damaged (campaign credits, V-RANK)."""
    t = laid_mine("charge", "C1")
    t.add("charge_detonated", charge="C1", sapper="d_sap", officer="d_sgt",
          victims=[{"fighter": "a1", "distance": 1.0}, {"fighter": "a2", "distance": 2.0}], objects=["H"])
    assert t.f("a1").dead and t.f("a2").dead
    assert t.f("d_sap").credit.kills == 2
    assert t.f("d_sap").credit.buildings_damaged == 1
    assert t.state.buildings["H"].damage == 3


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


def test_v_trans_3_only_men_the_vehicle_carries_get_off_it():
    t = attacker_turn(standard())
    t.add("embarked", vehicle="AP", fighters=["a1"])
    t.next_turn()
    t.next_turn(A="recon")
    t.add("vehicle_moved", vehicle="AP", distance=4)
    assert t.refused("disembarked", vehicle="AP", fighters=["a2"], distance=1.0).rule_id == "V-TRANS-3"


def test_v_mine_9_a_tank_without_a_trawl_cannot_take_the_blast_on_one():
    t = laid_mine("at")
    tank(t, "attacker", "V", armour=3, gun=0)
    assert t.refused("mine_triggered", mine="M1", distance=0.5, vehicle="V", trawl=True).rule_id == "V-MINE-9"


def test_v_mine_12_a_charge_names_only_objects_on_the_table():
    t = laid_mine("charge", "C1")
    err = t.refused("charge_detonated", charge="C1", sapper="d_sap", officer="d_sgt", victims=[], objects=["nowhere"])
    assert err.rule_id == "S-UNKNOWN"


def test_v_sap_4_a_sapper_who_fired_in_turn_two_does_not_finish_his_work():
    t = attacker_turn(standard())
    t.add("sapper_approached", sapper="a_sap", object="W", distance=4)
    t.next_turn()
    t.next_turn(A="recon")
    t.fire("a_sap", "rifle", distance=5, struck=[{"fighter": "d1", "die": D(3)}])
    assert t.refused("sapper_worked", sapper="a_sap", action="remove", object="W").rule_id == "V-SAP-4"


def test_v_mine_2_a_vehicle_of_the_mines_own_side_does_not_set_it_off():
    t = laid_mine("at")
    tank(t, "defender", "DV", armour=3, gun=0)
    assert t.refused("mine_triggered", mine="M1", distance=0.5, vehicle="DV").rule_id == "V-MINE-2"


def _mine_laid(kind):
    """The defender's sapper d_sap lays a mine (V-SAP-1..3); then it is the attacker's turn."""
    t = standard()
    t.postures("defender")
    t.add("sapper_approached", sapper="d_sap", object="M", distance=4)
    t.next_turn()
    t.next_turn()
    t.add("sapper_worked", sapper="d_sap", action="lay", object="M", kind=kind)
    t.next_turn(A="recon")
    return t


def test_v_mine_4_the_wounds_of_an_ap_mine_are_its_layers():
    """V-MINE-4: the AP mine wounds the infantryman; the wound is credited to the sapper who laid it."""
    t = _mine_laid("ap")
    t.add("mine_triggered", mine="M", distance=1, victims=[{"fighter": "a1", "distance": 1}])
    assert t.f("a1").wounded
    assert t.f("d_sap").credit.wounds == 1 and t.f("a1").credit.wounded == 1


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


def test_v_vdmg_4_no_one_embarks_on_a_destroyed_vehicle():
    t = attacker_turn(standard())
    t.state.vehicles["AT3"].destroyed = True  # destroyed earlier (given)
    assert t.refused("embarked", vehicle="AT3", fighters=["a1"], role="riders").rule_id == "V-VDMG-4"


def test_v_ride_3_riders_too_must_touch_the_vehicle():
    """V-RIDE-3: riders embark by the standard rules, so they too are brought into contact (V-TRANS-2)."""
    t = at_turn()
    err = t.refused("embarked", vehicle="AT3", fighters=["a1"], role="riders", in_contact=False)
    assert err.rule_id == "V-TRANS-2"
    t.add("embarked", vehicle="AT3", fighters=["a1"], role="riders")
    assert t.v("AT3").riders == ["a1"]

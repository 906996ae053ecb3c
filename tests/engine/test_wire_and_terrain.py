"""Wire and terrain (V-WIRE-1..5, V-TERR-3..10, V-HOUSE-8, V-HOUSE-11): crossing wire, roads, railways, water,
obstacles and houses."""
import pytest

from .table import at_turn, tank


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

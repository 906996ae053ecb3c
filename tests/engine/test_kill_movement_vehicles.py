"""Vehicles moving (V-TURN-10 with G-18, V-TERR-5/7, V-WIRE-1/3, V-TRANS-4,
V-VDMG-6, V-CREW-4): each drive's limit from both sides, the railway, the wire,
and what a move records (issue 11: mutation kill rate)."""
import pytest

from .table import attacker_turn, standard, tank


def at_turn(rules=None):
    t = attacker_turn(standard(rules))
    tank(t, "attacker", "CAR", armour=1, gun=0, kind="car", drive="wheeled")
    tank(t, "attacker", "LT", armour=1, gun=1, drive="tracked")
    return t


def refused(t, vehicle, distance=1.0, **kw):
    return t.refused("vehicle_moved", vehicle=vehicle, distance=distance, **kw).rule_id


def test_s_unknown_no_such_vehicle():
    assert refused(at_turn(), "nope") == "S-UNKNOWN"


@pytest.mark.parametrize(("vid", "limit"), [("CAR", 12.0), ("AT3", 8.0), ("AP", 8.0), ("AH", 0.0)])
def test_v_turn_10_g18_each_drive_moves_its_distance_and_2_more_on_a_road(vid, limit):
    """wheeled 12, tracked 8, half-tracked 8, towed 0 (G-18); a road adds 2 (V-TERR-7)."""
    t = at_turn()
    assert refused(t, vid, distance=limit + 0.01) == "V-TURN-10"
    assert refused(t, vid, distance=limit + 2.01, road=True) == "V-TURN-10"
    t.add("vehicle_moved", vehicle=vid, distance=limit + 2.0, road=True)
    t.add("vehicle_moved", vehicle=vid, distance=limit)
    assert t.v(vid).moved_ply == t.state.ply and t.state.phase == "move"


def test_v_turn_10_the_road_bonus_comes_from_the_rules_data():
    t = at_turn({"road_bonus": 4.0})
    t.add("vehicle_moved", vehicle="AT3", distance=12.0, road=True)
    assert refused(t, "AT3", distance=12.01, road=True) == "V-TURN-10"


def test_v_turn_9_and_v_turn_12_a_vehicle_moves_in_its_sides_turn_after_the_postures():
    t = standard()
    assert refused(t, "DT4") == "V-TURN-9"
    t.postures("defender")
    assert refused(t, "AT3") == "V-TURN-12"
    t.add("vehicle_moved", vehicle="DT4", distance=8.0)


# --- V-TERR-5: the railway ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("vid", "railway", "ok"), [("CAR", True, False), ("LT", True, False), ("CAR", False, True),
                                                    ("AP", True, True), ("AT3", True, True)])
def test_v_terr_5_armour_class_1_keeps_off_the_railway(vid, railway, ok):
    t = at_turn()
    if ok:
        t.add("vehicle_moved", vehicle=vid, distance=1.0, railway=railway)
    else:
        assert refused(t, vid, railway=railway) == "V-TERR-5"


# --- V-WIRE-1, V-WIRE-3 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("vid", ["AT3", "AP"])
def test_v_wire_3_tracked_and_half_tracked_drive_through_and_remove_every_section(vid):
    t = at_turn()
    t.add("vehicle_moved", vehicle=vid, distance=1.0, wire=["W", "FN"])
    assert t.state.wire["W"].removed and t.state.wire["FN"].removed


def test_v_wire_1_wheeled_stops_at_any_standing_section_but_crosses_a_removed_one():
    t = at_turn()
    t.state.wire["W"].removed = True
    t.add("vehicle_moved", vehicle="CAR", distance=1.0, wire=["W"])
    assert refused(t, "CAR", wire=["W", "FN"]) == "V-WIRE-1"
    assert not t.state.wire["FN"].removed
    assert refused(t, "CAR", wire=["W", "nope"]) == "S-UNKNOWN"
    assert refused(t, "AT3", wire=["nope"]) == "S-UNKNOWN"


def test_v_turn_10_a_move_without_wire_removes_none():
    t = at_turn()
    t.add("vehicle_moved", vehicle="AT3", distance=1.0)
    assert not t.state.wire["W"].removed and not t.state.wire["FN"].removed

"""Refusals cite the rule the actor actually breaks: the actor's own status
(dead S-DEAD, captured V-POW-6 / V-POW-5, destroyed V-VDMG-4, crewless
V-CREW-4 / V-CREW-5) is checked before turn order (V-TURN-12), phase and
targets, for every event type that has an actor (issue 11)."""
import pytest

from .table import D, attacker_turn, standard, tank

# Every event type a defender's fighter acts in, with the fighter ``X`` acting; the
# attacker's turn is open, so the turn check alone would cite V-TURN-12.
FIGHTER_ACTS = {
    "fire": lambda x: dict(shooter=x, weapon="rifle", target="fighters", distance=3,
                           struck=[{"fighter": "a1", "die": D(15)}]),
    "smoke_fired": lambda x: dict(shooter=x, officer="d_sgt", officer_distance=2, smoke="S1"),
    "melee": lambda x: dict(attacker=x, defender="a1", distance=0.5),
    "order_given": lambda x: dict(officer=x, unit="D", distance=3),
    "prisoner_taken": lambda x: dict(captor=x, prisoner="a1", distance=0.5),
    "sapper_approached": lambda x: dict(sapper=x, object="W", distance=1),
    "fighters_moved": lambda x: dict(side="defender", fighters=[x], distance=1),
    "embarked": lambda x: dict(vehicle="DT4", fighters=[x], role="riders"),
    "capture_attempted": lambda x: dict(vehicle="AT3", infantry={x: 1.0}, surrounded=True, nearest_friendly=None,
                                       die=D(15)),
    "vehicle_boarded": lambda x: dict(vehicle="AT3", fighter=x),
    "crew_boarded": lambda x: dict(vehicle="DT4", fighters=[x]),
    "fire_corrected": lambda x: dict(corrector=x, shooter="DM", target="a1", distance=2),
}
ACTOR = {"smoke_fired": "d1", "order_given": "d_sgt", "sapper_approached": "d_sap", "fire_corrected": "d_sgt"}


def _off_turn_table():
    t = attacker_turn(standard())
    assert t.state.side_to_move == "attacker"
    return t


@pytest.mark.parametrize("type_", sorted(FIGHTER_ACTS))
def test_a_prisoner_acting_out_of_turn_is_refused_v_pow_6_not_v_turn_12(type_):
    """V-POW-6: a prisoner is never sent into combat (V-POW-5 for a move: he cannot escape)."""
    t = _off_turn_table()
    x = ACTOR.get(type_, "d1")
    f = t.f(x)
    f.captured, f.captor_side, f.captor_unit = True, "attacker", "A"
    err = t.refused(type_, **FIGHTER_ACTS[type_](x))
    assert err.rule_id == ("V-POW-5" if type_ == "fighters_moved" else "V-POW-6")


@pytest.mark.parametrize("type_", sorted(FIGHTER_ACTS))
def test_a_dead_fighter_acting_out_of_turn_is_refused_as_dead_not_v_turn_12(type_):
    t = _off_turn_table()
    x = ACTOR.get(type_, "d1")
    t.f(x).dead = True
    assert t.refused(type_, **FIGHTER_ACTS[type_](x)).rule_id == "S-DEAD"


@pytest.mark.parametrize("type_", sorted(FIGHTER_ACTS))
def test_the_same_acts_by_a_fit_fighter_out_of_turn_are_refused_v_turn_12(type_):
    """The control: without a status problem, the turn order is what is broken (V-TURN-12)."""
    t = _off_turn_table()
    x = ACTOR.get(type_, "d1")
    assert t.refused(type_, **FIGHTER_ACTS[type_](x)).rule_id in ("V-TURN-12", "V-POW-1", "V-CAPT-2", "V-FLAME-3",
                                                                   "V-CAPT-1", "S-UNKNOWN", "V-CORR-3")


@pytest.mark.parametrize("own_turn", [True, False])
def test_a_gun_with_no_crew_at_all_asked_to_fire_cites_v_crew_5(own_turn):
    """V-CREW-5 (two crewmen, one an officer, to fire), not V-CREW-4 (one crewman: may only move)."""
    t = attacker_turn(standard())
    tank(t, "attacker" if own_turn else "defender", "G0", armour=1, gun=3, kind="artillery", crew=0)
    err = t.refused("fire", shooter="G0", weapon="gun", target="vehicle", target_id="DT4" if own_turn else "AT3",
                    distance=5, hit=D(15))
    assert err.rule_id == "V-CREW-5"


def test_a_gun_with_no_crew_asked_to_move_cites_v_crew_4():
    t = attacker_turn(standard())
    tank(t, "attacker", "G0", armour=1, gun=3, kind="tank", crew=0)
    t.end_turn()
    t.postures("defender")
    t.end_turn()
    t.postures("attacker")
    assert t.refused("vehicle_moved", vehicle="G0", distance=2).rule_id == "V-CREW-4"


@pytest.mark.parametrize(("type_", "data"), [
    ("vehicle_moved", dict(vehicle="DT4", distance=2)),
    ("fire", dict(shooter="DT4", weapon="gun", target="vehicle", target_id="AT3", distance=5, hit=D(15))),
    ("smoke_fired", dict(shooter="DM", officer="d_sgt", officer_distance=2, smoke="S1")),
])
def test_a_destroyed_vehicle_acting_out_of_turn_cites_v_vdmg_4_not_v_turn_12(type_, data):
    t = _off_turn_table()
    t.v(data.get("vehicle") or data["shooter"]).destroyed = True
    assert t.refused(type_, **data).rule_id == "V-VDMG-4"


@pytest.mark.parametrize(("type_", "data"), [
    ("vehicle_moved", dict(vehicle="DT4", distance=2)),
    ("fire", dict(shooter="DT4", weapon="gun", target="vehicle", target_id="AT3", distance=5, hit=D(15))),
])
def test_a_crewless_vehicle_acting_out_of_turn_cites_its_crew_rule_not_v_turn_12(type_, data):
    t = _off_turn_table()
    v = t.v(data.get("vehicle") or data["shooter"])
    for c in v.crew:
        t.f(c).dead = True
    assert t.refused(type_, **data).rule_id == ("V-CREW-4" if type_ == "vehicle_moved" else "V-CREW-5")

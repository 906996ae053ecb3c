"""Fire distances (V-CMD-8, V-CMD-11, G-3): the fire distance table and the observation distance for a shot."""
import pytest

from .fire_helpers import rifle
from .table import D, at_turn

# --- distances ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("dist", "ok"), [(8.0, True), (8.01, False)])
def test_v_cmd_11_the_fire_distance_table_is_rules_data(dist, ok):
    t = at_turn({"fire_distance": {"grenade": 8.0}})
    data = dict(shooter="a1", weapon="grenade", target="fighters", distance=dist, hit=D(3),
                struck=[{"fighter": "d1"}])
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"


@pytest.mark.parametrize(("dist", "ok"), [(16.0, True), (16.01, False)])
def test_v_cmd_8_v_terr_9_a_height_adds_to_the_observation_for_the_shot(dist, ok):
    t = at_turn({"fire_distance": {"rifle": 30.0}})
    data = dict(rifle(), distance=dist, on_height=True)
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-8"


def test_v_cmd_8_without_visual_contact_the_observation_distance_does_not_bind():
    """V-BUNK-6: fire at a pillbox needs no visual contact, so no observation limit either."""
    t = at_turn({"fire_distance": {"rifle": 30.0}})
    t.fire("a1", "rifle", target="bunker", target_id="B", distance=20, visual_contact=False, hit=D(15))
    assert t.f("a1").shot_target == "bunker:B" and t.state.bunkers["B"].hits == 0


# --- the fire distance (_max_distance, class_fire_distance; G-3, V-HOUSE-10, V-TERR-9) ------------------------------














def test_g3_a_vehicle_s_gun_has_no_fire_distance_limit_and_its_mg_has():
    t = at_turn()
    t.fire("AT3", "gun", target="vehicle", target_id="DT4", distance=100, hit=D(3))
    err = t.refused("fire", shooter="AP", weapon="vehicle_mg", target="fighters", distance=12.01,
                    struck=[{"fighter": "d1", "die": D(3)}])
    assert err.rule_id == "V-CMD-11"
    t.fire("AP", "vehicle_mg", distance=12.0, struck=[{"fighter": "d1", "die": D(3)}])


@pytest.mark.parametrize(("key", "dist", "ok"), [("rifleman", 10.0, True), ("rifleman", 10.01, False),
                                                 ("officer:sergeant", 10.0, True)])
def test_v_cmd_11_the_infantry_table_row_by_class_or_rank(key, dist, ok):
    t = at_turn({"infantry_fire": {key: {"recon": 10.0}}, "observation_distance": {"rifleman": 30.0,
                                                                                  "officer": 30.0}})
    shooter = "a1" if key == "rifleman" else "a_sgt"
    data = dict(rifle(shooter), distance=dist)
    if ok:
        t.add("fire", **data)
    else:
        assert t.refused("fire", **data).rule_id == "V-CMD-11"

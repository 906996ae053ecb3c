"""What the page offers each piece now comes from the engine's own numbers
(issue 25: the table guides, the engine decides): move allowance by posture
(V-TURN-10, G-4), fire reach by class and posture (G-3, V-CMD-11), shots left
(G-7), the target's defence (G-2) — and the engine accepts what is offered."""
from battles.engine.offers import defence, side_offers

from .table import D, at_turn


def test_v_turn_10_g_4_the_move_allowance_follows_the_units_posture():
    from battles.engine import DEFAULT_RULES

    t = at_turn(A="recon", A2="recon")

    offers = side_offers(t.state, "attacker", DEFAULT_RULES)
    assert offers["A"]["move"] == DEFAULT_RULES["postures"]["recon"]["move"]
    assert offers["a1"]["move"] == offers["A"]["move"] and not offers["A"]["moved"]
    t.add("fighters_moved", side="attacker", fighters=["a1"], distance=offers["a1"]["move"])  # the engine agrees
    offers = side_offers(t.state, "attacker", DEFAULT_RULES)
    assert offers["a1"]["moved"] and offers["A"]["moved"] and not offers["a2"]["moved"]
    assert t.refused("fighters_moved", side="attacker", fighters=["a2"],
                     distance=offers["a2"]["move"] + 0.5).rule_id == "V-TURN-10"


def test_g_4_a_dug_in_unit_is_offered_no_move():
    from battles.engine import DEFAULT_RULES

    t = at_turn(A="dug_in", A2="recon")
    offers = side_offers(t.state, "attacker", DEFAULT_RULES)
    assert offers["A"]["move"] == 0 and offers["A2"]["move"] > 0


def test_g_3_the_fire_reach_is_the_engines_and_g_7_used_shots_are_not_offered():
    from battles.engine import DEFAULT_RULES

    t = at_turn()
    offers = side_offers(t.state, "attacker", DEFAULT_RULES)
    reach = offers["a1"]["fire"]
    assert reach and offers["a1"]["weapon"] == "rifle" and offers["a1"]["shots_left"] >= 1
    assert offers["a_lmg"]["weapon"] == "lmg" and offers["a_snp"]["weapon"] == "sniper_rifle"
    assert t.refused("fire", shooter="a1", weapon="rifle", target="fighters", distance=reach + 1,
                     struck=[{"fighter": "d1", "die": D(5)}]).rule_id == "V-CMD-11"
    for _ in range(offers["a1"]["shots_left"]):
        t.fire("a1", "rifle", distance=reach, struck=[{"fighter": "d1", "die": D(3)}])
    after = side_offers(t.state, "attacker", DEFAULT_RULES)["a1"]
    assert after["fired"] and "fire" not in after


def test_v_med_3_a_wounded_fighter_is_offered_neither_move_nor_fire():
    from battles.engine import DEFAULT_RULES

    t = at_turn()
    t.end_turn()
    t.postures("defender")
    t.fire("d1", "rifle", struck=[{"fighter": "a1", "die": D(20)}])
    offers = side_offers(t.state, "attacker", DEFAULT_RULES)
    assert offers["a1"]["move"] == 0 and "fire" not in offers["a1"]
    assert "a1" not in offers["A"]["fighters"]


def test_g_2_v_house_1_the_defence_offered_is_the_one_the_shot_must_beat():
    from battles.engine import DEFAULT_RULES

    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[{"id": "h1", "unit": "D", "building": "H"},
                                                       {"id": "h2", "unit": "D"}])
    assert defence(t.state, t.f("h1"), DEFAULT_RULES) == defence(t.state, t.f("h2"), DEFAULT_RULES) + 2


def test_v_turn_9_v_turn_10_nothing_is_offered_before_the_postures_and_no_move_after_fire():
    from battles.engine import DEFAULT_RULES

    t = at_turn()
    t.end_turn()  # the defender's turn opens: no postures declared yet (V-TURN-9)
    offers = side_offers(t.state, "defender", DEFAULT_RULES)
    assert all(o["move"] == 0 and "fire" not in o for o in offers.values())
    t.postures("defender", D="recon")
    offers = side_offers(t.state, "defender", DEFAULT_RULES)
    assert offers["D"]["move"] > 0 and "fire" in offers["d1"]
    t.fire("d1", "rifle", distance=3, struck=[{"fighter": "a1", "die": D(3)}])
    offers = side_offers(t.state, "defender", DEFAULT_RULES)
    assert offers["D"]["move"] == 0 and "fire" in offers["d2"]  # fire is on: movement is over (V-TURN-10)
    assert t.refused("fighters_moved", side="defender", fighters=["d2"], distance=1).rule_id == "V-TURN-10"


def test_v_trans_7_the_targets_offered_are_those_a_shot_may_strike():
    from battles.engine.offers import targets

    from .fire_helpers import passengers, shot

    t = passengers()  # a1, a2 carried in the attacker's APC; its crew a_pd, a_pc; the tank's a_tc, a_tp
    t.fire("a1", "vehicle_mg", distance=10, struck=[{"fighter": "d1", "die": D(3)}])
    t.end_turn()
    t.postures("defender")
    offered = targets(t.state, "defender")
    assert "a1" in offered and "a3" in offered  # the passenger who fired is exposed; a fighter afoot too
    assert not {"a2", "a_tc", "a_tp", "a_pd", "a_pc"} & set(offered)  # crews never, a quiet passenger not
    assert not any(t.state.fighters[f].side == "defender" for f in offered)
    for fid in ("a2", "a_tc"):  # what is not offered, the engine refuses (V-TRANS-7)
        assert t.refused("fire", **shot("d1", "rifle", [{"fighter": fid, "die": D(11)}])).rule_id == "V-TRANS-7"
    t.fire("d1", "rifle", struck=[{"fighter": "a1", "die": D(3)}])  # and what is offered, it accepts
    t.state.fighters["a3"].dead = True
    assert "a3" not in targets(t.state, "defender")


def test_v_crew_4_v_crew_5_g_7_a_vehicle_is_offered_to_fire_while_its_crew_and_shots_let_it():
    from battles.engine import DEFAULT_RULES
    from battles.engine.offers import vehicle_may_fire

    from .fire_helpers import vshot

    t = at_turn()
    assert vehicle_may_fire(t.state, "AT3", DEFAULT_RULES) and vehicle_may_fire(t.state, "AP", DEFAULT_RULES)
    t.state.fighters["a_tp"].dead = True  # one crewman left: the tank may only move (V-CREW-4)
    assert not vehicle_may_fire(t.state, "AT3", DEFAULT_RULES)
    assert t.refused("fire", **vshot("AT3", "gun", "DT4")).rule_id == "V-CREW-4"
    t.state.fighters["a_pc"].dead = True  # the APC keeps its driver, but no officer (V-CREW-5) nor second man
    assert not vehicle_may_fire(t.state, "AP", DEFAULT_RULES)
    t = at_turn()
    limit = DEFAULT_RULES["shots_per_turn"].get("gun", DEFAULT_RULES["default_shots_per_turn"])
    for _ in range(limit):
        assert vehicle_may_fire(t.state, "AT3", DEFAULT_RULES)
        t.add("fire", **vshot("AT3", "gun", "DT4", die=1))
    assert not vehicle_may_fire(t.state, "AT3", DEFAULT_RULES)  # G-7: its shots of the turn are used
    assert t.refused("fire", **vshot("AT3", "gun", "DT4", die=1)).rule_id == "V-TURN-11"
    t.end_turn()
    t.postures("defender")
    assert not vehicle_may_fire(t.state, "AT3", DEFAULT_RULES)  # the enemy's turn
    assert vehicle_may_fire(t.state, "DT4", DEFAULT_RULES)


def test_v_turn_10_v_vdmg_6_a_vehicle_is_offered_a_move_while_the_moves_own_checks_take_one():
    """A move of no distance put to ``vehicle_moved``'s checks: what is offered, the engine then takes; not
    after the side fired (the move phase is over, V-TURN-10), not with the running gear hit (V-VDMG-6),
    not the enemy's vehicle."""
    from battles.engine import DEFAULT_RULES
    from battles.engine.offers import vehicle_may_move

    from .fire_helpers import vshot

    t = at_turn()
    assert vehicle_may_move(t.state, "AT3", DEFAULT_RULES) and not vehicle_may_move(t.state, "DT4", DEFAULT_RULES)
    t.add("vehicle_moved", vehicle="AT3", distance=2)  # offered, and taken
    t.state.vehicles["AP"].running_gear = True
    assert not vehicle_may_move(t.state, "AP", DEFAULT_RULES)
    assert t.refused("vehicle_moved", vehicle="AP", distance=1).rule_id == "V-VDMG-6"
    t.state.vehicles["AP"].running_gear = False
    assert vehicle_may_move(t.state, "AP", DEFAULT_RULES)
    t.add("fire", **vshot("AT3", "gun", "DT4", die=1))  # the side fired: its move phase is over
    assert not vehicle_may_move(t.state, "AP", DEFAULT_RULES)
    assert t.refused("vehicle_moved", vehicle="AP", distance=1).rule_id == "V-TURN-10"

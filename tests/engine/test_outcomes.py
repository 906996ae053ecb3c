"""Every event's outcome, read from the state change it caused (``fold(...,
effects=)``): the die with the number it needed, and who was wounded, killed,
captured or recovered. The log's sentences are built from these."""
from battles.engine import fold

from .table import D, at_turn, tank


def outcomes(t):
    """Fold the table's whole log again, keeping each event's effects."""
    out: dict = {}
    state = fold(t.events, None, t.rules, effects=out)
    assert state.fighters == t.state.fighters  # recording effects changes nothing
    return out


def last(t):
    return outcomes(t).get(t.state.last_seq, [])


def test_g_2_a_shot_states_the_die_the_number_it_needed_and_the_wound():
    t = at_turn()
    t.end_turn()
    t.postures("defender")
    t.fire("d1", "rifle", struck=[{"fighter": "a1", "die": D(11)}])
    got = last(t)
    t.fire("d2", "rifle", struck=[{"fighter": "a2", "die": D(4)}])
    rolls = {e["id"]: e for e in got + last(t) if e["kind"] == "roll"}
    # G-2: d20 + attack - defence >= 11; a rifleman against a rifleman in recon needs the same face as the table
    need = rolls["a1"]["need"]
    assert rolls["a1"] == {"kind": "roll", "test": "g2", "value": 11, "need": need, "passed": 11 >= need, "id": "a1"}
    assert rolls["a2"]["passed"] is False and rolls["a2"]["value"] == 4
    assert ({"kind": "wounded", "id": "a1"} in got) is t.f("a1").wounded
    assert [e for e in last(t) if e["kind"] != "roll"] == []


def test_g_2_the_need_follows_the_defence_v_house_1_in_a_house_plus_2():
    t = at_turn()
    t.add("force_mustered", side="defender", fighters=[{"id": "h1", "unit": "D", "building": "H"},
                                                       {"id": "h2", "unit": "D"}])
    t.fire("a1", "rifle", distance=5, spot=D(15), struck=[{"fighter": "h1", "die": D(12)}])
    inside = {e["id"]: e for e in last(t) if e["kind"] == "roll" and e["test"] == "g2"}["h1"]
    t.fire("a2", "rifle", distance=5, struck=[{"fighter": "h2", "die": D(12)}])
    outside = {e["id"]: e for e in last(t) if e["kind"] == "roll" and e["test"] == "g2"}["h2"]
    assert inside["need"] == outside["need"] + 2  # V-HOUSE-1
    assert inside["passed"] is False and not t.f("h1").wounded
    spot = [e for e in outcomes(t)[t.state.last_seq - 1] if e.get("test") == "spot"]
    assert spot == [{"kind": "roll", "test": "spot", "value": 15, "need": 11, "passed": True}]


def test_v_med_1_a_second_wound_in_the_turn_reads_killed_not_wounded():
    t = at_turn()
    t.end_turn()
    t.postures("defender")
    t.fire("d1", "rifle", struck=[{"fighter": "a1", "die": D(20)}])
    assert {"kind": "wounded", "id": "a1"} in last(t)
    t.fire("d2", "rifle", struck=[{"fighter": "a1", "die": D(20)}])
    got = last(t)
    assert {"kind": "killed", "id": "a1"} in got and {"kind": "wounded", "id": "a1"} not in got


def test_v_med_3_a_wound_test_states_recovered_or_still_wounded():
    t = at_turn()
    t.end_turn()
    t.postures("defender")
    t.fire("d1", "rifle", struck=[{"fighter": "a1", "die": D(20)}])
    t.fire("d2", "rifle", struck=[{"fighter": "a2", "die": D(20)}])
    t.next_turn(A="recon")
    t.add("wound_test", fighter="a1", die=D(11))
    assert last(t) == [{"kind": "roll", "test": "wound_test", "value": 11, "need": 11, "passed": True, "id": "a1"},
                       {"kind": "recovered", "id": "a1"}]
    t.add("wound_test", fighter="a2", die=D(10))
    assert last(t) == [{"kind": "roll", "test": "wound_test", "value": 10, "need": 11, "passed": False, "id": "a2"}]
    assert t.f("a2").wounded


def test_v_test_8_a_tank_shot_needs_more_than_the_miss_band_and_v_vdmg_5_destroys():
    t = at_turn()
    tank(t, "attacker", "G5", armour=4, gun=5)
    t.fire("G5", "gun", target="vehicle", target_id="DT4", distance=10, hit=D(12))
    got = last(t)
    assert got[0] == {"kind": "roll", "test": "hit", "value": 12, "need": 11, "passed": True, "id": "DT4"}
    assert {"kind": "vehicle_destroyed", "id": "DT4"} in got  # class 5 > armour 4
    assert {"kind": "killed", "id": "d_tc"} in got  # V-CREW-6: everyone inside dies


def test_v_test_3_a_morale_test_states_its_band_and_who_surrendered():
    t = at_turn()
    t.add("morale_test", unit="A", die=D(3), officer_distances={}, enemy_distances={"a1": 5})
    got = last(t)
    assert got[0] == {"kind": "roll", "test": "morale", "value": 3, "id": "A"}
    assert {"kind": "captured", "id": "a1"} in got
    assert {"kind": "captured", "id": "a2"} not in got
    assert {"kind": "morale", "id": "A", "result": "retreat"} in got


def test_events_without_an_outcome_have_none_and_a_rebuild_gives_the_same_effects():
    t = at_turn()
    t.end_turn()
    t.postures("defender")
    t.fire("d1", "rifle", struck=[{"fighter": "a1", "die": D(20)}])
    first, again = outcomes(t), outcomes(t)
    assert first == again
    turn_ends = [e.seq for e in t.events if e.type in ("turn_ended", "postures_declared", "force_mustered")]
    assert not any(seq in first for seq in turn_ends)


def _one_by_one(events, ruleset=None):
    """Each event folded on its own, so every outcome is read from snapshots taken for that event alone."""
    from battles.engine import voided_by

    out: dict = {}
    state, skip = None, voided_by(events)
    for e in events:
        state = fold([e], state, skip=skip, copy=False, ruleset=ruleset, effects=out)
    return out


def test_a_long_fold_tells_each_event_the_outcomes_it_would_have_alone():
    """The fold reads an event's "before" from the snapshot the event before it left (it changes nothing in
    between): the outcomes are those of events folded one by one, in both rulesets."""
    from battles.engine.fow.synthetic import synthetic_fow_battle
    from battles.engine.synthetic import synthetic_battle

    for events, ruleset in ((synthetic_battle(3000, seed=5), None), (synthetic_fow_battle(3000, seed=5), "fow")):
        whole: dict = {}
        fold(events, None, ruleset=ruleset, effects=whole)
        assert whole == _one_by_one(events, ruleset)
        kinds = {e["kind"] for found in whole.values() for e in found}
        assert {"roll", "wounded"} <= kinds or {"roll", "destroyed"} <= kinds, kinds  # fates were told

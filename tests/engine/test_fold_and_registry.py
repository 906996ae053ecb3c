"""The engine's plumbing as behaviour: the state's ``census``; ``fill_rolls`` (which dice the service
rolls); ``merge_rules``, ``fold``, ``_fold_into`` and ``decide_and_apply`` (the replay and the append
gate, V-TURN-13 corrections); and the registry (``Registry.lookup``, ``Registry.event_type``,
``EventType.parse`` and ``describe``). The state's JSON is ``test_state_json.py``; payloads,
``test_payloads.py``."""
from __future__ import annotations

from typing import Annotated

import pytest
from msgspec import Meta

from battles.engine import (
    REGISTRY,
    BattleState,
    Event,
    PayloadError,
    RuleViolation,
    SequenceGap,
    census,
    decide,
    decide_and_apply,
    fill_rolls,
    fold,
    lookup,
)
from battles.engine.events import Registry
from battles.engine.fold import DEFAULT_RULES, _fold_into, merge_rules
from battles.engine.fow.registry import REGISTRY as FOW_REGISTRY
from battles.engine.fow.state import FowState
from battles.engine.schema import Payload
from battles.engine.state import Fighter

from .table import D, F

# --- census ------------------------------------------------------------------------------------------


def _fighters(*rows):
    s = BattleState()
    for i, (side, dead, captured, wounded) in enumerate(rows):
        s.fighters[f"f{i}"] = Fighter(f"f{i}", side, dead=dead, captured=captured, wounded=wounded)
    return s


def test_census_counts_each_fighter_once_dead_then_captured_then_wounded():
    s = _fighters(("attacker", True, True, True), ("attacker", False, True, True), ("attacker", False, False, True),
                  ("attacker", False, False, True),
                  ("attacker", False, False, False), ("attacker", False, False, False),
                  ("defender", True, False, False), ("defender", False, True, False))
    assert census(s) == {"alive": 2, "wounded": 2, "dead": 2, "captured": 2}
    assert census(s, "attacker") == {"alive": 2, "wounded": 2, "dead": 1, "captured": 1}
    assert census(s, "defender") == {"alive": 0, "wounded": 0, "dead": 1, "captured": 1}
    assert census(s, "nobody") == {"alive": 0, "wounded": 0, "dead": 0, "captured": 0}
    assert census(BattleState()) == {"alive": 0, "wounded": 0, "dead": 0, "captured": 0}
    assert list(census(s)) == ["alive", "wounded", "dead", "captured"]


# --- fill_rolls --------------------------------------------------------------------------------------


def test_fill_rolls_rolls_a_d20_for_each_die_asked_to_be_rolled_and_only_those():
    sides = []

    def roll(n):
        sides.append(n)
        return 7

    data = {"attacker": "a", "defender": "d", "distance": 1,
            "rolls": [{"attacker": {"source": "rolled"}, "defender": {"value": 3, "source": "entered"}},
                      {"attacker": {"source": "rolled", "value": 19}, "defender": {"source": "rolled"}}]}
    out = fill_rolls("melee", data, roll)
    assert out["rolls"] == [
        {"attacker": {"source": "rolled", "value": 7, "rng": "secrets"}, "defender": {"value": 3, "source": "entered"}},
        {"attacker": {"source": "rolled", "value": 19}, "defender": {"source": "rolled", "value": 7, "rng": "secrets"}}]
    assert sides == [20, 20]
    assert data["rolls"][0]["attacker"] == {"source": "rolled"}  # the input is left alone
    assert out["attacker"] == "a" and out["distance"] == 1


def test_fill_rolls_rolls_a_d6_for_fow_and_walks_maps_and_optional_dice():
    out = fill_rolls("dig_in_attempted", {"platoon": "P", "die": {"source": "rolled"}}, lambda n: n, ruleset="fow")
    assert out == {"platoon": "P", "die": {"source": "rolled", "value": 6, "rng": "secrets"}}
    data = {"unit": "U", "die": {"source": "rolled"}, "officer_distances": {}, "enemy_distances": {}}
    assert fill_rolls("morale_test", data, lambda n: 4)["die"] == {"source": "rolled", "value": 4, "rng": "secrets"}
    fire = {"shooter": "s", "weapon": "gun", "target": "vehicle", "hit": None, "spot": {"source": "rolled"}}
    got = fill_rolls("fire", fire, lambda n: 12)
    assert got["hit"] is None and got["spot"] == {"source": "rolled", "value": 12, "rng": "secrets"}
    odd = {"shooter": "s", "struck": "not a list", "hit": "x", "spot": {"source": "entered"}}
    assert fill_rolls("fire", odd, lambda n: 1) == odd


def test_fill_rolls_leaves_unknown_types_types_without_dice_and_non_objects_alone():
    data = {"side": "attacker", "turn": 1}
    assert fill_rolls("turn_ended", data, lambda n: 1) is data
    assert fill_rolls("no_such_type", data, lambda n: 1) is data
    assert fill_rolls(None, data, lambda n: 1) is data
    assert fill_rolls("melee", ["x"], lambda n: 1) == ["x"]
    assert fill_rolls("dig_in_attempted", {"die": {"source": "rolled"}}, lambda n: 1) == {"die": {"source": "rolled"}}


# --- merge_rules / fold ------------------------------------------------------------------------------


def test_merge_rules_overlays_the_masters_rules_key_by_key_and_a_table_entry_by_entry():
    base = merge_rules(None)
    assert base == DEFAULT_RULES and base is not DEFAULT_RULES
    table = next(k for k, v in DEFAULT_RULES.items() if isinstance(v, dict) and len(v) > 1)
    first = next(iter(DEFAULT_RULES[table]))
    flat = next(k for k, v in DEFAULT_RULES.items() if not isinstance(v, dict))
    got = merge_rules({table: {first: "X"}, flat: 99, "new_key": {"a": 1}})
    assert got[table] == {**DEFAULT_RULES[table], first: "X"} and got[flat] == 99 and got["new_key"] == {"a": 1}
    assert DEFAULT_RULES[table][first] != "X"  # the defaults are not changed
    assert merge_rules({table: 5})[table] == 5  # a non-table value replaces the table
    assert merge_rules({}) == DEFAULT_RULES
    fow = merge_rules(None, "fow")
    assert "rof" in fow and fow != DEFAULT_RULES
    assert merge_rules({"rof": {"moved": 3}}, "fow")["rof"] == {**fow["rof"], "moved": 3}


def _log():
    return [Event(1, "battle_started", {"attacker": "A", "defender": "D"}),
            Event(2, "force_mustered", {"side": "attacker", "fighters": [F("a1"), F("a2")]}),
            Event(3, "turn_ended", {"side": "defender", "turn": 1})]


def test_fold_copies_the_state_unless_told_and_counts_applied_events():
    s1 = fold(_log()[:2])
    assert s1.last_seq == 2 and s1.applied == 2 and set(s1.fighters) == {"a1", "a2"}
    s2 = fold(_log()[2:], s1)
    assert s1.last_seq == 2 and s2.last_seq == 3 and s2.applied == 3 and s2 is not s1
    s3 = fold(_log()[2:], s1, copy=False)
    assert s3 is s1 and s1.last_seq == 3 and s1.applied == 3
    assert fold(iter(_log())).last_seq == 3  # any iterable
    assert type(fold([], ruleset="fow")) is FowState and type(fold([])) is BattleState


def test_fold_skips_voided_events_but_counts_their_seqs():
    log = [*_log(), Event(4, "correction", {"voids_seq": 2, "reason": "x"})]
    s = fold(log)
    assert s.fighters == {} and s.last_seq == 4 and s.applied == 3
    s = fold(_log(), skip=[2])
    assert s.fighters == {} and s.last_seq == 3 and s.applied == 2
    first = fold(log[:1])
    first.voided.append(2)
    s = fold(log[1:3], first)
    assert s.fighters == {} and s.applied == 2  # the state's own voided list is skipped too


def test_fold_refuses_a_gap_in_the_seqs():
    with pytest.raises(SequenceGap, match="expected seq 2, got 3"):
        fold([_log()[0], _log()[2]])
    with pytest.raises(SequenceGap, match="expected seq 1, got 2"):
        fold(_log()[1:])


def test_an_event_left_without_effect_by_a_correction_is_recorded_unapplied():
    log = [*_log()[:2], Event(3, "fire", {"shooter": "ghost", "weapon": "rifle", "target": "fighters",
                                          "distance": 5, "struck": [{"fighter": "a1", "die": D(15)}]})]
    s = fold(log)
    assert s.unapplied == [3] and s.last_seq == 3 and s.applied == 2
    s = fold([*log, Event(4, "turn_ended", {"side": "defender", "turn": 1})])
    assert s.unapplied == [3] and s.last_seq == 4 and s.applied == 3 and s.side_to_move == "attacker"


def test_fold_into_uses_the_rules_and_registry_it_is_given():
    s = FowState()
    _fold_into(s, [Event(1, "battle_started", {"attacker": "A", "defender": "D", "ruleset": "fow"})],
               merge_rules(None, "fow"), set(), FOW_REGISTRY)
    assert s.status == "running" and s.last_seq == 1 and s.applied == 1
    with pytest.raises(KeyError):
        _fold_into(BattleState(), [Event(1, "dig_in_attempted", {})], merge_rules(None), set())


# --- decide_and_apply --------------------------------------------------------------------------------


def _started():
    return fold(_log()[:2])


def test_decide_and_apply_returns_the_normalised_events_and_the_state_after_them():
    state = _started()
    events, after = decide_and_apply(state, [("turn_ended", {"side": "defender", "turn": 1}, None),
                                             ("turn_ended", {"side": "attacker", "turn": 1}, 1)], first_seq=3)
    assert [(e.seq, e.type, e.data, e.version) for e in events] == [
        (3, "turn_ended", {"side": "defender", "turn": 1}, 1), (4, "turn_ended", {"side": "attacker", "turn": 1}, 1)]
    assert after is state and after.last_seq == 4 and after.applied == 4 and after.side_to_move == "defender"
    assert decide(fold(_log()[:2]), [("turn_ended", {"side": "defender", "turn": 1}, None)], first_seq=3) == events[:1]


def test_a_bad_payload_is_refused_naming_the_events_index_and_field():
    with pytest.raises(PayloadError) as exc:
        decide_and_apply(_started(), [("turn_ended", {"side": "defender", "turn": 1}, None),
                                      ("turn_ended", {"side": "defender", "turn": "x"}, None)], first_seq=3)
    assert exc.value.field == "events[1].data.turn"
    with pytest.raises(PayloadError) as exc:
        decide_and_apply(_started(), [("no_such", {}, None)], first_seq=3)
    assert exc.value.field == "events[0].type"
    with pytest.raises(PayloadError) as exc:
        decide_and_apply(_started(), [("turn_ended", {"side": "defender", "turn": 1}, 9)], first_seq=3)
    assert exc.value.field == "events[0].schema_version"


def test_a_refusal_names_its_rule_and_the_index_of_the_refused_event():
    with pytest.raises(RuleViolation) as exc:
        decide_and_apply(_started(), [("turn_ended", {"side": "defender", "turn": 1}, None),
                                      ("turn_ended", {"side": "defender", "turn": 1}, None)], first_seq=3)
    assert exc.value.index == 1 and exc.value.rule_id.startswith(("V-", "S-"))


def test_authorize_sees_each_event_against_the_state_before_it_and_a_deferred_one_must_be_refused():
    seen = []

    def authorize(i, type_, state, payload):
        seen.append((i, type_, state.side_to_move, payload.side))
        return False

    decide_and_apply(_started(), [("turn_ended", {"side": "defender", "turn": 1}, None),
                                  ("turn_ended", {"side": "attacker", "turn": 1}, None)], first_seq=3,
                     authorize=authorize)
    assert seen == [(0, "turn_ended", "defender", "defender"), (1, "turn_ended", "attacker", "attacker")]
    with pytest.raises(RuleViolation) as exc:
        decide_and_apply(_started(), [("turn_ended", {"side": "defender", "turn": 1}, None)], first_seq=3,
                         authorize=lambda *a: True)
    assert exc.value.rule_id == "S-UNKNOWN" and exc.value.index == 0
    assert "неизвестного" in exc.value.message_ru and "unknown" in exc.value.message_en


def test_v_turn_13_a_correction_of_an_applied_event_rechecks_what_follows_without_it():
    log = _log()[:2]
    state = fold(log)
    new = [("correction", {"voids_seq": 2, "reason": "x"}, None),
           ("fighters_moved", {"side": "defender", "fighters": ["a1"], "distance": 1}, None)]
    with pytest.raises(ValueError, match="needs history"):
        decide_and_apply(fold(log), new[:1], first_seq=3)
    events, after = decide_and_apply(fold(log), new[:1], first_seq=3, history=lambda: log)
    assert after.fighters == {} and after.voided == [2] and after.last_seq == 3
    with pytest.raises(RuleViolation) as exc:
        decide_and_apply(state, new, first_seq=3, history=lambda: log)
    assert exc.value.index == 1 and exc.value.rule_id == "S-UNKNOWN"


def test_decide_and_apply_plays_the_ruleset_it_is_given():
    events, after = decide_and_apply(FowState(), [("battle_started", {"attacker": "A", "defender": "D",
                                                                      "ruleset": "fow"}, None)],
                                     first_seq=1, ruleset="fow")
    assert type(after) is FowState and after.status == "running" and events[0].version == FOW_REGISTRY[
        "battle_started"].version


# --- the registry ------------------------------------------------------------------------------------


def test_lookup_names_the_ruleset_that_has_a_type_of_another_ruleset():
    assert REGISTRY.lookup("fire") is REGISTRY["fire"] and lookup("fire") is REGISTRY["fire"]
    with pytest.raises(PayloadError) as exc:
        REGISTRY.lookup("dig_in_attempted")
    assert exc.value.field == "type"
    assert exc.value.message_en == ("type: event type 'dig_in_attempted' belongs to ruleset fow; this battle is "
                                    "played by ruleset v11.2")
    assert exc.value.message_ru == ("type: тип события 'dig_in_attempted' относится к правилам fow, а бой идёт по "
                                    "правилам v11.2")
    with pytest.raises(PayloadError) as exc:
        FOW_REGISTRY.lookup("fire")
    assert exc.value.message_en.startswith("type: event type 'fire' belongs to ruleset v11.2;")
    for bad in ("no_such", None, 3, ["fire"]):
        with pytest.raises(PayloadError) as exc:
            REGISTRY.lookup(bad)
        assert exc.value.field == "type"
        assert exc.value.message_en == f"type: unknown event type {bad!r}"
        assert exc.value.message_ru == f"type: неизвестный тип события {bad!r}"


class _Ping(Payload):
    count: Annotated[int, Meta(ge=0)]


def test_event_type_registers_once_per_registry_with_its_declaration():
    reg = Registry("test-kill")
    entry = reg.event_type("ping", _Ping, version=3, rules=("V-X-1",), title_ru="Пинг", title_en="Ping",
                           game_master_only=True)
    assert reg["ping"] is entry and entry.owner is reg
    assert (entry.name, entry.payload, entry.version, entry.rules, entry.title_ru, entry.title_en,
            entry.game_master_only) == ("ping", _Ping, 3, ("V-X-1",), "Пинг", "Ping", True)
    plain = reg.event_type("pong", _Ping)
    assert (plain.version, plain.rules, plain.title_ru, plain.title_en, plain.game_master_only) == (1, (), "", "", False)
    with pytest.raises(RuntimeError, match="event type ping registered twice in ruleset test-kill"):
        reg.event_type("ping", _Ping)
    assert Registry("other").event_type("ping", _Ping).name == "ping"  # another registry may


def test_parse_validates_the_payload_at_its_version_and_refuses_an_unknown_version():
    reg = Registry("test-kill-parse")
    entry = reg.event_type("ping", _Ping, version=2)

    @entry.upcaster(1)
    def _v1(data):
        return {"count": data["n"]}

    assert entry.parse({"count": 2}) == _Ping(2) and entry.parse({"count": 2}, 2) == _Ping(2)
    assert entry.parse({"n": 5}, 1) == _Ping(5)
    for version in (3, 0):
        with pytest.raises(PayloadError) as exc:
            entry.parse({"count": 1}, version)
        assert exc.value.field == "schema_version"
        assert exc.value.message_en == f"schema_version: type ping has no version {version}"
        assert exc.value.message_ru == f"schema_version: тип ping не знает версию {version}"
    with pytest.raises(PayloadError) as exc:
        entry.parse({"count": -1})
    assert exc.value.field == "data.count"
    with pytest.raises(PayloadError) as exc:
        entry.parse(["x"], 1)
    assert exc.value.field == "data"


def test_describe_says_type_version_titles_rules_recorder_and_schema():
    entry = REGISTRY["fire"]
    d = entry.describe()
    assert list(d) == ["type", "schema_version", "title_ru", "title_en", "rules", "game_master_only",
                       "recorded_by", "schema"]
    assert (d["type"], d["schema_version"], d["title_ru"], d["title_en"]) == (
        "fire", entry.version, entry.title_ru, entry.title_en)
    assert d["rules"] == list(entry.rules) and d["rules"] and d["game_master_only"] is False
    assert d["recorded_by"]["kind"] == "actor" and d["schema"]["properties"]["shooter"]
    gm = REGISTRY["correction"].describe()
    assert gm["game_master_only"] is True and gm["recorded_by"]["kind"] == "game_master"
    fow = FOW_REGISTRY["dig_in_attempted"].describe()
    assert fow["type"] == "dig_in_attempted" and fow["recorded_by"] is not None
    orphan = Registry("test-kill-describe").event_type("ping", _Ping)
    od = orphan.describe()
    gm_only = Registry("test-kill-describe-gm").event_type("ping", _Ping, game_master_only=True).describe()
    assert gm_only["game_master_only"] is True and gm_only["recorded_by"] is None
    assert od["recorded_by"] is None and od["game_master_only"] is False
    assert od["schema"]["required"] == ["count"]


def test_v_turn_10_decide_and_apply_checks_by_the_masters_rules_data():
    """G-4's move in assault (6 in by default) as the game master sets it: a 4 in move passes by default
    and is refused (V-TURN-10) when the master's rules data make it 3 in."""
    from .table import standard

    t = standard()
    t.postures("defender", D="assault")
    move = [("fighters_moved", {"side": "defender", "fighters": ["d1"], "distance": 4.0}, None)]
    seq = t.state.last_seq + 1
    decide_and_apply(t.state.copy(), move, first_seq=seq)
    decide_and_apply(t.state.copy(), move, first_seq=seq, rules={"postures": {"assault": {"move": 4.0}}})
    with pytest.raises(RuleViolation) as exc:
        decide_and_apply(t.state.copy(), move, first_seq=seq, rules={"postures": {"assault": {"move": 3.0}}})
    assert exc.value.rule_id == "V-TURN-10" and exc.value.index == 0

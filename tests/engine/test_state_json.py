"""The state and payloads as stored JSON (``state.dump``, ``state.load``; ``engine.state_to_json`` and
``state_from_json``): a canonical form (a dataclass's fields in their declared order, a map's keys sorted),
so a rebuild writes identical bytes; and loading gives back the same state, whatever order the store kept the
keys in (jsonb reorders them), with unknown keys ignored and missing ones defaulted (an older projection loads).

``canonical`` below is the form the projections, checkpoints and stored payloads have always had; the engine's
dump must keep giving it, as JSON text, on every state and payload of the synthetic battles."""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field

import msgspec
import pytest

from battles import engine
from battles.engine import BattleState, dump, load
from battles.engine.fow.state import FowState
from battles.engine.fow.synthetic import synthetic_fow_battle
from battles.engine.state import Fighter, Unit
from battles.engine.synthetic import synthetic_battle


def canonical(obj):
    if isinstance(obj, msgspec.Struct):
        return {name: canonical(getattr(obj, name)) for name in obj.__struct_fields__}
    if dataclasses.is_dataclass(obj):
        return {f.name: canonical(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): canonical(obj[k]) for k in sorted(obj)}
    if isinstance(obj, (list, tuple)):
        return [canonical(v) for v in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(canonical(v) for v in obj)
    return obj


def text(value):
    return json.dumps(value, ensure_ascii=False)  # key order kept: the canonical order is part of the form


@pytest.mark.parametrize(("ruleset", "log"), [(None, synthetic_battle(1500, seed=3)), ("fow", synthetic_fow_battle(800))])
def test_every_payload_and_the_state_dump_to_the_canonical_form(ruleset, log):
    for _entry, payload, data in engine.parse_batch([(e.type, e.data, e.version) for e in log], ruleset=ruleset):
        assert text(data) == text(canonical(payload)) == text(dump(payload))
    folded = engine.fold(log, ruleset=ruleset)
    assert text(engine.state_to_json(folded)) == text(canonical(folded))
    # the projection's write: the same form as text, keys in the same order
    assert text(json.loads(engine.state_to_json_text(folded))) == text(canonical(folded))


@pytest.mark.parametrize(("ruleset", "log"), [("v11.2", synthetic_battle(800)), ("fow", synthetic_fow_battle(800))])
def test_a_state_loads_back_as_it_was_dumped_in_both_rulesets(ruleset, log):
    state = engine.fold(log, ruleset=ruleset)
    stored = json.loads(text(engine.state_to_json(state)))  # as the projection table gives it back
    again = engine.state_from_json(stored, ruleset)
    assert type(again) is type(state) and again == state and text(dump(again)) == text(dump(state))
    assert type(engine.state_from_json(None, ruleset)) is type(state) and engine.state_from_json({}, ruleset) == (
        engine.new_state(ruleset))


def test_the_dump_is_json_ready_with_fields_in_order_and_map_keys_sorted_sharing_nothing():
    s = BattleState(turn=4, status="running", voided=[3])
    s.fighters["x"] = Fighter("x", "attacker", unit="U", wounded=True)
    s.fighters["a"] = Fighter("a", "defender")
    data = dump(s)
    assert list(data) == [f.name for f in dataclasses.fields(BattleState)]
    assert list(data["fighters"]) == ["a", "x"] and data["fighters"]["x"]["credit"]["kills"] == 0
    assert data["voided"] == [3] and data["voided"] is not s.voided
    assert dump(Unit("U", "attacker")) == {f.name: getattr(Unit("U", "attacker"), f.name)
                                           for f in dataclasses.fields(Unit)}
    assert dump({"b": 1, "a": {3, 1, 2}}) == {"a": [1, 2, 3], "b": 1} and list(dump({"b": 1, "a": 2})) == ["a", "b"]
    assert dump(1.0) == 1.0 and type(dump(1.0)) is float and dump(None) is None


def test_load_ignores_unknown_keys_and_defaults_missing_ones():
    f = Fighter("x", "attacker", unit="U", wounded=True, wounded_ply=3)
    data = dump(f)
    assert load(Fighter, data) == f and load(Fighter, {**data, "no_such": 1}) == f
    partial = load(Fighter, {"id": "y", "side": "defender"})
    assert partial == Fighter("y", "defender") and partial.credit.kills == 0
    assert load(FowState, dump(FowState())) == FowState()


def test_load_gives_maps_in_sorted_key_order_whatever_order_the_store_kept():
    s = BattleState()
    for fid in ("b", "a", "c"):
        s.fighters[fid] = Fighter(fid, "attacker")
    reordered = {**dump(s), "fighters": {k: dump(s.fighters[k]) for k in ("c", "a", "b")}}
    assert list(load(BattleState, reordered).fighters) == ["a", "b", "c"]
    fow = engine.fold(synthetic_fow_battle(800), ruleset="fow")
    stored = dump(fow)
    shuffled = {k: (dict(reversed(v.items())) if isinstance(v, dict) else v) for k, v in reversed(stored.items())}
    assert text(dump(load(FowState, shuffled))) == text(stored)


def test_copy_is_a_state_equal_to_the_original_sharing_nothing():
    s = engine.fold(synthetic_battle(400))
    c = s.copy()
    assert c == s and c is not s and c.fighters is not s.fighters
    c.fighters[next(iter(c.fighters))].dead = not c.fighters[next(iter(c.fighters))].dead
    assert c != s


@dataclass(slots=True)
class Leaf:
    n: int
    tag: str = "a"


@dataclass(slots=True)
class Shapes:
    grid: list[list[Leaf]]
    maybe_by_name: dict[str, Leaf | None]
    groups: dict[str, list[Leaf]]
    one: Leaf | None = None
    ratio: float = 0.5
    words: list[str] = field(default_factory=list)


def test_every_shape_of_state_loads_back_as_it_was_dumped():
    original = Shapes(grid=[[Leaf(7)], [], [Leaf(8), Leaf(9, "b")]], maybe_by_name={"y": Leaf(6), "x": None},
                      groups={"g": [Leaf(10)], "h": []}, one=Leaf(11), ratio=2, words=["w"])
    dumped = dump(original)
    assert list(dumped["maybe_by_name"]) == ["x", "y"] and dumped["grid"][2][1] == {"n": 9, "tag": "b"}
    loaded = load(Shapes, dumped)
    assert loaded == original and type(loaded.ratio) is float and loaded.words is not dumped["words"]
    assert load(Shapes, {**dumped, "one": None}).one is None

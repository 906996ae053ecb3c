"""Every annotation shape the engine's payloads and states may use, not only those used today.

``schema`` (payloads) names the supported annotations: ``int``, ``float``, ``str``, ``bool``,
``Literal``, ``list[X]``, ``dict[str, X]``, ``X | None`` and nested dataclasses, nested in any
order. A new event type or state field may combine them in a way no current one does (a map of
nested payloads, a list of lists); the replay builder (``events.builder``) and the state loader
(``state.load``) must then still give back what was stored. These tests use payload and state
classes of their own with every combination, so a shape that only a future rule will use is
checked now."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from battles.engine import events, schema, state
from tests.engine.test_replay_builder import same


@dataclass(frozen=True)
class Leaf:
    n: int
    tag: Literal["a", "b"] = "a"


@dataclass(frozen=True)
class Shapes:
    leaves: list[Leaf]
    maybe_leaves: list[Leaf | None]
    by_name: dict[str, Leaf]
    maybe_by_name: dict[str, Leaf | None]
    grid: list[list[Leaf]]
    groups: dict[str, list[Leaf]]
    one: Leaf | None
    plain: dict[str, int]
    words: list[str]
    ratio: float = 0.5
    later: list[Leaf] = field(default_factory=list)


STORED = {
    "leaves": [{"n": 1}, {"n": 2, "tag": "b"}],
    "maybe_leaves": [None, {"n": 3}],
    "by_name": {"x": {"n": 4}, "y": {"n": 5, "tag": "b"}},
    "maybe_by_name": {"x": None, "y": {"n": 6}},
    "grid": [[{"n": 7}], [], [{"n": 8}, {"n": 9}]],
    "groups": {"g": [{"n": 10}], "h": []},
    "one": {"n": 11},
    "plain": {"k": 1},
    "words": ["w"],
    "ratio": 2,
}


def test_every_shape_replays_as_it_was_appended():
    appended = schema.parse_dataclass(Shapes, STORED)
    assert appended.grid[2][1] == Leaf(9) and appended.maybe_by_name["x"] is None and appended.ratio == 2.0
    replayed = events.builder(Shapes)(STORED)
    same(replayed, appended, "Shapes")
    assert type(replayed.grid[0][0]).__name__ == "LeafReplay"
    assert type(replayed.by_name["y"]).__name__ == "LeafReplay" and replayed.by_name["y"].tag == "b"
    assert replayed.maybe_leaves[0] is None and replayed.maybe_by_name["x"] is None
    assert replayed.later == [] and replayed.groups["h"] == []
    none_given = {**STORED, "one": None}
    assert events.builder(Shapes)(none_given).one is None


def test_every_shape_of_state_loads_back_as_it_was_dumped():
    original = schema.parse_dataclass(Shapes, STORED)
    dumped = state.dump(original)
    assert dumped["by_name"] == {"x": {"n": 4, "tag": "a"}, "y": {"n": 5, "tag": "b"}}
    loaded = state.load(Shapes, dumped)
    assert loaded == original
    assert loaded.grid[2][0] == Leaf(8) and loaded.maybe_leaves == [None, Leaf(3)]
    assert loaded.maybe_by_name == {"x": None, "y": Leaf(6)} and loaded.groups == {"g": [Leaf(10)], "h": []}
    # the loader builds new containers: the loaded state does not share the stored lists
    assert loaded.words is not dumped["words"] and loaded.plain is not dumped["plain"]
    # a store that reorders keys (jsonb) loads the same
    reordered = {**dumped, "by_name": {"y": dumped["by_name"]["y"], "x": dumped["by_name"]["x"]}}
    assert list(state.load(Shapes, reordered).by_name) == ["x", "y"]
    assert state.load(Shapes, {**dumped, "one": None}).one is None


@dataclass(frozen=True)
class Bounded:
    dice: list[int] = field(metadata={"min_items": 1, "max_items": 3, "items": {"min": 1, "max": 6}})
    names: list[str] = field(default_factory=list, metadata={"items": {"max_length": 4, "min_length": 1}})


def test_the_bounds_of_a_lists_items_hold_in_both_parsers_and_the_published_schema():
    from jsonschema import Draft202012Validator

    from battles.engine.errors import PayloadError

    published = Draft202012Validator(schema.dataclass_schema(Bounded))
    fast = schema._compile_dataclass(Bounded)
    for data, bad in [({"dice": [1, 6]}, None), ({"dice": [0]}, "data.dice[0]"), ({"dice": [3, 7]}, "data.dice[1]"),
                      ({"dice": []}, "data.dice"), ({"dice": [1, 1, 1, 1]}, "data.dice"),
                      ({"dice": [2], "names": ["abcd"]}, None), ({"dice": [2], "names": ["abcde"]}, "data.names[0]"),
                      ({"dice": [2], "names": ["a", ""]}, "data.names[1]")]:
        assert published.is_valid(data) is (bad is None), data
        if bad is None:
            assert fast(data) == schema.parse_dataclass(Bounded, data) == Bounded(**data)
            continue
        try:
            fast(data)
        except Exception:  # noqa: BLE001 - the compiled parser refuses bare
            pass
        else:
            raise AssertionError(f"the compiled parser accepts {data}")
        try:
            schema.parse_dataclass(Bounded, data)
        except PayloadError as e:
            assert e.field == bad
        else:
            raise AssertionError(f"the walk accepts {data}")

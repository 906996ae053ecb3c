"""The data checks of a large batch's chunk, at once (``services._chunk_checked``, docs/append.md
"fifth pass"): it may say a chunk is fine only where the event-by-event check
(``_check_event_input``) passes every event, or where an event is nested deeper than the cap and the
parser refuses it; anything else sends the chunk to the event-by-event check. And
``schema.max_depth``, the bound the depth part relies on."""
from __future__ import annotations

import copy
import json
import math
from dataclasses import dataclass

import pytest

from battles import engine, services
from battles.engine import schema
from battles.engine.synthetic import synthetic_battle
from battles.services import EVENT_DATA_MAX_BYTES, EVENT_DATA_MAX_DEPTH, NewEvent, _check_event_input
from config.errors import InvalidInput
from tests.engine.test_annotation_shapes import Leaf, Shapes

SCRIPT = synthetic_battle(60, seed=7)


def fine(events, ruleset) -> bool:
    """The chunk check passed it at once (it returns the chunk's JSON text)."""
    text = services._chunk_checked(events, ruleset)
    assert text is None or json.loads(text) == [[e.type, e.key, e.data] for e in events]
    return text is not None


def chunk(events=SCRIPT[:40]):
    return [NewEvent(type=e.type, data=e.data, key=f"k{e.seq}") for e in events]


def one_by_one_passes(events) -> bool:
    try:
        for i, ev in enumerate(events):
            _check_event_input(i, ev)
    except InvalidInput:
        return False
    return True


def with_event(events, at, **change):
    out = list(events)
    old = out[at]
    out[at] = NewEvent(type=change.get("type", old.type), data=change.get("data", old.data),
                       key=change.get("key", old.key), schema_version=change.get("schema_version", old.schema_version))
    return out


def test_a_clean_chunk_is_fine_at_once_as_event_by_event():
    events = chunk()
    assert one_by_one_passes(events)
    assert fine(events, "v11.2") is True


@pytest.mark.parametrize("where", ["data value", "data key", "event key", "event type"])
@pytest.mark.parametrize("bad", ["\x00", "\ud800"])
def test_a_nul_or_lone_surrogate_anywhere_in_the_chunk_sends_it_event_by_event(where, bad):
    events = chunk()
    at = 17
    data = dict(events[at].data)
    change = {"data value": {"data": {**data, "note": f"a{bad}b"}},
              "data key": {"data": {**data, f"x{bad}": 1}},
              "event key": {"key": f"k{bad}"},
              "event type": {"type": f"fire{bad}"}}[where]
    events = with_event(events, at, **change)
    assert not one_by_one_passes(events)
    assert fine(events, "v11.2") is False


def test_an_escaped_nul_written_out_in_text_is_suspicious_and_checked_event_by_event():
    """The text ``\\u0000`` (backslash, u, zeros) is harmless, but the JSON search cannot tell it from
    an escaped NUL: the chunk goes event by event, which lets it through."""
    events = with_event(chunk(), 3, data={**SCRIPT[3].data, "note": "\\u0000"})
    assert one_by_one_passes(events)
    assert fine(events, "v11.2") is False


def test_a_chunk_over_one_events_size_cap_is_checked_event_by_event_and_may_pass():
    """Each event under the cap, together over it: the chunk cannot tell, the events each pass."""
    piece = "x" * (EVENT_DATA_MAX_BYTES // 4)
    events = [with_event(chunk(), i, data={**SCRIPT[i].data, "note": piece})[i] for i in range(6)]
    assert one_by_one_passes(events)
    assert fine(events, "v11.2") is False
    big = with_event(chunk(), 0, data={**SCRIPT[0].data, "note": "x" * EVENT_DATA_MAX_BYTES})
    assert not one_by_one_passes(big) and fine(big, "v11.2") is False


def test_the_size_cap_counts_bytes_not_characters():
    """Cyrillic text is two bytes a character: within the cap in characters, over it in bytes."""
    small = next(e for e in SCRIPT if e.type == "battle_started")  # few containers: the event's fast path
    events = [NewEvent(type=small.type, data={**small.data, "note": "ж" * (EVENT_DATA_MAX_BYTES // 2)}, key="k")]
    assert not one_by_one_passes(events)
    assert fine(events, "v11.2") is False
    within = [NewEvent(type=small.type, data={**small.data, "note": "ж" * (EVENT_DATA_MAX_BYTES // 2 - 100)}, key="k")]
    assert one_by_one_passes(within) and fine(within, "v11.2") is True


def test_data_that_is_not_json_is_left_to_the_event_by_event_check():
    events = with_event(chunk(), 5, data={"a": {1, 2}})
    assert fine(events, "v11.2") is False


def test_data_nested_past_pythons_recursion_limit_is_left_to_the_event_by_event_check():
    deep: object = 1
    for _ in range(5000):
        deep = [deep]
    events = with_event(chunk(), 5, data={"a": deep})
    assert fine(events, "v11.2") is False
    assert not one_by_one_passes(events)


def test_a_type_not_a_string_an_unknown_type_or_an_old_schema_version_is_checked_event_by_event():
    assert fine(with_event(chunk(), 2, type=7), "v11.2") is False
    assert fine(with_event(chunk(), 2, type="no_such_event"), "v11.2") is False
    fire = next(i for i, e in enumerate(SCRIPT[:40]) if e.type == "fire")
    current = engine.lookup("fire").version
    assert fine(with_event(chunk(), fire, schema_version=current), "v11.2") is True
    assert fine(with_event(chunk(), fire, schema_version=current - 1), "v11.2") is False


def test_data_nested_past_the_cap_is_refused_by_the_parser_when_the_chunk_check_passes_it():
    """What the chunk check does not count, the parser refuses: every event type of both rulesets
    nests no deeper than the cap, so deeper data is never parsed."""
    deep: object = "x"
    for _ in range(EVENT_DATA_MAX_DEPTH + 1):
        deep = {"a": deep}
    fire = next(e for e in SCRIPT if e.type == "fire")
    events = [NewEvent(type="fire", data={**fire.data, "target": deep}, key="deep")]
    assert not one_by_one_passes(events)  # the event's own check: too deep
    assert fine(events, "v11.2") is True
    with pytest.raises(engine.PayloadError):
        engine.parse_batch([("fire", events[0].data, None)])


@pytest.mark.parametrize("code", ["v11.2", "fow"])
def test_every_event_type_nests_no_deeper_than_the_data_cap(code):
    from battles.engine.events import _registry

    registry = _registry(code)
    depths = {name: schema.max_depth(entry.payload) for name, entry in registry.items()}
    assert depths and max(depths.values()) <= EVENT_DATA_MAX_DEPTH
    assert all(services._bounded_version(code, name) == registry[name].version for name in depths)


@dataclass(frozen=True)
class _Loop:
    next: _Loop | None = None


def test_max_depth_counts_objects_and_arrays_and_refuses_to_bound_a_class_that_refers_to_itself():
    assert schema.max_depth(int) == 0 and schema.max_depth(str | None) == 0
    assert schema.max_depth(list[int]) == 1
    assert schema.max_depth(dict[str, list[int]]) == 2
    assert schema.max_depth(Leaf) == 1
    assert schema.max_depth(Shapes) == 4  # {grid: [[{n}]]} and {groups: {x: [{n}]}}
    assert schema.max_depth(list[Shapes]) == 5
    assert schema.max_depth(_Loop) == math.inf
    assert schema.max_depth(tuple[int, int]) == math.inf  # an annotation the parser does not know


def test_a_type_nesting_deeper_than_the_cap_is_not_depth_bounded(monkeypatch):
    monkeypatch.setattr(services, "_BOUNDED", {})
    monkeypatch.setattr(services, "max_depth", lambda payload: EVENT_DATA_MAX_DEPTH + 1)
    assert services._bounded_version("v11.2", "fire") is None
    assert fine(chunk(), "v11.2") is False
    monkeypatch.setattr(services, "max_depth", lambda payload: EVENT_DATA_MAX_DEPTH)
    monkeypatch.setattr(services, "_BOUNDED", {})
    assert services._bounded_version("v11.2", "fire") == engine.lookup("fire").version


# --- the rows' own text vouching for a chunk parsed as sent (``services._rows_vouch``, sixth pass) ------
def rows_text(events, ruleset="v11.2"):
    parsed = engine.parse_batch([(e.type, e.data, e.schema_version) for e in events], ruleset=ruleset)
    return services._rows_json(parsed, [e.key for e in events])


def input_bytes(data) -> int:
    return len(services._COMPACT.encode(data).encode())


def test_a_clean_chunk_parsed_as_sent_is_vouched_for_and_passes_event_by_event():
    events = chunk()
    assert services._rows_vouch(rows_text(events)) and one_by_one_passes(events) and fine(events, "v11.2")


@pytest.mark.parametrize("bad", ["\x00", "\ud800", "\\u0000"])
@pytest.mark.parametrize("where", ["data value", "mapping key", "event key"])
def test_bad_text_parsed_as_sent_is_never_vouched_for(bad, where):
    """A NUL, a lone surrogate (or the harmless text ``\\u0000``) in any string the payload keeps."""
    events = chunk()
    shot = next(i for i, e in enumerate(events) if e.type == "fire")
    postures = next(i for i, e in enumerate(events) if e.type == "postures_declared" and e.data["units"])
    if where == "data value":
        events = with_event(events, shot, data={**events[shot].data, "shooter": f"a{bad}b"})
    elif where == "mapping key":
        units = dict(events[postures].data["units"])
        units[f"u{bad}"] = units.pop(next(iter(units)))
        events = with_event(events, postures, data={**events[postures].data, "units": units})
    else:
        events = with_event(events, shot, key=f"k{bad}")
    assert services._rows_vouch(rows_text(events)) is False
    assert one_by_one_passes(events) is (bad == "\\u0000")


@pytest.mark.parametrize("code", ["v11.2", "fow"])
def test_a_chunk_that_parses_as_sent_has_no_die_to_roll_and_one_that_asks_for_a_roll_does_not_parse(code):
    """Why the vouch need not look for dice: a die the service must roll has no value, which the parser
    requires of every die; whatever parses as sent is what the dice fillers leave as it is."""
    script = SCRIPT if code == "v11.2" else _fow_script()
    asked = 0
    for e in script:
        engine.parse_batch([(e.type, e.data, e.version)], ruleset=code)
        assert engine.fill_rolls(e.type, e.data, lambda sides: 1, ruleset=code) == e.data, e.type
        asking = copy.deepcopy(e.data)
        die = _first_die(asking)
        if die is None:
            continue
        die["source"] = "rolled"
        del die["value"]  # a die asking the service to roll it, nothing else changed
        with pytest.raises(engine.PayloadError) as refused:
            engine.parse_batch([(e.type, asking, e.version)], ruleset=code)
        assert refused.value.field.endswith(".value"), refused.value.field
        rolled = engine.fill_rolls(e.type, asking, lambda sides: 1, ruleset=code)
        engine.parse_batch([(e.type, rolled, e.version)], ruleset=code)  # once rolled, it parses
        asked += 1
    assert asked > 0


def _first_die(value):
    """The first die (an object with a ``source`` and a ``value``) in ``value``, or None."""
    if isinstance(value, dict):
        if "source" in value and "value" in value:
            return value
        value = list(value.values())
    if isinstance(value, list):
        for v in value:
            found = _first_die(v)
            if found is not None:
                return found
    return None


def test_rows_over_one_events_cap_in_bytes_are_never_vouched_for():
    within = '[["fire",{"shooter":"' + "ж" * (EVENT_DATA_MAX_BYTES // 2 - 40) + '"},1,"k"]]'
    assert services._rows_vouch(within)
    over = '[["fire",{"shooter":"' + "ж" * (EVENT_DATA_MAX_BYTES // 2) + '"},1,"k"]]'
    assert len(over) < EVENT_DATA_MAX_BYTES < len(over.encode()) and not services._rows_vouch(over)


@pytest.mark.parametrize("digits", [1, 2, 15, 16, 17, 18, 25, 100, 300])
def test_data_as_sent_is_never_longer_than_its_dump_when_the_rows_are_vouched_for(digits):
    """The size half of the vouch: an integer in a float field is the only value the dump writes
    shorter, and only from 17 digits on, where its float is written with ``e+``."""
    base = next(e for e in SCRIPT if e.type == "fire" and e.data["struck"])
    number = 10 ** (digits - 1) + 7
    data = {**base.data, "distance": number, "struck": [{**s, "distance": number} for s in base.data["struck"]]}
    events = [NewEvent(type=base.type, data=data, key="k")]
    text = rows_text(events)
    assert services._rows_vouch(text) is (digits < 17)
    if digits < 17:
        assert input_bytes(data) <= input_bytes(json.loads(text)[0][1])
    if digits >= 25:  # what the e+ guard is for: the number's own text shrinks in the dump
        assert len(str(number)) > len(services._COMPACT.encode(float(number)))


def test_every_synthetic_event_as_sent_is_no_longer_than_its_dump():
    for code, script in (("v11.2", SCRIPT), ("fow", _fow_script())):
        for e in script:
            entry, _payload, dumped = engine.parse_batch([(e.type, e.data, e.version)], ruleset=code)[0]
            assert input_bytes(e.data) <= input_bytes(dumped), (code, e.type)


def _fow_script():
    from battles.engine.fow.synthetic import synthetic_fow_battle

    return synthetic_fow_battle(300)


def test_ascii_rows_over_one_events_cap_are_never_vouched_for():
    within = '[["fire",{"shooter":"' + "x" * (EVENT_DATA_MAX_BYTES - 40) + '"},1,"k"]]'
    over = '[["fire",{"shooter":"' + "x" * EVENT_DATA_MAX_BYTES + '"},1,"k"]]'
    assert services._rows_vouch(within) and not services._rows_vouch(over)


def test_a_pipeline_command_falls_back_to_execute_where_psycopg_cannot_queue_one():
    class Plain:  # no _exec_command (another psycopg), or no pipeline open
        _pipeline = None

        def __init__(self):
            self.sent = []

        def execute(self, sql):
            self.sent.append(sql)

    raw = Plain()
    services._queue_command(raw, b"SET CONSTRAINTS ALL IMMEDIATE")
    assert raw.sent == ["SET CONSTRAINTS ALL IMMEDIATE"]


class _Key(str):
    pass


@pytest.mark.parametrize("key", ["k", "x" * 128, "", "x" * 129, 7, None, _Key("k"), "a\x00", "a\ud800", "ж" * 128])
def test_a_batch_is_vouched_for_whole_only_where_the_whole_batch_check_passes_its_keys(key):
    """``_batch_shape_fine`` may say yes only where ``_check_batch`` would not refuse the batch's keys
    (a str subclass it leaves to that check)."""
    events = chunk(SCRIPT[:20])
    events = with_event(events, 15, key=key)
    try:
        services._check_batch(events)
        whole = True
    except InvalidInput:
        whole = False
    shape = services._batch_shape_fine(events)
    assert not shape or whole
    assert shape is (whole and type(key) is not _Key)
    repeated = with_event(events, 3, key=events[15].key)
    assert services._batch_shape_fine(repeated) is (key is None and shape)

"""The append path parses each payload and dumps it to the form it is stored in
in one pass (``schema.parse_dataclass_dumped``, through ``parse_batch``). What it
gives must be what parsing and then ``state.dump`` give, on every event of both
rulesets' synthetic battles, and its dump must share no container with the
payload, which the engine keeps and changes after the rows are written."""
from __future__ import annotations

import copy
import json

import pytest

from battles import engine
from battles.engine import schema
from battles.engine.fow.synthetic import synthetic_fow_battle
from battles.engine.state import dump
from bench import synthetic

BATTLES = {"v11.2": lambda: synthetic.battle(1500), "fow": lambda: synthetic_fow_battle(1500)}


def _containers(value, out):
    if isinstance(value, (list, dict)):
        out.append(value)
        for v in value.values() if isinstance(value, dict) else value:
            _containers(v, out)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            _containers(getattr(value, name), out)
    return out


@pytest.mark.parametrize("ruleset", sorted(BATTLES))
def test_one_pass_gives_the_payload_and_its_dump_on_every_synthetic_event(ruleset):
    events = BATTLES[ruleset]()
    parsed = engine.parse_batch([(e.type, copy.deepcopy(e.data), e.version) for e in events], ruleset=ruleset)
    types = set()
    for e, (entry, payload, dumped) in zip(events, parsed, strict=True):
        alone = entry.parse(copy.deepcopy(e.data), e.version)
        assert payload == alone and repr(payload) == repr(alone), e.type
        assert json.dumps(dumped) == json.dumps(dump(alone)), e.type  # keys, order and values as stored
        ids = {id(c) for c in _containers(payload, [])}
        assert not any(id(c) in ids for c in _containers(dumped, [])), f"{e.type}: a container is shared"
        types.add(e.type)
    assert len(types) >= 8


def test_changing_the_payload_after_leaves_its_dump_as_it_was():
    from battles.engine.rules.fire import Fire  # a payload with nested lists and dataclasses

    data = next(e.data for e in synthetic.battle(400) if e.type == "fire" and e.data["struck"])
    payload, dumped = schema.parse_dataclass_dumped(Fire, copy.deepcopy(data))
    before = json.dumps(dumped)
    payload.struck.clear()
    payload.vehicles_struck.append("x")
    assert json.dumps(dumped) == before


def test_defaults_are_dumped_fresh_and_in_field_order():
    from battles.engine.rules.fire import Fire

    data = next(e.data for e in synthetic.battle(400) if e.type == "fire")
    data = {k: v for k, v in data.items() if k not in ("vehicles_struck", "ambush")}  # both have defaults
    one, two = (schema.parse_dataclass_dumped(Fire, copy.deepcopy(data))[1] for _ in range(2))
    assert list(one) == [f for f in Fire.__dataclass_fields__]
    assert one["vehicles_struck"] == [] and one["ambush"] is False
    assert one["vehicles_struck"] is not two["vehicles_struck"]


def test_a_refused_payload_names_the_same_field_as_the_walk():
    from battles.engine.errors import PayloadError
    from battles.engine.rules.fire import Fire

    data = next(e.data for e in synthetic.battle(400) if e.type == "fire" and e.data["struck"])
    bad = copy.deepcopy(data)
    bad["struck"][0]["fighter"] = 5
    with pytest.raises(PayloadError) as walk:
        schema.parse_dataclass(Fire, copy.deepcopy(bad))
    with pytest.raises(PayloadError) as one_pass:
        schema.parse_dataclass_dumped(Fire, copy.deepcopy(bad))
    assert one_pass.value.field == walk.value.field == "data.struck[0].fighter"


def test_a_mapping_is_dumped_with_its_keys_sorted_whatever_order_it_came_in():
    entry = engine.lookup("postures_declared")
    data = {"side": "defender", "units": {"dU2": "assault", "dU1": "dug_in", "a0": "recon"},
            "fighters": {"z": "assault", "b": "recon"}}
    payload, dumped = entry.parse_dumped(copy.deepcopy(data))
    assert list(dumped["units"]) == ["a0", "dU1", "dU2"] and list(dumped["fighters"]) == ["b", "z"]
    assert json.dumps(dumped) == json.dumps(dump(entry.parse(copy.deepcopy(data))))
    assert list(payload.units) == ["dU2", "dU1", "a0"]  # the payload keeps them as sent, as the walk does

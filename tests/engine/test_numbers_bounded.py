"""A number a payload cannot hold is refused where the payload is parsed (``battles.engine.schema``):
an integer beyond ``schema.MAX_INT`` (I-JSON's range, what every JSON reader keeps exactly) or a float
that is not finite (Python's JSON reads ``1e400`` as infinity) is a ``PayloadError`` naming the field,
in Russian and English, at any depth; the bound itself is accepted."""
from __future__ import annotations

from typing import Annotated

import pytest
from msgspec import Meta

from battles import engine
from battles.engine import PayloadError
from battles.engine.schema import MAX_INT, Payload, parse_payload

HUGE = 10**400  # "1e400" written as digits


class Leg(Payload):
    steps: int


class Walk(Payload):
    turn: int
    distance: Annotated[float, Meta(ge=0)] = 0.0
    share: Annotated[float, Meta(ge=0, le=1)] = 0.0  # its own limits bound it: msgspec alone refuses
    note: int | None = None
    legs: list[Leg] = []
    marks: dict[str, int] = {}


@pytest.mark.parametrize(("data", "where"), [
    ({"turn": HUGE}, "data.turn"), ({"turn": -HUGE}, "data.turn"), ({"turn": MAX_INT + 1}, "data.turn"),
    ({"turn": 1, "note": HUGE}, "data.note"),
    ({"turn": 1, "legs": [{"steps": 1}, {"steps": HUGE}]}, "data.legs[1].steps"),
    ({"turn": 1, "marks": {"a": 1, "b": -HUGE}}, "data.marks.b"),
    ({"turn": 1, "distance": HUGE}, "data.distance"), ({"turn": 1, "distance": float("inf")}, "data.distance"),
    ({"turn": 1, "distance": float("nan")}, "data.distance"), ({"turn": 1, "share": float("inf")}, "data.share"),
], ids=["huge", "huge negative", "one past the bound", "optional", "in a list", "in a map", "float from an int",
        "infinity", "nan", "infinity where both limits are declared"])
def test_a_number_beyond_what_a_payload_holds_is_refused_naming_the_field(data, where):
    with pytest.raises(PayloadError) as refused:
        parse_payload(Walk, data)
    assert refused.value.field == where
    assert refused.value.message_ru.startswith(f"{where}: ") and refused.value.message_en.startswith(f"{where}: ")
    assert str(HUGE) not in refused.value.message_en, "the refusal does not echo 400 digits"


def test_the_bound_itself_is_a_number_a_payload_holds():
    assert parse_payload(Walk, {"turn": MAX_INT, "marks": {"a": -MAX_INT}}).turn == MAX_INT


@pytest.mark.parametrize("value", [HUGE, -HUGE, float("inf")], ids=["huge", "huge negative", "infinity"])
def test_every_append_path_refuses_it_with_the_events_index(value):
    batch = [("battle_started", {"attacker": "a", "defender": "b"}, None),
             ("turn_ended", {"side": "defender", "turn": value}, None)]
    with pytest.raises(PayloadError) as refused:
        engine.parse_batch(batch)
    assert refused.value.field == "events[1].data.turn"
    with pytest.raises(PayloadError) as decided:
        engine.decide(engine.new_state(), batch, first_seq=1)
    assert decided.value.field == "events[1].data.turn"

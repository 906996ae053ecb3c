"""``config.inputs.find_bad`` names the first problem in any JSON value (a NUL or
lone surrogate in a string or key, a float that is not finite, nesting past the
cap) and finds none where there is none: checked against a plain recursive
reading of the same rules, on random values."""
from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from config import inputs

_TEXT = st.text(alphabet=st.sampled_from(["a", "я", " ", "\x00", "\ud800", "\udfff", "\U0001f3b2"]), max_size=4)
_NUMBER = st.one_of(st.integers(), st.floats(allow_nan=True, allow_infinity=True))
_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), _NUMBER, _TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_TEXT, inner, max_size=4)),
    max_leaves=25,
)


def _problems(value: Any, depth: int, max_depth: int, numbers: bool) -> bool:
    """Whether ``value`` holds anything ``find_bad`` must report (the reference)."""
    if isinstance(value, str):
        return inputs.bad_text(value)
    if isinstance(value, float):
        return numbers and not math.isfinite(value)
    if isinstance(value, (dict, list)):
        if depth >= max_depth:
            return True
        keys = [k for k in value if isinstance(k, str)] if isinstance(value, dict) else []
        items = value.values() if isinstance(value, dict) else value
        return any(inputs.bad_text(k) for k in keys) or any(
            _problems(v, depth + 1, max_depth, numbers) for v in items)
    return False


@settings(max_examples=400, deadline=None)
@given(value=_VALUES, max_depth=st.integers(1, 4), numbers=st.booleans())
def test_find_bad_reports_a_problem_exactly_when_there_is_one(value, max_depth, numbers):
    found = inputs.find_bad(value, "body", max_depth=max_depth, numbers=numbers)
    assert (found is not None) == _problems(value, 0, max_depth, numbers)


@settings(max_examples=200, deadline=None)
@given(value=_VALUES)
def test_the_problem_it_names_is_at_its_path(value):
    found = inputs.find_bad({"events": [value]}, max_depth=64, numbers=True)
    if found is not None:
        path, kind = found
        assert path.startswith("events[0]") and kind in {"text", "number"}


def test_a_clean_body_is_clean_and_each_kind_is_named():
    body = {"expected_seq": None, "events": [{"type": "shot", "data": {"unit": "Взвод 1", "dice": [3, 5]}}]}
    assert inputs.find_bad(body, max_depth=8, numbers=True) is None
    assert inputs.find_bad({"a": ["ok", "x\x00"]}) == ("a[1]", "text")
    assert inputs.find_bad({"a": {"b\ud800": 1}}) == ("a.b\ufffd", "text")
    assert inputs.find_bad({"a": [1.5, math.inf]}, numbers=True) == ("a[1]", "number")
    assert inputs.find_bad({"a": [1.5, math.inf]}) is None
    assert inputs.find_bad({"a": {"b": [1]}}, max_depth=2) == ("a.b", "depth")
    assert inputs.find_bad({"a": {"b": 1}}, max_depth=2) is None
    assert inputs.find_bad({1: "x\x00"}) == ("[1]", "text")  # a key that is not text (not from JSON)

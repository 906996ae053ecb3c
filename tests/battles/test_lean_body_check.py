"""The lean append's body check (``inputs.json_surely_fine``): a search of the body's bytes may spare
the walk of every value (``inputs.find_bad``) only where the walk would find nothing: no NUL, no lone
surrogate (escaped, or as the UTF-8 bytes ``json.loads`` lets through with "surrogatepass"), no
container past the depth cap. Whatever it cannot vouch for is walked, and answered as before."""
from __future__ import annotations

import json

import pytest

from battles.engine.synthetic import synthetic_battle
from battles.models import BattleEvent
from config import inputs
from tests.battles.test_append_api import START, url
from tests.battles.test_append_lean import defender_client, lean_calls  # noqa: F401 - fixtures

DEPTH = inputs.MAX_BODY_DEPTH


def nested(levels: int) -> bytes:
    return (b"[" * levels) + b"1" + (b"]" * levels)


def bodies() -> list[bytes]:
    """Requests as clients send them, and every way to hide a bad string or a deep container in one."""
    out = []
    for e in synthetic_battle(300, seed=2):
        body = {"expected_seq": None, "events": [{"type": e.type, "data": e.data, "key": f"k{e.seq}"}]}
        out.append(json.dumps(body).encode())  # ensure_ascii: non-ASCII as \\u escapes
        out.append(json.dumps(body, ensure_ascii=False).encode())
    start = b'{"events": [{"type": "battle_started", "data": {"attacker": "'
    end = b'", "defender": "x"}}]}'
    for inside in [b"\\u0000", b"a\\u0000b", b"\\ud800", b"\\uD800", b"\\udfff", b"\\uDBFF\\uDC00", b"\xed\xa0\x80",
                   b"\xed\xbf\xbf", b"\\\\u0000", b"\\u00e9", "Вермахт".encode(), b"\\u0416", b"\\ue000", b"[[{",
                   "😀".encode(), b"\\ud83d\\ude00"]:
        out.append(start + inside + end)
    for levels in (DEPTH - 2, DEPTH - 1, DEPTH, DEPTH + 1, DEPTH + 5):
        out.append(b'{"events": ' + nested(levels) + b"}")
    return out


@pytest.mark.parametrize("raw", bodies(), ids=lambda b: b[:40].decode("utf-8", "replace"))
def test_a_body_the_search_vouches_for_is_one_the_walk_finds_nothing_in(raw):
    value = json.loads(raw)
    if inputs.json_surely_fine(raw, DEPTH):
        assert inputs.find_bad(value, max_depth=DEPTH) is None


def test_the_search_vouches_for_what_clients_send_and_not_for_what_hides_a_bad_string():
    log = synthetic_battle(2000, seed=4)
    walked = {e.type for e in log
              if not inputs.json_surely_fine(json.dumps({"events": [{"type": e.type, "data": e.data}]}).encode(), DEPTH)}
    assert walked == {"force_mustered"}  # a whole force holds more containers than the cap: walked, as before
    assert inputs.json_surely_fine('{"a": "Вермахт \\u0416 \\ue000"}'.encode(), DEPTH)
    for bad in [b'{"a": "\\u0000"}', b'{"a": "\\uD83D"}', b'{"a": "\\udc00"}', b'{"a": "\xed\xa0\x80"}',
                b'{"a": "\x00"}', "{}".encode("utf-16")]:
        assert not inputs.json_surely_fine(bad, DEPTH), bad
    assert inputs.json_surely_fine(nested(DEPTH), DEPTH) and not inputs.json_surely_fine(nested(DEPTH + 1), DEPTH)


@pytest.mark.django_db
@pytest.mark.parametrize(("inside", "field"), [
    (b"\xed\xa0\x80", "body"),  # not UTF-8 to DRF's parser, which answers it
    (b"\\ud800", "events[0].data.attacker"), (b"\\u0000", "events[0].data.attacker")],
    ids=["raw bytes", "escape", "nul"])
def test_a_lone_surrogate_or_nul_in_a_lean_append_is_400_naming_the_field(defender_client, battle, lean_calls,  # noqa: F811
                                                                         inside, field):
    body = b'{"expected_seq": 0, "events": [{"type": "battle_started", "data": {"attacker": "a' + inside + \
        b'", "defender": "x"}}]}'
    r = defender_client.generic("POST", url(battle), body, content_type="application/json")
    assert r.status_code == 400, r.content
    assert r.json()["error"]["field"] == field
    assert not BattleEvent.objects.filter(battle=battle).exists()
    ok = defender_client.generic("POST", url(battle), json.dumps({"expected_seq": 0, "events": [START]}).encode(),
                                 content_type="application/json")
    assert ok.status_code == 201 and lean_calls[-1] == 201  # a clean body: the lean path answers it

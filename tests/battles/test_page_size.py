"""A long battle's page stays small (issue 10): an anonymous request for a
20,000-event battle once returned 6.9 MB; the page now sends the latest log
entries and links to older ones, so its size does not grow with the log."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.test import Client

from battles.models import BattleEvent

from .test_battle_page import standard, store, table  # noqa: F401 - the fixture

LIMIT = 200_000  # bytes: the whole page of a battle in play, state and 50 log entries


def _size(battle, who, path="") -> int:
    c = Client()
    if who:
        c.force_login(battle.people[who])
    r = c.get(f"/battles/{battle.id}/{path}")
    assert r.status_code == 200
    return len(r.content)


@pytest.mark.django_db
def test_a_battle_of_thousands_of_events_sends_a_page_as_small_as_a_short_battles(table):  # noqa: F811
    t = standard()
    start = len(t.events)
    for _ in range(4):  # two turns of each side, through the rules engine
        t.postures()
        t.end_turn()
    store(table, t.events)
    readers = ("master", "defender_p", None)
    short = {who: _size(table, who) for who in readers}
    pattern = t.events[start + 4:]  # turn 2 of each side, repeated for turns 3…752
    more = [SimpleNamespace(type=e.type, data={**e.data, "turn": turn} if e.type == "turn_ended" else e.data)
            for turn in range(3, 753) for e in pattern]
    store(table, more, chunk=500)
    assert BattleEvent.objects.filter(battle=table).count() >= 3000
    for who in readers:
        size = _size(table, who)
        assert size < LIMIT, f"{who or 'anonymous'}: {size} bytes for a long battle's page"
        assert size < short[who] + 20_000, f"{who or 'anonymous'}: the page grows with the log"
        live = _size(table, who, "live/?since=0&state=0")  # a poller from the start gets the same regions
        assert live < LIMIT, f"{who or 'anonymous'}: {live} bytes of live fragments"

"""The log's tail kept by a process (``battles.log.tail``): what the battle page
reads of the log, the same as a fresh read at every head, for fewer queries."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from battles import selectors
from battles.log import tail
from battles.models import Battle, BattleEvent
from bench import synthetic
from tests.battles.test_battle_page import store, table  # noqa: F401  (the fixture)


def _rows(events):
    return [(e.seq, e.type, e.data, e.recorded_by_id) for e in events]


@pytest.fixture
def played(table):  # noqa: F811
    store(table, synthetic.battle(120, seed=7))
    return table


def _head(battle):
    return Battle.objects.get(pk=battle.pk).head_seq


@pytest.mark.django_db
class TestLogTail:
    def test_at_every_head_the_same_rows_and_names_as_a_fresh_read(self, table):  # noqa: F811
        events = synthetic.battle(150, seed=3)
        for i in range(0, len(events), 37):
            store(table, events[i:i + 37])
            head = _head(table)
            for limit in (1, 50):
                assert _rows(tail.page(battle_id=table.id, head=head, limit=limit)) == _rows(
                    selectors.battle_log_page(battle_id=table.id, limit=limit))
            assert tail.names(battle_id=table.id, head=head) == selectors.battle_names(battle_id=table.id)
        assert len(tail.names(battle_id=table.id, head=_head(table))) > 10  # the musters' names are there

    def test_a_head_it_holds_costs_no_query_and_a_later_one_one(self, played):
        head = _head(played)
        tail.page(battle_id=played.id, head=head, limit=50)
        with CaptureQueriesContext(connection) as held:
            tail.page(battle_id=played.id, head=head, limit=50)
        assert len(held.captured_queries) == 0
        store(played, synthetic.battle(130, seed=7)[120:])
        head = _head(played)
        with CaptureQueriesContext(connection) as later:
            rows = tail.page(battle_id=played.id, head=head, limit=50)
        assert len(later.captured_queries) == 1 and rows[-1].seq == head
        assert "seq\" > " in later.captured_queries[0]["sql"].replace("`", "\"")  # only the new rows were read

    def test_a_jump_past_what_it_keeps_reads_afresh_and_keeps_the_musters(self, played):
        tail.page(battle_id=played.id, head=5, limit=50)
        more = synthetic.battle(120 + tail.KEEP + 40, seed=7)[120:]
        store(played, more)
        head = _head(played)
        assert head - 5 > tail.KEEP
        kept = tail.tail(battle_id=played.id, head=head)
        assert [e.seq for e in kept.rows] == list(range(head - tail.KEEP + 1, head + 1))
        assert tail.names(battle_id=played.id, head=head) == selectors.battle_names(battle_id=played.id)

    def test_an_earlier_head_never_replaces_a_later_one(self, played):
        head = _head(played)
        tail.tail(battle_id=played.id, head=head)
        early = tail.tail(battle_id=played.id, head=head - 10)
        assert early.rows[-1].seq == head - 10  # the reader at the earlier head gets the earlier log
        with CaptureQueriesContext(connection) as again:
            assert tail.tail(battle_id=played.id, head=head).rows[-1].seq == head
        assert len(again.captured_queries) == 0  # the later tail was kept

    def test_a_new_muster_names_its_pieces(self, table):  # noqa: F811
        from battles.services import NewEvent, battle_event_append

        events = synthetic.battle(20, seed=5)
        store(table, events)
        tail.names(battle_id=table.id, head=_head(table))
        muster = next(e for e in events if e.type == "force_mustered")
        data = {**muster.data, "side": muster.data["side"],
                "fighters": [{**f, "id": f"{f['id']}-x", "name": f"Новый {i}"}
                             for i, f in enumerate(muster.data.get("fighters") or [])][:2],
                "units": [], "vehicles": []}
        battle_event_append(battle_id=table.id, events=[NewEvent("force_mustered", data)], expected_seq=None,
                            as_game_master=True)
        names = tail.names(battle_id=table.id, head=_head(table))
        assert names == selectors.battle_names(battle_id=table.id)
        assert {n for n in names.values() if n.startswith("Новый")} == {"Новый 0", "Новый 1"}
        assert BattleEvent.objects.filter(battle=table, type="force_mustered").count() >= 2

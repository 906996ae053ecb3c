"""A battle page's live request waits at the server until its battle moves
(issue 25 §4, ``battles.log.moves``): the opponent's entry reaches an open page
as soon as the worker has told its outcome, and an idle page costs nothing.

On PostgreSQL (CI) the waiting itself: the request is held while nothing
moves, answered with the entry and its outcome in one answer when its battle
moves, and not by another battle's move. Everywhere: where the server does not
wait (the setting at 0, or SQLite) the answer comes at once and the page is
told to ask every second (no ``data-wait``)."""
from __future__ import annotations

import json
import threading

import pytest
from django.db import connection, connections

from battles.log import moves
from battles.models import Battle, BattleProjection
from battles.services import battle_create
from tests.battles import test_recording
from tests.battles.test_recording import _replayed, client_for, declare, last

table_battle = test_recording.table_battle  # a mustered battle, the defender to move, a player on each side

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def waits(settings):
    """The server lets a live request wait (as ``config.serve`` does); PostgreSQL only."""
    if connection.vendor != "postgresql":
        pytest.skip("a live request waits on PostgreSQL's NOTIFY (battles.log.moves)")
    settings.LIVE_WAIT_SECONDS = 15
    yield
    moves.stop()  # (its connection would keep the test database from being dropped)


class Waiting:
    """One live request sent in a thread of its own, as an open page sends it."""

    def __init__(self, client, battle, *, wait: int = 15) -> None:
        head = last(battle).seq
        self.url = f"/battles/{battle.id}/live/?since={head}&state={head}&wait={wait}"
        self.client, self.answer = client, None
        self.thread = threading.Thread(target=self._send)
        self.thread.start()

    def _send(self) -> None:
        try:
            self.answer = json.loads(self.client.get(self.url, **JSON).content)
        finally:
            connections.close_all()

    def answered(self, within: float) -> bool:
        self.thread.join(within)
        return not self.thread.is_alive()


@pytest.mark.django_db(transaction=True)
class TestWaitingLiveRequest:
    def test_it_is_held_while_nothing_moves_and_answered_with_the_entry_and_its_outcome(self, table_battle, waits):
        battle, users = table_battle
        _replayed(battle)
        onlooker = Waiting(client_for(users["attacker"]), battle)
        assert not onlooker.answered(within=1.0)  # nothing moved: held, no answer to render
        declare(client_for(users["defender"]), battle)  # the other player's entry
        _replayed(battle)
        assert onlooker.answered(within=10.0)
        entry = last(battle).seq
        assert onlooker.answer["changed"] and onlooker.answer["head_seq"] == onlooker.answer["state_seq"] == entry
        assert f'id="seq{entry}"' in onlooker.answer["log_tail"]  # the new line, with its outcome told

    def test_another_battles_move_leaves_it_waiting(self, table_battle, waits):
        battle, users = table_battle
        _replayed(battle)
        other = battle_create(campaign=battle.campaign, name="Соседний стол")
        page = Waiting(client_for(users["attacker"]), battle)
        assert not page.answered(within=0.5)
        BattleProjection.objects.filter(battle_id=other.id).update(seq=0)  # the other battle's projection moves
        assert not page.answered(within=1.5)
        declare(client_for(users["defender"]), battle)
        _replayed(battle)
        assert page.answered(within=10.0) and page.answer["changed"]

    def test_the_page_says_how_long_its_requests_may_wait(self, table_battle, waits):
        battle, users = table_battle
        page = client_for(users["attacker"]).get(f"/battles/{battle.id}/").content.decode()
        assert 'data-wait="15"' in page


@pytest.mark.django_db(transaction=True)
def test_where_the_server_does_not_wait_the_answer_comes_at_once_and_the_page_asks_every_second(
        table_battle, settings):
    battle, users = table_battle
    _replayed(battle)
    settings.LIVE_WAIT_SECONDS = 0
    c = client_for(users["attacker"])
    assert "data-wait=" not in c.get(f"/battles/{battle.id}/").content.decode()
    page = Waiting(c, battle, wait=15)
    assert page.answered(within=5.0)  # not held for the 15 s it asked
    head = Battle.objects.get(pk=battle.pk).head_seq
    assert page.answer == {"head_seq": head, "state_seq": head, "changed": False}


@pytest.mark.django_db(transaction=True)
class TestTheBattleMoved:
    """The database tells (migration 0015's triggers): a head or a projection that moves wakes the
    waiters of its battle, and of no other."""

    def test_an_entry_and_an_outcome_wake_their_battles_waiters_and_no_other(self, table_battle, waits):
        from django.db.models import F

        battle, _ = table_battle
        other = battle_create(campaign=battle.campaign, name="Соседний стол")
        with moves.watching(battle.id) as moved, moves.watching(other.id) as elsewhere:
            assert moves.listening(timeout=10)
            moved.clear()
            elsewhere.clear()
            Battle.objects.filter(pk=battle.pk).update(head_seq=F("head_seq") + 1)  # an entry stored
            assert moved.wait(5) and not elsewhere.wait(1)
            moved.clear()
            BattleProjection.objects.filter(battle_id=battle.id).update(seq=F("seq") + 1)  # its outcome told
            assert moved.wait(5) and not elsewhere.is_set()
            moved.clear()
            Battle.objects.filter(pk=battle.pk).update(name="Бой у моста (переименован)")  # not a move
            assert not moved.wait(1)

    def test_a_move_tells_its_waiters_where_the_battle_moved_to(self, table_battle, waits):
        from django.db.models import F

        battle, _ = table_battle
        _replayed(battle)
        head = Battle.objects.get(pk=battle.pk).head_seq
        with moves.watching(battle.id):  # (the listener starts, waking its waiters told nothing: read again)
            assert moves.listening(timeout=10)
        with moves.watching(battle.id) as moved:
            Battle.objects.filter(pk=battle.pk).update(head_seq=F("head_seq") + 2)  # two entries stored
            assert moved.wait(5)
            assert (moved.head, moved.state, moved.lost) == (head + 2, None, False)
            assert moved.told((head, head)) == (head + 2, head)  # the entry told; its outcome not yet
            moved.clear()
            BattleProjection.objects.filter(battle_id=battle.id).update(seq=head + 1)  # the first one's outcome
            assert moved.wait(5)
            assert moved.told((head, head)) == (head + 2, head + 1)
            assert moved.told((head + 3, head + 3)) == (head + 3, head + 3)  # never back from what was read

    def test_a_waiting_request_reads_the_battle_once_and_is_told_the_rest(self, table_battle, waits):
        from unittest import mock

        from battles import selectors
        from battles.table.views import battle_live_wait

        battle, users = table_battle
        _replayed(battle)
        head = Battle.objects.get(pk=battle.pk).head_seq
        got = {}

        def wait() -> None:
            try:
                got["head"] = battle_live_wait(battle_id=battle.id, since=str(head), state=str(head), wait=15)
            finally:
                connections.close_all()

        with moves.watching(battle.id):  # (the listener up first: its start wakes every waiter to read again)
            assert moves.listening(timeout=10)
        with mock.patch.object(selectors, "battle_head", wraps=selectors.battle_head) as reads:
            waiter = threading.Thread(target=wait)
            waiter.start()
            waiter.join(1.0)
            assert waiter.is_alive()  # held: nothing moved
            declare(client_for(users["defender"]), battle)  # the entry: the head moves, then its outcome
            _replayed(battle)
            waiter.join(10.0)
            assert not waiter.is_alive()
        entry = last(battle).seq
        assert got["head"] == (entry, entry)
        assert reads.call_count == 1  # woken twice (the entry, its outcome), read once

"""The battle's state as every page reads it (``selectors.battle_state_get``):
the process keeps the projection's text under its seq and update time, so a
read whose seq has not moved is not sent the state again; a new seq, or the
same seq written again (a rebuild), is read anew, and no two readers share a
dict."""
import pytest
from django.db.models import JSONField, TextField, Value
from django.db.models.functions import Cast

from battles import selectors
from battles.models import BattleProjection
from battles.services import battle_replay

pytestmark = pytest.mark.django_db


def _write_state(battle_id, text, **also):
    """The projection row's state replaced in place, as the database holds it (no store, no signal)."""
    BattleProjection.objects.filter(battle_id=battle_id).update(
        state=Cast(Value(text, output_field=TextField()), JSONField()), **also)


def test_a_read_at_the_same_seq_is_not_sent_the_state_again(started):
    battle_replay(battle_id=started.id)
    first = selectors.battle_state_get(battle_id=started.id)
    assert first.seq == 1 and first.state["status"] == "running"
    # The row's text changed behind the process's back, its seq and update time kept: the process's copy is
    # what a read then shows, which it could not if the query had sent the state.
    _write_state(started.id, '{"status": "elsewhere"}')
    assert selectors.battle_state_get(battle_id=started.id).state == first.state


def test_the_same_seq_written_again_is_read_anew(started):
    battle_replay(battle_id=started.id)
    before = selectors.battle_state_get(battle_id=started.id)
    _write_state(started.id, '{"status": "rebuilt", "last_seq": 1}', updated_at=before.updated_at.replace(year=2030))
    again = selectors.battle_state_get(battle_id=started.id)
    assert again.seq == before.seq and again.state == {"status": "rebuilt", "last_seq": 1}


def test_a_new_seq_is_read_anew(started):
    before = selectors.battle_state_get(battle_id=started.id)
    assert before.seq == 0 and before.head_seq == 1
    battle_replay(battle_id=started.id)
    after = selectors.battle_state_get(battle_id=started.id)
    assert after.seq == 1 and after.state["status"] == "running" and after.state != before.state


def test_each_reader_gets_a_dict_of_its_own(started):
    battle_replay(battle_id=started.id)
    one = selectors.battle_state_get(battle_id=started.id)
    one.state["status"] = "spoilt by a careless caller"
    assert selectors.battle_state_get(battle_id=started.id).state["status"] == "running"


def test_the_store_starts_over_past_its_limit(started, monkeypatch):
    monkeypatch.setattr(selectors, "STATE_TEXTS", {-1: (0, None, "{}"), -2: (0, None, "{}")})
    monkeypatch.setattr(selectors, "STATE_TEXTS_LIMIT", 2)
    battle_replay(battle_id=started.id)
    assert selectors.battle_state_get(battle_id=started.id).seq == 1
    assert list(selectors.STATE_TEXTS) == [started.id]

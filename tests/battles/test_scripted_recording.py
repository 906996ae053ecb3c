"""The page stays where you play (issue 25 §4): the battle page's script sends
the recording forms itself (``X-Requested-With: fetch``). A stored entry
answers its seq and nothing else (the regions come with the next live answer,
once the worker has told the entry's outcome: one render, not a page and a
render); a refused one answers the regions with the form, what was typed and
the reason. A plain form (no script) still gets the 303 and the page."""
from __future__ import annotations

import json
import re

import pytest

from battles.models import BattleEvent
from tests.battles import test_recording
from tests.battles.test_recording import _replayed, client_for, declare, hidden, last

table_battle = test_recording.table_battle  # a mustered battle, the defender to move, a player on each side

SCRIPT = {"HTTP_X_REQUESTED_WITH": "fetch", "HTTP_ACCEPT": "application/json", "HTTP_ACCEPT_LANGUAGE": "ru"}


def _send(client, battle, form, data, *, scripted=True, page=None):
    page = page or client.get(f"/battles/{battle.id}/").content.decode()
    body = {"form": form, "expected_seq": hidden(page, "expected_seq"), "token": hidden(page, "token"), **data}
    return client.post(f"/battles/{battle.id}/record/", body, **(SCRIPT if scripted else {}))


MOVE = {"quick_move-who": "f:d-r1", "quick_move-distance": "2"}


@pytest.mark.django_db(transaction=True)
class TestScriptedRecording:
    def test_a_stored_entry_answers_its_seq_and_no_page(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        r = _send(c, battle, "quick_move", MOVE)
        stored = last(battle)
        assert r.status_code == 200 and r["Content-Type"].startswith("application/json")
        assert stored.type == "fighters_moved" and stored.recorded_by == users["defender"]
        assert json.loads(r.content) == {"recorded": stored.seq, "head_seq": stored.seq}

    def test_the_next_live_answer_brings_the_entry_with_its_outcome_on_the_players_card(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        before = last(battle).seq
        answer = json.loads(_send(c, battle, "quick_move", MOVE).content)
        _replayed(battle)
        live = json.loads(c.get(f"/battles/{battle.id}/live/?since={answer['head_seq']}&state={before}",
                                **SCRIPT).content)
        assert live["changed"] and live["head_seq"] == live["state_seq"] == answer["recorded"]
        card = live["record_html"].split('id="last-entry"', 1)[1]
        assert f"№{answer['recorded']}" in card and "передвинул" in card
        assert f'name="expected_seq" value="{answer["recorded"]}"' in live["record_html"]  # fresh forms
        assert f'id="seq{answer["recorded"]}"' in live["log_tail"]  # the lines the page lacks

    def test_a_refused_entry_answers_the_regions_with_the_reason_and_the_input_kept(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        count = BattleEvent.objects.count()
        r = _send(c, battle, "quick_move", {"quick_move-who": "f:d-r1", "quick_move-distance": "40"})
        assert r.status_code == 422 and BattleEvent.objects.count() == count
        d = json.loads(r.content)
        assert d["changed"] and {"state_html", "log_html", "record_html"} <= set(d)
        refusal = re.search(r'<p class="refusal" role="alert"><strong>([A-Z]-[A-Z]+-\d+)</strong>', d["record_html"])
        assert refusal and refusal.group(1) == "V-TURN-10"
        assert re.search(r'name="quick_move-distance"[^>]*value="40"', d["record_html"])  # what he typed, kept
        assert "Пройдено" in d["record_html"]  # Russian, as the reader asked (not \\u escapes)

    def test_a_refusal_brings_only_the_log_lines_the_page_lacks(self, table_battle):
        """The script says what its page shows (``shown_since``, ``shown_state``): a refusal's answer
        then carries the log's new lines (none here), not the whole log again."""
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        _replayed(battle)
        page = c.get(f"/battles/{battle.id}/").content.decode()
        head = int(hidden(page, "expected_seq"))
        bad = {"quick_move-who": "f:d-r1", "quick_move-distance": "40"}
        d = json.loads(_send(c, battle, "quick_move", {**bad, "shown_since": head, "shown_state": head},
                             page=page).content)
        assert "log_html" not in d and "<li" not in d["log_tail"] and "V-TURN-10" in d["record_html"]
        behind = json.loads(_send(c, battle, "quick_move", {**bad, "shown_since": head - 1, "shown_state": head - 1},
                                  page=page).content)
        assert f'id="seq{head}"' in behind["log_tail"] and f'id="seq{head - 1}"' not in behind["log_tail"]
        whole = json.loads(_send(c, battle, "quick_move", bad, page=page).content)  # (no seqs: the whole log)
        assert "log_tail" not in whole and f'id="seq{head - 1}"' in whole["log_html"]

    def test_a_stale_form_answers_the_fresh_regions_with_status_409(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        page = c.get(f"/battles/{battle.id}/").content.decode()
        body = {"form": "quick_move", "expected_seq": hidden(page, "expected_seq"), **MOVE}
        assert c.post(f"/battles/{battle.id}/record/", {**body, "token": "a"}, **SCRIPT).status_code == 200
        _replayed(battle)
        r = c.post(f"/battles/{battle.id}/record/", {**body, "token": "b", "quick_move-who": "f:d-r2"}, **SCRIPT)
        d = json.loads(r.content)
        assert r.status_code == 409 and d["head_seq"] == last(battle).seq
        assert f'name="expected_seq" value="{last(battle).seq}"' in d["record_html"]

    @pytest.mark.parametrize("who", ["anonymous", "attacker"])
    def test_authorization_comes_first_for_the_script_too(self, table_battle, who):
        battle, users = table_battle
        count = BattleEvent.objects.count()
        page = client_for(users["defender"]).get(f"/battles/{battle.id}/").content.decode()
        r = _send(client_for(users.get(who)), battle, "quick_turn",
                  {"quick_turn-side": "defender", "quick_turn-turn": "1"}, page=page)
        assert r.status_code == 403 and BattleEvent.objects.count() == count
        assert b"record_html" not in r.content and b"state_html" not in r.content

    def test_a_plain_form_still_lands_on_the_page(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        r = _send(c, battle, "quick_move", MOVE, scripted=False)
        assert r.status_code == 303 and r["Location"].endswith("#record")

    def test_v_turn_13_a_scripted_take_back_answers_the_correction_s_seq(self, table_battle):
        battle, users = table_battle
        c = client_for(users["defender"])
        declare(c, battle)
        _send(c, battle, "quick_move", MOVE)
        moved = last(battle)
        r = c.post(f"/battles/{battle.id}/take-back/", {"seq": str(moved.seq)}, **SCRIPT)
        fix = last(battle)
        assert fix.type == "correction" and fix.data["voids_seq"] == moved.seq
        assert r.status_code == 200 and json.loads(r.content) == {"recorded": fix.seq, "head_seq": fix.seq}
        # a double click: the same correction answered, not a second one
        again = c.post(f"/battles/{battle.id}/take-back/", {"seq": str(moved.seq)}, **SCRIPT)
        assert again.status_code == 200 and json.loads(again.content)["recorded"] == fix.seq
        assert BattleEvent.objects.filter(battle=battle, type="correction").count() == 1

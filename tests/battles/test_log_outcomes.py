"""Every shot and test in the log states its outcome (issue 25, «Every outcome in
words»): the die, the number it needed, hit or miss, and who was wounded,
killed or recovered; stored beside the projection by the replay and rebuilt
with it identically."""
from __future__ import annotations

import pytest

from battles.models import BattleEventOutcome
from battles.services import battle_replay, projections_rebuild
from tests.battles import test_battle_page as _battle_page
from tests.battles.test_battle_page import page, store, text_of
from tests.engine.table import D, at_turn

table = _battle_page.table  # the same fixture: a battle with a player on each side and a bystander


def _shots():
    t = at_turn()
    t.end_turn()
    t.postures("defender")
    t.fire("d1", "rifle", struck=[{"fighter": "a1", "die": D(20)}])  # G-2: a hit, wounded
    t.fire("d2", "rifle", struck=[{"fighter": "a2", "die": D(3)}])  # a miss
    t.next_turn(A="recon")
    t.add("wound_test", fighter="a1", die=D(14))  # V-MED-3: recovers
    return t


def _outcomes(battle):
    return list(BattleEventOutcome.objects.filter(battle=battle).order_by("seq").values_list("seq", "effects"))


@pytest.mark.django_db
class TestOutcomesOnThePage:
    def test_g_2_each_shot_says_hit_or_miss_with_its_die_and_need_and_who_was_wounded(self, table, client):
        store(table, _shots().events)
        text = text_of(page(client, table, table.people["defender_p"]))
        assert "Итог: Иванов" not in text  # only the shots' own targets are named
        a1, a2 = "Боец A1 (стрелок), Штурмгруппа", "Боец A2 (стрелок), Штурмгруппа"  # with the unit (issue 25)
        assert f"Итог: {a1}: 20 — попадание, нужно ≥" in text
        assert f"{a1} — ранен" in text
        assert f"Итог: {a2}: 3 — промах, нужно ≥" in text
        assert f"тест на ранение, {a1}: 14 — пройден, нужно ≥ 11; {a1} — поправился" in text

    @pytest.mark.parametrize(("reroll", "stays"), [(None, True), (3, True), (15, False)])
    def test_v_med_3_g_10_a_failed_wound_test_says_the_fighter_stays_wounded(self, table, client, reroll, stays):
        t = at_turn()
        t.end_turn()
        t.postures("defender")
        t.fire("d1", "rifle", struck=[{"fighter": "a1", "die": D(20)}])  # G-2: a1 wounded
        t.next_turn(A="recon")
        medic = {} if reroll is None else {"medic": "a_med", "medic_distance": 1, "reroll": D(reroll)}  # V-MED-4
        t.add("wound_test", fighter="a1", die=D(4), **medic)  # V-MED-3: 4 fails
        store(table, t.events)
        text = text_of(page(client, table, table.people["defender_p"]))
        a1 = "Боец A1 (стрелок), Штурмгруппа"
        assert f"тест на ранение, {a1}: 4 — не пройден, нужно ≥ 11" in text
        stayed = f"{a1} — остаётся раненым, тест снова в свой следующий ход (G-10)"
        assert (stayed in text) is stays  # only when the last die failed
        assert (f"{a1} — поправился" in text) is not stays
        if not stays:
            assert f"переброс медика, {a1}: 15 — пройден" in text
        en = text_of(page(client, table, table.people["attacker_p"], lang="en"))
        a1 = "Боец A1 (rifleman), Штурмгруппа"
        assert (f"{a1} — stays wounded and tests again on his next turn (G-10)" in en) is stays

    def test_v_turn_13_the_void_preview_tells_each_entry_with_its_outcome(self, table, client):
        t = _shots()
        store(table, t.events)
        shot = next(e.seq for e in t.events if e.type == "fire" and e.data["struck"][0]["fighter"] == "a1")
        client.force_login(table.people["master"])
        r = client.post(f"/battles/{table.id}/void/", {"seq": str(shot), "reason": "не тот"})
        text = text_of(r.content.decode())
        a1 = "Боец A1 (стрелок), Штурмгруппа"
        asked, later = text.split("Отменить запись №", 1)[1].split("С ней теряют силу", 1)
        assert asked.startswith(f"{shot}?") and f"Итог: {a1}: 20 — попадание" in asked and f"{a1} — ранен" in asked
        later = later.split("Запись останется", 1)[0]
        # the wound test loses its effect with the shot: listed with what it did
        assert f"тест на ранение, {a1}: 14 — пройден, нужно ≥ 11; {a1} — поправился" in later
        assert "3 — промах" not in later  # the other shot does not depend on it

    def test_the_battle_report_follows_the_state_in_every_live_answer(self, table, client):
        import re

        def wounded(html: str) -> dict[str, int]:  # each side's row: side, mustered, fit, wounded, ...
            return {side: int(w) for side, _m, _f, w in
                    re.findall(r"<tr><td>([^<]+)</td>\s*<td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>", html)}

        t = _shots()
        shot = next(i for i, e in enumerate(t.events) if e.type == "fire")
        store(table, t.events[:shot])
        client.force_login(table.people["defender_p"])
        assert 'id="report-region"' in page(client, table, table.people["defender_p"])
        before = client.get(f"/battles/{table.id}/live/?since=0&state=0").json()
        store(table, t.events[shot:shot + 1])  # G-2: a1 wounded
        after = client.get(f"/battles/{table.id}/live/?since={before['head_seq']}&state={before['state_seq']}").json()
        was, now = wounded(before["report_html"]), wounded(after["report_html"])
        assert len(was) == 2 and sum(was.values()) == 0
        assert sum(now.values()) == 1 and [now[s] - was[s] for s in was].count(1) == 1  # one side, one man

    def test_english_readers_get_the_same_outcome_in_english(self, table, client):
        store(table, _shots().events)
        text = text_of(page(client, table, table.people["attacker_p"], lang="en"))
        a1 = "Боец A1 (rifleman), Штурмгруппа"
        assert f"Result: {a1}: 20 — hit, needed ≥" in text
        assert f"{a1} — wounded" in text
        assert f"14 — passed, needed ≥ 11; {a1} — recovered" in text

    def test_v_turn_13_a_voided_shot_tells_no_outcome_and_the_rebuild_rewrites_the_rows(self, table, client):
        from battles.services import NewEvent, battle_event_append

        store(table, _shots().events)
        before = _outcomes(table)
        assert before  # the replay stored them
        shot = next(seq for seq, effects in before if {"kind": "wounded", "id": "a1"} in effects)
        battle_event_append(battle_id=table.id, events=[NewEvent("correction", {"voids_seq": shot, "reason": "не тот"})],
                            expected_seq=None, as_game_master=True)
        battle_replay(battle_id=table.id)
        after = dict(_outcomes(table))
        assert shot not in after  # voided: it did nothing
        wound_test = max(after)
        # a1 was never wounded now: the wound test had nothing to act on and tells nothing either
        assert not any(e.get("kind") == "recovered" for e in after.get(wound_test, []))
        text = text_of(page(client, table, table.people["master"]))
        assert "Боец A1 (стрелок), Штурмгруппа — ранен" not in text

    def test_replays_as_the_log_grows_keep_every_outcome_a_rebuild_gives(self, table):
        """The worker replays after each append: a replay adds the new events' outcomes and keeps
        those stored before it, the last one's included."""
        for e in _shots().events:
            store(table, [e])  # (one append, then its replay)
        grown = _outcomes(table)
        projections_rebuild(battle_id=table.id)
        assert grown == _outcomes(table)
        assert len([seq for seq, effects in grown if effects]) >= 3  # the two shots and the wound test

    def test_a_rebuild_gives_the_same_outcomes(self, table):
        store(table, _shots().events)
        before = _outcomes(table)
        projections_rebuild(battle_id=table.id)
        assert _outcomes(table) == before


@pytest.mark.django_db
class TestOutcomesInTheApi:
    def test_g_2_each_event_of_the_api_states_its_outcome_in_the_readers_language(self, table):
        from rest_framework.test import APIClient

        store(table, _shots().events)
        c = APIClient()
        c.force_authenticate(table.people["defender_p"])
        rows = c.get(f"/api/battles/{table.id}/events/?limit=1000", HTTP_ACCEPT_LANGUAGE="en").json()["results"]
        hit = next(r for r in rows if {"kind": "wounded", "id": "a1"} in r["effects"])
        assert "Result: " in hit["text"] and "20 — hit, needed ≥" in hit["text"] and "— wounded" in hit["text"]
        miss = next(r for r in rows if r["type"] == "fire" and r is not hit)
        assert [e["passed"] for e in miss["effects"] if e["kind"] == "roll"] == [False] and "miss" in miss["text"]
        assert all(r["effects"] == [] for r in rows if r["type"] in ("force_mustered", "turn_ended"))

    def test_v_mine_14_a_hidden_mines_effects_reach_no_enemy_through_the_api(self, table):
        from rest_framework.test import APIClient

        from tests.battles.test_battle_page import defender_mine

        store(table, defender_mine().events)
        c = APIClient()
        c.force_authenticate(table.people["attacker_p"])
        rows = c.get(f"/api/battles/{table.id}/events/?limit=1000").json()["results"]
        assert not any("m1" in r["text"] or any("mine" in e["kind"] for e in r["effects"]) for r in rows)

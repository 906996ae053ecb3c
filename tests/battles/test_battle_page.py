"""The battle page and the API's reads for each reader: the state and the log
as sentences, hidden mines shown only to the side that may know of them
(V-MINE-1, V-MINE-14), the log paged at a constant number of queries, live
fragments, and the game master's panel (corrections, V-TURN-13; the end)."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from battles.models import Battle, BattleEvent, BattleParticipant
from battles.services import NewEvent, battle_create, battle_event_append, battle_replay
from campaign import services as campaign_services
from campaign.models import Campaign, Nationality
from tests.engine.table import Table, standard
from tests.engine.test_visibility import defender_lays_mine

NAMES = {"d_sap": "Кузнецов", "a_sap": "Вебер", "d_sgt": "Сержант Орлов", "a_sgt": "Шульц", "D": "1-е отделение",
         "A": "Штурмгруппа", "DT4": "Т-34 «Гроза»", "d_tc": "Лыков", "d1": "Иванов"}


def _named(type_, data):
    """The roster's display names ride on force_mustered (battle_names)."""
    if type_ != "force_mustered":
        return data
    return {**data, **{g: [{**x, "name": NAMES.get(x["id"], f"Боец {x['id'].upper()}")} for x in data.get(g, [])]
                       for g in ("units", "fighters", "vehicles")}}


def store(battle, events, chunk=200):
    items = [NewEvent(e.type, _named(e.type, e.data)) for e in events]
    for i in range(0, len(items), chunk):
        battle_event_append(battle_id=battle.id, events=items[i:i + chunk], expected_seq=None,
                            as_game_master=True)
    battle_replay(battle_id=battle.id)


def defender_mine() -> Table:
    """Defender turn 1: sapper d_sap goes to a spot; turn 2: he lays AP mine m1."""
    return defender_lays_mine()


def _player(username):
    user = User.objects.create_user(username=username, password="pw")
    user.groups.add(Group.objects.get(name="player"))
    character = campaign_services.character_create(owner=user, name=username.title(), rank="corporal",
                                                   nationality=Nationality.objects.get(code="su"))
    return user, character


@pytest.fixture
def table(db, game_master):
    campaign = Campaign.objects.create(name="Кампания", attacker_name="Вермахт", defender_name="РККА")
    battle = battle_create(campaign=campaign, name="Бой у моста")
    people = {"master": game_master}
    for username, side in (("attacker_p", "attacker"), ("defender_p", "defender"), ("bystander", None)):
        user, character = _player(username)
        if side:
            BattleParticipant.objects.create(battle=battle, character=character, side=side)
        people[username] = user
    battle.people = people
    return battle


def page(client, battle, user=None, lang="ru", query=""):
    if user is not None:
        client.force_login(user)
    r = client.get(f"/battles/{battle.id}/{query}", HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 200
    return r.content.decode()


def without_tokens(html: str) -> str:
    """The page without its random tokens (CSRF, CSP nonce, the form's idempotency token),
    which may contain any short string by chance."""
    html = re.sub(r'name="(csrfmiddlewaretoken|token)" value="[^"]*"', "", html)
    return re.sub(r'nonce="[^"]*"', "", html)


def text_of(html: str) -> str:
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.django_db
class TestHiddenMines:
    def test_v_mine_1_the_defenders_mine_never_reaches_the_attacker_or_an_onlooker_page(self, table, client):
        store(table, defender_mine().events)
        for who in ("attacker_p", "bystander", None):
            c = client.__class__()
            html = page(c, table, table.people.get(who) if who else None)
            assert "m1" not in without_tokens(html) and "противопехотная мина" not in html, who
            assert "скрытой работой" in html  # the sapper's work shows, the mine does not
        defender = page(client.__class__(), table, table.people["defender_p"])
        assert "противопехотная мина m1" in defender
        master = page(client.__class__(), table, table.people["master"])
        assert "противопехотная мина m1" in master

    def test_v_mine_1_the_api_state_events_and_feed_keep_the_mine_from_the_attacker_and_anonymous(self, table):
        store(table, defender_mine().events)
        urls = [f"/api/battles/{table.id}/state/", f"/api/battles/{table.id}/events/?limit=1000",
                "/api/events/?limit=1000"]
        for who in ("attacker_p", None):
            api = APIClient()
            if who:
                api.force_authenticate(table.people[who])
            for url in urls:
                r = api.get(url)
                assert r.status_code == 200, url
                assert '"m1"' not in r.content.decode(), (who, url)
        api = APIClient()
        api.force_authenticate(table.people["defender_p"])
        for url in urls:
            assert '"m1"' in api.get(url).content.decode(), url

    def test_v_mine_14_a_revealed_mine_is_shown_to_the_attacker(self, table, client):
        t = defender_mine()
        t.end_turn()
        t.postures("attacker")
        t.add("mine_revealed", mine="m1", sapper="a_sap", distance=5.0)
        store(table, t.events)
        html = page(client, table, table.people["attacker_p"])
        assert "противопехотная мина m1" in html and "Вебер" in html


@pytest.mark.django_db
class TestStateAndLog:
    def test_the_state_names_units_postures_fighters_and_vehicles_in_russian(self, table, client):
        t = defender_mine()
        store(table, t.events)
        html = page(client, table, table.people["attacker_p"])
        text = text_of(html)
        assert "1-е отделение" in text and "окопано" in text and "разведка" in text
        assert "Кузнецов" in text and "сапёр" in text and "Т-34 «Гроза»" in text and "Лыков" in text
        assert f"ход {t.state.turn}" in text and "ходят: РККА" in text and "фаза:" in text
        for raw in ("dug_in", "recon", "rifleman", "sapper_worked", "defender", "None", "True", "{'"):
            assert raw not in text, raw

    def test_the_log_reads_as_sentences_with_side_names_and_a_voided_entry_is_struck(self, table, client):
        store(table, defender_mine().events)
        battle_event_append(battle_id=table.id, expected_seq=None, as_game_master=True, events=[
            NewEvent("correction", {"voids_seq": 5, "reason": "ошибка"})])
        battle_replay(battle_id=table.id)
        html = page(client, table, table.people["defender_p"])
        assert "Бой начался: Вермахт атакуют, РККА обороняются" in html
        assert re.search(r'<li id="seq5"[^>]*><del class="voided"', html)
        assert "Мастер отменил запись №5: ошибка" in html

    def test_english_follows_the_request_language(self, table, client):
        store(table, defender_mine().events)
        text = text_of(page(client, table, table.people["defender_p"], lang="en"))
        assert "The battle began: Вермахт attack, РККА defend" in text and "dug in" in text


@pytest.mark.django_db
class TestPaging:
    def _long(self, table, turns):
        t = standard()
        for _ in range(turns):
            t.postures()
            t.end_turn()
        store(table, t.events)
        return t

    def test_only_the_latest_entries_are_sent_with_a_link_to_older_ones(self, table, client):
        t = self._long(table, 60)
        head = len(t.events)
        html = page(client, table)
        seqs = [int(s) for s in re.findall(r'<li id="seq(\d+)"', html)]
        assert seqs == list(range(head - 49, head + 1))
        older = re.search(r'href="\?before=(\d+)#log"', html)
        assert older and int(older.group(1)) == head - 49
        html = page(client, table, query=f"?before={head - 49}")
        seqs = [int(s) for s in re.findall(r'<li id="seq(\d+)"', html)]
        assert seqs == list(range(head - 99, head - 49))
        assert f'href="?before={head + 1}#log" rel="next">более поздние записи' in html

    @pytest.mark.parametrize("who", ["master", "defender_p", None])
    def test_the_page_renders_at_a_constant_number_of_queries(self, table, who, django_assert_num_queries):
        """10 events or 300: the same queries (the log is paged, names and state are one read each)."""
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        c = Client()
        if who:
            c.force_login(table.people[who])
        c.get(f"/battles/{table.id}/")  # the session, warmed
        self._long(table, 4)
        assert 10 <= BattleEvent.objects.filter(battle=table).count() < 20
        with CaptureQueriesContext(connection) as short:
            assert c.get(f"/battles/{table.id}/").status_code == 200
        self._more(table, 150)
        assert BattleEvent.objects.filter(battle=table).count() >= 300
        with django_assert_num_queries(len(short.captured_queries)):
            assert c.get(f"/battles/{table.id}/").status_code == 200

    def _more(self, table, turns):
        from battles import engine
        from battles.selectors import iter_engine_events

        events = [e for chunk in iter_engine_events(battle_id=table.id) for e in chunk]
        t = Table()
        t.events, t.state = list(events), engine.fold(events, None, {})
        for _ in range(turns):
            t.postures()
            t.end_turn()
        store(table, t.events[len(events):])


@pytest.mark.django_db
class TestLive:
    def test_nothing_new_is_one_query_and_no_fragments(self, table, client, django_assert_num_queries):
        store(table, defender_mine().events)
        r = client.get(f"/battles/{table.id}/live/?since=0&state=0")
        d = r.json()
        assert d["changed"] and "state_html" in d and "log_html" in d
        with django_assert_num_queries(1):
            d2 = client.get(f"/battles/{table.id}/live/?since={d['head_seq']}&state={d['state_seq']}").json()
        assert d2 == {"head_seq": d["head_seq"], "state_seq": d["state_seq"], "changed": False}

    def test_the_other_players_event_arrives_in_the_fragments_filtered_for_the_reader(self, table, client):
        t = defender_mine()
        store(table, t.events)
        client.force_login(table.people["attacker_p"])
        head = client.get(f"/battles/{table.id}/live/?since=0&state=0").json()
        t.end_turn()
        store(table, t.events[-1:])
        d = client.get(f"/battles/{table.id}/live/?since={head['head_seq']}&state={head['state_seq']}").json()
        assert d["changed"] and d["head_seq"] == head["head_seq"] + 1
        assert "«Ход»: РККА завершили ход" in d["log_tail"] and "log_html" not in d
        assert re.findall(r'<li id="seq(\d+)"', d["log_tail"]) == [str(d["head_seq"])]  # only the line it lacks
        assert "m1" not in without_tokens(d["state_html"] + d["log_tail"]) and "record_html" in d

    def test_the_log_tail_holds_the_lines_shown_without_their_outcome_and_the_new_ones(self, table, client):
        t = defender_mine()
        store(table, t.events)
        client.force_login(table.people["attacker_p"])
        head = Battle.objects.get(pk=table.id).head_seq
        t.end_turn()
        store(table, t.events[-1:])
        # the page showed the log up to ``head`` but its state (the outcomes) only up to head - 2
        d = client.get(f"/battles/{table.id}/live/?since={head}&state={head - 2}").json()
        assert re.findall(r'<li id="seq(\d+)"', d["log_tail"]) == [str(s) for s in range(head - 1, head + 2)]
        assert re.findall(r'<section class="chapter" data-key="(\d+-\w*)"', d["log_tail"])  # keyed to merge

    @pytest.mark.parametrize("shown", ["since=0&state=0", "since=-1&state=3", "since=1&state=1", "since=&state="])
    def test_the_whole_log_when_the_page_has_nothing_to_merge_into(self, table, client, shown):
        """Nothing shown yet, a forced answer, a page or more behind, or no seqs: the whole log."""
        t = defender_mine()
        store(table, t.events)
        for _ in range(30):
            t.postures()
            t.end_turn()
        store(table, t.events[len(defender_mine().events):])
        assert Battle.objects.get(pk=table.id).head_seq > 1 + 50
        d = client.get(f"/battles/{table.id}/live/?{shown}").json()
        assert "log_tail" not in d and len(re.findall(r'<li id="seq', d["log_html"])) == 50

    def test_v_turn_13_a_void_since_sends_the_whole_log_so_the_struck_line_is_struck(self, table, client):
        store(table, defender_mine().events)
        client.force_login(table.people["defender_p"])
        head = Battle.objects.get(pk=table.id).head_seq
        battle_event_append(battle_id=table.id, expected_seq=None, as_game_master=True, events=[
            NewEvent("correction", {"voids_seq": head, "reason": "ошибка"})])
        battle_replay(battle_id=table.id)
        d = client.get(f"/battles/{table.id}/live/?since={head}&state={head}").json()
        assert "log_tail" not in d and f'<li id="seq{head}" value="{head}"><del' in d["log_html"]


@pytest.mark.django_db
class TestGameMasterPanel:
    def test_v_turn_13_the_game_master_voids_an_entry_with_a_reason(self, table, client):
        store(table, defender_mine().events)
        client.force_login(table.people["master"])
        head = BattleEvent.objects.filter(battle=table).count()
        r = client.post(f"/battles/{table.id}/void/", {"seq": "5", "reason": "не тот боец"})
        assert r.status_code == 200  # first what it takes with it, and a question
        assert "Отменить запись №5?" in text_of(r.content.decode())
        assert BattleEvent.objects.filter(battle=table).count() == head
        r = client.post(f"/battles/{table.id}/void/", {"seq": "5", "reason": "не тот боец", "confirm": "1"})
        assert r.status_code == 302
        e = BattleEvent.objects.get(battle=table, seq=head + 1)
        assert e.type == "correction" and e.data == {"voids_seq": 5, "reason": "не тот боец", "side": None}
        assert e.recorded_by == table.people["master"]
        battle_replay(battle_id=table.id)
        html = page(client, table)
        assert re.search(r'<li id="seq5"[^>]*><del class="voided"', html)

    def test_v_turn_13_the_void_names_the_later_entries_it_takes_with_it(self, table, client):
        t = defender_mine()
        store(table, t.events)
        client.force_login(table.people["master"])
        approach = next(e.seq for e in t.events if e.type == "sapper_approached")
        lay = next(e.seq for e in t.events if e.type == "sapper_worked")
        r = client.post(f"/battles/{table.id}/void/", {"seq": str(approach), "reason": "не туда"})
        html = text_of(r.content.decode())
        assert r.status_code == 200 and "С ней теряют силу" in html
        later = html.split("С ней теряют силу", 1)[1]
        # without the approach the mine has no sapper at its spot (V-SAP-2): the laying is named, by name
        assert "Сапёр Кузнецов" in later and f"{lay}" in r.content.decode()
        assert "Объекты поля боя" not in later  # an unrelated entry is not listed

    def test_v_turn_13_the_muster_cannot_be_voided_from_the_table(self, table, client):
        store(table, defender_mine().events)
        client.force_login(table.people["master"])
        count = BattleEvent.objects.count()
        for seq in ("2", "4"):  # a side's muster, the start
            for confirm in ("", "1"):
                r = client.post(f"/battles/{table.id}/void/", {"seq": seq, "reason": "ошибка", "confirm": confirm})
                assert r.status_code == 422 and "V-TURN-13" in r.content.decode()
                assert "Выставление сил и начало боя не отменяются" in r.content.decode()
        assert BattleEvent.objects.count() == count

    def test_the_game_master_ends_the_battle_and_sees_the_panel(self, table, client):
        store(table, defender_mine().events)
        client.force_login(table.people["master"])
        html = page(client, table)
        assert "Отменить запись" in html and "Завершить бой" in html and "Представления к наградам" in html
        assert "вам видно всё, включая скрытые мины" in html  # (v11.2's mines, V-MINE-14; FoW has none)
        r = client.post(f"/battles/{table.id}/end/", {"winner": "defender", "reason": "мост удержан"})
        assert r.status_code == 302
        e = BattleEvent.objects.filter(battle=table).order_by("-seq").first()
        assert e.type == "battle_ended" and e.data == {"winner": "defender", "reason": "мост удержан"}
        battle_replay(battle_id=table.id)
        assert "Бой окончен: победили РККА. Причина: мост удержан" in page(client, table)

    def test_the_ended_battles_results_reach_every_open_page_without_a_reload(self, table, client):
        """The game master ends the battle; the worker replays it, then concludes it in the campaign. A page
        opened before sees both come in by its live requests: first that the results are being recorded
        (``concluded`` false: its script asks again), then the results, and the game master his proposals."""
        from django.test import Client

        from battles.results import battle_conclude

        store(table, defender_mine().events)
        readers = {who: Client() for who in ("master", "attacker_p", "bystander")}
        shown = {}
        for who, c in readers.items():
            html = page(c, table, table.people[who])
            assert 'id="results-region"' in html and "data-concluding" not in html
            shown[who] = re.search(r'data-head="(\d+)" data-state="(\d+)"', html).groups()
            running = c.get(f"/battles/{table.id}/live/?since=0&state=0").json()
            assert "results_html" not in running and "concluded" not in running  # a running battle: none of it
        readers["master"].post(f"/battles/{table.id}/end/", {"winner": "defender", "reason": "мост удержан"})
        battle_replay(battle_id=table.id)
        for who, c in readers.items():
            d = c.get(f"/battles/{table.id}/live/?since={shown[who][0]}&state={shown[who][1]}").json()
            assert d["changed"] and d["concluded"] is False
            assert "кампания записывает его итоги" in d["results_html"]
            assert table.dice_secret and table.dice_secret in d["dice_html"]  # revealed now (issue 27 §4)
            assert ("proposals_html" in d) == (who == "master")
            assert 'data-concluding="1"' in page(c, table)  # a page opened now asks again too
        battle_conclude(battle_id=table.id)
        for who, c in readers.items():
            d = c.get(f"/battles/{table.id}/live/?since=-1&state={shown[who][1]}").json()
            assert d["concluded"] is True
            assert "Итоги" in d["results_html"] and "Бой «Бой у моста» выиграла сторона: РККА." in d["results_html"]
            assert "кампания записывает" not in d["results_html"]
            if who == "master":
                assert "По итогам боя нет представлений" in d["proposals_html"]
            assert "data-concluding" not in page(c, table)

    def test_an_ended_battles_panel_offers_the_game_master_corrections_alone(self, table, client):
        """Once the battle has ended nothing is played: the game master's panel is headed as the corrections
        it offers (V-TURN-13), open at once, not «Записать · <side>»; a player's page has no panel."""
        client.force_login(table.people["master"])
        planned = page(client, table)  # not begun: the muster and the start are still to record
        assert "Записать" in planned and "Бой окончен: исправления" not in planned
        store(table, defender_mine().events)
        running = page(client, table)
        assert "Записать ·" in running and "Бой окончен: исправления" not in running
        client.post(f"/battles/{table.id}/end/", {"winner": "defender", "reason": "мост удержан"})
        battle_replay(battle_id=table.id)
        ended = page(client, table)
        assert "Бой окончен: исправления" in ended and "Записать ·" not in ended
        panel = ended[ended.index('id="record"'):]
        assert '<details class="more" open>' in panel and "?record=correction" in panel
        from django.test import Client

        assert "Бой окончен: исправления" not in page(Client(), table, table.people["attacker_p"])

    @pytest.mark.parametrize("who", ["attacker_p", "defender_p", "bystander", None])
    @pytest.mark.parametrize("action", ["void", "end"])
    def test_anyone_but_the_game_master_gets_403_and_nothing_is_stored(self, table, client, who, action):
        store(table, defender_mine().events)
        if who:
            client.force_login(table.people[who])
        count = BattleEvent.objects.count()
        r = client.post(f"/battles/{table.id}/{action}/", {"seq": "5", "reason": "x", "winner": "attacker"})
        assert r.status_code == 403
        assert BattleEvent.objects.count() == count

    def test_a_refused_correction_shows_inline_with_its_rule_and_keeps_the_input(self, table, client):
        store(table, defender_mine().events)
        client.force_login(table.people["master"])
        r = client.post(f"/battles/{table.id}/void/", {"seq": "999", "reason": "опечатка"},
                        HTTP_ACCEPT_LANGUAGE="ru")
        assert r.status_code == 422
        html = r.content.decode()
        assert "Исправление может отменить только более раннее событие" in html and "V-TURN-13" in html
        assert 'value="999"' in html and 'value="опечатка"' in html
        r = client.post(f"/battles/{table.id}/void/", {"seq": "3", "reason": ""}, HTTP_ACCEPT_LANGUAGE="en")
        assert r.status_code == 400 and "Reason: say why the entry is voided (V-TURN-13)." in r.content.decode()

    def test_the_game_master_sees_the_proposals_with_a_link_to_decide(self, table, client):
        from campaign.models import AwardRule, Proposal

        store(table, defender_mine().events)
        _, character = _player("hero")
        rule = AwardRule.objects.first() or AwardRule.objects.create(metric="kills", threshold=1, to_rank="sergeant")
        p = Proposal.objects.create(campaign=table.campaign, battle=table, character=character, rule=rule,
                                    to_rank="sergeant")
        html = page(client, table, table.people["master"])
        assert "Hero" in html and f"/admin/campaign/proposal/{p.id}/change/" in html
        assert f"/admin/campaign/proposal/{p.id}/change/" not in page(client.__class__(), table,
                                                                       table.people["defender_p"])

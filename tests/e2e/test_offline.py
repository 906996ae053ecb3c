"""The battle table keeps working when the club's Wi-Fi drops (issue 30, docs/offline.md).

In Chromium: a player records two entries, the network goes (``context.set_offline(True)``), he
records three more (they show as «ждёт отправки», a banner counts them), reloads the page without a
network (the service worker opens it from its cache, with the state he last saw and the entries
that wait), the network returns, and all five are stored exactly once, in order, recorded by him.
A second run queues an entry the engine refuses (V-TURN-10: farther than the posture allows): it is
shown with its rule ID on its own form with what he typed, the entry after it waits, nothing after
it is stored; corrected, it goes, and the one behind it follows.

Playwright's offline emulation does not reach a service worker's own requests
(microsoft/playwright#2311): with ``PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS`` the worker's
requests are routed, and aborted as a lost connection while the context is offline.

Set SHTAB_SHOTS=<dir> to keep screenshots (1280 and 375 px).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from battles.models import BattleEvent
from tests.e2e.conftest import recorded
from tests.e2e.test_battle_table import _login, club  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("SHTAB_SHOTS", "")


def _shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def _battle(ns):
    from battles.setup import muster

    battle = muster.battle_schedule(user=ns.gm, campaign=ns.campaign, name="Бой у моста")
    for char, roster in ((ns.ivan_char, ns.ivan_roster), (ns.hans_char, ns.hans_roster)):
        muster.battle_participant_add(user=ns.gm, battle=battle, character=char, roster=roster)
    muster.battle_muster(user=ns.gm, battle=battle)
    return battle


def _worker_request(route) -> None:
    if route.request.service_worker is not None:
        route.abort("internetdisconnected")
    else:
        route.continue_()


def _offline(page) -> None:
    page.context.set_offline(True)
    page.context.route("**/*", _worker_request)


def _online(page) -> None:
    page.context.unroute("**/*", _worker_request)
    page.context.set_offline(False)


def _installed(page) -> None:
    """The worker controls the page and keeps it (the first page hands it over)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20000)
    page.wait_for_function("() => caches.match(location.pathname, {ignoreVary: true}).then(r => !!r)",
                           timeout=20000)


def _who(page) -> str:
    return page.locator("#rec-quick_move").get_by_label("Кто движется")


def _move(page, index: int, inches: str) -> None:
    move = page.locator("#rec-quick_move")
    _who(page).select_option(index=index)
    move.get_by_label("Пройдено, дюймы").fill(inches)
    move.get_by_role("button").click()


def log_out(page) -> None:
    """«Выйти», behind «Меню» at phone width."""
    toggle = page.locator("header .nav-toggle")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    page.locator("header form.inline button").click()


def _ivans_entries(battle, ivan) -> list:
    return list(BattleEvent.objects.filter(battle_id=battle.id, recorded_by=ivan).order_by("seq"))


# What the banner and the log showed, each time the banner changed (while the queue is sent).
WATCH = """
window.__seen = [];
new MutationObserver(function () {
  window.__seen.push([document.getElementById("offline").textContent,
                      document.getElementById("log-region").textContent]);
}).observe(document.getElementById("offline"), {childList: true, subtree: true, characterData: true});
"""


def _gm_records(battle) -> None:
    from battles.models import Battle
    from battles.services import NewEvent, battle_event_append

    unit = next(u for u in Battle.objects.get(pk=battle.id).projection.state["units"] if u.startswith("hans"))
    battle_event_append(battle_id=battle.id, expected_seq=None, as_game_master=True, events=[NewEvent(
        "morale_test", {"unit": unit, "die": {"value": 12, "source": "entered"}, "officer_distances": {}})])


def _declare(page) -> None:
    postures = page.locator("#rec-postures")
    postures.get_by_label(re.compile(r"^1-е отделение(?!,)")).select_option(label="атака")
    postures.get_by_role("button").click()
    recorded(page)


@pytest.fixture
def worker_events(monkeypatch):
    monkeypatch.setenv("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # the test reads the log while the browser runs


@pytest.mark.parametrize("width", [1280, 375])
def test_entries_recorded_offline_wait_survive_a_reload_and_are_stored_once_in_order(
        live_server, club, browser_page, worker_events, width):  # noqa: F811
    from playwright.sync_api import expect

    battle = _battle(club)
    with browser_page(locale="ru-RU", viewport={"width": width, "height": 900}) as ivan:
        _login(ivan, live_server.url, "ivan", f"/battles/{battle.id}/")
        ivan.wait_for_url(f"**/battles/{battle.id}/")
        _installed(ivan)
        # installable on the home screen: Chromium finds no fault but that a test's context is incognito
        cdp = ivan.context.new_cdp_session(ivan)
        faults = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [f["errorId"] for f in faults if f["errorId"] != "in-incognito"] == [], faults
        # --- two entries online ---------------------------------------------------------------
        _declare(ivan)
        options = _who(ivan).locator("option").all_text_contents()
        fighters = [i for i, text in enumerate(options) if " — " in text][:4]
        assert len(fighters) == 4, options
        _move(ivan, fighters[0], "2")
        recorded(ivan)
        expect(ivan.locator("#last-entry")).to_contain_text("передвинул")
        online_head = int(ivan.locator("#battle").get_attribute("data-head"))
        # --- the network goes: three more wait on the device ----------------------------------
        _offline(ivan)
        for n, index in enumerate(fighters[1:], start=1):
            _move(ivan, index, "1")
            expect(ivan.locator("#offline-waiting li.waiting")).to_have_count(n)
        waiting = ivan.locator("#offline-waiting li")
        expect(waiting.first).to_contain_text("ждёт отправки")
        expect(ivan.locator("#offline")).to_contain_text("Ждут отправки: 3")
        expect(ivan.locator("#offline")).to_contain_text("Нет сети")
        # a die the service would roll needs the network: offline the fire form offers only the table's
        die = ivan.locator("#rec-quick_fire select.die-source")
        expect(die).to_have_value("entered")
        assert die.locator("option[value=rolled]").is_disabled()
        expect(ivan.locator("#rec-quick_fire .offline-dice")).to_contain_text("сервис сейчас не бросает кости")
        assert len(_ivans_entries(battle, club.ivan)) == 2  # nothing went
        # «Выйти» would drop them from the device (Clear-Site-Data): the page asks first, and he stays
        asked = []
        ivan.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        log_out(ivan)
        assert asked and "Ждут отправки: 3" in asked[0], asked
        expect(ivan.locator("#offline-waiting li.waiting")).to_have_count(3)
        _shot(ivan, f"offline-waiting-{width}")
        # meanwhile, at the table, the game master records an entry (a morale test of hans's squad)
        _gm_records(battle)
        # --- reloaded without a network: from the worker's cache, the entries still wait ----------
        response = ivan.reload()
        assert response is None or response.from_service_worker
        expect(ivan.locator("#offline-waiting li.waiting")).to_have_count(3)
        expect(ivan.locator("#offline")).to_contain_text("последней синхронизации")
        expect(ivan.locator("#log-region")).to_contain_text("передвинул")  # the state he last saw
        assert int(ivan.locator("#battle").get_attribute("data-head")) == online_head
        texts = ivan.locator("#offline-waiting li").all_text_contents()
        for text, index in zip(texts, fighters[1:], strict=True):
            assert options[index].split("·")[0].strip() in text, (text, options[index])
        _shot(ivan, f"offline-reloaded-{width}")
        # --- the network returns: sent in order, each once ----------------------------------------
        ivan.evaluate(WATCH)
        _online(ivan)
        expect(ivan.locator("#offline-waiting li")).to_have_count(0, timeout=20000)
        recorded(ivan)
        expect(ivan.locator("#offline")).to_be_hidden()
        expect(ivan.locator("#log-region")).to_contain_text("Тест на мораль")
        _shot(ivan, f"offline-synced-{width}")
        # the game master's entry came first: the page showed the new state, then sent against it
        seen = ivan.evaluate("window.__seen")
        moved = [i for i, (banner, log) in enumerate(seen) if "журнал ушёл вперёд" in banner]
        assert moved and "Тест на мораль" in seen[moved[0]][1], seen
        # --- «Выйти»: the device forgets the battle and its worker (Clear-Site-Data) ---------------
        assert ivan.evaluate("caches.keys().then(k => k.length)") > 0
        log_out(ivan)
        ivan.wait_for_load_state()
        assert ivan.evaluate("caches.keys().then(k => k.length)") == 0
        assert ivan.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
    entries = _ivans_entries(battle, club.ivan)
    assert [e.type for e in entries] == ["postures_declared"] + ["fighters_moved"] * 4
    morale = BattleEvent.objects.get(battle_id=battle.id, type="morale_test").seq
    assert [e.seq for e in entries] == [*range(morale - 2, morale), *range(morale + 1, morale + 4)]  # each once
    assert len({e.key for e in entries}) == 5
    moved = [e.data.get("fighters") or e.data for e in entries[1:]]
    assert len({str(m) for m in moved}) == 4


def test_a_refused_entry_stops_the_queue_with_its_rule_and_the_input_kept(
        live_server, club, browser_page, worker_events):  # noqa: F811
    from playwright.sync_api import expect

    battle = _battle(club)
    with browser_page(locale="ru-RU", viewport={"width": 1280, "height": 900}) as ivan:
        _login(ivan, live_server.url, "ivan", f"/battles/{battle.id}/")
        ivan.wait_for_url(f"**/battles/{battle.id}/")
        _installed(ivan)
        _declare(ivan)
        options = _who(ivan).locator("option").all_text_contents()
        fighters = [i for i, text in enumerate(options) if " — " in text][:3]
        chosen = [_who(ivan).locator("option").nth(i).get_attribute("value") for i in fighters]
        _offline(ivan)
        _move(ivan, fighters[0], "1")
        _move(ivan, fighters[1], "40")  # V-TURN-10: farther than his posture lets him
        _move(ivan, fighters[2], "1")
        expect(ivan.locator("#offline-waiting li.waiting")).to_have_count(3)
        _online(ivan)
        refused = ivan.locator("#offline-waiting li.refused")
        expect(refused).to_have_count(1, timeout=20000)
        expect(refused).to_contain_text("V-TURN-10")
        expect(ivan.locator("#offline-waiting li.waiting")).to_have_count(1)  # the one after it waits
        expect(ivan.locator("#offline")).to_contain_text("V-TURN-10")
        form = ivan.locator("#rec-quick_move")
        expect(form.locator("[role=alert]")).to_contain_text("V-TURN-10")  # on its own form,
        expect(form.get_by_label("Пройдено, дюймы")).to_have_value("40")  # with what he typed
        expect(_who(ivan)).to_have_value(chosen[1])
        entries = _ivans_entries(battle, club.ivan)
        assert [e.type for e in entries] == ["postures_declared", "fighters_moved"]  # nothing after it
        _shot(ivan, "offline-refused-1280")
        # corrected, it goes at its place; the one behind it follows
        form.get_by_label("Пройдено, дюймы").fill("2")
        form.get_by_role("button").click()
        expect(ivan.locator("#offline-waiting li")).to_have_count(0, timeout=20000)
        recorded(ivan)
        # one more refused (V-TURN-10 again), and dropped: nothing stored, nothing waits
        _offline(ivan)
        _move(ivan, fighters[0], "40")
        _online(ivan)
        expect(ivan.locator("#offline-waiting li.refused")).to_contain_text("V-TURN-10", timeout=20000)
        ivan.locator("#offline-waiting li.refused").get_by_role("button", name="Отбросить").click()
        expect(ivan.locator("#offline-waiting li")).to_have_count(0)
        expect(ivan.locator("#offline")).to_be_hidden()
    entries = _ivans_entries(battle, club.ivan)
    assert [e.type for e in entries] == ["postures_declared"] + ["fighters_moved"] * 3
    assert [e.data["distance"] for e in entries[1:]] == [1, 2, 1]  # the corrected one at its place
    assert [e.data["fighters"][0] for e in entries[1:]] == [f.split(":", 1)[1] for f in chosen]


def test_an_ended_battles_results_are_kept_for_a_reload_without_a_network(
        live_server, club, browser_page, worker_events):  # noqa: F811
    """The battle ends while ivan's page is open: its results and the dice secret come in by the live
    requests. The Wi-Fi then drops and he reloads: the worker's copy of the page is from before the end,
    and the page shows the regions as he last saw them, the results and the secret with them."""
    from playwright.sync_api import expect

    from battles.services import NewEvent, battle_event_append

    battle = _battle(club)
    with browser_page(locale="ru-RU", viewport={"width": 375, "height": 900}) as ivan:
        _login(ivan, live_server.url, "ivan", f"/battles/{battle.id}/")
        ivan.wait_for_url(f"**/battles/{battle.id}/")
        _installed(ivan)
        assert "Итоги" not in ivan.locator("#results-region").inner_text()
        assert "Секрет костей" not in ivan.locator("#dice-region").inner_text()
        battle_event_append(battle_id=battle.id, expected_seq=None, as_game_master=True, recorded_by=club.gm,
                            events=[NewEvent("battle_ended", {"winner": "defender", "reason": "мост удержан"})])
        expect(ivan.locator("#results-region")).to_contain_text("выиграла сторона: РККА", timeout=30000)
        expect(ivan.locator("#dice-region")).to_contain_text("Секрет костей")
        _offline(ivan)
        response = ivan.reload()
        assert response is None or response.from_service_worker
        expect(ivan.locator("#offline")).to_contain_text("последней синхронизации")
        expect(ivan.locator("#results-region")).to_contain_text("выиграла сторона: РККА")
        expect(ivan.locator("#dice-region")).to_contain_text("Секрет костей")
        expect(ivan.locator("#state-region")).to_contain_text("окончен")
        _shot(ivan, "offline-ended-375")
        _online(ivan)

"""An ended battle's results reach an open page however long the campaign takes to record them: the
page's script asks for its regions every 2 s for a minute, then every 15 s until they come, never
needing a reload (a worker held up or restarted after the battle ended).

The page is a real one from the live server; its live answers are played by the test (Playwright's
``route``) as the server gives them while the results are not recorded yet (``concluded`` false on a
forced ask, nothing moved on any other), and the page's clock is Playwright's, run forward."""
from __future__ import annotations

import json
import re
import time

import pytest

from tests.e2e.test_battle_table import _login, club  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

QUICK_ASKS = 30  # the script's asks every 2 s
LATE_ASKS = 3  # asks after the first minute before the campaign has recorded the results


def test_an_ended_battles_page_keeps_asking_for_its_results_until_they_come(live_server, club,  # noqa: F811
                                                                           browser_page):
    from playwright.sync_api import expect

    from battles.models import Battle
    from battles.setup import muster

    battle = muster.battle_schedule(user=club.gm, campaign=club.campaign, name="Бой у моста")
    for char, roster in ((club.ivan_char, club.ivan_roster), (club.hans_char, club.hans_roster)):
        muster.battle_participant_add(user=club.gm, battle=battle, character=char, roster=roster)
    muster.battle_muster(user=club.gm, battle=battle)
    head = Battle.objects.get(pk=battle.id).head_seq
    forced: list[str] = []  # the asks for the regions whole (``since=-1``)

    def page(route):  # the page as it is while the campaign records the battle's results
        answer = route.fetch()
        html = answer.text().replace('id="battle" ', 'id="battle" data-concluding="1" ', 1)
        route.fulfill(response=answer, body=html)

    def live(route):
        url = route.request.url
        if "since=-1" not in url:  # nothing moved: the head stays where it is
            body = {"changed": False, "head_seq": head, "state_seq": head}
        else:
            forced.append(url)
            done = len(forced) > QUICK_ASKS + LATE_ASKS
            body = {"changed": True, "head_seq": head, "state_seq": head, "concluded": done,
                    "results_html": "<h2>Итоги</h2><p>Бой выиграла сторона: РККА.</p>" if done
                    else "<p>Бой окончен; кампания записывает его итоги.</p>"}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    with browser_page(locale="ru-RU", viewport={"width": 1280, "height": 900}) as ivan:
        _login(ivan, live_server.url, "ivan", "/")
        ivan.wait_for_url(re.compile(r".*/$"))
        ivan.route(re.compile(rf"/battles/{battle.id}/live/"), live)
        ivan.route(re.compile(rf"/battles/{battle.id}/$"), page)
        ivan.clock.install()
        ivan.goto(f"{live_server.url}/battles/{battle.id}/")
        results = ivan.locator("#results-region")

        def run(ms: int, asks: int) -> None:
            """The page's clock ``ms`` on, then the page's answer handled (real time)."""
            before = len(forced)
            ivan.clock.run_for(ms)
            deadline = time.monotonic() + 5
            while len(forced) < before + asks and time.monotonic() < deadline:
                ivan.wait_for_timeout(20)
            ivan.wait_for_timeout(50)  # the answer applied, the next ask's timer set

        for _ in range(QUICK_ASKS):
            run(2000, 1)
        assert len(forced) == QUICK_ASKS
        expect(results).to_contain_text("кампания записывает его итоги")
        run(14000, 0)  # the first minute is over: the next ask comes 15 s after the last
        assert len(forced) == QUICK_ASKS
        for _ in range(LATE_ASKS):
            run(15000, 1)
            expect(results).to_contain_text("кампания записывает его итоги")
        assert len(forced) == QUICK_ASKS + LATE_ASKS
        run(15000, 1)  # the campaign has recorded them: the next ask brings them, no reload
        expect(results).to_contain_text("Бой выиграла сторона: РККА.")
        asked = len(forced)
        run(60000, 0)  # concluded: no more asks for the regions whole
        assert len(forced) == asked

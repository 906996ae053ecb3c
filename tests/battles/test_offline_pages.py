"""The battle page is installable and keeps its strict CSP (issue 30, docs/offline.md): the service
worker is a static file served from the scope it controls, the manifest names the battle and its
icons, the page's script is a static file (no inline script), and what the offline script says
comes translated from the page, in the reader's language. Without JavaScript nothing of it shows."""
from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders

from tests.battles.test_battle_page import page, table  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def test_the_worker_is_served_from_the_battles_scope_as_a_script(client):
    r = client.get("/battles/sw.js")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/javascript")
    assert r["Cache-Control"] == "no-cache"  # a new worker is seen at the next check
    body = r.content.decode()
    assert "addEventListener(\"fetch\"" in body and "caches" in body
    assert body == open(finders.find("battles/sw.js"), encoding="utf-8").read()  # the static file itself


def test_the_manifest_opens_the_battle_with_its_icons(client, table):  # noqa: F811
    r = client.get(f"/battles/{table.id}/manifest.webmanifest")
    assert r.status_code == 200 and r["Content-Type"] == "application/manifest+json"
    m = json.loads(r.content)
    assert m["start_url"] == f"/battles/{table.id}/" and m["scope"] == "/battles/"
    assert "Бой у моста" in m["name"] and m["display"] == "standalone"
    sizes = {i["sizes"] for i in m["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in m["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon


def test_no_manifest_for_a_battle_that_does_not_exist(client):
    assert client.get("/battles/999999/manifest.webmanifest").status_code == 404


def test_the_page_has_no_inline_script_and_links_its_manifest_and_worker(client, table):  # noqa: F811
    html = page(client, table, table.people["defender_p"])
    scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", html, flags=re.S)
    assert scripts and all(not s.strip() for s in scripts), "every script is a file (CSP)"
    assert re.search(r'<script src="/static/battles/table\.js" defer>', html)
    assert f'<link rel="manifest" href="/battles/{table.id}/manifest.webmanifest">' in html
    assert 'data-worker="/battles/sw.js"' in html
    banner = re.search(r'<div id="offline"[^>]*>', html).group(0)
    assert " hidden" in banner  # without JavaScript: nothing of the offline machinery shows
    assert f'data-who="{table.people["defender_p"].pk}"' in banner


@pytest.mark.parametrize(("lang", "waiting", "dice"), [
    ("ru", "ждёт отправки", "сервис сейчас не бросает кости"),
    ("en", "waiting to be sent", "the service cannot roll dice now"),
])
def test_the_offline_words_come_in_the_readers_language(client, table, lang, waiting, dice):  # noqa: F811
    html = page(client, table, table.people["defender_p"], lang=lang)
    banner = re.search(r'<div id="offline"[^>]*>', html).group(0)
    assert f'data-waiting="{waiting}"' in banner and dice in banner


def test_the_policy_lets_the_page_load_its_worker_and_manifest_and_no_inline_script(client, table):  # noqa: F811
    r = client.get(f"/battles/{table.id}/")
    policy = dict(p.strip().split(" ", 1) for p in r["Content-Security-Policy"].split(";") if p.strip())
    assert "'self'" in policy["worker-src"] and "'self'" in policy["manifest-src"]
    assert "'unsafe-inline'" not in policy["script-src"]


def test_logging_out_clears_what_the_browser_kept_of_the_site(client, django_user_model):
    """A phone passed on after «Выйти» opens no battle page the player left cached, nor his waiting
    entries: the logout answers Clear-Site-Data (the caches, IndexedDB and the service worker)."""
    user = django_user_model.objects.create_user("leaver", password="pw-leaver-1")
    client.force_login(user)
    r = client.post("/accounts/logout/")
    assert r.status_code in (200, 302)
    assert r["Clear-Site-Data"] == '"cache", "storage"'
    assert "_auth_user_id" not in client.session  # and it is still Django's logout
    assert not client.get("/accounts/logout/").has_header("Clear-Site-Data")  # a GET logs nobody out (405)
    client.force_login(user)  # the admin's «Выйти» too, the game master's way out, then the admin's login
    r = client.post("/admin/logout/")
    assert r["Clear-Site-Data"] == '"cache", "storage"' and r["Location"] == "/admin/login/"
    assert "_auth_user_id" not in client.session

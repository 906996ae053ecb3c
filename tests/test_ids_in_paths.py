"""An id in a path beyond what a database column holds names nothing (issue 27 §3): ``<int:...>`` takes any
number of digits, and SQLite refuses an integer past 2**63-1 outright (a foreign key's lookup is not bounded
by Django), so such a path is a 404 before any query, JSON under /api/ and HTML for a page."""
from __future__ import annotations

import pytest
from django.test import Client

HUGE = str(2**63)


@pytest.mark.django_db
@pytest.mark.parametrize(("method", "url"), [
    ("delete", f"/api/battles/{HUGE}/participants/1/"), ("delete", f"/api/battles/1/participants/{HUGE}/"),
    ("get", f"/api/battles/{HUGE}/events/"), ("get", f"/api/rosters/{HUGE}/"), ("get", f"/api/campaigns/{HUGE}/"),
])
def test_an_api_path_with_an_id_no_column_holds_is_a_json_404(gm_client, battle, method, url):
    r = getattr(gm_client, method)(url)
    assert r.status_code == 404, r.content[:300]
    assert r.json()["error"]["code"] == "not_found"


@pytest.mark.django_db
@pytest.mark.parametrize("url", [f"/battles/{HUGE}/", f"/rosters/{HUGE}/", f"/campaigns/{HUGE}/standings/",
                                 f"/characters/{HUGE}/"])
def test_a_page_with_an_id_no_column_holds_is_a_404(game_master, url):
    client = Client()
    client.force_login(game_master)
    assert client.get(url).status_code == 404

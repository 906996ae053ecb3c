"""Issue 13's friction on the campaign pages, as a visitor meets it: a battle
number beyond the last fought is 404, campaigns show their status, a sent
join request says so, the game master is asked before finishing a campaign
whose battle is still being played, and his to-do list waits on the admin index."""
from __future__ import annotations

import pytest
from django.test import Client

from battles.services import NewEvent, battle_create, battle_event_append
from campaign import selectors, services
from campaign.models import Campaign, Membership, Proposal
from config.errors import Conflict

from .test_standings import two_battles  # noqa: F401 - fixture


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The standings cache is keyed by campaign id and version, which repeat
    between tests: leave none of ours for the query-count tests."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/campaigns/{c}/?as_of={n}", "/campaigns/{c}/standings/?as_of={n}",
                                  "/campaigns/{c}/chronicle/?as_of={n}", "/api/campaigns/{c}/?as_of={n}",
                                  "/api/campaigns/{c}/standings/?as_of={n}", "/api/campaigns/{c}/chronicle/?as_of={n}"])
def test_as_of_beyond_the_last_battle_is_404_and_a_fought_one_is_200(client, running, two_battles, path):  # noqa: F811
    assert client.get(path.format(c=running.pk, n=2)).status_code == 200
    for n in (3, 99):
        r = client.get(path.format(c=running.pk, n=n), HTTP_ACCEPT_LANGUAGE="en")
        assert r.status_code == 404, (n, r.status_code)
    if path.startswith("/api/"):
        body = client.get(path.format(c=running.pk, n=99)).json()["error"]
        assert body["field"] == "as_of" and "99" in body["message_ru"] and "99" in body["message_en"]


@pytest.mark.django_db
def test_the_home_page_shows_each_campaigns_status_in_words(client, running):
    Campaign.objects.create(name="Черновая кампания")
    done = Campaign.objects.create(name="Архивная кампания", status="finished")
    ru = client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert ru.count('data-testid="campaign-status"') == 3
    for word in ("черновик", "идёт", "завершена"):
        assert f'data-testid="campaign-status">{word}<' in ru, word
    en = Client().get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for word in ("draft", "running", "finished"):
        assert f'data-testid="campaign-status">{word}<' in en, word
    assert done.name in ru


@pytest.mark.django_db
def test_after_asking_to_join_the_page_says_request_sent_not_join(client, running, make_player):
    user, character = make_player("novice")
    client.force_login(user)
    page = f"/campaigns/{running.pk}/"
    assert f'href="/campaigns/{running.pk}/join/"' in client.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    r = client.post(f"/campaigns/{running.pk}/join/", {"character": character.pk}, HTTP_ACCEPT_LANGUAGE="ru")
    assert r.status_code == 302
    html = client.get(page, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f'href="/campaigns/{running.pk}/join/"' not in html
    assert "заявка отправлена (Novice)" in html
    en = client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "request sent (Novice)" in en


@pytest.mark.django_db
def test_finishing_a_campaign_with_a_battle_being_played_is_refused_unless_confirmed(running, game_master):
    battle = battle_create(campaign=running, name="Бой у переправы")
    battle_event_append(battle_id=battle.id, expected_seq=0,
                        events=[NewEvent("battle_started", {"attacker": "A", "defender": "D"})])
    assert [b.name for b in selectors.battles_running(campaign=running)] == ["Бой у переправы"]
    with pytest.raises(Conflict) as exc:
        services.campaign_finish(campaign=running, by=game_master)
    assert exc.value.code == "battles_running" and "«Бой у переправы»" in exc.value.message_ru
    running.refresh_from_db()
    assert running.status == "running"
    services.campaign_finish(campaign=running, by=game_master, battles_running_ok=True)
    running.refresh_from_db()
    assert running.status == "finished"


@pytest.mark.django_db
def test_the_admin_finish_action_asks_first_naming_the_running_battle(client, running, game_master):
    battle = battle_create(campaign=running, name="Бой у переправы")
    battle_event_append(battle_id=battle.id, expected_seq=0,
                        events=[NewEvent("battle_started", {"attacker": "A", "defender": "D"})])
    client.force_login(game_master)
    data = {"action": "finish", "_selected_action": [running.pk]}
    r = client.post("/admin/campaign/campaign/", data, HTTP_ACCEPT_LANGUAGE="ru")
    html = r.content.decode()
    assert r.status_code == 200 and "Бой у переправы" in html and "Всё равно завершить" in html
    running.refresh_from_db()
    assert running.status == "running"
    r = client.post("/admin/campaign/campaign/", {**data, "confirm_running": "1"})
    running.refresh_from_db()
    assert r.status_code == 302 and running.status == "finished"


@pytest.mark.django_db
def test_the_game_masters_to_do_lists_requests_and_proposals_with_one_click_actions(
        client, running, two_battles, make_player, game_master):  # noqa: F811
    from campaign.models import AwardRule

    Proposal.objects.filter(status="pending").update(status="rejected")  # start from an empty list
    assert selectors.game_master_todo_count() == 0
    user, character = make_player("novice")
    services.membership_request(campaign=running, character=character)
    proposal = Proposal.objects.create(campaign=running, battle=two_battles[0], character=character,
                                       rule=AwardRule.objects.first(), to_rank="sergeant",
                                       facts={"metrics": {}, "value": 1, "threshold": 1})
    assert selectors.game_master_todo_count() == 2
    client.force_login(game_master)
    home = client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="gm-todo-count">2 к решению<' in home
    index = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "К решению: 2 дела" in index and "Novice" in index
    m = Membership.objects.get(campaign=running, character=character)
    r = client.post(f"/admin/campaign/membership/{m.pk}/assign/", {"side": "defender", "next": "/admin/"})
    assert r.status_code == 302 and r["Location"] == "/admin/"
    m.refresh_from_db()
    assert (m.status, m.side) == ("active", "defender")
    r = client.post(f"/admin/campaign/proposal/{proposal.pk}/decide/", {"approve": "1", "next": "/admin/"})
    proposal.refresh_from_db()
    assert r["Location"] == "/admin/" and proposal.status == "approved"
    assert selectors.game_master_todo_count() == 0
    assert "gm-todo-count" not in client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    # a foreign next is not followed
    r = client.post(f"/admin/campaign/membership/{m.pk}/assign/", {"side": "attacker", "next": "https://evil.example/"})
    assert r["Location"].startswith("/admin/campaign/membership/")
    # players see no count and cannot reach the actions
    client.force_login(user)
    assert "gm-todo-count" not in client.get("/").content.decode()
    assert client.post(f"/admin/campaign/membership/{m.pk}/assign/", {"side": "defender"}).status_code == 302
    m.refresh_from_db()
    assert m.side == "attacker"

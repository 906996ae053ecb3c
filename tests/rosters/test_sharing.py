"""Issue 13: sharing a roster. One rule decides who reads a roster, its page,
its JSON and its cards alike (``selectors.roster_readable``): the owner and
the game master; anyone once it has fought in a battle; anyone with the
owner's share link while it is on. Everyone else learns nothing (404)."""
from __future__ import annotations

import pytest
from django.test import Client

from rosters import selectors, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def other(db):
    from django.contrib.auth.models import Group, User

    user = User.objects.create_user(username="petr", password="pw-petr")
    user.groups.add(Group.objects.get(name="player"))
    c = Client()
    c.force_login(user)
    return c


def _paths(roster, share=""):
    q = f"?share={share}" if share else ""
    return [f"/rosters/{roster.pk}/{q}", f"/cards/roster/{roster.pk}/{q}",
            f"/rosters/{roster.pk}/{q}{'&' if q else '?'}format=json"]


def test_another_player_gets_404_on_an_unshared_roster_and_its_cards(squad_roster, other):
    for path in _paths(squad_roster):
        assert other.get(path).status_code == 404, path
    for path in _paths(squad_roster, share="guessed-token"):
        assert other.get(path).status_code == 404, path
        assert Client().get(path).status_code == 404, path


def test_the_share_link_reads_the_roster_and_cards_until_the_owner_turns_it_off(squad_roster, player, other):
    owner = Client()
    owner.force_login(player)
    r = owner.post(f"/rosters/{squad_roster.pk}/share/")
    assert r.status_code == 302
    squad_roster.refresh_from_db()
    token = squad_roster.share_token
    assert len(token) >= 32
    html = owner.get(f"/rosters/{squad_roster.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f"?share={token}" in html and "Закрыть доступ по ссылке" in html
    for client in (other, Client()):
        for path in _paths(squad_roster, share=token):
            assert client.get(path).status_code == 200, path
    page = other.get(f"/rosters/{squad_roster.pk}/?share={token}", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-testid="read-only"' in page and squad_roster.name in page
    assert 'data-testid="submit"' not in page and "Поделиться" not in page and "/delete/" not in page
    # the reader cannot change it, whatever he posts
    assert other.post(f"/rosters/{squad_roster.pk}/delete/").status_code == 404
    assert other.post(f"/rosters/{squad_roster.pk}/share/").status_code == 404
    owner.post(f"/rosters/{squad_roster.pk}/unshare/")
    for path in _paths(squad_roster, share=token):
        assert other.get(path).status_code == 404, path
    owner.post(f"/rosters/{squad_roster.pk}/share/")
    squad_roster.refresh_from_db()
    assert squad_roster.share_token and squad_roster.share_token != token  # a new link, the old one stays dead


def test_a_roster_that_fought_in_a_battle_is_public_read_only(squad_roster, other, campaign):
    from battles.models import BattleParticipant
    from battles.services import battle_create

    battle = battle_create(campaign=campaign, name="Бой")
    BattleParticipant.objects.create(battle=battle, character=squad_roster.character, side="attacker",
                                     roster=squad_roster)
    for client in (other, Client()):
        for path in _paths(squad_roster):
            assert client.get(path).status_code == 200, path
    html = Client().get(f"/rosters/{squad_roster.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "has fought in a battle" in html and 'data-testid="submit"' not in html


def test_only_the_owner_or_the_game_master_turns_sharing_on(squad_roster, game_master):
    from django.contrib.auth.models import User

    from config.errors import Forbidden

    with pytest.raises(Forbidden):
        services.roster_share_set(user=User.objects.create_user(username="x"), roster=squad_roster, on=True)
    services.roster_share_set(user=game_master, roster=squad_roster, on=True)
    assert selectors.roster_readable(user=None, roster_id=squad_roster.pk, share=squad_roster.share_token)


def test_the_share_link_reaches_the_cards_pdf_and_the_page_links_carry_it(squad_roster, player, other):
    """A reader with the link follows the roster page's card links: the PDF
    answers him too, and stops answering once sharing is off."""
    import re

    services.roster_share_set(user=player, roster=squad_roster, on=True)
    squad_roster.refresh_from_db()
    token = squad_roster.share_token
    pdf = f"/api/rosters/{squad_roster.pk}/cards.pdf?layout=card&share={token}"
    assert other.get(f"/api/rosters/{squad_roster.pk}/cards.pdf?layout=card").status_code == 404
    r = Client().get(pdf)
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    page = other.get(f"/rosters/{squad_roster.pk}/?share={token}").content.decode()
    links = re.findall(r'href="([^"]*cards[^"]*)"', page)
    assert links and all(f"share={token}" in link for link in links), links
    preview = other.get(f"/cards/roster/{squad_roster.pk}/?share={token}").content.decode()
    assert f"share={token}" in preview
    services.roster_share_set(user=player, roster=squad_roster, on=False)
    assert Client().get(pdf).status_code == 404

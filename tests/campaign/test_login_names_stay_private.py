"""Issue 27 §2: strangers learn no login names. A login name is half of a
password guess: the public pages and the anonymous API name characters, never
the accounts behind them. Who plays whom is for the player himself, the game
master and the players of a campaign the character serves in (they sit at one
table); they see the player's name (his full name, else his login name)."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from campaign import services
from campaign.models import Nationality

# Login names that appear nowhere else on a page (no "root" in CSS's :root, no "master" in "game master").
LOGINS = {"root": "rootlogin7", "master": "masterlogin7", "ivan": "ivanlogin7", "olga": "olgalogin7",
          "stranger": "strangerlogin7"}


def _user(key: str, group: str | None = None, **extra) -> User:
    user = User.objects.create_user(username=LOGINS[key], password="pw-" + key, **extra)
    if group:
        user.groups.add(Group.objects.get(name=group))
    return user


@pytest.fixture
def club(campaign):
    """A running campaign: ivan attacks, olga defends; a stranger plays elsewhere."""
    User.objects.create_superuser(LOGINS["root"], "root@example.com", "pw-root")
    gm = _user("master", "game_master", is_staff=True)
    campaign.game_master = gm
    campaign.save()
    su = Nationality.objects.get(code="su")
    cast = {}
    for key, side in [("ivan", "attacker"), ("olga", "defender")]:
        user = _user(key, "player")
        character = services.character_create(owner=user, name=f"Боец {side}", rank="corporal", nationality=su)
        m = services.membership_request(campaign=campaign, character=character)
        services.membership_assign_side(membership=m, side=side, by=gm)
        cast[key] = (user, character)
    stranger = _user("stranger", "player")
    cast["stranger"] = (stranger, services.character_create(owner=stranger, name="Чужой боец", rank="corporal",
                                                            nationality=su))
    services.campaign_start(campaign=campaign, by=gm)
    from battles.models import BattleParticipant
    from battles.services import battle_create

    campaign.battle = battle_create(campaign=campaign, name="Бой за высоту")
    for key, side in [("ivan", "attacker"), ("olga", "defender")]:
        BattleParticipant.objects.create(battle=campaign.battle, character=cast[key][1], side=side)
    campaign.cast, campaign.gm = cast, gm
    return campaign


def _pages(campaign) -> list[str]:
    ivan_char = campaign.cast["ivan"][1]
    return [
        f"/campaigns/{campaign.pk}/", f"/campaigns/{campaign.pk}/standings/", f"/campaigns/{campaign.pk}/chronicle/",
        f"/campaigns/{campaign.pk}/feed/", f"/characters/{ivan_char.pk}/",
        "/api/characters/", f"/api/characters/{ivan_char.pk}/", f"/api/campaigns/{campaign.pk}/",
        f"/api/campaigns/{campaign.pk}/standings/", f"/api/campaigns/{campaign.pk}/chronicle/", "/api/campaigns/",
        f"/api/battles/{campaign.battle.pk}/participants/",
    ]


def _leaks(client: Client, campaign, logins) -> dict[str, list[str]]:
    found = {}
    for url in _pages(campaign):
        r = client.get(url)
        assert r.status_code == 200, url
        body = r.content.decode()
        hits = [name for name in logins if name in body]
        if hits:
            found[url] = hits
    return found


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_anonymous_pages_and_api_name_no_account(club, lang):
    assert _leaks(Client(HTTP_ACCEPT_LANGUAGE=lang), club, LOGINS.values()) == {}


def test_the_feed_names_no_login_for_its_author(club):
    body = Client().get(f"/campaigns/{club.pk}/feed/").content.decode()
    assert LOGINS["master"] not in body and "<author>" in body
    club.gm.first_name, club.gm.last_name = "Сергей", "Волков"
    club.gm.save()
    assert "Сергей Волков" in Client().get(f"/campaigns/{club.pk}/feed/").content.decode()


def test_a_logged_in_stranger_learns_no_other_login(club):
    client = Client()
    client.force_login(club.cast["stranger"][0])
    others = [v for k, v in LOGINS.items() if k != "stranger"]
    assert _leaks(client, club, others) == {}


def _player_of(client: Client, character) -> tuple[object, str]:
    api = client.get(f"/api/characters/{character.pk}/").json()["character"]["player"]
    page = client.get(f"/characters/{character.pk}/").content.decode()
    return api, page


def test_a_fellow_player_sees_who_plays_whom(club):
    client = Client()
    client.force_login(club.cast["ivan"][0])
    olga, olga_char = club.cast["olga"]
    api, page = _player_of(client, olga_char)
    assert api == LOGINS["olga"] and LOGINS["olga"] in page
    olga.first_name, olga.last_name = "Ольга", "Смирнова"
    olga.save()
    api, page = _player_of(client, olga_char)
    assert api == "Ольга Смирнова" and "Ольга Смирнова" in page and LOGINS["olga"] not in page
    listed = {c["id"]: c["player"] for c in client.get("/api/characters/").json()}
    assert listed[olga_char.pk] == "Ольга Смирнова"
    assert listed[club.cast["ivan"][1].pk] == LOGINS["ivan"], "his own"
    assert listed[club.cast["stranger"][1].pk] is None, "not in his campaign"


def test_the_game_master_sees_every_player(club):
    client = Client()
    client.force_login(club.gm)
    listed = {c["id"]: c["player"] for c in client.get("/api/characters/").json()}
    assert sorted(listed.values()) == sorted([LOGINS["ivan"], LOGINS["olga"], LOGINS["stranger"]])
    assert LOGINS["stranger"] in _player_of(client, club.cast["stranger"][1])[1]


def test_the_character_list_reads_in_fixed_queries(club, django_assert_max_num_queries):
    client = Client()
    client.force_login(club.cast["ivan"][0])
    client.get("/api/characters/")
    with django_assert_max_num_queries(6):
        assert len(client.get("/api/characters/").json()) == 3


def test_the_participants_api_names_players_to_the_table_only(club):
    url = f"/api/battles/{club.battle.pk}/participants/"
    assert {p["player"] for p in Client().get(url).json()} == {None}
    client = Client()
    client.force_login(club.cast["ivan"][0])
    assert {p["player"] for p in client.get(url).json()} == {LOGINS["ivan"], LOGINS["olga"]}

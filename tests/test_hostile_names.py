"""Names are data, never markup (issue 10, stored XSS).

A player names his character, his roster, its units and vehicle, and the game
master names the campaign, its sides, objectives and a battle, each with a
string that would run script if it were written into HTML unescaped. Every
page, feed and API answer that shows them must carry them as text: the raw
payload never appears in HTML, in the Atom feed's HTML summaries, or in the
HTML fragments the live battle page swaps in.
"""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils.html import escape

IMG = '"><img src=x onerror=alert(1)>'
SCRIPT = "</script><script>alert(1)</script>"
PAYLOADS = (IMG, SCRIPT)
ATOM = "{http://www.w3.org/2005/Atom}"


def _strings(value, key=""):
    """Every (key, string) of a decoded JSON document."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(v, str(k))
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v, key)
    elif isinstance(value, str):
        yield key, value


def assert_names_inert(url: str, response) -> None:
    """HTML and XML never carry a payload raw; an HTML-typed Atom element and
    an ``*_html`` JSON fragment are HTML too, so the payload must arrive in
    them escaped. JSON data may carry the name as it is: it is served as
    JSON, never sniffed as HTML (nosniff)."""
    assert response.status_code == 200, f"{url}: {response.status_code}"
    ctype = response.get("Content-Type", "")
    body = response.content.decode()
    if "json" in ctype:
        assert response.get("X-Content-Type-Options") == "nosniff", url
        for key, text in _strings(json.loads(body)):
            if key.endswith("_html"):
                for p in PAYLOADS:
                    assert p not in text, f"{url}: {key} writes a name as live HTML"
        return
    assert "html" in ctype or "xml" in ctype, f"{url}: unexpected {ctype}"
    for p in PAYLOADS:
        assert p not in body, f"{url}: the name {p!r} is written unescaped"
    if "atom" in ctype:
        for el in ET.fromstring(response.content).iter():
            if el.get("type") == "html":
                for p in PAYLOADS:
                    assert p not in (el.text or ""), f"{url}: {el.tag} holds the name as live HTML"


@pytest.fixture
def hostile(db, game_master):
    """A concluded battle of a running campaign, every name hostile; and a
    second battle still being played, seen by a participant."""
    from battles import results
    from battles.services import NewEvent, battle_event_append, battle_replay
    from battles.setup.muster import battle_muster, battle_participant_add, battle_schedule, rosters_release
    from campaign import services
    from campaign.models import AwardRule, Campaign, Nationality, Objective
    from rosters import services as rosters
    from tests.battles.conftest import cls

    AwardRule.objects.all().delete()
    campaign = Campaign.objects.create(name=IMG, attacker_name=SCRIPT, defender_name=IMG, description=SCRIPT)
    AwardRule.objects.create(campaign=campaign, metric="battles_won", threshold=1, promotion=True)
    hill = Objective.objects.create(campaign=campaign, name=IMG, initial_holder="defender")
    Objective.objects.create(campaign=campaign, name=SCRIPT, initial_holder="attacker")
    ns = type("Hostile", (), {})()
    ns.campaign, ns.gm = campaign, game_master
    for username, name, side in (("ivan", IMG, "defender"), ("hans", SCRIPT, "attacker")):
        user = User.objects.create_user(username=username, password="pw-" + username)
        user.groups.add(Group.objects.get(name="player"))
        character = services.character_create(owner=user, name=name, rank="lieutenant",
                                              nationality=Nationality.objects.get(code="su"))
        m = services.membership_request(campaign=campaign, character=character)
        services.membership_assign_side(membership=m, side=side, by=game_master)
        setattr(ns, username, user)
        setattr(ns, f"{username}_char", character)
    services.campaign_start(campaign=campaign, by=game_master)
    for username in ("ivan", "hans"):
        user, character = getattr(ns, username), getattr(ns, f"{username}_char")
        roster = rosters.roster_create(user=user, character=character, name=IMG + SCRIPT, campaign=campaign)
        rosters.fighter_add(user=user, roster=roster, infantry_class=cls("lieutenant"))
        unit = rosters.unit_add(user=user, roster=roster, kind="squad", name=SCRIPT + IMG)
        for team, leader in ((1, "sergeant"), (2, "corporal")):
            rosters.fighter_add(user=user, roster=roster, infantry_class=cls(leader), unit=unit, fire_team=team)
            rosters.fighter_add(user=user, roster=roster, infantry_class=cls("rifleman"), count=4, unit=unit,
                                fire_team=team)
        vehicle = rosters.vehicle_add(user=user, roster=roster, kind="tank", name=IMG, armour_class=3, gun_class=3)
        rosters.fighter_add(user=user, roster=roster, infantry_class=cls("corporal"), vehicle=vehicle)
        rosters.fighter_add(user=user, roster=roster, infantry_class=cls("personnel"), count=2, vehicle=vehicle)
        rosters.roster_submit(user=user, roster=roster)
        roster.refresh_from_db()
        setattr(ns, f"{username}_roster", roster)

    def battle(name):
        b = battle_schedule(user=game_master, campaign=campaign, name=name, mission=SCRIPT,
                            victory_conditions=IMG, objectives=[hill.id])
        battle_participant_add(user=game_master, battle=b, character=ns.ivan_char, roster=ns.ivan_roster)
        battle_participant_add(user=game_master, battle=b, character=ns.hans_char, roster=ns.hans_roster)
        return b

    ns.done, ns.playing = battle(IMG), battle(SCRIPT)
    battle_muster(user=game_master, battle=ns.done)
    battle_event_append(battle_id=ns.done.id, events=[NewEvent("battle_ended", {"winner": "attacker"})],
                        expected_seq=None, as_game_master=True)
    battle_replay(battle_id=ns.done.id)
    results.battle_conclude(battle_id=ns.done.id)
    rosters_release(ns.done.id)
    battle_muster(user=game_master, battle=ns.playing)
    battle_replay(battle_id=ns.playing.id)
    return ns


@pytest.mark.django_db
def test_hostile_names_are_text_on_every_page_feed_and_api(hostile):
    from campaign.models import CampaignEvent, Objective, Proposal

    h = hostile
    c, done, playing = h.campaign.id, h.done.id, h.playing.id
    assert CampaignEvent.objects.filter(campaign=h.campaign, type="objective_changed").exists()
    proposal = Proposal.objects.filter(campaign=h.campaign).first()
    assert proposal is not None, "the award rule should have proposed a promotion"
    roster = h.ivan_roster.id
    character = h.ivan_char.id
    objective = Objective.objects.filter(campaign=h.campaign).first().id

    public = [
        "/", f"/campaigns/{c}/", f"/campaigns/{c}/standings/", f"/campaigns/{c}/chronicle/",
        f"/campaigns/{c}/feed/", f"/campaigns/{c}/?as_of=1", f"/characters/{character}/",
        f"/battles/{done}/", f"/battles/{playing}/",
        f"/battles/{playing}/live/?since=0&state=0", f"/battles/{done}/live/?since=0&state=0",
        "/api/campaigns/", f"/api/campaigns/{c}/", f"/api/campaigns/{c}/standings/",
        f"/api/campaigns/{c}/chronicle/", "/api/characters/", f"/api/characters/{character}/", "/api/battles/",
        f"/api/battles/{done}/", f"/api/battles/{done}/events/", f"/api/battles/{done}/state/",
        f"/api/battles/{playing}/state/", "/api/events/",
    ]
    player = [
        "/characters/", "/rosters/", f"/rosters/{roster}/", f"/rosters/{roster}/edit/", f"/cards/roster/{roster}/",
        f"/cards/character/{character}/",  # the owner's and the game master's only (issue 12)
        f"/battles/{playing}/", f"/battles/{playing}/?record=fire", f"/battles/{playing}/?record=fighters_moved",
        f"/battles/{playing}/live/?since=0&state=0", f"/campaigns/{c}/join/",
        f"/api/rosters/{roster}/", f"/api/rosters/{roster}/export/", "/api/rosters/",
    ]
    master = [
        f"/battles/{done}/", f"/battles/{playing}/", f"/battles/{playing}/setup/", f"/battles/{done}/setup/",
        f"/campaigns/{c}/battles/new/", f"/campaigns/{c}/", "/api/proposals/",
        f"/api/battles/{playing}/participants/", f"/api/battles/{playing}/events/",
        f"/admin/campaign/campaign/{c}/change/", "/admin/campaign/campaign/",
        f"/admin/campaign/character/{character}/change/", "/admin/campaign/character/",
        f"/admin/campaign/proposal/{proposal.id}/change/", "/admin/campaign/proposal/",
        f"/admin/battles/battle/{done}/change/", f"/admin/battles/battle/{playing}/change/", "/admin/battles/battle/",
        f"/admin/rosters/roster/{roster}/change/", "/admin/rosters/roster/", "/admin/campaign/membership/",
        "/admin/campaign/campaignevent/", "/admin/battles/battleevent/", f"/admin/campaign/objective/{objective}/change/"
        if _registered("objective") else "/admin/",
    ]
    shown = set()
    for who, urls in ((None, public), (h.ivan, player), (h.gm, master)):
        client = Client()
        if who is not None:
            client.force_login(who)
        for lang in ("ru", "en"):
            for url in urls:
                response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
                assert_names_inert(url, response)
                if escape(IMG) in response.content.decode() or escape(SCRIPT) in response.content.decode():
                    shown.add(url)
    # the probe is not vacuous: the names are on the pages, as text
    for url in (f"/campaigns/{c}/", f"/campaigns/{c}/standings/", f"/campaigns/{c}/chronicle/",
                f"/characters/{character}/", f"/battles/{done}/", f"/battles/{playing}/?record=fire",
                f"/rosters/{roster}/", f"/cards/roster/{roster}/", f"/battles/{playing}/setup/",
                f"/admin/campaign/proposal/{proposal.id}/change/"):
        assert url in shown, f"{url} does not show the hostile names at all"


def _registered(model_name: str) -> bool:
    from django.contrib import admin

    return any(m._meta.model_name == model_name for m in admin.site._registry)

"""A short campaign end to end: two battles through the API, replayed by the
worker (a real Celery worker process under CI), concluded into the campaign,
proposals approved in the admin, the character promoted, standings updated,
and "as of battle 1" still showing the old rank."""
import pytest
from django.test import Client
from rest_framework.test import APIClient

from battles.models import BattleParticipant
from campaign import services
from campaign.models import AwardRule, Campaign, CampaignEvent, Membership, Nationality, Objective, Proposal


def _poll(fn, timeout=30.0):
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = fn()
        if value:
            return value
        time.sleep(0.1)
    return fn()


@pytest.mark.django_db(transaction=True)
@pytest.mark.worker
def test_a_short_campaign(replay_worker, game_master):
    from django.contrib.auth.models import Group, User

    AwardRule.objects.all().delete()
    AwardRule.objects.create(metric="objectives_taken", threshold=1, promotion=True)
    campaign = Campaign.objects.create(name="Кампания", attacker_name="Вермахт", defender_name="РККА")
    hill = Objective.objects.create(campaign=campaign, name="Высота 252", initial_holder="defender")
    bridge = Objective.objects.create(campaign=campaign, name="Мост", initial_holder="defender")
    su = Nationality.objects.get(code="su")
    players = {}
    for name, rank, side in [("petrov", "sergeant", "attacker"), ("hans", "lieutenant", "defender")]:
        user = User.objects.create_user(name, password="pw")
        user.groups.add(Group.objects.get(name="player"))
        character = services.character_create(owner=user, name=name.title(), nationality=su, rank=rank)
        m = services.membership_request(campaign=campaign, character=character)
        services.membership_assign_side(membership=m, side=side, by=game_master)
        players[name] = (user, character)
    services.campaign_start(campaign=campaign, by=game_master)

    gm = APIClient()
    gm.force_authenticate(game_master)
    table = APIClient()
    table.force_authenticate(players["petrov"][0])

    def play(number, objective, winner):
        r = gm.post("/api/battles/", {"campaign": campaign.id, "name": f"Бой {number}", "number": number,
                                      "mission": "Взять объект", "objectives": [objective.id]}, format="json")
        assert r.status_code == 201, r.json()
        battle_id = r.json()["id"]
        muster = [{"type": "force_mustered", "data": {"side": side, "units": [{"id": f"{side[0]}1", "commander": f"{side[0]}o"}],
                   "fighters": [{"id": f"{side[0]}o", "unit": f"{side[0]}1", "cls": "officer", "rank": rank,
                                 "character": str(players[who][1].id)},
                                {"id": f"{side[0]}r", "unit": f"{side[0]}1"}]}}
                  for side, who, rank in [("defender", "hans", "lieutenant"), ("attacker", "petrov", "sergeant")]]
        muster.append({"type": "battle_started", "data": {"attacker": "Вермахт", "defender": "РККА"}})
        for side, who in [("attacker", "petrov"), ("defender", "hans")]:
            BattleParticipant.objects.create(battle_id=battle_id, character=players[who][1], side=side)
        # the game master musters the forces and starts the battle (V-TURN-2: before that the log is his
        # alone); the players at the table end it
        r = gm.post(f"/api/battles/{battle_id}/events/", {"expected_seq": 0, "events": muster}, format="json")
        assert r.status_code == 201, r.json()
        table_events = [{"type": "battle_ended", "data": {"winner": winner}}]
        r = table.post(f"/api/battles/{battle_id}/events/", {"expected_seq": len(muster), "events": table_events},
                       format="json")
        assert r.status_code == 201, r.json()
        events = [*muster, *table_events]
        assert replay_worker.wait(battle_id, len(events)) is not None
        # the worker concludes the battle into the campaign after the replay
        assert _poll(lambda: CampaignEvent.objects.filter(battle_id=battle_id, type="battle_result").exists())
        return battle_id

    b1 = play(1, hill, "attacker")
    b2 = play(2, bridge, "defender")  # the defender holds the bridge: no change of hands

    proposals = _poll(lambda: list(Proposal.objects.filter(campaign=campaign, status="pending")))
    assert [(p.character.name, p.battle_id, p.to_rank) for p in proposals] == [("Petrov", b1, "lieutenant")]

    admin = Client()
    admin.force_login(User.objects.create_superuser("root", "root@example.com", "pw"))
    r = admin.post("/admin/campaign/proposal/", {"action": "approve", "_selected_action": [proposals[0].pk]})
    assert r.status_code == 302

    petrov = players["petrov"][1]
    petrov.refresh_from_db()
    assert petrov.rank == "lieutenant"
    public = APIClient()
    now = {row["name"]: row for row in public.get(f"/api/campaigns/{campaign.id}/standings/").json()["results"]}
    assert now["Petrov"]["rank"] == "lieutenant" and now["Petrov"]["battles"] == 2
    assert now["Petrov"]["prestige"] == 45 + 40
    then = {row["name"]: row for row in
            public.get(f"/api/campaigns/{campaign.id}/standings/", {"as_of": 1}).json()["results"]}
    assert then["Petrov"]["rank"] == "sergeant" and then["Petrov"]["battles"] == 1
    overview = public.get(f"/api/campaigns/{campaign.id}/").json()
    assert [(b["id"], b["result"]) for b in overview["battles"]] == [(b1, "attacker"), (b2, "defender")]
    assert overview["sides"]["attacker"]["won"] == 1 and overview["sides"]["defender"]["won"] == 1
    holders = {o["name"]: o["holder"] for o in overview["objectives"]}
    assert holders == {"Высота 252": "attacker", "Мост": "defender"}
    html = Client().get(f"/campaigns/{campaign.id}/standings/?as_of=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Petrov" in html
    assert Membership.objects.filter(campaign=campaign, status="active").count() == 2

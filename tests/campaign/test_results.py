"""A finished battle feeds the campaign: results, service records, objectives,
and award/promotion proposals the game master decides (V-RANK-4, G-14)."""
import pytest

from battles import engine, results, tasks
from battles.engine.state import Credit, Fighter, Unit
from battles.models import BattleProjection
from battles.services import NewEvent, battle_create, battle_event_append
from campaign import services
from campaign.models import Award, AwardRule, CampaignEvent, Objective, Proposal, Standing
from config.errors import Conflict, Forbidden


def finish(battle, *, winner, credits=None, fighters=(), units=()):
    """Append a real start/end to the log, then give the projection the
    engine state a played battle would have (credits per character)."""
    battle_event_append(battle_id=battle.id, expected_seq=None, events=[
        NewEvent("battle_started", {"attacker": "A", "defender": "D"}),
        NewEvent("battle_ended", {"winner": winner})])
    state = engine.BattleState(status="ended", winner=winner, turn=3, last_seq=2)
    for cid, kw in (credits or {}).items():
        state.characters[str(cid)] = Credit(**kw)
    for f in fighters:
        state.fighters[f.id] = f
    for u in units:
        state.units[u.id] = u
    BattleProjection.objects.filter(battle=battle).update(seq=2, state=engine.state_to_json(state))


@pytest.fixture
def rules(db):
    AwardRule.objects.all().delete()
    medal = Award.objects.create(code="medal", name_ru="Медаль", name_en="Medal")
    return {
        "kills": AwardRule.objects.create(metric="kills", threshold=3, award=medal),
        "held": AwardRule.objects.create(metric="held_after_morale", threshold=1, award=medal),
        "wounded": AwardRule.objects.create(metric="survived_wounded", threshold=1, award=medal),
        "objective": AwardRule.objects.create(metric="objectives_taken", threshold=1, promotion=True),
    }


def cid(campaign, name):
    return campaign.cast[name][1].pk


@pytest.mark.django_db
class TestConclusion:
    def test_results_and_service_records_are_recorded_with_their_source(self, running, rules):
        battle = battle_create(campaign=running, name="Бой 1")
        petrov = cid(running, "petrov")
        finish(battle, winner="attacker", credits={petrov: {"kills": 4, "wounded": 1}})
        results.battle_conclude(battle_id=battle.id)
        result = CampaignEvent.objects.get(battle=battle, type="battle_result")
        assert result.data["winner"] == "attacker" and result.source_event.type == "battle_ended"
        fought = CampaignEvent.objects.get(battle=battle, type="battle_fought", character_id=petrov)
        assert fought.data["kills"] == 4 and fought.data["casualties"] == 1 and fought.data["battles_won"] == 1
        standing = Standing.objects.get(campaign=running, character_id=petrov)
        assert (standing.battles, standing.kills, standing.casualties) == (1, 4, 1)
        assert running.projection.data["sides"]["attacker"]["won"] == 1

    def test_each_seated_participant_is_recorded_though_the_state_names_none_of_his_figures(self, running, rules):
        """A FoW battle's state names no character (its teams are nobody's figure): the battle's participants
        are recorded from their seats, each having fought for his side and won or lost with it (G-14); a
        character the state names keeps his credits, and one not seated nor named is not recorded."""
        from battles.models import BattleParticipant

        battle = battle_create(campaign=running, name="Бой у разъезда")
        petrov, hans, fritz = (cid(running, n) for n in ("petrov", "hans", "fritz"))
        for character, side in ((petrov, "attacker"), (hans, "defender")):
            BattleParticipant.objects.create(battle=battle, character_id=character, side=side)
        finish(battle, winner="defender", credits={fritz: {"kills": 1}})
        results.battle_conclude(battle_id=battle.id)
        fought = {e.character_id: e.data for e in CampaignEvent.objects.filter(battle=battle, type="battle_fought")}
        assert sorted(fought) == sorted([petrov, hans, fritz])
        assert (fought[petrov]["side"], fought[petrov]["battles_won"]) == ("attacker", 0)
        assert (fought[hans]["side"], fought[hans]["battles_won"]) == ("defender", 1)
        assert fought[fritz]["kills"] == 1 and cid(running, "sidorov") not in fought
        assert Standing.objects.get(campaign=running, character_id=hans).battles == 1

    def test_v_rank_4_proposals_are_made_but_nothing_is_granted_automatically(self, running, rules):
        battle = battle_create(campaign=running, name="Бой 1")
        petrov, sidorov = cid(running, "petrov"), cid(running, "sidorov")
        finish(battle, winner="defender", credits={petrov: {"kills": 3}, sidorov: {"kills": 2}})
        made = results.battle_conclude(battle_id=battle.id)
        assert [(p.character_id, p.rule_id) for p in made] == [(petrov, rules["kills"].id)]
        p = made[0]
        assert p.status == "pending" and p.facts["metrics"]["kills"] == 3 and p.facts["source_seq"] == 2
        assert not CampaignEvent.objects.filter(type="award_granted").exists()

    def test_running_the_policy_again_never_duplicates(self, running, rules):
        battle = battle_create(campaign=running, name="Бой 1")
        finish(battle, winner="attacker", credits={cid(running, "petrov"): {"kills": 5}})
        results.battle_conclude(battle_id=battle.id)
        before = (Proposal.objects.count(), CampaignEvent.objects.count())
        assert results.battle_conclude(battle_id=battle.id) == []
        assert (Proposal.objects.count(), CampaignEvent.objects.count()) == before

    def test_objectives_at_stake_pass_to_the_winner_and_propose_a_promotion(self, running, rules, game_master):
        hill = Objective.objects.create(campaign=running, name="Высота", initial_holder="defender")
        battle = battle_create(campaign=running, name="За высоту")
        battle.objectives.add(hill)
        sidorov = cid(running, "sidorov")
        finish(battle, winner="attacker", credits={sidorov: {}})
        made = results.battle_conclude(battle_id=battle.id)
        change = CampaignEvent.objects.get(type="objective_changed", battle=battle)
        assert (change.data["from"], change.data["to"]) == ("", "attacker")
        assert running.projection.data["objectives"][str(hill.pk)]["holder"] == "attacker"
        promo = [p for p in made if p.rule_id == rules["objective"].id]
        assert promo and promo[0].to_rank == "sergeant"

    def test_units_that_held_after_morale_and_wounded_survivors(self, running, rules):
        battle = battle_create(campaign=running, name="Оборона")
        hans = cid(running, "hans")
        officer = Fighter(id="f1", side="defender", unit="u1", rank="lieutenant", character=str(hans), wounded=True)
        finish(battle, winner="defender", credits={hans: {}}, fighters=[officer],
               units=[Unit(id="u1", side="defender", commander="f1", morale="dug_in")])
        made = {p.rule_id for p in results.battle_conclude(battle_id=battle.id)}
        assert {rules["held"].id, rules["wounded"].id} <= made

    def test_an_unfinished_or_lagging_battle_is_not_concluded(self, running, rules):
        battle = battle_create(campaign=running, name="идёт")
        battle_event_append(battle_id=battle.id, expected_seq=0,
                            events=[NewEvent("battle_started", {"attacker": "A", "defender": "D"})])
        assert results.battle_conclude(battle_id=battle.id) == []
        assert results.battles_unconcluded() == []


@pytest.mark.django_db
class TestDecisions:
    @pytest.fixture
    def proposals(self, running, rules):
        battle = battle_create(campaign=running, name="Бой 1")
        hill = Objective.objects.create(campaign=running, name="Высота")
        battle.objectives.add(hill)
        finish(battle, winner="attacker", credits={cid(running, "petrov"): {"kills": 3}})
        return {p.rule_id: p for p in results.battle_conclude(battle_id=battle.id)}

    def test_v_rank_4_approving_an_award_appends_it_and_standings_follow(self, running, rules, proposals,
                                                                         game_master):
        p = proposals[rules["kills"].id]
        services.proposal_decide(proposal=p, approve=True, by=game_master, note="за Высоту")
        ev = CampaignEvent.objects.get(type="award_granted")
        assert ev.data["proposal"] == p.pk and ev.data["note"] == "за Высоту"
        assert Standing.objects.get(character=p.character).awards == 1

    def test_approving_a_promotion_changes_the_rank_through_an_event(self, running, rules, proposals, game_master):
        p = proposals[rules["objective"].id]
        services.proposal_decide(proposal=p, approve=True, by=game_master)
        p.character.refresh_from_db()
        assert p.character.rank == "lieutenant"  # petrov was a sergeant
        assert CampaignEvent.objects.get(type="promotion").data == {"proposal": p.pk, "note": "",
                                                                   "from": "sergeant", "to": "lieutenant"}
        assert Standing.objects.get(character=p.character).rank == "lieutenant"

    def test_rejection_is_recorded_and_a_decision_is_final(self, proposals, rules, game_master):
        p = proposals[rules["kills"].id]
        services.proposal_decide(proposal=p, approve=False, by=game_master, note="нет")
        assert CampaignEvent.objects.filter(type="proposal_rejected").count() == 1
        with pytest.raises(Conflict):
            services.proposal_decide(proposal=p, approve=True, by=game_master)

    def test_only_the_game_master_decides(self, proposals, rules, running):
        with pytest.raises(Forbidden):
            services.proposal_decide(proposal=proposals[rules["kills"].id], approve=True,
                                     by=running.cast["petrov"][0])

    def test_admin_list_action_and_detail_decision(self, proposals, rules, game_master):
        from django.contrib.auth.models import User
        from django.test import Client

        admin = User.objects.create_superuser("boss", "b@example.com", "pw")
        c = Client()
        c.force_login(admin)
        kills, promo = proposals[rules["kills"].id], proposals[rules["objective"].id]
        page = c.get(f"/admin/campaign/proposal/{kills.pk}/change/")
        assert page.status_code == 200 and "decide-form" in page.content.decode()
        c.post(f"/admin/campaign/proposal/{kills.pk}/decide/", {"reject": "1", "note": "мало"})
        kills.refresh_from_db()
        assert (kills.status, kills.note) == ("rejected", "мало")
        c.post("/admin/campaign/proposal/", {"action": "approve", "_selected_action": [promo.pk]})
        promo.refresh_from_db()
        assert promo.status == "approved"

    def test_decide_through_the_api(self, proposals, rules, gm_client, running):
        from rest_framework.test import APIClient

        p = proposals[rules["kills"].id]
        listed = gm_client.get("/api/proposals/", {"status": "pending"}).json()
        assert {x["id"] for x in listed} == {x.pk for x in proposals.values()}
        player = APIClient()
        player.force_authenticate(running.cast["petrov"][0])
        assert player.post(f"/api/proposals/{p.pk}/decide/", {"approve": True}, format="json").status_code == 403
        r = gm_client.post(f"/api/proposals/{p.pk}/decide/", {"approve": "yes"}, format="json")
        assert r.status_code == 400 and r.json()["error"]["field"] == "approve"
        r = gm_client.post(f"/api/proposals/{p.pk}/decide/", {"approve": True}, format="json")
        assert r.status_code == 200 and r.json()["status"] == "approved"


@pytest.mark.django_db
def test_the_sweep_concludes_an_ended_battle_whose_message_was_lost(running, rules, monkeypatch):
    battle = battle_create(campaign=running, name="потерянный")
    finish(battle, winner="attacker", credits={cid(running, "petrov"): {"kills": 3}})
    assert results.battles_unconcluded() == [battle.id]
    queued = []
    monkeypatch.setattr(tasks.conclude_battle, "delay", queued.append)
    assert tasks.sweep_unconcluded_battles.run() == [battle.id] and queued == [battle.id]
    tasks.conclude_battle.run(battle.id)
    assert results.battles_unconcluded() == []

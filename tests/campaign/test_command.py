"""Pre-battle command (ЗВАНИЯ, «Определение командира»): V-RANK-9…12."""
import pytest

from battles.table import command
from campaign.models import CampaignEvent
from config.errors import Forbidden, RuleRefused


def entered(v):
    return {"value": v, "source": "entered"}


@pytest.fixture
def battle1(running):
    from battles.services import battle_create

    return battle_create(campaign=running, name="Бой за высоту")


def ids(campaign, *names):
    return [campaign.cast[n][1].pk for n in names]


@pytest.mark.django_db
class TestCommandRoll:
    def test_v_rank_10_highest_roll_becomes_captain(self, running, battle1, game_master):
        """V-RANK-9/10: the players of one side roll; the highest is captain."""
        a, b = ids(running, "petrov", "sidorov")
        st = command.command_roll(battle=battle1, side="attacker", rolls={a: entered(7), b: entered(15)},
                                   by=game_master)
        assert st.captain == b and st.rounds == 1
        ev = CampaignEvent.objects.get(battle=battle1, type="command_roll")
        assert ev.data["rolls"][str(b)] == {"value": 15, "source": "entered"}

    def test_v_rank_10_g_13_a_tie_is_rerolled_by_the_tied_players_only(self, running, battle1, game_master):
        a, b = ids(running, "petrov", "sidorov")
        st = command.command_roll(battle=battle1, side="attacker", rolls={a: entered(12), b: entered(12)},
                                   by=game_master)
        assert st.captain is None and st.contenders == sorted([a, b])
        with pytest.raises(RuleRefused) as exc:
            command.command_roll(battle=battle1, side="attacker", rolls={a: entered(3)}, by=game_master)
        assert exc.value.rule_id == "V-RANK-10"
        st = command.command_roll(battle=battle1, side="attacker", rolls={a: entered(2), b: entered(1)},
                                   by=game_master)
        assert st.captain == a and st.rounds == 2

    def test_v_rank_9_only_players_of_that_side_roll(self, running, battle1, game_master):
        a = ids(running, "petrov")[0]
        enemy = ids(running, "hans")[0]
        with pytest.raises(RuleRefused) as exc:
            command.command_roll(battle=battle1, side="attacker", rolls={a: entered(5), enemy: entered(20)},
                                  by=game_master)
        assert exc.value.rule_id == "V-RANK-9"

    def test_the_service_rolls_a_committed_d20_when_asked(self, running, battle1, game_master):
        """V-RANK-9/10: a die the service rolls is derived from the battle's committed secret
        (docs/verify.md "Committed dice"), at seq 0, path ["command_roll", side, round, character]."""
        from battles.log import dice_commit

        a, b = ids(running, "petrov", "sidorov")
        command.command_roll(battle=battle1, side="attacker", rolls={a: {"source": "rolled"}, b: None},
                              by=game_master)
        rolls = CampaignEvent.objects.get(battle=battle1, type="command_roll").data["rolls"]
        key = bytes.fromhex(battle1.dice_secret)
        for cid, die in rolls.items():
            assert die == {"source": "rolled", "rng": "hmac-sha256", "value": dice_commit.derive(
                key, battle_id=battle1.id, seq=0, path=["command_roll", "attacker", 1, cid], sides=20)}

    @pytest.mark.parametrize("value", [0, 21, "7"])
    def test_an_entered_die_outside_1_to_20_names_the_field(self, running, battle1, game_master, value):
        from config.errors import InvalidInput

        a, b = ids(running, "petrov", "sidorov")
        with pytest.raises(InvalidInput) as exc:
            command.command_roll(battle=battle1, side="attacker", rolls={a: entered(value), b: entered(3)},
                                  by=game_master)
        assert exc.value.field == f"rolls.{a}.value"

    def test_a_player_of_the_other_side_cannot_record_the_roll(self, running, battle1):
        hans = running.cast["hans"][0]
        a, b = ids(running, "petrov", "sidorov")
        with pytest.raises(Forbidden):
            command.command_roll(battle=battle1, side="attacker", rolls={a: entered(1), b: entered(2)}, by=hans)


@pytest.mark.django_db
class TestCommandAssign:
    def _captain(self, running, battle1, game_master):
        a, b = ids(running, "petrov", "sidorov")
        command.command_roll(battle=battle1, side="attacker", rolls={a: entered(20), b: entered(1)}, by=game_master)
        return a, b

    def test_v_rank_11_the_captain_assigns_every_other_player_a_post_and_rank(self, running, battle1, game_master):
        a, b = self._captain(running, battle1, game_master)
        captain_user = running.cast["petrov"][0]
        command.command_assign(battle=battle1, side="attacker", by=captain_user,
                                posts={b: {"post": "командир 1-го взвода", "rank": "lieutenant"}})
        ev = CampaignEvent.objects.get(battle=battle1, type="command_assigned")
        assert ev.data["captain"] == a and ev.data["posts"][str(b)]["rank"] == "lieutenant"

    def test_v_rank_11_leaving_a_player_without_a_post_is_refused(self, running, battle1, game_master):
        self._captain(running, battle1, game_master)
        with pytest.raises(RuleRefused) as exc:
            command.command_assign(battle=battle1, side="attacker", by=game_master, posts={})
        assert exc.value.rule_id == "V-RANK-11"

    def test_v_rank_11_only_the_captain_or_master_assigns(self, running, battle1, game_master):
        a, b = self._captain(running, battle1, game_master)
        with pytest.raises(Forbidden):
            command.command_assign(battle=battle1, side="attacker", by=running.cast["sidorov"][0],
                                    posts={b: {"post": "x", "rank": "sergeant"}})

    def test_v_rank_10_no_assignment_before_the_roll(self, running, battle1, game_master):
        b = ids(running, "sidorov")[0]
        with pytest.raises(RuleRefused) as exc:
            command.command_assign(battle=battle1, side="attacker", by=game_master,
                                    posts={b: {"post": "x", "rank": "sergeant"}})
        assert exc.value.rule_id == "V-RANK-10"

    def test_v_rank_12_repeated_before_every_battle_and_the_card_rank_is_unchanged(self, running, game_master):
        """V-RANK-12: command is determined per battle; the character's campaign
        rank (on his card) does not change with the battle post."""
        from battles.services import battle_create

        a, b = ids(running, "petrov", "sidorov")
        for n, (va, vb) in enumerate([(20, 1), (1, 20)], start=1):
            battle = battle_create(campaign=running, name=f"Бой {n}")
            st = command.command_roll(battle=battle, side="attacker", rolls={a: entered(va), b: entered(vb)},
                                       by=game_master)
            other = b if st.captain == a else a
            command.command_assign(battle=battle, side="attacker", by=game_master,
                                    posts={other: {"post": "взвод", "rank": "lieutenant"}})
        captains = [e.data["captain"] for e in CampaignEvent.objects.filter(type="command_assigned").order_by("id")]
        assert captains == [a, b]
        running.cast["sidorov"][1].refresh_from_db()
        assert running.cast["sidorov"][1].rank == "corporal"

    def test_command_is_shown_on_the_battle_page(self, running, battle1, game_master, client):
        self._captain(running, battle1, game_master)
        html = client.get(f"/battles/{battle1.id}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert "Бросок на командование" in html or "Command roll" in html

    @pytest.mark.parametrize("body", [5, [1, 2], "x", True])
    def test_a_body_that_is_not_an_object_is_400_naming_the_body(self, running, battle1, body):
        """Found by Schemathesis under CI: a JSON number as the body was a 500."""
        from rest_framework.test import APIClient

        c = APIClient()
        c.force_authenticate(running.cast["petrov"][0])
        for url in (f"/api/battles/{battle1.id}/command/roll/", f"/api/battles/{battle1.id}/command/assign/"):
            r = c.post(url, body, format="json")
            assert r.status_code == 400, (url, r.content)
            assert r.json()["error"]["field"] == "body"

    def test_command_through_the_api(self, running, battle1):
        from rest_framework.test import APIClient

        a, b = ids(running, "petrov", "sidorov")
        c = APIClient()
        c.force_authenticate(running.cast["petrov"][0])
        r = c.post(f"/api/battles/{battle1.id}/command/roll/",
                   {"side": "attacker", "rolls": {str(a): entered(18), str(b): entered(4)}}, format="json")
        assert r.status_code == 201 and r.json()["captain"] == a
        r = c.post(f"/api/battles/{battle1.id}/command/assign/",
                   {"side": "attacker", "posts": {str(b): {"post": "пулемётчики", "rank": "sergeant"}}},
                   format="json")
        assert r.status_code == 201
        r = c.post(f"/api/battles/{battle1.id}/command/assign/",
                   {"side": "attacker", "posts": {str(b): {"post": "x", "rank": "sergeant"}}}, format="json")
        assert r.status_code == 409


@pytest.mark.django_db
class TestCommandAtTheTable:
    """Once the game master has set the battle's participants up, they are the
    side's team (V-RANK-9): only they and the game master decide its command."""

    @pytest.fixture
    def seated(self, running, battle1):
        from battles.models import BattleParticipant

        for name, side in [("petrov", "attacker"), ("hans", "defender")]:
            BattleParticipant.objects.create(battle=battle1, side=side, character=running.cast[name][1])
        return battle1

    def _client(self, user):
        from rest_framework.test import APIClient

        c = APIClient()
        c.force_authenticate(user)
        return c

    def test_a_campaign_player_not_in_the_battle_is_403_before_the_body_is_read(self, running, seated):
        c = self._client(running.cast["sidorov"][0])  # attacker of the campaign, not at this table
        for path in ("roll", "assign"):
            r = c.post(f"/api/battles/{seated.id}/command/{path}/", "{not json", content_type="application/json")
            assert r.status_code == 403 and r.json()["error"]["code"] == "not_a_participant"
        assert not CampaignEvent.objects.filter(battle=seated).exists()

    def test_a_stranger_is_403_even_without_participants(self, battle1, outsider):
        r = self._client(outsider).post(f"/api/battles/{battle1.id}/command/roll/", {"side": "attacker", "rolls": 1},
                                        format="json")
        assert r.status_code == 403

    def test_v_rank_9_the_team_is_the_battles_participants(self, running, seated):
        a, b = ids(running, "petrov", "sidorov")
        c = self._client(running.cast["petrov"][0])
        r = c.post(f"/api/battles/{seated.id}/command/roll/",
                   {"side": "attacker", "rolls": {str(a): entered(5), str(b): entered(18)}}, format="json")
        assert r.status_code == 422 and r.json()["error"]["rule_id"] == "V-RANK-9"
        r = c.post(f"/api/battles/{seated.id}/command/roll/", {"side": "attacker", "rolls": {str(a): entered(5)}},
                   format="json")
        assert r.status_code == 201 and r.json()["captain"] == a
        r = c.post(f"/api/battles/{seated.id}/command/assign/", {"side": "attacker", "posts": {}}, format="json")
        assert r.status_code == 201  # the only player of his team: nobody else to assign

    def test_a_participant_of_the_other_side_cannot_roll_for_this_one(self, running, seated):
        a = ids(running, "petrov")[0]
        r = self._client(running.cast["hans"][0]).post(
            f"/api/battles/{seated.id}/command/roll/", {"side": "attacker", "rolls": {str(a): entered(5)}},
            format="json")
        assert r.status_code == 403


@pytest.mark.django_db
class TestCommandRollTieIsRulesData:
    """G-13 (V-RANK-10): the tie-break of the command roll is rules data."""

    def _tie(self, running, battle1, game_master, setting=None):
        from battles.models import RulesSetting
        from campaign.models import Character

        if setting:
            RulesSetting.objects.create(key="command_roll_tie", value=setting)
        a, b = ids(running, "petrov", "sidorov")
        Character.objects.filter(pk=b).update(rank="sergeant")
        Character.objects.filter(pk=a).update(rank="corporal")
        return a, b, command.command_roll(battle=battle1, side="attacker", rolls={a: entered(12), b: entered(12)},
                                           by=game_master)

    def test_g_13_default_the_tied_players_reroll(self, running, battle1, game_master):
        a, b, st = self._tie(running, battle1, game_master)
        assert st.captain is None and st.contenders == sorted([a, b])

    def test_g_13_senior_the_tied_player_of_higher_card_rank_is_captain(self, running, battle1, game_master):
        _a, b, st = self._tie(running, battle1, game_master, setting="senior")
        assert st.captain == b and st.rounds == 1

"""The battle page is the table's checklist: set-up order, mission, turn order."""
import pytest

from battles.services import battle_create


@pytest.fixture
def page(running, client):
    running.attacker_name, running.defender_name = "Вермахт", "РККА"
    running.save()
    battle = battle_create(campaign=running, name="Бой у моста")
    battle.mission = "Удержать мост до конца 6-го хода."
    battle.victory_conditions = "Мост в руках обороняющихся."
    battle.save()

    def get(lang="ru"):
        return client.get(f"/battles/{battle.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()

    return get


@pytest.mark.django_db
class TestChecklist:
    def test_v_turn_2_and_3_the_defender_deploys_before_the_attacker(self, page):
        """V-TURN-2: the defender deploys first; V-TURN-3: then the attacker."""
        html = page("en")
        deploy_defender = html.index("Deploy the defender first: РККА")
        deploy_attacker = html.index("Then deploy the attacker: Вермахт")
        assert deploy_defender < deploy_attacker

    def test_v_turn_7_the_mission_and_victory_conditions_are_shown(self, page):
        html = page()
        assert "Удержать мост до конца 6-го хода." in html and "Мост в руках обороняющихся." in html

    def test_v_turn_6_and_8_the_defender_moves_first_and_the_rest_is_agreed(self, page):
        """V-TURN-6: the order after the first turn is agreed; V-TURN-8: the defender moves first."""
        html = page("en")
        assert "Turn 1: the defender (РККА) moves first" in html
        assert "order of turns after the first" in html

    def test_the_checklist_is_translated(self, page):
        assert "Первыми расставляется обороняющаяся сторона: РККА" in page("ru")

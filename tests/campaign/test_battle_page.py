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
    def test_the_checklist_lists_the_defenders_deployment_before_the_attackers(self, page):
        """The page's reminder of V-TURN-2/3. The rule's behaviour (the muster records the defender's
        force before the attacker's) is pinned in tests/battles/test_muster.py."""
        html = page("en")
        deploy_defender = html.index("Deploy the defender first: РККА")
        deploy_attacker = html.index("Then deploy the attacker: Вермахт")
        assert deploy_defender < deploy_attacker

    def test_v_turn_7_the_mission_and_victory_conditions_are_shown(self, page):
        html = page()
        assert "Удержать мост до конца 6-го хода." in html and "Мост в руках обороняющихся." in html

    def test_v_turn_6_the_checklist_reminds_the_table_to_agree_the_order_after_the_first_turn(self, page):
        """V-TURN-6 is an agreement between the players at the table (read as: the order after the
        first turn, V-TURN-8 fixing the first mover); the service records no agreement and the engine
        alternates the sides, so the checklist's reminder is the rule's only footprint here. V-TURN-8's
        behaviour (the defender moves first after the muster) is pinned in tests/battles/test_muster.py."""
        html = page("en")
        assert "Turn 1: the defender (РККА) moves first" in html
        assert "order of turns after the first" in html

    def test_the_checklist_is_translated(self, page):
        assert "Первыми расставляется обороняющаяся сторона: РККА" in page("ru")

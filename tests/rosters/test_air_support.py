"""The air-support card (V-FORM-2; G-8 placeholder: 8 PP, one sortie per
battle, so one card): bought by a roster, priced, limited, exported."""
import pytest

from rosters import domain

from .builders import Build, assert_says_it_in_both_languages, ids


def test_g_8_an_air_support_card_costs_8_pp_by_default():
    b = Build()
    b.squad()
    plain = b.report()
    with_card = domain.validate(_with_air(b, 1), b_rules())
    assert with_card.total == plain.total + 8 and "V-FORM-2" not in ids(with_card)


def test_g_8_the_cost_and_the_limit_are_game_data():
    b = Build()
    b.squad()
    assert domain.validate(_with_air(b, 1), b_rules(air_support_cost=5)).total == b.report().total + 5
    over = domain.validate(_with_air(b, 2), b_rules())
    assert "V-FORM-2" in ids(over)
    for line in over.violations:  # the V-FORM-2 line says it in Russian and in English
        assert_says_it_in_both_languages(line)
    assert "V-FORM-2" not in ids(domain.validate(_with_air(b, 2), b_rules(air_support_max=2)))


def _with_air(b: Build, cards: int) -> domain.RosterSpec:
    import dataclasses

    return dataclasses.replace(b.spec(), air_support=cards)


def b_rules(**overrides):
    from .builders import rules

    return rules(**overrides)


@pytest.mark.django_db
def test_a_roster_buys_the_card_through_the_api_and_it_is_priced_exported_and_copied(player_client, squad_roster,
                                                                                      player):
    from rosters import selectors, services

    url = f"/api/rosters/{squad_roster.pk}/"
    before = player_client.get(url).json()["priced_total"]
    r = player_client.patch(url, {"air_support_cards": 1}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["air_support_cards"] == 1 and r.json()["priced_total"] == before + 8
    assert player_client.patch(url, {"air_support_cards": -1}, format="json").status_code == 400
    squad_roster.refresh_from_db()
    data = selectors.roster_export(tree=selectors.roster_tree(roster_id=squad_roster.pk))
    assert data["air_support_cards"] == 1
    copy = services.roster_duplicate(user=player, roster=squad_roster)
    assert copy.air_support_cards == 1
    assert selectors.roster_specs(roster_ids=[copy.pk])[copy.pk].air_support == 1


@pytest.mark.django_db
def test_the_roster_page_buys_the_card_and_shows_it(web, squad_roster):
    r = web.post(f"/rosters/{squad_roster.pk}/edit/", {"name": squad_roster.name, "campaign": "", "side": "",
                                                       "air_support_cards": 1})
    assert r.status_code == 302
    squad_roster.refresh_from_db()
    assert squad_roster.air_support_cards == 1
    page = web.get(f"/rosters/{squad_roster.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="air-support">1 air-support card<' in page


@pytest.fixture
def web(player):
    from django.test import Client

    c = Client()
    c.force_login(player)
    return c

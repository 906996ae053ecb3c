"""The game master sees every rules-data default in use, with its gap ID and
placeholder mark, and a way to set each (issue 11); the mark goes once he sets
it, and keys owned by the game data point to where they are edited."""
import pytest

from battles import engine
from battles.engine import rules_data
from battles.gamedata import OWNED_KEYS
from battles.models import RulesSetting
from battles.selectors import rules_data_overview

URL = "/admin/battles/rulessetting/defaults/"
GAP_KEY = "non_tank_reserve"  # G-26, not owned by the game data


@pytest.mark.django_db
def test_the_overview_lists_every_default_with_its_gap_and_placeholder_mark(django_assert_num_queries):
    with django_assert_num_queries(3):
        rows = {r.key: r for r in rules_data_overview()}
    assert set(rows) == set(engine.DEFAULT_RULES)
    assert rows[GAP_KEY].gap == "G-26" and rows[GAP_KEY].placeholder
    assert rows["vehicle_reserve"].gap == "" and not rows["vehicle_reserve"].placeholder  # V-VDMG-4 is seed
    assert rows["smoke_period"].reading.startswith("V-SMOKE-3")
    assert all(rows[k].source == "game_data" and not rows[k].placeholder for k in OWNED_KEYS)


@pytest.mark.django_db
def test_setting_a_placeholder_removes_its_mark_and_changes_the_value_in_use():
    RulesSetting.objects.create(key=GAP_KEY, value=2)
    row = next(r for r in rules_data_overview() if r.key == GAP_KEY)
    assert (row.source, row.placeholder, row.value, row.gap) == ("setting", False, 2, "G-26")


@pytest.mark.django_db
def test_the_admin_page_lists_every_default_and_links_to_set_it(admin_client):
    page = admin_client.get(URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for key in engine.DEFAULT_RULES:
        assert f'id="key-{key}"' in page
    for key, gap in rules_data.PLACEHOLDERS.items():
        if key not in OWNED_KEYS:
            assert f'id="key-{key}" class="placeholder"' in page and gap in page
    assert f"/admin/battles/rulessetting/add/?key={GAP_KEY}" in page
    assert "/admin/rosters/infantryclass/" in page and "/admin/rosters/rosterrules/" in page
    assert URL in admin_client.get("/admin/battles/rulessetting/").content.decode()


@pytest.mark.django_db
def test_once_set_the_row_is_no_longer_marked_and_links_to_its_change_page(admin_client):
    s = RulesSetting.objects.create(key=GAP_KEY, value=0)
    page = admin_client.get(URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'id="key-{GAP_KEY}" class="setting"' in page
    assert f"/admin/battles/rulessetting/{s.pk}/change/" in page
    change = admin_client.get(f"/admin/battles/rulessetting/{s.pk}/change/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "was placeholder G-26" in change


@pytest.mark.django_db
def test_the_add_form_opened_from_the_list_starts_at_the_default(admin_client):
    page = admin_client.get(f"/admin/battles/rulessetting/add/?key={GAP_KEY}").content.decode()
    assert 'value="non_tank_reserve" selected' in page
    assert 'id="id_value">\n1</textarea>' in page


@pytest.mark.django_db
def test_the_defaults_page_needs_the_view_permission(client, django_user_model):
    user = django_user_model.objects.create_user("clerk", password="x", is_staff=True)
    client.force_login(user)
    assert client.get(URL).status_code in (302, 403)

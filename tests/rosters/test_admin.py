"""The game master's admin: placeholder markers, game-data versions, rosters with inlines and actions."""
from __future__ import annotations

import pytest

from rosters.models import GameDataVersion, InfantryClass, Status

pytestmark = pytest.mark.django_db


def test_game_data_changelist_marks_placeholders(admin_client):
    html = admin_client.get("/admin/rosters/infantryclass/").content.decode()
    assert html.count("ЗАГЛУШКА") + html.count("PLACEHOLDER") >= 15


def test_admin_edit_clears_the_placeholder_and_records_a_version(admin_client):
    row = InfantryClass.objects.get(code="sniper")
    versions = GameDataVersion.objects.count()
    data = {f: getattr(row, f) for f in ("code", "name_ru", "name_en", "category", "rank", "engine_class", "observation_in",
                                         "attack", "defence", "position")}
    data.update(cost=4, is_placeholder="on", fire_dug_in=24, fire_recon=24, fire_assault=24, fire_march="")
    r = admin_client.post(f"/admin/rosters/infantryclass/{row.pk}/change/", data)
    assert r.status_code == 302, r.content.decode()[:2000]
    row.refresh_from_db()
    assert row.cost == 4 and not row.is_placeholder  # the marker was left as it was: edited means checked
    assert GameDataVersion.objects.count() == versions + 1


def test_roster_admin_filters_validation_and_lock_action(admin_client, squad_roster):
    r = admin_client.get("/admin/rosters/roster/?status=draft&side=")
    assert r.status_code == 200 and squad_roster.name in r.content.decode()
    html = admin_client.get(f"/admin/rosters/roster/{squad_roster.pk}/change/").content.decode()
    assert "10 / 16" in html
    admin_client.post("/admin/rosters/roster/", {"action": "lock", "_selected_action": [squad_roster.pk]})
    squad_roster.refresh_from_db()
    assert squad_roster.status == Status.LOCKED

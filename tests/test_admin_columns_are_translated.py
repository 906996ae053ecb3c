"""The admin is the game master's desk in his language: every column header of
every changelist of ours reads in Russian to a Russian reader (issue 29 §4:
"Battle" and "Engine version" did not). Third-party apps' columns (django-axes)
are theirs; a number's sign (№) and ID need no words."""
import re

import pytest
from django.contrib import admin
from django.contrib.admin.utils import label_for_field
from django.utils import translation

OURS = {"battles", "campaign", "rosters"}
NO_WORDS = {"ID", "№"}


def test_every_changelist_column_of_ours_reads_in_russian():
    untranslated = []
    with translation.override("ru"):
        for model, model_admin in admin.site._registry.items():
            if model._meta.app_label not in OURS:
                continue
            for name in model_admin.list_display:
                label = str(label_for_field(name, model, model_admin))
                if label not in NO_WORDS and not re.search("[а-яё]", label, re.I):
                    untranslated.append(f"{model.__name__}.{name}: {label!r}")
    assert not untranslated, "give these a verbose_name or an admin.display description in gettext_lazy:\n" + \
        "\n".join(untranslated)


@pytest.mark.django_db
def test_the_projection_list_and_page_name_battle_and_engine_version(admin_client):
    from battles.models import BattleProjection
    from battles.services import battle_create
    from campaign.models import Campaign

    battle = battle_create(campaign=Campaign.objects.create(name="К"), name="Бой 1")
    BattleProjection.objects.get_or_create(battle=battle)
    for url in ("/admin/battles/battleprojection/", f"/admin/battles/battleprojection/{battle.pk}/change/"):
        html = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
        assert "Версия движка правил" in html and "Бой" in html, url
        assert "Engine version" not in html and ">Battle<" not in html, url

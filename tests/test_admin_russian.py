"""The admin speaks Russian that fits our model names (``config/admin_texts.py``).

Django's own Russian puts a model's name, which we give in the nominative, where Russian wants another case
or a gender: «Выберите кампания для изменения», «Национальность «…» был успешно изменен». Our catalogue says
each such message so that the name stands alone, and comes before Django's own.
"""
import gettext
from pathlib import Path

import django
import pytest
from django.utils import translation

from config.admin_texts import COUNTED, MESSAGES

DJANGO_ADMIN_RU = gettext.translation("django", Path(django.__file__).parent / "contrib" / "admin" / "locale",
                                      languages=["ru"])


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: m[:40])
def test_each_admin_message_is_said_by_our_catalogue_not_djangos(message):
    with translation.override("ru"):
        ours = translation.gettext(message)
    # (an msgid Django no longer uses would come back untranslated: the test names it)
    assert ours not in (message, DJANGO_ADMIN_RU.gettext(message))
    assert "был" not in ours and "Выберите" not in ours


@pytest.mark.parametrize("count", [1, 2, 5, 21])
def test_the_counted_message_is_ours_in_every_plural_form(count):
    with translation.override("ru"):
        ours = COUNTED[0] % {"count": count, "name": "национальность"}
    assert ours == f"Сохранено: {count} национальность."


@pytest.mark.django_db
def test_the_game_master_reads_the_lists_titles_and_the_saved_message_in_fitting_russian(client, game_master):
    from campaign.models import Nationality

    nation = Nationality.objects.create(code="ro", name_ru="Румыния", name_en="Romania", corporal_ru="капрал",
                                        corporal_en="corporal", sergeant_ru="сержант", sergeant_en="sergeant",
                                        lieutenant_ru="лейтенант", lieutenant_en="lieutenant",
                                        captain_ru="капитан", captain_en="captain")
    client.force_login(game_master)
    ru = {"HTTP_ACCEPT_LANGUAGE": "ru"}
    listing = client.get("/admin/campaign/campaign/", **ru).content.decode()
    assert "<h1>Выбор для изменения: кампания</h1>" in listing and "Добавить: кампания" in listing
    assert "Выберите кампания" not in listing and "Добавить кампания" not in listing
    form = client.get(f"/admin/campaign/nationality/{nation.pk}/change/", **ru).content.decode()
    assert "<h1>Изменение: национальность</h1>" in form
    data = {f: getattr(nation, f) for f in ("code", "name_ru", "name_en", "corporal_ru", "corporal_en",
                                            "sergeant_ru", "sergeant_en", "lieutenant_ru", "lieutenant_en",
                                            "captain_ru", "captain_en")}
    saved = client.post(f"/admin/campaign/nationality/{nation.pk}/change/", {**data, "name_ru": "Королевство Румыния"},
                        follow=True, **ru).content.decode()
    link = f'<a href="/admin/campaign/nationality/{nation.pk}/change/">Королевство Румыния</a>'
    assert f'<li class="success">Сохранено: национальность «{link}».</li>' in saved
    assert "был успешно изменен" not in saved
    # English keeps Django's own words
    english = client.get("/admin/campaign/campaign/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h1>Select campaign to change</h1>" in english

"""One word for rosters, in the navigation, the headings and the links, in
both languages: «ростер» in Russian (as the navigation always said; «состав»
stays for a unit's make-up and «в составе» for part of), "roster" in English."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = [ROOT / app / "locale" / "ru" / "LC_MESSAGES" / "django.po" for app in ("config", "campaign", "rosters")]


def _entries(path: Path):
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        msgid = re.search(r'^msgid ((?:".*"\n?)+)', block, re.M)
        msgstr = re.search(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', block, re.M)
        if msgid and msgstr:
            yield ("".join(re.findall(r'"(.*)"', msgid.group(1))), "".join(re.findall(r'"(.*)"', msgstr.group(1))))


@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda p: p.parts[-5])
def test_every_russian_text_about_a_roster_calls_it_a_ростер(catalog):
    wrong = [(i, s) for i, s in _entries(catalog) if re.search(r"(?i)\broster", i) and not re.search(r"(?i)ростер", s)]
    assert wrong == [], "say «ростер» (not «состав») where the English says roster"


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "nav", "heading", "new"), [
    ("ru", "Ростеры", "Мои ростеры", "Новый ростер"), ("en", "Rosters", "My rosters", "New roster")])
def test_the_navigation_the_heading_and_the_links_use_the_one_word(player, language, nav, heading, new):
    from campaign.models import Character, Nationality

    Character.objects.create(owner=player, name="Иван", nationality=Nationality.objects.get(code="su"))
    web = Client(HTTP_ACCEPT_LANGUAGE=language)
    web.force_login(player)
    rosters = web.get("/rosters/").content.decode()
    assert f'<a href="/rosters/">{nav}</a>' in rosters
    assert re.search(rf"<h1>{heading}</h1>", rosters) and f">{new}</a>" in rosters
    home = web.get("/").content.decode()
    assert f"<h2>{heading}</h2>" in home and f">{new}</a>" in home
    assert f"<h1>{new}</h1>" in web.get("/rosters/new/").content.decode()

"""Cards a club prints double-sided and plays with (issue 29 §3): in
``layout=card`` every front is followed by its back, designed or blank, so any
duplex printer pairs them (read back with pypdf); FoW platoons wear the emblem
of their arm, drawn inline with a translated name; the unit card's back carries
the numbers a player uses at the table, from the game data the roster builder
offers (V-FORM-7, G-1, G-3, G-4; FoW: the team types' game data); the preview
keeps its styles in the head."""
from __future__ import annotations

import io
import re

import pytest
from django.utils import translation
from pypdf import PdfReader

from rosters import services as roster_services
from rosters.cards import Card, content_hash, roster_cards_load, sheets, singles
from rosters.cards_pdf import render_pdf
from rosters.models import FowTeamType, InfantryClass
from tests.rosters.test_cards import cards, page, pdf, sample_roster

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster(make_player):
    return sample_roster(make_player)


def _card(title: str, *, back: bool = False) -> Card:
    card = Card(kind="upgrade", label="Улучшение", title=title, back_title="Оборот" if back else "")
    card.stamp_record, card.stamp_version, card.stamp_hash = "Ростер №1", "v", content_hash({"title": title})
    return card


class TestDuplex:
    def test_layout_card_every_front_is_followed_by_its_back_designed_or_blank(self, roster):
        with translation.override("ru"):
            expected = roster_cards_load(roster_id=roster.pk)
        assert any(c.has_back for c in expected) and any(not c.has_back for c in expected)
        reader = pdf(roster.user, f"/api/rosters/{roster.id}/cards.pdf?layout=card")
        assert len(reader.pages) == 2 * len(expected)
        for k, card in enumerate(expected):  # pages 2k + 1 (front) and 2k + 2 (its back), counted from 1
            front, back = reader.pages[2 * k].extract_text(), reader.pages[2 * k + 1].extract_text()
            assert f"#{card.stamp_hash}" in front and "ОБОРОТ" not in front.upper(), (k, card.title)
            if card.has_back:
                assert f"#{card.stamp_hash}" in back and "ОБОРОТ" in back.upper(), (k, card.title)
            else:  # a blank back keeps the next card's front off this one's back
                assert back.strip() == "", (k, card.title, back)

    def test_singles_pair_every_front_with_a_back(self):
        plain, backed = _card("Гранаты"), _card("Авиаподдержка", back=True)
        slots = singles([plain, backed, plain])
        assert [(s.card.title, s.back, s.blank) for s in slots] == [
            ("Гранаты", False, False), ("Гранаты", True, True), ("Авиаподдержка", False, False),
            ("Авиаподдержка", True, False), ("Гранаты", False, False), ("Гранаты", True, True)]

    def test_a4_every_sheet_of_fronts_is_followed_by_its_sheet_of_backs(self):
        """13 cards without backs: two sheets of fronts, each followed by a blank sheet, so the
        second sheet of fronts is never printed on the back of the first."""
        pages = sheets([_card(f"Карта {i}") for i in range(13)])
        assert [len(p.slots) for p in pages] == [12, 0, 1, 0]
        with translation.override("ru"):
            reader = PdfReader(io.BytesIO(render_pdf([_card(f"Карта {i}") for i in range(13)], layout="a4",
                                                     title="Образец")))
        assert len(reader.pages) == 4
        assert "Карта 12" in reader.pages[2].extract_text() and not reader.pages[3].extract_text().strip()


@pytest.fixture
def fow_roster(player, character, campaign, enlist):
    """A FoW roster with a platoon of each arm, and one of independent teams (mostly tanks)."""
    campaign.ruleset = "fow"
    campaign.save()
    enlist(campaign, character, "defender")
    r = roster_services.roster_create(user=player, character=character, name="Бронегруппа", campaign=campaign)
    types = {t.code: t for t in FowTeamType.objects.all()}
    for fow_kind, name, teams in [
        ("tank", "Танковый взвод", [("medium_tank", 3)]),
        ("infantry", "Стрелковый взвод", [("rifle_team", 3), ("mg_team", 1)]),
        ("recon", "Разведвзвод", [("scout_car", 2)]),
        ("gun", "Батарея ПТО", [("at_gun", 2)]),
        ("armoured_train", "Бронепоезд «Ильич»", [("locomotive", 1), ("artillery_wagon", 2)]),
        ("independent", "Приданные", [("medium_tank", 2), ("rifle_team", 1)]),
    ]:
        unit = roster_services.unit_add(user=player, roster=r, kind="fow_platoon", name=name, fow_kind=fow_kind)
        for code, n in teams:
            roster_services.fow_team_add(user=player, roster=r, unit=unit, team_type=types[code], count=n)
    r.user = player
    return r


def _emblem(body: str) -> tuple[str, str]:
    """(accessible name, drawing) of a card face's inline emblem."""
    m = re.search(r'<svg class="br" xmlns="http://www.w3.org/2000/svg" viewBox="[^"]+" role="img" '
                  r'aria-label="([^"]+)"><title>([^<]+)</title>(.*?)</svg>', body, re.S)
    assert m, body
    assert m.group(1) == m.group(2)
    return m.group(1), m.group(3)


class TestFowEmblems:
    ARMS = {"Танковый взвод": ("Танковые войска", "Tank troops", "arm-tank"),
            "Стрелковый взвод": ("Пехота", "Infantry", "arm-infantry"),
            "Разведвзвод": ("Разведка", "Reconnaissance", "arm-recon"),
            "Батарея ПТО": ("Артиллерия", "Artillery", "arm-artillery"),
            "Бронепоезд «Ильич»": ("Бронепоезд", "Armoured train", "arm-train"),
            "Приданные": ("Танковые войска", "Tank troops", "arm-tank")}

    def test_each_fow_platoon_wears_the_emblem_of_its_arm_named_in_both_languages(self, fow_roster):
        from django.contrib.staticfiles import finders

        drawn = {}
        for lang, i in (("ru", 0), ("en", 1)):
            found = cards(page(fow_roster.user, f"/cards/roster/{fow_roster.id}/", lang))
            for name, arm in self.ARMS.items():
                body = next(b for k, b, _ in found if k == "unit" and f"<h2>{name}</h2>" in b)
                label, drawing = _emblem(body)
                assert label == arm[i], (name, lang, label)
                drawn[arm[2]] = drawing
        assert len(set(drawn.values())) == 5  # five arms, five drawings
        for code, drawing in drawn.items():  # each the SVG shipped for that arm
            assert drawing in open(finders.find(f"cards/emblems/{code}.svg")).read(), code

    def test_an_uploaded_emblem_replaces_the_inline_one(self, fow_roster, settings, tmp_path):
        from django.core.files.base import ContentFile

        from campaign.models import CardEmblem

        settings.MEDIA_ROOT = tmp_path
        emblem = CardEmblem.objects.get(code="arm-tank")
        emblem.image.save("tank.svg", ContentFile(b'<svg xmlns="http://www.w3.org/2000/svg"/>'))
        found = cards(page(fow_roster.user, f"/cards/roster/{fow_roster.id}/"))
        body = next(b for k, b, _ in found if k == "unit" and "<h2>Танковый взвод</h2>" in b)
        assert f'<img class="br" src="{emblem.image.url}" alt="Танковые войска">' in body
        assert '<svg class="br"' not in body

    def test_the_pdf_draws_them(self, fow_roster):
        reader = pdf(fow_roster.user, f"/api/rosters/{fow_roster.id}/cards.pdf?layout=card")
        text = "\n".join(p.extract_text() for p in reader.pages)
        assert "Бронепоезд «Ильич»" in text and "Движение: 16″ / 40 см" in text


def _back(found, title: str) -> str:
    return next(b for k, b, _ in found if k == "unit" and 'class="side"' in b and f'<div class="sub">{title}</div>' in b)


class TestNumbersAtTheTable:
    def test_the_unit_card_carries_each_class_numbers_from_the_game_data(self, roster):
        """G-1, G-3: class in battle, observation, attack, defence, fire distance by posture, as the
        builder offers them (the game master's numbers, not the engine's defaults); G-4: the move
        by posture."""
        rifleman = InfantryClass.objects.get(code="rifleman")
        rifleman.observation_in, rifleman.attack, rifleman.defence = 14, 2, 3
        rifleman.fire_dug_in, rifleman.fire_march, rifleman.fire_recon, rifleman.fire_assault = 9, None, 7, 5
        rifleman.save()
        back = re.sub(r"\s+", " ", _back(cards(page(roster.user, f"/cards/roster/{roster.id}/")), "1-е отделение"))
        assert "<h2>За столом</h2>" in back
        line = back[back.index("6 × Стрелок"):]
        assert line.startswith("6 × Стрелок</strong><br>обзор 14″ · атака 2 · оборона 3<br>"
                               "огонь по положениям: окопано 9″ · на марше — · разведка 7″ · атака 5″"), line[:200]
        # classes with the same numbers would share one heading and their lines; the class in battle is
        # named where the class's name does not say it
        others = re.search(r"<strong>([^<]*1 × Сержант[^<]*)</strong><br>обзор ", back)
        assert others and "1 × Сержант (в бою: офицер)" in others.group(1), back
        assert "Стрелок" not in others.group(1)  # his numbers differ now: he keeps his own lines
        assert back.count("огонь по положениям") == 2
        assert "Движение по положениям: окопано 0″ · на марше 12″ · разведка 6″ · атака 6″" in back

    def test_english_and_the_game_masters_move(self, roster):
        from battles.models import RulesSetting

        RulesSetting.objects.create(key="postures", value={"march": {"move": 10, "fire": False, "melee": False,
                                                                     "defence": 0}})
        back = _back(cards(page(roster.user, f"/cards/roster/{roster.id}/", "en")), "1-е отделение")
        assert "<h2>At the table</h2>" in back and "(in battle: officer)" in back
        assert "on the march 10″" in back and "reconnaissance 6″" in back

    def test_changed_numbers_change_the_stamp(self, roster):
        def stamp():
            found = cards(page(roster.user, f"/cards/roster/{roster.id}/"))
            return next(s for k, b, s in found if k == "unit" and "<h2>1-е отделение</h2>" in b)

        before = stamp()
        InfantryClass.objects.filter(code="rifleman").update(attack=4)
        assert stamp() != before  # a printed card with the old numbers is out of date

    def test_fow_platoon_cards_carry_their_team_types_numbers(self, fow_roster):
        found = cards(page(fow_roster.user, f"/cards/roster/{fow_roster.id}/"))
        tanks = _back(found, "Танковый взвод")
        assert "3 × Средний танк</strong><br>танк<br>Движение: 12″ / 30 см<br>с бронёй" in tanks
        guns = _back(found, "Батарея ПТО")
        assert "Движение: —" in guns
        en = _back(cards(page(fow_roster.user, f"/cards/roster/{fow_roster.id}/", "en")), "Батарея ПТО")
        assert "2 × Anti-tank gun</strong><br>gun team<br>Movement: —<br>medium gun" in en


class TestPreviewMarkup:
    def test_no_style_inside_main_and_the_placeholder_in_full_ink(self, roster):
        html = page(roster.user, f"/cards/roster/{roster.id}/")
        head, main = html.split("<main", 1)
        assert "<style" not in main and ".fcard" in head
        placeholder = re.search(r"\.fcard \.photo\.empty \{([^}]*)\}", head).group(1)
        assert "opacity" not in placeholder and "color" not in placeholder  # the card's ink: 14:1 on its base

    def test_the_shipped_card_colours_pass_wcag_aa(self):
        """Every card's words (the photo frame's too, now in full ink) on its base: 4.5:1 at least."""
        from campaign.defaults import CARD_COLOURS

        def luminance(hex_colour: str) -> float:
            channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
            r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
            return 0.2126 * r + 0.7152 * g + 0.0722 * b

        for kind, background, ink, _placeholder in CARD_COLOURS:
            light, dark = sorted((luminance(background), luminance(ink)), reverse=True)
            assert (light + 0.05) / (dark + 0.05) >= 4.5, kind


"""Formulary cards (V-FORM, V-RANK-3, issue 12): 4.5 × 7.5 cm, one kind each
for characters, awards, units, vehicles, upgrades and air support, with the
fields the rules name; as an HTML preview and as PDF (single cards or A4
sheets with crop marks), each card stamped with its record, version and a
content hash. The PDFs are opened with pypdf: page sizes, extractable
Cyrillic text, embedded fonts."""
import io
import re

import pytest
from django.test import Client
from freezegun import freeze_time
from pypdf import PdfReader

from campaign import services
from campaign.models import Award, CardColour, CardEmblem, Nationality
from rosters import services as roster_services
from rosters.models import InfantryClass, Upgrade, VehicleOption

MM = 72 / 25.4  # PDF points per millimetre


@pytest.fixture
def roster(make_player):
    return sample_roster(make_player)


def sample_roster(make_player):
    """A v11.2 roster with a card of every kind (tests/rosters/test_cards_table.py uses it too)."""
    user, character = make_player("kartochkin", rank="lieutenant")
    r = roster_services.roster_create(user=user, character=character, name="3-я стрелковая дивизия")
    squad = roster_services.unit_add(user=user, roster=r, kind="squad", name="1-е отделение")
    roster_services.fighter_add(user=user, roster=r, infantry_class=InfantryClass.objects.get(code="sergeant"),
                                unit=squad)
    roster_services.fighter_add(user=user, roster=r, infantry_class=InfantryClass.objects.get(code="rifleman"),
                                count=6, unit=squad)
    roster_services.unit_add(user=user, roster=r, kind="tactical_group", name="Снайперы", group_kind="sniper")
    roster_services.unit_add(user=user, roster=r, kind="motorised", name="Танковое отделение")
    upgrade = Upgrade.objects.create(code="grenades", name_ru="Гранаты", name_en="Grenades", cost=2,
                                     description="Связки гранат")
    squad.upgrades.add(upgrade)
    tank = roster_services.vehicle_add(user=user, roster=r, kind="tank", name="«За Родину!»", armour_class=3,
                                       gun_class=3, side_skirts=True,
                                       options=[VehicleOption.objects.get(code="spotter")])
    roster_services.fighter_add(user=user, roster=r, infantry_class=InfantryClass.objects.get(code="personnel"),
                                count=2, vehicle=tank)
    roster_services.roster_update(user=user, roster=r, air_support_cards=1)
    r.refresh_from_db()
    r.user = user
    r.squad = squad
    return r


def cards(html):
    """(kind, body) of every card face on a page."""
    return re.findall(r'<div class="fcard k-(\w+)(?: back)?" data-kind="\w+"(?: data-back="1")?[^>]*>(.*?)'
                      r'<div class="stamp"[^>]*>([^<]*)</div>', html, re.S)


def page(user, url, lang="ru"):
    c = Client()
    c.force_login(user)
    r = c.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 200, r.status_code
    return r.content.decode()


def pdf(user, url, lang="ru"):
    c = Client()
    c.force_login(user)
    r = c.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 200, r.content[:300]
    assert r["Content-Type"] == "application/pdf"
    return PdfReader(io.BytesIO(r.content))


def text_of(reader):
    return "\n".join(p.extract_text() for p in reader.pages)


def body_of(found, kind, contains=""):
    return next(body for k, body, _ in found if k == kind and contains in body)


@pytest.mark.django_db
class TestRosterCardsPage:
    def test_v_form_1_cards_are_4_5_by_7_5_cm(self, roster):
        html = page(roster.user, f"/cards/roster/{roster.id}/")
        assert "width: 45mm; height: 75mm" in html

    def test_v_form_2_one_card_kind_each_including_air_support(self, roster):
        html = page(roster.user, f"/cards/roster/{roster.id}/")
        kinds = [k for k, _, _ in cards(html)]
        fronts = re.findall(r'<div class="fcard k-(\w+)" data-kind=', html)
        assert {"character", "unit", "vehicle", "upgrade", "air_support"} <= set(fronts)
        assert fronts.count("unit") == 3 and fronts.count("vehicle") == 1 and fronts.count("upgrade") == 1
        assert kinds.count("air_support") == 2  # G-8: the card and its back (how it is called and resolved)
        assert kinds.count("unit") == 4  # the squad's back: its numbers at the table (the others have no fighters)

    def test_g_8_air_support_card_costs_8_pp(self, roster):
        air = body_of(cards(page(roster.user, f"/cards/roster/{roster.id}/")), "air_support")
        assert "Авиаподдержка" in air and "8 ОП" in air and "1 вылет за бой" in air

    def test_v_tg_7_a_tactical_group_has_its_own_card(self, roster):
        found = cards(page(roster.user, f"/cards/roster/{roster.id}/"))
        assert any("Снайперы" in body for k, body, _ in found if k == "unit")

    def test_v_form_7_and_v_base_5_unit_card_layout(self, roster):
        """Nationality bottom left, the arm emblem (an SVG shipped with Shtab)
        bottom right, division, name and the squad number in the centre, on a
        green base; its fighters by class, their number and the cost."""
        html = page(roster.user, f"/cards/roster/{roster.id}/")
        squad = body_of(cards(html), "unit", "1-е отделение")
        assert re.search(r'<span class="bl"><img src="/static/cards/emblems/nation-su.svg" alt=""> <span>СССР</span>',
                         squad)
        assert '<img class="br" src="/static/cards/emblems/arm-infantry.svg"' in squad
        assert "3-я стрелковая дивизия" in squad and '<div class="mark">№ 1</div>' in squad
        assert "6 × " in squad and "7 бойцов" in squad and "Стоимость" in squad
        assert re.search(r'class="fcard k-unit" data-kind="unit" style="background: #cfe3c2', html)
        assert ".fcard.k-unit .body { text-align: center; }" in html

    def test_v_motor_2_the_motorised_unit_card_names_its_formation(self, roster):
        motor = body_of(cards(page(roster.user, f"/cards/roster/{roster.id}/", "en")), "unit", "Танковое")
        assert "Formation: Танковое отделение" in motor

    def test_v_form_3_and_4_vehicle_card_bears_its_mark_and_characteristics(self, roster):
        """V-FORM-3 (the mark on the model) and V-FORM-4 (a paper card bearing the
        same mark and the vehicle's characteristics)."""
        tank = body_of(cards(page(roster.user, f"/cards/roster/{roster.id}/", "en")), "vehicle")
        assert '<div class="mark">№ 1</div>' in tank and "«За Родину!»" in tank
        assert "Armour class 3" in tank and "Gun class 3" in tank and "Side skirts" in tank

    def test_v_form_5_and_v_veh_8_vehicle_card_shows_crew_and_badges(self, roster):
        tank = body_of(cards(page(roster.user, f"/cards/roster/{roster.id}/", "en")), "vehicle")
        assert "Crew: 2 × " in tank
        assert f'<span class="badge">{VehicleOption.objects.get(code="spotter").name_en}</span>' in tank

    def test_v_form_6_vehicle_card_has_boxes_for_damage_and_ammunition(self, roster):
        tank = body_of(cards(page(roster.user, f"/cards/roster/{roster.id}/")), "vehicle")
        rows = dict(re.findall(r'<span class="blabel">([^<]+)</span>((?:<span class="box"></span>)+)', tank))
        assert rows["Повреждения"].count("box") == 2  # V-VDMG-4: the second damage destroys it
        assert rows["Ходовая"].count("box") == 1  # V-VDMG-6
        assert rows["Боекомплект"].count("box") == 6

    def test_labels_are_translated_in_both_languages(self, roster):
        ru = page(roster.user, f"/cards/roster/{roster.id}/")
        en = page(roster.user, f"/cards/roster/{roster.id}/", "en")
        assert '<span class="kind">Персонаж</span>' in ru and '<span class="kind">Character</span>' in en
        assert '<span class="kind">Улучшение</span>' in ru and '<span class="kind">Upgrade</span>' in en
        assert "CHARACTER" not in ru and ">character<" not in ru

    def test_the_photo_never_covers_the_label(self, roster):
        character = body_of(cards(page(roster.user, f"/cards/roster/{roster.id}/")), "character")
        assert character.index('<span class="kind">') < character.index('class="photo')

    def test_only_the_owner_or_the_game_master_prints_a_roster(self, roster, make_player, game_master):
        other, _ = make_player("chuzhoy")
        c = Client()
        c.force_login(other)
        assert c.get(f"/cards/roster/{roster.id}/").status_code == 404
        c.force_login(game_master)
        assert c.get(f"/cards/roster/{roster.id}/").status_code == 200

    def test_the_roster_page_links_to_its_cards(self, roster):
        html = page(roster.user, f"/rosters/{roster.id}/")
        links = re.search(r'data-testid="roster-cards">(.*?)</div>', html, re.S).group(1)
        assert f"/cards/roster/{roster.id}/" in links
        assert f"/api/rosters/{roster.id}/cards.pdf?layout=a4" in links
        assert f"/api/rosters/{roster.id}/cards.pdf?layout=card" in links

    def test_the_page_runs_a_constant_number_of_queries(self, roster, django_assert_max_num_queries):
        c = Client()
        c.force_login(roster.user)
        c.get(f"/cards/roster/{roster.id}/")
        with django_assert_max_num_queries(24) as small:
            c.get(f"/cards/roster/{roster.id}/")
        for i in range(4):
            squad = roster_services.unit_add(user=roster.user, roster=roster, kind="squad", name=f"Отд {i}")
            roster_services.fighter_add(user=roster.user, roster=roster, unit=squad, count=3,
                                        infantry_class=InfantryClass.objects.get(code="rifleman"))
        with django_assert_max_num_queries(len(small.captured_queries)):
            c.get(f"/cards/roster/{roster.id}/")


@pytest.mark.django_db
class TestStamp:
    def stamps(self, roster, lang="ru"):
        return {re.sub(r"<.*?>", "", body).split()[0] + str(i): stamp
                for i, (k, body, stamp) in enumerate(cards(page(roster.user, f"/cards/roster/{roster.id}/", lang)))}

    def test_the_same_record_gives_the_same_stamp(self, roster):
        first = [s for _, _, s in cards(page(roster.user, f"/cards/roster/{roster.id}/"))]
        again = [s for _, _, s in cards(page(roster.user, f"/cards/roster/{roster.id}/"))]
        assert first == again
        assert all(re.fullmatch(r".+ · .+ · #[0-9a-f]{8}", s) for s in first)
        assert any(s.startswith(f"Ростер №{roster.id} · ") for s in first)

    def test_the_hash_does_not_depend_on_the_language(self, roster):
        ru = [s.rsplit("#", 1)[1] for _, _, s in cards(page(roster.user, f"/cards/roster/{roster.id}/"))]
        en = [s.rsplit("#", 1)[1] for _, _, s in cards(page(roster.user, f"/cards/roster/{roster.id}/", "en"))]
        assert ru == en

    def test_a_changed_record_gives_a_new_stamp(self, roster):
        def squad_stamp():
            found = cards(page(roster.user, f"/cards/roster/{roster.id}/"))
            return next(s for k, body, s in found if k == "unit" and "1-е отделение" in body)

        before = squad_stamp()
        with freeze_time("2031-05-09 10:00"):
            roster_services.fighter_add(user=roster.user, roster=roster, unit=roster.squad,
                                        infantry_class=InfantryClass.objects.get(code="rifleman"))
        after = squad_stamp()
        assert after != before
        assert after.rsplit("#", 1)[1] != before.rsplit("#", 1)[1]  # the content hash changed
        assert "09.05.2031" in after  # and the version names the roster's last change


@pytest.mark.django_db
class TestPdf:
    def test_v_form_1_single_cards_are_exactly_45_by_75_mm(self, roster):
        reader = pdf(roster.user, f"/api/rosters/{roster.id}/cards.pdf?layout=card")
        assert len(reader.pages) >= 6
        for p in reader.pages:
            assert abs(float(p.mediabox.width) - 45 * MM) < 0.01 and abs(float(p.mediabox.height) - 75 * MM) < 0.01

    def test_a4_sheets_are_a4(self, roster):
        reader = pdf(roster.user, f"/api/rosters/{roster.id}/cards.pdf?layout=a4")
        for p in reader.pages:
            assert abs(float(p.mediabox.width) - 210 * MM) < 0.01 and abs(float(p.mediabox.height) - 297 * MM) < 0.01
        # 7 fronts fit one sheet; the character and the air support have backs: a second sheet
        assert len(reader.pages) == 2

    def test_v_form_2_every_kind_in_the_pdf_with_cyrillic_text(self, roster):
        text = text_of(pdf(roster.user, f"/api/rosters/{roster.id}/cards.pdf?layout=a4"))
        for label in ("ПЕРСОНАЖ", "ПЕХОТНОЕ ОТДЕЛЕНИЕ", "ТАКТИЧЕСКАЯ ГРУППА", "ТАНК", "УЛУЧШЕНИЕ", "АВИАПОДДЕРЖКА"):
            assert label in text.upper(), label
        for name in ("Kartochkin", "1-е отделение", "Снайперы", "«За Родину!»", "Гранаты", "3-я стрелковая дивизия",
                     "Лейтенант", "7 бойцов", "СССР", f"Ростер №{roster.id}"):
            assert name in text, name

    def test_the_fonts_are_embedded(self, roster):
        reader = pdf(roster.user, f"/api/rosters/{roster.id}/cards.pdf?layout=card")
        fonts = {}
        for p in reader.pages:
            for font in p["/Resources"]["/Font"].values():
                font = font.get_object()
                descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"] \
                    if "/DescendantFonts" in font else font["/FontDescriptor"]
                fonts[str(font["/BaseFont"])] = any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
        assert fonts and all(fonts.values()), fonts
        assert any("Shtab-Cards" in name for name in fonts)  # the bundled DejaVu Sans Condensed

    def test_english_pdf(self, roster):
        text = text_of(pdf(roster.user, f"/api/rosters/{roster.id}/cards.pdf?layout=a4", "en"))
        assert "CHARACTER" in text.upper() and "Air support" in text and "Armour class 3" in text

    def test_a_stranger_learns_nothing_even_with_a_bad_layout(self, roster, make_player, client):
        other, _ = make_player("chuzhoy")
        c = Client()
        c.force_login(other)
        assert c.get(f"/api/rosters/{roster.id}/cards.pdf?layout=a4").status_code == 404
        assert c.get(f"/api/rosters/{roster.id}/cards.pdf?layout=bogus").status_code == 404
        assert client.get(f"/api/rosters/{roster.id}/cards.pdf?layout=bogus").status_code in (401, 403, 404)

    def test_a_bad_layout_is_a_400_naming_the_field(self, roster):
        c = Client()
        c.force_login(roster.user)
        for lang, word in (("ru", "ожидается"), ("en", "expected")):
            r = c.get(f"/api/rosters/{roster.id}/cards.pdf?layout=letter", HTTP_ACCEPT_LANGUAGE=lang,
                      HTTP_ACCEPT="application/pdf")
            assert r.status_code == 400
            error = r.json()["error"]
            assert error["field"] == "layout" and word in error["message"]

    def test_the_game_master_downloads_any_roster(self, roster, game_master):
        assert len(pdf(game_master, f"/api/rosters/{roster.id}/cards.pdf").pages) == 2  # a4 by default

    def test_the_api_is_documented(self):
        import yaml
        from django.conf import settings

        schema = yaml.safe_load((settings.BASE_DIR / "docs" / "openapi.yaml").read_text())
        for path in ("/api/rosters/{roster_id}/cards.pdf", "/api/characters/{character_id}/card.pdf"):
            op = schema["paths"][path]["get"]
            assert "application/pdf" in op["responses"]["200"]["content"]
            layout = next(p for p in op["parameters"] if p["name"] == "layout")
            assert layout["schema"]["enum"] == ["a4", "card"]
            assert "400" in op["responses"] and "404" in op["responses"]


@pytest.fixture
def decorated(make_player, running):
    """Petrov of the running campaign with an award granted on 01.12.2026."""
    user, character = running.cast["petrov"]
    with freeze_time("2026-12-01 12:00"):
        services.campaign_event_append(type="award_granted", campaign=running, character=character,
                                       data={"award": Award.objects.get(code="for-courage").pk})
    character.user = user
    return character


@pytest.mark.django_db
class TestCharacterCards:
    def test_v_rank_3_character_card_bears_photo_name_and_rank(self, decorated):
        from PIL import Image

        buffer = io.BytesIO()
        Image.new("RGB", (60, 80), (90, 120, 60)).save(buffer, "JPEG")
        buffer.seek(0)
        buffer.name = "photo.jpg"
        services.character_photo_set(character=decorated, photo=buffer)
        html = page(decorated.user, f"/cards/character/{decorated.id}/")
        character = body_of(cards(html), "character")
        assert f'<img class="photo" src="{decorated.photo.url}"' in character
        assert "<h2>Petrov</h2>" in character and "Сержант" in character
        assert Nationality.objects.get(code="su").name_ru in character
        reader = pdf(decorated.user, f"/api/characters/{decorated.id}/card.pdf?layout=card")
        assert any("/Image" in str(x.get("/Subtype")) for p in reader.pages
                   for x in (v.get_object() for v in p["/Resources"].get("/XObject", {}).values()))
        assert "Petrov" in text_of(reader) and "Сержант" in text_of(reader)

    def test_award_card_with_the_site_date_format(self, decorated):
        found = cards(page(decorated.user, f"/cards/character/{decorated.id}/"))
        award = body_of(found, "award")
        assert "Медаль «За отвагу»" in award and "Вручена 01.12.2026" in award and "2026-12-01" not in award
        back = [body for k, body, _ in found if k == "character" and "оборот" in body][0]
        assert "01.12.2026 — Медаль «За отвагу»" in back

    def test_the_character_pdf_holds_the_character_and_award_cards(self, decorated):
        reader = pdf(decorated.user, f"/api/characters/{decorated.id}/card.pdf?layout=card")
        text = text_of(reader).upper()
        assert "ПЕРСОНАЖ" in text and "НАГРАДА" in text and "ОБОРОТ" in text
        # character, its back (awards), the award, its blank back (every front followed by its back)
        assert len(reader.pages) == 4 and reader.pages[3].extract_text().strip() == ""

    def test_a_new_award_changes_the_character_stamp(self, decorated, running):
        def stamp():
            return next(s for k, _, s in cards(page(decorated.user, f"/cards/character/{decorated.id}/"))
                        if k == "character")

        before = stamp()
        assert before == stamp()
        services.campaign_event_append(type="award_granted", campaign=running, character=decorated,
                                       data={"award": Award.objects.get(code="red-star").pk})
        assert stamp() != before

    def test_only_owner_and_game_master(self, decorated, make_player, game_master, client):
        other, _ = make_player("chuzhoy")
        c = Client()
        c.force_login(other)
        assert c.get(f"/cards/character/{decorated.id}/").status_code == 404
        assert c.get(f"/api/characters/{decorated.id}/card.pdf?layout=oops").status_code == 404
        assert page(game_master, f"/cards/character/{decorated.id}/")
        # the public character page links to the cards for the owner only
        assert 'data-testid="character-cards"' not in client.get(f"/characters/{decorated.id}/").content.decode()
        assert 'data-testid="character-cards"' in page(decorated.user, f"/characters/{decorated.id}/")


@pytest.mark.django_db
class TestGameData:
    def test_v_form_8_g_17_colours_and_emblems_are_game_data_shipped_as_placeholders(self):
        """The seed's sample cards are missing (V-FORM-8 → G-17): the colours and
        emblems ship as placeholders, except the unit card's green (V-FORM-7)."""
        assert CardColour.objects.get(kind="unit").background == "#cfe3c2"
        assert not CardColour.objects.get(kind="unit").is_placeholder
        assert CardColour.objects.filter(is_placeholder=True).count() == 5
        assert CardEmblem.objects.filter(code="nation-su", is_placeholder=True).exists()
        from django.contrib.staticfiles import finders

        for e in CardEmblem.objects.all():
            assert finders.find(f"cards/emblems/{e.code}.svg"), e.code

    def test_the_game_master_changes_a_colour_and_an_emblem(self, roster, settings, tmp_path):
        from django.core.files.base import ContentFile

        settings.MEDIA_ROOT = tmp_path
        CardColour.objects.filter(kind="vehicle").update(background="#ffeecc")
        emblem = CardEmblem.objects.get(code="arm-infantry")
        emblem.image.save("guards.svg", ContentFile(b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                                    b'<rect width="10" height="10" fill="#c00"/></svg>'))
        html = page(roster.user, f"/cards/roster/{roster.id}/")
        assert 'data-kind="vehicle" style="background: #ffeecc' in html
        assert f'<img class="br" src="{emblem.image.url}"' in body_of(cards(html), "unit", "1-е отделение")
        assert len(pdf(roster.user, f"/api/rosters/{roster.id}/cards.pdf").pages) == 2  # the upload renders


def test_plurals_follow_russian_rules():
    from django.utils import translation

    from rosters.cards import fighters_text

    with translation.override("ru"):
        assert [fighters_text(n) for n in (1, 2, 5, 11, 21, 22)] == [
            "1 боец", "2 бойца", "5 бойцов", "11 бойцов", "21 боец", "22 бойца"]
    with translation.override("en"):
        assert [fighters_text(n) for n in (1, 2)] == ["1 fighter", "2 fighters"]


@pytest.mark.django_db
def test_admin_prints_the_cards_of_a_side(roster, running, game_master, make_player):
    from battles.models import BattleParticipant
    from battles.services import battle_create

    battle = battle_create(campaign=running, name="Бой у моста")
    other_user, other = make_player("vtoroy")
    other_roster = roster_services.roster_create(user=other_user, character=other, name="Вторая рота")
    defender_user, defender = make_player("oborona")
    defender_roster = roster_services.roster_create(user=defender_user, character=defender, name="Оборона")
    BattleParticipant.objects.create(battle=battle, character=roster.character, side="attacker", roster=roster)
    BattleParticipant.objects.create(battle=battle, character=other, side="attacker", roster=other_roster)
    BattleParticipant.objects.create(battle=battle, character=defender, side="defender", roster=defender_roster)
    c = Client()
    c.force_login(game_master)
    r = c.post("/admin/battles/battle/", {"action": "print_attacker_cards", "_selected_action": [battle.pk]},
               HTTP_ACCEPT_LANGUAGE="ru")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(r.content))
    text = text_of(reader)
    assert "3-я стрелковая дивизия" in text and "Vtoroy" in text and "Oborona" not in text
    assert all(abs(float(p.mediabox.width) - 210 * MM) < 0.01 for p in reader.pages)

"""Campaign lifecycle, joining, characters and the campaign log."""
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DatabaseError, connection, transaction

from campaign import services
from campaign.models import Campaign, CampaignEvent, CampaignStatus, Character, Membership, Nationality, Objective
from config.errors import Conflict, Forbidden

from .conftest import member


@pytest.mark.django_db
def bomb_png(side: int = 12000) -> bytes:
    """A PNG declaring side × side one-bit pixels, all zero: about 17 KB on
    disk, 144 million pixels (over 400 MB as RGB) once decoded."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\0" * (1 + (side + 7) // 8)  # filter byte + packed bits
    packed = zlib.compress(row * side, 9)
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)  # 1-bit greyscale
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", packed) + chunk(b"IEND", b"")


class TestCharacters:
    def test_v_rank_1_a_player_creates_a_character_whose_rank_is_an_event(self, make_player):
        user, character = make_player("vasya", rank="sergeant")
        ev = CampaignEvent.objects.get(character=character)
        assert (ev.type, ev.data) == ("character_enlisted", {"rank": "sergeant"})
        assert character.rank == "sergeant"

    def test_v_rank_3_the_photo_is_resized_for_the_card(self, make_player):
        from PIL import Image

        _user, character = make_player("foto")
        buf = io.BytesIO()
        Image.new("RGB", (1600, 900), "olive").save(buf, "PNG")
        buf.seek(0)
        services.character_photo_set(character=character, photo=buf)
        with Image.open(character.photo.path) as img:
            assert max(img.size) == 600 and img.format == "JPEG"

    def test_a_non_image_photo_names_the_field(self, make_player):
        from config.errors import InvalidInput

        _user, character = make_player("bad")
        with pytest.raises(InvalidInput) as exc:
            services.character_photo_set(character=character, photo=io.BytesIO(b"not an image"))
        assert exc.value.field == "photo"

    def test_a_decompression_bomb_photo_is_refused_from_its_header_in_both_languages(self, make_player):
        from config.errors import InvalidInput

        _user, character = make_player("bomb")
        with pytest.raises(InvalidInput) as exc:
            services.character_photo_set(character=character, photo=io.BytesIO(bomb_png()))
        assert exc.value.field == "photo" and exc.value.code == "photo_too_large"
        assert "too large" in exc.value.message_en and "at most 40 megapixels" in exc.value.message_en
        assert "слишком велико" in exc.value.message_ru and "не больше 40 мегапикселей" in exc.value.message_ru
        character.refresh_from_db()
        assert not character.photo

    def test_a_bomb_uploaded_on_the_characters_page_is_refused_and_nothing_is_created(self, make_player, client):
        from campaign.models import Character, Nationality

        user, _character = make_player("bomber")
        client.force_login(user)
        upload = SimpleUploadedFile("bomb.png", bomb_png(), content_type="image/png")
        r = client.post("/characters/", {"name": "Подрывник", "nationality": Nationality.objects.get(code="su").pk,
                                         "rank": "corporal", "photo": upload}, HTTP_ACCEPT_LANGUAGE="en")
        assert r.status_code == 200
        assert "the image is too large" in r.content.decode().lower() and "at most 40 megapixels" in r.content.decode()
        assert not Character.objects.filter(name="Подрывник").exists()

    def test_a_photo_just_over_the_limit_is_refused_naming_its_size(self, make_player, settings):
        from config.errors import InvalidInput

        settings.SHTAB = {**settings.SHTAB, "PHOTO_MAX_PIXELS": 1_000_000}
        _user, character = make_player("big")
        with pytest.raises(InvalidInput) as exc:
            services.character_photo_set(character=character, photo=io.BytesIO(bomb_png(1200)))
        assert "(1200 × 1200)" in exc.value.message_en and "at most 1 megapixels" in exc.value.message_en

    @pytest.mark.parametrize("side, limit, error", [
        (12000, None, "Upload a valid image"),  # Pillow's own guard (MAX_IMAGE_PIXELS, set from the limit)
        (1200, 1_000_000, "the image is too large (1200 × 1200); at most 1 megapixels"),  # the photo check
    ])
    def test_a_photo_over_the_limit_uploaded_in_the_admin_is_refused(self, make_player, admin_client, settings,
                                                                      side, limit, error):
        import re

        from PIL import Image

        assert Image.MAX_IMAGE_PIXELS == settings.SHTAB["PHOTO_MAX_PIXELS"]
        if limit:
            settings.SHTAB = {**settings.SHTAB, "PHOTO_MAX_PIXELS": limit}
        _user, character = make_player("adminbomb")
        url = f"/admin/campaign/character/{character.pk}/change/"
        inline = re.search(r'name="([\w-]+)-TOTAL_FORMS"', admin_client.get(url).content.decode()).group(1)
        data = {"owner": character.owner_id, "name": character.name, "nationality": character.nationality_id, "gender": "m",
                "created_at_0": "2026-01-01", "created_at_1": "12:00:00",
                f"{inline}-TOTAL_FORMS": 0, f"{inline}-INITIAL_FORMS": 0}
        r = admin_client.post(url, {**data, "photo": SimpleUploadedFile("bomb.png", bomb_png(side))},
                              HTTP_ACCEPT_LANGUAGE="en")
        errors = re.findall(r'class="errorlist[^>]*>(.*?)</ul>', r.content.decode(), re.S)
        assert r.status_code == 200 and len(errors) == 1 and error in errors[0], errors
        assert not Character.objects.get(pk=character.pk).photo
        small = io.BytesIO()
        Image.new("RGB", (80, 60), "olive").save(small, "PNG")
        r = admin_client.post(url, {**data, "photo": SimpleUploadedFile("ok.png", small.getvalue())})
        assert r.status_code == 302 and Character.objects.get(pk=character.pk).photo

    def test_rank_title_uses_the_nationalitys_rank_names(self, make_player):
        _u, character = make_player("ivanov", rank="corporal")
        assert character.rank_title("ru") == "Младший сержант"

    def test_campaign_log_is_append_only_at_the_database(self, make_player):
        make_player("x")
        with pytest.raises(DatabaseError, match="append-only"):
            with transaction.atomic(), connection.cursor() as cur:
                cur.execute("UPDATE campaign_campaignevent SET type = 'promotion'")
        with pytest.raises(DatabaseError, match="append-only"):
            with transaction.atomic(), connection.cursor() as cur:
                cur.execute("DELETE FROM campaign_campaignevent")

    def test_rank_rebuilds_from_the_log(self, make_player):
        _u, character = make_player("r", rank="sergeant")
        Character.objects.filter(pk=character.pk).update(rank="captain")
        assert services.characters_rank_rebuild() == 1
        character.refresh_from_db()
        assert character.rank == "sergeant"


@pytest.mark.django_db
class TestJoining:
    def test_asking_to_join_waits_for_the_game_master_to_assign_a_side(self, campaign, make_player, game_master):
        _u, character = make_player("novice")
        m = services.membership_request(campaign=campaign, character=character)
        assert m.status == Membership.Status.REQUESTED and m.side == ""
        services.membership_assign_side(membership=m, side="defender", by=game_master)
        m.refresh_from_db()
        assert (m.status, m.side) == ("active", "defender")
        types = list(CampaignEvent.objects.filter(campaign=campaign).values_list("type", flat=True))
        assert types == ["member_joined", "side_assigned"]

    def test_the_invitation_link_joins_at_once_and_a_wrong_token_is_refused(self, campaign, make_player):
        import uuid

        _u, character = make_player("invited")
        with pytest.raises(Forbidden):
            services.membership_request(campaign=campaign, character=character, token=uuid.uuid4())
        m = services.membership_request(campaign=campaign, character=character, token=campaign.invite_token)
        assert m.status == Membership.Status.ACTIVE

    def test_only_the_game_master_assigns_sides(self, campaign, make_player):
        user, character = make_player("cheeky")
        m = services.membership_request(campaign=campaign, character=character)
        with pytest.raises(Forbidden):
            services.membership_assign_side(membership=m, side="attacker", by=user)

    def test_a_character_carries_over_between_campaigns(self, campaign, make_player, game_master):
        _u, character = make_player("veteran", rank="lieutenant")
        other = Campaign.objects.create(name="Вторая кампания")
        for c in (campaign, other):
            m = services.membership_request(campaign=c, character=character, token=c.invite_token)
            services.membership_assign_side(membership=m, side="attacker", by=game_master)
        campaigns = set(CampaignEvent.objects.filter(character=character, type="member_joined")
                        .values_list("campaign_id", flat=True))
        assert campaigns == {campaign.id, other.id}

    def test_join_page_and_api(self, campaign, make_player):
        from django.test import Client
        from rest_framework.test import APIClient

        user, character = make_player("web")
        c = Client()
        c.force_login(user)
        assert c.get(f"/campaigns/{campaign.id}/join/").status_code == 200
        r = c.post(f"/campaigns/{campaign.id}/join/{campaign.invite_token}/", {"character": character.id})
        assert r.status_code == 302
        assert member(campaign, "web").status == "active"
        api = APIClient()
        api.force_authenticate(user)
        r = api.post(f"/api/campaigns/{campaign.id}/join/", {"character": character.id}, format="json")
        assert r.status_code == 200 and r.json()["status"] == "active"


@pytest.mark.django_db
class TestLifecycle:
    def test_start_records_the_objectives_initial_holders(self, campaign, game_master):
        Objective.objects.create(campaign=campaign, name="Высота 252", initial_holder="defender")
        Objective.objects.create(campaign=campaign, name="Мост")
        services.campaign_start(campaign=campaign, by=game_master)
        assert campaign.status == CampaignStatus.RUNNING
        changes = CampaignEvent.objects.filter(campaign=campaign, type="objective_changed")
        assert [(e.data["name"], e.data["to"]) for e in changes] == [("Высота 252", "defender")]
        assert campaign.projection.data["sides"]["defender"]["objectives"] == 1
        with pytest.raises(Conflict):
            services.campaign_start(campaign=campaign, by=game_master)

    def test_a_finished_campaign_is_a_read_only_archive(self, running, game_master, make_player):
        from battles.services import NewEvent, battle_create, battle_event_append

        battle = battle_create(campaign=running, name="после")
        services.campaign_finish(campaign=running, by=game_master)
        _u, newcomer = make_player("late")
        with pytest.raises(Conflict) as exc:
            services.membership_request(campaign=running, character=newcomer)
        assert exc.value.code == "campaign_finished"
        with pytest.raises(Conflict):
            battle_event_append(battle_id=battle.id, expected_seq=0,
                                events=[NewEvent("battle_started", {"attacker": "A", "defender": "D"})])
        frozen = running.projection.data
        services.campaign_projections_rebuild(campaign=running)
        running.projection.refresh_from_db()
        assert running.projection.data == frozen

    def test_copy_makes_a_template_without_players_or_history(self, running, game_master):
        Objective.objects.create(campaign=running, name="Станция", initial_holder="attacker")
        new = services.campaign_copy(campaign=running, by=game_master, name="Кампания-2")
        assert new.status == CampaignStatus.DRAFT and new.copied_from == running
        assert list(new.objectives.values_list("name", flat=True)) == ["Станция"]
        assert not new.memberships.exists() and not new.events.exists()
        assert new.award_rules.count() == running.award_rules.count()

    def test_only_the_game_master_runs_the_lifecycle(self, campaign, player):
        with pytest.raises(Forbidden):
            services.campaign_start(campaign=campaign, by=player)
        with pytest.raises(Forbidden):
            services.campaign_finish(campaign=campaign, by=player)


@pytest.mark.django_db
def test_a_visitor_signs_up_as_a_player_and_creates_a_character(client):
    from django.contrib.auth.models import User

    r = client.post("/accounts/signup/", {"username": "novobranets", "email": "vasya@example.org",
                                          "password1": "Zvezda-1943-kursk", "password2": "Zvezda-1943-kursk"})
    assert r.status_code == 302
    user = User.objects.get(username="novobranets")
    assert user.email == "vasya@example.org"
    assert user.groups.filter(name="player").exists()
    su = Nationality.objects.get(code="su")
    r = client.post("/characters/", {"name": "Вася Тёркин", "nationality": su.pk, "rank": "corporal"})
    assert r.status_code == 302
    character = Character.objects.get(owner=user)
    page = client.get(f"/characters/{character.pk}/").content.decode()
    assert "Вася Тёркин" in page


@pytest.mark.django_db
def test_battle_admin_shows_state_and_log(admin_client, running):
    from battles.services import NewEvent, battle_create, battle_event_append, battle_replay

    battle = battle_create(campaign=running, name="админ")
    battle_event_append(battle_id=battle.id, expected_seq=0,
                        events=[NewEvent("battle_started", {"attacker": "A", "defender": "D"})])
    battle_replay(battle_id=battle.id)
    page = admin_client.get(f"/admin/battles/battle/{battle.id}/change/").content.decode()
    # the state in words (Russian by default), not the projection's raw status
    assert "событие 1 из 1 · идёт · ход 1" in page and "Бой начат" in page and "battle_started" not in page


@pytest.mark.django_db
def test_the_campaign_log_is_read_only_in_the_admin(admin_client, make_player):
    _u, character = make_player("arkhiv")
    event = CampaignEvent.objects.get(character=character)
    assert admin_client.get(f"/admin/campaign/campaignevent/{event.pk}/change/").status_code == 200
    assert admin_client.post(f"/admin/campaign/campaignevent/{event.pk}/change/", {"type": "promotion"}).status_code == 403
    assert admin_client.post(f"/admin/campaign/campaignevent/{event.pk}/delete/", {"post": "yes"}).status_code == 403
    assert admin_client.get("/admin/campaign/campaignevent/add/").status_code == 403
    assert CampaignEvent.objects.get(pk=event.pk).type == "character_enlisted"

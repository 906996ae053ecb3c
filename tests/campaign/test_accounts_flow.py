"""Issue 13, accounts: sign-up collects a valid, unique e-mail (password reset
needs one) and is linked from the home page and the header; a character's
owner edits its name and photo, never its rank (V-RANK-4: promotions only)."""
from __future__ import annotations

import io

import pytest
from django.test import Client

from campaign.models import Character, Nationality

pytestmark = pytest.mark.django_db

PW = "Zvezda-1943-kursk"


def _signup(client, **extra):
    data = {"username": "novobranets", "email": "vasya@example.org", "password1": PW, "password2": PW, **extra}
    return client.post("/accounts/signup/", data, HTTP_ACCEPT_LANGUAGE="ru")


def test_sign_up_requires_a_valid_unique_email(client):
    from django.contrib.auth.models import User

    html = _signup(client, email="").content.decode()
    assert "Электронная почта" in html and "Обязательное поле" in html
    html = _signup(client, email="not-an-address").content.decode()
    assert "Введите правильный адрес электронной почты" in html
    User.objects.create_user(username="old", email="Vasya@Example.org", password="x")
    en = client.post("/accounts/signup/", {"username": "novobranets", "email": "vasya@example.org",
                                           "password1": PW, "password2": PW}, HTTP_ACCEPT_LANGUAGE="en")
    assert "An account with this e-mail already exists." in en.content.decode()
    assert not User.objects.filter(username="novobranets").exists()
    assert _signup(client, email="v.terkin@example.org").status_code == 302
    assert User.objects.get(username="novobranets").email == "v.terkin@example.org"


def test_the_welcome_after_sign_up_shows_on_the_next_page_and_only_there(client):
    """A flash message rides in the session (``MESSAGE_STORAGE``) across the sign-in's new session key: the
    page the sign-up redirects to shows it, the next page does not."""
    welcome = "Добро пожаловать! Создайте персонажа и вступите в кампанию."
    r = _signup(client)
    assert r.status_code == 302
    assert "messages" not in r.cookies  # not the cookie store
    assert welcome in client.get(r["Location"], HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert welcome not in client.get(r["Location"], HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def test_the_home_page_and_the_header_link_to_sign_up(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert html.count('href="/accounts/signup/"') == 2  # header and the home page's invitation
    assert 'data-testid="home-signup"' in html


def _png() -> io.BytesIO:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (40, 60), "green").save(buf, "PNG")
    buf.seek(0)
    buf.name = "me.png"
    return buf


def test_the_owner_edits_name_and_photo_but_not_the_rank(player, tmp_path, settings):
    from campaign import services

    settings.MEDIA_ROOT = tmp_path
    character = services.character_create(owner=player, name="Вася", nationality=Nationality.objects.get(code="su"))
    owner = Client()
    owner.force_login(player)
    page = owner.get(f"/characters/{character.pk}/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert f'href="/characters/{character.pk}/edit/"' in page
    form = owner.get(f"/characters/{character.pk}/edit/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'name="rank"' not in form and "повышением" in form
    r = owner.post(f"/characters/{character.pk}/edit/", {"name": "Василий Тёркин", "photo": _png(),
                                                          "rank": "captain"})
    assert r.status_code == 302
    character.refresh_from_db()
    assert character.name == "Василий Тёркин" and character.photo and character.rank == "corporal"
    r = owner.post(f"/characters/{character.pk}/edit/", {"name": "  "}, HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 200 and "This field is required." in r.content.decode()


def test_a_stranger_cannot_edit_someone_elses_character(player, outsider):
    from campaign import services

    character = services.character_create(owner=player, name="Вася", nationality=Nationality.objects.get(code="su"))
    stranger = Client()
    stranger.force_login(outsider)
    assert stranger.get(f"/characters/{character.pk}/edit/").status_code == 404
    assert stranger.post(f"/characters/{character.pk}/edit/", {"name": "Чужой"}).status_code == 404
    assert Character.objects.get(pk=character.pk).name == "Вася"
    page = stranger.get(f"/characters/{character.pk}/").content.decode()
    assert "/edit/" not in page

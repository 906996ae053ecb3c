"""A page's error answers speak the reader's language and say what to do next: Django's own 400, 403, 404
and 500 pages and its CSRF failure page are English only ("Not Found", "403 Forbidden", "CSRF verification
failed"), so the club's error pages replace them (``campaign/templates/400.html``, ``403.html``, ``404.html``,
``500.html``, ``403_csrf.html``), in Russian by default and in English on request."""
from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views import defaults

DJANGO_DEFAULTS = ("Not Found", "403 Forbidden", "Server Error (500)", "Bad Request (400)",
                   "CSRF verification failed")


def no_django_default(html: str) -> bool:
    return not any(text in html for text in DJANGO_DEFAULTS)


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "title", "says"), [
    ("ru", "Страница не найдена", "ничего нет"), ("en", "Page not found", "There is nothing at")])
def test_an_unknown_page_is_a_404_in_the_readers_language_naming_the_address(lang, title, says):
    r = Client().get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=lang)
    html = r.content.decode()
    assert r.status_code == 404
    assert f"<h1>{title}</h1>" in html and says in html and "/no-such-page/" in html
    assert f'<html lang="{lang}">' in html and no_django_default(html)
    assert 'href="/accounts/login/?next=/no-such-page/"' in html  # a stranger is offered the login


@pytest.mark.parametrize(("who", "says"), [
    ("outsider", "только для мастера, а записи боя вносят его участники"), (None, "Сначала войдите")])
def test_a_forbidden_action_tells_a_player_who_records_and_a_stranger_to_log_in(battle, outsider, who, says):
    client = Client()
    if who:
        client.force_login(outsider)
    # The battle table's record view refuses anyone who may not record there, before it reads the form.
    r = client.post(f"/battles/{battle.id}/record/", {"form": "quick_turn"}, HTTP_ACCEPT_LANGUAGE="ru")
    html = r.content.decode()
    assert r.status_code == 403
    assert "<h1>Нет доступа</h1>" in html and says in html and "Ничего не записано." in html
    assert no_django_default(html)


def test_a_game_master_only_page_refuses_a_player_with_the_same_page_in_english(battle, player):
    client = Client()
    client.force_login(player)
    r = client.get(f"/battles/{battle.id}/setup/", HTTP_ACCEPT_LANGUAGE="en")
    html = r.content.decode()
    assert r.status_code == 403
    assert "<h1>No access</h1>" in html and "the game master's alone" in html and no_django_default(html)


def test_the_server_error_page_needs_no_request_and_speaks_both_languages():
    request = RequestFactory().get("/battles/1/")
    for lang, title in (("ru", "Ошибка сервера"), ("en", "Server error")):
        with translation.override(lang):
            html = defaults.server_error(request).content.decode()
        assert f"<h1>{title}</h1>" in html and f'<html lang="{lang}">' in html and no_django_default(html)
    with translation.override("ru"):
        assert "журнал боя" in defaults.server_error(request).content.decode()


def test_a_bad_request_page_is_translated():
    request = RequestFactory().get("/")
    with translation.override("ru"):
        html = defaults.bad_request(request, Exception()).content.decode()
    assert "<h1>Неверный запрос</h1>" in html and "Ничего не записано." in html and no_django_default(html)


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "title"), [("ru", "Форма устарела"), ("en", "The form has expired")])
def test_a_form_sent_without_its_csrf_token_says_to_reload_the_page(lang, title):
    client = Client(enforce_csrf_checks=True)
    r = client.post("/accounts/login/", {"username": "x", "password": "y"}, HTTP_ACCEPT_LANGUAGE=lang)
    html = r.content.decode()
    assert r.status_code == 403
    assert f"<h1>{title}</h1>" in html and no_django_default(html)

"""An API error speaks the request's language (issue 29 §1): ``message`` in it,
``message_ru`` in Russian and ``message_en`` in English, whatever the language of
the request, and never an internal key such as ``non_field_errors`` (``fields``, for
programs, keeps DRF's detail as it is)."""
from __future__ import annotations

import pytest
from django.test import Client

CYRILLIC = set("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")


def _error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    error = response.json()["error"]
    for key in ("field", "message", "message_ru", "message_en"):  # what a person reads
        assert "non_field_errors" not in str(error[key]), error
    return error


def _languages_right(error: dict, lang: str) -> None:
    assert CYRILLIC & set(error["message_ru"].lower()), error
    assert not CYRILLIC & set(error["message_en"].lower()), error
    assert error["message"] == error[f"message_{lang}"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_token_that_is_not_valid(lang):
    r = Client(HTTP_ACCEPT_LANGUAGE=lang, HTTP_AUTHORIZATION="Token nonsense").get("/api/campaigns/")
    error = _error(r, 401)
    _languages_right(error, lang)
    assert error["message_en"] == "Invalid token."


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_wrong_password(game_master, lang):
    r = Client(HTTP_ACCEPT_LANGUAGE=lang).post("/api/auth/token/", {"username": "master", "password": "guess"},
                                               content_type="application/json")
    error = _error(r, 400)
    _languages_right(error, lang)
    assert error["code"] == "invalid_credentials" and error["field"] is None


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_missing_field_names_it_in_both_languages(player_client, lang):
    r = player_client.post("/api/characters/", {"nationality": "su"}, format="json", HTTP_ACCEPT_LANGUAGE=lang)
    error = _error(r, 400)
    _languages_right(error, lang)
    assert error["field"] == "name"
    assert (error["message_ru"], error["message_en"]) == ("name: Обязательное поле.", "name: This field is required.")
    assert error["fields"]["name"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_body_of_the_wrong_shape_names_no_internal_key(player_client, lang):
    r = player_client.post("/api/characters/", [1, 2], format="json", HTTP_ACCEPT_LANGUAGE=lang)
    error = _error(r, 400)
    _languages_right(error, lang)
    assert error["field"] is None and error["message_en"].startswith("Invalid data. Expected a dictionary")


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_method_the_path_does_not_take(player_client, lang):
    error = _error(player_client.delete("/api/event-types/", HTTP_ACCEPT_LANGUAGE=lang), 405)
    _languages_right(error, lang)
    assert error["message_en"] == 'Method "DELETE" not allowed.'

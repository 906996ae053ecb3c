"""The admin is the game master's desk: its header names Shtab in the
reader's language, never Django's default title."""
import pytest


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "title"), [("ru", "Штаб · стол мастера"), ("en", "Shtab · the game master's desk")])
def test_the_admin_header_names_shtab(admin_client, lang, title):
    html = admin_client.get("/admin/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert title in html.replace("&#x27;", "'") and "Django" not in html.split("<body", 1)[1].split("</header>", 1)[0]

"""The game master reads the battle log in the admin as the log's sentences,
with each event's title: no event type code, dict or JSON on the battle's page
or the log's list ("people read names, not ids"). The stored record stays on
an event's own page, folded away, for checking a correction."""
import pytest
from django.test import Client

from battles import selectors
from battles.models import Battle, BattleEvent
from battles.table import report
from tests.pages import visible_text
from tests.test_nothing_raw import enum_values, raw_in


@pytest.fixture
def demo(db):
    from django.core.management import call_command

    call_command("loaddemo")


def gm(language):
    from django.contrib.auth.models import User

    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    client.force_login(User.objects.get(username="master"))
    return client


def played():
    return Battle.objects.filter(head_seq__gt=10).order_by("pk").first()


@pytest.mark.django_db
@pytest.mark.parametrize("language,title", [("ru", "Ход окончен"), ("en", "Turn ended")])
def test_the_battles_admin_page_and_the_log_list_read_as_sentences(demo, language, title):
    battle = played()
    assert battle is not None, "the demo has a played battle"
    client = gm(language)
    values = enum_values()
    names = selectors.battle_names(battle_id=battle.pk)
    state = selectors.battle_state_get(battle_id=battle.pk).state
    sides = {"attacker": battle.campaign.attacker_name, "defender": battle.campaign.defender_name}
    last = BattleEvent.objects.filter(battle=battle).order_by("-seq").first()
    expected = report.sentence(last.type, last.data, language, names=names, state=state, sides=sides)
    for url in (f"/admin/battles/battle/{battle.pk}/change/",
                f"/admin/battles/battleevent/?battle__campaign__id__exact={battle.campaign_id}"):
        response = client.get(url)
        assert response.status_code == 200, url
        text = visible_text(response.content.decode())
        if language == "ru":  # the demo's own texts are bilingual: «Станция у обороняющихся. / The defender…»
            text = "\n".join(line.split(" / ")[0] for line in text.splitlines())
        assert expected.split(" (")[0][:40] in text, (url, expected)  # the log's own sentence
        codes = sorted({e for e in BattleEvent.objects.filter(battle=battle).values_list("type", flat=True)})
        assert raw_in(text, set(codes), language) == [], (url, "event type codes on the page")
        assert "{\"" not in text and "{'" not in text, (url, "a dict or JSON on the page")
        assert raw_in(text, values, language) == [] or language == "en", (url, raw_in(text, values, language))
    turn = BattleEvent.objects.filter(battle=battle, type="turn_ended").first()
    page = client.get(f"/admin/battles/battleevent/{turn.pk}/change/")
    assert page.status_code == 200
    assert title in visible_text(page.content.decode())

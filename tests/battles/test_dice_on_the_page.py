"""The battle page shows its committed dice (issue 27 §4, docs/verify.md
"Committed dice"): the commitment from the battle's creation, before the
first roll; the secret once the battle has ended, never before; each with one
sentence on how to check and a link to the log's verification; in Russian and
English; for a participant, the game master and an anonymous reader alike."""
from __future__ import annotations

import hashlib
import html
import re

import pytest
from django.test import Client

from tests.battles.test_committed_dice import end, played
from tests.conftest import enlist_at

SAYS = {  # what the page says before the end, and after, in each language
    "ru": ("Заявка костей (SHA-256 секрета боя)", "секрет появится здесь, когда бой закончится",
           "Секрет костей, раскрытый по окончании боя", "SHA-256 секрета должен совпасть с заявкой"),
    "en": ("Dice commitment (SHA-256 of the battle's secret)", "the secret is shown here when the battle ends",
           "Dice secret, revealed when the battle ended", "the SHA-256 of the secret must be the commitment"),
}


def _pages(battle, readers, lang):
    out = {}
    for who, user in readers.items():
        client = Client(HTTP_ACCEPT_LANGUAGE=lang)
        client.cookies["django_language"] = lang
        if user is not None:
            client.force_login(user)
        r = client.get(f"/battles/{battle.id}/")
        assert r.status_code == 200, who
        live = client.get(f"/battles/{battle.id}/live/?since=-1&state=-1")
        assert live.status_code == 200, who
        out[who] = (html.unescape(r.content.decode()), live.content.decode())
    return out


def _dice_section(page):
    found = re.search(r'<section class="dice".*?</section>', page, re.S)
    assert found, "no dice section"
    return found.group(0)


@pytest.fixture
def readers(game_master, player):
    return {"anonymous": None, "participant": player, "game master": game_master}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", sorted(SAYS))
def test_the_commitment_is_on_the_page_before_the_first_roll_and_the_secret_only_after_the_end(
        campaign, readers, lang):
    from battles.services import battle_create

    before, hint, revealed, check = SAYS[lang]
    fresh = battle_create(campaign=campaign, name="before any roll")
    enlist_at(fresh, readers["participant"], "defender")
    for who, (page, live) in _pages(fresh, readers, lang).items():
        section = _dice_section(page)
        assert fresh.dice_commitment in section and before in section and hint in section, who
        assert f'href="/api/battles/{fresh.id}/log/verify/"' in section, who
        assert fresh.dice_secret not in page and fresh.dice_secret not in live, who
        assert revealed not in page, who
    battle = played(campaign, "rolled, not ended")  # service dice derived from the secret, the battle running
    enlist_at(battle, readers["participant"], "defender")
    secret = battle.dice_secret
    for who, (page, live) in _pages(battle, readers, lang).items():
        assert battle.dice_commitment in _dice_section(page), who
        assert secret not in page and secret not in live and revealed not in page, who
    end(battle)
    for who, (page, _live) in _pages(battle, readers, lang).items():
        section = _dice_section(page)
        assert battle.dice_commitment in section and secret in section and revealed in section, who
        assert check in section and f'href="/api/battles/{battle.id}/log/verify/"' in section, who
        assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == battle.dice_commitment


@pytest.mark.django_db
def test_a_battle_without_a_commitment_shows_no_dice_section(battle, client):
    from battles.models import Battle

    Battle.objects.filter(pk=battle.pk).update(dice_secret="", dice_commitment="")  # (a battle from before)
    page = client.get(f"/battles/{battle.id}/").content.decode()
    assert 'class="dice"' not in page

"""A table wider than a phone scrolls inside its box, and a keyboard user must
reach that box to scroll it (axe ``scrollable-region-focusable``, issue 29 §4):
every scrolling box is a focusable region named in the reader's language."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent
SCROLL = re.compile(r'<div class="scroll"[^>]*>')


def _problems(html: str) -> list[str]:
    found = SCROLL.findall(html)
    assert found, "no scrolling table on the page"
    return [tag for tag in found if 'tabindex="0"' not in tag or 'role="region"' not in tag
            or not re.search(r'aria-label="[^"{]+"', tag)]


def test_every_template_marks_its_scrolling_box_a_focusable_region():
    bad = []
    for path in ROOT.glob("*/templates/**/*.html"):
        for tag in SCROLL.findall(path.read_text(encoding="utf-8")):
            if 'tabindex="0"' not in tag or 'role="region"' not in tag or 'aria-label="' not in tag:
                bad.append(f"{path.relative_to(ROOT)}: {tag}")
    assert not bad, 'give each tabindex="0" role="region" aria-label="…":\n' + "\n".join(bad)


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "word"), [("ru", "Стороны"), ("en", "Sides")])
def test_the_campaign_and_battle_pages_name_their_scrolling_tables(lang, word, django_capture_on_commit_callbacks):
    from django.core.management import call_command

    from battles.models import Battle
    from campaign.models import Campaign

    with django_capture_on_commit_callbacks(execute=True):  # the replays, so the battle page has its state
        call_command("loaddemo")
    campaign = Campaign.objects.order_by("pk").first()
    battle = Battle.objects.filter(campaign=campaign, head_seq__gt=0).order_by("pk").first()
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'role="region" aria-label="{word}"' in page
    for url in (f"/campaigns/{campaign.pk}/", f"/campaigns/{campaign.pk}/standings/", f"/battles/{battle.pk}/"):
        assert not _problems(client.get(url).content.decode()), url

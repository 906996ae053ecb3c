"""The end of a battle on its page: what the campaign recorded of it (``battles.results`` concludes an
ended battle once the worker has replayed it), the game master's award and promotion proposals, and the
battle's committed dice, revealed once it ended.

The page shows them, and so does a live answer once the battle has ended (``views.live_answer``): the
players see the results come in without reloading. Until the conclusion is recorded the answer says so
(``concluded`` false), and the page's script asks again a few seconds later."""
from __future__ import annotations

from typing import Any

from django.urls import reverse

from battles import selectors
from battles.access import BattleRole
from battles.models import Battle
from campaign.chronicle import describe_all

from .command import ENTRIES as COMMAND  # the pre-battle command (V-RANK-9..12): a section of its own


def results(battle: Battle, role: BattleRole, lang: str) -> dict[str, Any]:
    """The battle's campaign events (its command, then its outcomes), whether its conclusion is recorded
    (``battle_result``), and, for the game master, its proposals: two queries, three for him."""
    events = describe_all(selectors.battle_campaign_events(battle=battle))
    proposals = selectors.battle_proposals(battle_id=battle.id) if role.is_game_master else []
    for p in proposals:
        p.award_label = p.award.name(lang) if p.award else ""
    return {"command": [e for e in events if e.type in COMMAND],
            "outcomes": [e for e in events if e.type not in COMMAND],
            "concluded": any(e.type == "battle_result" for e in events), "proposals": proposals}


def dice(battle: Battle) -> dict[str, str] | None:
    """The battle's committed dice for its page (issue 27 §4, docs/verify.md "Committed dice"): the
    commitment always; the secret only once revealed (the battle ended, or its campaign is finished),
    never before, to anyone. ``None`` for a battle without a commitment."""
    if not battle.dice_commitment:
        return None
    revealed = selectors.battle_dice_revealed(battle=battle)
    return {"commitment": battle.dice_commitment, "secret": battle.dice_secret if revealed else "",
            "verify_url": reverse("api-battle-log-verify", args=[battle.id])}

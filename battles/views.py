"""Battle pages: the table checklist, pre-battle command, the report turn by
turn, the log and the current state; the recording panel for the people at
the table (``battles.recording``)."""
from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language

from campaign.chronicle import describe_all
from campaign.selectors import battle_campaign_events

from . import recording, report, selectors
from .access import battle_role
from .models import Battle


def render_battle_page(request, battle: Battle, *, record_panel: dict[str, Any] | None = None, status: int = 200):
    """The battle page for this request's user. ``record_panel`` replaces the
    recording panel's context (a refused or stale form re-rendered with its
    input and the error); otherwise a fresh panel is built."""
    role = battle_role(battle=battle, user=request.user)
    view = selectors.battle_state_get(battle_id=battle.id)
    names = selectors.battle_names(battle_id=battle.id)
    events = list(selectors.battle_events_list(battle_id=battle.id, after=0, limit=100_000))
    campaign_events = describe_all(battle_campaign_events(battle=battle))
    command = [e for e in campaign_events if e.type in ("command_roll", "command_assigned")]
    if record_panel is None:
        record_panel = recording.record_panel(battle=battle, role=role, view=view, names=names, request=request)
    return render(request, "battles/battle_detail.html", {
        "battle": battle, "view": view, "events": events, "campaign": battle.campaign, "role": role,
        "names": names, "record_panel": record_panel,
        "chapters": report.report(events, view.state, get_language() or "ru"),
        "final": report.final_state(view.state),
        "command": command, "outcomes": [e for e in campaign_events if e not in command],
        "objectives": list(battle.objectives.all()),
    }, status=status)


def battle_detail(request, battle_id: int):
    battle = get_object_or_404(Battle.objects.select_related("campaign"), pk=battle_id)
    return render_battle_page(request, battle)

"""Public battle pages: the table checklist, pre-battle command, the report
turn by turn, the log and the current state."""
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language

from campaign.chronicle import describe_all
from campaign.selectors import battle_campaign_events

from . import report, selectors
from .models import Battle


def battle_detail(request, battle_id: int):
    battle = get_object_or_404(Battle.objects.select_related("campaign"), pk=battle_id)
    view = selectors.battle_state_get(battle_id=battle.id)
    events = list(selectors.battle_events_list(battle_id=battle.id, after=0, limit=100_000))
    campaign_events = describe_all(battle_campaign_events(battle=battle))
    command = [e for e in campaign_events if e.type in ("command_roll", "command_assigned")]
    return render(request, "battles/battle_detail.html", {
        "battle": battle, "view": view, "events": events, "campaign": battle.campaign,
        "chapters": report.report(events, view.state, get_language() or "ru"),
        "final": report.final_state(view.state),
        "command": command, "outcomes": [e for e in campaign_events if e not in command],
        "objectives": list(battle.objectives.all()),
    })

"""Public battle pages: the log and the current state."""
from django.shortcuts import get_object_or_404, render

from . import selectors
from .models import Battle


def battle_detail(request, battle_id: int):
    battle = get_object_or_404(Battle.objects.select_related("campaign"), pk=battle_id)
    state = selectors.battle_state_get(battle_id=battle.id)
    events = list(selectors.battle_events_list(battle_id=battle.id, after=0, limit=1000))
    return render(request, "battles/battle_detail.html", {"battle": battle, "view": state, "events": events})

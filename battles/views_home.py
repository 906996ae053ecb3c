"""The home page: the campaigns, and a signed-in player's own evening (it
reads every app: battles, the top of the app layers, .importlinter)."""
from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import get_language

from campaign.models import Campaign

from .home_selectors import player_home


def home(request):
    """Everyone sees the campaigns; a signed-in player first sees his own
    evening: his next battle one click from its table, his characters,
    rosters and awards (``player_home``)."""
    campaigns = Campaign.objects.prefetch_related("battles").order_by("-created_at")
    return render(request, "campaign/home.html", {
        "campaigns": campaigns, "home": player_home(user=request.user, language=get_language() or "ru")})

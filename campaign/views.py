"""Public campaign pages."""
from django.shortcuts import get_object_or_404, render

from .models import Campaign


def home(request):
    campaigns = Campaign.objects.prefetch_related("battles").order_by("-created_at")
    return render(request, "campaign/home.html", {"campaigns": campaigns})


def campaign_detail(request, campaign_id: int):
    campaign = get_object_or_404(Campaign.objects.prefetch_related("battles__projection"), pk=campaign_id)
    return render(request, "campaign/campaign_detail.html", {"campaign": campaign})

"""Campaign pages and the campaign API (``urlpatterns`` and ``api_urls``, composed by config/urls.py)."""
from django.urls import path

from . import accounts, api, views

api_urls = [
    path("auth/token/", accounts.TokenView.as_view(), name="api-token"),
    path("campaigns/", api.CampaignListView.as_view(), name="api-campaigns"),
    path("campaigns/<int:campaign_id>/", api.CampaignDetailView.as_view(), name="api-campaign"),
    path("campaigns/<int:campaign_id>/standings/", api.StandingsView.as_view(), name="api-standings"),
    path("campaigns/<int:campaign_id>/chronicle/", api.ChronicleView.as_view(), name="api-chronicle"),
    path("campaigns/<int:campaign_id>/join/", api.JoinView.as_view(), name="api-join"),
    path("campaigns/<int:campaign_id>/log/verify/", api.CampaignLogVerifyView.as_view(),
         name="api-campaign-log-verify"),
    path("characters/", api.CharacterListView.as_view(), name="api-characters"),
    path("characters/<int:character_id>/", api.CharacterDetailView.as_view(), name="api-character"),
    path("proposals/", api.ProposalListView.as_view(), name="api-proposals"),
    path("proposals/<int:proposal_id>/decide/", api.ProposalDecideView.as_view(), name="api-proposal-decide"),
]

urlpatterns = [
    path("favicon.ico", views.favicon, name="favicon"),
    path("campaigns/<int:campaign_id>/", views.campaign_detail, name="campaign-detail"),
    path("campaigns/<int:campaign_id>/standings/", views.standings, name="campaign-standings"),
    path("campaigns/<int:campaign_id>/chronicle/", views.chronicle, name="campaign-chronicle"),
    path("campaigns/<int:campaign_id>/feed/", views.ChronicleFeed(), name="campaign-feed"),
    path("campaigns/<int:campaign_id>/join/", views.campaign_join, name="campaign-join"),
    path("campaigns/<int:campaign_id>/join/<uuid:token>/", views.campaign_join, name="campaign-invite"),
    path("characters/", views.my_characters, name="my-characters"),
    path("characters/<int:character_id>/", views.character_detail, name="character-detail"),
    path("characters/<int:character_id>/edit/", views.character_edit, name="character-edit"),
    path("accounts/signup/", views.signup, name="signup"),
    # Before django.contrib.auth.urls (config/urls.py): the same address, refusing plainly when no mail goes out.
    path("accounts/password_reset/", accounts.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/logout/", accounts.LogoutView.as_view(), name="logout"),  # forgets the offline pages (issue 30)
]

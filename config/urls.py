"""URL map: pages, admin, the REST API and its schema."""
from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from battles import api as battles_api
from battles import api_command, api_muster
from battles import recording as battle_recording
from battles import views as battle_views
from battles import views_home as battle_home_views
from battles import views_setup as battle_setup_views
from campaign import accounts
from campaign import api as campaign_api
from campaign import views as campaign_views
from config import apidocs
from rosters import api_cards
from rosters import views as roster_views

api = [
    path("auth/token/", accounts.TokenView.as_view(), name="api-token"),
    path("battles/", battles_api.BattleListView.as_view(), name="api-battles"),
    path("battles/<int:battle_id>/", battles_api.BattleDetailView.as_view(), name="api-battle"),
    path("battles/<int:battle_id>/events/", battles_api.BattleEventsView.as_view(), name="api-battle-events"),
    path("battles/<int:battle_id>/state/", battles_api.BattleStateView.as_view(), name="api-battle-state"),
    path("battles/<int:battle_id>/event-types/", battles_api.BattleEventTypesView.as_view(),
         name="api-battle-event-types"),
    path("battles/<int:battle_id>/participants/", api_muster.ParticipantsView.as_view(), name="api-participants"),
    path("battles/<int:battle_id>/participants/<int:participant_id>/", api_muster.ParticipantDetailView.as_view(),
         name="api-participant"),
    path("battles/<int:battle_id>/muster/", api_muster.MusterView.as_view(), name="api-muster"),
    path("events/", battles_api.EventFeedView.as_view(), name="api-event-feed"),
    path("event-types/", battles_api.EventTypesView.as_view(), name="api-event-types"),
    path("campaigns/", campaign_api.CampaignListView.as_view(), name="api-campaigns"),
    path("campaigns/<int:campaign_id>/", campaign_api.CampaignDetailView.as_view(), name="api-campaign"),
    path("campaigns/<int:campaign_id>/standings/", campaign_api.StandingsView.as_view(), name="api-standings"),
    path("campaigns/<int:campaign_id>/chronicle/", campaign_api.ChronicleView.as_view(), name="api-chronicle"),
    path("campaigns/<int:campaign_id>/join/", campaign_api.JoinView.as_view(), name="api-join"),
    path("characters/", campaign_api.CharacterListView.as_view(), name="api-characters"),
    path("characters/<int:character_id>/", campaign_api.CharacterDetailView.as_view(), name="api-character"),
    path("battles/<int:battle_id>/command/roll/", api_command.CommandRollView.as_view(), name="api-command-roll"),
    path("battles/<int:battle_id>/command/assign/", api_command.CommandAssignView.as_view(),
         name="api-command-assign"),
    path("rosters/<int:roster_id>/cards.pdf", api_cards.RosterCardsPdfView.as_view(), name="api-roster-cards-pdf"),
    path("characters/<int:character_id>/card.pdf", api_cards.CharacterCardPdfView.as_view(),
         name="api-character-card-pdf"),
    path("proposals/", campaign_api.ProposalListView.as_view(), name="api-proposals"),
    path("proposals/<int:proposal_id>/decide/", campaign_api.ProposalDecideView.as_view(), name="api-proposal-decide"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file (no inline script: CSP).
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="shtab/swagger_ui.html"),
         name="swagger-ui"),
    path("redoc/redoc.standalone.js", apidocs.redoc_bundle, name="redoc-bundle"),
    path("redoc/", SpectacularRedocView.as_view(url_name="schema", template_name="shtab/redoc.html"), name="redoc"),
]

# The admin is the game master's desk: name it so, in both languages.
admin.site.site_header = _("Shtab · the game master's desk")
admin.site.site_title = _("Shtab")
admin.site.index_title = _("The campaign's paperwork")

urlpatterns = [
    path("", battle_home_views.home, name="home"),
    path("favicon.ico", campaign_views.favicon, name="favicon"),
    path("campaigns/<int:campaign_id>/", campaign_views.campaign_detail, name="campaign-detail"),
    path("campaigns/<int:campaign_id>/standings/", campaign_views.standings, name="campaign-standings"),
    path("campaigns/<int:campaign_id>/chronicle/", campaign_views.chronicle, name="campaign-chronicle"),
    path("campaigns/<int:campaign_id>/feed/", campaign_views.ChronicleFeed(), name="campaign-feed"),
    path("campaigns/<int:campaign_id>/join/", campaign_views.campaign_join, name="campaign-join"),
    path("campaigns/<int:campaign_id>/join/<uuid:token>/", campaign_views.campaign_join, name="campaign-invite"),
    path("characters/", campaign_views.my_characters, name="my-characters"),
    path("characters/<int:character_id>/", campaign_views.character_detail, name="character-detail"),
    path("characters/<int:character_id>/edit/", campaign_views.character_edit, name="character-edit"),
    path("cards/character/<int:character_id>/", roster_views.character_cards, name="character-cards"),
    path("cards/roster/<int:roster_id>/", roster_views.roster_cards, name="roster-cards"),
    path("battles/<int:battle_id>/", battle_views.battle_detail, name="battle-detail"),
    path("battles/<int:battle_id>/setup/", battle_setup_views.battle_setup_page, name="battle-setup"),
    path("campaigns/<int:campaign_id>/battles/new/", battle_setup_views.battle_schedule_page, name="battle-schedule"),
    path("battles/<int:battle_id>/live/", battle_views.battle_live, name="battle-live"),
    path("battles/<int:battle_id>/void/", battle_views.battle_void, name="battle-void"),
    path("battles/<int:battle_id>/end/", battle_views.battle_end, name="battle-end"),
    path("battles/<int:battle_id>/record/", battle_recording.battle_record, name="battle-record"),
    path("battles/<int:battle_id>/take-back/", battle_recording.battle_take_back, name="battle-take-back"),
    path("battles/<int:battle_id>/command/", battle_views.battle_command_roll, name="battle-command-roll"),
    path("battles/<int:battle_id>/command/posts/", battle_views.battle_command_assign, name="battle-command-assign"),
    path("accounts/signup/", campaign_views.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("api/", include(api)),
    path("", include("rosters.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]
if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

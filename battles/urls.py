"""Battle pages and the battle API (``urlpatterns`` and ``api_urls``, composed by config/urls.py)."""
from django.urls import path

from . import api, views_home
from .setup import api as setup_api
from .setup import views as setup_views
from .table import api_command, offline, views

api_urls = [
    path("battles/", api.BattleListView.as_view(), name="api-battles"),
    path("battles/<int:battle_id>/", api.BattleDetailView.as_view(), name="api-battle"),
    path("battles/<int:battle_id>/events/", api.BattleEventsView.as_view(), name="api-battle-events"),
    path("battles/<int:battle_id>/state/", api.BattleStateView.as_view(), name="api-battle-state"),
    path("battles/<int:battle_id>/log/verify/", api.BattleLogVerifyView.as_view(), name="api-battle-log-verify"),
    path("battles/<int:battle_id>/event-types/", api.BattleEventTypesView.as_view(), name="api-battle-event-types"),
    path("battles/<int:battle_id>/participants/", setup_api.ParticipantsView.as_view(), name="api-participants"),
    path("battles/<int:battle_id>/participants/<int:participant_id>/", setup_api.ParticipantDetailView.as_view(),
         name="api-participant"),
    path("battles/<int:battle_id>/muster/", setup_api.MusterView.as_view(), name="api-muster"),
    path("battles/<int:battle_id>/command/roll/", api_command.CommandRollView.as_view(), name="api-command-roll"),
    path("battles/<int:battle_id>/command/assign/", api_command.CommandAssignView.as_view(),
         name="api-command-assign"),
    path("events/", api.EventFeedView.as_view(), name="api-event-feed"),
    path("event-types/", api.EventTypesView.as_view(), name="api-event-types"),
]

urlpatterns = [
    path("", views_home.home, name="home"),
    path("battles/<int:battle_id>/", views.battle_detail, name="battle-detail"),
    path("battles/sw.js", offline.service_worker, name="battle-service-worker"),
    path("battles/<int:battle_id>/manifest.webmanifest", offline.manifest, name="battle-manifest"),
    path("battles/<int:battle_id>/setup/", setup_views.battle_setup_page, name="battle-setup"),
    path("campaigns/<int:campaign_id>/battles/new/", setup_views.battle_schedule_page, name="battle-schedule"),
    path("battles/<int:battle_id>/live/", views.battle_live, name="battle-live"),
    path("battles/<int:battle_id>/void/", views.battle_void, name="battle-void"),
    path("battles/<int:battle_id>/end/", views.battle_end, name="battle-end"),
    path("battles/<int:battle_id>/record/", views.battle_record, name="battle-record"),
    path("battles/<int:battle_id>/take-back/", views.battle_take_back, name="battle-take-back"),
    path("battles/<int:battle_id>/command/", views.battle_command_roll, name="battle-command-roll"),
    path("battles/<int:battle_id>/command/posts/", views.battle_command_assign, name="battle-command-assign"),
]

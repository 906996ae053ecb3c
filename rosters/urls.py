"""Roster pages and the roster API (``urlpatterns`` and ``api_urls``, composed by config/urls.py)."""
from django.urls import path

from . import api, api_cards, views

api_urls = [
    path("rosters/", api.RosterListView.as_view(), name="api-rosters"),
    path("rosters/import/", api.RosterImportView.as_view(), name="api-roster-import"),
    path("rosters/<int:roster_id>/", api.RosterDetailView.as_view(), name="api-roster"),
    path("rosters/<int:roster_id>/validate/", api.RosterValidateView.as_view(), name="api-roster-validate"),
    path("rosters/<int:roster_id>/submit/", api.RosterSubmitView.as_view(), name="api-roster-submit"),
    path("rosters/<int:roster_id>/reopen/", api.RosterReopenView.as_view(), name="api-roster-reopen"),
    path("rosters/<int:roster_id>/lock/", api.RosterLockView.as_view(), name="api-roster-lock"),
    path("rosters/<int:roster_id>/unlock/", api.RosterUnlockView.as_view(), name="api-roster-unlock"),
    path("rosters/<int:roster_id>/reprice/", api.RosterRepriceView.as_view(), name="api-roster-reprice"),
    path("rosters/<int:roster_id>/duplicate/", api.RosterDuplicateView.as_view(), name="api-roster-duplicate"),
    path("rosters/<int:roster_id>/export/", api.RosterExportView.as_view(), name="api-roster-export"),
    path("rosters/<int:roster_id>/units/", api.UnitListView.as_view(), name="api-roster-units"),
    path("rosters/<int:roster_id>/units/<int:unit_id>/", api.UnitDetailView.as_view(), name="api-roster-unit"),
    path("rosters/<int:roster_id>/fighters/", api.FighterListView.as_view(), name="api-roster-fighters"),
    path("rosters/<int:roster_id>/fighters/<int:fighter_id>/", api.FighterDetailView.as_view(),
         name="api-roster-fighter"),
    path("rosters/<int:roster_id>/vehicles/", api.VehicleListView.as_view(), name="api-roster-vehicles"),
    path("rosters/<int:roster_id>/vehicles/<int:vehicle_id>/", api.VehicleDetailView.as_view(),
         name="api-roster-vehicle"),
    path("rosters/<int:roster_id>/teams/", api.FowTeamListView.as_view(), name="api-roster-teams"),
    path("rosters/<int:roster_id>/teams/<int:team_id>/", api.FowTeamDetailView.as_view(), name="api-roster-team"),
    path("game-data/", api.GameDataView.as_view(), name="api-game-data"),
    path("rosters/<int:roster_id>/cards.pdf", api_cards.RosterCardsPdfView.as_view(), name="api-roster-cards-pdf"),
    path("characters/<int:character_id>/card.pdf", api_cards.CharacterCardPdfView.as_view(),
         name="api-character-card-pdf"),
]

urlpatterns = [
    path("cards/character/<int:character_id>/", views.character_cards, name="character-cards"),
    path("cards/roster/<int:roster_id>/", views.roster_cards, name="roster-cards"),
    path("rosters/", views.roster_list, name="roster-list"),
    path("rosters/new/", views.roster_new, name="roster-new"),
    path("rosters/import/", views.roster_import, name="roster-import"),
    path("rosters/<int:roster_id>/", views.roster_detail, name="roster-detail"),
    path("rosters/<int:roster_id>/edit/", views.roster_edit, name="roster-edit"),
    path("rosters/<int:roster_id>/units/add/", views.unit_add, name="roster-unit-add"),
    path("rosters/<int:roster_id>/units/<int:unit_id>/remove/", views.unit_remove, name="roster-unit-remove"),
    path("rosters/<int:roster_id>/units/<int:unit_id>/edit/", views.unit_edit, name="roster-unit-edit"),
    path("rosters/<int:roster_id>/units/<int:unit_id>/upgrade/", views.unit_upgrade, name="roster-unit-upgrade"),
    path("rosters/<int:roster_id>/fighters/add/", views.fighter_add, name="roster-fighter-add"),
    path("rosters/<int:roster_id>/fighters/<int:fighter_id>/count/", views.fighter_count, name="roster-fighter-count"),
    path("rosters/<int:roster_id>/vehicles/add/", views.vehicle_add, name="roster-vehicle-add"),
    path("rosters/<int:roster_id>/vehicles/<int:vehicle_id>/remove/", views.vehicle_remove,
         name="roster-vehicle-remove"),
    path("rosters/<int:roster_id>/teams/add/", views.fow_team_add, name="roster-team-add"),
    path("rosters/<int:roster_id>/teams/<int:team_id>/count/", views.fow_team_count, name="roster-team-count"),
    path("rosters/<int:roster_id>/<str:action>/", views.roster_action, name="roster-action"),
]

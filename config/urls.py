"""URL map: pages, admin, the REST API and its schema."""
from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

from battles import api as battles_api
from battles import views as battle_views
from campaign import views as campaign_views

api = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("battles/", battles_api.BattleListView.as_view(), name="api-battles"),
    path("battles/<int:battle_id>/", battles_api.BattleDetailView.as_view(), name="api-battle"),
    path("battles/<int:battle_id>/events/", battles_api.BattleEventsView.as_view(), name="api-battle-events"),
    path("battles/<int:battle_id>/state/", battles_api.BattleStateView.as_view(), name="api-battle-state"),
    path("events/", battles_api.EventFeedView.as_view(), name="api-event-feed"),
    path("event-types/", battles_api.EventTypesView.as_view(), name="api-event-types"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="swagger-ui"),
    path("redoc/", SpectacularRedocView.as_view(url_name="schema"), name="redoc"),
]

urlpatterns = [
    path("", campaign_views.home, name="home"),
    path("campaigns/<int:campaign_id>/", campaign_views.campaign_detail, name="campaign-detail"),
    path("battles/<int:battle_id>/", battle_views.battle_detail, name="battle-detail"),
    path("admin/", admin.site.urls),
    path("api/", include(api)),
    path("", include("rosters.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]
if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

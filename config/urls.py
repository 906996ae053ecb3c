"""URL map: each app's pages and API (its ``urls.py``), the admin, and the API's schema and docs."""
from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView

from battles.urls import api_urls as battles_api
from campaign.accounts import LogoutView
from campaign.urls import api_urls as campaign_api
from config import apidocs, health, monitoring
from rosters.urls import api_urls as rosters_api

api_docs = [
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
    # The API first, the battle log's append first within it: Django tries patterns in order, and every
    # include it passes by on the way costs the hottest request (single-event appends) a little.
    path("api/", include(battles_api + campaign_api + rosters_api + api_docs)),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", monitoring.metrics_view, name="metrics"),
    path("", include("campaign.urls")),
    path("", include("battles.urls")),
    path("", include("rosters.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    # The admin's «Выйти» forgets the offline table too (Clear-Site-Data, docs/offline.md), then its login.
    path("admin/logout/", LogoutView.as_view(next_page="admin:login"), name="admin-logout"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
]
if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

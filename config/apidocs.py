"""The API browsers work offline (the club's laptop at the table may have no
internet): Redoc's standalone bundle, from drf-spectacular-sidecar, always
draws its footer logo from cdn.redoc.ly; we serve the bundle with that one URL
pointing at our own icon. Swagger UI needs nothing from outside."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import drf_spectacular_sidecar
from django.http import HttpResponse
from django.templatetags.static import static
from django.views.decorators.cache import cache_control

BUNDLE = Path(drf_spectacular_sidecar.__file__).resolve().parent / "static" / "drf_spectacular_sidecar" / "redoc" \
    / "bundles" / "redoc.standalone.js"
OUTSIDE_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


@lru_cache(maxsize=1)
def _bundle(logo: str) -> bytes:
    return BUNDLE.read_text(encoding="utf-8").replace(OUTSIDE_LOGO, logo).encode()


@cache_control(max_age=86400, public=True)
def redoc_bundle(request):
    return HttpResponse(_bundle(static("shtab/favicon.svg")), content_type="application/javascript; charset=utf-8")

"""WSGI entry point: Django, with the lean append in front of it
(``battles.wsgi_fast``: a token's ``POST /api/battles/{id}/events/`` without
the middleware chain; everything else goes to Django)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_application = get_wsgi_application()

from battles.wsgi_fast import LeanAppendFront  # noqa: E402  (after Django is set up)

application = LeanAppendFront(django_application)

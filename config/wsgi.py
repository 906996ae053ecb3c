"""WSGI entry point: Django, with the lean append in front of it
(``battles.wsgi_fast``: a token's ``POST /api/battles/{id}/events/`` without
the middleware chain; everything else goes to Django). ``SHTAB_LEAN_FRONT=0``
serves everything through Django (the lean view inside it still answers)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django_application = get_wsgi_application()

if os.environ.get("SHTAB_LEAN_FRONT", "1") == "0":
    application = django_application
else:
    from battles.wsgi_fast import LeanAppendFront

    application = LeanAppendFront(django_application)

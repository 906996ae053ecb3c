"""Settings for the test suite.

On a laptop the suite runs embedded (SQLite, eager Celery). Under ``CI=true``
it must run on PostgreSQL and Redis with a real worker process: missing either
is a failure, never a silent fallback.
"""
import os
import tempfile

from .base import *  # noqa: F403
from .base import DATABASE_URL, REDIS_URL, env_bool

CI = env_bool("CI")
if CI and not (DATABASE_URL.startswith("postgres") and REDIS_URL.startswith("redis")):
    raise RuntimeError(
        "CI=true needs DATABASE_URL=postgres://... and REDIS_URL=redis://...; "
        "the suite refuses to fall back to SQLite or eager Celery under CI."
    )

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
DEBUG = False
if not DATABASE_URL:
    # A file (not :memory:) so threads in concurrency tests share it; one per
    # process so parallel runs on one machine never clobber each other.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.environ.get("SQLITE_TEST_PATH", os.path.join(tempfile.gettempdir(), f"shtab-test-{os.getpid()}.sqlite3"))
    }

# Uploaded photos go to a throw-away folder, never into the checkout.
MEDIA_ROOT = tempfile.mkdtemp(prefix="shtab-test-media-")

# Each run gets a fresh in-process cache (a shared Redis cache would outlive the test database).
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "shtab-test"},
          "tokens": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "shtab-test-tokens"}}

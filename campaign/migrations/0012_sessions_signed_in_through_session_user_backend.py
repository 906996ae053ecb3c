"""The signed-in sessions move to ``config.authentication.SessionUserBackend``, which replaced Django's
``ModelBackend`` in AUTHENTICATION_BACKENDS: a session names the backend that signed its user in, and Django
signs out a session whose backend is no longer listed, so every player would otherwise have been signed out by
the upgrade. A session that cannot be read is left as it is (it signs nobody in either way)."""
from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import migrations

OLD = "django.contrib.auth.backends.ModelBackend"
NEW = "config.authentication.SessionUserBackend"


def _move(apps, schema_editor, *, src: str, dst: str) -> None:
    from django.contrib.sessions.backends.db import SessionStore

    Session = apps.get_model("sessions", "Session")  # noqa: N806 - a model class
    store = SessionStore()
    for key, text in Session.objects.using(schema_editor.connection.alias).values_list("session_key", "session_data").iterator():
        data = store.decode(text)
        if data.get(BACKEND_SESSION_KEY) == src:
            data[BACKEND_SESSION_KEY] = dst
            Session.objects.using(schema_editor.connection.alias).filter(session_key=key).update(
                session_data=store.encode(data))


def forwards(apps, schema_editor):
    _move(apps, schema_editor, src=OLD, dst=NEW)


def backwards(apps, schema_editor):
    _move(apps, schema_editor, src=NEW, dst=OLD)


class Migration(migrations.Migration):

    dependencies = [
        ("campaign", "0011_webhook_delivery"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]

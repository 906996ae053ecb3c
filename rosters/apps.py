from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class RostersConfig(AppConfig):
    name = "rosters"
    verbose_name = _("Rosters")

    def ready(self) -> None:
        post_migrate.connect(_ensure_defaults, sender=self)


def _ensure_defaults(sender, **kwargs) -> None:
    """Default game data survives a flush (tests): post_migrate runs after every migrate and flush."""
    from django.apps import apps

    from .defaults import ensure_game_data

    ensure_game_data(apps.get_model)

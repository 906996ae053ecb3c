from django.apps import AppConfig, apps
from django.db import connections
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _

from .defaults import ensure_game_data


class RostersConfig(AppConfig):
    name = "rosters"
    verbose_name = _("Rosters")

    def ready(self) -> None:
        # ready(): these import models, which cannot load while apps.py does.
        from campaign.services import SIDE_ASSIGNED_HOOKS

        from . import models, selectors, services

        if services.rosters_follow_side not in SIDE_ASSIGNED_HOOKS:  # a character's draft rosters follow his side
            SIDE_ASSIGNED_HOOKS.append(services.rosters_follow_side)
        post_migrate.connect(_ensure_defaults, sender=self)
        post_migrate.connect(selectors.game_rules_cache_clear, sender=self)
        for model in (models.GameDataVersion, models.RosterRules, models.InfantryClass, models.ArmourClass,
                      models.GunClass, models.VehicleOption, models.Upgrade, models.FowTeamType):
            post_save.connect(selectors.game_rules_cache_clear, sender=model, dispatch_uid=f"rules-{model.__name__}")
            post_delete.connect(selectors.game_rules_cache_clear, sender=model,
                                dispatch_uid=f"rules-del-{model.__name__}")


def _ensure_defaults(sender, using="default", **kwargs) -> None:
    """Default game data survives a flush (tests): post_migrate runs after every
    migrate and flush. Skipped while the tables do not exist (a partial migrate)."""
    tables = set(connections[using].introspection.table_names())
    needed = {apps.get_model("rosters", name)._meta.db_table
              for name in ("GameDataVersion", "RosterRules", "InfantryClass", "ArmourClass", "GunClass",
                           "VehicleOption")}
    if needed <= tables:
        ensure_game_data(apps.get_model)

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = _("Battles")

    def ready(self) -> None:
        import gc

        from django.conf import settings

        gc.set_threshold(*settings.SHTAB["GC_THRESHOLD"])  # bench/HISTORY.md, "Garbage collection"
        # A battle that ends gives its mustered rosters back (battles.muster).
        from .muster import rosters_release
        from .services import BATTLE_ENDED_HOOKS

        if rosters_release not in BATTLE_ENDED_HOOKS:
            BATTLE_ENDED_HOOKS.append(rosters_release)

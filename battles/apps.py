import gc

from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = _("Battles")

    def ready(self) -> None:
        gc.set_threshold(*settings.SHTAB["GC_THRESHOLD"])  # bench/HISTORY.md, "Garbage collection"
        # In ready(): these import models, which cannot load while apps.py does.
        from . import selectors, services, tasks
        from .setup import muster

        # campaign's and rosters' pages read battles through what battles installs in their selectors'
        # BATTLE_READS (a campaign's battles; the battle that locks a roster, whether it has fought).
        selectors.reads_install()
        # A battle that ends is concluded in its campaign (battles.results, queued), then gives its
        # mustered rosters back (battles.setup.muster).
        for hook in (tasks.conclude_battle_queue, muster.rosters_release):
            if hook not in services.BATTLE_ENDED_HOOKS:
                services.BATTLE_ENDED_HOOKS.append(hook)

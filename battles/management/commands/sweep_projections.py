"""Requeue replay for every battle whose projection lags its log."""
from django.core.management.base import BaseCommand

from battles.services import projections_sweep


class Command(BaseCommand):
    help = "Queue replay for lagging battle projections. / Поставить в очередь отстающие проекции."

    def handle(self, *args, **options):
        ids = projections_sweep()
        self.stdout.write(self.style.SUCCESS(f"queued {len(ids)} battle(s): {ids}"))

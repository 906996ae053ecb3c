"""Rebuild battle projections from the log (all battles, or one)."""
from django.core.management.base import BaseCommand

from battles.services import projections_rebuild


class Command(BaseCommand):
    help = "Rebuild battle projections from the event log. / Пересобрать проекции боёв из журнала."

    def add_arguments(self, parser):
        parser.add_argument("--battle", type=int, help="only this battle id")

    def handle(self, *args, **options):
        results = projections_rebuild(battle_id=options["battle"])
        for r in results:
            self.stdout.write(f"battle {r.battle_id}: seq {r.seq} ({'written' if r.written else 'unchanged'})")
        self.stdout.write(self.style.SUCCESS(f"rebuilt {len(results)} projection(s)"))
